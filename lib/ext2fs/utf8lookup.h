/*
 * utf8lookup.h: what the generated table says about one code point under
 * one table (form and version). Internal to the engine; inline because
 * every byte of every name goes through it. utf8_lookup() is the one
 * place that turns a code point into what its trie value and leaf mean
 * (through the accessors of utf8table.h, the format's one reader):
 * utf8_classify() and the fast path of utf8fold.c build on it.
 */
#ifndef E2FOLD_UTF8LOOKUP_H
#define E2FOLD_UTF8LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include "unicode_internal.h"
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

/* What the trie and a leaf say of a code point under one table. */
struct utf8_entry {
	const unsigned char *map;	/* its mapping in the table's form (the
					   length byte, utf8table.h), or NULL */
	uint8_t ccc;			/* its own combining class */
	uint8_t corrected;		/* older versions map it otherwise */
};

/*
 * Look cp up under table t; Hangul syllables are not in the trie (their
 * mapping is arithmetic, utf8_classify). A code point too new for t is a
 * starter without mapping, as is one the table does not name.
 */
static inline void utf8_lookup(const struct utf8data *t, uint32_t cp,
			       struct utf8_entry *e)
{
	uint16_t v = utf8_trie_value(cp);
	const unsigned char *leaf;

	e->map = NULL;
	e->ccc = 0;
	e->corrected = 0;
	if (v == 0)
		return;
	if (v < UTF8_LEAF_BASE) {
		if (e2fold_utf8_class_gen[v] <= t->gen)
			e->ccc = e2fold_utf8_class_ccc[v];
		return;
	}
	leaf = e2fold_utf8_leaves + (v - UTF8_LEAF_BASE);
	if (utf8_leaf_gen(leaf) > t->gen)
		return;
	e->ccc = utf8_leaf_ccc(leaf);
	e->corrected = utf8_leaf_corrected(leaf);
	e->map = utf8_leaf_map(leaf, t->casefold);
}

/*
 * The combining class of a code point inside a mapping. Such a code point
 * has no mapping of its own in that form (the generator verifies it), so
 * only its class and age matter.
 */
static inline unsigned int utf8_inner_ccc(const struct utf8data *t,
					  uint32_t cp)
{
	struct utf8_entry e;

	utf8_lookup(t, cp, &e);
	return e.ccc;
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
	struct utf8_entry e;

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
	utf8_lookup(t, cp, &e);
	if (e.corrected) {
		const struct utf8_correction *c = e2fold_utf8_correction(cp);

		if (c && utf8_age_of_gen(t->gen) < c->age) {
			ch->map = (const unsigned char *)c->bytes;
			ch->maplen = c->len;
			ch->ccc = utf8_first_ccc(t, ch->map, ch->maplen);
			return;
		}
	}
	if (!e.map) {
		ch->ccc = e.ccc;
		return;
	}
	ch->maplen = utf8_map_len(e.map);
	ch->starters = utf8_map_starters(e.map);
	ch->map = utf8_map_bytes(e.map);
	if (ch->maplen && !ch->starters)
		ch->ccc = utf8_first_ccc(t, ch->map, ch->maplen);
}

#endif /* E2FOLD_UTF8LOOKUP_H */
