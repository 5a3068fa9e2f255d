#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# Kill points on 4 KiB blocks with metadata_csum: an indexed casefolded
# directory of three leaves whose duplicates (in the first and the last
# leaf) must be renamed.
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 4M -O casefold
craft "$img" mkdir / cf casefold
{
	i=0
	while [ $i -lt 300 ]; do hex "Report-$i.txt"; i=$((i + 1)); done
	hex "REPORT-7.TXT"; hex "report-290.txt"
} | craft "$img" fill /cf
