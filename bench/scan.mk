# e2fold-utf8 scan against find(1) on a tree of a million files: run by
# hand, never by `make check`.
#
#   make bench-scan
#   make bench-scan SCAN_BENCH_FLAGS='--files=200000 --runs=5'
#   make bench-scan SCAN_BENCH_FLAGS='--work=/dev/shm/scan-bench --keep'
#
# bench/scan-bench.sh makes the tree (in a temporary directory, removed
# afterwards unless --keep) and prints wall time, CPU time, peak memory
# and names per second of find, scan, scan --strict and scan --json.
SCAN_BENCH_FLAGS =

EXTRA_DIST += bench/scan-bench.sh

.PHONY: bench-scan

bench-scan: misc/e2fold-utf8
	@test -z "$(SANITIZER_FLAGS)" || \
		echo "make bench-scan: built with sanitizers, the times mean nothing" >&2
	@CC='$(CC)' sh $(top_srcdir)/bench/scan-bench.sh \
		--utf8=misc/e2fold-utf8 $(SCAN_BENCH_FLAGS)
