# libe2fold: the Unicode engine and the ext4 glue.
#
# Everything is compiled once into a convenience library with hidden
# visibility; the installed libe2fold wraps it and exports only what the
# public header marks E2FOLD_API. The tools link the convenience library,
# so that they run from the build tree without libtool wrappers.
noinst_LTLIBRARIES += lib/ext2fs/libe2fold_core.la
lib_ext2fs_libe2fold_core_la_SOURCES = \
	lib/ext2fs/unicode.h \
	lib/ext2fs/utf8table.h \
	lib/ext2fs/utf8data.h \
	lib/ext2fs/utf8data.c \
	lib/ext2fs/utf8lookup.h \
	lib/ext2fs/utf8version.c \
	lib/ext2fs/utf8cursor.c \
	lib/ext2fs/utf8fold.h \
	lib/ext2fs/utf8swar.h \
	lib/ext2fs/utf8fold.c \
	lib/ext2fs/nls_utf8.c \
	lib/ext2fs/encoding.h \
	lib/ext2fs/encoding.c \
	lib/ext2fs/cfname.h \
	lib/ext2fs/cfname.c \
	lib/ext2fs/nameset.h \
	lib/ext2fs/nameset.c \
	lib/ext2fs/rename.h \
	lib/ext2fs/rename.c \
	lib/ext2fs/dirread.h \
	lib/ext2fs/dirread.c \
	lib/ext2fs/dirwrite.h \
	lib/ext2fs/dirwrite.c \
	lib/ext2fs/dxgeometry.h \
	lib/ext2fs/lookup.h \
	lib/ext2fs/lookup.c \
	lib/ext2fs/json.h \
	lib/ext2fs/json.c \
	lib/ext2fs/dedup.h \
	lib/ext2fs/dedup.c \
	lib/ext2fs/faultio.h \
	lib/ext2fs/faultio.c \
	lib/ext2fs/syncio.h \
	lib/ext2fs/syncio.c \
	lib/ext2fs/icache.h \
	lib/ext2fs/icache.c \
	lib/ext2fs/version.h \
	lib/ext2fs/version.c
lib_ext2fs_libe2fold_core_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden \
	$(E2FOLD_TOOL_CFLAGS)

lib_LTLIBRARIES += lib/ext2fs/libe2fold.la
lib_ext2fs_libe2fold_la_SOURCES =
nodist_EXTRA_lib_ext2fs_libe2fold_la_SOURCES = force-c-linker.c
lib_ext2fs_libe2fold_la_LIBADD = lib/ext2fs/libe2fold_core.la \
	$(EXT2FS_LIBS) $(COM_ERR_LIBS)
lib_ext2fs_libe2fold_la_LDFLAGS = -version-info 0:0:0 -no-undefined

e2foldincludedir = $(includedir)/e2fold
e2foldinclude_HEADERS = lib/ext2fs/unicode.h
pkgconfig_DATA = lib/ext2fs/e2fold.pc
