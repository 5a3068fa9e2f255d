# libe2fold: the Unicode engine alone, the part the design puts inside
# libext2fs. It needs nothing but libc.
#
# The engine is compiled once into a convenience library with hidden
# visibility. The installed libe2fold wraps it and exports only what
# <e2fold/unicode.h> marks E2FOLD_API; the tools and tests link the
# convenience library, so that they run from the build tree without
# libtool wrappers. Of the engine's headers, lib/support may include
# unicode_internal.h (its interface to the engine), everything else
# unicode.h alone: lib/ext2fs/public/ is on their include path, not
# lib/ext2fs (Makefile.am).
noinst_LTLIBRARIES += lib/ext2fs/libe2fold_engine.la
lib_ext2fs_libe2fold_engine_la_SOURCES = \
	lib/ext2fs/unicode.h \
	lib/ext2fs/unicode_internal.h \
	lib/ext2fs/public/unicode.h \
	lib/ext2fs/utf8table.h \
	lib/ext2fs/utf8data.h \
	lib/ext2fs/utf8data.c \
	lib/ext2fs/utf8lookup.h \
	lib/ext2fs/utf8version.c \
	lib/ext2fs/utf8cursor.c \
	lib/ext2fs/utf8fold.h \
	lib/ext2fs/utf8swar.h \
	lib/ext2fs/utf8fold.c \
	lib/ext2fs/nls_utf8.c
lib_ext2fs_libe2fold_engine_la_CPPFLAGS = $(E2FOLD_ENGINE_CPPFLAGS)
lib_ext2fs_libe2fold_engine_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden

lib_LTLIBRARIES += lib/ext2fs/libe2fold.la
lib_ext2fs_libe2fold_la_SOURCES =
nodist_EXTRA_lib_ext2fs_libe2fold_la_SOURCES = force-c-linker.c
lib_ext2fs_libe2fold_la_LIBADD = lib/ext2fs/libe2fold_engine.la
lib_ext2fs_libe2fold_la_LDFLAGS = -version-info 0:0:0 -no-undefined

e2foldincludedir = $(includedir)/e2fold
e2foldinclude_HEADERS = lib/ext2fs/unicode.h
pkgconfig_DATA = lib/ext2fs/e2fold.pc
