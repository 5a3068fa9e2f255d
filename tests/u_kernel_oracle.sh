#!/bin/sh
# Our engine against the Linux kernel's fs/unicode, built from Debian's
# linux-source: every code point and a million random strings, every API
# function, byte for byte (tests/oracle/kernel_diff.c says what exactly).
set -u
oracle=$top_builddir/tests/oracle
sh "$top_srcdir/tests/oracle/build-kernel-oracle.sh" "$top_srcdir" "$oracle"
status=$?
[ $status -eq 0 ] || exit $status
# libtool links the engine's convenience library from wherever it keeps it.
# shellcheck disable=SC2086
"$top_builddir/libtool" --quiet --mode=link $CC -O2 $SANITIZER_FLAGS \
	-I"$top_srcdir/lib/ext2fs/public" -I"$top_srcdir/tests/oracle" \
	-I"$top_srcdir/tests" \
	-o "$oracle/kernel_diff" "$top_srcdir/tests/oracle/kernel_diff.c" \
	"$oracle/libkunicode.a" "$top_builddir/lib/ext2fs/libe2fold_engine.la" || exit 99
exec "$oracle/kernel_diff" "${E2FOLD_ORACLE_STRINGS:-1000000}"
