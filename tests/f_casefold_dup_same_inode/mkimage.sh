#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# The same name for the same inode twice, its link count raised as a hard
# link's: what a leaf split or a new index cut short by a kill leaves.
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 4M -b 1024 -O casefold
craft "$img" mkdir / cf casefold
printf '%s\n' "$(hex README)" "$(hex notes.txt)" "$(hex Straße)" |
	craft "$img" fill /cf
craft "$img" twin /cf "$(hex notes.txt)"
craft "$img" twin /cf "$(hex Straße)"
