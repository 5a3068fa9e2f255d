#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 8M -b 1024 -O casefold,^metadata_csum
craft "$img" mkdir / cf casefold
hex_numbered 200 'Item-%d' | craft "$img" fill /cf
# The root's entry limit (bytes 32-33) no longer matches the block size.
craft "$img" poke /cf 0 32 0500
