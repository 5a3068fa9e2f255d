# e2fold-fsck tests.

# The image crafting tool every mkimage.sh uses.
check_PROGRAMS += tests/cfcraft
tests_cfcraft_SOURCES = tests/cfcraft.c
tests_cfcraft_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)
tests_cfcraft_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS)
tests_cfcraft_LDADD = $(E2FOLD_TOOL_LIBS)

# Image tests, e2fsprogs style (tests/run-test runs each directory).
F_TESTS = \
	tests/f_casefold_bad_bucket \
	tests/f_casefold_misplaced_hashonly \
	tests/f_casefold_check_encoding \
	tests/f_casefold_clean \
	tests/f_casefold_clock_skew \
	tests/f_casefold_corrupt_block \
	tests/f_casefold_csum_tail \
	tests/f_casefold_dot_names \
	tests/f_casefold_dup_blocks \
	tests/f_casefold_dup_htree \
	tests/f_casefold_dup_identical \
	tests/f_casefold_dup_same_inode \
	tests/f_casefold_dup_linear \
	tests/f_casefold_encoding_nofeature \
	tests/f_casefold_encoding_unexplained \
	tests/f_casefold_encoding_unknown \
	tests/f_casefold_encoding_unknown_kept \
	tests/f_casefold_encrypted_bucket \
	tests/f_casefold_encrypted_damaged \
	tests/f_casefold_encrypted_dup \
	tests/f_casefold_encrypted_e2fsck_repairs \
	tests/f_casefold_encrypted_hash_version \
	tests/f_casefold_encrypted_htree2 \
	tests/f_casefold_encrypted_no_hash \
	tests/f_casefold_encrypted_node_limit \
	tests/f_casefold_encrypted_plain_dup \
	tests/f_casefold_encrypted_twin \
	tests/f_casefold_encrypted_twin_nul \
	tests/f_casefold_fault_drop \
	tests/f_casefold_fault_read \
	tests/f_casefold_fault_write \
	tests/f_casefold_feature_missing \
	tests/f_casefold_feature_missing_kept \
	tests/f_casefold_flag_nofeature \
	tests/f_casefold_flag_nondir \
	tests/f_casefold_flags_unknown \
	tests/f_casefold_htree_damaged \
	tests/f_casefold_htree_not_leaf \
	tests/f_casefold_ignorable \
	tests/f_casefold_inline \
	tests/f_casefold_inline_leftover \
	tests/f_casefold_long_names \
	tests/f_casefold_mixed_counts \
	tests/f_casefold_mixed_dotdot \
	tests/f_casefold_mixed_flags \
	tests/f_casefold_mixed_orphan \
	tests/f_casefold_nested \
	tests/f_casefold_no_casefolded_dirs \
	tests/f_casefold_preen \
	tests/f_casefold_readonly \
	tests/f_casefold_rename_impossible \
	tests/f_casefold_strict_invalid \
	tests/f_casefold_undo
TESTS += $(F_TESTS)

# e2fsck's habits that e2fold-fsck keeps (issue #16).
HABIT_TESTS = \
	tests/f_habit_backup_sb \
	tests/f_habit_boot \
	tests/f_habit_e2fsck_options \
	tests/f_habit_preen_verbose \
	tests/f_habit_progress \
	tests/f_habit_recheck \
	tests/f_habit_prompt_echo \
	tests/f_habit_report_open \
	tests/f_habit_sigint
TESTS += $(HABIT_TESTS)
EXTRA_DIST += $(HABIT_TESTS)
EXTRA_DIST += $(F_TESTS) tests/mkimage-lib.sh tests/rebuild-image.sh

# The committed images are what their mkimage.sh scripts build.
TESTS += tests/u_mkimage_reproducible.sh
EXTRA_DIST += tests/u_mkimage_reproducible.sh

# The problem table's codes are sorted, unique and well formed.
check_PROGRAMS += tests/u_problem_table
tests_u_problem_table_SOURCES = tests/u_problem_table.c e2fsck/problem.c \
	e2fsck/fsck_report.c e2fsck/pass_helpers.c
tests_u_problem_table_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)
tests_u_problem_table_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS) \
	-I$(top_srcdir)/e2fsck -I$(top_srcdir)/tests
tests_u_problem_table_LDADD = $(E2FOLD_TOOL_LIBS)
TESTS += tests/u_problem_table

# Every problem code fires in some image test (read from their reports):
# it runs last, after every image test (the ".last" extension gives it a
# generic rule, so the dependency below adds to it instead of replacing it).
TEST_EXTENSIONS = .last
LAST_LOG_COMPILER = $(LOG_COMPILER)
TESTS += tests/u_problem_coverage.last
EXTRA_DIST += tests/u_problem_coverage.last
tests/u_problem_coverage.log: $(F_TESTS:=.log)
