# e2fold-mkfs against mke2fs and mke2fs -d: run by hand, never by
# `make check`.
#
#   make bench-mkfs
#   make bench-mkfs MKFS_BENCH_FLAGS='--files=20000 --runs=5 --size=16G'
#
# bench/mkfs-bench.sh prints the table (median, fastest and slowest wall
# time of each variant) and checks every image with e2fsck -fn.
MKFS_BENCH_FLAGS =

EXTRA_DIST += bench/mkfs-bench.sh

.PHONY: bench-mkfs

bench-mkfs: misc/e2fold-mkfs
	@test -z "$(SANITIZER_FLAGS)" || \
		echo "make bench-mkfs: built with sanitizers, the times mean nothing" >&2
	@sh $(top_srcdir)/bench/mkfs-bench.sh --mkfs=misc/e2fold-mkfs \
		$(MKFS_BENCH_FLAGS)
