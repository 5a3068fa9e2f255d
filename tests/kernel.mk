# Tests against the real Linux kernel in a VM (tests/kernel/).
# tests/kernel/vm.sh boots Debian's own kernel under QEMU and runs a
# scenario script in it; each k_*.sh test drives one or more boots.

# Casefold lookups on a default and a strict filesystem, then e2fsck.
TESTS += tests/kernel/k_smoke.sh
EXTRA_DIST += tests/kernel/vm.sh tests/kernel/init tests/kernel/kcf.c \
	tests/kernel/k_smoke.sh

# Damaged images repaired by e2fold-fsck: the kernel finds every entry.
TESTS += tests/kernel/k_fsck_repair.sh
EXTRA_DIST += tests/kernel/k_fsck_repair.sh

# Shared by the scenarios below: helpers, names, and other spellings.
EXTRA_DIST += tests/kernel/lib.sh tests/kernel/names.txt \
	tests/kernel/spellings.pl

# Images made by e2fold-mkfs: the kernel lists and finds every name.
TESTS += tests/kernel/k_mkfs.sh
EXTRA_DIST += tests/kernel/k_mkfs.sh

# The kernel creates thousands of names: e2fold predicts every create,
# and agrees with every hash and leaf the kernel wrote.
TESTS += tests/kernel/k_kernel_writes.sh
EXTRA_DIST += tests/kernel/k_kernel_writes.sh

# Strict mode: the kernel refuses exactly the names e2fold calls invalid.
TESTS += tests/kernel/k_strict.sh
EXTRA_DIST += tests/kernel/k_strict.sh

# Directories converted by e2fold-tune: the kernel finds every name.
TESTS += tests/kernel/k_tune.sh
EXTRA_DIST += tests/kernel/k_tune.sh

# Encrypted casefolded directories the kernel filled (one- and two-level
# htrees, 1 and 4 KiB): clean; repaired without the key, the kernel finds,
# creates and does not warn.
TESTS += tests/kernel/k_encrypted.sh
EXTRA_DIST += tests/kernel/k_encrypted.sh
