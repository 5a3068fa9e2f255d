#!/bin/sh
# u_engine_boundary: nothing outside lib/ext2fs and lib/support reaches
# inside the engine.
#
# The engine's headers are lib/ext2fs/*.h. unicode.h is the public API;
# unicode_internal.h is the engine's interface to lib/support; the rest
# (the table, its format, the lookups, the fold) is the engine's own.
#  - Sources: a file of lib/support includes no engine header but those
#    two; any other file of the tree (tools, tests, fuzz, bench) only
#    unicode.h, by whatever path. One exception, declared in
#    util/local.mk: the table generator shares the table's format
#    (util/mkutf8data.c, utf8table.h).
#  - Makefiles and scripts: only lib/support, the generator and the fuzz
#    build's lib/support objects put lib/ext2fs itself on an include path
#    (everything else has lib/ext2fs/public, which holds unicode.h alone).
#  - The flags: with the include paths the tools are built with, every
#    internal header is out of reach, and unicode.h and lib/support's
#    headers are in reach.
set -u
top=${top_srcdir:-.}
cd "$top" || exit 99
[ -f lib/ext2fs/unicode.h ] || { echo "ERROR: no lib/ext2fs/unicode.h in $top" >&2; exit 99; }
status=0
fail() { echo "FAIL: $*"; status=1; }

internal=
for h in lib/ext2fs/*.h; do
	h=${h##*/}
	[ "$h" = unicode.h ] || internal="$internal $h"
done
case " $internal " in
*" utf8data.h "*) ;;
*) echo "ERROR: the engine's headers are not where this test looks:$internal" >&2
   exit 99 ;;
esac

# Which engine headers a file may include (besides unicode.h).
allowed() {
	case $1 in
	lib/support/*) echo unicode_internal.h ;;
	util/mkutf8data.c) echo utf8table.h ;;
	esac
}

# Every #include of every C file outside the engine, as FILE:HEADER with
# the header's last path component.
files=0
for f in $(find lib e2fsck debugfs fuse misc tests fuzz bench util \
	-path lib/ext2fs -prune -o -type f \( -name '*.c' -o -name '*.h' \) \
	-print | LC_ALL=C sort); do
	files=$((files + 1))
	may=$(allowed "$f")
	for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*[<"]\([^>"]*\)[>"].*/\1/p' "$f"); do
		base=${inc##*/}
		case " $internal " in
		*" $base "*) ;;
		*) continue ;;
		esac
		[ "$base" = "$may" ] && continue
		fail "$f includes $inc, inside the engine" \
			"(outside lib/ext2fs only unicode.h, and unicode_internal.h from lib/support)"
	done
done
[ "$files" -gt 100 ] || { echo "ERROR: only $files source files found" >&2; exit 99; }

# -I of lib/ext2fs itself (not lib/ext2fs/public) in the build files
# (the pattern is split so that this file does not match it).
engine_dir=lib/ext2fs
for f in $(find . \( -path ./lib/ext2fs -o -path './build*' -o -path ./_build \
	-o -path ./.git \) -prune -o \
	-type f \( -name '*.mk' -o -name '*.am' -o -name '*.make' \
	-o -name '*.sh' \) -print | LC_ALL=C sort); do
	f=${f#./}
	grep -n -- "-I[^ ]*$engine_dir\\([^/A-Za-z0-9_]\\|\$\\)" "$f" /dev/null |
	while IFS= read -r hit; do
		line=${hit#*:}
		line=${line#*:}
		case $f:$line in
		lib/support/local.mk:*|util/local.mk:*) ;;
		'fuzz/fuzz.make:$(obj)/lib/support/%.o:'*) ;;
		*) echo "FAIL: $f puts lib/ext2fs on an include path:" \
			"${hit#*:}" ;;
		esac
	done
done >"${TMPDIR:-/tmp}/u_engine_boundary.$$"
if [ -s "${TMPDIR:-/tmp}/u_engine_boundary.$$" ]; then
	cat "${TMPDIR:-/tmp}/u_engine_boundary.$$"
	status=1
fi
rm -f "${TMPDIR:-/tmp}/u_engine_boundary.$$"

# The flags themselves, as the build tree's make has them (run by hand
# without top_builddir, the test checks the sources alone).
if [ -n "${top_builddir:-}" ]; then
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/u_engine_boundary.XXXXXX") || exit 99
	trap 'rm -rf "$tmp"' EXIT
	# Not the calling make's flags: under make -j they would print the
	# directories entered and want its jobserver.
	flags=$(MAKEFLAGS= MFLAGS= make -s --no-print-directory \
		-C "$top_builddir" print-tool-cppflags) || exit 99
	probe() {
		printf '#include "%s"\n' "$1" >"$tmp/probe.c"
		# The flags are relative to the build tree.
		(cd "$top_builddir" && ${CC:-cc} $flags -fsyntax-only \
			"$tmp/probe.c") >"$tmp/probe.log" 2>&1
	}
	for h in unicode.h cfname.h encoding.h; do
		probe "$h" || { cat "$tmp/probe.log"; fail "the tools' flags ($flags) do not reach $h"; }
	done
	for h in $internal; do
		if probe "$h"; then
			fail "the tools' flags ($flags) reach $h, inside the engine"
		elif ! grep -q "$h" "$tmp/probe.log"; then
			cat "$tmp/probe.log"
			fail "probing $h failed for another reason"
		fi
	done
fi
[ $status -eq 0 ] && echo "PASS: $files source files keep out of the engine's" \
	"$(echo $internal | wc -w) internal headers; the tools' flags reach unicode.h alone"
exit $status
