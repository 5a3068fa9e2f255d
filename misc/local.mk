# User-facing tools besides fsck and debugfs.
bin_PROGRAMS += misc/e2fold-utf8
misc_e2fold_utf8_SOURCES = misc/e2fold-utf8.c
misc_e2fold_utf8_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
misc_e2fold_utf8_LDADD = $(E2FOLD_TOOL_LIBS)

sbin_PROGRAMS += misc/e2fold-mkfs
misc_e2fold_mkfs_SOURCES = misc/mkfs.c
misc_e2fold_mkfs_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
misc_e2fold_mkfs_LDADD = $(E2FOLD_TOOL_LIBS)
