#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 8M -b 1024 -O casefold,encrypt
craft "$img" mkdir / enc casefold encrypt
craft "$img" policy /enc
cipher_names 120 > "$img.names"
cipher_hashes 120 > "$img.hashes"
craft "$img" fill /enc stored "$img.hashes" < "$img.names"
# dx_root_info.hash_version (byte 28 of block 0): half_md4 instead of SipHash.
craft "$img" poke /enc 0 28 01
rm -f "$img.names" "$img.hashes"
