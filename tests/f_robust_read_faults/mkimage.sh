#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# Something for each pass to read and repair: the casefold flag on a file
# (pass 1), duplicates in an indexed directory and in an inline one
# (pass 2 renames, pass 3 rebuilds).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 2M -b 1024 -O casefold,inline_data
craft "$img" mkdir / cf casefold
{
	i=0
	while [ $i -lt 80 ]; do hex "Ärger-$i"; i=$((i + 1)); done
	hex "ÄRGER-5"; hex "ärger-70"
} | craft "$img" fill /cf
craft "$img" mkdir / in casefold
{ hex Ab; hex aB; } | craft "$img" fill /in
craft "$img" flags /cf/Ärger-3 +casefold
