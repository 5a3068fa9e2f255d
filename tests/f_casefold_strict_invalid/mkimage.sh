#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
EXTENDED=encoding_flags=strict new_fs "$img" 4M -b 1024 -O casefold
craft "$img" mkdir / cf casefold
{
	printf '61ff62\n'		# a, 0xFF, b
	printf '62c3\n'		# a truncated sequence
	printf '4180\n'		# a stray continuation byte
	printf 'eda08078\n'	# a surrogate
	printf 'c0af\n'		# an overlong '/'
	hex "a%FFb"		# the sanitized name of the first is taken
	hex ok.txt
} | craft "$img" fill /cf
