#!/bin/sh
# mkseeds.sh OUTDIR: build the seed images of the fsck fuzzer from
# nothing, reproducibly (mkimage-lib.sh: fixed UUID, hash seed and time),
# as OUTDIR/NAME.img.gz. The committed fuzz/seeds/*.img.gz are exactly
# what this builds (tests/fuzz.mk checks it). CFCRAFT and top_srcdir must
# be set, as tests/run-test sets them.
#
# Tiny on purpose (256 KiB, 1 KiB blocks) so that an execution is cheap;
# each seed shows the fuzzer a different shape of casefold directory:
#   linear    casefolded and plain directories in one block each
#   htree     an indexed casefolded directory and a nested one
#   strict    strict encoding, invalid names present
#   encrypt   an encrypted casefolded directory, indexed, stored hashes
#   inline    inline-data directories
#   nocsum    no metadata_csum (damage is not hidden behind checksums),
#             with duplicates that need renames
set -eu
out=$1
mkdir -p "$out"
. "$top_srcdir/tests/mkimage-lib.sh"

tmp=$out/seed.tmp
SIZE=256K

finish() {
	gzip -n -9 -c "$tmp" > "$out/$1.img.gz"
	rm -f "$tmp"
}

# linear
new_fs "$tmp" $SIZE -b 1024 -N 128 -O casefold
craft "$tmp" mkdir / cf casefold
{
	hex README; hex "Straße"; hex "café"; printf '63616665cc81\n'
	hex "a‍b"; hex "ﬁle"; printf '4180\n'; printf '61ff62\n'
} | craft "$tmp" fill /cf
craft "$tmp" mkdir / plain
{ hex README; hex readme; printf '61ff62\n'; } | craft "$tmp" fill /plain
finish linear

# htree
new_fs "$tmp" $SIZE -b 1024 -N 128 -O casefold
craft "$tmp" mkdir / cf casefold
i=0
while [ $i -lt 60 ]; do hex "Größe-$i"; i=$((i + 1)); done |
	craft "$tmp" fill /cf
craft "$tmp" mkdir /cf sub casefold
{ hex "ΣΊΣΥΦΟΣ"; hex "σίσυφος"; hex "ǅ"; } | craft "$tmp" fill /cf/sub
finish htree

# strict
EXTENDED=encoding_flags=strict new_fs "$tmp" $SIZE -b 1024 -N 128 -O casefold
craft "$tmp" mkdir / cf casefold
{
	hex ok.txt; hex "Ωmega"; printf '61ff62\n'; printf '4180\n'
	printf 'eda08078\n'
} | craft "$tmp" fill /cf
finish strict

# encrypt
new_fs "$tmp" $SIZE -b 1024 -N 128 -O casefold,encrypt
craft "$tmp" mkdir / enc casefold encrypt
craft "$tmp" policy /enc
i=0
while [ $i -lt 40 ]; do
	printf 'name %d' $i | sha256sum | cut -c1-40
	i=$((i + 1))
done > "$tmp.names"
i=0
while [ $i -lt 40 ]; do
	h=$(printf 'hash %d' $i | sha256sum)
	printf '%08x %s\n' $(( 0x$(echo "$h" | cut -c1-8) & ~1 )) \
		"$(echo "$h" | cut -c9-16)"
	i=$((i + 1))
done > "$tmp.hashes"
craft "$tmp" fill /enc stored "$tmp.hashes" < "$tmp.names"
rm -f "$tmp.names" "$tmp.hashes"
finish encrypt

# inline
new_fs "$tmp" $SIZE -b 1024 -N 128 -O casefold,inline_data
craft "$tmp" mkdir / cf casefold
{ hex Ab; hex "ß"; } | craft "$tmp" fill /cf
craft "$tmp" mkdir / cf2 casefold
{ hex x; hex "É"; hex "e"; } | craft "$tmp" fill /cf2
finish inline

# nocsum
new_fs "$tmp" $SIZE -b 1024 -N 128 -O casefold,^metadata_csum
craft "$tmp" mkdir / cf casefold
i=0
while [ $i -lt 50 ]; do hex "Item-$i"; i=$((i + 1)); done |
	{ cat; hex item-7; hex "ITEM-8"; } | craft "$tmp" fill /cf
craft "$tmp" mkdir / lin casefold
{ hex README; hex readme; hex "Straße"; hex STRASSE; } |
	craft "$tmp" fill /lin
finish nocsum
