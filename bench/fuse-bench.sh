#!/bin/sh
# fuse-bench.sh: what a casefolded directory costs through e2fold-fuse,
# as it grows, beside fuse2fs on the same tree without casefold.
#
#   sh bench/fuse-bench.sh [--fuse=PATH] [--mkfs=PATH]
#                          [--sizes='10000 100000'] [--ops=N]
#                          [--work=DIR] [--kernel]
#
# For each size, one tree (bench/mktar.c: a directory big/ of SIZE empty
# files, four names in five ASCII, the rest in many scripts; the same
# bytes on every run) made twice by e2fold-mkfs -d: casefolded
# (-O casefold -E casefold_dirs=all), served by e2fold-fuse, and plain,
# served by fuse2fs (e2fsprogs' FUSE server: the anchor, what any FUSE
# round trip and libext2fs cost without casefolding). Both mounts are
# timed the same way on the host, by kcf times (tests/kernel/kcf.c,
# CLOCK_MONOTONIC around each single operation):
#   absent   lstat of a name that is not there (distinct names: no
#            negative dentry answers)
#   present  lstat of a name that is there, spread over the directory,
#            each once (no dentry answers)
#   create   open(O_CREAT|O_EXCL) and close of a new name
# OPS of each (default 1,000), median and mean; and readdir, the time to
# read big/ whole (kcf count, the second of two reads) over its entries.
# e2fold-fuse runs twice: on the image as made (with a journal, through
# which every change goes, doc/fuse.md "Journal"), and on a copy whose
# journal tune2fs removed (changes written in place, as fuse2fs writes
# them): the difference is what journaling costs.
# Every operation must give the expected result, or the run fails.
#
# The point is the shape: with an indexed directory, a lookup or a create
# reads one path of the hash tree, so its cost grows with the logarithm
# of the size, not with the size. --kernel adds the Linux kernel's times
# for the same sizes (bench/kernel-bench.sh, in QEMU: emulated, compare
# the ratios only).
#
# Not a test: `make bench-fuse` runs it by hand, as root (it mounts).
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
fuse=fuse/e2fold-fuse
mkfs=misc/e2fold-mkfs
sizes='10000 100000'
ops=1000
work=${FUSE_BENCH_WORK:-bench/fuse-work}
kernel=0

usage() {
	echo "usage: $0 [--fuse=PATH] [--mkfs=PATH] [--sizes='N...'] [--ops=N]" \
		"[--work=DIR] [--kernel]" >&2
	exit 1
}

for arg in "$@"; do
	case $arg in
	--fuse=*) fuse=${arg#*=} ;;
	--mkfs=*) mkfs=${arg#*=} ;;
	--sizes=*) sizes=${arg#*=} ;;
	--ops=*) ops=${arg#*=} ;;
	--work=*) work=${arg#*=} ;;
	--kernel) kernel=1 ;;
	*) usage ;;
	esac
done
. "$(dirname "$0")/bench-lib.sh"
# shellcheck disable=SC2086
numbers $sizes $ops



