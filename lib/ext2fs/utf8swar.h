/*
 * utf8swar.h: eight ASCII bytes at a time.
 *
 * Most of every name is ASCII, and an ASCII byte is a starter whose only
 * mapping is A-Z -> a-z under case folding, so runs of it can be checked,
 * copied and folded a machine word at a time. Every operation here works
 * on each byte alone (no carry crosses a byte in the ones that compute a
 * result), so the byte order of the machine does not matter.
 */
#ifndef E2FOLD_UTF8SWAR_H
#define E2FOLD_UTF8SWAR_H

#include <stdint.h>
#include <string.h>

#define SWAR_ONES 0x0101010101010101ULL
#define SWAR_HIGHS 0x8080808080808080ULL

static inline uint64_t swar_load(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

static inline void swar_store(unsigned char *p, uint64_t w)
{
	memcpy(p, &w, sizeof(w));
}

/*
 * Are all eight bytes ASCII and none NUL? (w - ONES) & ~w has a high bit
 * set exactly when some byte is zero; the borrow it may carry only ever
 * sets bits above a zero byte, which is then already reported.
 */
static inline int swar_plain_ascii(uint64_t w)
{
	return !((w | ((w - SWAR_ONES) & ~w)) & SWAR_HIGHS);
}

/*
 * A-Z -> a-z in a word of ASCII bytes. For a byte b < 0x80, b + 0x3F has
 * its high bit set when b >= 'A' and b + 0x25 when b > 'Z', and neither
 * sum carries out of its byte: the two differ exactly on upper case
 * letters, whose 0x20 bit is then set.
 */
static inline uint64_t swar_fold_ascii(uint64_t w)
{
	uint64_t ge_a = w + 0x3F * SWAR_ONES;
	uint64_t gt_z = w + 0x25 * SWAR_ONES;

	return w | (((ge_a ^ gt_z) & SWAR_HIGHS) >> 2);
}

#endif /* E2FOLD_UTF8SWAR_H */
