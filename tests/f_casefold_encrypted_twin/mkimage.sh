#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 8M -b 1024 -O casefold,encrypt
craft "$img" mkdir / enc casefold encrypt
craft "$img" policy /enc
cipher_names 200 > "$img.names"
cipher_hashes 200 > "$img.hashes"
craft "$img" fill /enc stored "$img.hashes" < "$img.names"
# Name 50 twice for its own inode (a hard link by the same name); name
# 100 twice, the second for the inode of name 150, whose entry goes.
craft "$img" twin /enc "$(sed -n 51p "$img.names")"
craft "$img" twin /enc "$(sed -n 101p "$img.names")" "$(sed -n 151p "$img.names")"
rm -f "$img.names" "$img.hashes"
