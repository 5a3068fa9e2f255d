/*
 * u_libext2fs_oracle: the system libext2fs (1.47) as a second oracle for
 * Unicode 12.1, through its own casefolding code and table:
 *   ext2fs_dirhash2(..., utf8-12.1 table, EXT4_CASEFOLD_FL, ...)
 *     against e2fold_casefold_dirhash(), hash and minor hash;
 *   ext2fs_casefold_cmp() against utf8_strncasecmp().
 * Inputs: every code point U+0001..U+10FFFF but the surrogates, alone and
 * as "A" cp "b"; then random strings, valid and invalid, from a
 * fixed-seed generator. Hashes: half_md4 and tea, signed and unsigned,
 * with the all-zero (default) seed and a fixed one.
 *
 * Where the two may rightly differ, the difference is checked, counted
 * and printed, never ignored:
 *   - libext2fs fails the hash of a name its fold rejects after the
 *     first byte (ENAMETOOLONG); the kernel hashes the raw bytes, and so
 *     must we: checked against ext2fs_dirhash() of the raw name;
 *   - libext2fs lacks the kernel's 0xFFFFFFFE -> 0xFFFFFFFC adjustment;
 *   - ext2fs_casefold_cmp() answers an ordering, or -1 on invalid input
 *     (which looks like an ordering): where we say -EINVAL it must be
 *     non-zero, and these pairs are counted apart.
 * The case partners of code points come from UnicodeData.txt ($UCD_DIR,
 * the pinned UCD make check unpacks). The rules compared are those of
 * doc/kernel-facts.md, "The directory hash of a casefolded name".
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoding.h"
#include "unicode.h"
#include "unit.h"
#include "utf8put.h"

#define NCP 0x110000
#define MAX_PRINT 20
#define NAME_MAX_BYTES 512
#define RANDOM_STRINGS 200000

static const struct ext2fs_nls_table *table;
static struct unicode_map *um;

static const __u32 zero_seed[4];
/* d1a5a0e2-3b0c-4f6e-9a71-5c2b8e4f1d37, as ext4 reads s_hash_seed. */
static const __u32 fixed_seed[4] = { 0xe2a0a5d1, 0x6e4f0c3b, 0x2b5c719a,
				     0x371d4f8e };
static const __u32 *const seeds[] = { zero_seed, fixed_seed };
static const int versions[] = { EXT2_HASH_HALF_MD4, EXT2_HASH_TEA,
				EXT2_HASH_HALF_MD4_UNSIGNED,
				EXT2_HASH_TEA_UNSIGNED };

static struct {
	unsigned long names, hashes, lib_errors, adjusted;
	unsigned long pairs, equal_pairs, invalid_pairs;
	unsigned long printed, noted_name;
} stats;

static uint32_t upper_of[NCP], lower_of[NCP];

static void print_name(const unsigned char *s, size_t len)
{
	size_t i;

	fputc('"', stderr);
	for (i = 0; i < len; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\')
			fputc(s[i], stderr);
		else
			fprintf(stderr, "\\x%02x", s[i]);
	}
	fputc('"', stderr);
}

/* Count a failure; print it while there are few. */
static int fail(const char *what, const unsigned char *s, size_t len)
{
	unit_failures++;
	if (stats.printed++ >= MAX_PRINT)
		return 0;
	fprintf(stderr, "FAIL %s: ", what);
	print_name(s, len);
	fputc(' ', stderr);
	return 1;
}

static int folds(const unsigned char *s, size_t len)
{
	unsigned char out[4096];
	struct qstr q = { s, (unsigned int)len };

	return utf8_casefold(um, &q, out, sizeof(out)) >= 0;
}

