#!/bin/sh
# fsck-bench.sh: e2fold-fsck against the system e2fsck, in one run.
#
#   sh bench/fsck-bench.sh [--fsck=PATH] [--mkfs=PATH] [--e2fsck=PATH]
#                          [--big=N] [--dirs=N] [--per-dir=N] [--dups=N]
#                          [--runs=N] [--size=SIZE] [--work=DIR]
#
# The image: a casefold ext4 filesystem (every directory casefolded) with
# one directory of BIG entries (default 1,000,000) and DIRS directories
# (default 100) of PER_DIR entries (default 10,000), empty files whose
# names are four in five ASCII and one in five in other scripts, all
# distinct after casefolding (bench/mktar.c). It is made once, the same
# bytes every time (fixed UUID, hash seed and time), by e2fold-mkfs from a
# tar archive bench/mktar.c writes, checked with e2fsck -fn, and kept in
# WORK (default bench/fsck-work under the current directory, or
# $FSCK_BENCH_WORK) for the next run; delete it to make it again.
#
# Checking: e2fsck -fn, e2fold-fsck -fn and e2fold-fsck --no-e2fsck -fn
# (e2fold's own passes alone) on the clean image.
# Repairing: DUPS (default 10) entries of the big directory get a twin, a
# name equal to theirs after casefolding, added by the system debugfs (as
# any tool that compares bytes would add it); then e2fsck -fyD,
# e2fold-fsck -fy and e2fold-fsck --no-e2fsck -fy, each on a fresh copy.
# Each result is checked once with e2fsck -fn and e2fold-fsck -fn.
#
# Every variant runs RUNS times (default 3), interleaved, and the table
# gives the median, fastest and slowest wall time, the median CPU time
# (user + system, the command and its children) and the peak resident
# memory (the largest over the runs). bench/rusage.c measures (wait4()):
# the peak of a command is that of its largest process, never a sum.
# e2fold-fsck runs e2fsck as a child; the benchmark gives it an e2fsck
# wrapped in bench/rusage.c (--e2fsck) so that the child's share shows in
# its own row. The helpers are compiled here with ${CC:-cc}.
#
# Not a test: `make bench-fsck` runs it by hand.
set -u

here=$(cd "$(dirname "$0")" && pwd)
fsck=e2fsck/e2fold-fsck
mkfs=misc/e2fold-mkfs
e2fsck=
big=1000000
dirs=100
per_dir=10000
dups=10
runs=3
size=16G
work=${FSCK_BENCH_WORK:-bench/fsck-work}

usage() {
	echo "usage: $0 [--fsck=PATH] [--mkfs=PATH] [--e2fsck=PATH] [--big=N]" \
		"[--dirs=N] [--per-dir=N] [--dups=N] [--runs=N] [--size=SIZE]" \
		"[--work=DIR]" >&2
	exit 1
}

for arg in "$@"; do
	case $arg in
	--fsck=*) fsck=${arg#*=} ;;
	--mkfs=*) mkfs=${arg#*=} ;;
	--e2fsck=*) e2fsck=${arg#*=} ;;
	--big=*) big=${arg#*=} ;;
	--dirs=*) dirs=${arg#*=} ;;
	--per-dir=*) per_dir=${arg#*=} ;;
	--dups=*) dups=${arg#*=} ;;
	--runs=*) runs=${arg#*=} ;;
	--size=*) size=${arg#*=} ;;
	--work=*) work=${arg#*=} ;;
	*) usage ;;
	esac
done
. "$(dirname "$0")/bench-lib.sh"
numbers "$big" "$dirs" "$per_dir" "$dups" "$runs"
if [ "$runs" -lt 1 ] || [ "$dups" -gt "$big" ]; then
	echo "$0: need at least one run, and no more duplicates than" \
		"entries in the big directory" >&2
	exit 1
fi


