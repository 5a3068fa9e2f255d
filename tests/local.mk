# Tests: `make check` runs everything in TESTS through tests/run-test.
# Each directory's tests are listed in its own fragment below.
LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/run-test
AM_TESTS_ENVIRONMENT = \
	srcdir='$(srcdir)'; top_srcdir='$(top_srcdir)'; \
	top_builddir='$(top_builddir)'; CC='$(CC)'; \
	SANITIZER_FLAGS='$(SANITIZER_FLAGS)'; UCD_DIR='$(UCD_DIR)'; \
	E2FOLD_LEFT_OUT='$(E2FOLD_LEFT_OUT)'; \
	export srcdir top_srcdir top_builddir CC SANITIZER_FLAGS UCD_DIR \
		E2FOLD_LEFT_OUT;

EXTRA_DIST += tests/run-test tests/image-test.sh tests/test-lib.sh tests/filter.sed tests/mke2fs.conf \
	tests/unit.h tests/oracle

# Test outputs: each test writes into BUILDDIR/tests/NAME/ (the kernel
# tests into BUILDDIR/tests/kernel/), the fuzzers into fuzz/work and
# fuzz/*.check.log*. In a VPATH build those directories hold nothing
# else; in an in-tree build they are the tests' own sources, and stay.
clean-local: tests-clean
tests-clean:
	-if test "$(abs_builddir)" != "$(abs_srcdir)"; then \
		for d in tests/*/; do rm -rf "$$d"; done; \
	fi
	-rm -rf fuzz/work fuzz/artifacts fuzz/*.check.log fuzz/*.check.log.regress
.PHONY: tests-clean

# Every doc/ page and section the sources cite exists (doc/kernel-facts.md).
TESTS += tests/u_doc_facts.sh
EXTRA_DIST += tests/u_doc_facts.sh

include tests/engine.mk
include tests/kernel.mk
include tests/fsck.mk
include tests/debugfs.mk
include tests/mkfs.mk
include tests/fuzz.mk
include tests/tune.mk
include tests/scan.mk
include tests/fuse.mk
include tests/journal.mk

# configure --disable-fuse --without-libarchive builds libe2fold and the
# offline tools with none of libfuse3, libarchive and nettle in sight, and
# leaves out, saying so, the tests that need them (a second build tree:
# about a minute).
TESTS += tests/u_minimal_build.sh
EXTRA_DIST += tests/u_minimal_build.sh

# The rename planner every tool uses (lib/support/renameplan.h): the
# whole plan at once as mkfs and tune take it, and step by step with
# refused renames as fsck takes it.
check_PROGRAMS += tests/u_renameplan
tests_u_renameplan_SOURCES = tests/u_renameplan.c tests/unit.h
tests_u_renameplan_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS) -I$(top_srcdir)/tests
tests_u_renameplan_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
tests_u_renameplan_LDADD = $(E2FOLD_TOOL_LIBS)
TESTS += tests/u_renameplan

# The block cache e2fold-fuse reads through (lib/support/cacheio.h):
# every read answers what the device below holds, through a random mix
# of reads, writes, failed writes, discards and block size changes.
check_PROGRAMS += tests/u_cacheio
tests_u_cacheio_SOURCES = tests/u_cacheio.c tests/unit.h
tests_u_cacheio_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS) -I$(top_srcdir)/tests
tests_u_cacheio_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
tests_u_cacheio_LDADD = $(E2FOLD_TOOL_LIBS)
TESTS += tests/u_cacheio

# Every tool answers -V, --version and --help (exit 0, on stdout).
TESTS += tests/u_tools_version_help.sh
EXTRA_DIST += tests/u_tools_version_help.sh
# -C / --progress of scan, mkfs and tune: e2fsck's protocol and bar.
TESTS += tests/u_progress.sh
EXTRA_DIST += tests/u_progress.sh

# No two names of the source tree are one name to casefolded ext4.
TESTS += tests/u_source_names.sh
EXTRA_DIST += tests/u_source_names.sh

# The manual pages hold no stray control character, render cleanly.
TESTS += tests/u_manpages.sh
EXTRA_DIST += tests/u_manpages.sh

# The bash completion offers what each tool's option parser accepts.
TESTS += tests/u_completion.sh
EXTRA_DIST += tests/u_completion.sh

# make check-long: the kill tests at every point where they can stop a
# writer. tests/fuse_journal_kill tries a sample of its points in `make
# check` and, with E2FOLD_LONG=1, a kill at every write and a power cut
# between every two flushes (about 45 minutes on 2 CPUs, in parallel
# workers); the others try every point of theirs in every run and come
# along, so that one target runs them all.
LONG_TESTS = \
	tests/u_journal_kill.sh \
	tests/u_journal_debugfs.sh \
	tests/u_journal_tune.sh \
	tests/f_robust_kill \
	tests/f_robust_kill_encrypted \
	tests/f_robust_kill_htree4k \
	tests/f_robust_kill_inline \
	tests/f_robust_kill_linear \
	tests/f_robust_kill_strict \
	tests/f_robust_kill_twin \
	tests/t_robust_kill \
	tests/d_robust_kill_index
if FUSE
if FUSE_TESTS
LONG_TESTS += tests/fuse_journal_kill
endif
endif
check-long:
	E2FOLD_LONG=1 $(MAKE) $(AM_MAKEFLAGS) check TESTS="$(LONG_TESTS)"
.PHONY: check-long
