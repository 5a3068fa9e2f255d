# Tests of e2fold-fuse mounted for real (root, /dev/fuse, fusermount3).
# fsops runs a list of file operations and prints each one's result, so
# that a mount's answers can be compared with expected ones or with the
# kernel's (tests/kernel/k_fuse_diff.sh builds it statically for the VM);
# genops.pl makes such lists from a seed.
check_PROGRAMS += tests/fuse/fsops
tests_fuse_fsops_SOURCES = tests/fuse/fsops.c

# fuse_oplists: fixed operations with known answers on a default and a
# strict filesystem, then a generated few thousand, judged by both fscks
# and by e2fold-debugfs lookups of every name in all its spellings.
# fuse_tools: the same judges after ls, stat, cat, cp -a, mv, rm, mkdir,
# ln and touch on filesystems populated by e2fold-mkfs -d.
TESTS += tests/fuse_oplists.sh tests/fuse_tools.sh
EXTRA_DIST += tests/fuse_oplists.sh tests/fuse_tools.sh tests/fuse/lib.sh \
	tests/fuse/fixed.sh \
	tests/fuse/genops.pl
