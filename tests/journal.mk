# Journaled writes (lib/support/journal.c, txnio.c; doc/journal.md):
# tests/jtxn makes one transaction; the system e2fsck, debugfs and the
# kernel are the judges of what it leaves.
check_PROGRAMS += tests/jtxn
tests_jtxn_SOURCES = tests/jtxn.c
tests_jtxn_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)
tests_jtxn_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
tests_jtxn_LDADD = $(E2FOLD_TOOL_LIBS)

JOURNAL_TESTS = tests/u_journal_replay.sh tests/u_journal_kill.sh \
	tests/u_journal_debugfs.sh tests/u_journal_tune.sh
TESTS += $(JOURNAL_TESTS)
EXTRA_DIST += $(JOURNAL_TESTS) tests/journal-lib.sh
