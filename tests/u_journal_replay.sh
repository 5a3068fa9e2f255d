#!/bin/sh
# Transactions that lib/support/journal.c writes are what the system
# e2fsck replays and debugfs reads (doc/journal.md). On casefold images
# of 1 KiB and 4 KiB blocks, with and without metadata_csum (journal
# checksum v3) and 64bit (64-bit tags), tests/jtxn makes one
# transaction (a new label, four new files, a block that starts with
# the jbd2 magic, an ordered data block, a revoke record) and:
#   commit       the filesystem is clean, needs_recovery is off again,
#                and it holds the new contents;
#   stop-after   (a crash after the commit record, nothing in place):
#                needs_recovery is on, debugfs's logdump shows one tag
#                per block with the flags doc/journal.md, "Descriptor
#                block" gives, the escaped one, the revoke record and the
#                commit block; e2fsck -fy replays it to the new
#                contents, clean; so does e2fsck -E journal_only;
#   stop-before  (a crash before the commit record): logdump shows no
#                commit block; e2fsck leaves the old contents, clean.
# A transaction one block larger than the journal holds is refused, by
# the commit and at close, and leaves the image byte for byte as it was.
# And the journals e2fold does not write are refused with their reason.
test_name=u_journal_replay
. "$top_srcdir/tests/journal-lib.sh"

# The new contents, from jtxn.c's fill(): /magic begins with the jbd2
# magic (big-endian) and goes on with 5 + 7i; /ordered is 3 + 7i.
check_new_bytes() {
	check
	got=$(debugfs -R 'cat /magic' "$1" 2>/dev/null | od -An -tx1 -N8 | tr -d ' \n')
	[ "$got" = c03b399821282f36 ] ||
		fail "/magic starts with $got, want c03b399821282f36 (escape undone)"
	check
	got=$(debugfs -R 'cat /ordered' "$1" 2>/dev/null | od -An -tx1 -N4 | tr -d ' \n')
	[ "$got" = 030a1118 ] ||
		fail "/ordered starts with $got, want 030a1118 (the data, not the revoked block)"
}

same_state() {
	check
	fs_state "$1" > "$work/got"
	if ! cmp -s "$2" "$work/got"; then
		fail "the filesystem holds neither what it should ($3):"
		diff -u "$2" "$work/got" | sed 's/^/  /' >&2
	fi
}

recovery_flag() {
	check
	case " $(features "$1") " in
	*" needs_recovery "*) [ "$2" = on ] || fail "needs_recovery is still set" ;;
	*) [ "$2" = off ] || fail "needs_recovery is not set" ;;
	esac
}

