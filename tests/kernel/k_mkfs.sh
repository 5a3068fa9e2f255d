#!/bin/sh
# k_mkfs: Debian's kernel reads what e2fold-mkfs writes. Four images, 1k
# and 4k blocks, strict and not, made from a directory, a pax and two GNU
# tar archives, hold names of many scripts (NFC and NFD), emoji sequences,
# names with Default_Ignorable code points, 255-byte names, invalid UTF-8
# (without strict), a directory of 3,000 entries and one of 20,000 (a
# two-level hash tree on 1k blocks). In one boot the kernel must list
# exactly the names put in each directory and find every name by its own
# bytes and by each other spelling (other case, other normalization, both,
# ignorables removed; in the 20,000, "both" stands for the first two) that
# e2fold-utf8 cmp calls equal, reaching the inode it lists the name with;
# a spelling of an invalid name that is not equal must not be found. The
# casefolded root finds /lost+found as LOST+FOUND. After unmounting,
# e2fsck -fn and e2fold-fsck -fn find every image clean.
#
# Files are left in $top_builddir/tests/kernel/SUITE/k_mkfs/.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
kinit k_mkfs
names=$out/names
mkdir -p "$names"

# --- The names, one directory each (see names.txt). ---
for d in Scripts Emoji Ignorable Invalid; do
	names_of $d > "$names/$d"
done
long_names > "$names/Long"
if awk 'length($0) != 510 { exit 1 }' "$names/Long"; then :; else
	echo "ERROR: a long name is not 255 bytes"
	exit 99
fi
# Big hash trees: 3,000 and 20,000 entries.
numbered 500 'Ελληνικά-%04d' 'Ǆemal-%04d' 'ﬁle-%04d' '\x{212A}elvin-%04d' \
	'Ꭰ-Cherokee-%04d' 'Ẫ-Vietnamese-%04d' > "$names/Mid"
numbered 4000 'Ωméga-%05d' 'Ёлка-%05d' 'Việt-%05d' '한글-File-%05d' 'Ärger-%05d' > "$names/Big"
[ "$(wc -l < "$names/Big")" = 20000 ] || { echo "ERROR: Big is not 20000 names"; exit 99; }

# --- The sources and images. ---
# A directory tree of the small valid directories (a slow disk makes
# thousands of files costly), and archives written directly: pax with the
# valid directories and Mid; GNU with every directory, with and without Big.
for d in Scripts Emoji Ignorable Long; do
	make_files "$out/tree-strict/$d" < "$names/$d"
done
for d in Scripts Emoji Ignorable Long Mid; do
	tar_list "$d" < "$names/$d"
done > "$out/strict.list"
{ cat "$out/strict.list"; tar_list Invalid < "$names/Invalid"; } > "$out/all.list"
write_tar pax "$out/strict.tar" < "$out/strict.list"
write_tar gnu "$out/all.tar" < "$out/all.list"
{ cat "$out/all.list"; tar_list Big < "$names/Big"; } | write_tar gnu "$out/big.tar"

mkfs() { # IMAGE SIZE OPTION...
	img=$out/$1 size=$2
	shift 2
	if ! "$E2FOLD_MKFS" -q -F -U 6b3c8a3e-51d4-4c0e-9a2b-0e2f1d3c4b5a "$@" "$img" "$size" \
		> "$img.mkfs.log" 2>&1; then
		echo "ERROR: e2fold-mkfs $* failed:"
		cat "$img.mkfs.log"
		exit 99
	fi
}
mkfs a1k.img 128M -b 1024 -N 32768 -O casefold \
	-E hash_seed=2a7f9c1e-3b5d-4e6f-8a9b-1c2d3e4f5a6b,casefold_dirs=all \
	-d "$out/big.tar"
mkfs b4k.img 64M -b 4096 -O casefold \
	-E hash_seed=0d3e6f4a-1b2c-4d5e-8f90-a1b2c3d4e5f6,encoding_flags=strict,casefold_dirs=all \
	-d "$out/tree-strict"
mkfs c1k.img 32M -b 1024 -O casefold \
	-E hash_seed=5e4d3c2b-1a09-4f8e-9d7c-6b5a49382716,encoding_flags=strict,casefold_dirs=all \
	-d "$out/strict.tar"
mkfs d4k.img 64M -b 4096 -O casefold \
	-E hash_seed=00000000-0000-0000-0000-000000000000,encoding_flags=hashonly,casefold_root \
	-d "$out/all.tar"
levels=$("$E2FOLD_DEBUGFS" -R "htree_dump /Big" "$out/a1k.img" 2>&1 |
	sed -n 's/^root: .*indirect levels \([0-9]*\).*/\1/p')
[ "$levels" = 1 ] || kfail "a1k.img: /Big has indirect levels '$levels', want 1 (two-level tree)"

# --- What the VM looks up: each name and its other spellings. ---
# Images as the VM sees them, and their directories.
set -- vda "Scripts Emoji Ignorable Long Mid Invalid Big" \
	vdb "Scripts Emoji Ignorable Long" \
	vdc "Scripts Emoji Ignorable Long Mid" \
	vdd "Scripts Emoji Ignorable Long Mid Invalid"
mkdir -p "$out/in"
for d in Scripts Emoji Ignorable Long Mid Invalid Big; do
	spellings "$names/$d" > "$out/$d.sp" || exit 99
	check_spellings "$out/$d.sp" "$d"
done
while [ $# -gt 0 ]; do
	dev=$1 dirs=$2
	shift 2
	{ for d in $dirs; do printf '%s\n' "$d"; done; echo lost+found; } |
		hexlines > "$names/$dev.ROOT"
	spellings "$names/$dev.ROOT" > "$out/$dev.ROOT.sp" || exit 99
	split_spellings "$out/$dev.ROOT.sp" "$out/in/$dev.ROOT"
	for d in $dirs; do
		split_spellings "$out/$d.sp" "$out/in/$dev.$d"
	done
	# In Big, one spelling of both other case and other normalization
	# for each name, to save a third of the VM's time.
	[ -f "$out/in/$dev.Big.both.sp" ] && rm -f "$out/in/$dev.Big.case.sp" "$out/in/$dev.Big.norm.sp"
	echo "$dev $dirs" >> "$out/layout"
done
if ! grep -q '^4c4f53542b464f554e44 6c6f73742b666f756e64 case equal$' "$out/vda.ROOT.sp"; then
	kfail "LOST+FOUND is not among the spellings of the root"
fi

write_scenario
files=
for f in "$out/in"/*.sp; do
	files="$files --file $f"
done
# shellcheck disable=SC2086
run_vm --image "$out/a1k.img" --image "$out/b4k.img" --image "$out/c1k.img" \
	--image "$out/d4k.img" $files
cat "$out/actual"
grep -q '^ext4 errors: 0$' "$out/actual" || kfail "the kernel reported ext4 errors"

: > "$out/lookups.log"
while read -r dev dirs; do
	check_listing "$names/$dev.ROOT" "$dev.ROOT"
	check_lookups "$dev.ROOT" ENOENT
	for d in $dirs; do
		check_listing "$names/$d" "$dev.$d"
		check_lookups "$dev.$d" ENOENT
	done
done < "$out/layout"
echo "lookups: $(lookup_total) (see lookups.log)"

both_fsck_clean "$out/a1k.img" "$out/b4k.img" "$out/c1k.img" "$out/d4k.img"
kfinish "the kernel lists and finds every name e2fold-mkfs wrote, in every spelling"
