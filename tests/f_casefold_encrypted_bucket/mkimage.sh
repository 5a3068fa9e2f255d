#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
encrypted_fs "$img" 8M 120
# Entry 5's stored hash now belongs to another leaf.
craft "$img" sethash /enc "$(sed -n 6p "$img.names")" 0fffff00 12345678
rm -f "$img.names"
