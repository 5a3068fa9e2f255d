#!/bin/sh
# libe2fold is the Unicode engine and nothing else:
#  - the shared library exports exactly the functions <e2fold/unicode.h>
#    declares (no internal e2fold_* helper, nothing named ext2fs_* that
#    would replace the system libext2fs's own);
#  - it depends on libc alone (no libext2fs, libcom_err, ...);
#  - installed into a DESTDIR, a program built with nothing but
#    `pkg-config --cflags --libs e2fold` compiles, links and runs.
set -u
header=$top_srcdir/lib/ext2fs/unicode.h
tmp=$(mktemp -d "${TMPDIR:-/tmp}/u_exports.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# Installed into a DESTDIR as `make install` would, so that what is
# checked is what users get (not libtool's build-tree layout).
dest=$tmp/root
if ! make -s -C "$top_builddir" DESTDIR="$dest" install-libLTLIBRARIES \
	install-e2foldincludeHEADERS install-pkgconfigDATA >"$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	fail "installing the library into a DESTDIR"
	exit 1
fi
pc=$(find "$dest" -name e2fold.pc | head -n 1)
[ -n "$pc" ] || { fail "no e2fold.pc installed"; exit 1; }
lib=$(find "$dest" -name 'libe2fold.so.*' -type f | head -n 1)
if [ -z "$lib" ]; then
	fail "no shared libe2fold installed (configure --disable-shared?)"
	exit 1
fi

# AddressSanitizer adds an "__odr_asan.NAME" indicator beside each
# exported variable NAME: instrumentation, not API.
nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^__odr_asan\.' |
	sort >"$tmp/exported"
# A declaration starts a line with E2FOLD_API; its name is the word
# before the first parenthesis.
sed -n 's/^E2FOLD_API[^(]*[ *]\([A-Za-z0-9_]*\)(.*/\1/p' "$header" |
	sort >"$tmp/declared"
[ -s "$tmp/declared" ] || fail "no E2FOLD_API declaration found in $header"
if ! cmp -s "$tmp/exported" "$tmp/declared"; then
	fail "exported symbols differ from unicode.h's declarations" \
		"(< exported only, > declared only):"
	diff "$tmp/exported" "$tmp/declared" | grep '^[<>]'
fi

# A sanitizer build links its runtimes into every object it makes
# (--enable-sanitizers): those are the build's instrumentation, not
# dependencies of the engine, and only there are they allowed.
needed=$(objdump -p "$lib" | awk '$1 == "NEEDED" {print $2}')
for n in $needed; do
	case $n in
	libc.so.*) ;;
	libasan.so.*|libubsan.so.*)
		[ -n "${SANITIZER_FLAGS:-}" ] ||
			fail "libe2fold.so needs $n, yet this is no sanitizer build" ;;
	*) fail "libe2fold.so needs $n; the engine must need libc alone" ;;
	esac
done

export PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_LIBDIR="${pc%/*}" PKG_CONFIG_PATH=
flags=$(pkg-config --cflags --libs e2fold) || { fail "pkg-config e2fold"; exit 1; }
case " $flags " in
*ext2fs*|*com_err*|*" -I/usr/include"*) fail "pkg-config e2fold brings more than the engine: $flags" ;;
esac
# A sanitized library loads only into a program built the same way.
# shellcheck disable=SC2086
if ! ${CC:-cc} -Wall -Werror ${SANITIZER_FLAGS:-} -o "$tmp/consumer" \
	"$top_srcdir/tests/libe2fold_consumer.c" $flags 2>"$tmp/cc.log"; then
	cat "$tmp/cc.log"
	fail "a program using only pkg-config's flags does not build"
	exit 1
fi
# pkg-config's -L, already inside the DESTDIR.
libdir=$(pkg-config --libs-only-L e2fold | sed 's/^ *-L//; s/ *$//')
if out=$(LD_LIBRARY_PATH="$libdir" "$tmp/consumer"); then
	echo "$out"
else
	echo "$out"
	fail "the installed library's consumer failed"
fi
# The consumer must have used the installed copy, not the build tree's.
if ! LD_LIBRARY_PATH="$libdir" ldd "$tmp/consumer" |
	grep -q "=> $libdir/libe2fold.so"; then
	fail "the consumer did not load libe2fold.so from $libdir"
fi
[ $status -eq 0 ] && echo "PASS: $(wc -l <"$tmp/exported") exported symbols," \
	"exactly unicode.h's; libc alone; pkg-config consumer runs"
exit $status
