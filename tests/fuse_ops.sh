#!/bin/sh
# fuse_ops: e2fold-fuse, mounted for real, answers file operations as the
# kernel does in casefolded directories (doc/kernel-facts.md, "NFDi and
# NFDiCF" and "Strict and non-strict"), and what it writes is a clean
# filesystem in which every name is found by all its spellings.
#
# Part 1: a fixed list of operations (fsops, tests/fuse/fsops.c) with
# known answers, on a default and a strict filesystem: matches across
# case, normalization and ignorables, EEXIST for a name equal to one
# there, invalid UTF-8 as raw bytes (EINVAL when strict), the casefold
# flag only on empty directories and inherited by new ones, byte-exact
# names elsewhere. Part 2: a generated list (tests/fuse/genops.pl) of a
# few thousand operations, with an indexed directory, on 4 KiB and 1 KiB
# blocks: judged by e2fsck -fn, e2fold-fsck -fn and lookups of every name
# by e2fold-debugfs.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
# shellcheck source=tests/fuse-lib.sh
. "$top_srcdir/tests/fuse-lib.sh"
fuse_init fuse_ops

mkfs() {
	"$E2FOLD_MKFS" -q -F -b "$2" -E "$3" "$out/$1" 32M > "$out/mkfs.log" 2>&1 || {
		echo "ERROR: e2fold-mkfs -b $2 -E $3 failed:"
		cat "$out/mkfs.log"
		exit 99
	}
}

# run_ops IMAGE OPFILE OUTPUT: the operations through a fresh mount.
run_ops() {
	fuse_mount "$1" "$out/mnt"
	"$FSOPS" "$out/mnt" "$2" > "$3" 2> "$3.err" ||
		kfail "fsops $2 on $(basename "$1") stopped (status $?): $(cat "$3.err")"
	fuse_umount "$out/mnt"
}

# The fixed list. $1 is what the casefolded directory answers for a name
# that is not UTF-8: ok on a default filesystem, EINVAL on a strict one.
expected() {
	inv=$1 miss=ENOENT
	# The listing of cf at the end, sorted by bytes; the names that are
	# not UTF-8 only where they could be made.
	cf_list='ok 12 Moved Stra\xc3\x9fe ab\xe2\x80\x8dc a\xffb e\xcc\x81t\xc3\xa9 \xc3 \xc4\xb0 \xe1\x83\x90 \xe1\x8e\xa0\xe1\x8e\xa1 \xed\x95\x9c \xef\xbc\xa1 \xf0\x90\x90\x80'
	if [ "$inv" != ok ]; then
		miss=$inv
		cf_list=$(echo "$cf_list" | sed 's/ok 12/ok 10/; s/ a\\xffb//; s/ \\xc3 / /')
	fi
	cat <<EOF
mkdir cf -> ok
setcf cf 1 -> ok
stat cf -> ok dir 2 cf
create cf/README -> ok
stat cf/readme -> ok file 1 0
same cf/README cf/ReadMe -> ok same
open_excl cf/readme -> EEXIST
open_excl cf/README -> EEXIST
create cf/Stra\xc3\x9fe -> ok
open_excl cf/STRASSE -> EEXIST
same cf/strasse cf/STRA\xe1\xba\x9eE -> ok same
create cf/e\xcc\x81t\xc3\xa9 -> ok
same cf/\xc3\xa9t\xc3\xa9 cf/\xc3\x89TE\xcc\x81 -> ok same
open_excl cf/\xc3\x89t\xc3\xa9 -> EEXIST
create cf/ab\xe2\x80\x8dc -> ok
same cf/abc cf/ab\xe2\x80\x8dc -> ok same
open_excl cf/A\xc2\xadBC -> EEXIST
create cf/\xe1\x8e\xa0\xe1\x8e\xa1 -> ok
stat cf/\xea\xad\xb0\xea\xad\xb1 -> ok file 1 0
create cf/\xf0\x90\x90\x80 -> ok
stat cf/\xf0\x90\x90\xa8 -> ok file 1 0
create cf/\xe1\x83\x90 -> ok
open_excl cf/\xe1\xb2\x90 -> EEXIST
create cf/\xc4\xb0 -> ok
stat cf/i -> ENOENT
stat cf/\xc4\xb1 -> ENOENT
create cf/\xef\xbc\xa1 -> ok
stat cf/\xef\xbd\x81 -> ok file 1 0
stat cf/A -> ENOENT
create cf/\xed\x95\x9c -> ok
stat cf/\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab -> ok file 1 0
create cf/a\xffb -> $inv
stat cf/a\xffb -> $(if [ "$inv" = ok ]; then echo "ok file 1 0"; else echo "$inv"; fi)
stat cf/A\xffB -> $miss
create cf/\xc3 -> $inv
mkdir cf/sub -> ok
stat cf/SUB -> ok dir 2 cf
create cf/sub/x -> ok
setcf cf/sub 0 -> ENOTEMPTY
unlink cf/SUB/X -> ok
setcf cf/Sub 0 -> ok
stat cf/sub -> ok dir 2
create cf/sub/Foo -> ok
stat cf/sub/foo -> ENOENT
stat cf/SUB/Foo -> ok file 1 0
unlink cf/sub/Foo -> ok
rmdir cf/sUb -> ok
link cf/readme cf/Hard -> ok
stat cf/HARD -> ok file 2 0
open_excl cf/hard -> EEXIST
symlink target cf/Lnk -> ok
stat cf/LNK -> ok symlink 1 6
write cf/readme hello -> ok
read cf/ReadMe -> ok hello
rename cf/README cf/Moved -> ok
stat cf/readme -> ENOENT
stat cf/MOVED -> ok file 2 5
rename cf/moved cf/HARD -> ok
stat cf/hard -> ok file 2 5
unlink cf/hArD -> ok
mkdir plain -> ok
stat plain -> ok dir 2
create plain/a -> ok
create plain/A -> ok
same plain/a plain/A -> ok different
create plain/\xc3\xa9 -> ok
stat plain/e\xcc\x81 -> ENOENT
create plain/a\xffb -> ok
mkdir plain/sub -> ok
stat plain/sub -> ok dir 2
setcf plain 1 -> ENOTEMPTY
setcf plain/sub 1 -> ok
create plain/sub/Q -> ok
stat plain/sub/q -> ok file 1 0
rename cf/Lnk plain/sub/lnk -> ok
stat plain/sub/LNK -> ok symlink 1 6
listdir cf -> $cf_list
listdir plain -> ok 5 A a a\xffb sub \xc3\xa9
listdir plain/sub -> ok 2 Q lnk
EOF
}

