# The kernels' lookups and creates with and without no_compat_fallback:
# run by hand (make bench-kernel), never by `make check`.
#
#   make bench-kernel
#   make bench-kernel KERNEL_BENCH_FLAGS='--sizes=100000 --kernels=sid --ops=100'
#
# bench/kernel-bench.sh makes two images per size (10,000, 100,000 and
# 1,000,000 entries in one casefolded directory; with e2fold-mkfs's default
# no_compat_fallback and with -E encoding_flags=none) into
# bench/kernel-work/ of the build tree, keeps them for the next run, boots
# each once on Debian 13's kernel (6.12) and unstable's (the newest) with
# tests/kernel/vm.sh, and prints the table: microseconds per absent-name
# lookup, present-name lookup and create, timed inside the VM, and the
# ratio without the flag over with it. It needs what the kernel tests
# need (QEMU, busybox-static; tests/README.md, "Kernel tests").
KERNEL_BENCH_FLAGS =

EXTRA_DIST += bench/kernel-bench.sh

.PHONY: bench-kernel

bench-kernel: misc/e2fold-mkfs debugfs/e2fold-debugfs
	@CC='$(CC)' sh $(top_srcdir)/bench/kernel-bench.sh \
		--mkfs=misc/e2fold-mkfs --debugfs=debugfs/e2fold-debugfs \
		--work=bench/kernel-work $(KERNEL_BENCH_FLAGS)

# The cached images are large: make clean removes them with the rest.
.PHONY: bench-kernel-clean
clean-local: bench-kernel-clean
bench-kernel-clean:
	-rm -rf bench/kernel-work
