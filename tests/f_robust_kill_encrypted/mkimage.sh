#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# An encrypted casefolded directory whose index must be rebuilt from the
# stored hashes (one entry sits outside its leaf's range).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 2M -b 1024 -O casefold,encrypt
craft "$img" mkdir / enc casefold encrypt
craft "$img" policy /enc
cipher_names 60 > "$img.names"
cipher_hashes 60 > "$img.hashes"
craft "$img" fill /enc stored "$img.hashes" < "$img.names"
craft "$img" sethash /enc "$(sed -n 6p "$img.names")" 0fffff00 12345678
rm -f "$img.names" "$img.hashes"
