# fuzz.make: the libFuzzer harnesses, built with clang (whatever compiler
# configure chose for the rest) by this plain GNU makefile, which
# fuzz/local.mk runs from the build directory as
#
#   $(MAKE) -f $(top_srcdir)/fuzz/fuzz.make top_srcdir=... LIB_SOURCES=...
#
# Everything a harness calls is compiled again here, with coverage
# instrumentation (-fsanitize=fuzzer-no-link) and ASan+UBSan, into
# fuzz/obj/; nothing is shared with the normal build's objects.
#
# A harness is fuzz/fuzz_NAME.c; its objects are listed in NAME_OBJS
# below (a tool's sources come in from fuzz/local.mk, such as
# MKFS_SOURCES, less the file holding main()). Adding one means a line in
# FUZZERS here and in fuzz/local.mk, a NAME_OBJS line, fuzz/NAME.fuzz
# (its budgets), fuzz/corpus/NAME/ and a line in tests/fuzz.mk.
# fuzz/local.mk passes its FUZZERS, without fuse under --disable-fuse.

FUZZERS = engine hash fsck debugfs mkfs fuse

FUZZ_CC = clang
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS = -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) \
	-fsanitize=fuzzer-no-link
# The include paths of the normal build (Makefile.am): the engine's own
# headers only for lib/support (unicode_internal.h), the public unicode.h
# (lib/ext2fs/public/) for everything else; the engine's sources find
# their headers beside them.
FUZZ_CPPFLAGS = -I$(top_srcdir)/lib/ext2fs/public -I$(top_srcdir)/lib/support \
	-I$(top_srcdir)/e2fsck \
	-I$(top_srcdir)/debugfs \
	-I$(top_srcdir)/fuzz -I$(top_builddir) -I$(top_srcdir)/misc/mkfs \
	-DFUZZ_UCD_DIR='"$(UCD_DIR)"' \
	-DFUZZ_SEED_DIR='"$(abspath $(top_srcdir))/fuzz/seeds"' \
	$(TOOL_CFLAGS)
FUZZ_LIBS = $(TOOL_LIBS)

obj = fuzz/obj
$(obj)/lib/support/%.o: FUZZ_CPPFLAGS += -I$(top_srcdir)/lib/ext2fs
# e2fold-fsck's preload library, as the build tree has it (e2fsck/local.mk).
$(obj)/e2fsck/%.o: FUZZ_CPPFLAGS += \
	-DE2FOLD_OVERLAY_INSTALLED='"$(abspath $(top_builddir))/e2fsck/.libs/e2fsck-overlay.so"' \
	-DE2FOLD_STATE_INSTALLED='"$(abspath $(top_builddir))/fuzz/state"'
# e2fold-fuse's sources and what includes its header see libfuse's headers.
$(obj)/fuse/%.o $(obj)/fuzz/fuzz_fuse.o $(obj)/fuzz/fuse_double.o: \
	FUZZ_CPPFLAGS += -I$(top_srcdir)/fuse $(FUSE_CFLAGS)

to_objs = $(patsubst %.c,$(obj)/%.o,$(filter %.c,$(1)))

LIB_OBJS = $(call to_objs,$(LIB_SOURCES))
engine_OBJS = $(call to_objs,fuzz/fuzz_engine.c fuzz/reference.c) $(LIB_OBJS)
hash_OBJS = $(call to_objs,fuzz/fuzz_hash.c fuzz/reference.c) $(LIB_OBJS)
fsck_OBJS = $(call to_objs,fuzz/fuzz_fsck.c fuzz/image.c \
	$(filter-out e2fsck/e2fold-fsck.c,$(FSCK_SOURCES))) $(LIB_OBJS)
# The debugfs commands without main() (debugfs.c), and their table, which
# mk_cmds generates into the build tree (fuzz/local.mk makes it first).
debugfs_OBJS = $(call to_objs,fuzz/fuzz_debugfs.c fuzz/image.c \
	$(filter-out debugfs/debugfs.c,$(DEBUGFS_SOURCES))) \
	$(obj)/built/debugfs/e2fold_cmds.o $(LIB_OBJS)
# e2fold-mkfs without e2fold-mkfs.c (the program is mkfs_main, misc/mkfs/run.c).
mkfs_OBJS = $(call to_objs,fuzz/fuzz_mkfs.c \
	$(filter-out misc/mkfs/e2fold-mkfs.c,$(MKFS_SOURCES))) $(LIB_OBJS)
# e2fold-fuse's request handlers without main(), its option parser and
# its session loops (the only callers of libfuse's session and option
# API); libfuse itself
# is replaced by the reply double, so only nettle is linked.
fuse_OBJS = $(call to_objs,fuzz/fuzz_fuse.c fuzz/fuse_double.c fuzz/image.c \
	$(filter-out fuse/e2fold-fuse.c fuse/options.c fuse/loop.c fuse/workers.c fuse/signals.c,$(FUSE_SOURCES))) \
	$(LIB_OBJS)
fuzz/fuzz_fuse: FUZZ_LIBS += $(FUSE_LIBS)

BINARIES = $(FUZZERS:%=fuzz/fuzz_%)

all: check-compiler $(BINARIES)

# Loud, never a silent skip: the fuzz tests fail without clang.
check-compiler:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { \
	  echo "fuzz: $(FUZZ_CC) not found; the fuzz harnesses need clang and libFuzzer:" >&2; \
	  echo "fuzz: run scripts/install-deps (Debian packages clang, libclang-rt-14-dev)" >&2; \
	  exit 1; }

$(obj)/%.o: $(top_srcdir)/%.c | check-compiler
	@mkdir -p $(dir $@)
	@echo "  FUZZCC   $<"
	@$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

# Sources generated into the build tree.
$(obj)/built/%.o: $(top_builddir)/%.c | check-compiler
	@mkdir -p $(dir $@)
	@echo "  FUZZCC   $<"
	@$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

.SECONDEXPANSION:
$(BINARIES): fuzz/fuzz_%: $$(%_OBJS)
	@echo "  FUZZLD   $@"
	@$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS)

clean:
	rm -rf $(obj) $(BINARIES)

.PHONY: all check-compiler clean
-include $(shell find $(obj) -name '*.d' 2>/dev/null)
