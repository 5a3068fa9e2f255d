#!/bin/sh
# rebuild-image.sh BUILDDIR TESTDIR...: regenerate each test's image.gz
# from its mkimage.sh (for maintainers; tests/u_mkimage_reproducible.sh
# checks that the committed images are exactly what this makes).
set -eu
builddir=$(cd "$1" && pwd)
shift
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
CFCRAFT=$builddir/tests/cfcraft
export top_srcdir CFCRAFT
for dir in "$@"; do
	tmp=$(mktemp)
	sh "$dir/mkimage.sh" "$tmp"
	gzip -n -9 -c "$tmp" > "$dir/image.gz"
	rm -f "$tmp"
	echo "rebuilt $dir/image.gz"
done
