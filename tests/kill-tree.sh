#!/bin/sh
# kill-tree.sh BUILDDIR TESTDIR...: a measurement, not a test (for
# doc/robustness.md, "Robustness"). Like the f_robust_kill* tests, but
# the kill may fall on any write of the whole run, the e2fsck that
# e2fold-fsck runs included (tests/killwrite.c with E2FOLD_KILL_TREE: the process group dies, as
# in a power cut). For each image: how many kill points, and after a
# single fresh e2fold-fsck -fy at each, at how many e2fsck -fn or
# e2fold-fsck -fn is not clean, or the census (cfcraft census: the
# (directory, name, inode) triples and link counts) differs from an
# uninterrupted repair's; the points are listed.
set -u
builddir=$(cd "$1" && pwd)
shift
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
fsck=$builddir/e2fsck/e2fold-fsck
cfcraft=$builddir/tests/cfcraft
E2FSCK_CONFIG=/dev/null
work=$(mktemp -d)
# e2fsck's overlay (e2fsck/overlay.h), as tests/run-test sets it up.
E2FOLD_OVERLAY_LIB=$builddir/e2fsck/.libs/e2fsck-overlay.so
E2FOLD_STATE_DIR=$work/state
export E2FSCK_CONFIG E2FOLD_OVERLAY_LIB E2FOLD_STATE_DIR
trap 'rm -rf "$work"' EXIT
cc -shared -fPIC -o "$work/kw.so" "$top_srcdir/tests/killwrite.c" -ldl ||
	exit 1
census() {
	"$cfcraft" "$1" census | LC_ALL=C sort > "$2"
}
for dir in "$@"; do
	gzip -dc "$dir/image.gz" > "$work/original"
	args=$(cat "$dir/fsck_args" 2>/dev/null)
	cp "$work/original" "$work/img"
	: > "$work/tree"
	# shellcheck disable=SC2086
	LD_PRELOAD=$work/kw.so E2FOLD_KILL_TREE=$work/tree \
		"$fsck" -fy $args "$work/img" > /dev/null 2>&1
	points=$(cat "$work/tree")
	census "$work/img" "$work/want"
	unclean= differs=
	n=1
	while [ "$n" -le "$points" ]; do
		cp "$work/original" "$work/img"
		: > "$work/tree"
		# shellcheck disable=SC2086
		setsid sh -c 'LD_PRELOAD=$1 E2FOLD_KILL_TREE=$2 E2FOLD_KILL_AT=$3 \
			"$4" -fy $5 "$6" > /dev/null 2>&1' sh "$work/kw.so" \
			"$work/tree" "$n" "$fsck" "$args" "$work/img" \
			> /dev/null 2>&1
		# shellcheck disable=SC2086
		"$fsck" -fy $args "$work/img" > /dev/null 2>&1
		# shellcheck disable=SC2086
		if ! e2fsck -fn "$work/img" > /dev/null 2>&1 ||
		   ! "$fsck" -fn $args "$work/img" > /dev/null 2>&1; then
			unclean="$unclean $n"
		fi
		census "$work/img" "$work/got"
		cmp -s "$work/want" "$work/got" || differs="$differs $n"
		n=$((n + 1))
	done
	echo "$(basename "$dir"): $points kill points;" \
		"not clean after the rerun at:${unclean:- none};" \
		"names differ at:${differs:- none}"
done
