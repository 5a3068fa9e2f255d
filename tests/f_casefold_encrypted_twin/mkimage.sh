#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
encrypted_fs "$img" 8M 200
# Name 50 twice for its own inode (a hard link by the same name); name
# 100 twice, the second for the inode of name 150, whose entry goes.
craft "$img" twin /enc "$(sed -n 51p "$img.names")"
craft "$img" twin /enc "$(sed -n 101p "$img.names")" "$(sed -n 151p "$img.names")"
rm -f "$img.names"
