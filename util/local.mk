# The Unicode table generator, a build-host program.
noinst_PROGRAMS += util/mkutf8data
util_mkutf8data_SOURCES = util/mkutf8data.c lib/ext2fs/utf8table.h
# The generator writes, and reads back, the table's format: utf8table.h,
# which it shares with the engine.
util_mkutf8data_CPPFLAGS = -I$(top_builddir) -I$(top_srcdir)/lib/ext2fs

# The UCD files the generator reads.
UCD_INPUTS = DerivedAge.txt UnicodeData.txt CaseFolding.txt \
	DerivedCoreProperties.txt NormalizationCorrections.txt

# They are pinned in util/ucd (its README says from where), compressed,
# with their SHA-256 and version, so that the table never depends on the
# host's Unicode data. Unpacked and verified into the build tree's
# util/ucd, the default $(UCD_DIR) of the generator and the tests.
UCD_PINNED = util/ucd/VERSION util/ucd/SHA256SUMS \
	util/ucd/DerivedAge.txt.xz util/ucd/UnicodeData.txt.xz \
	util/ucd/CaseFolding.txt.xz util/ucd/DerivedCoreProperties.txt.xz \
	util/ucd/NormalizationCorrections.txt.xz
UCD_UNPACK = $(SHELL) $(srcdir)/util/ucd-unpack.sh
EXTRA_DIST += $(UCD_PINNED) util/ucd/README util/ucd/copyright \
	util/ucd-unpack.sh

util/ucd/.unpacked: $(UCD_PINNED) util/ucd-unpack.sh
	$(AM_V_GEN)$(UCD_UNPACK) $(srcdir)/util/ucd util/ucd
check_DATA = util/ucd/.unpacked
CLEANFILES += util/ucd/.unpacked util/ucd/DerivedAge.txt \
	util/ucd/UnicodeData.txt util/ucd/CaseFolding.txt \
	util/ucd/DerivedCoreProperties.txt \
	util/ucd/NormalizationCorrections.txt

# Generate from $(UCD_DIR) into $@ (used by `make regen` and by the
# regeneration test, which compares against the committed table).
UTF8DATA_GENERATE = \
	(cd $(UCD_DIR) && sha256sum $(UCD_INPUTS)) > $@.sums && \
	util/mkutf8data -u $(UCD_DIR) -s $@.sums -o $@ && rm -f $@.sums

util/utf8data.h.new: util/mkutf8data$(EXEEXT) util/ucd/.unpacked
	$(AM_V_GEN)$(UTF8DATA_GENERATE)
CLEANFILES += util/utf8data.h.new util/utf8data.h.new.sums

# Replace the committed table with one generated from $(UCD_DIR).
regen: util/utf8data.h.new
	cp util/utf8data.h.new $(srcdir)/lib/ext2fs/utf8data.h
.PHONY: regen