# Part 1, on a default and a strict filesystem.
for kind in default strict; do
	case $kind in
	default) mkfs fixed.$kind.img 4096 encoding=utf8; inv=ok ;;
	strict) mkfs fixed.$kind.img 4096 encoding=utf8,encoding_flags=strict; inv=EINVAL ;;
	esac
	expected "$inv" > "$out/fixed.$kind.expect"
	# The operations are the expected lines without their answers.
	sed 's/ -> .*//' "$out/fixed.$kind.expect" > "$out/fixed.ops"
	run_ops "$out/fixed.$kind.img" "$out/fixed.ops" "$out/fixed.$kind.actual"
	if ! diff -u "$out/fixed.$kind.expect" "$out/fixed.$kind.actual" > "$out/fixed.$kind.diff"; then
		kfail "$kind: e2fold-fuse answers otherwise than the kernel would (- kernel, + e2fold-fuse):"
		grep '^[-+][^-+]' "$out/fixed.$kind.diff"
	fi
	both_fsck_clean "$out/fixed.$kind.img"
done

# Part 2: generated operations; then every name of the result, through
# the mount, is looked up by e2fold-debugfs in all its spellings.
for kind in default:4096:encoding=utf8 strict:1024:encoding=utf8,encoding_flags=strict; do
	name=${kind%%:*} rest=${kind#*:}
	bs=${rest%%:*} opts=${rest#*:}
	img=$out/gen.$name.img
	mkfs "gen.$name.img" "$bs" "$opts"
	perl "$top_srcdir/tests/fuse/genops.pl" 7 2000 1500 > "$out/gen.ops"
	fuse_mount "$img" "$out/mnt"
	"$FSOPS" "$out/mnt" "$out/gen.ops" > "$out/gen.$name.actual" 2> "$out/gen.$name.err" ||
		kfail "$name: fsops on the generated list stopped (status $?): $(cat "$out/gen.$name.err")"
	fuse_walk "$out/mnt" > "$out/gen.$name.walk" || kfail "$name: cannot walk the mount"
	fuse_umount "$out/mnt"
	echo "$name: $(grep -c ' -> ok' "$out/gen.$name.actual") of $(wc -l < "$out/gen.$name.actual") operations succeeded, $(wc -l < "$out/gen.$name.walk") entries left"
	both_fsck_clean "$img"
	check_reachable "$img" "$out/gen.$name.walk" "gen.$name"
	cat "$out/gen.$name.reach"
done
kfinish "e2fold-fuse answers as the kernel and leaves a clean filesystem"
