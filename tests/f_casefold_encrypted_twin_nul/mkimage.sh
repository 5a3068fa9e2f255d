#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
encrypted_dir "$img" 8M
# 200 names, the first 40 of them beginning with a NUL byte (as one
# ciphertext in 256 does).
cipher_names 200 | sed '1,40s/^../00/' > "$img.names"
cipher_hashes 200 > "$img.hashes"
craft "$img" fill /enc stored "$img.hashes" < "$img.names"
# Name 10 twice for its own inode; name 20 twice, the second for the
# inode of name 30, whose entry goes.
craft "$img" twin /enc "$(sed -n 11p "$img.names")"
craft "$img" twin /enc "$(sed -n 21p "$img.names")" "$(sed -n 31p "$img.names")"
rm -f "$img.names" "$img.hashes"
