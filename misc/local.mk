# User-facing tools besides fsck and debugfs.
bin_PROGRAMS += misc/e2fold-utf8
misc_e2fold_utf8_SOURCES = misc/e2fold-utf8.c \
	misc/utf8_scan.h misc/utf8_scan.c
misc_e2fold_utf8_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)
misc_e2fold_utf8_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
misc_e2fold_utf8_LDADD = $(E2FOLD_TOOL_LIBS)

# e2fold-mkfs: one file per step (see misc/mkfs/run.c for the order).
sbin_PROGRAMS += misc/e2fold-mkfs
misc_e2fold_mkfs_SOURCES = \
	misc/mkfs/mkfs.h \
	misc/mkfs/e2fold-mkfs.c misc/mkfs/run.c \
	misc/mkfs/options.h misc/mkfs/options.c \
	misc/mkfs/uuid.h misc/mkfs/uuid.c \
	misc/mkfs/profile.h misc/mkfs/profile.c \
	misc/mkfs/target.h misc/mkfs/target.c \
	misc/mkfs/plan.h misc/mkfs/plan.c \
	misc/mkfs/dryrun_io.h misc/mkfs/dryrun_io.c \
	misc/mkfs/create.h misc/mkfs/create.c \
	misc/mkfs/layout.h misc/mkfs/layout.c \
	misc/mkfs/tree.h misc/mkfs/tree.c \
	misc/mkfs/source.h misc/mkfs/source.c \
	misc/mkfs/source_dir.c \
	misc/mkfs/fileio.h misc/mkfs/fileio.c \
	misc/mkfs/casefold.h misc/mkfs/casefold.c \
	misc/mkfs/precheck.h misc/mkfs/precheck.c \
	misc/mkfs/inode.h misc/mkfs/inode.c \
	misc/mkfs/populate.h misc/mkfs/populate.c \
	misc/mkfs/source_report.h misc/mkfs/source_report.c \
	misc/mkfs/summary.h misc/mkfs/summary.c
# Archive sources (libarchive), unless configure --without-libarchive:
# then -d refuses a file, saying why (source_noarchive.c).
if LIBARCHIVE
misc_e2fold_mkfs_SOURCES += misc/mkfs/source_archive.c \
	misc/mkfs/paxnames.h misc/mkfs/paxnames.c
else
misc_e2fold_mkfs_SOURCES += misc/mkfs/source_noarchive.c
endif
misc_e2fold_mkfs_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS) -I$(top_srcdir)/misc/mkfs
misc_e2fold_mkfs_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS) $(ARCHIVE_CFLAGS)
misc_e2fold_mkfs_LDADD = $(E2FOLD_TOOL_LIBS) $(ARCHIVE_LIBS)

# e2fold-tune: casefold for filesystems that hold data (see misc/tune/tune.h).
sbin_PROGRAMS += misc/e2fold-tune
misc_e2fold_tune_SOURCES = \
	misc/tune/tune.h \
	misc/tune/e2fold-tune.c \
	misc/tune/options.c \
	misc/tune/tune_dirs.c \
	misc/tune/feature.c \
	misc/tune/convert.c \
	misc/tune/flags.c \
	misc/tune/space.c \
	misc/tune/tune_report.c
misc_e2fold_tune_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS) -I$(top_srcdir)/misc/tune
misc_e2fold_tune_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
misc_e2fold_tune_LDADD = $(E2FOLD_TOOL_LIBS)

# e2fold-fsck-boot: fsck.ext4 diverted to e2fold-fsck, opt-in, and back
# (e2fold-fsck-boot(8)).
dist_sbin_SCRIPTS = misc/e2fold-fsck-boot