fsck=$(absolute "$fsck") || die "no e2fold-fsck (give --fsck=PATH)"
mkfs=$(absolute "$mkfs") || die "no e2fold-mkfs (give --mkfs=PATH)"
e2fsck=$(absolute "${e2fsck:-e2fsck}") || die "no e2fsck (give --e2fsck=PATH)"
debugfs=$(absolute debugfs) || die "no debugfs (Debian package e2fsprogs)"

mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
img=$work/fsck-$big-${dirs}x$per_dir.img
# e2fsck repairs into an overlay (e2fsck/overlay.h): the library of the
# e2fold-fsck measured, beside it in a build tree, and a state directory
# of the bench's own.
if [ -z "${E2FOLD_OVERLAY_LIB:-}" ] &&
   [ -f "$(dirname "$fsck")/.libs/e2fsck-overlay.so" ]; then
	E2FOLD_OVERLAY_LIB=$(dirname "$fsck")/.libs/e2fsck-overlay.so
	export E2FOLD_OVERLAY_LIB
fi
E2FOLD_STATE_DIR=$work/state
export E2FOLD_STATE_DIR
trap 'rm -f "$work/tree.tar" "$img.new" "$work/dmg.img" "$work/run.img"' \
	EXIT INT TERM

for helper in mktar rusage; do
	${CC:-cc} -O2 -o "$work/$helper" "$here/$helper.c" ||
		die "cannot compile $here/$helper.c"
done
rusage=$work/rusage

# e2fold-fsck's e2fsck, measured apart: every call appends to child.log.
cat > "$work/e2fsck-measured" <<EOF
#!/bin/sh
exec "$rusage" "$work/child.log" "child\$1" "$e2fsck" "\$@"
EOF
chmod +x "$work/e2fsck-measured"

export E2FSPROGS_FAKE_TIME=1700000000
uuid=0e2f01d0-0000-4000-8000-000000000001
seed=6f0ba7f4-3ddb-4b9a-9d7e-0b1a1cd5e0f1
files=$((big + dirs * per_dir))

make_image() {
	echo "Making the image, once: $img"
	"$work/mktar" "$big" "$dirs" "$per_dir" > "$work/tree.tar" ||
		die "mktar failed"
	rm -f "$work/mkfs.log"
	"$rusage" "$work/mkfs.log" mkfs "$mkfs" -q -F -O casefold \
		-E "casefold_dirs=all,hash_seed=$seed" -U "$uuid" \
		-N $((files + files / 16 + 4096)) -d "$work/tree.tar" \
		"$img.new" "$size" || die "e2fold-mkfs failed"
	rm -f "$work/tree.tar"
	awk '{ printf "  e2fold-mkfs -d archive.tar: %.1f s, %.0f MB\n",
		$2, $3 / 1024 }' "$work/mkfs.log"
	"$e2fsck" -fn "$img.new" > "$work/check.log" 2>&1 || {
		cat "$work/check.log" >&2
		die "e2fsck -fn finds the new image unclean"
	}
	echo "  e2fsck -fn: clean"
	mv "$img.new" "$img"
}

# The damaged image: DUPS entries of big/, evenly spread, get a twin whose
# ASCII letters have the other case (every name has some: its extension).
make_damaged() {
	cp --sparse=always "$img" "$work/dmg.img" || exit 1
	"$work/mktar" -l "$big" 0 0 | awk -v n="$dups" -v big="$big" '
		BEGIN { step = int(big / n); if (step < 1) step = 1 }
		NR > 1 && (NR - 2) % step == int(step / 2) && picked < n {
			print substr($0, 5); picked++
		}' | LC_ALL=C tr 'a-zA-Z' 'A-Za-z' |
	awk '{ printf "write /dev/null \"/big/%s\"\n", $0 }' > "$work/damage.cmd"
	"$debugfs" -w -f "$work/damage.cmd" "$work/dmg.img" \
		> "$work/damage.log" 2>&1 || {
		cat "$work/damage.log" >&2
		die "debugfs could not add the twins"
	}
	"$fsck" --no-e2fsck -fn "$work/dmg.img" > "$work/damage.check" 2>&1
	[ $? -eq 4 ] || {
		cat "$work/damage.check" >&2
		die "e2fold-fsck -fn does not see the damage"
	}
}

