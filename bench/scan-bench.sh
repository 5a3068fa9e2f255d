#!/bin/sh
# scan-bench.sh: e2fold-utf8 scan on a large tree, against find(1).
#
#   sh bench/scan-bench.sh [--utf8=PATH] [--files=N] [--per-dir=N]
#                          [--runs=N] [--work=DIR] [--keep]
#
# The tree: FILES empty files (default 1,000,000) in directories of
# PER_DIR files (default 1,000), the directories in groups of 100 under
# top-level ones, so three levels as a real tree has. Names are 40 to 60
# bytes, four in five ASCII, the rest in Greek, Cyrillic, CJK and Latin
# with accents, precomposed and decomposed; each directory holds one pair
# of names that differ only in case, so scan always has something to
# report. It is made once (perl, a fixed seed, the same names every time)
# in WORK (default: a new directory in ${TMPDIR:-/tmp}, removed at the
# end unless --keep; on a tmpfs, such as /dev/shm, it is made much faster
# and the timings leave the disk out).
#
# Each variant runs RUNS times (default 3), interleaved, after one
# unmeasured find that brings the tree into the cache: `find WORK/tree`,
# the anchor, which reads every directory and prints every path; scan;
# scan --strict; scan --json. Output goes to /dev/null. The table gives
# the median wall time, the median CPU time, the peak resident memory
# (the largest over the runs) and names per second; bench/rusage.c
# measures them (wait4()), compiled here with ${CC:-cc}. Every scan run
# must exit 1 and report one group per directory.
#
# Not a test: `make bench-scan` runs it by hand.
set -u

here=$(cd "$(dirname "$0")" && pwd)
utf8=misc/e2fold-utf8
files=1000000
per_dir=1000
runs=3
work=
keep=

usage() {
	echo "usage: $0 [--utf8=PATH] [--files=N] [--per-dir=N] [--runs=N]" \
		"[--work=DIR] [--keep]" >&2
	exit 1
}

for arg in "$@"; do
	case $arg in
	--utf8=*) utf8=${arg#*=} ;;
	--files=*) files=${arg#*=} ;;
	--per-dir=*) per_dir=${arg#*=} ;;
	--runs=*) runs=${arg#*=} ;;
	--work=*) work=${arg#*=} ;;
	--keep) keep=1 ;;
	*) usage ;;
	esac
done

. "$(dirname "$0")/bench-lib.sh"

[ -x "$utf8" ] || die "no e2fold-utf8 at $utf8 (give --utf8=PATH)"
utf8=$(cd "$(dirname "$utf8")" && pwd)/$(basename "$utf8")
if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/scan-bench.XXXXXX") || exit 1
	[ -n "$keep" ] || cleanup=$work
else
	mkdir -p "$work" || exit 1
	work=$(cd "$work" && pwd)
	cleanup=
fi
trap '[ -n "${cleanup:-}" ] && rm -rf "$cleanup"' EXIT INT TERM

${CC:-cc} -O2 -o "$work/rusage" "$here/rusage.c" ||
	die "cannot compile $here/rusage.c"
rusage=$work/rusage
dirs=$(( (files + per_dir - 1) / per_dir ))
tree=$work/tree

if [ -f "$tree/.complete-$files-$per_dir" ]; then
	echo "Reusing the tree in $tree"
