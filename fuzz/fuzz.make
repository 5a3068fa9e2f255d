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
# below. Adding one (e.g. for e2fold-mkfs: the tool's sources without its
# main.c, passed in as MKFS_SOURCES by fuzz/local.mk) means a line in
# FUZZERS, a NAME_OBJS line, fuzz/NAME.fuzz (its budgets) and
# fuzz/corpus/NAME/.

FUZZERS = engine hash fsck

FUZZ_CC = clang
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS = -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) \
	-fsanitize=fuzzer-no-link
FUZZ_CPPFLAGS = -I$(top_srcdir)/lib/ext2fs -I$(top_srcdir)/e2fsck \
	-I$(top_srcdir)/fuzz -I$(top_builddir) \
	-DFUZZ_UCD_DIR='"$(UCD_DIR)"' \
	-DFUZZ_SEED_DIR='"$(abspath $(top_srcdir))/fuzz/seeds"' \
	$(TOOL_CFLAGS)
FUZZ_LIBS = $(TOOL_LIBS)

obj = fuzz/obj
to_objs = $(patsubst %.c,$(obj)/%.o,$(filter %.c,$(1)))

LIB_OBJS = $(call to_objs,$(LIB_SOURCES))
engine_OBJS = $(call to_objs,fuzz/fuzz_engine.c fuzz/reference.c) $(LIB_OBJS)
hash_OBJS = $(call to_objs,fuzz/fuzz_hash.c fuzz/reference.c) $(LIB_OBJS)
fsck_OBJS = $(call to_objs,fuzz/fuzz_fsck.c fuzz/image.c \
	$(filter-out e2fsck/main.c,$(FSCK_SOURCES))) $(LIB_OBJS)

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

.SECONDEXPANSION:
$(BINARIES): fuzz/fuzz_%: $$(%_OBJS)
	@echo "  FUZZLD   $@"
	@$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS)

clean:
	rm -rf $(obj) $(BINARIES)

.PHONY: all check-compiler clean
-include $(shell find $(obj) -name '*.d' 2>/dev/null)
