#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 4M -b 1024 -O casefold,^metadata_csum
craft "$img" mkdir / cf casefold
{
	hex README; hex readme; hex "Straße"; hex STRASSE; hex "café"
	hex "cafe$(printf '\314\201')"; hex "❤"; hex "❤️"
	hex "$(printf '\342\204\246')"; hex "ω"; hex "ﬁle"; hex FILE
	hex "notes.TXT"; hex "Notes.txt"
} | craft "$img" fill /cf