fresh_copy() {
	rm -f "$work/run.img"
	cp --sparse=always "$work/dmg.img" "$work/run.img" || exit 1
	sync "$work/run.img"
}

# measure KEY EXPECTED-STATUS COMMAND...: one run, appended to runs.log.
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

# measure_e2fold KEY EXPECTED COMMAND...: the same, and its e2fsck apart
# (the runs that are not -V: the real run, and with -E verify the judge).
measure_e2fold() {
	: > "$work/child.log"
	measure "$@"
	awk -v key="$1_child" '
		$1 != "child-V" { wall += $2; if ($3 > rss) rss = $3
				  cpu_u += $4; cpu_s += $5; n++ }
		END { if (n) printf "%s %.3f %d %.3f %.3f 0\n", key, wall,
			rss, cpu_u, cpu_s }' "$work/child.log" >> "$work/runs.log"
}

# What a repair left, outside the timing: e2fsck's verdict and e2fold's.
judge() {
	"$e2fsck" -fn "$work/run.img" > "$work/judge.out" 2>&1
	s1=$?
	"$fsck" --no-e2fsck -fn "$work/run.img" > "$work/judge2.out" 2>&1
	s2=$?
	echo "then e2fsck -fn exits $s1, e2fold-fsck --no-e2fsck -fn exits" \
		"$s2 and counts $(entries "$work/judge2.out") entries" \
		> "$work/judge-$1"
}

# The entries e2fold-fsck's summary line counts.
entries() {
	sed -n 's/.* \([0-9][0-9]*\) entries checked.*/\1/p' "$1"
}

# LABEL KEY: how many names a repair changed, the first three, the verdict.
describe() {
	awk -v label="$1" '
		/^Entry \047/ { split($0, q, "\047"); old = q[2] }
		/^Rename to / {
			new = substr($0, 11); sub(/\? yes$/, "", new)
			gsub(/^\047|\047$/, "", new)
			if (++n <= 3) eg = eg (n > 1 ? ", " : "") old " -> " new
		}
		/^Pass 3A/ { all = "; every directory rebuilt (pass 3A)" }
		/directories rebuilt/ { sub(/.*renamed, /, ""); all = "; " $0 }
		END { printf "  %s: %d renamed (%s)%s;\n", label, n, eg, all }
	' "$work/$2.out"
	echo "    $(cat "$work/judge-$2")"
}

[ -f "$img" ] || make_image
make_damaged
rm -f "$work/runs.log" "$work/failed"
load_start=$(cut -d' ' -f1 /proc/loadavg)
cat "$img" > /dev/null		# every variant reads from the page cache

r=1
while [ "$r" -le "$runs" ]; do
	echo "Run $r of $runs..."
	measure e2fsck_fn 0 "$e2fsck" -fn "$img"
	measure_e2fold e2fold_fn 0 "$fsck" --e2fsck="$work/e2fsck-measured" \
		-fn "$img"
	measure e2fold_own_fn 0 "$fsck" --no-e2fsck -fn "$img"

	fresh_copy
	measure e2fsck_fyD 1 "$e2fsck" -fyD "$work/run.img"
	[ "$r" -eq 1 ] && judge e2fsck_fyD
	fresh_copy
	measure_e2fold e2fold_fy 1 "$fsck" --e2fsck="$work/e2fsck-measured" \
		-fy "$work/run.img"
	[ "$r" -eq 1 ] && judge e2fold_fy
	fresh_copy
	measure e2fold_own_fy 1 "$fsck" --no-e2fsck -fy "$work/run.img"
	[ "$r" -eq 1 ] && judge e2fold_own_fy
	r=$((r + 1))
