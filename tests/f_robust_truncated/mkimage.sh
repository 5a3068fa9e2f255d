#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 1M -b 1024 -O casefold
craft "$img" mkdir / cf casefold
{ hex README; hex readme; } | craft "$img" fill /cf
# Cut after the inode table and the directory blocks: everything e2fold
# reads is there, but the superblock claims 1024 blocks.
truncate -s 600K "$img"
