#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# A sound image; the test script damages one superblock field at a time
# (no metadata_csum, so that the field is all that is wrong).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 1M -b 1024 -O casefold,^metadata_csum
craft "$img" mkdir / cf casefold

{ hex_numbered 60 'Größe-%d'; hex "GRÖSSE-7"; } |
	craft "$img" fill /cf
