# e2fold-fsck: casefold checks and repairs.
sbin_PROGRAMS += e2fsck/e2fold-fsck
e2fsck_e2fold_fsck_SOURCES = e2fsck/unix.c
e2fsck_e2fold_fsck_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
e2fsck_e2fold_fsck_LDADD = $(E2FOLD_TOOL_LIBS)
