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
	e2fsck/overlay.h \
	e2fsck/overlay.c \
	e2fsck/overlay_store.h \
	e2fsck/overlay_journal.c \
	e2fsck/overlay_inplace.c \
	e2fsck/scan.c \
	e2fsck/super.c \
	e2fsck/pass1.c \
	e2fsck/pass2.c \
	e2fsck/leafcheck.c \
	e2fsck/rehash.c \
	e2fsck/relink.c
e2fsck_e2fold_fsck_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS) \
	-DE2FOLD_OVERLAY_INSTALLED='"$(pkglibdir)/e2fsck-overlay.so"' \
	-DE2FOLD_STATE_INSTALLED='"$(localstatedir)/lib/e2fold"'
e2fsck_e2fold_fsck_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
e2fsck_e2fold_fsck_LDADD = $(E2FOLD_TOOL_LIBS)

# The library e2fold-fsck preloads into every system e2fsck it runs: its
# repairs go to an overlay first (e2fsck/overlay.h), and it compares
# encrypted names as the kernel does (names_preload.c). Loaded into a
# program built without sanitizers: never built with them.
pkglib_LTLIBRARIES = e2fsck/e2fsck-overlay.la
e2fsck_e2fsck_overlay_la_SOURCES = e2fsck/overlay_preload.c \
	e2fsck/names_preload.c
e2fsck_e2fsck_overlay_la_CFLAGS = $(WARN_CFLAGS)
e2fsck_e2fsck_overlay_la_LDFLAGS = -module -avoid-version -shared
e2fsck_e2fsck_overlay_la_LIBADD = -ldl -lpthread
