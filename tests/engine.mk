# Tests of the Unicode engine and its table.

# The committed table equals what the generator makes from the UCD.
TESTS += tests/u_utf8data_regen.sh
# Only the public API leaves the shared library.
TESTS += tests/u_exports.sh
# Differential test against the Linux kernel's own fs/unicode.
TESTS += tests/u_kernel_oracle.sh
EXTRA_DIST += tests/u_utf8data_regen.sh tests/u_exports.sh \
	tests/u_kernel_oracle.sh

# Every function of unicode.h and encoding.h on answers known by hand.
check_PROGRAMS += tests/u_utf8_api
tests_u_utf8_api_SOURCES = tests/u_utf8_api.c tests/unit.h
tests_u_utf8_api_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS) -I$(top_srcdir)/tests
tests_u_utf8_api_LDADD = $(E2FOLD_TOOL_LIBS)
TESTS += tests/u_utf8_api

# Unicode's NormalizationTest.txt under every supported version.
check_PROGRAMS += tests/u_normalization_test
tests_u_normalization_test_SOURCES = tests/u_normalization_test.c tests/unit.h
tests_u_normalization_test_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS) -I$(top_srcdir)/tests
tests_u_normalization_test_LDADD = $(E2FOLD_TOOL_LIBS)
TESTS += tests/u_normalization_test

# The system libext2fs's casefold hash and comparison as a second oracle.
check_PROGRAMS += tests/u_libext2fs_oracle
tests_u_libext2fs_oracle_SOURCES = tests/u_libext2fs_oracle.c tests/unit.h
tests_u_libext2fs_oracle_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS) -I$(top_srcdir)/tests
tests_u_libext2fs_oracle_LDADD = $(E2FOLD_TOOL_LIBS)
TESTS += tests/u_libext2fs_oracle

# The e2fold-utf8 command line, output for output.
TESTS += tests/u_utf8_cli.sh
EXTRA_DIST += tests/u_utf8_cli.sh
