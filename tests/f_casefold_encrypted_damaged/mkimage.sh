#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
encrypted_fs "$img" 8M 120
# The root's entry limit no longer matches the block size.
craft "$img" poke /enc 0 32 0500
rm -f "$img.names"
