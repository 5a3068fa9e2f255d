/*
 * kernel_diff: e2fold's engine against the Linux kernel's fs/unicode
 * (Unicode 12.1, and the streams of every older version its table
 * holds), byte for byte and error for error.
 *
 *   kernel_diff [RANDOM_STRINGS [SEED]]
 *
 * Compared on every code point U+0000..U+10FFFF (surrogates excluded),
 * alone and after a base letter, and on RANDOM_STRINGS random strings
 * (default 1,000,000) built to hit the hard cases: combining sequences in
 * every order, ignorables inside runs, stray and truncated continuation
 * bytes, invalid sequences, NULs, Hangul, case pairs. For each string:
 * the byte streams of both forms, validate, normalize and casefold at
 * several buffer sizes, both comparisons against a related string,
 * the folded comparison and the name hash. Every mismatch is printed
 * with its input escaped; the exit status is 1 if there was any.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unicode.h"
#include "kernel_oracle.h"
#include "utf8put.h"

static struct unicode_map *um;
static void *kum;
/* The version the streams are compared under (older_versions changes it). */
static unsigned int age = UNICODE_AGE(12, 1, 0);
static unsigned long checks, failures;

static void print_bytes(const unsigned char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(stderr, "\\x%02x", s[i]);
}

static void fail(const char *what, const unsigned char *s, size_t len,
		 long ours, long theirs)
{
	failures++;
	if (failures > 50)
		return;
	fprintf(stderr, "MISMATCH %s on \"", what);
	print_bytes(s, len);
	fprintf(stderr, "\": e2fold %ld, kernel %ld\n", ours, theirs);
}

static void check_int(const char *what, const unsigned char *s, size_t len,
		      long ours, long theirs)
{
	checks++;
	if (ours != theirs)
		fail(what, s, len, ours, theirs);
}

/* Both cursors' streams, value by value. */
static void check_stream(int form, const unsigned char *s, size_t len)
{
	static int want[8192];
	struct utf8cursor cur;
	const struct utf8data *t = form ? utf8nfdicf(age) : utf8nfdi(age);
	int n = ko_stream(kum, form, s, len, want, 8192), i, c;

	checks++;
	if (utf8ncursor(&cur, t, (const char *)s, len) < 0) {
		if (n != -1)
			fail(form ? "cursor start NFDiCF" : "cursor start NFDi",
			     s, len, -1, 0);
		return;
	}
	if (n < 0) {
		fail(form ? "cursor start NFDiCF" : "cursor start NFDi", s, len,
		     0, -1);
		return;
	}
	for (i = 0; i < n; i++) {
		c = utf8byte(&cur);
		if (c != want[i]) {
			char what[64];

			snprintf(what, sizeof(what), "%s stream byte %d",
				 form ? "NFDiCF" : "NFDi", i);
			fail(what, s, len, c, want[i]);
			return;
		}
	}
}

/* normalize/casefold: result and, when successful, the bytes. */
static void check_form(int form, const unsigned char *s, unsigned int len,
		       size_t dlen)
{
	static unsigned char a[4096], b[4096];
	struct qstr q = { s, len };
	int ours = form ? utf8_casefold(um, &q, a, dlen) :
		   utf8_normalize(um, &q, a, dlen);
	int theirs = form ? ko_casefold(kum, s, len, b, dlen) :
		     ko_normalize(kum, s, len, b, dlen);
	char what[64];

	snprintf(what, sizeof(what), "%s dlen %zu",
		 form ? "casefold" : "normalize", dlen);
	check_int(what, s, len, ours, theirs);
	if (ours == theirs && ours >= 0 && memcmp(a, b, ours + 1))
		fail(what, s, len, -2, -3);
}

static void check_pair(const unsigned char *s, unsigned int len,
		       const unsigned char *t, unsigned int tlen)
{
	struct qstr a = { s, len }, b = { t, tlen };
	unsigned char cf[4096];
	int n;

	check_int("strncasecmp", s, len, utf8_strncasecmp(um, &a, &b),
		  ko_strncasecmp(kum, s, len, t, tlen));
	check_int("strncmp", s, len, utf8_strncmp(um, &a, &b),
		  ko_strncmp(kum, s, len, t, tlen));
	n = ko_casefold(kum, t, tlen, cf, sizeof(cf));
	if (n >= 0) {
		struct qstr f = { cf, n };

		check_int("strncasecmp_folded", s, len,
			  utf8_strncasecmp_folded(um, &f, &a),
			  ko_strncasecmp_folded(kum, cf, n, s, len));
	}
}

