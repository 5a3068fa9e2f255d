#!/bin/sh
# u_minimal_build: libe2fold and the offline tools build with libc,
# libext2fs and their own needs alone. A second tree is configured with
# --disable-fuse --without-libarchive while pkg-config cannot see libfuse3,
# libarchive and nettle at all, and built (about a minute at -O0); then:
#  - no program and not libe2fold needs a library outside the list below
#    (objdump's NEEDED), and e2fold-fuse is not built;
#  - make check leaves out the tests of what is not built, and says so;
#  - make install installs no e2fold-fuse, manual page or completion link
#    of it;
#  - e2fold-mkfs given an archive names it and says that this build reads
#    no archives, creating nothing; given a directory, it populates.
set -u
: "${top_srcdir:?}"
# The builds below are this test's own, not the calling make's jobs.
unset MAKEFLAGS MFLAGS MAKELEVEL
tmp=$(mktemp -d "${TMPDIR:-/tmp}/u_minimal_build.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# pkg-config's search path without the left-out parts' libraries (and
# fuse 2, hogweed: nettle's other half).
mkdir "$tmp/pc"
pc_path=$(pkg-config --variable pc_path pkg-config) || exit 99
for d in $(echo "$pc_path" | tr ':' ' '); do
	for pc in "$d"/*.pc; do
		[ -e "$pc" ] || continue
		case ${pc##*/} in
		fuse3.pc|fuse.pc|libarchive.pc|nettle.pc|hogweed.pc) ;;
		*) [ -e "$tmp/pc/${pc##*/}" ] || ln -s "$pc" "$tmp/pc/" ;;
		esac
	done
done
for p in fuse3 libarchive nettle; do
	if PKG_CONFIG_LIBDIR=$tmp/pc PKG_CONFIG_PATH= pkg-config --exists "$p"; then
		echo "ERROR: could not hide $p from pkg-config" >&2
		exit 99
	fi
done

src=$(cd "$top_srcdir" && pwd)
mkdir "$tmp/build"
cd "$tmp/build" || exit 99
if ! PKG_CONFIG_LIBDIR=$tmp/pc PKG_CONFIG_PATH= "$src/configure" \
	--disable-fuse --without-libarchive \
	CC="${CC:-cc}" CFLAGS=-O0 >configure.log 2>&1; then
	tail -20 configure.log
	fail "configure --disable-fuse --without-libarchive, without libfuse3, libarchive and nettle"
	exit 1
fi
if ! make -j2 >make.log 2>&1; then
	tail -30 make.log
	fail "building with --disable-fuse --without-libarchive"
	exit 1
fi

# What each binary links, directly.
tools="misc/e2fold-utf8 misc/e2fold-mkfs misc/e2fold-tune
e2fsck/e2fold-fsck debugfs/e2fold-debugfs"
lib=$(ls lib/ext2fs/.libs/libe2fold.so.*.*.* 2>/dev/null | head -n 1)
[ -n "$lib" ] || fail "no shared libe2fold built"
[ -e fuse/e2fold-fuse ] && fail "e2fold-fuse was built with --disable-fuse"
for bin in $tools $lib; do
	[ -f "$bin" ] || { fail "$bin was not built"; continue; }
	for n in $(objdump -p "$bin" | awk '$1 == "NEEDED" {print $2}'); do
		case $n in
		libc.so.*|libext2fs.so.*|libe2p.so.*|libcom_err.so.*) ;;
		libblkid.so.*) ;;	# mkfs: what a device already holds
		libss.so.*) ;;		# debugfs: its command line
		*) fail "${bin##*/} needs $n" ;;
		esac
	done
done

# make check: the tests of what is left out are out, and it says which.
tests=$(make -s --no-print-directory print-tests)
for t in $tests; do
	case $t in
	tests/fuse_*|*/k_fuse_diff@*|*/k_mkfs@*|*/k_tune@*|\
	tests/m_casefold_archive|tests/m_casefold_populate)
		fail "make check would run $t, which needs a part left out" ;;
	esac
done
notice=$(make -s --no-print-directory fuse-left-out archive-left-out)
for t in tests/fuse_smoke tests/m_casefold_archive tests/kernel/k_mkfs@sid \
	tests/kernel/k_fuse_diff@sid; do
	case $notice in
	*"$t"*) ;;
	*) fail "make check does not say that it leaves out $t: $notice" ;;
	esac
done

# make install: nothing of e2fold-fuse.
make install DESTDIR="$tmp/root" >install.log 2>&1 || {
	tail -20 install.log; fail "make install"; }
left=$(find "$tmp/root" -name '*e2fold-fuse*')
[ -z "$left" ] && [ -d "$tmp/root" ] || fail "make install installed $left"

# e2fold-mkfs: an archive is refused by name, a directory populates.
mkdir -p "$tmp/tree/Dir" && echo data >"$tmp/tree/Dir/file"
(cd "$tmp" && tar -cf tree.tar tree) || exit 99
misc/e2fold-mkfs -q -O casefold -d "$tmp/tree.tar" "$tmp/a.img" 8M \
	>"$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] || fail "e2fold-mkfs -d tree.tar succeeded without libarchive"
grep -q "$tmp/tree.tar: archives are not supported in this build" "$tmp/out" ||
	fail "e2fold-mkfs -d tree.tar says: $(cat "$tmp/out")"
[ -e "$tmp/a.img" ] && fail "e2fold-mkfs -d tree.tar created the image"
if misc/e2fold-mkfs -q -O casefold -E casefold_dirs=all -d "$tmp/tree" \
	"$tmp/b.img" 8M >"$tmp/out" 2>&1; then
	e2fsck -fn "$tmp/b.img" >"$tmp/fsck" 2>&1 ||
		{ cat "$tmp/fsck"; fail "e2fsck -fn on the image from a directory"; }
	debugfs -R 'cat /Dir/file' "$tmp/b.img" 2>/dev/null | grep -qx data ||
		fail "the image from a directory lacks Dir/file"
else
	cat "$tmp/out"
	fail "e2fold-mkfs -d DIR without libarchive"
fi
[ $status -eq 0 ] && echo "PASS: --disable-fuse --without-libarchive builds" \
	"libe2fold and the offline tools without libfuse3, libarchive and" \
	"nettle; their tests are left out, and said so; mkfs refuses archives by name"
exit $status
