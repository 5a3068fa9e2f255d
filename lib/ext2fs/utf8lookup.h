/*
 * utf8lookup.h: what the generated table says about one code point under
 * one table (form and version). Internal to the engine; inline because
 * every byte of every name goes through it.
 */
#ifndef E2FOLD_UTF8LOOKUP_H
#define E2FOLD_UTF8LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include "unicode.h"
#include "utf8data.h"

/* One form at one version; the public handle is a pointer to one. */
struct utf8data {
	uint8_t gen;		/* age generation of the version */
	uint8_t casefold;	/* 1 for NFDiCF */
};

/* Why a code point is about to be emitted the way it is. */
struct utf8_char {
	uint8_t ccc;			/* effective combining class */
	uint8_t maplen;			/* bytes in map */
	uint8_t starters;		/* map holds starters only */
	const unsigned char *map;	/* replacement, or NULL: keep the bytes */
};

static inline unsigned int utf8_age_of_gen(unsigned int gen)
{
	return e2fold_utf8_gen_age[gen];
}

static inline uint16_t utf8_trie_value(uint32_t cp)
{
	unsigned int b2 = e2fold_utf8_stage1[cp >> (UTF8_SHIFT2 + UTF8_SHIFT3)];
	unsigned int b3 = e2fold_utf8_stage2[(b2 << UTF8_SHIFT2) +
		((cp >> UTF8_SHIFT3) & ((1u << UTF8_SHIFT2) - 1))];

	return e2fold_utf8_stage3[(b3 << UTF8_SHIFT3) +
				  (cp & ((1u << UTF8_SHIFT3) - 1))];
}

/*
 * Decode one UTF-8 sequence of s, of which avail bytes may be read.
 * Returns its length (1..4) and the code point, or 0 if the bytes are not
 * the shortest form of a Unicode scalar value (overlong forms,
 * surrogates, values above U+10FFFF, F5..FF, a missing or truncated
 * continuation), exactly the sequences the kernel's trie has no leaf for.
 */
