#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# Names placed as doc/kernel-facts.md, "The Default_Ignorable episode",
# describes.
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 8M -b 1024 -O casefold
craft "$img" mkdir / cf casefold
{
	hex_numbered 250 'plain-%d'
	hex "soft$(printf '\302\255')hyphen"
	hex "zero$(printf '\342\200\213')width"
	hex "heart$(printf '\342\235\244\357\270\217')"
} | craft "$img" fill /cf keep-ignorables
