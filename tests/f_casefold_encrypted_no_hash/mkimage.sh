#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
encrypted_dir "$img" 8M
cipher_names 4 > "$img.names"
printf '10000000 1\n20000000 2\n30000000 3\n40000000 4\n' > "$img.hashes"
craft "$img" fill /enc stored "$img.hashes" < "$img.names"
# The third entry (offset 24+48 in the only block) claims a 36-byte name
# in a record that then has no room for the 8 hash bytes.
craft "$img" poke /enc 0 78 24
rm -f "$img.names" "$img.hashes"
