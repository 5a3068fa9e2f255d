# test-lib.sh: what the stand-alone shell tests of e2fold-utf8 share
# (u_utf8_cli.sh, u_scan_rules.sh, u_scan_walk.sh). Source it after
# setting test_name. It gives:
#   $tool     e2fold-utf8, absolute (the tests run it from other places)
#   $tmp      a scratch directory, removed on exit (and $extra_tmp, if
#             the test sets it)
#   LC_ALL=C  byte semantics for sort, sed, grep and awk: the names the
#             tests use are not all valid UTF-8
# and the checks below, which count into $checks, report failures under
# the current $title and keep going; finish_checks gives the verdict.
set -u
LC_ALL=C
export LC_ALL
: "${top_builddir:=.}"
: "${E2FOLD_UTF8:=$top_builddir/misc/e2fold-utf8}"
tool=$(cd "$(dirname "$E2FOLD_UTF8")" && pwd)/$(basename "$E2FOLD_UTF8")
if [ ! -x "$tool" ]; then
	echo "FAIL: $tool is not built" >&2
	exit 99
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp" ${extra_tmp:+"$extra_tmp"}' EXIT INT TERM
checks=0
failures=0
title=

fail() {
	failures=$((failures + 1))
	echo "FAIL: $title: $*" >&2
}

# show_diff WANT GOT: a unified diff of two files, every byte that is not
# printable ASCII escaped (sed's l command), on stderr.
show_diff() {
	sed -n l "$1" >"$1.esc"
	sed -n l "$2" >"$2.esc"
	echo "  (- want, + got; \\ooo escapes a byte, \$ ends a line)" >&2
	diff -u "$1.esc" "$2.esc" | tail -n +3 | sed 's/^/  /' >&2
}

# compare: one check of the last run: its exit status $status is
# $want_status and its stdout $tmp/out is $tmp/want.
compare() {
	checks=$((checks + 1))
	if [ "$status" -ne "$want_status" ]; then
		fail "exit status $status, want $want_status"
		sed 's/^/  stderr: /' "$tmp/err" >&2
	fi
	if ! cmp -s "$tmp/want" "$tmp/out"; then
		fail "output differs:"
		show_diff "$tmp/want" "$tmp/out"
	fi
}

# stderr_is FORMAT: the last run's stderr is exactly printf FORMAT.
stderr_is() {
	checks=$((checks + 1))
	# shellcheck disable=SC2059
	printf "$1" >"$tmp/want.err"
	if ! cmp -s "$tmp/want.err" "$tmp/err"; then
		fail "stderr differs:"
		show_diff "$tmp/want.err" "$tmp/err"
	fi
}

# stderr_has TEXT: the last run's stderr contains TEXT.
stderr_has() {
	checks=$((checks + 1))
	if ! grep -qF -- "$1" "$tmp/err"; then
		fail "stderr lacks '$1':"
		sed 's/^/  stderr: /' "$tmp/err" >&2
	fi
}

stderr_empty() {
	checks=$((checks + 1))
	if [ -s "$tmp/err" ]; then
		fail "unexpected stderr:"
		sed 's/^/  stderr: /' "$tmp/err" >&2
	fi
}

# finish_checks: the summary line, and the exit status (0: no failure).
finish_checks() {
	echo "$test_name: $checks checks, $failures failures"
	[ "$failures" -eq 0 ]
}