static void check_hashes(const unsigned char *s, size_t len)
{
	size_t i, j;

	stats.names++;
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		for (j = 0; j < sizeof(versions) / sizeof(versions[0]); j++) {
			ext2_dirhash_t h = 0, m = 0, h2 = 0, m2 = 0;
			errcode_t r1, r2;
			int v = versions[j];

			r1 = ext2fs_dirhash2(v, (const char *)s, len, table,
					     EXT4_CASEFOLD_FL, seeds[i], &h, &m);
			r2 = e2fold_casefold_dirhash(um, v, s, len, seeds[i],
						     &h2, &m2);
			stats.hashes++;
			unit_checks++;
			if (r2) {
				if (fail("e2fold_casefold_dirhash failed", s, len))
					fprintf(stderr, "(version %d): %ld\n", v,
						(long)r2);
				continue;
			}
			if (r1) {
				/*
				 * libext2fs gave up on a name it cannot fold;
				 * it must really be invalid, and we hash raw.
				 */
				stats.lib_errors++;
				if (stats.lib_errors <= 40 &&
				    stats.noted_name != stats.names) {
					stats.noted_name = stats.names;
					fprintf(stderr, "note: libext2fs error "
						"%ld on ", (long)r1);
					print_name(s, len);
					fputc('\n', stderr);
				}
				if (folds(s, len) &&
				    fail("libext2fs refused a name we fold", s,
					 len))
					fputc('\n', stderr);
				ext2fs_dirhash(v, (const char *)s, len, seeds[i],
					       &h, &m);
			}
			if (h == 0xFFFFFFFE) {
				stats.adjusted++;
				fprintf(stderr, "note: hash 0xfffffffe, kernel "
					"0xfffffffc, for ");
				print_name(s, len);
				fputc('\n', stderr);
				h = 0xFFFFFFFC;
			}
			if ((h != h2 || m != m2) &&
			    fail("hash differs from libext2fs", s, len))
				fprintf(stderr, "(version %d, seed %zu): "
					"e2fold %08x/%08x, libext2fs %08x/%08x%s\n",
					v, i, h2, m2, h, m,
					r1 ? " (raw)" : "");
		}
	}
}

static void check_cmp(const unsigned char *a, size_t alen,
		      const unsigned char *b, size_t blen)
{
	struct qstr qa = { a, (unsigned int)alen }, qb = { b, (unsigned int)blen };
	int ours = utf8_strncasecmp(um, &qa, &qb);
	int theirs = ext2fs_casefold_cmp(table, a, alen, b, blen);
	int ok;

	stats.pairs++;
	unit_checks++;
	if (ours == -EINVAL) {
		stats.invalid_pairs++;
		ok = theirs != 0;
	} else {
		stats.equal_pairs += ours == 0;
		ok = (ours == 0) == (theirs == 0) && (ours == 0 || ours == 1);
	}
	if (!ok && fail("comparison differs from libext2fs", a, alen)) {
		fprintf(stderr, "vs ");
		print_name(b, blen);
		fprintf(stderr, ": e2fold %d, libext2fs %d\n", ours, theirs);
	}
}

/* Simple case mappings, fields 12 and 13 of UnicodeData.txt. */
static int read_case_partners(void)
{
	const char *dir = getenv("UCD_DIR");
	char path[4096], line[1024];
	unsigned long n = 0;
	FILE *f;

	if (!dir || !*dir) {
		fprintf(stderr, "FATAL: UCD_DIR is not set (make check sets it)\n");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/UnicodeData.txt", dir);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "FATAL: cannot read %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *field[15], *p = line;
		uint32_t cp;
		int i;

		for (i = 0; i < 15 && p; i++) {
			field[i] = p;
			p = strchr(p, ';');
			if (p)
				*p++ = '\0';
		}
		if (i < 15)
			continue;
		cp = strtoul(field[0], NULL, 16);
		if (cp >= NCP)
			continue;
		upper_of[cp] = strtoul(field[12], NULL, 16);
		lower_of[cp] = strtoul(field[13], NULL, 16);
		n += upper_of[cp] || lower_of[cp];
	}
	fclose(f);
	if (n < 2000) {
		fprintf(stderr, "FATAL: only %lu case mappings read\n", n);
		exit(99);
	}
	return 0;
}

