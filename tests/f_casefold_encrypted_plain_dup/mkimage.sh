#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 4M -b 1024 -O encrypt
craft "$img" mkdir / enc encrypt
craft "$img" policy /enc
{
	printf 'name 1' | sha256sum | cut -c1-64
	printf 'name 1' | sha256sum | cut -c1-64
	printf 'name 2' | sha256sum | cut -c1-64
} | craft "$img" fill /enc
