#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
encrypted_dir "$img" 8M
cipher_names 120 > "$img.names"
cipher_hashes 120 > "$img.hashes"
# Entries 7 and 8 get the same stored hash: the same name under one key.
sed -i '8s/.*/'"$(sed -n 7p "$img.hashes")"'/' "$img.hashes"
craft "$img" fill /enc stored "$img.hashes" < "$img.names"
rm -f "$img.names" "$img.hashes"
