/*
 * utf8version.c: the supported Unicode versions, the per-version tables
 * handed out by utf8nfdi()/utf8nfdicf(), and what the engine needs besides
 * the trie (Hangul arithmetic, corrections, ages).
 */
#include "config.h"

#include "utf8lookup.h"

/*
 * One entry per age generation and form; generation 0 (unassigned) is not
 * a version and is never handed out.
 */
#define T(g) { (g), 0 }, { (g), 1 }
#define T8(g) T(g), T(g + 1), T(g + 2), T(g + 3), T(g + 4), T(g + 5), \
	T(g + 6), T(g + 7)
static const struct utf8data tables[(UTF8_MAXGEN + 1) * 2] = {
	T8(0), T8(8), T8(16), T8(24),
};
#undef T8
#undef T

static const struct utf8data *table_at(unsigned int gen, int casefold)
{
	return &tables[gen * 2 + casefold];
}

/* The generation of a supported version, or 0. */
static unsigned int gen_of_age(unsigned int age)
{
	unsigned int gen;

	for (gen = 1; gen <= UTF8_NGENS; gen++)
		if (utf8_age_of_gen(gen) == age)
			return gen;
	return 0;
}

int utf8version_is_supported(unsigned int maj, unsigned int min,
			     unsigned int rev)
{
	if (maj > 255 || min > 255 || rev > 255)
		return 0;
	return gen_of_age(UNICODE_AGE(maj, min, rev)) != 0;
}

unsigned int utf8version_latest_age(void)
{
	return utf8_age_of_gen(UTF8_NGENS);
}

const char *utf8version_latest(void)
{
	return UTF8_UCD_VERSION_STRING;
}

static const struct utf8data *table_for(unsigned int maxage, int casefold)
{
	unsigned int gen = gen_of_age(maxage);

	return gen ? table_at(gen, casefold) : NULL;
}

const struct utf8data *utf8nfdi(unsigned int maxage)
{
	return table_for(maxage, 0);
}

const struct utf8data *utf8nfdicf(unsigned int maxage)
{
	return table_for(maxage, 1);
}

unsigned int e2fold_utf8_hangul(uint32_t cp, unsigned char *buf)
{
	uint32_t s = cp - UTF8_HANGUL_FIRST;
	uint32_t per_l = UTF8_HANGUL_V_COUNT * UTF8_HANGUL_T_COUNT;
	uint32_t jamo[3];
	unsigned int i, n = 0, count = 2;

	jamo[0] = UTF8_HANGUL_L + s / per_l;
	jamo[1] = UTF8_HANGUL_V + (s % per_l) / UTF8_HANGUL_T_COUNT;
	jamo[2] = UTF8_HANGUL_T + s % UTF8_HANGUL_T_COUNT;
	if (s % UTF8_HANGUL_T_COUNT)
		count = 3;
	/* Every jamo is in U+1100..U+11FF: three UTF-8 bytes. */
	for (i = 0; i < count; i++) {
		buf[n++] = 0xE0 | (jamo[i] >> 12);
		buf[n++] = 0x80 | ((jamo[i] >> 6) & 0x3F);
		buf[n++] = 0x80 | (jamo[i] & 0x3F);
	}
	return n;
}

const struct utf8_correction *e2fold_utf8_correction(uint32_t cp)
{
	int i;

	for (i = 0; i < UTF8_NCORRECTIONS; i++)
		if (e2fold_utf8_corrections[i].cp == cp)
			return &e2fold_utf8_corrections[i];
	return NULL;
}

/* The age generation of any code point, by binary search in the runs. */
unsigned int e2fold_utf8_gen_of(uint32_t cp)
{
	size_t lo = 0, hi = UTF8_NAGE_RUNS;

	if (cp >= UTF8_HANGUL_FIRST && cp <= UTF8_HANGUL_LAST)
		return UTF8_HANGUL_GEN;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (UTF8_RUN_FIRST(e2fold_utf8_age_runs[mid]) <= cp)
			lo = mid;
		else
			hi = mid;
	}
	return UTF8_RUN_GEN(e2fold_utf8_age_runs[lo]);
}