static void check_string(const unsigned char *s, unsigned int len)
{
	struct qstr q = { s, len };
	unsigned int h1 = 0, h2 = 0;
	int r1, r2, form;
	unsigned char folded[4096];
	int flen;

	for (form = 0; form < 2; form++) {
		check_stream(form, s, len);
		check_int(form ? "nlen NFDiCF" : "nlen NFDi", s, len,
			  utf8nlen(form ? um->ntab[1] : um->ntab[0],
				   (const char *)s, len),
			  ko_nlen(kum, form, s, len));
		check_form(form, s, len, 4096);
	}
	check_int("validate", s, len, utf8_validate(um, &q),
		  ko_validate(kum, s, len));
	flen = ko_casefold(kum, s, len, folded, sizeof(folded));
	if (flen >= 0) {
		/* Exactly enough room, and one byte too little. */
		check_form(1, s, len, flen + 1);
		check_form(1, s, len, flen);
	}
	r1 = utf8_casefold_hash(um, (void *)0x1234, &q, &h1);
	r2 = ko_casefold_hash(kum, (void *)0x1234, s, len, &h2);
	check_int("casefold_hash", s, len, r1, r2);
	if (!r1 && !r2)
		check_int("casefold_hash value", s, len, h1, h2);
}

static void every_code_point(void)
{
	uint32_t cp;
	unsigned char buf[16], up[16];

	for (cp = 0; cp < 0x110000; cp++) {
		int n, m;

		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		n = put_utf8(cp, buf);
		check_string(buf, n);
		/* After a starter, and between a starter and a mark. */
		up[0] = 'A';
		m = 1 + put_utf8(cp, up + 1);
		m += put_utf8(0x0316, up + m);
		check_string(up, m);
		check_pair(buf, n, up + 1, m - 1 - 2);
	}
}

/* A small deterministic generator (xorshift64*). */
static uint64_t rng_state = 88172645463325252ull;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 2685821657736338717ull) >> 33) % n;
}

/* Code points that make normalization interesting. */
static const uint32_t interesting[] = {
	'A', 'a', 'Z', 'k', 's', 'S', 0xDF, 0x1E9E, 0xC5, 0xE9, 0x130, 0x131,
	0x300, 0x301, 0x302, 0x308, 0x316, 0x323, 0x327, 0x328, 0x334,
	0x340, 0x341, 0x343, 0x344, 0x345, 0x34F, 0x390, 0x3B0, 0x1F80,
	0x1FB3, 0x1FBC, 0x5B0, 0x5B1, 0x5BC, 0x64B, 0x651, 0x653, 0x670,
	0xF71, 0xF72, 0xF73, 0xF75, 0xF80, 0xF81, 0x1DCE, 0x20D0, 0x302A,
	0x3099, 0x309A, 0x200B, 0x200C, 0x200D, 0x2060, 0x2065, 0xFE0F,
	0xFEFF, 0x180B, 0x180E, 0x180F, 0xE0001, 0xE0100, 0xAD, 0x115F,
	0x1160, 0x3164, 0xFFA0, 0xAC00, 0xAC01, 0xD7A3, 0x1100, 0x1161,
	0x11A8, 0x212A, 0x2126, 0x212B, 0xFB01, 0xFB03, 0x1F1E6, 0x1F600,
	0x1F468, 0x1F3FB, 0x10400, 0x10428, 0x1E900, 0x1E922, 0x1E944,
	0xF951, 0x2F868, 0xFDD0, 0xFFFE, 0x10FFFF, 0x0378, 0x16FE4, 0x1AFF0,
	0x10570, 0x1E030, 0x1E08F, 0x0C3C, 0x11F00, 0x4E00, 0x3042, 0x30AC,
	/* A 1.1 letter whose decomposition holds a 3.0 mark (U+0654), and
	 * a mark of a lower class to reorder around it. */
	0x6D3, 0x6C2, 0x654, 0x6E3,
};

