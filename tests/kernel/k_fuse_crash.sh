#!/bin/sh
# k_fuse_crash: Linux replays what a crashed e2fold-fuse left in the
# journal (doc/fuse.md, "Journal"). e2fold-fuse serves a casefold image
# (commit=600: only fsync and unmount commit) to a workload that creates,
# renames and removes files around one fsync; it is killed with SIGKILL
# (tests/killwrite.c) at each of its writes until three points of that
# fsync's commit are found:
#   vda: the log and the journal superblock pointing at it written, not
#        the commit record (the kernel must drop the transaction);
#   vdb: the commit record written, nothing in place (it must replay);
#   vdc: everything in place, the journal not yet marked empty.
# The VM mounts the three (the kernel replays) and lists every file with
# its contents; that must equal what the system e2fsck's replay of the
# same crash shows, read through e2fold-fuse read-only; vdb and vdc must
# hold the files the fsync covered, vda the state before it; after the
# VM, e2fsck -fn and e2fold-fsck -fn find each image clean.
#
# Files are left in $top_builddir/tests/kernel/SUITE/k_fuse_crash/.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
kinit k_fuse_crash
kout=$out
test_name=kernel/$E2FOLD_KERNEL_SUITE/k_fuse_crash.work
# shellcheck source=tests/journal-lib.sh
. "$top_srcdir/tests/journal-lib.sh"
killwrite_shim
# shellcheck source=tests/fuse/lib.sh
. "$top_srcdir/tests/fuse/lib.sh"
out=$kout
trap 'fuse_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
fuse_require
m=$out/mnt
mkdir -p "$m" "$out/src/cf"
echo base > "$out/src/cf/Base"
"$E2FOLD_MKFS" -q -O casefold -E casefold_dirs=cf -d "$out/src" \
	"$out/orig.img" 16M > "$out/mkfs.log" 2>&1 || {
	echo "ERROR: e2fold-mkfs failed:"
	cat "$out/mkfs.log"
	exit 99
}

# The workload: 30 files and a rename before the fsync, 10 files and an
# unlink after it.
workload() {
	mkdir "$1/cf/d1" || return
	i=1
	while [ $i -le 30 ]; do
		echo "file $i" > "$1/cf/F$i" || return
		i=$((i + 1))
	done
	mv "$1/cf/F3" "$1/cf/d1/Moved" || return
	sync "$1/cf/f1" || return
	i=1
	while [ $i -le 10 ]; do
		echo "g $i" > "$1/cf/G$i" || return
		i=$((i + 1))
	done
	rm "$1/cf/f5"
}

# run N IMAGE: serve IMAGE, killed before its Nth write (0: never, and
# the count of writes goes to $out/count), run the workload, unmount.
run() {
	cp "$out/orig.img" "$2"
	if [ "$1" -eq 0 ]; then
		set -- "$1" "$2" E2FOLD_KILL_COUNT="$out/count"
	else
		set -- "$1" "$2" E2FOLD_KILL_AT="$1"
	fi
	env LD_PRELOAD="$shim" "$3" "$E2FOLD_FUSE" -f -o commit=600 "$2" "$m" \
		> "$out/server.log" 2>&1 &
	spid=$!
	until grep -q " $m fuse" /proc/mounts; do
		kill -0 $spid 2> /dev/null || break
		sleep 0.05
	done
	if grep -q " $m fuse" /proc/mounts; then
		workload "$m" 2> /dev/null
		fusermount3 -u "$m" 2> /dev/null || fusermount3 -uz "$m"
	fi
	wait $spid 2> /dev/null
}

journal_start() {
	dumpe2fs -h "$1" 2> /dev/null | sed -n 's/^Journal start: *//p'
}

