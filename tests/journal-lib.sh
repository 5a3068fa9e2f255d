# journal-lib.sh: what the journal tests share (u_journal_replay.sh,
# u_journal_kill.sh, u_journal_debugfs.sh, kernel/k_journal.sh). Source
# it after setting test_name. The judges are
# the system e2fsck, debugfs and dumpe2fs, never e2fold's own code.
#   $jtxn          tests/jtxn, the one transaction under test
#   $work          a scratch directory, removed on exit (test-lib.sh's)
#   make_image F BLOCKSIZE FEATURES
#                  a casefold ext4 of 16 MiB with a 1024-block journal,
#                  its journal features set as Linux sets them at the
#                  first mount (csum v3 with metadata_csum, 64-bit tags
#                  with 64bit: debugfs's journal_open)
#   new_config BLOCKSIZE FEATURES
#                  $orig made by make_image, its fs_state in $work/old,
#                  $img the scratch image, $title named after both
#   fs_state F     what the transaction changes, one line each: the
#                  label, the root's names, the contents of /magic and
#                  /ordered (their SHA-256)
#   replay F       e2fsck -E journal_only replays the journal and
#                  repairs nothing, so that the check after it judges
#                  what the writer left
#   fsck_clean F   e2fsck -fn finds nothing (0), else says so
#   killwrite_shim $shim, tests/killwrite.c built for LD_PRELOAD
#   check / fail   count a check, report a failure and keep going
# test-lib.sh gives $tmp (the scratch directory, here $work), fail,
# show_diff and finish_checks.
. "$top_srcdir/tests/test-lib.sh"
work=$tmp
jtxn=$(cd "$top_builddir/tests" && pwd)/jtxn
if [ ! -x "$jtxn" ]; then
	echo "FAIL: $jtxn is not built" >&2
	exit 99
fi
for tool in mke2fs e2fsck debugfs dumpe2fs; do
	if ! command -v "$tool" > /dev/null; then
		echo "FAIL: the system $tool is missing (e2fsprogs)" >&2
		exit 99
	fi
done

check() {
	checks=$((checks + 1))
}

killwrite_shim() {
	shim=$work/killwrite.so
	${CC:-cc} -shared -fPIC -o "$shim" "$top_srcdir/tests/killwrite.c" \
		-ldl || exit 99
	# A sanitizer runtime wants to be first; the shim only wraps writes.
	ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export ASAN_OPTIONS
}

make_image() {
	rm -f "$1"
	mke2fs -q -F -t ext4 -b "$2" -O "casefold,$3" -J size=$(($2 / 1024)) \
		-U 6b0c7a3e-5a0d-4c1e-9d8b-2f0a1c3e4d5f -L before "$1" 16M \
		> "$work/mke2fs.out" 2>&1 || {
		cat "$work/mke2fs.out" >&2
		exit 99
	}
	csum=
	case $3 in
	*^metadata_csum*) ;;
	*metadata_csum*) csum=-c ;;
	esac
	printf 'jo %s\njc\n' "$csum" | debugfs -w -f - "$1" > /dev/null 2>&1
}

new_config() {
	title="$1-byte blocks, $2"
	orig=$work/orig.img
	img=$work/img
	make_image "$orig" "$1" "$2"
	fs_state "$orig" > "$work/old"
}

fs_state() {
	dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Filesystem volume name: */label /p'
	debugfs -R 'ls -p /' "$1" 2>/dev/null | awk -F/ 'NF > 5 { print "name " $6 }' | sort
	for f in magic ordered; do
		printf '%s ' "$f"
		debugfs -R "cat /$f" "$1" 2>/dev/null | sha256sum | cut -d' ' -f1
	done
}

replay() {
	check
	if ! e2fsck -y -E journal_only "$1" > "$work/replay.out" 2>&1; then
		fail "e2fsck -E journal_only exits $?:"
		sed 's/^/  /' "$work/replay.out" >&2
	fi
}

fsck_clean() {
	check
	if ! e2fsck -fn "$1" > "$work/fsck.out" 2>&1; then
		fail "e2fsck -fn finds problems:"
		sed 's/^/  /' "$work/fsck.out" >&2
		return 1
	fi
}

# features F: the filesystem's feature line (needs_recovery shows there).
features() {
	dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Filesystem features: *//p'
}

