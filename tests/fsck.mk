# e2fold-fsck tests.

# The image crafting tool every mkimage.sh uses.
check_PROGRAMS += tests/cfcraft
tests_cfcraft_SOURCES = tests/cfcraft.c
tests_cfcraft_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
tests_cfcraft_LDADD = $(E2FOLD_TOOL_LIBS)

# Image tests, e2fsprogs style (tests/run-test runs each directory).
F_TESTS = \
	tests/f_casefold_bad_bucket \
	tests/f_casefold_check_encoding \
	tests/f_casefold_clean \
	tests/f_casefold_corrupt_block \
	tests/f_casefold_dup_blocks \
	tests/f_casefold_dup_htree \
	tests/f_casefold_dup_identical \
	tests/f_casefold_dup_linear \
	tests/f_casefold_encoding_nofeature \
	tests/f_casefold_encoding_unexplained \
	tests/f_casefold_encoding_unknown \
	tests/f_casefold_feature_missing \
	tests/f_casefold_flag_nofeature \
	tests/f_casefold_flag_nondir \
	tests/f_casefold_flags_unknown \
	tests/f_casefold_htree_damaged \
	tests/f_casefold_ignorable \
	tests/f_casefold_long_names \
	tests/f_casefold_nested \
	tests/f_casefold_preen \
	tests/f_casefold_readonly \
	tests/f_casefold_strict_invalid \
	tests/f_casefold_undo
TESTS += $(F_TESTS)
EXTRA_DIST += $(F_TESTS) tests/mkimage-lib.sh tests/rebuild-image.sh

# The committed images are what their mkimage.sh scripts build.
TESTS += tests/u_mkimage_reproducible.sh
EXTRA_DIST += tests/u_mkimage_reproducible.sh
