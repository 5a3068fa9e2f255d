#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
EXTENDED=encoding_flags=strict new_fs "$img" 4M -b 1024 -O casefold
craft "$img" mkdir / cf casefold
printf '61ff62\n4180\n6f6b2e747874\n' | craft "$img" fill /cf
craft "$img" orphan