static uint32_t partner_of(uint32_t cp)
{
	if (upper_of[cp])
		return upper_of[cp];
	if (lower_of[cp])
		return lower_of[cp];
	return cp;
}

static void check_code_points(void)
{
	uint32_t cp;

	for (cp = 1; cp < NCP; cp++) {
		unsigned char one[4], other[4], wrapped[6], wrapped2[6];
		unsigned char folded[64];
		struct qstr q;
		size_t n, n2;
		int f;

		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		n = put_utf8(cp, one);
		check_hashes(one, n);
		wrapped[0] = 'A';
		memcpy(wrapped + 1, one, n);
		wrapped[n + 1] = 'b';
		check_hashes(wrapped, n + 2);

		n2 = put_utf8(partner_of(cp), other);
		check_cmp(one, n, other, n2);
		wrapped2[0] = 'a';
		memcpy(wrapped2 + 1, other, n2);
		wrapped2[n2 + 1] = 'B';
		check_cmp(wrapped, n + 2, wrapped2, n2 + 2);
		/* Our own fold of it, judged by libext2fs. */
		q.name = one;
		q.len = n;
		f = utf8_casefold(um, &q, folded, sizeof(folded));
		if (f >= 0)
			check_cmp(one, n, folded, f);
		else if (fail("a code point does not fold", one, n))
			fputc('\n', stderr);
	}
}

/* ------------------------------------------------------------------ */
/* Random strings: pieces that matter to folding, and broken ones.     */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32) % n;
}

/*
 * Each piece has spellings that fold alike; a partner string takes
 * another spelling of each piece, and now and then another piece.
 */
static const char *const pieces[][4] = {
	{ "a", "A", NULL },
	{ "z", "Z", NULL },
	{ "k", "K", "\xe2\x84\xaa", NULL },			/* Kelvin */
	{ "\xc3\xa9", "e\xcc\x81", "\xc3\x89", "E\xcc\x81" },	/* é */
	{ "\xc3\x9f", "ss", "SS", "\xe1\xba\x9e" },		/* ß */
	{ "\xcf\x89", "\xce\xa9", "\xe2\x84\xa6", NULL },	/* ω, Ohm */
	{ "\xcf\x83", "\xce\xa3", "\xcf\x82", NULL },		/* σ Σ ς */
	{ "\xef\xac\x81", "fi", "FI", "fI" },			/* ﬁ */
	{ "\xc4\xb1", NULL },					/* ı */
	{ "\xc4\xb0", "i\xcc\x87", "I\xcc\x87", NULL },		/* İ */
	{ "\xed\x95\x9c", "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab", NULL },
	{ "\xe1\x84\x80", "\xe1\x85\xa1", "\xe1\x86\xa8", NULL },
	{ "\xcc\x81", NULL },					/* acute, 230 */
	{ "\xcc\xa3", NULL },					/* dot below, 220 */
	{ "\xcd\x85", NULL },					/* ypogegrammeni */
	{ "\xe1\xbe\xb3", "\xce\xb1\xcd\x85", "\xe1\xbe\xbc", NULL },
	{ "\xe2\x80\x8b", "\xe2\x80\x8d", "\xef\xb8\x8f", "" },	/* ignorable */
	{ "\xe1\xa0\x8f", NULL },		/* U+180F, 14.0: kept */
	{ "\xf0\x9f\x98\x80", NULL },				/* 6.1 */
	{ "\xf0\x9e\x80\xb0", NULL },				/* 15.0 */
	{ "\xcd\xb8", NULL },					/* unassigned */
	{ "\xe2\x81\xa5", "", NULL },			/* ignorable, unassigned */
	{ "\xf4\x8f\xbf\xbf", NULL },
	{ ".", NULL },
	/* Broken: stray, truncated, overlong, surrogate, too big, bad. */
	{ "\x80", NULL },
	{ "\xbf", NULL },
	{ "\xc3", NULL },
	{ "\xe2\x82", NULL },
	{ "\xf0\x9f\x98", NULL },
	{ "\xc0\xaf", NULL },
	{ "\xed\xa0\x80", NULL },
	{ "\xf4\x90\x80\x80", NULL },
	{ "\xff", NULL },
};
#define NPIECES (sizeof(pieces) / sizeof(pieces[0]))
#define FIRST_BROKEN 24