fuse=$(absolute "$fuse") || die "no e2fold-fuse (give --fuse=PATH)"
mkfs=$(absolute "$mkfs") || die "no e2fold-mkfs (give --mkfs=PATH)"
command -v fuse2fs > /dev/null || die "no fuse2fs (Debian package fuse2fs)"
command -v fusermount3 > /dev/null || die "no fusermount3 (Debian package fuse3)"
[ -c /dev/fuse ] || die "no /dev/fuse"
[ "$(id -u)" -eq 0 ] || die "run as root: it mounts"
mkdir -p "$work/mnt" || exit 1
work=$(cd "$work" && pwd)
mnt=$work/mnt
server=
cleanup() {
	mountpoint -q "$mnt" && fusermount3 -u "$mnt"
	[ -n "$server" ] && kill "$server" 2> /dev/null
	rm -f "$work"/*.run.img "$work"/*.tar
}
trap cleanup EXIT
trap 'exit 1' INT TERM
${CC:-cc} -O2 -o "$work/mktar" "$here/mktar.c" || die "cannot compile mktar"
${CC:-cc} -O2 -o "$work/kcf" "$top/tests/kernel/kcf.c" || die "cannot compile kcf"

export E2FSPROGS_FAKE_TIME=1700000000
uuid=0e2f01d0-0000-4000-8000-000000000003
seed=6f0ba7f4-3ddb-4b9a-9d7e-0b1a1cd5e0f3

# make_image SIZE KIND: $work/SIZE-KIND.img (casefold, nojournal: the
# casefold image without its journal, or plain), once.
make_image() {
	img=$work/$1-$2.img
	[ -f "$img" ] && return 0
	if [ "$2" = nojournal ]; then
		cp --sparse=always "$work/$1-casefold.img" "$img.new" &&
			tune2fs -O ^has_journal "$img.new" > /dev/null &&
			mv "$img.new" "$img" || die "cannot remove the journal"
		return 0
	fi
	echo "Making $img"
	[ -f "$work/tree-$1.tar" ] || "$work/mktar" "$1" 0 0 > "$work/tree-$1.tar" ||
		die "mktar failed"
	features='' extended=hash_seed=$seed
	if [ "$2" = casefold ]; then
		features="-O casefold" extended=casefold_dirs=all,$extended
	fi
	# shellcheck disable=SC2086
	"$mkfs" -q -F $features -E "$extended" -U "$uuid" -N $(($1 + $1 / 16 + 4096)) \
		-d "$work/tree-$1.tar" "$img.new" 4G > "$work/mkfs.log" 2>&1 ||
		{ cat "$work/mkfs.log" >&2; die "e2fold-mkfs failed"; }
	mv "$img.new" "$img"
}

# serve KIND IMAGE: mount IMAGE at $mnt with e2fold-fuse (casefold,
# nojournal) or fuse2fs (plain), in the foreground, and wait for the
# mount.
serve() {
	if [ "$1" != plain ]; then
		"$fuse" -f "$2" "$mnt" > "$work/server.log" 2>&1 &
	else
		fuse2fs -f "$2" "$mnt" > "$work/server.log" 2>&1 &
	fi
	server=$!
	i=0
	until mountpoint -q "$mnt"; do
		kill -0 "$server" 2> /dev/null || { cat "$work/server.log" >&2; die "$1 server exited"; }
		i=$((i + 1))
		[ $i -le 200 ] || die "$1 server: no mount after 20 s"
		sleep 0.1
	done
}

unserve() {
	fusermount3 -u "$mnt" || die "cannot unmount $mnt"
	wait "$server"
	server=
}

# run SIZE KIND: results appended to $work/results as
# "KIND SIZE OP N MEDIAN MEAN".
run() {
	cp --sparse=always "$work/$1-$2.img" "$work/$2.run.img" || exit 1
	serve "$2" "$work/$2.run.img"
	d=$mnt/big
	for _ in 1 2; do
		t0=$(date +%s%N)
		n=$("$work/kcf" count "$d")
		t1=$(date +%s%N)
	done
	[ "$n" -eq $(($1 + 2)) ] || die "$2: big/ lists $n entries, want $(($1 + 2))"
	echo "$2 $1 readdir $1 $(echo "$t0 $t1 $1" | awk '{ printf "%.2f", ($2 - $1) / 1000 / $3 }') -" \
		>> "$work/results"
	for op in absent present create; do
		"$work/kcf" times "$d" "$op" "$work/$1.$op" > "$work/times.log" 2>&1 ||
			{ cat "$work/times.log" >&2; die "$2, $1 entries: $op gave unexpected results"; }
		sed -n 's/^\([a-z]*\) \([0-9]*\) ops: median \([0-9.]*\) us, mean \([0-9.]*\) us.*/\1 \2 \3 \4/p' \
			"$work/times.log" | while read -r o n median mean; do
			echo "$2 $1 $o $n $median $mean"
		done >> "$work/results"
	done
	unserve
	rm -f "$work/$2.run.img"
}

rm -f "$work/results"
for size in $sizes; do
	make_lists "$size" "$ops"
	make_image "$size" casefold
	make_image "$size" nojournal
	make_image "$size" plain
	rm -f "$work/tree-$size.tar"
done
load_start=$(cut -d' ' -f1 /proc/loadavg)
for size in $sizes; do
	for kind in casefold nojournal plain; do
		echo "  $kind, $size entries"
		run "$size" "$kind"
	done
done
load_end=$(cut -d' ' -f1 /proc/loadavg)

echo
echo "One casefolded directory through e2fold-fuse (journaled, and on a copy"
echo "without a journal), beside fuse2fs on the same tree without casefold:"
echo "µs per operation on the host, median (mean) of N operations; readdir:"
echo "µs per entry of a whole read. ratio: journaled e2fold-fuse over fuse2fs"
echo "(medians)."
echo "host: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs;" \
	"load average $load_start at the start, $load_end at the end;" \
	"commit $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)"
echo
awk '
	{ key = $2 " " $3; med[key, $1] = $5; mean[key, $1] = $6; n[key] = $4
	  if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
	function group(x,   s, out) {
		s = sprintf("%d", x)
		for (out = ""; length(s) > 3; s = substr(s, 1, length(s) - 3))
			out = "," substr(s, length(s) - 2) out
		return s out
	}
	function cell(key, kind) {
		return mean[key, kind] == "-" ? med[key, kind] : \
			sprintf("%s (%s)", med[key, kind], mean[key, kind])
	}
	END {
		name["absent"] = "lookup, absent name"
		name["present"] = "lookup, present name"
		name["create"] = "create"
		name["readdir"] = "readdir, per entry"
		print "| entries | operation | N | e2fold-fuse (casefold, journal) | e2fold-fuse (no journal) | fuse2fs (plain) | ratio |"
		print "|--:|---|--:|--:|--:|--:|--:|"
		for (i = 1; i <= k; i++) {
			split(order[i], f, " ")
			key = order[i]
			r = med[key, "plain"] > 0 ? med[key, "casefold"] / med[key, "plain"] : -1
			ratio = r < 0 ? "-" : sprintf(r < 1 ? "%.2fx" : "%.1fx", r)
			printf "| %s | %s | %s | %s | %s | %s | %s |\n", group(f[1]),
				name[f[2]], group(n[key]), cell(key, "casefold"),
				cell(key, "nojournal"), cell(key, "plain"), ratio
		}
	}' "$work/results"

if [ "$kernel" -eq 1 ]; then
	echo
	echo "The kernel, in QEMU, for the same sizes (bench/kernel-bench.sh):"
	sh "$here/kernel-bench.sh" --mkfs="$mkfs" --debugfs="$(dirname "$mkfs")/../debugfs/e2fold-debugfs" \
		--kernels=sid --sizes="$sizes" --work="$work/kernel"
fi
