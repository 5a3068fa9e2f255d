#!/bin/sh
# mkfs-bench.sh: e2fold-mkfs against the system mke2fs, in one run.
#
#   sh bench/mkfs-bench.sh [--mkfs=PATH] [--files=N] [--dirs=N]
#                          [--size=SIZE] [--runs=N] [--work=DIR]
#
# Makes a sparse image of SIZE (default 64G) empty and populated from a
# generated tree of N files (default 100,000) in N directories (default
# 200), with mke2fs -t ext4, mke2fs -t ext4 -d, and e2fold-mkfs plain,
# casefolded, and from a tar archive of the same tree; each RUNS times
# (default 3), every image on a fresh file. Prints the median, fastest
# and slowest wall time of each, then checks one image of each with
# e2fsck -fn (outside the timing). The tree is made once, with the same
# names and sizes every time (perl with a fixed seed); it and the images
# live in WORK (default: a new directory in ${TMPDIR:-/tmp}), removed at
# the end. Not a test: `make bench-mkfs` runs it by hand.
set -u

here=$(cd "$(dirname "$0")" && pwd)
mkfs=misc/e2fold-mkfs
files=100000
dirs=200
size=64G
runs=3
work=

for arg in "$@"; do
	case $arg in
	--mkfs=*) mkfs=${arg#*=} ;;
	--files=*) files=${arg#*=} ;;
	--dirs=*) dirs=${arg#*=} ;;
	--size=*) size=${arg#*=} ;;
	--runs=*) runs=${arg#*=} ;;
	--work=*) work=${arg#*=} ;;
	*) echo "usage: $0 [--mkfs=PATH] [--files=N] [--dirs=N] [--size=SIZE]" \
		"[--runs=N] [--work=DIR]" >&2
	   exit 1 ;;
	esac
done
if [ ! -x "$mkfs" ]; then
	echo "$0: no e2fold-mkfs at $mkfs (give --mkfs=PATH)" >&2
	exit 1
fi
mkfs=$(cd "$(dirname "$mkfs")" && pwd)/$(basename "$mkfs")
if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/mkfs-bench.XXXXXX") || exit 1
	cleanup=$work
else
	mkdir -p "$work" || exit 1
	cleanup=
fi
trap '[ -n "$cleanup" ] && rm -rf "$cleanup"' EXIT INT TERM
cd "$work" || exit 1

# The tree: names in several scripts, sizes from 0 to 16 KiB (mostly
# small, as source trees are), a few hard links and symlinks.
echo "Generating $files files in $dirs directories..."
rm -rf src
perl -e '
	use strict; use utf8;
	my ($files, $dirs) = @ARGV;
	srand(1);
	my @stems = ("file", "Ωmega", "файл", "文件", "ファイル", "café",
		     "Straße", "données");
	my $buf = "x" x 16384;
	mkdir "src" or die;
	for my $d (0 .. $dirs - 1) {
		my $dir = sprintf("src/dir-%04d", $d);
		mkdir $dir or die;
		for my $i (0 .. int($files / $dirs) - 1) {
			my $stem = $stems[($d + $i) % @stems];
			my $name = sprintf("%s/%s-%06d.dat", $dir, $stem, $i);
			utf8::encode($name);
			my $r = rand();
			my $len = $r < 0.5 ? int(rand(1024)) :
				  $r < 0.9 ? int(rand(4096)) : int(rand(16384));
			open(my $f, ">", $name) or die "$name: $!";
			print $f substr($buf, 0, $len);
			close $f;
		}
	}
	symlink("dir-0000", "src/link") or die;
	link("src/dir-0000/file-000000.dat", "src/hardlink") or die;
' "$files" "$dirs" || exit 1
tar --format=pax --sort=name -cf src.tar src
bytes=$(du -sb src | cut -f1)

# time_one NAME COMMAND...: one run on a fresh image; prints seconds.
time_one() {
	rm -f img
	truncate -s "$size" img
	start=$(date +%s.%N)
	"$@" > run.log 2>&1 || { echo "failed: $*" >&2; cat run.log >&2; exit 1; }
	end=$(date +%s.%N)
	echo "$start $end" | awk '{ printf "%.3f\n", $2 - $1 }'
}

# bench LABEL COMMAND...: RUNS runs; a table row; a check of the last image.
bench() {
	label=$1
	shift
	: > times
	i=0
	while [ $i -lt "$runs" ]; do
		time_one "$@" >> times
		i=$((i + 1))
	done
	sort -n times | awk -v label="$label" '
		{ t[NR] = $1 }
		END { printf "%-44s %8.2f %8.2f %8.2f\n", label,
			t[int((NR + 1) / 2)], t[1], t[NR] }'
	if ! e2fsck -fn img > fsck.log 2>&1; then
		echo "  e2fsck -fn finds problems in the image of: $label" >&2
		tail -n 5 fsck.log >&2
	fi
}

export E2FSPROGS_FAKE_TIME=1700000000
echo
echo "e2fold-mkfs benchmark: $size sparse image; $files files in $dirs" \
	"directories, $bytes bytes"
echo "commit $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)," \
	"$(mke2fs -V 2>&1 | head -n 1), kernel $(uname -r), $(nproc) CPUs"
printf "%-44s %8s %8s %8s   (seconds, %s runs)\n" "" median fastest slowest "$runs"
bench "mke2fs -t ext4" mke2fs -q -F -t ext4 img
bench "e2fold-mkfs" "$mkfs" -q -F img
bench "e2fold-mkfs -O casefold" "$mkfs" -q -F -O casefold img
bench "mke2fs -t ext4 -d DIR" mke2fs -q -F -t ext4 -d src img
bench "e2fold-mkfs -d DIR" "$mkfs" -q -F -d src img
bench "e2fold-mkfs -O casefold (all dirs) -d DIR" "$mkfs" -q -F -O casefold \
	-E casefold_dirs=all -d src img
bench "e2fold-mkfs -O casefold (all dirs) -d TAR" "$mkfs" -q -F -O casefold \
	-E casefold_dirs=all -d src.tar img
