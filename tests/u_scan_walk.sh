#!/bin/sh
# u_scan_walk: e2fold-utf8 scan walks a tree depth first in byte order,
# never follows a symbolic link, reports an unreadable directory and scans
# the rest, goes deeper than PATH_MAX and than the soft limit on open
# files, crosses mount points but not a bind mount loop, and scans 200,000
# names in bounded memory.
#
# Parts that need what the machine may not give (a user other than root
# for permissions, a mount namespace, a C compiler for the memory probe)
# say so on stderr and are left out; the rest still runs.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
test_name=u_scan_walk
. "$top_srcdir/tests/test-lib.sh"
# The 200,000 files go to a tmpfs where there is one: a disk takes long.
big_tmp=$(mktemp -d -p /dev/shm 2>/dev/null) || big_tmp=$tmp
extra_tmp=$big_tmp

skip() {
	echo "u_scan_walk: SKIP $title: $*" >&2
}

# run COMMAND...: COMMAND in $tmp, into $tmp/out and $tmp/err, and $status.
run() {
	(cd "$tmp" && exec "$@" >out 2>err)
	status=$?
}

# check TITLE STATUS OUT_FORMAT ERR_FORMAT: the last run's exit status,
# stdout and stderr, exactly (printf formats).
check() {
	title=$1
	checks=$((checks + 1))
	if [ "$status" -ne "$2" ]; then
		fail "exit status $status, want $2"
	fi
	# shellcheck disable=SC2059
	printf "$3" >"$tmp/want"
	# shellcheck disable=SC2059
	printf "$4" >"$tmp/want.err"
	if ! cmp -s "$tmp/want" "$tmp/out"; then
		fail "stdout differs:"
		show_diff "$tmp/want" "$tmp/out"
	fi
	if ! cmp -s "$tmp/want.err" "$tmp/err"; then
		fail "stderr differs:"
		show_diff "$tmp/want.err" "$tmp/err"
	fi
}

# files DIR NAME...: empty files in $tmp/DIR.
files() {
	dir=$tmp/$1
	shift
	mkdir -p "$dir" || exit 99
	for f; do
		: >"$dir/$f" || exit 99
	done
}

# collides DIR FIRST SECOND: the report of a directory with one pair.
collides() {
	printf '%s:\n  same after casefolding:\n    %s\n    %s\n' "$1" "$2" "$3"
}

# ------------------------------------------------------------------
# Order and symbolic links: preorder, byte order; links are names only.
files outside O o
files w/A x X
files w/a q
files w/a/c M m
files w/b Up
ln -s .. "$tmp/w/b/up" && ln -s . "$tmp/w/b/self" &&
	ln -s ../../outside "$tmp/w/b/out" || exit 99
run "$tool" scan w
check 'depth first in byte order; no symbolic link followed, loops included' 1 \
	"$(collides w A a; collides w/A X x; collides w/a/c M m
	   collides w/b Up up)
scanned 5 directories and 13 names: 4 collision groups (8 names), 0 errors\n" ''

# ------------------------------------------------------------------
# An empty directory, scanned first: nothing to report (it once read as
# out of memory, an empty list of names being taken for a failed one).
mkdir -p "$tmp/empty" || exit 99
run "$tool" scan empty
check 'an empty directory is clean' 0 \
	'scanned 1 directory and 0 names: 0 collision groups (0 names), 0 errors\n' ''

# ------------------------------------------------------------------
# An unreadable directory: reported, the others scanned, exit 2.
files u/ok Aa aA
files u/locked Bb bB
files u/zz Cc cC
chmod 000 "$tmp/u/locked" || exit 99
title='an unreadable directory'
if [ "$(id -u)" -ne 0 ]; then
	as_user=
elif command -v setpriv >/dev/null 2>&1; then
	# Root reads anything: drop to nobody, who must reach the tool.
	chmod 755 "$tmp" || exit 99
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	$as_user test -x "$tool" || as_user=none
else
	as_user=none
fi
if [ "$as_user" = none ]; then
	skip "running as root, and nobody can run $tool"
else
	# shellcheck disable=SC2086
	run $as_user "$tool" scan u
	check "$title: reported, the rest scanned, exit 2" 2 \
		"$(collides u/ok Aa aA; collides u/zz Cc cC)
scanned 3 directories and 7 names: 2 collision groups (4 names), 1 error\n" \
		'e2fold-utf8: u/locked: Permission denied\n'
fi
chmod 755 "$tmp/u/locked"

# ------------------------------------------------------------------
# Deeper than PATH_MAX (6,300 bytes) and than a soft limit of 64 open
# files: 300 levels, made as two chains of 150 since no shell command
# takes a path that long.
d=dddddddddddddddddddd
chain='' i=0
while [ $i -lt 150 ]; do
	chain=$chain/$d
	i=$((i + 1))
