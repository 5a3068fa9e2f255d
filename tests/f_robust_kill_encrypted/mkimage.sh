#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# An encrypted casefolded directory whose index must be rebuilt from the
# stored hashes (one entry sits outside its leaf's range).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
encrypted_fs "$img" 2M 60
craft "$img" sethash /enc "$(sed -n 6p "$img.names")" 0fffff00 12345678
rm -f "$img.names"
