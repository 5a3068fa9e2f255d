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
undo_all() {
	undo_skipped=
	for u in "$2" "$2.e2fsck" "$2.super"; do
		[ -f "$u" ] || continue
		if ! e2undo "$u" "$1" > "$u.log" 2>&1; then
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

# kill_every_write: the body of the kill tests (f_robust_kill*): for
# N = 1 to the number of writes of a whole e2fold-fsck -fy -z repair of
# the test's image, kill it (tests/killwrite.c, SIGKILL just before its
# Nth write to a file), then from what it left: a fresh e2fold-fsck -fy
# must repair, and e2fsck -fn and e2fold-fsck -fn be clean after. Whether
# the undo files still give back the original is recorded in undo.log
# beside out.1, not required nor compared: libext2fs's undo manager writes
# its index only when an index block fills or at close, and when exactly
# differs between releases (1.47.2 restores some points 1.47.0 cannot).
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

	rm -f "$undo" "$undo".* "$out_dir/count"
	LD_PRELOAD=$shim E2FOLD_KILL_COUNT=$out_dir/count \
		"$E2FOLD_FSCK" -fy -z "$undo" "$image" > "$out_dir/clean.out" 2>&1
	writes=$(cat "$out_dir/count")
	echo "the repair writes $writes times" > "$out_dir/out.1"
	: > "$out_dir/undo.log"

	n=1
	while [ "$n" -le "$writes" ]; do
		cp "$out_dir/original" "$image"
		rm -f "$undo" "$undo".*
		# (In a shell of its own: the shell that sees the kill says "Killed".)
		s=$(sh -c 'LD_PRELOAD=$1 E2FOLD_KILL_AT=$2 "$3" -fy -z "$4" "$5" \
			> "$6" 2>&1; echo $?' sh "$shim" "$n" "$E2FOLD_FSCK" "$undo" \
			"$image" "$out_dir/kill.out" 2>/dev/null)
		if [ $s -ne 137 ]; then
			echo "$name: FAIL: write $n: exit status $s, not killed:"
			cat "$out_dir/kill.out"
			status=1
		fi
		cp "$image" "$out_dir/killed"
		if cmp -s "$image" "$out_dir/original"; then
			changed="the image was not changed yet"
		else
			changed="the image was changed"
			if undo_all "$image" "$undo" > "$out_dir/undo.out" 2>&1 &&
			   cmp -s "$image" "$out_dir/original"; then
				echo "write $n: the undo files restore the original"
			else
				echo "write $n: the undo files cannot restore the original"
			fi >> "$out_dir/undo.log"
		fi
		cp "$out_dir/killed" "$image"
		"$E2FOLD_FSCK" -fy "$image" > "$out_dir/fresh.out" 2>&1
		s2=$?
		e2fsck -fn "$image" > "$out_dir/e2fsck.log" 2>&1
		s3=$?
		"$E2FOLD_FSCK" -fn "$image" > "$out_dir/again.out" 2>&1
		s4=$?
		if crashed $s2 "$out_dir/fresh.out" || [ $s2 -gt 1 ] ||
		   [ $s3 -ne 0 ] || [ $s4 -ne 0 ]; then
			echo "$name: FAIL: killed before write $n: a fresh repair exits" \
				"$s2, then e2fsck -fn $s3 and e2fold-fsck -fn $s4:"
			cat "$out_dir/fresh.out" "$out_dir/e2fsck.log"
			status=1
		fi
		echo "killed before write $n: $changed; a fresh run repairs (exit $s2)" \
			>> "$out_dir/out.1"
		n=$((n + 1))
	done
}
