# Tests of e2fold-debugfs. Each d_casefold_* directory has a `name` and a
# `script` that builds its images at test time (the system mke2fs, the
# shared tests/cfcraft, e2fold-debugfs itself), runs commands from files
# beside it and compares the filtered output with its expect.N files.
D_TESTS = \
	tests/d_casefold_cli \
	tests/d_casefold_super \
	tests/d_casefold_ls \
	tests/d_casefold_paths \
	tests/d_casefold_dx_hash \
	tests/d_casefold_htree \
	tests/d_casefold_lookup \
	tests/d_casefold_collisions \
	tests/d_casefold_encrypted \
	tests/d_casefold_edit \
	tests/d_casefold_links \
	tests/d_casefold_index_grow \
	tests/d_casefold_more_cmds \
	tests/d_habit_options \
	tests/d_habit_system_cmds \
	tests/d_habit_inode_spec \
	tests/d_robust_kill_index
TESTS += $(D_TESTS)
EXTRA_DIST += $(D_TESTS)

# The kernel judges e2fold-debugfs in a VM (QEMU, as tests/kernel.mk's
# tests): configure --disable-kernel-tests leaves it out with them.
D_KERNEL_TESTS = tests/d_casefold_kernel
if KERNEL_TESTS
TESTS += $(D_KERNEL_TESTS)
endif
EXTRA_DIST += $(D_KERNEL_TESTS)
