#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 16M -b 4096 -O casefold
craft "$img" mkdir / cf casefold
{
	hex_numbered 600 'Photo_%d.JPG'
	hex photo_17.jpg; hex PHOTO_599.jpg; hex "photo_300.jpg"
} | craft "$img" fill /cf
