#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 8M -b 1024 -O casefold
craft "$img" mkdir / cf casefold
hex_numbered 300 'Doc-%d.PDF' | craft "$img" fill /cf raw
craft "$img" super encoding=9
