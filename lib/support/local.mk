# libsupport: what the tools share and nobody else sees. The ext4 side
# of casefolding (encodings and their flags, the casefold directory
# hash, names as the kernel compares them, reading and writing
# directories, lookups, renames of duplicates) and tool helpers (the
# option vocabulary of every tool, hex digits, hash algorithm names,
# growing arrays, opening a filesystem, JSON, the version banner, an
# inode cache, scratch directories, fault injection for the tests) and journaled writes (the
# jbd2 writer, the transaction layer). Internal and static: it is linked
# into each tool and never installed.
noinst_LTLIBRARIES += lib/support/libsupport.la
lib_support_libsupport_la_SOURCES = \
	lib/support/encoding.h \
	lib/support/encoding.c \
	lib/support/cfname.h \
	lib/support/cfname.c \
	lib/support/nameset.h \
	lib/support/nameset.c \
	lib/support/newname.h \
	lib/support/newname.c \
	lib/support/dirread.h \
	lib/support/dirread.c \
	lib/support/dirwrite.h \
	lib/support/dirwrite.c \
	lib/support/htree.h \
	lib/support/htree.c \
	lib/support/lookup.h \
	lib/support/lookup.c \
	lib/support/diredit.h \
	lib/support/diredit.c \
	lib/support/diradd.c \
	lib/support/dxinsert.c \
	lib/support/dirblock.h \
	lib/support/dirblock.c \
	lib/support/dirlinks.h \
	lib/support/dirlinks.c \
	lib/support/newinode.h \
	lib/support/newinode.c \
	lib/support/array.h \
	lib/support/array.c \
	lib/support/hashalg.h \
	lib/support/hashalg.c \
	lib/support/hex.h \
	lib/support/json.h \
	lib/support/le.h \
	lib/support/plural.h \
	lib/support/progress.h \
	lib/support/progress.c \
	lib/support/json.c \
	lib/support/renameplan.h \
	lib/support/renameplan.c \
	lib/support/iolayer.h \
	lib/support/iolayer.c \
	lib/support/cacheio.h \
	lib/support/cacheio.c \
	lib/support/faultio.h \
	lib/support/faultio.c \
	lib/support/syncio.h \
	lib/support/syncio.c \
	lib/support/journal.h \
	lib/support/journal.c \
	lib/support/txnio.h \
	lib/support/txnio.c \
	lib/support/openfs.h \
	lib/support/openfs.c \
	lib/support/imagelock.h \
	lib/support/imagelock.c \
	lib/support/tmpdir.h \
	lib/support/tmpdir.c \
	lib/support/icache.h \
	lib/support/icache.c \
	lib/support/version.h \
	lib/support/version.c \
	lib/support/extopts.h \
	lib/support/extopts.c
# lib/ext2fs for unicode_internal.h, the engine's interface to lib/support.
lib_support_libsupport_la_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS) \
	-I$(top_srcdir)/lib/ext2fs
lib_support_libsupport_la_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
