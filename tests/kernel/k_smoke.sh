#!/bin/sh
# k_smoke: Debian's kernel matches names in a casefolded directory
# (README/readme, Straße/STRASSE) and accepts invalid UTF-8 only without
# strict, and the system e2fsck finds both filesystems clean after: the
# facts of doc/kernel-facts.md, "NFDi and NFDiCF", and of
# doc/kernel-facts.md, "Strict and non-strict".
#
# One boot checks a default and a strict filesystem, made by the system
# mke2fs (/dev/vda and /dev/vdb in the VM). Results are left in
# $top_builddir/tests/kernel/SUITE/k_smoke/: actual, expect, actual.diff
# on a mismatch, console.log, fsck.*.log.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
kinit k_smoke

mkfs() {
	mke2fs -q -F -t ext4 -O casefold -E "$2" "$out/$1" 32M > "$out/mke2fs.log" 2>&1 || {
		echo "ERROR: mke2fs -E $2 failed:"
		cat "$out/mke2fs.log"
		exit 99
	}
}
mkfs plain.img encoding=utf8
mkfs strict.img encoding=utf8,encoding_flags=strict

# The part that runs in the VM, once for each mount point. Names go to
# kcf in hex; each line says what was done and what happened.
cat > "$out/scenario.sh" <<'EOF'
set -- /mnt/vda /mnt/vdb
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
say() { label=$1; shift; echo "$label: $("$@" 2>&1)"; }
# "same" when NAME resolves to the inode of WANT, else both answers.
same_inode() {
	want=$(kcf lookup "$d" "$(hex "$2")")
	got=$(kcf lookup "$d" "$(hex "$1")")
	if [ "$got" = "$want" ] && [ "${got%% *}" = found ]; then
		echo "lookup $1: same inode as $2"
	else
		echo "lookup $1: $got; $2: $want"
	fi
}
for mnt in "$@"; do
	echo "== $mnt"
	d=$mnt/d
	mkdir "$d"
	say "setflag d" kcf setflag "$d"
	say "flags of d" kcf getflags "$d"
	say "create README" kcf create "$d" "$(hex README)"
	same_inode readme README
	same_inode ReadMe README
	say "create Straße" kcf create "$d" "$(hex Straße)"
	say "create STRASSE" kcf create "$d" "$(hex STRASSE)"
	same_inode STRASSE Straße
	# Invalid UTF-8: a\xffb, and A\xffB, equal to it only after folding.
	say "create 61ff62" kcf create "$d" 61ff62
	say "lookup 61ff62" sh -c "kcf lookup '$d' 61ff62 | cut -d' ' -f1"
	say "lookup 41ff42" kcf lookup "$d" 41ff42
	echo "list of d:"
	kcf list "$d" | cut -d' ' -f1
done
EOF

# Expected: both filesystems alike, except that strict refuses the invalid
# name (so it is not found, nor listed).
cat > "$out/expect" <<'EOF'
== /mnt/vda
setflag d: ok
flags of d: 0x40080000
create README: ok
lookup readme: same inode as README
lookup ReadMe: same inode as README
create Straße: ok
create STRASSE: EEXIST
lookup STRASSE: same inode as Straße
create 61ff62: ok
lookup 61ff62: found
lookup 41ff42: ENOENT
list of d:
524541444d45
53747261c39f65
61ff62
== /mnt/vdb
setflag d: ok
flags of d: 0x40080000
create README: ok
lookup readme: same inode as README
lookup ReadMe: same inode as README
create Straße: ok
create STRASSE: EEXIST
lookup STRASSE: same inode as Straße
create 61ff62: EINVAL
lookup 61ff62: EINVAL
lookup 41ff42: EINVAL
list of d:
524541444d45
53747261c39f65
EOF

run_vm --image "$out/plain.img" --image "$out/strict.img"
kexpect "the kernel's answers differ from the expected ones:"

# The kernel's work must look right to the system e2fsck too.
for img in plain strict; do
	if ! e2fsck -fn "$out/$img.img" > "$out/fsck.$img.log" 2>&1; then
		kfail "e2fsck -fn finds $img.img not clean:"
		cat "$out/fsck.$img.log"
	fi
done
kfinish "casefold lookups on a default and a strict filesystem"
