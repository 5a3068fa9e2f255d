#!/bin/sh
# A journaled transaction is atomic against kill -9 at any of its writes
# (doc/journal.md, "A crash at each write"). tests/jtxn commits one
# transaction and closes (u_journal_replay.sh says what it changes); an
# uninterrupted run counts its writes to the image, then for N = 1 to
# that count it is killed just before its Nth write (tests/killwrite.c).
# After each kill the system e2fsck -E journal_only replays the journal
# (repairing nothing), and then:
#   - e2fsck -fn finds the filesystem clean;
#   - it holds either the old contents or the new ones, whole (label,
#     names, file contents), never a mix;
#   - once a kill point leaves the new contents, every later one does
#     (the commit record is the one write that switches).
# The same for power cuts (lib/support/faultio.h: cut-last, cut-half),
# which also lose writes not yet flushed, keeping newer ones: they check
# the flushes.
# On 1 KiB blocks without checksums and 32-bit tags, and on 4 KiB
# blocks with metadata_csum (checksum v3) and 64-bit tags.
test_name=u_journal_kill
. "$top_srcdir/tests/journal-lib.sh"
killwrite_shim

# judge N: after the interruption at write N, replayed, the filesystem
# is clean and old or new, and never old again once new ($switched).
judge() {
	replay "$img"
	fsck_clean "$img"
	fs_state "$img" > "$work/got"
	check
	if cmp -s "$work/got" "$work/old"; then
		olds=$((olds + 1))
		[ -z "$switched" ] ||
			fail "the old contents again after the new ones at write $switched"
	elif cmp -s "$work/got" "$work/new"; then
		news=$((news + 1))
		switched=${switched:-$1}
	else
		fail "neither the old contents nor the new:"
		diff -u "$work/new" "$work/got" | sed 's/^/  /' >&2
	fi
}

# summary HOW WRITES: both outcomes must occur.
summary() {
	title="$cfg_title: $1"
	check
	[ "$olds" -gt 0 ] && [ "$news" -gt 0 ] ||
		fail "of $2 points, $olds leave the old contents and $news the new: both kinds expected"
	echo "$title: $2 points, $olds old, $news new (from write ${switched:-none})"
}

for config in "1024 ^metadata_csum,^64bit" "4096 metadata_csum,64bit"; do
	# shellcheck disable=SC2086
	set -- $config
	new_config "$1" "$2"
	cfg_title=$title
	cp "$orig" "$img"
	rm -f "$work/count" "$work/faults"
	LD_PRELOAD=$shim E2FOLD_KILL_COUNT=$work/count \
		E2FOLD_FAULT=cut:0 E2FOLD_FAULT_COUNTS=$work/faults \
		"$jtxn" "$img" commit > /dev/null 2>&1 ||
		{ echo "jtxn commit failed" >&2; exit 99; }
	fsck_clean "$img" || exit 1
	fs_state "$img" > "$work/new"

	# kill -9 before each write to the file (after the page cache).
	writes=$(cat "$work/count")
	olds=0 news=0 switched=
	n=1
	while [ "$n" -le "$writes" ]; do
		title="$cfg_title: killed before write $n of $writes"
		cp "$orig" "$img"
		LD_PRELOAD=$shim E2FOLD_KILL_AT=$n "$jtxn" "$img" commit \
			> /dev/null 2>&1
		judge "$n"
		n=$((n + 1))
	done
	summary "kill -9" "$writes"

	# Power cuts before each block write of the channel: the writes
	# since the last flush lost but the newest, or but the newest half
	# (lib/support/faultio.h), as a disk that stored them out of order;
	# the flushes are what must keep the log before its commit record
	# and the record before the writes in place. (Without the flush
	# after the commit record, kill -9 passes and these fail.)
	writes=$(awk '{ print $4; exit }' "$work/faults")
	for cut in cut-last cut-half; do
		olds=0 news=0 switched=
		n=1
		while [ "$n" -le "$writes" ]; do
			title="$cfg_title: $cut before block write $n of $writes"
			cp "$orig" "$img"
			E2FOLD_FAULT=$cut:$n "$jtxn" "$img" commit > /dev/null 2>&1
			judge "$n"
			n=$((n + 1))
		done
		summary "$cut" "$writes"
	done
done

finish_checks
