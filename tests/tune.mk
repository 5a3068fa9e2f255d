# Tests of e2fold-tune. Each t_casefold_* directory has a `name` and a
# `script` that builds its images at test time (the system mke2fs, the
# shared tests/cfcraft), runs e2fold-tune and judges every change with
# the system e2fsck -fn, e2fold-fsck -fn and the set of reachable inodes
# (tests/t_casefold_lib.sh), and compares the filtered output with its
# expect.N files.
T_TESTS = \
	tests/t_casefold_enable \
	tests/t_casefold_convert \
	tests/t_casefold_htree \
	tests/t_casefold_dryrun \
	tests/t_casefold_strict \
	tests/t_casefold_hashonly \
	tests/t_casefold_undo \
	tests/t_casefold_encrypted \
	tests/t_casefold_names \
	tests/t_casefold_root \
	tests/t_casefold_refuse \
	tests/t_casefold_mounted \
	tests/t_casefold_report \
	tests/t_casefold_full \
	tests/t_casefold_options \
	tests/t_robust_kill
TESTS += $(T_TESTS)
EXTRA_DIST += $(T_TESTS) tests/t_casefold_lib.sh
