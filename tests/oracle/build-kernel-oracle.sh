#!/bin/sh
# Build the Linux kernel's fs/unicode as a userspace static library
# (libkunicode.a) from Debian's linux-source package, for differential
# tests. Usage: build-kernel-oracle.sh SRCDIR OUTDIR
# The source is the newest /usr/src/linux-source-*.tar.xz, the one the
# release's linux-source installs (6.1 on Debian 12, 6.12 on 13, 7.x on
# unstable), or the tarball $E2FOLD_LINUX_SOURCE names. Without one it
# fails (exit 99): the README's test command installs the package.
set -eu
srcdir=$1
out=$2
tarball=${E2FOLD_LINUX_SOURCE:-$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -1 || true)}
if [ ! -f "$tarball" ]; then
	echo "kernel oracle: no kernel source: /usr/src/linux-source-*.tar.xz missing (Debian package linux-source)" >&2
	exit 99
fi
mkdir -p "$out"
stamp="$out/.built-from"
# Rebuilt when the tarball or our side of the wrapper changes.
built_from="$tarball $(find "$srcdir/tests/oracle/kernel_oracle.c" \
	"$srcdir/tests/oracle/kern-rename.h" "$srcdir/tests/oracle/shim" \
	-type f | sort | xargs cat | cksum)"
if [ -f "$out/libkunicode.a" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$built_from" ]; then
	exit 0
fi
top=$(basename "$tarball" .tar.xz)
rm -rf "$out/ksrc"
mkdir -p "$out/ksrc"
tar -xJf "$tarball" -C "$out/ksrc" --strip-components=1 \
	"$top/fs/unicode" "$top/include/linux/unicode.h"
k="$out/ksrc"
cp "$k/fs/unicode/utf8data.c_shipped" "$k/fs/unicode/utf8data.c"
CC=${CC:-cc}
flags="-O2 -w -include $srcdir/tests/oracle/kern-rename.h \
	-I$srcdir/tests/oracle/shim -I$k/include -I$k/fs/unicode"
objs=
for f in "$k/fs/unicode/utf8-norm.c" "$k/fs/unicode/utf8-core.c" \
	 "$k/fs/unicode/utf8data.c" "$srcdir/tests/oracle/kernel_oracle.c"; do
	o="$out/$(basename "$f" .c).o"
	$CC $flags -c "$f" -o "$o"
	objs="$objs $o"
done
rm -f "$out/libkunicode.a"
ar rcs "$out/libkunicode.a" $objs
echo "$built_from" > "$stamp"
