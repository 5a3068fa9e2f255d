# fuse-lib.sh: what the tests of e2fold-fuse share. A test's script sets
# name, sources this file (run-test has exported out_dir and the tools)
# and gets:
#   fail MSG            report a failed check and go on
#   need_fuse           fail loudly (never skip) without /dev/fuse,
#                       fusermount3 or perl
#   make_image ARGS...  e2fold-mkfs with a fixed UUID and hash seed
#   mount_image IMG [OPTS...]   e2fold-fuse -f IMG mnt in the background,
#                       waiting until mnt is mounted (mnt: the directory
#                       $mnt_dir names if set, else ./mnt)
#   unmount_image       fusermount3 -u mnt; the server must exit with 0
#   judge IMG           e2fsck -fn and e2fold-fsck -fn both clean
#   errno_of OP PATH [PATH2]    the errno name (or ok) of one system call
#                       (perl): create (O_CREAT|O_EXCL), mkdir, rmdir,
#                       unlink, rename, exchange (renameat2's
#                       RENAME_EXCHANGE), link, symlink
# A trap unmounts on exit and prints the server's log after a failure;
# a script ends with `exit 0`, so that any other exit status (a helper's
# exit 99) counts as a failure.
set -u
LC_ALL=C
export LC_ALL
cd "$out_dir" || exit 99
# E2FOLD_FUSE: another build of it (scripts/check's ThreadSanitizer run).
FUSE=${E2FOLD_FUSE:-$top_builddir/fuse/e2fold-fuse}
status=0
pid=

fail() {
	echo "$name: FAIL: $*"
	status=1
}

finish() {
	rc=$?
	# An exit with an error status (a helper's exit 99) is a failure too.
	if [ $rc -ne 0 ] && [ $status -eq 0 ]; then
		echo "$name: FAIL: stopped with exit status $rc"
		status=$rc
	fi
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		fusermount3 -u "${mnt_dir:-mnt}" 2>/dev/null
		sleep 1
		kill "$pid" 2>/dev/null
	fi
	[ $status -ne 0 ] && [ -s server.log ] && sed 's/^/  server: /' server.log
	[ $status -eq 0 ] && echo "$name: PASS"
	exit $status
}
trap finish EXIT

need_fuse() {
	[ -c /dev/fuse ] ||
		{ fail "/dev/fuse is missing: the test needs FUSE"; exit 1; }
	command -v fusermount3 > /dev/null ||
		{ fail "fusermount3 is missing: install fuse3 (scripts/install-deps)"; exit 1; }
	command -v perl > /dev/null ||
		{ fail "perl is missing: install it (scripts/install-deps)"; exit 1; }
}

make_image() {
	"$E2FOLD_MKFS" -q -U 6b3c8a3e-51d4-4c0e-9a2b-0e2f1d3c4b5a \
		-E hash_seed=2a7f9c1e-3b5d-4e6f-8a9b-1c2d3e4f5a6b "$@" \
		> mkfs.log 2>&1 ||
		{ fail "e2fold-mkfs $*: $(cat mkfs.log)"; exit 1; }
}

mount_image() {
	img=$1
	shift
	mkdir -p "${mnt_dir:-mnt}"
	"$FUSE" -f "$@" "$img" "${mnt_dir:-mnt}" > server.log 2>&1 &
	pid=$!
	tries=0
	until grep -q " ${mnt_dir:-$(pwd)/mnt} fuse" /proc/mounts; do
		tries=$((tries + 1))
		if [ $tries -gt 50 ] || ! kill -0 $pid 2>/dev/null; then
			fail "e2fold-fuse $* $img did not mount"
			exit 1
		fi
		sleep 0.2
	done
}

unmount_image() {
	fusermount3 -u "${mnt_dir:-mnt}" || fail "fusermount3 -u failed"
	wait $pid
	rc=$?
	pid=
	[ $rc -eq 0 ] || fail "e2fold-fuse exited with status $rc"
}

judge() {
	e2fsck -fn "$1" > e2fsck.log 2>&1 ||
		{ fail "e2fsck -fn finds problems:"; sed 's/^/  /' e2fsck.log; }
	"$E2FOLD_FSCK" -fn "$1" > fsck.log 2>&1 ||
		{ fail "e2fold-fsck -fn finds problems:"; sed 's/^/  /' fsck.log; }
}

errno_of() {
	perl -MPOSIX -MFcntl -e '
		my ($op, $a, $b) = @ARGV;
		my $ok = $op eq "create" ?
			sysopen(my $f, $a, O_CREAT | O_EXCL | O_WRONLY) :
		    $op eq "mkdir" ? mkdir($a) :
		    $op eq "rmdir" ? rmdir($a) :
		    $op eq "unlink" ? unlink($a) :
		    $op eq "rename" ? rename($a, $b) :
		    $op eq "exchange" ? do { require "syscall.ph";
			syscall(&SYS_renameat2(), -100, $a, -100, $b, 2) == 0 } :
		    $op eq "link" ? link($a, $b) :
		    $op eq "symlink" ? symlink($b, $a) :
		    die "errno_of: unknown operation $op\n";
		if ($ok) { print "ok\n"; exit 0 }
		my %names = (EEXIST, "EEXIST", EINVAL, "EINVAL",
			ENOENT, "ENOENT", ENOTEMPTY, "ENOTEMPTY",
			EISDIR, "EISDIR", ENOTDIR, "ENOTDIR", EPERM, "EPERM",
			EROFS, "EROFS", EACCES, "EACCES", EMLINK, "EMLINK",
			ENOSPC, "ENOSPC", 126, "ENOKEY");
		print $names{$! + 0} // "errno " . ($! + 0), "\n";' "$@"
}