done
load_end=$(cut -d' ' -f1 /proc/loadavg)

cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)
mem=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
echo
echo "e2fold-fsck benchmark: one casefolded directory of $big entries and" \
	"$dirs of $per_dir; $files files, $size image (every directory" \
	"casefolded); $runs runs"
echo "machine: $cpu, $(nproc) CPUs, $mem, Linux $(uname -r); load" \
	"average $load_start at the start, $load_end at the end"
echo "$("$fsck" -V 2>&1 | head -n 1), commit" \
	"$(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown);" \
	"$("$e2fsck" -V 2>&1 | head -n 1)"
echo
awk '
	BEGIN {
		n = split("e2fsck_fn e2fold_fn e2fold_fn_child e2fold_own_fn " \
			  "e2fsck_fyD e2fold_fy e2fold_fy_child e2fold_own_fy", order)
		name["e2fsck_fn"] = "e2fsck -fn"
		name["e2fold_fn"] = "e2fold-fsck -fn"
		name["e2fold_fn_child"] = "  of which its e2fsck -fn"
		name["e2fold_own_fn"] = "e2fold-fsck --no-e2fsck -fn"
		name["e2fsck_fyD"] = "e2fsck -fyD"
		name["e2fold_fy"] = "e2fold-fsck -fy"
		name["e2fold_fy_child"] = "  of which its e2fsck -fy"
		name["e2fold_own_fy"] = "e2fold-fsck --no-e2fsck -fy"
		head["e2fsck_fn"] = "check, clean image"
		head["e2fsck_fyD"] = "repair, on fresh damaged copies"
	}
	{ k = $1; c = ++count[k]; wall[k, c] = $2; cpu[k, c] = $4 + $5
	  if ($3 > rss[k]) rss[k] = $3 }
	function sort(a, k, m,    i, j, t) {
		for (i = 1; i <= m; i++)
			for (j = i + 1; j <= m; j++)
				if (a[k, j] < a[k, i]) {
					t = a[k, i]; a[k, i] = a[k, j]; a[k, j] = t
				}
	}
	END {
		printf "| %-38s | %8s | %8s | %8s | %8s | %11s |\n", "variant",
			"median s", "fastest", "slowest", "CPU s", "peak RSS MB"
		printf "|%s|%s|%s|%s|%s|%s|\n", "----------------------------------------",
			"---------:", "---------:", "---------:", "---------:",
			"------------:"
		for (i = 1; i <= n; i++) {
			k = order[i]
			m = count[k]
			if (k in head)
				printf "| %-38s | %8s | %8s | %8s | %8s | %11s |\n",
					"*" head[k] "*", "", "", "", "", ""
			if (!m)
				continue
			sort(wall, k, m)
			sort(cpu, k, m)
			mid = int((m + 1) / 2)
			printf "| %-38s | %8.2f | %8.2f | %8.2f | %8.2f | %11.1f |\n",
				name[k], wall[k, mid], wall[k, 1], wall[k, m],
				cpu[k, mid], rss[k] / 1024
		}
	}' "$work/runs.log"
echo
echo "What they did (the last run's output is in $work/*.out):"
echo "  e2fold-fsck -fn: $(sed -n 's/^[^:]*: \(.*entries checked\).*/\1/p' \
	"$work/e2fold_fn.out")"
echo "  the damaged copy: $(entries "$work/damage.check") entries, $dups of" \
	"them twins that debugfs added"
describe "e2fsck -fyD" e2fsck_fyD
describe "e2fold-fsck -fy" e2fold_fy
describe "e2fold-fsck --no-e2fsck -fy" e2fold_own_fy
if [ -f "$work/failed" ]; then
	echo "Unexpected exit status in: $(sort -u "$work/failed" | tr '\n' ' ')" >&2
	exit 1
fi
