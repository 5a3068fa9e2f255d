#!/bin/sh
# tests/package/tree-kept.sh OUTDIR: run as root in a copy of the source
# tree (scripts/package-check, in the build chroot): scripts/build-packages
# OUTDIR must leave the tree as it found it, so that scripts/build, demo
# and check work after it. It once configured and built in the source
# directory itself, and every later VPATH configure in ./build stopped
# with "source directory already configured".
set -u
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
manifest() {
	find . -path ./build -prune -o -type f -print0 | LC_ALL=C sort -z |
		xargs -0 md5sum
}
before=$(mktemp) after=$(mktemp)
trap 'rm -f "$before" "$after"' EXIT
manifest > "$before"
scripts/build-packages "$1" || { echo "FAIL: scripts/build-packages"; exit 1; }
manifest > "$after"
if ! diff -u "$before" "$after"; then
	echo "FAIL: scripts/build-packages left the tree changed (above)"
	exit 1
fi
# What scripts/build does next: a configure of its own in ./build.
rm -rf build
mkdir build
if ! (autoreconf -fi >/dev/null 2>&1 && cd build &&
      ../configure >configure.log 2>&1); then
	tail -n 5 build/configure.log
	echo "FAIL: configure in ./build after scripts/build-packages"
	exit 1
fi
rm -rf build
echo "PASS: scripts/build-packages left the tree as it found it"
