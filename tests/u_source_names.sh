#!/bin/sh
# u_source_names: no two names of the source tree are the same to a
# casefolded ext4 directory, so that a clone or an unpacked tarball on
# one (or on macOS) holds every file and stays clean. Trees of names
# that must collide (the demo's) are made at run time instead.
set -u
top=${top_srcdir:-.}
builddir=$(cd "${top_builddir:-.}" && pwd)
utf8=${E2FOLD_UTF8:-$builddir/misc/e2fold-utf8}
cd "$top" || exit 99
# Every top-level directory but build trees (by name, the one this test
# runs in, as distcheck's _build, and any configured one), caches and
# git's own.
set --
for d in */ .[!.]*/; do
	d=${d%/}
	case $d in
	build|build-*|autom4te.cache|.git) continue ;;
	esac
	case $builddir/ in "$(pwd)/$d"/*) continue ;; esac
	[ -d "$d" ] && [ ! -f "$d/config.status" ] && set -- "$@" "$d"
done
[ $# -gt 3 ] || { echo "ERROR: no source directories in $top" >&2; exit 99; }
"$utf8" scan "$@"
status=$?
case $status in
0) echo PASS ;;
1) echo "FAIL: names above collide in a casefolded directory" ;;
*) echo "ERROR: e2fold-utf8 scan exited $status" ;;
esac
exit $status
