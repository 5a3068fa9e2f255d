#!/bin/sh
# libe2fold.so exports the engine API (utf8*), e2fold_* names, and nothing
# else: above all nothing named ext2fs_* or e2p_*, which would replace the
# system libext2fs's own functions in every program that links both.
set -u
lib=$top_builddir/lib/ext2fs/.libs/libe2fold.so
if [ ! -f "$lib" ]; then
	echo "SKIP: no shared library was built (--disable-shared)" >&2
	exit 77
fi
# AddressSanitizer adds an "__odr_asan.NAME" indicator beside each
# exported variable NAME: instrumentation, not API.
syms=$(nm -D --defined-only "$lib" | awk '{print $3}' |
	grep -v '^__odr_asan\.')
bad=$(printf '%s\n' "$syms" | grep -Ev '^(utf8|e2fold_)' || true)
count=$(printf '%s\n' "$syms" | grep -c .)
if [ -n "$bad" ]; then
	echo "FAIL: unexpected exported symbols:"
	printf '%s\n' "$bad"
	exit 1
fi
for want in utf8_load utf8_unload utf8version_latest utf8_validate \
	utf8_normalize utf8_casefold utf8_strncmp utf8_strncasecmp \
	utf8_strncasecmp_folded utf8_casefold_hash utf8version_is_supported \
	utf8nfdi utf8nfdicf utf8cursor utf8ncursor utf8byte utf8len utf8nlen \
	utf8agemax utf8agemin utf8nagemax utf8nagemin; do
	if ! printf '%s\n' "$syms" | grep -qx "$want"; then
		echo "FAIL: $want is not exported"
		exit 1
	fi
done
echo "PASS: $count exported symbols, all utf8* or e2fold_*"
