#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# Kill points on a strict 1 KiB filesystem: an indexed casefolded
# directory whose names that fold differently sit in the leaf of their
# raw bytes' hash (the wrong one), one name that is not valid UTF-8 and
# must be renamed, and a zero-length README among them.
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
EXTENDED=encoding_flags=strict new_fs "$img" 4M -b 1024 -O casefold
craft "$img" mkdir / CfDir casefold
{
	i=0
	while [ $i -lt 120 ]; do hex "Document-$i.PDF"; i=$((i + 1)); done
	hex README
	printf '61ff62\n'	# a, 0xFF, b
} | craft "$img" fill /CfDir raw
