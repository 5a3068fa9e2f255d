#!/bin/sh
# A journaled transaction is atomic against kill -9 at any of its writes
# (doc/journal.md, "A crash at each write"). tests/jtxn commits one
# transaction and closes (u_journal_replay.sh says what it changes); an
# uninterrupted run counts its writes to the image, then for N = 1 to
# that count it is killed just before its Nth write (tests/killwrite.c).
# After each kill the system e2fsck -fy replays the journal, and then:
#   - e2fsck -fn finds the filesystem clean;
#   - it holds either the old contents or the new ones, whole (label,
#     names, file contents), never a mix;
#   - once a kill point leaves the new contents, every later one does
#     (the commit record is the one write that switches).
# On 1 KiB blocks without checksums and 32-bit tags, and on 4 KiB
# blocks with metadata_csum (checksum v3) and 64-bit tags.
test_name=u_journal_kill
. "$top_srcdir/tests/journal-lib.sh"
shim=$work/killwrite.so
${CC:-cc} -shared -fPIC -o "$shim" "$top_srcdir/tests/killwrite.c" -ldl ||
	exit 99
ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export ASAN_OPTIONS

for config in "1024 ^metadata_csum,^64bit" "4096 metadata_csum,64bit"; do
	# shellcheck disable=SC2086
	set -- $config
	new_config "$1" "$2"
	cp "$orig" "$img"
	rm -f "$work/count"
	LD_PRELOAD=$shim E2FOLD_KILL_COUNT=$work/count "$jtxn" "$img" commit \
		> /dev/null 2>&1 || { echo "jtxn commit failed" >&2; exit 99; }
	fsck_clean "$img" || exit 1
	fs_state "$img" > "$work/new"
	writes=$(cat "$work/count")
	olds=0 news=0 switched=
	n=1
	while [ "$n" -le "$writes" ]; do
		title="$1-byte blocks, $2: killed before write $n of $writes"
		cp "$orig" "$img"
		LD_PRELOAD=$shim E2FOLD_KILL_AT=$n "$jtxn" "$img" commit \
			> /dev/null 2>&1
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
			switched=${switched:-$n}
		else
			fail "neither the old contents nor the new:"
			diff -u "$work/new" "$work/got" | sed 's/^/  /' >&2
		fi
		n=$((n + 1))
	done
	title="$1-byte blocks, $2"
	check
	[ "$olds" -gt 0 ] && [ "$news" -gt 0 ] ||
		fail "of $writes kill points, $olds leave the old contents and $news the new: both kinds expected"
	echo "$title: $writes kill points, $olds old, $news new (from write ${switched:-none})"
done

finish_checks
