#!/bin/sh
# e2fold-tune on a journaled filesystem (without -z) converts each
# directory in one transaction (misc/tune/convert.c,
# convert_dir_atomically). A conversion (enable casefold, casefold every
# directory of a tree with a collision to rename, set strict) runs
# uninterrupted once; then it is interrupted before each of its writes,
# alternately by kill -9 (tests/killwrite.c) and by a simulated power
# failure that loses the older half of the unflushed writes
# (lib/support/faultio.h, cut-half). After each interruption:
#   - the system e2fsck -E journal_only replays the journal (repairing
#     nothing); then e2fsck -fn and e2fold-fsck -fn find the filesystem
#     clean, before any rerun: no directory is half converted, no bitmap
#     is behind, and no directory is casefolded on a filesystem without
#     the feature;
#   - e2fold-tune run again (after e2fold-fsck -fy if it refuses the
#     filesystem its killed run left marked unchecked) ends with the
#     names and inodes of the uninterrupted conversion (cfcraft census).
# And a directory too large for the journal is converted without it,
# saying so, and as cleanly.
test_name=u_journal_tune
. "$top_srcdir/tests/journal-lib.sh"
tune=$(cd "$top_builddir/misc" && pwd)/e2fold-tune
fsck_tool=$(cd "$top_builddir/e2fsck" && pwd)/e2fold-fsck
cfcraft=$(cd "$top_builddir/tests" && pwd)/cfcraft
killwrite_shim

census() {
	"$cfcraft" "$1" census | sort > "$2"
}

mkdir -p "$work/tree/Docs/many"
: > "$work/tree/Docs/README"
: > "$work/tree/Docs/readme"
i=0
while [ $i -lt 60 ]; do
	: > "$work/tree/Docs/many/Name-$i"
	i=$((i + 1))
done
title="setup"
mke2fs -q -F -t ext4 -b 1024 -J size=1 -d "$work/tree" "$work/orig" 16M \
	> "$work/mke2fs.out" 2>&1 || { cat "$work/mke2fs.out"; exit 99; }
printf 'jo -c\njc\n' | debugfs -w -f - "$work/orig" > /dev/null 2>&1
set -- -O casefold --casefold / --collisions rename -E encoding_flags=strict

cp "$work/orig" "$work/img"
rm -f "$work/count"
E2FOLD_FAULT=cut:0 E2FOLD_FAULT_COUNTS=$work/count \
	"$tune" "$@" "$work/img" > "$work/clean.out" 2>&1 ||
	{ cat "$work/clean.out"; exit 99; }
fsck_clean "$work/img" || exit 1
census "$work/img" "$work/want"
check
grep -q " $(printf 'readme~1' | od -An -tx1 | tr -d ' \n') " "$work/want" ||
	fail "the uninterrupted run did not rename readme to readme~1"
writes=$(awk '{ print $4; exit }' "$work/count")

n=1
while [ "$n" -le "$writes" ]; do
	cp "$work/orig" "$work/img"
	if [ $((n % 2)) -eq 1 ]; then
		how="kill -9"
		LD_PRELOAD=$shim E2FOLD_KILL_AT=$n "$tune" "$@" "$work/img" \
			> /dev/null 2>&1
	else
		how="cut-half"
		E2FOLD_FAULT=cut-half:$n "$tune" "$@" "$work/img" \
			> /dev/null 2>&1
	fi
	title="$how before write $n of $writes"
	replay "$work/img"
	fsck_clean "$work/img"
	check
	"$fsck_tool" -fn "$work/img" > "$work/e2fold-fsck.out" 2>&1 || {
		fail "e2fold-fsck -fn before a rerun:"
		sed 's/^/  /' "$work/e2fold-fsck.out" >&2
	}
	if ! "$tune" "$@" "$work/img" > "$work/again.out" 2>&1; then
		"$fsck_tool" -fy "$work/img" > /dev/null 2>&1
		"$tune" "$@" "$work/img" > "$work/again.out" 2>&1
	fi
	census "$work/img" "$work/got"
	check
	cmp -s "$work/want" "$work/got" || {
		fail "after a rerun the names differ from an uninterrupted conversion's:"
		diff -u "$work/want" "$work/got" | sed 's/^/  /' >&2
	}
	n=$((n + 1))
done
echo "$writes interruption points"

# A directory whose transaction might not fit (1,100 blocks of entries,
# a journal of 1024 blocks) is converted with the journal suspended, by
# its ordered writes alone, and said so; the result is as clean.
title="a directory larger than the journal"
mke2fs -q -F -t ext4 -b 1024 -J size=1 -N 60000 "$work/big" 64M \
	> "$work/mke2fs.out" 2>&1 || { cat "$work/mke2fs.out"; exit 99; }
"$cfcraft" "$work/big" mkdir / big || exit 99
perl -e 'printf("%s\n", unpack("H*", sprintf("Name-%06d", $_))) for 1..55000' |
	"$cfcraft" "$work/big" fill /big || exit 99
check
"$tune" -O casefold --casefold / "$work/big" > "$work/big.out" 2>&1 ||
	fail "e2fold-tune exits $?: $(cat "$work/big.out")"
check
grep -q '^  /big: up to [0-9]* blocks, more than the journal.s [0-9]*: converted without it$' \
	"$work/big.out" || fail "the conversion does not say it went without the journal:
$(cat "$work/big.out")"
fsck_clean "$work/big"
check
"$fsck_tool" -fn "$work/big" > "$work/e2fold-fsck.out" 2>&1 ||
	fail "e2fold-fsck -fn: $(cat "$work/e2fold-fsck.out")"
finish_checks