else
	echo "Making $files files in $dirs directories in $tree..."
	rm -rf "$tree"
	# shellcheck disable=SC2016
	"$rusage" "$work/make.log" make perl -e '
		use strict;
		my ($root, $files, $per_dir) = @ARGV;
		srand(1);
		# Stems in UTF-8 bytes: ASCII four times in five.
		my @stems = ("file", "Report", "image", "notes",
			     "file", "data", "Makefile", "readme",
			     "\xce\xa9\xce\xbc\xce\xad\xce\xb3\xce\xb1",
			     "\xd1\x84\xd0\xb0\xd0\xb9\xd0\xbb",
			     "\xe6\x96\x87\xe4\xbb\xb6",
			     "caf\xc3\xa9", "cafe\xcc\x81");
		mkdir $root or die "$root: $!";
		my ($n, $d) = (0, 0);
		while ($n < $files) {
			my $top = sprintf("%s/top-%04d", $root, int($d / 100));
			mkdir $top unless -d $top;
			my $dir = sprintf("%s/dir-%06d", $top, $d);
			mkdir $dir or die "$dir: $!";
			for my $i (0 .. $per_dir - 1) {
				last if $n >= $files;
				my $stem = $stems[int(rand(@stems))];
				my $name = sprintf("%s-%06d-%08x-%s.dat", $stem,
						   $i, int(rand(2**32)),
						   "x" x int(rand(12)));
				# One pair a directory differs only in case.
				$name = "PAIR-$d.txt" if $i == 0;
				$name = "pair-$d.txt" if $i == 1;
				open(my $f, ">", "$dir/$name") or
					die "$dir/$name: $!";
				close $f;
				$n++;
			}
			$d++;
		}
	' "$tree" "$files" "$per_dir" || die "could not make the tree"
	: > "$tree/.complete-$files-$per_dir"
	awk '{ printf "  made in %.1f s\n", $2 }' "$work/make.log"
fi

# Into the cache, and the number of names scan must see (the marker of a
# complete tree is one of them).
names=$(find "$tree" -mindepth 1 | wc -l)
ndirs=$((dirs + (dirs + 99) / 100 + 1))
rm -f "$work/runs.log" "$work/failed"

# measure KEY WANT COMMAND...: one run, appended to runs.log.
measure() {
	key=$1
	want=$2
	shift 2
	"$rusage" "$work/runs.log" "$key" "$@" > "$work/$key.out" 2>&1
	status=$?
	if [ "$status" -ne "$want" ]; then
		echo "  $key: exit status $status, expected $want" >&2
		tail -n 5 "$work/$key.out" >&2
		echo "$key" >> "$work/failed"
	fi
}

run=1
while [ $run -le "$runs" ]; do
	echo "Run $run of $runs..."
	# shellcheck disable=SC2016
	measure find 0 sh -c 'exec find "$1" > /dev/null' sh "$tree"
	measure scan 1 "$utf8" scan "$tree"
	tail -n 1 "$work/scan.out" > "$work/summary"
	measure scan_strict 1 "$utf8" scan --strict "$tree"
	# shellcheck disable=SC2016
	measure scan_json 1 sh -c 'exec "$1" scan --json "$2" > /dev/null' \
		sh "$utf8" "$tree"
	run=$((run + 1))
done

groups="$dirs collision groups"
[ "$dirs" -ne 1 ] || groups="1 collision group"
want="scanned $ndirs directories and $names names: $groups ($((2 * dirs)) names), 0 errors"
if [ "$(cat "$work/summary")" != "$want" ]; then
	echo "scan's summary:  $(cat "$work/summary")" >&2
	echo "expected:        $want" >&2
	echo "scan" >> "$work/failed"
fi

echo
echo "$names names in $ndirs directories;" \
	"$(uname -r), $(nproc) CPUs"
printf '%-24s %9s %9s %11s %12s\n' variant "wall s" "CPU s" "peak RSS" \
	"names/s"
for key in find scan scan_strict scan_json; do
	awk -v key="$key" -v names="$names" '
		$1 == key { wall[n + 0] = $2; cpu[n + 0] = $4 + $5; n++
			    if ($3 > rss) rss = $3 }
		function median(a, cnt,   i, j, t) {
			for (i = 0; i < cnt; i++)
				for (j = i + 1; j < cnt; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return a[int(cnt / 2)]
		}
		END {
			if (!n) exit
			w = median(wall, n); c = median(cpu, n)
			label = "scan --json"
			if (key == "find") label = "find (anchor)"
			if (key == "scan") label = "e2fold-utf8 scan"
			if (key == "scan_strict") label = "scan --strict"
			printf "%-24s %9.3f %9.3f %8.1f MB %12.0f\n", label, w,
				c, rss / 1024, (w > 0 ? names / w : 0)
		}' "$work/runs.log"
done
[ ! -f "$work/failed" ] || die "failed: $(sort -u "$work/failed" | tr '\n' ' ')"
