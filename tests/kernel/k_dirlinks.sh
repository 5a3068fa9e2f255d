#!/bin/sh
# k_dirlinks: a directory's link count at ext4's limit, as e2fold-mkfs,
# e2fold-fuse and e2fold-debugfs write it, against what Linux writes.
#
# Linux (fs/ext4/namei.c): a directory counts 2 plus one per
# subdirectory. mkdir refuses with EMLINK once the count is 65,000
# (EXT4_LINK_MAX), unless the filesystem has dir_nlink and the directory
# is indexed; then the count that would pass 65,000 becomes 1, "many"
# (ext4_inc_count), and rmdir leaves a 1 alone (ext4_dec_count). So the
# counts around the limit are 64,999, 65,000, then 1.
#
# Three filesystems, made by e2fold-mkfs with 1 KiB blocks, each with a
# directory /P of 64,996 subdirectories (count 64,998, where all agree):
# dx (dir_index and dir_nlink: /P is indexed), nonl (dir_index without
# dir_nlink) and lin (dir_nlink without dir_index: /P is linear). On
# copies of each:
#   Linux, in the VM, and e2fold-fuse on the host run the same fsops
#   list: mkdir P/e1 to P/e5 (64,997 to 65,001 subdirectories), each
#   followed by stat P; on a second copy, then rmdir P/e5 to P/e2, back
#   below the limit, each followed by stat P. Their answers (errno
#   names, link counts) must be the same.
#   e2fold-debugfs makes P/e1 to P/e5 with its mkdir: it must succeed
#   where Linux does and leave the count Linux leaves.
#   e2fold-mkfs makes /P with 64,998, 64,999 and 65,001 subdirectories
#   from a tar archive: it must make exactly those Linux can reach by
#   mkdir, with Linux's count, and refuse the others; what it makes is
#   clean for e2fsck -fn and e2fold-fsck -fn.
# Each fsck's verdict on each copy e2fold-fuse and e2fold-debugfs left
# must be its verdict on Linux's copy in the same state.
#
# The images are large (a block for each of 65,000 directories): each is
# removed once judged; the answers and the fsck logs stay in
# $top_builddir/tests/kernel/SUITE/k_dirlinks/.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
# shellcheck source=tests/fuse/lib.sh
. "$top_srcdir/tests/fuse/lib.sh"
kinit k_dirlinks
trap fuse_cleanup EXIT
trap 'exit 1' INT TERM
fuse_require

start=64996
kinds="dx nonl lin"

features() {
	case $1 in
	dx) echo casefold ;;
	nonl) echo casefold,^dir_nlink ;;
	lin) echo casefold,^dir_index ;;
	esac
}

# tar_of N FILE: an archive of /P with N empty subdirectories.
tar_of() {
	perl -e 'print "d ", unpack("H*", "P"), "\n";
		printf("d %s\n", unpack("H*", sprintf("P/d%05d", $_))) for 0 .. $ARGV[0] - 1;' "$1" |
		write_tar gnu "$2"
}

# mkfs_from KIND TAR IMAGE: e2fold-mkfs, its messages in IMAGE.mkfs.log.
mkfs_from() {
	"$E2FOLD_MKFS" -q -F -b 1024 -N 70000 -O "$(features "$1")" \
		-U 6b3c8a3e-51d4-4c0e-9a2b-0e2f1d3c4b5a \
		-E hash_seed=2a7f9c1e-3b5d-4e6f-8a9b-1c2d3e4f5a6b,casefold_dirs=all \
		-d "$2" "$3" 100M > "$3.mkfs.log" 2>&1
}

# links IMAGE: the link count of /P, as e2fold-debugfs stat shows it.
links() {
	"$E2FOLD_DEBUGFS" -R "stat /P" "$1" 2>/dev/null | sed -n 's/^Links: *\([0-9]*\).*/\1/p'
}

# verdict FSCK IMAGE: one line, "clean" or the status and what FSCK -fn
# finds, without its banner, passes, summary, and the note about a guest
# clock ahead of the host's (see e2fsck_clean in lib.sh).
verdict() {
	b=$(basename "$2" .img)
	"$1" -fn "$2" > "$out/$b.$(basename "$1").log" 2>&1
	status=$?
	grep -v -e '^e2fsck [0-9]' -e '^e2fold-fsck [0-9]' -e '^Pass [0-9]' -e '^$' \
		-e '^Running e2fsck' -e '^Checking names and hash trees' -e "$b\.img: " \
		-e 'WARNING: Filesystem still has errors' \
		-e '^Superblock last write time is in the future\.$' \
		-e '^	(by less than a day, probably due to the hardware clock being incorrectly set)$' \
		"$out/$b.$(basename "$1").log" | tr '\n' ' ' | sed 's/ *$//' > "$out/verdict.tmp"
	if [ "$status" -eq 0 ] && [ ! -s "$out/verdict.tmp" ]; then
		echo clean
	else
		echo "status $status: $(cat "$out/verdict.tmp")"
	fi
}

