#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 4M -b 1024 -O casefold
craft "$img" mkdir / cf casefold
{ hex README; hex readme; hex "Straße"; hex STRASSE; hex "photo.JPG"; hex "Photo.jpg"; } |
	craft "$img" fill /cf
craft "$img" mkdir / plain
hex notes.txt | craft "$img" fill /plain
# EXT2_INDEX_FL (an htree) on a regular file.
craft "$img" flags /plain/notes.txt +index