static size_t gen_string(unsigned char *p, size_t max)
{
	size_t n = 0;
	unsigned int count = rnd(12) == 0 ? rnd(300) : rnd(24);

	while (count-- && n + 8 < max) {
		switch (rnd(16)) {
		case 0:	/* a random byte */
			p[n++] = rnd(256);
			break;
		case 1:	/* a stray continuation byte */
			p[n++] = 0x80 + rnd(64);
			break;
		case 2: {	/* a truncated sequence */
			unsigned char tmp[4];
			int m = put_utf8(0x80 + rnd(0x10FF80), tmp);

			memcpy(p + n, tmp, m);
			n += 1 + rnd(m);
			break;
		}
		case 3:	/* any scalar value */
		case 4: {
			uint32_t cp = rnd(0x110000);

			if (cp >= 0xD800 && cp <= 0xDFFF)
				cp = 0xFFFD;
			n += put_utf8(cp, p + n);
			break;
		}
		case 5:	/* BMP */
			n += put_utf8(0x80 + rnd(0x2F80), p + n);
			break;
		case 6:	/* ASCII */
		case 7:
			p[n++] = 0x20 + rnd(0x5F);
			break;
		case 8:
			if (rnd(8) == 0) {
				p[n++] = 0;	/* a NUL ends the name */
				break;
			}
			/* fall through */
		default:
			n += put_utf8(interesting[rnd(sizeof(interesting) /
						      sizeof(interesting[0]))],
				      p + n);
		}
	}
	return n;
}

/* A related string: same, case-swapped ASCII, or one byte changed. */
static size_t gen_partner(const unsigned char *s, size_t len,
			  unsigned char *p)
{
	size_t i;

	memcpy(p, s, len);
	switch (rnd(4)) {
	case 0:
		for (i = 0; i < len; i++)
			if ((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'z')
				p[i] ^= 0x20;
		return len;
	case 1:
		if (len)
			p[rnd(len)] ^= 1 << rnd(8);
		return len;
	case 2:
		return len ? rnd(len + 1) : 0;
	default:
		return len;
	}
}

/*
 * Every older version the kernel's table holds: the byte streams of both
 * forms, where a version shows (a code point newer than the version
 * passes through as a starter, even inside the decomposition of an older
 * one), on every code point alone and between a starter and a mark, and
 * on nrandom random strings.
 */
static void older_versions(unsigned long nrandom)
{
	unsigned char buf[16], s[2600];
	unsigned int maj, min, rev, newest = age;
	void *newest_kum = kum;
	unsigned long i, before;
	uint32_t cp;

	for (maj = 1; maj <= 12; maj++)
		for (min = 0; min < 10; min++)
			for (rev = 0; rev < 4; rev++) {
				if (UNICODE_AGE(maj, min, rev) >= newest ||
				    !utf8version_is_supported(maj, min, rev))
					continue;
				kum = ko_load_version(maj, min, rev);
				if (!kum) {
					fprintf(stderr, "MISMATCH: the kernel "
						"lacks version %u.%u.%u\n",
						maj, min, rev);
					failures++;
					continue;
				}
				age = UNICODE_AGE(maj, min, rev);
				before = failures;
				for (cp = 0; cp < 0x110000; cp++) {
					int n, m;

					if (cp >= 0xD800 && cp <= 0xDFFF)
						continue;
					n = put_utf8(cp, buf);
					check_stream(0, buf, n);
					check_stream(1, buf, n);
					buf[0] = 'A';
					m = 1 + put_utf8(cp, buf + 1);
					m += put_utf8(0x0316, buf + m);
					check_stream(0, buf, m);
					check_stream(1, buf, m);
				}
				for (i = 0; i < nrandom; i++) {
					size_t len = gen_string(s, sizeof(s));

					check_stream(0, s, len);
					check_stream(1, s, len);
				}
				fprintf(stderr, "version %u.%u.%u: %lu mismatches\n",
					maj, min, rev, failures - before);
				ko_unload(kum);
			}
	kum = newest_kum;
	age = newest;
}

int main(int argc, char **argv)
{
	unsigned long nrandom = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	unsigned char s[2600], t[2600];
	unsigned long i;

	if (argc > 2)
		rng_state = strtoull(argv[2], NULL, 0) | 1;
	um = utf8_load("12.1.0");
	kum = ko_load();
	if (!um) {
		fprintf(stderr, "utf8_load(12.1.0) failed\n");
		return 1;
	}
	every_code_point();
	fprintf(stderr, "every code point: %lu checks, %lu mismatches\n",
		checks, failures);
	for (i = 0; i < nrandom; i++) {
		size_t len = gen_string(s, sizeof(s));
		size_t tlen = gen_partner(s, len, t);

		check_string(s, len);
		check_pair(s, len, t, tlen);
	}
	fprintf(stderr, "%lu random strings: %lu checks in all, %lu mismatches\n",
		nrandom, checks, failures);
	older_versions(nrandom / 10);
	fprintf(stderr, "older versions: %lu checks in all, %lu mismatches\n",
		checks, failures);
	utf8_unload(um);
	ko_unload(kum);
	return failures ? 1 : 0;
}
