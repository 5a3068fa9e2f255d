#!/bin/sh
# fuse_oplists: e2fold-fuse, mounted for real, answers file operations as
# the kernel does in casefolded directories (doc/kernel-facts.md, "NFDi and
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
# shellcheck source=tests/fuse/lib.sh
. "$top_srcdir/tests/fuse/lib.sh"
# shellcheck source=tests/fuse/fixed.sh
. "$top_srcdir/tests/fuse/fixed.sh"
fuse_init fuse_oplists

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


# Part 1, on a default and a strict filesystem.
for kind in default strict; do
	case $kind in
	default) mkfs fixed.$kind.img 4096 encoding=utf8; inv=ok ;;
	strict) mkfs fixed.$kind.img 4096 encoding=utf8,encoding_flags=strict; inv=EINVAL ;;
	esac
	fixed_expect "$inv" > "$out/fixed.$kind.expect"
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
	perl "$top_srcdir/tests/fuse/genops.pl" 7 1500 800 > "$out/gen.ops"
	fuse_mount "$img" "$out/mnt"
	"$FSOPS" "$out/mnt" "$out/gen.ops" > "$out/gen.$name.actual" 2> "$out/gen.$name.err" ||
		kfail "$name: fsops on the generated list stopped (status $?): $(cat "$out/gen.$name.err")"
	fuse_walk "$out/mnt" > "$out/gen.$name.walk" || kfail "$name: cannot walk the mount"
	fuse_umount "$out/mnt"
	echo "$name: $(grep -c ' -> ok' "$out/gen.$name.actual") of $(wc -l < "$out/gen.$name.actual") operations succeeded, $(wc -l < "$out/gen.$name.walk") entries left"
	# The system e2fsck may misjudge the leaves of the indexed directory,
	# which holds names it cannot fold (see e2fsck_clean).
	e2fsck_clean "$img" /cf/big
	e2fold_fsck_clean "$img"
	check_reachable "$img" "$out/gen.$name.walk" "gen.$name"
	cat "$out/gen.$name.reach"
done
kfinish "e2fold-fuse answers as the kernel and leaves a clean filesystem"
