#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 8M -b 1024 -O casefold,encrypt
craft "$img" mkdir / enc casefold encrypt
craft "$img" policy /enc
# Ciphertext names and their stored SipHash values cannot be computed
# without a key; any bytes will do, derived reproducibly from sha256.
i=0
while [ $i -lt 120 ]; do
	printf 'name %d' $i | sha256sum | cut -c1-64
	i=$((i + 1))
done > "$img.names"
i=0
while [ $i -lt 120 ]; do
	h=$(printf 'hash %d' $i | sha256sum)
	# A directory hash has bit 0 clear.
	printf '%08x %s\n' $(( 0x$(echo "$h" | cut -c1-8) & ~1 )) "$(echo "$h" | cut -c9-16)"
	i=$((i + 1))
done > "$img.hashes"
craft "$img" fill /enc stored "$img.hashes" < "$img.names"
# dx_root_info.hash_version (byte 28 of block 0): half_md4 instead of SipHash.
craft "$img" poke /enc 0 28 01
rm -f "$img.names" "$img.hashes"
