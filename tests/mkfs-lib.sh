# mkfs-lib.sh: helpers for the m_casefold_* tests of e2fold-mkfs. A test's
# script sources it; run-test has exported top_srcdir, test_dir, out_dir
# and the tools. Work happens in $out_dir; failures are collected in
# $status and reported with both sides, and finish() compares every
# expect.N of the test with the out.N the script wrote.

. "$top_srcdir/tests/image-test.sh"

name=$(basename "$test_dir")
status=0
cd "$out_dir" || exit 99

# The fixed identity every test image gets (time: E2FSPROGS_FAKE_TIME).
UUID=6b3c8a3e-51d4-4c0e-9a2b-0e2f1d3c4b5a
SEED=2a7f9c1e-3b5d-4e6f-8a9b-1c2d3e4f5a6b

fail() {
	echo "$name: $*"
	status=1
}

# mkfs ARGS...: e2fold-mkfs with the fixed UUID and hash seed.
mkfs() {
	"$E2FOLD_MKFS" -U $UUID -E hash_seed=$SEED "$@"
}

# ref_mkfs ARGS...: the system mke2fs, the same way (one -E only: mke2fs
# keeps just the last). Extended options go in $REF_EXTENDED.
ref_mkfs() {
	mke2fs -q -F -U $UUID -E hash_seed=$SEED${REF_EXTENDED:+,$REF_EXTENDED} \
		"$@" > /dev/null
}

# run_logged OUT ARGS...: run e2fold-mkfs, append its output and exit
# status to OUT (both streams, filtered), return its status.
run_logged() {
	out=$1
	shift
	mkfs "$@" > raw.log 2>&1
	rc=$?
	filter_output < raw.log >> "$out"
	echo "exit $rc" >> "$out"
	return $rc
}

# fsck_clean IMAGE: the system e2fsck, the independent judge, finds
# nothing to fix.
fsck_clean() {
	if ! e2fsck -fn "$1" > "$1.fsck" 2>&1; then
		fail "e2fsck -fn $1 finds problems:"
		cat "$1.fsck"
	fi
}

# sb_fields IMAGE ERE: the superblock fields dumpe2fs -h shows whose
# names match ERE, as "Name: value": its column spacing is not ours and
# changed (1.47.0 put a tab after "Inode size:", 1.47.2 spaces).
sb_fields() {
	dumpe2fs -h "$1" 2>/dev/null | grep -E "^($2):" |
		sed 's/:[[:space:]]*/: /'
}

# sb_u16 IMAGE OFFSET: a little-endian 16-bit superblock field, by its
# offset inside the superblock (which starts at byte 1024).
sb_u16() {
	od -An -tu2 --endian=little -j $((1024 + $2)) -N2 "$1" | tr -d ' '
}

# ino_field IMAGE PATH FIELD: a field of `debugfs stat` (Flags, Links...).
ino_field() {
	debugfs -R "stat \"$2\"" "$1" 2>/dev/null |
		sed -n "s/.*$3: *\([^ ]*\).*/\1/p" | head -n 1
}

# bytes HEX...: print those bytes (dash's printf has no \x escapes).
bytes() {
	for hex in "$@"; do
		for b in $(echo "$hex" | sed 's/../& /g'); do
			# shellcheck disable=SC2059
			printf "\\$(printf %03o "0x$b")"
		done
	done
}

# same_files SRC IMAGE: every file, directory and symlink of SRC is in
# IMAGE under the same name with the same contents (debugfs rdump, then
# diff -r; rdump skips device nodes, fifos and sockets, so diff's "Only
# in SRC" lines about those are dropped).
same_files() {
	rm -rf rdump.out
	mkdir rdump.out
	debugfs -R "rdump / rdump.out" "$2" > /dev/null 2>&1
	rm -rf rdump.out/lost+found
	diff -r --no-dereference "$1" rdump.out > rdump.diff 2>&1
	while IFS= read -r line; do
		case $line in
		"Only in $1"*)
			dir=${line#Only in }
			path=${dir%%: *}/${line#*: }
			if [ -p "$path" ] || [ -S "$path" ] || [ -c "$path" ] ||
			   [ -b "$path" ]; then
				continue
			fi
			;;
		esac
		echo "$line"
	done < rdump.diff > rdump.left
	if [ -s rdump.left ]; then
		fail "the files in $2 differ from $1:"
		head -n 20 rdump.left
	fi
}

# unchanged FILE SUM: FILE still has checksum SUM ("absent" if missing).
checksum() {
	if [ -e "$1" ]; then
		md5sum < "$1"
	else
		echo absent
	fi
}

unchanged() {
	now=$(checksum "$1")
	[ "$now" = "$2" ] || fail "$1 changed: $2 before, $now after"
}

# like_mke2fs ERE SIZE EXTENDED [ARGS...]: the system mke2fs and
# e2fold-mkfs make SIZE images with -E EXTENDED and ARGS (ref.img and
# new.img); e2fsck -fn finds new.img clean, and dumpe2fs -h shows the
# same features and the same fields matching ERE in both.
like_mke2fs() {
	ere=$1 size=$2 ext=$3
	shift 3
	rm -f ref.img new.img
	if ! mke2fs -q -F -U $UUID -E hash_seed=$SEED,$ext "$@" ref.img \
		"$size" > ref.log 2>&1; then
		fail "mke2fs -E $ext $* failed:"
		cat ref.log
		return
	fi
	if ! mkfs -q -E "$ext" "$@" new.img "$size" > new.log 2>&1; then
		fail "e2fold-mkfs -E $ext $* failed:"
		cat new.log
		return
	fi
	fsck_clean new.img
	sb_fields ref.img "Filesystem features|$ere" > ref.fields
	sb_fields new.img "Filesystem features|$ere" > new.fields
	if ! diff -u ref.fields new.fields > fields.diff; then
		fail "-E $ext $*: dumpe2fs -h differs from mke2fs's (-, +):"
		cat fields.diff
	fi
}

# refused WORD ARGS...: e2fold-mkfs ARGS fails, and says WORD.
refused() {
	word=$1
	shift
	rm -f new.img
	if mkfs -q "$@" > new.log 2>&1; then
		fail "$* was taken"
	elif ! grep -q -- "$word" new.log; then
		fail "$*: no clear error (naming $word):"
		cat new.log
	fi
}

finish() {
	for e in "$test_dir"/expect.*; do
		[ -e "$e" ] || continue
		compare_output "${e##*.}" || status=1
	done
	exit $status
}