static size_t spellings(size_t piece)
{
	size_t n = 0;

	while (n < 4 && pieces[piece][n])
		n++;
	return n;
}

static size_t append(unsigned char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (len + n > NAME_MAX_BYTES)
		return len;
	memcpy(buf + len, s, n);
	return len + n;
}

/* A random string, its partner, and whether broken pieces are allowed. */
static void random_pair(unsigned char *a, size_t *alen, unsigned char *b,
			size_t *blen, int broken)
{
	size_t n = 1 + rnd(rnd(8) ? 12 : 60), i;
	uint32_t range = broken ? NPIECES : FIRST_BROKEN;

	*alen = *blen = 0;
	for (i = 0; i < n; i++) {
		size_t p = rnd(range), q = p;
		unsigned char any[5];

		if (rnd(16) == 0) {
			/* any valid code point, sometimes */
			uint32_t cp = rnd(NCP);

			if (cp >= 0xD800 && cp <= 0xDFFF)
				cp = 'x';
			any[put_utf8(cp, any)] = '\0';
			*alen = append(a, *alen, (const char *)any);
			*blen = append(b, *blen, (const char *)any);
			continue;
		}
		*alen = append(a, *alen, pieces[p][rnd(spellings(p))]);
		if (rnd(40) == 0)
			q = rnd(range);
		*blen = append(b, *blen, pieces[q][rnd(spellings(q))]);
	}
	if (broken && rnd(50) == 0 && *alen > 1)
		a[rnd(*alen)] = '\0';	/* a NUL ends it early */
}

static void check_random(void)
{
	unsigned char a[NAME_MAX_BYTES], b[NAME_MAX_BYTES];
	size_t alen, blen;
	unsigned long i;

	for (i = 0; i < RANDOM_STRINGS; i++) {
		random_pair(a, &alen, b, &blen, i % 4 == 0);
		check_hashes(a, alen);
		check_cmp(a, alen, b, blen);
		check_cmp(b, blen, a, alen);
	}
}

int main(void)
{
	table = ext2fs_load_nls_table(EXT4_ENC_UTF8_12_1);
	um = utf8_load("12.1");
	if (!table || !um) {
		fprintf(stderr, "FATAL: cannot load utf8-12.1 (%s)\n",
			table ? "e2fold" : "libext2fs");
		return 99;
	}
	if (read_case_partners())
		return 99;
	check_code_points();
	printf("code points: %lu names, %lu hashes, %lu pairs compared "
	       "(%lu equal)\n", stats.names, stats.hashes, stats.pairs,
	       stats.equal_pairs);
	check_random();
	printf("with %d random strings: %lu names, %lu hashes, %lu pairs "
	       "(%lu equal, %lu invalid)\n", RANDOM_STRINGS, stats.names,
	       stats.hashes, stats.pairs, stats.equal_pairs,
	       stats.invalid_pairs);
	printf("exceptions: %lu hashes libext2fs refused (checked raw), "
	       "%lu adjusted 0xfffffffe\n", stats.lib_errors, stats.adjusted);
	/* The random strings must reach the cases they are there for. */
	CHECK(stats.lib_errors > 1000);
	CHECK(stats.invalid_pairs > 1000);
	CHECK(stats.equal_pairs > 10000);
	if (stats.printed > MAX_PRINT)
		fprintf(stderr, "... and %lu more failures\n",
			stats.printed - MAX_PRINT);
	utf8_unload(um);
	return unit_done("u_libext2fs_oracle");
}
