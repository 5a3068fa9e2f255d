# Fuzz harnesses (clang/libFuzzer). fuzz/fuzz.make builds them with clang
# whatever CC configure chose, from the sources the tools themselves are
# built from (the lists below), so a new library file needs nothing here.
#
#   make fuzz-build    build every harness (make check does it first)
#   make fuzz-long     run each for its long budget (fuzz/NAME.fuzz)
#   make fuzz-clean    remove the harnesses and their objects
# `make check` runs each for a short, fixed budget (tests/fuzz.mk).
FUZZ_CC = clang
FUZZ_MAKE = $(MAKE) -f $(top_srcdir)/fuzz/fuzz.make \
	top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)' \
	UCD_DIR='$(UCD_DIR)' FUZZ_CC='$(FUZZ_CC)' \
	LIB_SOURCES='$(lib_ext2fs_libe2fold_engine_la_SOURCES) $(lib_support_libsupport_la_SOURCES)' \
	FSCK_SOURCES='$(e2fsck_e2fold_fsck_SOURCES)' \
	DEBUGFS_SOURCES='$(debugfs_e2fold_debugfs_SOURCES)' \
	MKFS_SOURCES='$(misc_e2fold_mkfs_SOURCES)' \
	FUSE_SOURCES='$(fuse_e2fold_fuse_SOURCES)' \
	FUSE_CFLAGS='$(FUSE_CFLAGS) $(NETTLE_CFLAGS)' \
	FUSE_LIBS='$(NETTLE_LIBS)' \
	FUZZERS='$(FUZZERS)' \
	TOOL_CFLAGS='$(E2FOLD_TOOL_CFLAGS) $(ARCHIVE_CFLAGS)' \
	TOOL_LIBS='$(EXT2FS_LIBS) $(E2P_LIBS) $(COM_ERR_LIBS) $(BLKID_LIBS) $(ARCHIVE_LIBS)'
FUZZERS = engine hash fsck debugfs mkfs
# e2fold-fuse's handlers, with a double of libfuse (needs nettle).
if FUSE
FUZZERS += fuse
endif

# The debugfs harness compiles the command table mk_cmds generates; the
# engine's reference reads the pinned UCD that make unpacks.
fuzz-build: debugfs/e2fold_cmds.c util/ucd/.unpacked
	+$(AM_V_at)$(FUZZ_MAKE) all

# Each fuzzer's long budget, one after the other; FUZZ_JOBS=N runs N
# processes per fuzzer. Counts are printed at the end of each.
fuzz-long: fuzz-build
	$(AM_V_at)for f in $(FUZZERS); do \
	  $(SHELL) $(top_srcdir)/fuzz/run-fuzzer.sh --long \
	    $(top_srcdir)/fuzz/$$f.fuzz || exit 1; \
	done

fuzz-clean:
	+$(AM_V_at)$(FUZZ_MAKE) clean
clean-local: fuzz-clean

.PHONY: fuzz-build fuzz-long fuzz-clean

EXTRA_DIST += fuzz/fuzz.make fuzz/run-fuzzer.sh fuzz/fuzz.h \
	fuzz/reference.h fuzz/reference.c fuzz/image.h fuzz/image.c \
	fuzz/fuzz_engine.c fuzz/fuzz_hash.c fuzz/fuzz_fsck.c \
	fuzz/fuzz_debugfs.c fuzz/fuzz_mkfs.c fuzz/fuzz_fuse.c \
	fuzz/fuse_double.h fuzz/fuse_double.c \
	fuzz/seeds fuzz/corpus fuzz/regress
