# e2fold-fuse beside the kernel's ext4 and fuse2fs: run by hand (make
# bench-fuse, as root: it mounts), never by `make check`.
#
#   make bench-fuse
#   make bench-fuse FUSE_BENCH_FLAGS='--sizes=100000 --ops=200 --kernel'
#
# bench/fuse-bench.sh makes two images per size (one directory of 20,000
# and 100,000 entries: casefolded for e2fold-fuse, plain for the host
# kernel's loop mount and fuse2fs) into bench/fuse-work/ of the build
# tree, keeps them for the next run, and prints one table: ls -l,
# readdir+lstat, readdir, lookups (absent, present, repeated, another
# spelling), create, unlink and 8 parallel workers through each and
# through bench/fuse-floor.c (a FUSE server that does no work), with
# e2fold-fuse's ratio to the kernel. --kernel adds bench/kernel-bench.sh's
# casefolded kernel times (QEMU) for the same sizes.
FUSE_BENCH_FLAGS =

EXTRA_DIST += bench/fuse-bench.sh bench/fuse-floor.c

.PHONY: bench-fuse

bench-fuse: fuse/e2fold-fuse misc/e2fold-mkfs
	@test -z "$(SANITIZER_FLAGS)" || \
		echo "make bench-fuse: built with sanitizers, the times mean nothing" >&2
	@CC='$(CC)' sh $(top_srcdir)/bench/fuse-bench.sh \
		--fuse=fuse/e2fold-fuse --mkfs=misc/e2fold-mkfs \
		--work=bench/fuse-work $(FUSE_BENCH_FLAGS)

# The cached images are large: make clean removes them with the rest.
.PHONY: bench-fuse-clean
clean-local: bench-fuse-clean
bench-fuse-clean:
	-rm -rf bench/fuse-work
