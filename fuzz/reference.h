/*
 * reference.h: NFDi and NFDiCF computed a second, slow way, straight from
 * the rules of the Unicode Character Database, to check the engine
 * against. Nothing here shares code or tables with lib/ext2fs: it reads
 * the UCD text files at startup and applies the definitions one code
 * point at a time.
 *
 * The form of a valid string under Unicode version V (UNICODE_AGE()):
 *   1. decode the UTF-8 (a NUL byte or the length ends it);
 *   2. map each code point c:
 *      - assigned after V (DerivedAge.txt): c itself, as a starter;
 *      - Default_Ignorable_Code_Point (DerivedCoreProperties.txt; the
 *        unassigned code points of its ranges included): nothing, but it
 *        still ends a run of non-starters (below);
 *      - otherwise its full canonical decomposition (UnicodeData.txt
 *        field 5 without a <tag>, recursively; Hangul syllables by the
 *        arithmetic of Unicode chapter 3.12; before the version of a
 *        NormalizationCorrections.txt line, its original mapping); for
 *        NFDiCF then every resulting code point is replaced by its full
 *        case folding (CaseFolding.txt statuses C and F), which is
 *        decomposed again, until nothing changes;
 *   3. canonical ordering: each maximal run of code points with a
 *      non-zero combining class (of the code points as mapped, so
 *      U+0345, which folds to the starter U+03B9, is a starter in
 *      NFDiCF) is sorted by class, stably; an ignorable ends a run;
 *   4. encode as UTF-8.
 * Step 2's ignorable rule is the kernel's: its utf8byte() treats a code
 * point with an empty mapping as a stopper, so U+0301 U+200D U+0300 keeps
 * its order (a plain "remove, then reorder" would swap the accents).
 */
#ifndef E2FOLD_FUZZ_REFERENCE_H
#define E2FOLD_FUZZ_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

struct ref_ucd;

/*
 * Read the UCD text files of directory dir. Returns NULL after printing
 * why on stderr (a missing or malformed file).
 */
struct ref_ucd *ref_load(const char *dir);
void ref_free(struct ref_ucd *u);

/* The version the data files describe, as UNICODE_AGE(). */
unsigned int ref_data_age(const struct ref_ucd *u);

/* The version that assigned cp (UNICODE_AGE()), 0 if unassigned. */
unsigned int ref_age(const struct ref_ucd *u, uint32_t cp);

/*
 * Decode one strict UTF-8 sequence of at most avail bytes: its length
 * and code point, or 0 if it is not the shortest form of a scalar value.
 */
unsigned int ref_decode(const unsigned char *s, size_t avail, uint32_t *ret_cp);

/* Write cp (a scalar value) as UTF-8 into p (room for 4); its length. */
size_t ref_encode(uint32_t cp, unsigned char *p);

/* 1 if s (at most len bytes, up to a NUL) is strictly valid UTF-8. */
int ref_valid(const unsigned char *s, size_t len);

/* Which form ref_form computes: NFDi (0), NFDiCF, and a variant. */
#define REF_CASEFOLD 1
/*
 * Keep Default_Ignorable code points as they are, as starters: the form
 * Linux 6.12-rc3 to 6.13-rc2 hashed (see doc/kernel-facts.md, "The
 * Default_Ignorable episode").
 */
#define REF_KEEP_IGNORABLES 2

/*
 * The form of s (flags above) under version maxage, as a malloc'ed buffer
 * in *ret_out (free it) of *ret_len bytes. Returns 0, or -1 if s is not
 * valid UTF-8 (or on no memory).
 */
int ref_form(const struct ref_ucd *u, unsigned int maxage, int flags,
	     const unsigned char *s, size_t len, unsigned char **ret_out,
	     size_t *ret_len);

/* The longest run of non-starters in that form, or -1 if s is invalid. */
long ref_longest_run(const struct ref_ucd *u, unsigned int maxage, int flags,
		     const unsigned char *s, size_t len);

/*
 * The highest (want_max) or lowest age of the code points of s assigned
 * at or before maxage, unassigned ones counting as age 0; with no such
 * code point, 0 (highest) or maxage (lowest). -1 if s is invalid.
 */
long ref_age_scan(const struct ref_ucd *u, unsigned int maxage, int want_max,
		  const unsigned char *s, size_t len);

/*
 * Whether the kernel's byte stream of s ends without error, a kernel
 * quirk rather than a UCD rule: it fails on a first byte that is a
 * continuation byte and on any sequence that does not decode, but a
 * continuation byte met where a code point should start is passed
 * through. So it accepts every valid string and some invalid ones.
 */
int ref_kernel_accepts(const unsigned char *s, size_t len);

#endif /* E2FOLD_FUZZ_REFERENCE_H */
