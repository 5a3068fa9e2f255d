#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
encrypted_htree2 "$img"
# Something only e2fsck repairs, so that it must run on the device.
craft "$img" super free_blocks=100
