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
i=0
while [ $i -lt 60 ]; do
	printf 'name %d' $i | sha256sum | cut -c1-64
	i=$((i + 1))
done > "$img.names"
i=0
while [ $i -lt 60 ]; do
	h=$(printf 'hash %d' $i | sha256sum)
	# A directory hash has bit 0 clear.
	printf '%08x %s\n' $(( 0x$(echo "$h" | cut -c1-8) & ~1 )) "$(echo "$h" | cut -c9-16)"
	i=$((i + 1))
done > "$img.hashes"
craft "$img" fill /enc stored "$img.hashes" < "$img.names"
craft "$img" sethash /enc "$(sed -n 6p "$img.names")" 0fffff00 12345678
rm -f "$img.names" "$img.hashes"
