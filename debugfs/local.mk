# e2fold-debugfs: inspect and edit encoded names.
sbin_PROGRAMS += debugfs/e2fold-debugfs
debugfs_e2fold_debugfs_SOURCES = debugfs/debugfs.c
debugfs_e2fold_debugfs_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
debugfs_e2fold_debugfs_LDADD = $(E2FOLD_TOOL_LIBS)
