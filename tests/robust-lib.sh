# robust-lib.sh: helpers of the f_robust_* tests (bad input at the edges,
# faults, kills), sourced after image-test.sh.

# run_edge N ARGS...: e2fold-fsck ARGS on $image. out.N holds its
# filtered stdout, then each line of its stderr as "stderr: LINE", then
# "Exit status is S"; the status is also left in $edge_status.
run_edge() {
	n=$1
	shift
	"$E2FOLD_FSCK" "$@" "$image" > "$out_dir/stdout.$n" \
		2> "$out_dir/stderr.$n"
	edge_status=$?
	{
		filter_output < "$out_dir/stdout.$n"
		filter_output < "$out_dir/stderr.$n" | sed 's/^/stderr: /'
		echo "Exit status is $edge_status"
	} > "$out_dir/out.$n"
}

# expect_error N: run N failed as bad input must: exactly one line on
# stderr and exit status 8 (so neither a crash nor a sanitizer report).
expect_error() {
	lines=$(wc -l < "$out_dir/stderr.$1")
	if [ "$edge_status" -ne 8 ] || [ "$lines" -ne 1 ]; then
		echo "$name: FAIL: run $1: exit status $edge_status and" \
			"$lines lines on stderr; want 8 and one clear line:"
		cat "$out_dir/stderr.$1"
		return 1
	fi
}

# bytes HEX: write the bytes HEX (e.g. 0000ffff) to stdout. (dash's
# printf knows octal escapes, not \x.)
bytes() {
	for b in $(echo "$1" | sed 's/\(..\)/\1 /g'); do
		# shellcheck disable=SC2059
		printf "\\$(printf %03o "0x$b")"
	done
}

