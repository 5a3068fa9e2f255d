#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# Two block groups of 1 KiB blocks, so that group 1 holds a backup
# superblock (block 8193), and a casefolded directory with a name equal
# to another after casefolding. The test zeroes the primary superblock.
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 16M -b 1024 -O casefold
craft "$img" mkdir / cf casefold
{ hex README; hex readme; hex "Straße"; hex notes.txt; } | craft "$img" fill /cf
