#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# What a run killed between moving an inline directory into a block and
# dropping its "system.data" attribute leaves: a block directory that
# still has the attribute (e2fsprogs' debugfs sets it).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 2M -b 1024 -O casefold,inline_data
craft "$img" mkdir / cf casefold
{ hex Ab; hex README; } | craft "$img" fill /cf
debugfs -w -R 'ea_set /cf system.data abc' "$img" > /dev/null 2>&1 || exit 99