done
mkdir -p "$tmp/deep$chain" "$tmp/half$chain" || exit 99
: >"$tmp/half$chain/Aa" && : >"$tmp/half$chain/aA" || exit 99
(cd "$tmp/deep$chain" && mv "$tmp/half/$d" .) || exit 99
title='300 levels'
# ulimit -H and -S -n are not POSIX, but dash and bash both have them.
# shellcheck disable=SC3045
if [ "$(ulimit -H -n)" != unlimited ] && [ "$(ulimit -H -n)" -lt 400 ]; then
	skip "the hard limit on open files is below 400"
else
	run sh -c 'ulimit -S -n 64 && exec "$0" scan deep' "$tool"
	check "$title: deeper than PATH_MAX and the soft fd limit" 1 \
		"$(collides "deep$chain$chain" Aa aA)
scanned 301 directories and 302 names: 1 collision group (2 names), 0 errors\n" ''
fi

# ------------------------------------------------------------------
# Mount points are crossed; a bind mount of a directory inside itself is
# a loop: an error, not entered.
files m Zz zZ
mkdir -p "$tmp/m/mnt" "$tmp/m/sub/loop" || exit 99
title='mount points'
ns=
for opts in -m -rm; do
	# shellcheck disable=SC2016
	if unshare $opts sh -c 'mount --bind "$0" "$0"' "$tmp/m/mnt" \
		2>/dev/null; then
		ns=$opts
		break
	fi
done
if [ -z "$ns" ]; then
	skip "no bind mounts in a new mount namespace (unshare -m or -rm)"
else
	# shellcheck disable=SC2016
	run unshare $ns sh -c 'mount --bind outside m/mnt &&
		mount --bind m m/sub/loop && exec "$0" scan m' "$tool"
	check "$title: crossed; a bind mount loop is an error" 2 \
		"$(collides m Zz zZ; collides m/mnt O o)
scanned 3 directories and 7 names: 2 collision groups (4 names), 1 error\n" \
		'e2fold-utf8: m/sub/loop: a filesystem loop: the same directory as one it is in; not scanned again\n'
fi

# ------------------------------------------------------------------
# Scale: 2,000 directories of 100 names of 40 bytes (one colliding pair
# each); and the peak RSS must not grow with the tree: a tree of 20 such
# directories is the baseline. Holding every name would cost some 20 MB.

# tree DIR N: N directories of 100 files, each with one colliding pair.
tree() {
	mkdir -p "$big_tmp/$1" || exit 99
	(cd "$big_tmp/$1" && awk -v n="$2" 'BEGIN {
		for (d = 1; d <= n; d++) print "d" d
	}' | xargs mkdir && awk -v n="$2" 'BEGIN {
		for (d = 1; d <= n; d++) {
			printf "d%d/FILE-0000-%030d\n", d, d
			for (f = 0; f < 99; f++)
				printf "d%d/file-%04d-%030d\n", d, f, d
		}
	}' | xargs touch) || exit 99
}
tree small 20
tree big 2000
run "$tool" scan "$big_tmp/big"
title='200,000 names'
checks=$((checks + 1))
[ "$status" -eq 1 ] || fail "exit status $status, want 1"
tail -n 1 "$tmp/out" >"$tmp/summary"
printf 'scanned 2001 directories and 202000 names: 2000 collision groups (4000 names), 0 errors\n' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/summary" || fail "summary: $(cat "$tmp/summary")"

title='peak RSS independent of the tree'
# bench/rusage.c measures it (wait4()), as the benchmarks do.
if grep -q __asan_init "$tool" || grep -q __ubsan_handle "$tool"; then
	# The sanitizers' allocators hold freed memory back (quarantine).
	skip "a sanitizer build: its allocator's RSS grows by design"
elif ! ${CC:-cc} -o "$tmp/rusage" "$top_srcdir/bench/rusage.c" 2>/dev/null
then
	skip "no C compiler to build bench/rusage.c"
else
	run "$tmp/rusage" "$tmp/rss.log" small "$tool" scan "$big_tmp/small"
	run "$tmp/rusage" "$tmp/rss.log" big "$tool" scan "$big_tmp/big"
	small_kb=$(awk '$1 == "small" { print $3 }' "$tmp/rss.log")
	big_kb=$(awk '$1 == "big" { print $3 }' "$tmp/rss.log")
	checks=$((checks + 1))
	echo "u_scan_walk: peak RSS ${small_kb} KiB for 2,020 names," \
		"${big_kb} KiB for 202,000" >&2
	if [ $((big_kb - small_kb)) -gt 4096 ]; then
		fail "the peak RSS grew by $((big_kb - small_kb)) KiB"
	fi
fi

finish_checks
