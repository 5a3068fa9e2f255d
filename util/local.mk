# The Unicode table generator, a build-host program.
noinst_PROGRAMS += util/mkutf8data
util_mkutf8data_SOURCES = util/mkutf8data.c lib/ext2fs/utf8table.h

# The UCD files the generator reads.
UCD_INPUTS = DerivedAge.txt UnicodeData.txt CaseFolding.txt \
	DerivedCoreProperties.txt NormalizationCorrections.txt

# Generate from $(UCD_DIR) into $@ (used by `make regen` and by the
# regeneration test, which compares against the committed table).
UTF8DATA_GENERATE = \
	(cd $(UCD_DIR) && sha256sum $(UCD_INPUTS)) > $@.sums && \
	util/mkutf8data -u $(UCD_DIR) -s $@.sums -o $@ && rm -f $@.sums

util/utf8data.h.new: util/mkutf8data$(EXEEXT)
	$(AM_V_GEN)$(UTF8DATA_GENERATE)
CLEANFILES += util/utf8data.h.new util/utf8data.h.new.sums

# Replace the committed table with one generated from $(UCD_DIR).
regen: util/utf8data.h.new
	cp util/utf8data.h.new $(srcdir)/lib/ext2fs/utf8data.h
.PHONY: regen
