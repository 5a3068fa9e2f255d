/*
 * utf8table.h: the format of the generated Unicode table (utf8data.h),
 * shared by its generator (util/mkutf8data.c, which writes it and reads
 * it back to verify) and the engine (lib/ext2fs/utf8lookup.h, the only
 * reader of the table at run time). The layout of a leaf record is read
 * here and nowhere else: the utf8_leaf_*() and utf8_map_*() functions
 * below.
 *
 * One table serves both forms (NFDi, NFDiCF) and every Unicode version.
 *
 * Code point -> 16-bit value, through a three-stage trie:
 *     b2 = utf8_stage1[cp >> (SHIFT2 + SHIFT3)]
 *     b3 = utf8_stage2[(b2 << SHIFT2) + ((cp >> SHIFT3) & (2^SHIFT2 - 1))]
 *     v  = utf8_stage3[(b3 << SHIFT3) + (cp & (2^SHIFT3 - 1))]
 * Blocks of identical content are stored once, which is what makes the
 * trie small: most of the code space is unassigned or uniform.
 *
 * The value v says:
 *     0                     a starter (combining class 0) with no mapping.
 *                           Its age is irrelevant: under an older version
 *                           it is left alone, exactly as it is now.
 *     1 .. UTF8_LEAF_BASE-1 a non-starter with no mapping: its combining
 *                           class and age generation are
 *                           utf8_class_ccc[v], utf8_class_gen[v].
 *     >= UTF8_LEAF_BASE     a code point with a mapping in at least one
 *                           form: its leaf record starts at
 *                           utf8_leaves[v - UTF8_LEAF_BASE].
 * Hangul syllables (U+AC00..U+D7A3) are not in the trie: they decompose
 * arithmetically, and all were assigned in Unicode 2.0.
 *
 * A leaf record:
 *     byte 0   age generation (bits 0-4) and flags:
 *              UTF8_LEAF_NFDI      an NFDi mapping follows
 *              UTF8_LEAF_NFDICF    a separate NFDiCF mapping follows; when
 *                                  absent, NFDiCF uses the NFDi mapping, or
 *                                  none if that is absent too
 *              UTF8_LEAF_CORRECTED versions older than a correction in
 *                                  utf8_corrections[] use its old mapping
 *     byte 1   the code point's own combining class (used by a form in
 *              which it has no mapping)
 *     then     per mapping present: a length byte and that many UTF-8
 *              bytes. Length 0 = the code point is removed (ignorable).
 *              Bit 7 of the length byte (UTF8_MAP_STARTERS) says every
 *              code point of the mapping is a starter, so that the
 *              mapping can be copied out whole, with no reordering to do
 *              (under an older version a code point of it may be too
 *              new, which makes it a starter all the same). Bit 6
 *              (UTF8_MAP_ORDERED) says the mapping begins with a starter
 *              and its non-starters are already in class order, so that
 *              it can be copied out whole when the code point after it
 *              is a starter (under an older version, where some of them
 *              may be too new, this stays true). Bits 0-5: the length.
 * Mappings are fully expanded: no code point inside one has a mapping in
 * the same form (the generator verifies this), so the runtime expands
 * once and takes each inner code point's combining class from the trie.
 *
 * Ages: a "generation" is an index into utf8_gen_age[], the Unicode
 * versions in DerivedAge.txt in increasing order; generation 0 is
 * unassigned (age 0, never too new). Under a table of generation g, a
 * code point of generation > g is "too new": it keeps its bytes and
 * counts as a starter.
 */
#ifndef E2FOLD_UTF8TABLE_H
#define E2FOLD_UTF8TABLE_H

#include <stddef.h>
#include <stdint.h>

#define UTF8_AGE_PACK(maj, min, rev) \
	(((uint32_t)(maj) << 16) | ((uint32_t)(min) << 8) | (uint32_t)(rev))
#define UTF8_AGE_MAJ(age) (((age) >> 16) & 0xff)
#define UTF8_AGE_MIN(age) (((age) >> 8) & 0xff)
#define UTF8_AGE_REV(age) ((age) & 0xff)

