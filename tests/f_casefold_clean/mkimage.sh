#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 8M -b 1024 -O casefold
craft "$img" mkdir / cf casefold
{
	hex README.md; hex "Straße"; hex "café"; hex "Ελληνικά"; hex "Кириллица"
	hex "漢字"; hex "日本語のファイル"; hex "한국어"; hex "👨‍👩‍👧"
	hex "❤️"; hex "Ǆemal"; hex "ﬁle"; hex "Ωmega"; hex "a‍b"
	hex "$(printf 'é%.0s' $(seq 127))x"; hex "नमस्ते"; hex "עברית"
	hex "العربية"; hex "İstanbul"; hex "ıi"; hex "ǅ"; hex "ß-x"
} | craft "$img" fill /cf
craft "$img" mkdir /cf big casefold
hex_numbered 400 'Größe-%d-Ärger' |
	craft "$img" fill /cf/big
craft "$img" mkdir / plain
{ hex README; hex readme; printf '61ff62\n'; } | craft "$img" fill /plain
