# mkimage-lib.sh: what every tests/*/mkimage.sh needs to build its image
# reproducibly from nothing. Source it, then call the functions; CFCRAFT
# must name the built tests/cfcraft (run-test exports it).
#
# Reproducible: a fixed UUID, hash seed and time, no journal (it only
# adds size), deterministic mke2fs; images are gzipped with -n.

E2FSPROGS_FAKE_TIME=${E2FSPROGS_FAKE_TIME:-1700000000}
MKE2FS_DETERMINISTIC=1
MKE2FS_CONFIG=$top_srcdir/tests/mke2fs.conf
# e2fsprogs 1.47.1 and newer prefer SOURCE_DATE_EPOCH (tests/run-test).
SOURCE_DATE_EPOCH=$E2FSPROGS_FAKE_TIME
export E2FSPROGS_FAKE_TIME MKE2FS_DETERMINISTIC MKE2FS_CONFIG SOURCE_DATE_EPOCH

# new_fs IMAGE SIZE [mke2fs options...]: ext4 as Debian 12 makes it
# (mke2fs -t ext4, tests/mke2fs.conf), without a journal. Extended options
# go in $EXTENDED (mke2fs takes one -E), e.g. EXTENDED=encoding_flags=strict.
new_fs() {
	img=$1 size=$2
	shift 2
	: > "$img"	# an existing file: mke2fs says nothing about it
	mke2fs -q -F -t ext4 -O ^has_journal \
		-I 256 -U 6b3c8a3e-51d4-4c0e-9a2b-0e2f1d3c4b5a \
		-E hash_seed=2a7f9c1e-3b5d-4e6f-8a9b-1c2d3e4f5a6b${EXTENDED:+,$EXTENDED} \
		"$@" \
		"$img" "$size" || exit 99
}

# hex STRING: its bytes in hex, as cfcraft reads names.
hex() {
	printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'
	echo
}

# hex_numbered N FORMAT: hex of printf FORMAT I for I from 0 to N-1, a
# line each (FORMAT holds one %d).
hex_numbered() {
	i=0
	while [ $i -lt "$1" ]; do
		# shellcheck disable=SC2059
		hex "$(printf "$2" $i)"
		i=$((i + 1))
	done
}

# craft IMAGE ARGS...: run cfcraft, stopping the script on failure.
craft() {
	"$CFCRAFT" "$@" || exit 99
}

# Ciphertext names and the SipHash values stored beside them cannot be
# computed without a key; for an encrypted casefolded directory any bytes
# will do, derived reproducibly from sha256.
# cipher_names N: N names of 64 hex characters, one per line.
cipher_names() {
	i=0
	while [ $i -lt "$1" ]; do
		printf 'name %d' $i | sha256sum | cut -c1-64
		i=$((i + 1))
	done
}

# cipher_hashes N: N stored hashes "HASH MINOR_HASH" in hex, one per line
# (a directory hash has bit 0 clear).
cipher_hashes() {
	i=0
	while [ $i -lt "$1" ]; do
		h=$(printf 'hash %d' $i | sha256sum)
		printf '%08x %s\n' $(( 0x$(echo "$h" | cut -c1-8) & ~1 )) \
			"$(echo "$h" | cut -c9-16)"
		i=$((i + 1))
	done
}

# faulty_fs IMAGE: a small image with something for each pass of
# e2fold-fsck to repair, for the fault and kill tests: the casefold flag
# on a file (pass 1), duplicates in an indexed directory and in an inline
# one (pass 2 renames, pass 3 rebuilds).
faulty_fs() {
	new_fs "$1" 2M -b 1024 -O casefold,inline_data
	craft "$1" mkdir / cf casefold
	{
		i=0
		while [ $i -lt 80 ]; do hex "Ärger-$i"; i=$((i + 1)); done
		hex "ÄRGER-5"; hex "ärger-70"
	} | craft "$1" fill /cf
	craft "$1" mkdir / in casefold
	{ hex Ab; hex aB; } | craft "$1" fill /in
	craft "$1" flags /cf/Ärger-3 +casefold
}

# encrypted_dir IMAGE SIZE: an image of 1 KiB blocks with an empty
# encrypted casefolded directory /enc (cfcraft's policy). Fill it with
#   craft IMAGE fill /enc stored HASHES < NAMES
encrypted_dir() {
	new_fs "$1" "$2" -b 1024 -O casefold,encrypt
	craft "$1" mkdir / enc casefold encrypt
	craft "$1" policy /enc
}

# encrypted_fs IMAGE SIZE N: encrypted_dir, and /enc holds N files, named
# by cipher_names with the stored hashes of cipher_hashes; the names stay
# in IMAGE.names, for the damage that follows.
encrypted_fs() {
	encrypted_dir "$1" "$2"
	cipher_names "$3" > "$1.names"
	cipher_hashes "$3" > "$1.hashes"
	craft "$1" fill /enc stored "$1.hashes" < "$1.names"
	rm -f "$1.hashes"
}

# encrypted_htree2 IMAGE: a 1 KiB-block image whose encrypted casefolded
# directory /enc has a two-level htree in Linux's layout (interior nodes
# at logical blocks 1 and 2, room for 125 entries each): 600 names of
# 192 bytes (384 hex digits) fill 150 leaves, more than the root's 123.
encrypted_htree2() {
	encrypted_dir "$1" 8M
	cipher_names 600 | sed 's/.*/&&&&&&/' | cut -c1-384 > "$1.names"
	cipher_hashes 600 > "$1.hashes"
	craft "$1" fill /enc stored "$1.hashes" < "$1.names"
	rm -f "$1.names" "$1.hashes"
}