#define UTF8_MAXGEN 31		/* generations fit leaf byte 0's 5 bits */
#define UTF8_MAXCCC 254		/* Unicode never uses 255 */
#define UTF8_MAXCLASS 256	/* value classes below UTF8_LEAF_BASE */
#define UTF8_LEAF_BASE UTF8_MAXCLASS
#define UTF8_MAXEXPANSION 63	/* bytes in one mapping: 6 bits of a byte */
#define UTF8_MAP_STARTERS 0x80	/* in a mapping's length byte */
#define UTF8_MAP_ORDERED 0x40	/* in a mapping's length byte */
#define UTF8_MAP_LEN_MASK 0x3f
#define UTF8_MAXCORR 16

#define UTF8_LEAF_GEN_MASK 0x1f
#define UTF8_LEAF_NFDI 0x20
#define UTF8_LEAF_NFDICF 0x40
#define UTF8_LEAF_CORRECTED 0x80

/* Hangul syllable arithmetic (The Unicode Standard, section 3.12). */
#define UTF8_HANGUL_FIRST 0xAC00
#define UTF8_HANGUL_LAST 0xD7A3
#define UTF8_HANGUL_L 0x1100
#define UTF8_HANGUL_V 0x1161
#define UTF8_HANGUL_T 0x11A7
#define UTF8_HANGUL_V_COUNT 21
#define UTF8_HANGUL_T_COUNT 28

/* Age runs: the first code point of a run and its generation. */
#define UTF8_RUN_PACK(cp, gen) (((uint32_t)(cp) << 8) | (uint32_t)(gen))
#define UTF8_RUN_FIRST(run) ((run) >> 8)
#define UTF8_RUN_GEN(run) ((run) & 0xff)

struct utf8_correction {
	uint32_t cp;
	uint32_t age;		/* the version that corrected it */
	uint8_t len;
	const char *bytes;	/* the mapping before, UTF-8 */
};

/* A leaf's age generation. */
static inline unsigned int utf8_leaf_gen(const unsigned char *leaf)
{
	return leaf[0] & UTF8_LEAF_GEN_MASK;
}

/* A leaf's own combining class, for a form in which it has no mapping. */
static inline unsigned int utf8_leaf_ccc(const unsigned char *leaf)
{
	return leaf[1];
}

/* Whether a leaf's mapping is to be replaced by a correction's. */
static inline int utf8_leaf_corrected(const unsigned char *leaf)
{
	return (leaf[0] & UTF8_LEAF_CORRECTED) != 0;
}

/*
 * The mapping a leaf holds for one form (casefold 0: NFDi, 1: NFDiCF), as
 * a pointer to its length byte (flags and length; the UTF-8 bytes
 * follow), or NULL when that form leaves the code point as it is. NFDiCF
 * takes its own mapping if the leaf has one, else NFDi's.
 */
static inline const unsigned char *utf8_leaf_map(const unsigned char *leaf,
						 int casefold)
{
	const unsigned char *p = leaf + 2;

	if (casefold && (leaf[0] & UTF8_LEAF_NFDICF)) {
		if (leaf[0] & UTF8_LEAF_NFDI)
			p += 1 + (p[0] & UTF8_MAP_LEN_MASK);
		return p;
	}
	return (leaf[0] & UTF8_LEAF_NFDI) ? p : NULL;
}

/* The bytes of a mapping, and their count, from its length byte. */
static inline const unsigned char *utf8_map_bytes(const unsigned char *map)
{
	return map + 1;
}

static inline unsigned int utf8_map_len(const unsigned char *map)
{
	return map[0] & UTF8_MAP_LEN_MASK;
}

/* Every code point of the mapping is a starter (UTF8_MAP_STARTERS). */
static inline int utf8_map_starters(const unsigned char *map)
{
	return (map[0] & UTF8_MAP_STARTERS) != 0;
}

/* The mapping starts with a starter and is in class order. */
static inline int utf8_map_ordered(const unsigned char *map)
{
	return (map[0] & UTF8_MAP_ORDERED) != 0;
}

/* A leaf record's size in bytes (the generator deduplicates by it). */
static inline size_t utf8_leaf_size(const unsigned char *leaf)
{
	size_t size = 2;

	if (leaf[0] & UTF8_LEAF_NFDI)
		size += 1 + utf8_map_len(leaf + size);
	if (leaf[0] & UTF8_LEAF_NFDICF)
		size += 1 + utf8_map_len(leaf + size);
	return size;
}

#endif /* E2FOLD_UTF8TABLE_H */
