#!/bin/sh
# run-fuzzer.sh [--long|--merge] fuzz/NAME.fuzz: run the harness
# fuzz/fuzz_NAME of the build tree.
#
#   (default)  make check: first every file of fuzz/regress/NAME/ (the
#              crashes found so far, kept as regression tests), then a
#              fixed number of runs (runs= in NAME.fuzz) with a fixed
#              seed, from the committed corpus fuzz/corpus/NAME/;
#              deterministic, and the corpus is never written
#   --long     long_runs= runs with a random seed, FUZZ_JOBS processes
#              (default 1), new inputs kept in BUILD/fuzz/long/NAME/
#   --merge    minimize the committed corpus with what --long found
#              (libFuzzer -merge=1); review and commit the result
# NAME.fuzz sets: runs, long_runs, max_len, timeout (seconds per input),
# rss_limit_mb. It prints "NAME: N executions" and exits 0, or prints
# the finding (saved under BUILD/fuzz/artifacts/NAME/) and exits 1.
set -u
mode=check
case ${1:-} in
--long) mode=long; shift ;;
--merge) mode=merge; shift ;;
esac
conf=$1
name=$(basename "$conf" .fuzz)
src=$(cd "$(dirname "$conf")" && pwd)
build=$(cd "${top_builddir:-.}" && pwd)
bin=$build/fuzz/fuzz_$name
runs=10000 long_runs=1000000 max_len=4096 timeout=10 rss_limit_mb=2048
. "$conf"

if [ ! -x "$bin" ]; then
	echo "$name: FAIL: $bin was not built (the fuzz build needs clang:"
	echo "$name: run scripts/install-deps, then make fuzz-build)"
	exit 1
fi
artifacts=$build/fuzz/artifacts/$name
mkdir -p "$artifacts"
# Quiet the tools under test (stdout and stderr); libFuzzer, sanitizer
# and harness reports stay.
flags="-max_len=$max_len -timeout=$timeout -rss_limit_mb=$rss_limit_mb
	-artifact_prefix=$artifacts/ -print_final_stats=1 -close_fd_mask=3"
log=$build/fuzz/$name.$mode.log
# Leaks inside the system libext2fs are not findings (see the file).
LSAN_OPTIONS="suppressions=$src/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

executions() {
	sed -n 's/^stat::number_of_executed_units: *//p' "$@" |
		awk '{ n += $1 } END { print n + 0 }'
}

finding() {
	echo "$name: FAIL: a finding; the log is $1, the input in $artifacts/:"
	grep -E 'ERROR|invariant broken|SUMMARY|Test unit written' "$1" | head -20
	echo "$name: fix it, then add the input to fuzz/regress/$name/"
	exit 1
}

case $mode in
check)
	if [ -d "$src/regress/$name" ] &&
	   [ -n "$(ls -A "$src/regress/$name")" ]; then
		# The fsck harness's slow judge (the system e2fsck) too: the
		# inputs are few, and some are what only it noticed.
		# shellcheck disable=SC2086
		FUZZ_FSCK_E2FSCK=1 \
		"$bin" $flags "$src/regress/$name"/* > "$log.regress" 2>&1 ||
			finding "$log.regress"
		echo "$name: $(ls "$src/regress/$name" | wc -l) regression inputs pass"
	fi
	work=$build/fuzz/work/$name
	rm -rf "$work"
	mkdir -p "$work"
	# New inputs go to the first directory, never to the committed one.
	# shellcheck disable=SC2086
	"$bin" $flags -runs="$runs" -seed=1 "$work" "$src/corpus/$name" \
		> "$log" 2>&1 || finding "$log"
	echo "$name: $(executions "$log") executions, no finding"
	;;
long)
	work=$build/fuzz/long/$name
	mkdir -p "$work"
	jobs=${FUZZ_JOBS:-1}
	per=$(( (long_runs + jobs - 1) / jobs ))
	rm -f "$log".*
	j=1
	pids=
	while [ $j -le "$jobs" ]; do
		# shellcheck disable=SC2086
		"$bin" $flags -runs="$per" -seed=0 "$work" "$src/corpus/$name" \
			> "$log.$j" 2>&1 &
		pids="$pids $!"
		j=$((j + 1))
	done
	status=0
	for p in $pids; do
		wait "$p" || status=1
	done
	if [ $status -ne 0 ]; then
		for l in "$log".*; do
			grep -q 'ERROR\|invariant broken' "$l" && finding "$l"
		done
		finding "$log.1"
	fi
	echo "$name: $(executions "$log".*) executions, no finding"
	;;
merge)
	tmp=$build/fuzz/merge/$name
	rm -rf "$tmp"
	mkdir -p "$tmp"
	# shellcheck disable=SC2086
	"$bin" $flags -merge=1 "$tmp" "$src/corpus/$name" \
		"$build/fuzz/long/$name" > "$log" 2>&1 || finding "$log"
	rm -rf "$src/corpus/$name"
	mv "$tmp" "$src/corpus/$name"
	echo "$name: corpus now $(ls "$src/corpus/$name" | wc -l) files," \
		"$(du -sk "$src/corpus/$name" | cut -f1) KiB"
	;;
esac
