# Tests of e2fold-fuse that mount an image (root and /dev/fuse needed;
# without them they fail, never skip). Each directory has a `name` and
# a `script`.
FUSE_TESTS = \
	tests/fuse_smoke \
	tests/fuse_ops \
	tests/fuse_mkdir_fail \
	tests/fuse_nodes \
	tests/fuse_refuse \
	tests/fuse_dirlinks \
	tests/fuse_hostile \
	tests/fuse_errors \
	tests/fuse_fakeroot \
	tests/fuse_acl \
	tests/fuse_times \
	tests/fuse_orphans \
	tests/fuse_handles \
	tests/fuse_fallocate \
	tests/fuse_encrypted \
	tests/fuse_kernels \
	tests/fuse_oplists.sh \
	tests/fuse_tools.sh \
	tests/fuse_mount_helper \
	tests/fuse_cache \
	tests/fuse_index_cache \
	tests/fuse_concurrent \
	tests/fuse_threads \
	tests/fuse_writeback \
	tests/fuse_journal_fsync \
	tests/fuse_journal_kill
if FUSE
if FUSE_TESTS
TESTS += $(FUSE_TESTS)
else
# configure --disable-fuse-tests: said before the tests run.
check_DATA += fuse-tests-left-out
endif
else
# configure --disable-fuse: no e2fold-fuse, so none of its tests.
check_DATA += fuse-left-out
endif
fuse-tests-left-out:
	@echo "make check: configure --disable-fuse-tests: the" \
	  "`echo $(FUSE_TESTS) | wc -w` e2fold-fuse mount tests (root," \
	  "/dev/fuse) are left out: $(FUSE_TESTS)"
fuse-left-out:
	@echo "make check: configure --disable-fuse: no e2fold-fuse, so its" \
	  "tests are left out: $(FUSE_TESTS) $(KERNEL_FUSE_TESTS) fuzz/fuse.fuzz; and" \
	  "tests/u_tools_version_help.sh does not run it"
.PHONY: fuse-tests-left-out fuse-left-out
EXTRA_DIST += $(FUSE_TESTS) tests/fuse-lib.sh

# Operation lists, mounted as above.
# fsops runs a list of file operations and prints each one's result, so
# that a mount's answers can be compared with expected ones or with the
# kernel's (tests/kernel/k_fuse_diff.sh builds it statically for the VM);
# genops.pl makes such lists from a seed.
check_PROGRAMS += tests/fuse/fsops
tests_fuse_fsops_SOURCES = tests/fuse/fsops.c
tests_fuse_fsops_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)

# handles: name_to_handle_at and open_by_handle_at, for fuse_handles.
check_PROGRAMS += tests/fuse/handles
tests_fuse_handles_SOURCES = tests/fuse/handles.c
tests_fuse_handles_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)

# fuse_oplists: fixed operations with known answers on a default and a
# strict filesystem, then a generated few thousand, judged by both fscks
# and by e2fold-debugfs lookups of every name in all its spellings.
# fuse_tools: the same judges after ls, stat, cat, cp -a, mv, rm, mkdir,
# ln and touch on filesystems populated by e2fold-mkfs -d.
EXTRA_DIST += tests/fuse/lib.sh \
	tests/fuse/fixed.sh \
	tests/fuse/genops.pl