run 0 "$out/full.img"
writes=$(cat "$out/count")
# The runs of kill points that leave the journal holding a transaction:
# the mount's commit, the fsync's, the unmount's. The second is wanted.
n=1 run_no=0 prev=0 first= last=
while [ "$n" -le "$writes" ]; do
	run "$n" "$out/try.img"
	start=$(journal_start "$out/try.img")
	if [ "${start:-0}" != 0 ]; then
		[ "$prev" = 0 ] && run_no=$((run_no + 1))
		if [ "$run_no" -eq 2 ]; then
			[ -n "$first" ] || first=$n
			last=$n
		fi
		prev=1
	else
		[ "$prev" = 1 ] && [ "$run_no" -eq 2 ] && break
		prev=0
	fi
	n=$((n + 1))
done
if [ -z "$first" ]; then
	echo "ERROR: of $writes kill points, none leaves the fsync's" \
		"transaction in the journal"
	exit 99
fi
# The commit record: the first point whose replay has the fsync's rename
# (the log's blocks may reach the disk in any order before it, as
# unix_io flushes its cache, but the record is written alone).
committed=
n=$first
while [ "$n" -le "$last" ]; do
	run "$n" "$out/try.img"
	e2fsck -fy "$out/try.img" > /dev/null 2>&1
	if debugfs -R "stat /cf/d1/Moved" "$out/try.img" 2>&1 |
		grep -q '^Inode:'; then
		committed=$n
		break
	fi
	n=$((n + 1))
done
if [ -z "$committed" ] || [ "$committed" -eq "$first" ]; then
	echo "ERROR: the fsync's transaction, in the journal from kill point" \
		"$first to $last, has no point before and after its commit" \
		"record (first committed: ${committed:-none})"
	exit 99
fi
echo "$writes writes; the fsync's commit is in the journal from kill" \
	"point $first to $last, committed from $committed"
run "$first" "$out/a.img"
run "$committed" "$out/b.img"
run "$last" "$out/c.img"

# What a reader sees: every file under the root with its contents.
cat > "$out/scenario.sh" <<'EOF'
for dev in vda vdb vdc; do
	echo "== $dev"
	cd "/mnt/$dev" || continue
	find . -path ./lost+found -prune -o -type f -print | sort |
	while read -r f; do
		echo "$f: $(cat "$f")"
	done
	cd /
done
dmesg > "$VM_OUT/dmesg"
EOF

# The same, from e2fsck's replay of each crash, read through e2fold-fuse.
for i in a b c; do
	cp "$out/$i.img" "$out/$i.e2fsck.img"
	e2fsck -fy "$out/$i.e2fsck.img" > "$out/$i.e2fsck.log" 2>&1
	[ $? -le 1 ] || { echo "ERROR: e2fsck could not replay $i.img"; exit 99; }
done
{
	for i in a b c; do
		echo "== vd$i"
		fuse_mount "$out/$i.e2fsck.img" "$m" ro
		(
			cd "$m" &&
			find . -path ./lost+found -prune -o -type f -print | sort |
			while read -r f; do
				echo "$f: $(cat "$f")"
			done
		)
		fuse_umount "$m"
	done
} > "$out/expect"
grep -q '^\./cf/d1/Moved: file 3$' "$out/expect" ||
	kfail "e2fsck's replays lack cf/d1/Moved, which the fsync covered"
awk '/^== vda/ { a = 1 } /^== vdb/ { a = 0 } a && /Moved/' "$out/expect" |
	grep -q . && kfail "vda, cut before its commit record, has cf/d1/Moved"
for i in b c; do
	awk -v d="vd$i" '$0 == "== " d { on = 1; next } /^==/ { on = 0 }
		on && /^\.\/cf\/d1\/Moved: file 3$/ { found = 1 }
		END { exit !found }' "$out/expect" ||
		kfail "vd$i, committed, lacks cf/d1/Moved"
done

run_vm --image "$out/a.img" --image "$out/b.img" --image "$out/c.img"
kexpect "the kernel's replay differs from e2fsck's (- e2fsck, + Linux):"
grep -q "(vdb): recovery complete" "$out/vm/dmesg" ||
	kfail "the kernel did not say it recovered vdb"
both_fsck_clean "$out/a.img" "$out/b.img" "$out/c.img"
kfinish "Linux replays what a crashed e2fold-fuse left in the journal"
