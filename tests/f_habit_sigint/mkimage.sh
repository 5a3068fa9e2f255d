#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# Four casefolded directories of 80 names, each with two names equal to
# earlier ones after casefolding: four rewrites of several blocks, so a
# signal can come before, inside and between them.
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 4M -b 1024 -O casefold,^metadata_csum
for d in d1 d2 d3 d4; do
	craft "$img" mkdir / $d casefold
	{
		hex_numbered 78 "file-%03d.txt"
		hex "FILE-007.TXT"; hex "File-042.Txt"
	} | craft "$img" fill /$d
done