for config in "1024 ^metadata_csum,^64bit" "1024 metadata_csum,64bit" \
	      "4096 metadata_csum,64bit" "4096 ^metadata_csum,^64bit" \
	      "1024 metadata_csum,^64bit" "4096 ^metadata_csum,64bit"; do
	# shellcheck disable=SC2086
	set -- $config
	new_config "$1" "$2"

	title="$1-byte blocks, $2: commit"
	cp "$orig" "$img"
	check
	"$jtxn" "$img" commit > "$work/out" 2>&1 ||
		fail "jtxn commit failed: $(cat "$work/out")"
	fsck_clean "$img"
	recovery_flag "$img" off
	check_new_bytes "$img"
	fs_state "$img" > "$work/new"
	check
	grep -qx 'label journaled' "$work/new" && grep -qx 'name ordered' "$work/new" ||
		fail "the committed filesystem lacks the new label or names"

	title="$1-byte blocks, $2: a crash after the commit record"
	cp "$orig" "$img"
	"$jtxn" "$img" stop-after > "$work/out" 2>&1
	blocks=$(sed -n 's/^blocks //p' "$work/out")
	recovery_flag "$img" on
	debugfs -R 'logdump -a' "$img" > "$work/logdump" 2>&1
	check
	tags=$(grep -c 'FS block [0-9]* logged at' "$work/logdump")
	[ "$tags" = "$blocks" ] ||
		fail "logdump shows $tags tags, the transaction has $blocks blocks"
	check
	grep -q 'logged at journal block [0-9]* (flags 0x[0-9a-f]*[13579bdf])' "$work/logdump" ||
		fail "no tag has the escape flag (0x1)"
	check
	bad=$(awk '/logged at journal block/ {
			f = $NF; sub(/^0x/, "", f); sub(/\)$/, "", f)
			v = 0
			for (i = 1; i <= length(f); i++)
				v = v * 16 + index("0123456789abcdef", substr(f, i, 1)) - 1
			flags[++n] = v
		}
		END {
			for (i = 1; i <= n; i++) {
				same = int(flags[i] / 2) % 2; last = int(flags[i] / 8) % 2
				if (same != (i > 1) || last != (i == n))
					printf " tag %d: flags %d", i, flags[i]
			}
		}' "$work/logdump")
	[ -z "$bad" ] ||
		fail "want 'same UUID' (0x2) on every tag but the first, 'last' (0x8) on the last only:$bad"
	check
	grep -q 'Revoke FS block' "$work/logdump" ||
		fail "logdump shows no revoke record"
	check
	grep -q 'type 2 (commit block)' "$work/logdump" ||
		fail "logdump shows no commit block"
	check
	[ "$("$jtxn" "$img" refuse)" = "Journal flags inconsistent" ] ||
		fail "a journal that needs recovery is not refused"
	cp "$img" "$work/crashed"
	check
	e2fsck -fy "$img" > "$work/replay.out" 2>&1
	[ $? -le 1 ] || fail "e2fsck -fy exits above 1: $(cat "$work/replay.out")"
	fsck_clean "$img"
	recovery_flag "$img" off
	same_state "$img" "$work/new" "replayed by e2fsck -fy"
	check_new_bytes "$img"

	title="$1-byte blocks, $2: e2fsck -E journal_only"
	cp "$work/crashed" "$img"
	check
	e2fsck -y -E journal_only "$img" > "$work/replay.out" 2>&1 ||
		fail "e2fsck -E journal_only exits $?"
	recovery_flag "$img" off
	same_state "$img" "$work/new" "replayed by e2fsck -E journal_only"
	fsck_clean "$img"

	title="$1-byte blocks, $2: a crash before the commit record"
	cp "$orig" "$img"
	"$jtxn" "$img" stop-before > "$work/out" 2>&1
	recovery_flag "$img" on
	debugfs -R 'logdump' "$img" > "$work/logdump" 2>&1
	check
	grep -q 'type 1 (descriptor block)' "$work/logdump" ||
		fail "logdump shows no descriptor block"
	check
	! grep -q 'commit block' "$work/logdump" ||
		fail "logdump shows a commit block"
	replay "$img"
	fsck_clean "$img"
	same_state "$img" "$work/old" "the old contents"
done

title="a transaction larger than the journal"
# 1 KiB blocks, no checksums: 1023 blocks of log (s_first is 1), 124
# tags a descriptor, one commit block: the largest transaction n has
# n + ceil(n / 124) + 1 <= 1023.
make_image "$orig" 1024 "^metadata_csum,^64bit"
cp "$orig" "$img"
room=$(awk 'BEGIN { for (n = 1023; n + int((n + 123) / 124) + 1 > 1023; n--); print n }')
"$jtxn" "$img" too-big > "$work/out" 2>&1
printf 'room %s\npending %s, room 0\n' "$room" $((room + 1)) > "$work/want"
printf 'commit: Journal must be at least 1024 blocks\n' >> "$work/want"
printf 'close: Journal must be at least 1024 blocks\n' >> "$work/want"
check
cmp -s "$work/want" "$work/out" || {
	fail "jtxn too-big:"
	show_diff "$work/want" "$work/out"
}
check
cmp -s "$orig" "$img" ||
	fail "a refused transaction changed the image"

title="refusals"
mke2fs -q -F -t ext4 -O casefold,^has_journal "$work/nojournal" 16M \
	> /dev/null 2>&1 || exit 99
check
[ "$("$jtxn" "$work/nojournal" refuse)" = "Journal not found" ] ||
	fail "a filesystem without a journal is not refused"
cp "$orig" "$work/external"
debugfs -w -R 'ssv journal_inum 0' "$work/external" > /dev/null 2>&1
debugfs -w -R 'ssv journal_dev 2049' "$work/external" > /dev/null 2>&1
check
[ "$("$jtxn" "$work/external" refuse)" = \
  "Operation not supported on an external journal" ] ||
	fail "an external journal is not refused"

finish_checks