static inline unsigned int utf8_decode(const unsigned char *s, size_t avail,
				       uint32_t *ret_cp)
{
	unsigned int c = s[0];

	if (c < 0x80) {
		*ret_cp = c;
		return 1;
	}
	if (c < 0xC2)
		return 0;
	if (c < 0xE0) {
		if (avail < 2 || (s[1] & 0xC0) != 0x80)
			return 0;
		*ret_cp = ((c & 0x1F) << 6) | (s[1] & 0x3F);
		return 2;
	}
	if (c < 0xF0) {
		unsigned int lo = c == 0xE0 ? 0xA0 : 0x80;
		unsigned int hi = c == 0xED ? 0x9F : 0xBF;

		if (avail < 3 || s[1] < lo || s[1] > hi ||
		    (s[2] & 0xC0) != 0x80)
			return 0;
		*ret_cp = ((c & 0x0F) << 12) | ((s[1] & 0x3F) << 6) |
			  (s[2] & 0x3F);
		return 3;
	}
	if (c < 0xF5) {
		unsigned int lo = c == 0xF0 ? 0x90 : 0x80;
		unsigned int hi = c == 0xF4 ? 0x8F : 0xBF;

		if (avail < 4 || s[1] < lo || s[1] > hi ||
		    (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
			return 0;
		*ret_cp = ((c & 0x07) << 18) | ((s[1] & 0x3F) << 12) |
			  ((s[2] & 0x3F) << 6) | (s[3] & 0x3F);
		return 4;
	}
	return 0;
}

/* The length of a sequence from its first byte, as the kernel counts it. */
static inline unsigned int utf8_seqlen(unsigned char c)
{
	return 1 + (c >= 0xC0) + (c >= 0xE0) + (c >= 0xF0);
}

/*
 * The combining class of a code point inside a mapping. Such a code point
 * has no mapping of its own in that form (the generator verifies it), so
 * only its class and age matter.
 */
static inline unsigned int utf8_inner_ccc(const struct utf8data *t,
					  uint32_t cp)
{
	uint16_t v = utf8_trie_value(cp);

	if (v == 0)
		return 0;
	if (v < UTF8_LEAF_BASE)
		return e2fold_utf8_class_gen[v] > t->gen ? 0 :
			e2fold_utf8_class_ccc[v];
	{
		const unsigned char *leaf = e2fold_utf8_leaves + (v - UTF8_LEAF_BASE);

		return utf8_leaf_gen(leaf) > t->gen ? 0 : leaf[1];
	}
}

/* Class of the first code point of a non-empty mapping. */
static inline unsigned int utf8_first_ccc(const struct utf8data *t,
					  const unsigned char *map,
					  unsigned int len)
{
	uint32_t cp = 0;

	if (map[0] < 0x80)
		return 0;
	utf8_decode(map, len, &cp);
	return utf8_inner_ccc(t, cp);
}

/* Write the Hangul syllable's jamo into buf (9 bytes); returns the length. */
unsigned int e2fold_utf8_hangul(uint32_t cp, unsigned char *buf);

/* The age generation of any code point (0 for unassigned). */
unsigned int e2fold_utf8_gen_of(uint32_t cp);

/* The mapping a corrected code point had before its correction. */
const struct utf8_correction *e2fold_utf8_correction(uint32_t cp);

/*
 * Classify the code point cp under table t. hangul is a 12-byte buffer
 * that receives a Hangul syllable's expansion and must live as long as
 * ch->map is used. The mapping of a code point whose mapping is empty
 * (an ignorable) is a non-NULL pointer with maplen 0.
 */
static inline void utf8_classify(const struct utf8data *t, uint32_t cp,
				 unsigned char *hangul, struct utf8_char *ch)
{
	uint16_t v;
	const unsigned char *leaf, *p;

	ch->map = NULL;
	ch->maplen = 0;
	ch->ccc = 0;
	ch->starters = 0;
	if (cp >= UTF8_HANGUL_FIRST && cp <= UTF8_HANGUL_LAST) {
		if (UTF8_HANGUL_GEN <= t->gen) {
			ch->maplen = e2fold_utf8_hangul(cp, hangul);
			ch->map = hangul;
			ch->starters = 1;	/* jamo are starters */
		}
		return;
	}
	v = utf8_trie_value(cp);
	if (v == 0)
		return;
	if (v < UTF8_LEAF_BASE) {
		if (e2fold_utf8_class_gen[v] <= t->gen)
			ch->ccc = e2fold_utf8_class_ccc[v];
		return;
	}
	leaf = e2fold_utf8_leaves + (v - UTF8_LEAF_BASE);
	if (utf8_leaf_gen(leaf) > t->gen)
		return;
	p = leaf + 2;
	if ((leaf[0] & UTF8_LEAF_CORRECTED)) {
		const struct utf8_correction *c = e2fold_utf8_correction(cp);

		if (c && utf8_age_of_gen(t->gen) < c->age) {
			ch->map = (const unsigned char *)c->bytes;
			ch->maplen = c->len;
			ch->ccc = utf8_first_ccc(t, ch->map, ch->maplen);
			return;
		}
	}
	if (leaf[0] & UTF8_LEAF_NFDI) {
		if (t->casefold && (leaf[0] & UTF8_LEAF_NFDICF))
			p += 1 + (p[0] & UTF8_MAP_LEN_MASK);
	} else if (!(t->casefold && (leaf[0] & UTF8_LEAF_NFDICF))) {
		ch->ccc = leaf[1];
		return;
	}
	ch->maplen = p[0] & UTF8_MAP_LEN_MASK;
	ch->starters = p[0] >> 7;
	ch->map = p + 1;
	if (ch->maplen && !ch->starters)
		ch->ccc = utf8_first_ccc(t, ch->map, ch->maplen);
}

#endif /* E2FOLD_UTF8LOOKUP_H */
