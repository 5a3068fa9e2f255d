#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# Kill points in a linear directory: 1 KiB blocks without dir_index nor
# metadata_csum, a casefolded directory of four blocks whose duplicates
# are in other blocks than the names they collide with.
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 2M -b 1024 -O casefold,^dir_index,^metadata_csum
craft "$img" mkdir / cf casefold
{
	i=0
	while [ $i -lt 60 ]; do hex "Notes-$i"; i=$((i + 1)); done
	hex "NOTES-1"; hex "notes-30"; hex "Straße"; hex "STRASSE"
} | craft "$img" fill /cf
