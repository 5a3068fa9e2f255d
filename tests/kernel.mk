# Tests against the real Linux kernel in a VM (tests/kernel/).
# tests/kernel/vm.sh boots a Debian kernel under QEMU and runs a scenario
# script in it; each k_*.sh scenario drives one or more boots.
#
# Every scenario runs on three kernels, each as its own test named
# tests/kernel/SCENARIO@SUITE so that a failure names its kernel: the
# newest kernel of Debian 12 (bookworm, 6.1), Debian 13 (trixie, 6.12)
# and unstable (sid). Such a test is a two-line script made below.
KERNEL_SUITES = bookworm trixie sid
# Scenarios that need an optional part (configure.ac): k_mkfs and k_tune
# make their images from archives, k_fuse_diff mounts with e2fold-fuse,
# k_dirlinks does both. Left out with that part (tests/mkfs.mk and
# tests/fuse.mk say so).
KERNEL_MKFS_TESTS = tests/kernel/k_mkfs@sid tests/kernel/k_mkfs@trixie \
	tests/kernel/k_mkfs@bookworm
KERNEL_TUNE_TESTS = tests/kernel/k_tune@sid tests/kernel/k_tune@trixie \
	tests/kernel/k_tune@bookworm
KERNEL_DIRLINKS_TESTS = tests/kernel/k_dirlinks@sid \
	tests/kernel/k_dirlinks@trixie tests/kernel/k_dirlinks@bookworm
KERNEL_ARCHIVE_TESTS = $(KERNEL_MKFS_TESTS) $(KERNEL_TUNE_TESTS) \
	$(KERNEL_DIRLINKS_TESTS)
KERNEL_FUSE_TESTS = tests/kernel/k_fuse_diff@sid \
	tests/kernel/k_fuse_diff@trixie tests/kernel/k_fuse_diff@bookworm \
	tests/kernel/k_fuse_crash@sid tests/kernel/k_fuse_crash@trixie \
	tests/kernel/k_fuse_crash@bookworm \
	$(KERNEL_DIRLINKS_TESTS)
if LIBARCHIVE
kernel_mkfs_tests = $(KERNEL_MKFS_TESTS)
kernel_tune_tests = $(KERNEL_TUNE_TESTS)
else
kernel_mkfs_tests =
kernel_tune_tests =
endif
if FUSE
kernel_fuse_tests = tests/kernel/k_fuse_diff@sid \
	tests/kernel/k_fuse_diff@trixie tests/kernel/k_fuse_diff@bookworm \
	tests/kernel/k_fuse_crash@sid tests/kernel/k_fuse_crash@trixie \
	tests/kernel/k_fuse_crash@bookworm
if LIBARCHIVE
kernel_fuse_tests += $(KERNEL_DIRLINKS_TESTS)
endif
else
kernel_fuse_tests =
endif
# The slowest first, so that make -j does not end on one long test.
KERNEL_TESTS = \
	tests/kernel/k_kernel_writes@sid tests/kernel/k_kernel_writes@trixie \
	tests/kernel/k_kernel_writes@bookworm \
	tests/kernel/k_encrypted@sid tests/kernel/k_encrypted@trixie \
	tests/kernel/k_encrypted@bookworm \
	$(kernel_mkfs_tests) \
	tests/kernel/k_strict@sid tests/kernel/k_strict@trixie \
	tests/kernel/k_strict@bookworm \
	tests/kernel/k_fallback@sid tests/kernel/k_fallback@trixie \
	tests/kernel/k_fallback@bookworm \
	$(kernel_tune_tests) \
	tests/kernel/k_fsck_repair@sid tests/kernel/k_fsck_repair@trixie \
	tests/kernel/k_fsck_repair@bookworm \
	$(kernel_fuse_tests) \
	tests/kernel/k_journal@sid tests/kernel/k_journal@trixie \
	tests/kernel/k_journal@bookworm \
	tests/kernel/k_smoke@sid tests/kernel/k_smoke@trixie \
	tests/kernel/k_smoke@bookworm
if KERNEL_TESTS
TESTS += $(KERNEL_TESTS)
else
# configure --disable-kernel-tests: said before the tests, so that a log
# never reads as if the kernels had been tried.
check_DATA += kernel-tests-left-out
endif
kernel-tests-left-out:
	@echo "make check: configure --disable-kernel-tests: the" \
	  "`echo $(KERNEL_TESTS) $(D_KERNEL_TESTS) | wc -w` kernel VM tests" \
	  "(QEMU) are left out: tests/kernel/ and $(D_KERNEL_TESTS)"
