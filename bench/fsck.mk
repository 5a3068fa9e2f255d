# e2fold-fsck against e2fsck: run by hand (make bench-fsck), never by
# `make check`.
#
#   make bench-fsck
#   make bench-fsck FSCK_BENCH_FLAGS='--big=100000 --dirs=10 --runs=5'
#
# bench/fsck-bench.sh makes the image once (one casefolded directory of
# 1,000,000 entries and 100 of 10,000; about 700 MB on disk, a 16 GiB
# sparse file) into bench/fsck-work/ of the build tree, keeps it there for
# the next run, and prints the table: e2fsck -fn against e2fold-fsck -fn,
# and e2fsck -fyD against e2fold-fsck -fy on copies with names that
# collide after casefolding; wall time, CPU time and peak memory, with
# the share of the e2fsck that e2fold-fsck runs. The helpers it compiles
# (bench/mktar.c, bench/rusage.c) need nothing but a C compiler.
FSCK_BENCH_FLAGS =

EXTRA_DIST += bench/fsck-bench.sh bench/mktar.c bench/rusage.c

.PHONY: bench-fsck

bench-fsck: e2fsck/e2fold-fsck misc/e2fold-mkfs
	@test -z "$(SANITIZER_FLAGS)" || \
		echo "make bench-fsck: built with sanitizers, the times mean nothing" >&2
	@CC='$(CC)' sh $(top_srcdir)/bench/fsck-bench.sh \
		--fsck=e2fsck/e2fold-fsck --mkfs=misc/e2fold-mkfs \
		--work=bench/fsck-work $(FSCK_BENCH_FLAGS)

# The cached image is large: make clean removes it with the rest.
.PHONY: bench-fsck-clean
clean-local: bench-fsck-clean
bench-fsck-clean:
	-rm -rf bench/fsck-work