# verdicts IMAGE: both fscks' verdicts, a line each.
verdicts() {
	echo "e2fsck: $(verdict e2fsck "$1")"
	echo "e2fold-fsck: $(verdict "$E2FOLD_FSCK" "$1")"
}

# same_verdicts WHO WHAT MINE LINUX'S: both fscks judge the copy WHO left
# (WHAT: which one) as they judge Linux's in the same state.
same_verdicts() {
	if ! diff -u "$4" "$3" > "$3.diff"; then
		kfail "$2: the fscks judge $1's copy otherwise than Linux's (- Linux's, + $1's):"
		grep '^[-+][^-+]' "$3.diff"
	fi
}

# The operations: up (mkdir e1 to e5) and down (up, then rmdir e5 to e2).
mkdir -p "$out/in"
{
	echo "stat P"
	for i in 1 2 3 4 5; do
		echo "mkdir P/e$i"
		echo "stat P"
	done
} > "$out/in/up.ops"
{
	cat "$out/in/up.ops"
	for i in 5 4 3 2; do
		echo "rmdir P/e$i"
		echo "stat P"
	done
} > "$out/in/down.ops"
${CC:-cc} -static -O2 -o "$out/in/fsops" "$top_srcdir/tests/fuse/fsops.c" 2> "$out/cc.log" || {
	echo "ERROR: cannot build fsops statically (needs libc6-dev):"
	cat "$out/cc.log"
	exit 99
}

# The starting images, and Linux's copies of them: vda.. in the order
# of $kinds, up then down.
images=
for k in $kinds; do
	tar_of "$start" "$out/start.tar"
	mkfs_from "$k" "$out/start.tar" "$out/start.$k.img" || {
		echo "ERROR: e2fold-mkfs ($k) of $start subdirectories failed:"
		cat "$out/start.$k.img.mkfs.log"
		exit 99
	}
	for dir in up down; do
		cp --sparse=always "$out/start.$k.img" "$out/linux.$k.$dir.img"
		images="$images --image $out/linux.$k.$dir.img"
	done
done
rm -f "$out/start.tar"

cat > "$out/scenario.sh" <<'EOF'
cp "$VM_IN/fsops" /tmp/fsops && chmod +x /tmp/fsops
set -- vda vdb vdc vdd vde vdf
for k in dx nonl lin; do
	for dir in up down; do
		/tmp/fsops "/mnt/$1" "$VM_IN/$dir.ops" > "$VM_OUT/$k.$dir" 2>&1 ||
			echo "fsops $dir.ops on $1: status $?"
		shift
	done
done
echo "ext4 errors: $(dmesg | grep -c 'EXT4-fs error')"
dmesg | grep 'EXT4-fs error' | head -5
EOF
# shellcheck disable=SC2086
run_vm $images --file "$out/in/fsops" --file "$out/in/up.ops" --file "$out/in/down.ops"
grep -v '^ext4 errors: 0$' "$out/actual" | grep . && kfail "the VM's run said more than it should (above)"

for k in $kinds; do
	for dir in up down; do
		[ -f "$out/vm/$k.$dir" ] || { kfail "$k: the VM did not run $dir.ops"; continue; }
		cp "$out/vm/$k.$dir" "$out/linux.$k.$dir"
	done
	echo "$k: Linux: $(sed -n 's/^stat P -> ok dir \([0-9]*\).*/\1/p' "$out/linux.$k.down" |
		tr '\n' ' ')(the link count of P after each step, up then down)"
	for dir in up down; do
		verdicts "$out/linux.$k.$dir.img" > "$out/linux.$k.$dir.verdicts"
		sed "s/^/$k: Linux's $dir copy: /" "$out/linux.$k.$dir.verdicts"
		rm -f "$out/linux.$k.$dir.img"
	done
done

echo "Linux's copies made and judged after $(($(date +%s) - kstart)) s"

