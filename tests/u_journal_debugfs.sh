#!/bin/sh
# e2fold-debugfs -w on a journaled filesystem makes each editing command
# one transaction (debugfs/cmd_helpers.c, cmd_commit). A command file
# (mkdir, chattr +F, write of a file of several blocks into the now
# casefolded directory, set_encoding_flags strict) runs uninterrupted
# after each prefix of it, giving the states S0 to S4; then it runs
# killed before each of its writes (tests/killwrite.c), and cut by a
# simulated power failure before each (lib/support/faultio.h,
# cut-half: the older half of the unflushed writes lost). After each:
#   - e2fold-debugfs -w refuses the filesystem while its journal needs
#     recovery (checked at the first such kill);
#   - the system e2fsck -E journal_only replays the journal (repairing
#     nothing), and e2fsck -fn and
#     e2fold-fsck -fn find it clean;
#   - it is in one of S0 to S4, never between two, and never in an
#     earlier one than at the kill point before.
test_name=u_journal_debugfs
. "$top_srcdir/tests/journal-lib.sh"
debugfs_tool=$(cd "$top_builddir/debugfs" && pwd)/e2fold-debugfs
fsck_tool=$(cd "$top_builddir/e2fsck" && pwd)/e2fold-fsck
killwrite_shim

# Six blocks and a half of contents, written as ordered data.
awk 'BEGIN { for (i = 0; i < 700; i++) printf "line %06d of the file\n", i }' \
	> "$work/big"
cat > "$work/cmds" <<EOF
mkdir /cf
chattr +F /cf
write $work/big /cf/Big-File
set_encoding_flags strict
EOF
ncmds=4

# state IMAGE: what the commands change.
state() {
	"$debugfs_tool" -R 'stats' "$1" 2>/dev/null | grep -i 'encoding flags'
	debugfs -R 'stat /cf' "$1" 2>/dev/null | grep -o 'Flags: 0x[0-9a-f]*'
	debugfs -R 'ls -p /cf' "$1" 2>/dev/null | awk -F/ 'NF > 5 { print $6 }' | sort
	debugfs -R 'cat /cf/Big-File' "$1" 2>/dev/null | sha256sum
}

title="setup"
make_image "$work/orig" 1024 "metadata_csum,64bit"
k=0
while [ "$k" -le "$ncmds" ]; do
	cp "$work/orig" "$work/img"
	head -n "$k" "$work/cmds" > "$work/prefix"
	if [ "$k" -gt 0 ]; then
		"$debugfs_tool" -w -f "$work/prefix" "$work/img" \
			> "$work/prefix.out" 2>&1 || {
			echo "commands 1 to $k failed:" >&2
			cat "$work/prefix.out" >&2
			exit 99
		}
	fi
	fsck_clean "$work/img"
	state "$work/img" > "$work/S$k"
	k=$((k + 1))
done
check
cmp -s "$work/S$((ncmds - 1))" "$work/S$ncmds" &&
	fail "the last command changes nothing the state shows"
check
cmp -s "$work/S2" "$work/S3" &&
	fail "write changes nothing the state shows"

# judge: what an interrupted run left, checked (see the top).
judge() {
	if [ -z "$refused_checked" ] &&
	   case " $(features "$work/img") " in *" needs_recovery "*) true ;; *) false ;; esac; then
		refused_checked=1
		check
		"$debugfs_tool" -w -R 'mkdir /x' "$work/img" > "$work/refused" 2>&1 &&
			fail "e2fold-debugfs -w writes a filesystem whose journal needs recovery"
		grep -q 'the journal needs recovery' "$work/refused" ||
			fail "the refusal does not say why: $(cat "$work/refused")"
	fi
	replay "$work/img"
	fsck_clean "$work/img"
	check
	"$fsck_tool" -fn "$work/img" > "$work/e2fold-fsck.out" 2>&1 ||
		fail "e2fold-fsck -fn: $(cat "$work/e2fold-fsck.out")"
	state "$work/img" > "$work/got"
	check
	found=
	k=0
	while [ "$k" -le "$ncmds" ]; do
		if cmp -s "$work/got" "$work/S$k"; then
			found=$k
			break
		fi
		k=$((k + 1))
	done
	if [ -z "$found" ]; then
		fail "the filesystem is in none of the states after 0 to $ncmds commands:"
		diff -u "$work/S$last" "$work/got" | sed 's/^/  /' >&2
	elif [ "$found" -lt "$last" ]; then
		fail "the state after $found commands, after $last at an earlier point"
	else
		last=$found
	fi
}

cp "$work/orig" "$work/img"
rm -f "$work/count" "$work/faults"
LD_PRELOAD=$shim E2FOLD_KILL_COUNT=$work/count \
	E2FOLD_FAULT=cut:0 E2FOLD_FAULT_COUNTS=$work/faults \
	"$debugfs_tool" -w -f "$work/cmds" "$work/img" > /dev/null 2>&1
refused_checked=
for how in kill cut-half; do
	if [ $how = kill ]; then
		writes=$(cat "$work/count")
	else
		writes=$(awk '{ print $4; exit }' "$work/faults")
	fi
	last=0
	n=1
	while [ "$n" -le "$writes" ]; do
		title="$how before write $n of $writes"
		cp "$work/orig" "$work/img"
		if [ $how = kill ]; then
			LD_PRELOAD=$shim E2FOLD_KILL_AT=$n \
				"$debugfs_tool" -w -f "$work/cmds" "$work/img" \
				> /dev/null 2>&1
		else
			E2FOLD_FAULT=$how:$n \
				"$debugfs_tool" -w -f "$work/cmds" "$work/img" \
				> /dev/null 2>&1
		fi
		judge
		n=$((n + 1))
	done
	title="$how points"
	check
	[ "$last" -eq "$ncmds" ] ||
		fail "no $how point leaves all $ncmds commands done"
	echo "$how: $writes points"
done
title="kill points"
check
[ -n "$refused_checked" ] || fail "no kill left a journal that needs recovery"
finish_checks