# poke FILE OFFSET HEX: overwrite bytes of FILE at OFFSET (decimal) with
# the bytes HEX.
poke() {
	bytes "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# same_image A B: the images are equal but for the primary superblock's
# times that come from the clock (s_mtime, s_wtime, s_lastcheck) and the
# checksum that covers them. (cmp -l counts bytes from 1.)
same_image() {
	[ "$(wc -c < "$1")" -eq "$(wc -c < "$2")" ] &&
	cmp -l "$1" "$2" | awk '
		$1 >= 1069 && $1 <= 1076 { next }	# s_mtime, s_wtime
		$1 >= 1089 && $1 <= 1092 { next }	# s_lastcheck
		$1 >= 2045 && $1 <= 2048 { next }	# s_checksum
		{ d = 1 }
		END { exit d }'
}

# The test's name, for messages (run-test does not export it).
: "${name:=$(basename "$test_dir")}"
# undo_all IMAGE UNDO: apply each phase's undo file, newest first:
# e2fold's passes (UNDO), e2fsck's (UNDO.e2fsck), pass 0's (UNDO.super).
# A file e2undo cannot read at all (an e2fsck that stopped before writing
# leaves an unfinished one) is skipped and named in $undo_skipped; the
# caller compares the result with the original, which is what counts.
# E2UNDO_FORCE=-f passes -f to e2undo (see undo_killed).
undo_all() {
	undo_skipped=
	for u in "$2" "$2.e2fsck" "$2.super"; do
		# Empty: its phase was killed before it saved (or wrote) a block.
		[ -s "$u" ] || continue
		if ! e2undo ${E2UNDO_FORCE:-} "$u" "$1" > "$u.log" 2>&1; then
			cat "$u.log"
			grep -q 'Corrupt undo file header\|Not an undo file' \
				"$u.log" || return 1
			undo_skipped="$undo_skipped $(basename "$u")"
		fi
	done
}

# Was the program killed, or did a sanitizer or valgrind speak? Exit
# statuses above 15 are neither e2fsck's nor e2fold's.
crashed() {
	[ "$1" -gt 15 ] || grep -q 'Sanitizer\|runtime error' "$2"
}

# census IMAGE FILE: every (directory, name, inode) triple reachable from
# the root and every link count that differs from its inode's names
# (cfcraft census), sorted into FILE.
census() {
	"$CFCRAFT" "$1" census > "$2.raw" 2>&1 || {
		cat "$2.raw"
		return 1
	}
	LC_ALL=C sort "$2.raw" > "$2"
	rm -f "$2.raw"
}

# kill_every_write: the body of the kill tests (f_robust_kill*). An
# uninterrupted e2fold-fsck -fy -z repair of the test's image (options
# from fsck_args too) counts its writes to files and leaves the census
# (above) every killed run must end with. Then for N = 1 to that count
# the same repair is killed (tests/killwrite.c, SIGKILL just before its
# Nth write to a file), and from what it left:
#   - the undo files give back the original image byte for byte (but
#     see undo_killed);
#   - a single fresh e2fold-fsck -fy repairs, after which e2fsck -fn and
#     e2fold-fsck -fn are clean;
#   - the census is the uninterrupted repair's: no entry lost or doubled,
#     no file moved to lost+found that it did not move, every link count
#     equal to the names that lead to its inode.
# Sets status=1 on a broken promise.
kill_every_write() {
	unpack_image
	cp "$image" "$out_dir/original"
	undo=$out_dir/undo
	shim=$out_dir/killwrite.so
	${CC:-cc} -shared -fPIC -o "$shim" "$top_srcdir/tests/killwrite.c" \
		-ldl || exit 99
	# A sanitizer runtime wants to be first; the shim only wraps writes.
	ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export ASAN_OPTIONS
	args=$(fsck_args)

	rm -f "$undo" "$undo".* "$out_dir/count"
	# shellcheck disable=SC2086
	LD_PRELOAD=$shim E2FOLD_KILL_COUNT=$out_dir/count \
		"$E2FOLD_FSCK" -fy $args -z "$undo" "$image" \
		> "$out_dir/clean.out" 2>&1
	writes=$(cat "$out_dir/count")
	census "$image" "$out_dir/census.want" || exit 99
	if grep -q '^links' "$out_dir/census.want"; then
		echo "$name: FAIL: the uninterrupted repair leaves link counts" \
			"that are not the number of names:"
		grep '^links' "$out_dir/census.want"
		status=1
	fi
	echo "the repair writes $writes times" > "$out_dir/out.1"

	n=1
	while [ "$n" -le "$writes" ]; do
		kill_at "$n"
		n=$((n + 1))
	done
}

# same_but_marked A B: the images are equal but for what e2undo -f
# changes after its replay to have the filesystem checked (s_state) and
# what any superblock write changes (same_image).
same_but_marked() {
	[ "$(wc -c < "$1")" -eq "$(wc -c < "$2")" ] &&
	cmp -l "$1" "$2" | awk '
		$1 >= 1069 && $1 <= 1076 { next }	# s_mtime, s_wtime
		$1 >= 1083 && $1 <= 1084 { next }	# s_state
		$1 >= 1089 && $1 <= 1092 { next }	# s_lastcheck
		$1 >= 2045 && $1 <= 2048 { next }	# s_checksum
		{ d = 1 }
		END { exit d }'
}

# undo_killed N: the undo files of the run killed before write N must give
# back the original byte for byte. One exception, which e2undo itself
# detects: the undo file records the superblock the filesystem had when
# it last wrote its header, and a kill between a write of the primary
# superblock and the next such header leaves the two different. e2undo
# then refuses to run (it cannot tell the file from one of another
# state of the filesystem); e2undo -f must restore every block, and
# then marks the filesystem as needing a check, which is all that may
# differ. Sets $changed.
undo_killed() {
	changed="the undo files restore the original"
	if undo_all "$image" "$undo" > "$out_dir/undo.out" 2>&1 &&
	   cmp -s "$image" "$out_dir/original"; then
		return 0
	fi
	if grep -q "superblock doesn't match" "$out_dir/undo.out"; then
		changed="e2undo refuses a superblock newer than the undo"
		changed="$changed file's header; e2undo -f restores the rest"
		cp "$out_dir/killed" "$image"
		if E2UNDO_FORCE=-f undo_all "$image" "$undo" \
			> "$out_dir/undo.out" 2>&1 &&
		   same_but_marked "$image" "$out_dir/original"; then
			return 0
		fi
	fi
	echo "$name: FAIL: killed before write $1: the undo files do not" \
		"restore the original:"
	cat "$out_dir/undo.out"
	status=1
}

# kill_at N: one kill point of kill_every_write.
kill_at() {
	cp "$out_dir/original" "$image"
	rm -f "$undo" "$undo".*
	# (In a shell of its own: the shell that sees the kill says "Killed".)
	s=$(sh -c 'LD_PRELOAD=$1 E2FOLD_KILL_AT=$2 "$3" -fy $4 -z "$5" "$6" \
		> "$7" 2>&1; echo $?' sh "$shim" "$1" "$E2FOLD_FSCK" "$args" \
		"$undo" "$image" "$out_dir/kill.out" 2>/dev/null)
	if [ "$s" -ne 137 ]; then
		echo "$name: FAIL: write $1: exit status $s, not killed:"
		cat "$out_dir/kill.out"
		status=1
	fi
	cp "$image" "$out_dir/killed"
	if cmp -s "$image" "$out_dir/original"; then
		changed="the image was not changed yet"
	else
		undo_killed "$1"
		cp "$out_dir/killed" "$image"
	fi
	"$E2FOLD_FSCK" -fy $args "$image" > "$out_dir/fresh.out" 2>&1
	s2=$?
	e2fsck -fn "$image" > "$out_dir/e2fsck.log" 2>&1
	s3=$?
	"$E2FOLD_FSCK" -fn $args "$image" > "$out_dir/again.out" 2>&1
	s4=$?
	if crashed $s2 "$out_dir/fresh.out" || [ $s2 -gt 1 ] ||
	   [ $s3 -ne 0 ] || [ $s4 -ne 0 ]; then
		echo "$name: FAIL: killed before write $1: a fresh repair exits" \
			"$s2, then e2fsck -fn $s3 and e2fold-fsck -fn $s4:"
		cat "$out_dir/fresh.out" "$out_dir/e2fsck.log"
		status=1
	fi
	census "$image" "$out_dir/census.got" || status=1
	if ! cmp -s "$out_dir/census.want" "$out_dir/census.got"; then
		echo "$name: FAIL: killed before write $1: after a fresh run the" \
			"names differ from an uninterrupted repair's:"
		diff "$out_dir/census.want" "$out_dir/census.got" | head -20
		status=1
	fi
	echo "killed before write $1: $changed; a fresh run (exit $s2)" \
		"leaves every name of an uninterrupted repair" >> "$out_dir/out.1"
}
