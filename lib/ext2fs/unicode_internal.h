/*
 * unicode_internal.h: what lib/support may use of the engine beyond the
 * public <e2fold/unicode.h>, and the only engine header it includes. The
 * rest of lib/ext2fs (utf8lookup.h, utf8fold.h, the table and its
 * format) belongs to the engine alone; the tools and the tests reach the
 * engine through unicode.h and lib/support. Each target's include flags
 * say so (Makefile.am), and tests/u_engine_boundary.sh checks it.
 *
 * Not installed, and not exported by the shared libe2fold (the engine is
 * compiled with hidden visibility, tests/u_exports.sh): the functions
 * below reach the tools through the convenience library they link.
 */
#ifndef E2FOLD_UNICODE_INTERNAL_H
#define E2FOLD_UNICODE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "unicode.h"

/*
 * Decode one UTF-8 sequence of s, of which avail (at least 1) bytes may
 * be read. Returns its length (1..4) and stores the code point, or
 * returns 0 if the bytes are not the shortest form of a Unicode scalar
 * value (overlong forms, surrogates, values above U+10FFFF, F5..FF, a
 * missing or truncated continuation): exactly the sequences the kernel's
 * trie has no leaf for. A stray continuation byte is not a sequence.
 * Inline: the engine decodes every byte of every name through it.
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

/*
 * The length of a sequence from its first byte, as the kernel counts it
 * (1..4; a continuation byte counts 2). Meaningful only for a byte that
 * starts a sequence of valid UTF-8.
 */
static inline unsigned int utf8_seqlen(unsigned char c)
{
	return 1 + (c >= 0xC0) + (c >= 0xE0) + (c >= 0xF0);
}

/*
 * 1 if normalizing under the newest Unicode version the engine holds
 * removes the code point cp (a Default_Ignorable_Code_Point, mapped to
 * nothing in both forms), 0 otherwise. Such code points are invisible, and they are what makes
 * two names that look alike different.
 */
int e2fold_utf8_is_ignorable(uint32_t cp);

/*
 * As utf8_casefold (the same results, -EINVAL for the same inputs),
 * except that Default_Ignorable code points are kept, as starters,
 * instead of removed: the form Linux 6.12-rc3 to 6.13-rc2 hashed
 * (doc/kernel-facts.md, "The Default_Ignorable episode"). Only to find
 * the entries those kernels placed; a run of more than 32 non-starters,
 * which no real name holds, is -EINVAL too.
 */
int e2fold_utf8_casefold_keeping_ignorables(const struct unicode_map *um,
					    const struct qstr *str,
					    unsigned char *dest, size_t dlen);

#endif /* E2FOLD_UNICODE_INTERNAL_H */
