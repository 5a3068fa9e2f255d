#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# Repairs in every phase that writes, so that a fault can hit each:
# faulty_fs's (passes 1 to 3), and an unknown encoding (pass 0, before
# e2fsck).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
faulty_fs "$img"
craft "$img" super encoding=7
