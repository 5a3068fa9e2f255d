#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 4M -b 1024 -O casefold
craft "$img" mkdir / top casefold
craft "$img" mkdir /top sub casefold
{ hex Ärger; hex ärger; hex other; } | craft "$img" fill /top/sub
# /top/sub's ".." (the inode of its second entry, at byte 12) says 11
# (lost+found) instead of /top.
craft "$img" poke /top/sub 0 12 0b000000
