# image-test.sh: helpers for image tests, sourced by run-test and by test
# scripts. Expects $test_dir (sources) and $out_dir (outputs).

# Strip what changes between machines and versions from tool output.
filter_output() {
	sed -f "$top_srcdir/tests/filter.sed" -e "s|${image:-/nonexistent}|test.img|g" \
		-e "s|${out_dir:-/nonexistent}/|OUT/|g"
}

# compare_output N: out.N against expect.N; leaves out.N.diff on mismatch.
compare_output() {
	if cmp -s "$test_dir/expect.$1" "$out_dir/out.$1"; then
		rm -f "$out_dir/out.$1.diff"
		return 0
	fi
	diff -u "$test_dir/expect.$1" "$out_dir/out.$1" > "$out_dir/out.$1.diff"
	echo "$name: output $1 differs from expect.$1:"
	cat "$out_dir/out.$1.diff"
	return 1
}

# The image of this test, decompressed into the output directory.
unpack_image() {
	image=$out_dir/image
	gzip -dc "$test_dir/image.gz" > "$image" || exit 99
}

# Extra e2fold-fsck options of this test (file fsck_args), if any.
fsck_args() {
	[ -f "$test_dir/fsck_args" ] && cat "$test_dir/fsck_args"
}

# run_fsck N OPTIONS...: e2fold-fsck on $image, its filtered output in
# out.N and its JSON report in report.N.json. With -E verify, so that
# after a repair the system e2fsck -fn judges the whole filesystem too
# (by default e2fold re-checks only what it wrote).
run_fsck() {
	n=$1
	shift
	"$E2FOLD_FSCK" -E verify "$@" --report "$out_dir/report.$n.json" "$image" \
		> "$out_dir/raw.$n" 2>&1
	echo "Exit status is $?" >> "$out_dir/raw.$n"
	filter_output < "$out_dir/raw.$n" > "$out_dir/out.$n"
}

# The e2fsprogs pattern: repair, then check that nothing is left.
run_fsck_twice() {
	unpack_image
	# shellcheck disable=SC2046
	run_fsck 1 -fy $(fsck_args)
	# shellcheck disable=SC2046
	run_fsck 2 -fn $(fsck_args)
	status=0
	compare_output 1 || status=1
	compare_output 2 || status=1
	e2fsck_judge || status=1
	exit $status
}

# The system e2fsck is the independent judge of the repaired image. A
# test whose directory has a file e2fsck_misreads holds htree nodes in
# Linux's layout for encrypted casefolded directories, which e2fsck 1.47
# takes for corrupt leaves (e2fsck/misread.c): there the judge must stop
# at exactly such a node, proving that the repair kept Linux's layout.
e2fsck_judge() {
	e2fsck -fn "$image" > "$out_dir/e2fsck.log" 2>&1
	judged=$?
	if [ -f "$test_dir/e2fsck_misreads" ]; then
		want=$(cat "$test_dir/e2fsck_misreads")
		grep -q "^$want$" "$out_dir/e2fsck.log" && [ $((judged & 8)) -ne 0 ] &&
			return 0
		echo "$name: system e2fsck -fn did not stop at the index node in Linux's layout ('$want'):"
	elif [ $judged -eq 0 ]; then
		return 0
	else
		echo "$name: system e2fsck -fn finds problems after repair:"
	fi
	cat "$out_dir/e2fsck.log"
	return 1
}

# Every inode reachable from the root before is still reachable after.
check_reachable() {
	"$CFCRAFT" "$image" reachable > "$out_dir/reachable.after" || return 1
	lost=$(comm -23 "$out_dir/reachable.before" "$out_dir/reachable.after")
	if [ -n "$lost" ]; then
		echo "$name: FAIL: inodes no longer reachable: $(echo $lost)"
		return 1
	fi
}

# Every rename in the report keeps the old name whole: it is the old name
# (invalid bytes as %XX) with "~N" before the extension, or without it.
check_renames() {
	sed -n 's/.*"change": "rename".*"old_name": "\([^"]*\)".*"new_name": "\([^"]*\)".*/\1\t\2/p' \
		"$1" > "$out_dir/renames"
	while IFS='	' read -r old new; do
		want=$(printf '%s' "$old" | sed 's/\\\\x\([0-9A-F][0-9A-F]\)/%\1/g')
		got=$(printf '%s' "$new" | sed 's/~[0-9]*\(\.[^.]*\)\{0,1\}$/\1/')
		if [ "$got" != "$want" ]; then
			echo "$name: FAIL: '$old' was renamed '$new', which does not keep it whole"
			return 1
		fi
	done < "$out_dir/renames"
}

# The standard for mixed damage: one e2fold-fsck -fy run repairs
# casefold and ordinary damage; then e2fsck -fn and e2fold-fsck -fn are
# clean, no inode became unreachable and every casefold rename kept the
# name whole.
run_mixed() {
	unpack_image
	"$CFCRAFT" "$image" reachable > "$out_dir/reachable.before" || exit 99
	run_fsck 1 -fy
	run_fsck 2 -fn
	status=0
	compare_output 1 || status=1
	compare_output 2 || status=1
	e2fsck_judge || status=1
	check_reachable || status=1
	check_renames "$out_dir/report.1.json" || status=1
	exit $status
}
