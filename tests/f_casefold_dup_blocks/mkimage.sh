#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 4M -b 1024 -O casefold,^dir_index
craft "$img" mkdir / cf casefold
{
	hex README
	hex_numbered 150 'entry-number-%d'
	hex readme
} | craft "$img" fill /cf
