# e2fold-fsck: casefold checks and repairs.
sbin_PROGRAMS += e2fsck/e2fold-fsck
e2fsck_e2fold_fsck_SOURCES = \
	e2fsck/e2fsck.h \
	e2fsck/e2fold-fsck.c \
	e2fsck/unix.c \
	e2fsck/pass_helpers.c \
	e2fsck/problem.h \
	e2fsck/problem.c \
	e2fsck/fsck_report.h \
	e2fsck/fsck_report.c \
	e2fsck/external.h \
	e2fsck/external.c \
	e2fsck/misread.h \
	e2fsck/misread.c \
	e2fsck/scan.c \
	e2fsck/super.c \
	e2fsck/pass1.c \
	e2fsck/pass2.c \
	e2fsck/leafcheck.c \
	e2fsck/rehash.c \
	e2fsck/relink.c
e2fsck_e2fold_fsck_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)
e2fsck_e2fold_fsck_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
e2fsck_e2fold_fsck_LDADD = $(E2FOLD_TOOL_LIBS)