.PHONY: kernel-tests-left-out
CLEANFILES += $(KERNEL_TESTS)
$(KERNEL_TESTS): Makefile
	$(AM_V_GEN)$(MKDIR_P) tests/kernel && t='$@' && { \
	echo '#!/bin/sh'; \
	echo "E2FOLD_KERNEL_SUITE=$${t##*@}; export E2FOLD_KERNEL_SUITE"; \
	echo "exec sh \"\$$top_srcdir/$${t%@*}.sh\""; } > $@ && chmod +x $@

# make check-kernel [E2FOLD_KERNELS='trixie sid']: every scenario, on the
# kernels of the suites named (default: all).
check-kernel:
	@suites="$${E2FOLD_KERNELS:-$(KERNEL_SUITES)}"; tests=; \
	for s in $$suites; do \
		case " $(KERNEL_SUITES) " in *" $$s "*) ;; \
		*) echo "E2FOLD_KERNELS: no kernel tests for $$s (only $(KERNEL_SUITES))" >&2; \
		   exit 2 ;; esac; \
	done; \
	for t in $(KERNEL_TESTS); do \
		for s in $$suites; do \
			case $$t in *@$$s) tests="$$tests $$t" ;; esac; \
		done; \
	done; \
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$$tests"
.PHONY: check-kernel

EXTRA_DIST += tests/kernel/vm.sh tests/kernel/init tests/kernel/kcf.c \
	tests/kernel/lib.sh tests/kernel/names.txt tests/kernel/spellings.pl

# Casefold lookups on a default and a strict filesystem, then e2fsck.
EXTRA_DIST += tests/kernel/k_smoke.sh

# Damaged images repaired by e2fold-fsck: the kernel finds every entry.
EXTRA_DIST += tests/kernel/k_fsck_repair.sh

# Images made by e2fold-mkfs: the kernel lists and finds every name.
EXTRA_DIST += tests/kernel/k_mkfs.sh

# The kernel creates thousands of names: e2fold predicts every create,
# and agrees with every hash and leaf the kernel wrote.
EXTRA_DIST += tests/kernel/k_kernel_writes.sh

# Strict mode: the kernel refuses exactly the names e2fold calls invalid.
EXTRA_DIST += tests/kernel/k_strict.sh

# Directories converted by e2fold-tune: the kernel finds every name.
EXTRA_DIST += tests/kernel/k_tune.sh

# Misplaced entries: found through the compat fallback on 6.12 and newer,
# missed on 6.1 and with no_compat_fallback; e2fold-tune refuses the flag
# until e2fold-fsck or --rebuild has placed them, then every kernel finds
# every name.
EXTRA_DIST += tests/kernel/k_fallback.sh

# Encrypted casefolded directories the kernel filled (one- and two-level
# htrees, 1 and 4 KiB): clean; repaired without the key (twin ciphertext
# entries included), the kernel finds, lists once, creates and does not
# warn.
EXTRA_DIST += tests/kernel/k_encrypted.sh

# e2fold-fuse on the host and the kernel in the VM, given the same
# operations (tests/fuse/fixed.sh, tests/fuse/genops.pl) on copies of one
# filesystem: the same answers, the same names left, each in the same
# leaf of every indexed casefolded directory, the same special files
# (flags, device numbers); the kernel finds every name e2fold-fuse wrote
# by each of its spellings.
EXTRA_DIST += tests/kernel/k_fuse_diff.sh

# A directory's link count at ext4's limit of 65,000 (indexed, linear,
# without dir_nlink): e2fold-mkfs, e2fold-fuse (mkdir, rmdir) and
# e2fold-debugfs (mkdir) give the counts, refusals and fsck verdicts
# Linux gives on copies of the same filesystem.
EXTRA_DIST += tests/kernel/k_dirlinks.sh
# Transactions e2fold wrote into the journal and a crash cut (after the
# commit record, and before it): Linux replays at mount exactly what the
# system e2fsck replays, and the images are clean after.
EXTRA_DIST += tests/kernel/k_journal.sh

# e2fold-fuse killed inside an fsync's commit (before the commit record,
# just after it, before the journal is marked empty): Linux replays what
# the system e2fsck replays, and the fsynced files are there.
EXTRA_DIST += tests/kernel/k_fuse_crash.sh
