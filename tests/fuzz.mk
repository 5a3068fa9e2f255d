# Robustness: the fuzzers' short runs, the slow reference
# against the engine, bad input at the edges, valgrind, fault injection
# and kills. doc/robustness.md, "Robustness", says how to run them longer.

# Leaks inside the system libext2fs are not e2fold's (fuzz/lsan.supp
# names them); a sanitizer build's tests must not fail on them.
AM_TESTS_ENVIRONMENT += \
	LSAN_OPTIONS="suppressions=$(abs_top_srcdir)/fuzz/lsan.supp:print_suppressions=0$${LSAN_OPTIONS:+:$$LSAN_OPTIONS}"; \
	export LSAN_OPTIONS;

# The reference NFDi/NFDiCF (written from the UCD rules) agrees with the
# engine on every code point under every version: the fuzzer relies on it.
check_PROGRAMS += fuzz/u_reference
fuzz_u_reference_SOURCES = fuzz/u_reference.c fuzz/reference.c \
	fuzz/reference.h
fuzz_u_reference_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)
fuzz_u_reference_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
fuzz_u_reference_LDADD = $(E2FOLD_TOOL_LIBS)
TESTS += fuzz/u_reference

# Each fuzzer for a short fixed budget on its committed corpus, after the
# crashes found so far (fuzz/regress/NAME/). Built with clang by
# fuzz/local.mk's fuzz-build; without clang they fail, loudly.
TEST_EXTENSIONS += .fuzz
FUZZ_LOG_COMPILER = $(SHELL) $(top_srcdir)/fuzz/run-fuzzer.sh
FUZZ_TESTS = fuzz/engine.fuzz fuzz/hash.fuzz fuzz/fsck.fuzz fuzz/mkfs.fuzz \
	fuzz/debugfs.fuzz
# e2fold-fuse's request handlers (fuzz/fuzz_fuse.c): not without e2fold-fuse
# (tests/fuse.mk says what --disable-fuse leaves out).
if FUSE
FUZZ_TESTS += fuzz/fuse.fuzz
endif
TESTS += $(FUZZ_TESTS)
EXTRA_DIST += $(FUZZ_TESTS) fuzz/fuse.fuzz fuzz/lsan.supp
$(FUZZ_TESTS:.fuzz=.log): fuzz-build

# The fsck fuzzer's seed images are what fuzz/seeds/mkseeds.sh builds.
TESTS += fuzz/u_seeds.sh
EXTRA_DIST += fuzz/u_seeds.sh

# Bad input at the edges, the fuzzers' findings as image tests, valgrind,
# fault injection and kills (tests/run-test runs each directory).
ROBUST_TESTS = \
	tests/f_robust_directory \
	tests/f_robust_empty \
	tests/f_robust_fault_writes \
	tests/f_robust_kill \
	tests/f_robust_kill_encrypted \
	tests/f_robust_kill_htree4k \
	tests/f_robust_kill_journal \
	tests/f_robust_resume \
	tests/f_robust_kill_inline \
	tests/f_robust_kill_linear \
	tests/f_robust_kill_strict \
	tests/f_robust_kill_twin \
	tests/f_robust_nonexistent \
	tests/f_robust_not_ext4 \
	tests/f_robust_read_faults \
	tests/f_robust_rename_overflow \
	tests/f_robust_super_absurd \
	tests/f_robust_truncated \
	tests/f_robust_utf8_cli \
	tests/f_robust_valgrind
TESTS += $(ROBUST_TESTS)
EXTRA_DIST += $(ROBUST_TESTS) tests/robust-lib.sh tests/killwrite.c \
	tests/kill-tree.sh

# The tests `make check` runs, one per line: scripts/check picks those
# the sanitizer build runs again.
print-tests:
	@for t in $(TESTS); do echo $$t; done
.PHONY: print-tests
