# Tests of the Unicode engine and its table.

# The committed table equals what the generator makes from the UCD.
TESTS += tests/u_utf8data_regen.sh
# libe2fold exports exactly unicode.h, needs libc alone, and serves a
# program built with pkg-config from a DESTDIR install.
TESTS += tests/u_exports.sh
# Nothing outside lib/ext2fs and lib/support includes the engine's
# internal headers, nor builds with lib/ext2fs on its include path
# (Makefile.am says who may); the tools' flags reach unicode.h alone.
# No test needs more: the engine's tests (tests/u_*.c, fuzz/, bench/)
# exercise it through unicode.h and lib/support, as the tools do.
TESTS += tests/u_engine_boundary.sh
EXTRA_DIST += tests/u_engine_boundary.sh
print-tool-cppflags:
	@echo '$(E2FOLD_TOOL_CPPFLAGS)'
.PHONY: print-tool-cppflags
# Differential test against the Linux kernel's own fs/unicode.
TESTS += tests/u_kernel_oracle.sh
EXTRA_DIST += tests/u_utf8data_regen.sh tests/u_exports.sh \
	tests/libe2fold_consumer.c \
	tests/u_kernel_oracle.sh

# Every function of unicode.h and encoding.h on answers known by hand.
check_PROGRAMS += tests/u_utf8_api
tests_u_utf8_api_SOURCES = tests/u_utf8_api.c tests/unit.h
tests_u_utf8_api_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)
tests_u_utf8_api_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS) -I$(top_srcdir)/tests
tests_u_utf8_api_LDADD = $(E2FOLD_TOOL_LIBS)
TESTS += tests/u_utf8_api

# e2fold_lookup_match's ASCII shortcut against the whole comparison.
check_PROGRAMS += tests/u_lookup_match
tests_u_lookup_match_SOURCES = tests/u_lookup_match.c tests/unit.h
tests_u_lookup_match_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)
tests_u_lookup_match_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS) -I$(top_srcdir)/tests
tests_u_lookup_match_LDADD = $(E2FOLD_TOOL_LIBS)
TESTS += tests/u_lookup_match

# Unicode data the tests read, pinned in tests/data (its README says from
# where), unpacked and verified into the build tree like util/ucd.
TEST_UCD_PINNED = tests/data/SHA256SUMS \
	tests/data/NormalizationTest-15.1.0.txt.xz \
	tests/data/NormalizationTest-16.0.0.txt.xz \
	tests/data/NormalizationTest-17.0.0.txt.xz
TEST_UCD15_PINNED = tests/data/ucd-15.0.0/VERSION \
	tests/data/ucd-15.0.0/SHA256SUMS \
	tests/data/ucd-15.0.0/DerivedAge.txt.xz \
	tests/data/ucd-15.0.0/UnicodeData.txt.xz \
	tests/data/ucd-15.0.0/CaseFolding.txt.xz \
	tests/data/ucd-15.0.0/DerivedCoreProperties.txt.xz \
	tests/data/ucd-15.0.0/NormalizationCorrections.txt.xz
EXTRA_DIST += tests/data/README $(TEST_UCD_PINNED) $(TEST_UCD15_PINNED)
tests/data/.unpacked: $(TEST_UCD_PINNED) util/ucd-unpack.sh
	$(AM_V_GEN)$(UCD_UNPACK) $(srcdir)/tests/data tests/data
tests/data/ucd-15.0.0/.unpacked: $(TEST_UCD15_PINNED) util/ucd-unpack.sh
	$(AM_V_GEN)$(UCD_UNPACK) $(srcdir)/tests/data/ucd-15.0.0 \
		tests/data/ucd-15.0.0
check_DATA += tests/data/.unpacked tests/data/ucd-15.0.0/.unpacked
CLEANFILES += tests/data/.unpacked tests/data/NormalizationTest-15.1.0.txt \
	tests/data/NormalizationTest-16.0.0.txt \
	tests/data/NormalizationTest-17.0.0.txt \
	tests/data/ucd-15.0.0/.unpacked tests/data/ucd-15.0.0/DerivedAge.txt \
	tests/data/ucd-15.0.0/UnicodeData.txt \
	tests/data/ucd-15.0.0/CaseFolding.txt \
	tests/data/ucd-15.0.0/DerivedCoreProperties.txt \
	tests/data/ucd-15.0.0/NormalizationCorrections.txt

# Unicode's NormalizationTest.txt of each version in tests/data, under
# that version and every older one.
check_PROGRAMS += tests/u_normalization_test
tests_u_normalization_test_SOURCES = tests/u_normalization_test.c tests/unit.h \
	tests/utf8put.h
tests_u_normalization_test_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)
tests_u_normalization_test_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS) -I$(top_srcdir)/tests
tests_u_normalization_test_LDADD = $(E2FOLD_TOOL_LIBS)
TESTS += tests/u_normalization_test.sh
EXTRA_DIST += tests/u_normalization_test.sh

# A newer UCD changes no answer of an older version (up to 15.0; the
# kernel oracle covers 12.1 and older): fuzz/u_reference (tests/fuzz.mk)
# on Unicode 15.0's own files.
TESTS += tests/u_ucd_history.sh
EXTRA_DIST += tests/u_ucd_history.sh

# The system libext2fs's casefold hash and comparison as a second oracle.
check_PROGRAMS += tests/u_libext2fs_oracle
tests_u_libext2fs_oracle_SOURCES = tests/u_libext2fs_oracle.c tests/unit.h \
	tests/utf8put.h
tests_u_libext2fs_oracle_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)
tests_u_libext2fs_oracle_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS) -I$(top_srcdir)/tests
tests_u_libext2fs_oracle_LDADD = $(E2FOLD_TOOL_LIBS)
TESTS += tests/u_libext2fs_oracle

# The e2fold-utf8 command line, output for output.
TESTS += tests/u_utf8_cli.sh
EXTRA_DIST += tests/u_utf8_cli.sh
