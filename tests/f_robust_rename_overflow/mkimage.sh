#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
EXTENDED=encoding_flags=strict new_fs "$img" 1M -b 1024 -O casefold
craft "$img" mkdir / cf casefold
# 252 valid bytes, then one that is not UTF-8: its "%FF" fills the new
# name to exactly 255 bytes (e2fold's rename once wrote a NUL after it,
# one byte past its buffer; the fuzzer found it).
{
	printf '%0504d' 0 | sed 's/00/61/g'; printf 'ff\n'
	printf '%0504d' 0 | sed 's/00/62/g'; printf 'ff\n'
} | craft "$img" fill /cf
