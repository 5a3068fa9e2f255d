# Benchmarks: run by hand (`make bench`), never by `make check`.
#
# e2fold-bench times the engine against the kernel's fs/unicode (the test
# oracle, built from Debian's linux-source), the system libext2fs,
# utf8proc and ICU (bench/README.md). configure does not look for
# utf8proc or ICU, so that they never become dependencies of the build:
# the benchmark is compiled by the rule below, on demand, with the flags
# pkg-config gives when it runs. Plain `make` builds none of it.
#
#   make bench                 build, then the timing table and the
#                              callgrind instruction counts
#   make bench-time            the timing table only
#   make bench-callgrind       the instruction counts only
#   make bench BENCH_FLAGS='--ms=100 --names=8192'
#                              options of e2fold-bench for the timing

BENCH_C = bench/bench.c bench/corpus.c bench/measure.c bench/bench_report.c \
	bench/impl_e2fold.c bench/impl_kernel.c bench/impl_ext2fs.c \
	bench/impl_utf8proc.c bench/impl_icu.c
BENCH_DEPS = $(BENCH_C) bench/bench.h lib/ext2fs/unicode.h \
	tests/oracle/kernel_oracle.h
BENCH_PKGS = libutf8proc icu-uc icu-i18n
BENCH_ORACLE_DIR = tests/oracle
BENCH_FLAGS =

EXTRA_DIST += $(BENCH_C) bench/bench.h bench/callgrind.sh bench/bench-lib.sh bench/README.md
CLEANFILES += bench/e2fold-bench

.PHONY: bench bench-time bench-callgrind bench-build bench-oracle

# One after the other: counting instructions beside the timing would
# disturb it, even under make -j.
bench:
	@$(MAKE) $(AM_MAKEFLAGS) bench-time
	@$(MAKE) $(AM_MAKEFLAGS) bench-callgrind

# The kernel's engine, built once into the build tree (shared with
# tests/u_kernel_oracle.sh; the script does nothing when it is current).
bench-oracle:
	$(AM_V_GEN)sh $(top_srcdir)/tests/oracle/build-kernel-oracle.sh \
		$(top_srcdir) $(BENCH_ORACLE_DIR)

bench-build: bench-oracle lib/ext2fs/libe2fold_engine.la
	@$(MAKE) $(AM_MAKEFLAGS) bench/e2fold-bench

bench/e2fold-bench: $(BENCH_DEPS) lib/ext2fs/libe2fold_engine.la \
		$(BENCH_ORACLE_DIR)/libkunicode.a
	@$(MKDIR_P) bench
	@test -z "$(SANITIZER_FLAGS)" || \
		echo "make bench: built with sanitizers, the times mean nothing" >&2
	$(AM_V_CCLD)pkgflags=`$(PKG_CONFIG) --cflags --libs $(BENCH_PKGS)` || { \
		echo "make bench: pkg-config finds no $(BENCH_PKGS):" \
		     "install libutf8proc-dev and libicu-dev" \
		     "(scripts/install-deps)" >&2; exit 1; }; \
	srcs=; for f in $(BENCH_C); do srcs="$$srcs $(srcdir)/$$f"; done; \
	$(LIBTOOL) --quiet --mode=link $(CC) $(CFLAGS) $(WARN_CFLAGS) $(SANITIZER_FLAGS) \
		$(E2FOLD_PUBLIC_CPPFLAGS) -I$(top_srcdir)/tests/oracle \
		$(EXT2FS_CFLAGS) $(COM_ERR_CFLAGS) -o $@ $$srcs \
		$(BENCH_ORACLE_DIR)/libkunicode.a \
		lib/ext2fs/libe2fold_engine.la \
		$(EXT2FS_LIBS) $(COM_ERR_LIBS) $$pkgflags

bench-time: bench-build
	@commit=`git -C $(top_srcdir) describe --always --dirty 2>/dev/null \
		|| echo unknown`; \
	kernel=`cat $(BENCH_ORACLE_DIR)/.built-from`; \
	kernel=`basename "$$kernel" .tar.xz`; \
	kver=`dpkg-query -W -f='$${Version}' "$$kernel" 2>/dev/null || true`; \
	bench/e2fold-bench --commit="$$commit" \
		--kernel="$$kernel $$kver" $(BENCH_FLAGS)

bench-callgrind: bench-build
	@sh $(top_srcdir)/bench/callgrind.sh bench/e2fold-bench
include bench/mkfs.mk
include bench/fsck.mk
include bench/scan.mk
include bench/kernel.mk
include bench/fuse.mk
