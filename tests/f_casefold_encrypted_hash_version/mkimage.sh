#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
encrypted_fs "$img" 8M 120
# dx_root_info.hash_version (byte 28 of block 0): half_md4 instead of SipHash.
craft "$img" poke /enc 0 28 01
rm -f "$img.names"
