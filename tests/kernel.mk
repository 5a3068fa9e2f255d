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