# --- e2fold-fuse: the same lists, the same answers, the same verdicts. ---
for k in $kinds; do
	for dir in up down; do
		img=$out/fuse.$k.$dir.img
		cp --sparse=always "$out/start.$k.img" "$img"
		fuse_mount "$img" "$out/mnt"
		"$FSOPS" "$out/mnt" "$out/in/$dir.ops" > "$out/fuse.$k.$dir" 2>&1 ||
			kfail "$k: fsops $dir.ops through e2fold-fuse stopped (status $?)"
		fuse_umount "$out/mnt"
		if ! diff -u "$out/linux.$k.$dir" "$out/fuse.$k.$dir" > "$out/fuse.$k.$dir.diff"; then
			kfail "$k: e2fold-fuse answers $dir.ops otherwise than Linux (- Linux, + e2fold-fuse):"
			grep '^[-+][^-+]' "$out/fuse.$k.$dir.diff"
		fi
		verdicts "$img" > "$out/fuse.$k.$dir.verdicts"
		same_verdicts e2fold-fuse "$k, $dir" "$out/fuse.$k.$dir.verdicts" \
			"$out/linux.$k.$dir.verdicts"
		rm -f "$img"
	done
done

echo "e2fold-fuse's copies judged after $(($(date +%s) - kstart)) s"

# --- e2fold-debugfs mkdir: succeeds where Linux does, the same counts. ---
# Both as "mkdir P/eN -> ok" or "-> refused", then "stat P -> COUNT".
normalize() {
	sed -e 's/^\(mkdir [^ ]*\) -> [A-Z].*/\1 -> refused/' \
		-e 's/^\(stat P\) -> ok dir \([0-9]*\).*/\1 -> \2/' "$1"
}
for k in $kinds; do
	img=$out/debugfs.$k.img
	cp --sparse=always "$out/start.$k.img" "$img"
	{
		echo "stat P -> $(links "$img")"
		for i in 1 2 3 4 5; do
			if "$E2FOLD_DEBUGFS" -w -R "mkdir /P/e$i" "$img" >> "$out/debugfs.$k.log" 2>&1; then
				echo "mkdir P/e$i -> ok"
			else
				echo "mkdir P/e$i -> refused"
			fi
			echo "stat P -> $(links "$img")"
		done
	} > "$out/debugfs.$k"
	normalize "$out/linux.$k.up" > "$out/linux.$k.up.normal"
	if ! diff -u "$out/linux.$k.up.normal" "$out/debugfs.$k" > "$out/debugfs.$k.diff"; then
		kfail "$k: e2fold-debugfs mkdir differs from Linux (- Linux, + e2fold-debugfs):"
		grep '^[-+][^-+]' "$out/debugfs.$k.diff"
	fi
	verdicts "$img" > "$out/debugfs.$k.verdicts"
	same_verdicts e2fold-debugfs "$k, up" "$out/debugfs.$k.verdicts" \
		"$out/linux.$k.up.verdicts"
	rm -f "$img"
done

echo "e2fold-debugfs's copies judged after $(($(date +%s) - kstart)) s"

# --- e2fold-mkfs: P with N subdirectories, on both sides of the limit. ---
# What Linux reached after mkdir eI (N = start + I): "N ok COUNT", or
# "N refused" once a mkdir was refused. Of those, e2fold-mkfs makes the
# N of counts 65,000 (where it stored 1), 65,001 (the first past the
# limit) and 65,003 (well past it): each image costs seconds.
sizes="64998 64999 65001"
for k in $kinds; do
	normalize "$out/linux.$k.up" | awk -v n=$start -v sizes=" $sizes " '
		/^mkdir / { n++; made = $NF == "ok" }
		/^stat P/ && index(sizes, " " n " ") { print n, made ? "ok " $NF : "refused" }' \
		> "$out/mkfs.$k.expect"
	: > "$out/mkfs.$k.actual"
	for n in $sizes; do
		img=$out/mkfs.$k.$n.img
		tar_of "$n" "$out/mkfs.tar"
		if mkfs_from "$k" "$out/mkfs.tar" "$img"; then
			echo "$n ok $(links "$img")" >> "$out/mkfs.$k.actual"
			v=$(verdicts "$img")
			[ "$v" = "$(printf 'e2fsck: clean\ne2fold-fsck: clean')" ] ||
				kfail "$k: e2fold-mkfs's image with $n subdirectories is not clean: $v"
		else
			echo "$n refused" >> "$out/mkfs.$k.actual"
		fi
		rm -f "$img" "$out/mkfs.tar"
	done
	if ! diff -u "$out/mkfs.$k.expect" "$out/mkfs.$k.actual" > "$out/mkfs.$k.diff"; then
		kfail "$k: e2fold-mkfs makes P otherwise than Linux reaches it (SUBDIRS ok COUNT | refused; - Linux, + e2fold-mkfs):"
		grep '^[-+][^-+]' "$out/mkfs.$k.diff"
	fi
	rm -f "$out/start.$k.img"
done
kfinish "e2fold-mkfs, e2fold-fuse and e2fold-debugfs count a directory's links as Linux does"
