#!/bin/sh
# u_tools_version_help: every tool answers -V, --version and --help with
# exit status 0 and its text on stdout (nothing on stderr), as users of
# e2fsprogs and GNU tools expect; --version and -V print the same line,
# naming the engine's newest Unicode version and the filesystem's.
set -u
: "${top_builddir:=.}"
tools="e2fsck/e2fold-fsck debugfs/e2fold-debugfs misc/e2fold-tune
misc/e2fold-mkfs misc/e2fold-utf8"
# configure --disable-fuse: no e2fold-fuse to ask (make check says so).
case " ${E2FOLD_LEFT_OUT:-} " in
*" e2fold-fuse "*) echo "NOTE: e2fold-fuse is not built (configure --disable-fuse)" ;;
*) tools="$tools fuse/e2fold-fuse" ;;
esac
tmp=${TMPDIR:-/tmp}/u_tools_version_help.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
for t in $tools; do
	bin=$top_builddir/$t
	prog=$(basename "$t")
	[ -x "$bin" ] || { echo "ERROR: $bin is not built" >&2; exit 99; }
	for opt in -V --version --help; do
		"$bin" "$opt" > "$tmp/out" 2> "$tmp/err"
		rc=$?
		if [ $rc -ne 0 ]; then
			echo "FAIL: $prog $opt: exit status $rc, expected 0"
			fail=1
		fi
		if [ ! -s "$tmp/out" ]; then
			echo "FAIL: $prog $opt: nothing on stdout"
			fail=1
		fi
		if [ -s "$tmp/err" ]; then
			echo "FAIL: $prog $opt: wrote to stderr: $(head -1 "$tmp/err")"
			fail=1
		fi
		case $opt in
		-V) cp "$tmp/out" "$tmp/short" ;;
		--version)
			if ! cmp -s "$tmp/short" "$tmp/out"; then
				echo "FAIL: $prog: -V and --version differ"
				fail=1
			fi
			if ! grep -q "^$prog " "$tmp/out"; then
				echo "FAIL: $prog --version: does not start with '$prog ': $(head -1 "$tmp/out")"
				fail=1
			fi
			# Both Unicode versions: the engine's newest, and the
			# one the filesystem's encoding fixes.
			if ! grep -Eq "Unicode [0-9.]+; filesystem encoding utf8-12\.1, Unicode 12\.1" "$tmp/out"; then
				echo "FAIL: $prog --version: does not name the engine's Unicode version and utf8-12.1's: $(head -1 "$tmp/out")"
				fail=1
			fi ;;
		--help)
			if ! grep -qi "usage" "$tmp/out"; then
				echo "FAIL: $prog --help: no usage line"
				fail=1
			fi ;;
		esac
	done
done
[ $fail -eq 0 ] && echo "PASS: -V, --version and --help in every tool"
exit $fail
