#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# The entries of f_casefold_bad_bucket, on a filesystem that carries
# no_compat_fallback: its promise broken, no kernel finds them by name.
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 8M -b 1024 -O casefold
craft "$img" super flags=2
craft "$img" mkdir / cf casefold
i=0
while [ $i -lt 300 ]; do hex "Document-$i.PDF"; i=$((i + 1)); done |
	craft "$img" fill /cf raw
