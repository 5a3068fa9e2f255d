/*
 * u_utf8_api: every function of unicode.h and encoding.h on inputs whose
 * answers are known independently: worked out by hand from the Unicode
 * data files, from doc/kernel-facts.md (measured on Linux), or computed here
 * with the kernel's formulas. tests/oracle/kernel_diff.c compares the
 * engine with the kernel's own code under 12.1; this test also covers the
 * other Unicode versions, the version parsing, and the ext4 glue.
 *
 * Byte strings are written as hex escapes with the code points named in
 * comments; a literal that follows a hex escape starts a new string so
 * that its letters are not read as hex digits.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfname.h"
#include "encoding.h"
#include "unicode.h"
#include "unit.h"

/* A string literal and its length, which may include NUL bytes. */
#define L(lit) (lit), (sizeof(lit) - 1)

#define INVALID (-1)	/* expected length meaning "-EINVAL" */

static struct unicode_map *load(const char *version)
{
	struct unicode_map *um = utf8_load(version);

	if (!um) {
		fprintf(stderr, "FATAL: utf8_load(\"%s\") failed\n", version);
		exit(99);
	}
	return um;
}

/* "fn(version, "escaped input")" for failure messages. */
static const char *describe(const char *fn, const struct unicode_map *um,
			    const void *in, size_t len)
{
	static char buf[1024];
	const unsigned char *s = in;
	size_t i, n;

	if (um)
		n = snprintf(buf, sizeof(buf), "%s(%u.%u.%u, \"", fn,
			     unicode_major(um->version),
			     unicode_minor(um->version),
			     unicode_rev(um->version));
	else
		n = snprintf(buf, sizeof(buf), "%s(no map, \"", fn);
	for (i = 0; i < len && n + 8 < sizeof(buf); i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\')
			buf[n++] = s[i];
		else
			n += snprintf(buf + n, sizeof(buf) - n, "\\x%02x", s[i]);
	}
	snprintf(buf + n, sizeof(buf) - n, "\")");
	return buf;
}

typedef int (*form_fn)(const struct unicode_map *, const struct qstr *,
		       unsigned char *, size_t);

/*
 * fn(um, in) must give want (wantlen bytes, NUL-terminated in dest), or
 * -EINVAL when wantlen is INVALID.
 */
static void check_form(int line, const char *name, form_fn fn,
		       const struct unicode_map *um, const char *in,
		       size_t inlen, const char *want, long wantlen)
{
	unsigned char dest[8192];
	struct qstr q = { (const unsigned char *)in, (unsigned int)inlen };
	const char *what = describe(name, um, in, inlen);
	int n = fn(um, &q, dest, sizeof(dest));

	if (wantlen == INVALID) {
		unit_check_long(__FILE__, line, what, n, -EINVAL);
		return;
	}
	if (!unit_check_long(__FILE__, line, what, n, wantlen))
		return;
	unit_check_bytes(__FILE__, line, what, dest, n, want, wantlen);
	unit_check_long(__FILE__, line, "NUL after the result", dest[n], 0);
}

#define FOLD(um, in, want) \
	check_form(__LINE__, "utf8_casefold", utf8_casefold, um, L(in), L(want))
#define NORM(um, in, want) \
	check_form(__LINE__, "utf8_normalize", utf8_normalize, um, L(in), \
		   L(want))
#define FOLD_INVALID(um, in) \
	check_form(__LINE__, "utf8_casefold", utf8_casefold, um, L(in), \
		   NULL, INVALID)
#define NORM_INVALID(um, in) \
	check_form(__LINE__, "utf8_normalize", utf8_normalize, um, L(in), \
		   NULL, INVALID)

typedef int (*cmp_fn)(const struct unicode_map *, const struct qstr *,
		      const struct qstr *);

static void check_cmp(int line, const char *name, cmp_fn fn,
		      const struct unicode_map *um, const char *a, size_t alen,
		      const char *b, size_t blen, int want)
{
	struct qstr qa = { (const unsigned char *)a, (unsigned int)alen };
	struct qstr qb = { (const unsigned char *)b, (unsigned int)blen };
	char what[2100];

	snprintf(what, sizeof(what), "%s", describe(name, um, a, alen));
	snprintf(what + strlen(what), sizeof(what) - strlen(what), " vs %s",
		 describe("", um, b, blen));
	unit_check_long(__FILE__, line, what, fn(um, &qa, &qb), want);
}

/* Both orders of a casefolded comparison. */
#define CASECMP(um, a, b, want) do { \
	check_cmp(__LINE__, "utf8_strncasecmp", utf8_strncasecmp, um, \
		  L(a), L(b), want); \
	check_cmp(__LINE__, "utf8_strncasecmp", utf8_strncasecmp, um, \
		  L(b), L(a), want); \
} while (0)
#define CMP(um, a, b, want) do { \
	check_cmp(__LINE__, "utf8_strncmp", utf8_strncmp, um, L(a), L(b), \
		  want); \
	check_cmp(__LINE__, "utf8_strncmp", utf8_strncmp, um, L(b), L(a), \
		  want); \
} while (0)

static void check_validate(int line, const struct unicode_map *um,
			   const char *s, size_t len, int want)
{
	struct qstr q = { (const unsigned char *)s, (unsigned int)len };

	unit_check_long(__FILE__, line, describe("utf8_validate", um, s, len),
			utf8_validate(um, &q), want);
}

#define VALID(um, s) check_validate(__LINE__, um, L(s), 0)
#define NOT_VALID(um, s) check_validate(__LINE__, um, L(s), -1)

/* The whole stream of a cursor: bytes until 0, or -1 as the last value. */
static size_t stream(struct utf8cursor *cur, int *out, size_t cap)
{
	size_t n = 0;
	int c;

	do {
		c = utf8byte(cur);
		out[n++] = c;
	} while (c > 0 && n < cap);
	return n;
}

static void check_stream(int line, const struct utf8data *t, const char *s,
			 size_t len, const int *want, size_t wantlen)
{
	struct utf8cursor cur;
	int got[256];
	size_t n, i;

	if (!unit_check_long(__FILE__, line, "utf8ncursor", utf8ncursor(&cur,
			     t, s, len), 0))
		return;
	n = stream(&cur, got, 256);
	unit_check_long(__FILE__, line, "stream length", n, wantlen);
	for (i = 0; i < n && i < wantlen; i++) {
		if (!unit_check_long(__FILE__, line, "stream byte", got[i],
				     want[i])) {
			fprintf(stderr, "  (at index %zu)\n", i);
			break;
		}
	}
}

#define STREAM(t, s, ...) do { \
	static const int want_[] = { __VA_ARGS__ }; \
	check_stream(__LINE__, t, L(s), want_, \
		     sizeof(want_) / sizeof(want_[0])); \
} while (0)

/* ------------------------------------------------------------------ */

/* The ages DerivedAge.txt 17.0 lists, in order. */
static const unsigned int all_ages[] = {
	UNICODE_AGE(1, 1, 0), UNICODE_AGE(2, 0, 0), UNICODE_AGE(2, 1, 0),
	UNICODE_AGE(3, 0, 0), UNICODE_AGE(3, 1, 0), UNICODE_AGE(3, 2, 0),
	UNICODE_AGE(4, 0, 0), UNICODE_AGE(4, 1, 0), UNICODE_AGE(5, 0, 0),
	UNICODE_AGE(5, 1, 0), UNICODE_AGE(5, 2, 0), UNICODE_AGE(6, 0, 0),
	UNICODE_AGE(6, 1, 0), UNICODE_AGE(6, 2, 0), UNICODE_AGE(6, 3, 0),
	UNICODE_AGE(7, 0, 0), UNICODE_AGE(8, 0, 0), UNICODE_AGE(9, 0, 0),
	UNICODE_AGE(10, 0, 0), UNICODE_AGE(11, 0, 0), UNICODE_AGE(12, 0, 0),
	UNICODE_AGE(12, 1, 0), UNICODE_AGE(13, 0, 0), UNICODE_AGE(14, 0, 0),
	UNICODE_AGE(15, 0, 0), UNICODE_AGE(15, 1, 0), UNICODE_AGE(16, 0, 0),
	UNICODE_AGE(17, 0, 0),
};
#define NAGES (sizeof(all_ages) / sizeof(all_ages[0]))

static void test_versions(void)
{
	static const unsigned int bad[][3] = {
		{ 12, 1, 1 }, { 12, 2, 0 }, { 1, 0, 0 }, { 0, 0, 0 },
		{ 15, 2, 0 }, { 16, 1, 0 }, { 18, 0, 0 }, { 17, 0, 1 },
		{ 99, 0, 0 }, { 2, 1, 2 },
		/* would alias 1.1.0 or 12.1.0 if packed without a check */
		{ 1, 0, 256 }, { 12, 0, 256 }, { 0, 257, 0 }, { 256, 1, 0 },
		{ 268, 1, 0 },
	};
	const struct utf8data *prev_i = NULL, *prev_cf = NULL;
	size_t i;

	CHECK_STR(utf8version_latest(), "17.0.0");
	CHECK_INT(utf8version_latest_age(), UNICODE_AGE(17, 0, 0));
	for (i = 0; i < NAGES; i++) {
		unsigned int a = all_ages[i];
		const struct utf8data *ti = utf8nfdi(a), *tcf = utf8nfdicf(a);

		if (!CHECK_INT(utf8version_is_supported(unicode_major(a),
							unicode_minor(a),
							unicode_rev(a)), 1))
			fprintf(stderr, "  (age 0x%06x)\n", a);
		CHECK(ti != NULL);
		CHECK(tcf != NULL);
		CHECK(ti != tcf);
		/* every version has its own tables */
		CHECK(ti != prev_i);
		CHECK(tcf != prev_cf);
		/* and the same ones on every call */
		CHECK(utf8nfdi(a) == ti);
		CHECK(utf8nfdicf(a) == tcf);
		prev_i = ti;
		prev_cf = tcf;
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!CHECK_INT(utf8version_is_supported(bad[i][0], bad[i][1],
							bad[i][2]), 0))
			fprintf(stderr, "  (%u.%u.%u)\n", bad[i][0], bad[i][1],
				bad[i][2]);
	}
	CHECK(utf8nfdi(UNICODE_AGE(12, 2, 0)) == NULL);
	CHECK(utf8nfdicf(UNICODE_AGE(12, 2, 0)) == NULL);
	CHECK(utf8nfdi(UNICODE_AGE(12, 1, 1)) == NULL);
	CHECK(utf8nfdicf(UNICODE_AGE(17, 1, 0)) == NULL);
	CHECK(utf8nfdi(0) == NULL);
	CHECK(utf8nfdicf(0) == NULL);
	CHECK(utf8nfdi(UNICODE_AGE(99, 0, 0)) == NULL);
}

/* The log hook: what the library said, and how often. */
static char logged[256];
static int log_calls;
static void *log_seen_arg;

static void capture_log(const char *message, void *arg)
{
	snprintf(logged, sizeof(logged), "%s", message);
	log_calls++;
	log_seen_arg = arg;
}

/* Run utf8_load(NULL) with the default hook; what it wrote to stderr. */
static struct unicode_map *load_latest_capturing_stderr(char *out,
							size_t size)
{
	struct unicode_map *um;
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t n = 0;

	out[0] = '\0';
	if (!tmp || saved < 0) {
		fprintf(stderr, "FATAL: tmpfile/dup\n");
		exit(99);
	}
	fflush(stderr);
	dup2(fileno(tmp), 2);
	um = utf8_load(NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, size - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	return um;
}

static void check_load_fails(int line, const char *version)
{
	char what[128];
	struct unicode_map *um;

	snprintf(what, sizeof(what), "utf8_load(\"%s\") is NULL", version);
	errno = 0;
	um = utf8_load(version);
	unit_check_long(__FILE__, line, what, um == NULL, 1);
	snprintf(what, sizeof(what), "errno after utf8_load(\"%s\")", version);
	unit_check_long(__FILE__, line, what, errno, EINVAL);
	utf8_unload(um);
}

static void check_load(int line, const char *version, unsigned int age)
{
	char what[128];
	struct unicode_map *um = utf8_load(version);

	snprintf(what, sizeof(what), "utf8_load(\"%s\") is not NULL", version);
	if (!unit_check_long(__FILE__, line, what, um != NULL, 1))
		return;
	snprintf(what, sizeof(what), "utf8_load(\"%s\")->version", version);
	unit_check_long(__FILE__, line, what, um->version, age);
	unit_check_long(__FILE__, line, "ntab[UTF8_NFDI] is utf8nfdi(age)",
			um->ntab[UTF8_NFDI] == utf8nfdi(age), 1);
	unit_check_long(__FILE__, line,
			"ntab[UTF8_NFDICF] is utf8nfdicf(age)",
			um->ntab[UTF8_NFDICF] == utf8nfdicf(age), 1);
	utf8_unload(um);
}

static void test_load(void)
{
	static const char *const bad[] = {
		"99.0", "12.2", "12.1.1", "", "12", "12.1.0.0", "a.b",
		" 12.1", "12.1 ", "256.0", "12.256", "12.1.256", "1.0",
		"0.0", "12..1", ".12.1", "12.1.", "-12.1", "+12.1",
		"12.1a", "15.2", "18.0", "17.1", "1.1.1", "4294967308.1",
	};
	struct unicode_map *um;
	char err[512];
	size_t i;

	utf8_set_log_hook(capture_log, &log_calls);

	check_load(__LINE__, "12.1.0", UNICODE_AGE(12, 1, 0));
	check_load(__LINE__, "12.1", UNICODE_AGE(12, 1, 0));
	check_load(__LINE__, "15.0", UNICODE_AGE(15, 0, 0));
	check_load(__LINE__, "15.0.0", UNICODE_AGE(15, 0, 0));
	check_load(__LINE__, "15.1", UNICODE_AGE(15, 1, 0));
	check_load(__LINE__, "16.0", UNICODE_AGE(16, 0, 0));
	check_load(__LINE__, "17.0", UNICODE_AGE(17, 0, 0));
	check_load(__LINE__, "17.0.0", UNICODE_AGE(17, 0, 0));
	check_load(__LINE__, "1.1", UNICODE_AGE(1, 1, 0));
	check_load(__LINE__, "2.1", UNICODE_AGE(2, 1, 0));
	check_load(__LINE__, "3.2.0", UNICODE_AGE(3, 2, 0));
	for (i = 0; i < NAGES; i++) {
		char v[16];

		snprintf(v, sizeof(v), "%u.%u.%u", unicode_major(all_ages[i]),
			 unicode_minor(all_ages[i]), unicode_rev(all_ages[i]));
		check_load(__LINE__, v, all_ages[i]);
	}
	CHECK_INT(log_calls, 0);	/* a named version is no warning */

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check_load_fails(__LINE__, bad[i]);
	CHECK_INT(log_calls, 0);	/* nor is a refused one */

	/* NULL: the newest version, with one warning through the hook. */
	um = utf8_load(NULL);
	if (CHECK(um != NULL)) {
		CHECK_INT(um->version, UNICODE_AGE(17, 0, 0));
		CHECK(um->ntab[UTF8_NFDICF] == utf8nfdicf(UNICODE_AGE(17, 0, 0)));
	}
	utf8_unload(um);
	CHECK_INT(log_calls, 1);
	CHECK(log_seen_arg == &log_calls);
	CHECK(strstr(logged, "17.0.0") != NULL);
	if (!CHECK(strstr(logged, "newest") != NULL))
		fprintf(stderr, "  logged: \"%s\"\n", logged);

	/* NULL hook: back to the default, which writes to stderr. */
	utf8_set_log_hook(NULL, NULL);
	um = load_latest_capturing_stderr(err, sizeof(err));
	CHECK(um != NULL);
	utf8_unload(um);
	CHECK_INT(log_calls, 1);
	if (!CHECK(!strncmp(err, "e2fold: ", 8) && strstr(err, "17.0.0") &&
		   err[strlen(err) - 1] == '\n'))
		fprintf(stderr, "  stderr was \"%s\"\n", err);

	utf8_unload(NULL);	/* like free(NULL) */
}

/* ------------------------------------------------------------------ */

static void test_facts_12_1(const struct unicode_map *um)
{
	/* The pairs of doc/kernel-facts.md, "NFDi and NFDiCF". */
	CASECMP(um, "README", "readme", 0);
	CASECMP(um, "Stra\xc3\x9f" "e", "STRASSE", 0);	/* U+00DF */
	CASECMP(um, "\xe1\xba\x9e", "ss", 0);		/* U+1E9E */
	CASECMP(um, "\xe1\xba\x9e", "\xc3\x9f", 0);
	CASECMP(um, "caf\xc3\xa9", "cafe\xcc\x81", 0);	/* NFC / NFD */
	CASECMP(um, "CAF\xc3\x89", "cafe\xcc\x81", 0);	/* U+00C9 */
	CASECMP(um, "a\xe2\x80\x8d" "b", "ab", 0);	/* U+200D */
	CASECMP(um, "\xe2\x9d\xa4", "\xe2\x9d\xa4\xef\xb8\x8f", 0);
	CASECMP(um, "\xe2\x84\xaa", "k", 0);		/* Kelvin sign */
	CASECMP(um, "\xe2\x84\xaa", "K", 0);
	CASECMP(um, "\xe2\x84\xa6", "\xcf\x89", 0);	/* Ohm sign, omega */
	CASECMP(um, "\xe2\x84\xa6", "\xce\xa9", 0);
	CASECMP(um, "\xed\x95\x9c",			/* U+D55C */
		"\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab", 0);
	CASECMP(um, "\xef\xac\x81", "fi", 0);		/* U+FB01 */
	CASECMP(um, "\xef\xac\x81", "FI", 0);
	/* Not equal: dotless i is its own letter. */
	CASECMP(um, "\xc4\xb1", "I", 1);
	CASECMP(um, "\xc4\xb1", "i", 1);
	/* Dotted capital I folds (status F) to i + U+0307, not to i. */
	CASECMP(um, "\xc4\xb0", "i\xcc\x87", 0);
	CASECMP(um, "\xc4\xb0", "i", 1);
	CASECMP(um, "a", "b", 1);
	CASECMP(um, "a", "ab", 1);
	CASECMP(um, "", "", 0);
	CASECMP(um, "", "\xe2\x80\x8b", 0);		/* only an ignorable */

	FOLD(um, "README", "readme");
	NORM(um, "README", "README");
	FOLD(um, "Stra\xc3\x9f" "e", "strasse");
	NORM(um, "Stra\xc3\x9f" "e", "Stra\xc3\x9f" "e");
	FOLD(um, "STRASSE", "strasse");
	FOLD(um, "\xe1\xba\x9e", "ss");
	NORM(um, "\xe1\xba\x9e", "\xe1\xba\x9e");
	FOLD(um, "caf\xc3\xa9", "cafe\xcc\x81");
	NORM(um, "caf\xc3\xa9", "cafe\xcc\x81");
	NORM(um, "CAF\xc3\x89", "CAFE\xcc\x81");
	FOLD(um, "a\xe2\x80\x8d" "b", "ab");
	NORM(um, "a\xe2\x80\x8d" "b", "ab");		/* NFDi drops it too */
	FOLD(um, "\xe2\x9d\xa4\xef\xb8\x8f", "\xe2\x9d\xa4");
	FOLD(um, "\xe2\x84\xaa", "k");
	NORM(um, "\xe2\x84\xaa", "K");			/* canonical: K */
	FOLD(um, "\xe2\x84\xa6", "\xcf\x89");
	NORM(um, "\xe2\x84\xa6", "\xce\xa9");		/* canonical: U+03A9 */
	FOLD(um, "\xed\x95\x9c", "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab");
	NORM(um, "\xed\x95\x9c", "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab");
	/* LV syllable (two jamo) and the last syllable. */
	NORM(um, "\xea\xb0\x80", "\xe1\x84\x80\xe1\x85\xa1");
	NORM(um, "\xed\x9e\xa3", "\xe1\x84\x92\xe1\x85\xb5\xe1\x87\x82");
	FOLD(um, "\xef\xac\x81", "fi");
	NORM(um, "\xef\xac\x81", "\xef\xac\x81");	/* compatibility only */
	FOLD(um, "\xc4\xb1", "\xc4\xb1");
	FOLD(um, "I", "i");
	FOLD(um, "\xc4\xb0", "i\xcc\x87");
	NORM(um, "\xc4\xb0", "I\xcc\x87");
	/* U+0390: NFD, then full folding, three code points. */
	FOLD(um, "\xce\x90", "\xce\xb9\xcc\x88\xcc\x81");
	FOLD(um, "", "");
	FOLD(um, "\xe2\x80\x8b", "");
	/* Canonical ordering: dot below (220) before acute (230). */
	NORM(um, "a\xcc\x81\xcc\xa3", "a\xcc\xa3\xcc\x81");
	NORM(um, "a\xcc\xa3\xcc\x81", "a\xcc\xa3\xcc\x81");
	NORM(um, "\xe1\xb8\x8b\xcc\xa3", "d\xcc\xa3\xcc\x87");	/* U+1E0B */
	CMP(um, "\xe1\xb8\x8b\xcc\xa3", "d\xcc\xa3\xcc\x87", 0);
	/* Every ASCII character: only A-Z change, and only when folding. */
	{
		char c[1], want[1];

		for (c[0] = 1; c[0] < 0x7f; c[0]++) {
			want[0] = c[0] >= 'A' && c[0] <= 'Z' ? c[0] + 32 : c[0];
			check_form(__LINE__, "utf8_casefold", utf8_casefold, um,
				   c, 1, want, 1);
			check_form(__LINE__, "utf8_normalize", utf8_normalize,
				   um, c, 1, c, 1);
		}
		c[0] = 0x7f;
		check_form(__LINE__, "utf8_casefold", utf8_casefold, um, c, 1,
			   c, 1);
	}
	/* An ignorable ends a run: nothing moves across it. */
	NORM(um, "a\xcc\x81\xe2\x80\x8b\xcc\xa3", "a\xcc\x81\xcc\xa3");
	/* Unassigned code points in Default_Ignorable ranges go too. */
	FOLD(um, "a\xe2\x81\xa5" "b", "ab");		/* U+2065 */
	FOLD(um, "a\xef\xbf\xb0" "b", "ab");		/* U+FFF0 */
	FOLD(um, "a\xf3\xa0\x80\x82" "b", "ab");	/* U+E0002 */
	/* Other unassigned code points stay, and are valid. */
	FOLD(um, "a\xcd\xb8" "B", "a\xcd\xb8" "b");	/* U+0378 */
	VALID(um, "a\xcd\xb8");
	FOLD(um, "\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");	/* U+10FFFF */
	VALID(um, "\xf4\x8f\xbf\xbf");
}

/* A run longer than the fast path's limit, and a result over 1 KiB. */
static void test_long_strings(const struct unicode_map *um)
{
	char in[2048], want[4096], upper[2048];
	unsigned char dest[4096];
	struct qstr q, q2;
	size_t i, n = 0, w = 0;
	unsigned int h1, h2;
	int r;

	/* "a" then 20 x (acute, dot below): the dots first, in order. */
	in[n++] = 'a';
	for (i = 0; i < 20; i++) {
		memcpy(in + n, "\xcc\x81\xcc\xa3", 4);
		n += 4;
	}
	want[w++] = 'a';
	for (i = 0; i < 20; i++, w += 2)
		memcpy(want + w, "\xcc\xa3", 2);
	for (i = 0; i < 20; i++, w += 2)
		memcpy(want + w, "\xcc\x81", 2);
	check_form(__LINE__, "utf8_normalize", utf8_normalize, um, in, n,
		   want, w);
	check_form(__LINE__, "utf8_casefold", utf8_casefold, um, in, n,
		   want, w);

	/* Two such runs split by an ignorable, which ends the first. */
	n = w = 0;
	in[n++] = 'a';
	want[w++] = 'a';
	for (r = 0; r < 2; r++) {
		if (r) {
			memcpy(in + n, "\xe2\x80\x8b", 3);	/* U+200B */
			n += 3;
		}
		for (i = 0; i < 20; i++, n += 4)
			memcpy(in + n, "\xcc\x81\xcc\xa3", 4);
		for (i = 0; i < 20; i++, w += 2)
			memcpy(want + w, "\xcc\xa3", 2);
		for (i = 0; i < 20; i++, w += 2)
			memcpy(want + w, "\xcc\x81", 2);
	}
	check_form(__LINE__, "utf8_casefold", utf8_casefold, um, in, n,
		   want, w);

	/* 250 x U+0390: 500 bytes that fold to 1500. */
	for (i = n = w = 0; i < 250; i++) {
		memcpy(in + n, "\xce\x90", 2);
		n += 2;
		memcpy(want + w, "\xce\xb9\xcc\x88\xcc\x81", 6);
		w += 6;
	}
	check_form(__LINE__, "utf8_casefold", utf8_casefold, um, in, n,
		   want, w);
	/* The same fold from U+0399 U+0308 U+0301 (capital iota). */
	for (i = 0; i < 250; i++)
		memcpy(upper + 6 * i, "\xce\x99\xcc\x88\xcc\x81", 6);
	check_cmp(__LINE__, "utf8_strncasecmp", utf8_strncasecmp, um, in, n,
		  upper, 1500, 0);
	check_cmp(__LINE__, "utf8_strncasecmp", utf8_strncasecmp, um, in, n,
		  upper, 1494, 1);
	check_cmp(__LINE__, "utf8_strncmp", utf8_strncmp, um, in, n, upper,
		  1500, 1);
	q.name = (const unsigned char *)want;
	q.len = w;
	q2.name = (const unsigned char *)upper;
	q2.len = 1500;
	CHECK_INT(utf8_strncasecmp_folded(um, &q, &q2), 0);
	q.len = w - 1;
	CHECK_INT(utf8_strncasecmp_folded(um, &q, &q2), 1);
	q2.len = n;
	q2.name = (const unsigned char *)in;
	CHECK_INT(utf8_strncasecmp_folded(um, &q, &q2), 1);
	q.len = w;
	CHECK_INT(utf8_strncasecmp_folded(um, &q, &q2), 0);
	CHECK_INT(utf8_casefold_hash(um, NULL, &q2, &h1), 0);
	q2.name = (const unsigned char *)upper;
	q2.len = 1500;
	CHECK_INT(utf8_casefold_hash(um, NULL, &q2, &h2), 0);
	CHECK_INT(h1, h2);
	/* A long one that turns invalid at its very end. */
	upper[1500] = '\xff';
	q2.len = 1501;
	CHECK_INT(utf8_casefold_hash(um, NULL, &q2, &h2), -EINVAL);
	CHECK_INT(utf8_strncasecmp(um, &q2, &q2), -EINVAL);
	r = utf8_casefold(um, &q2, dest, sizeof(dest));
	CHECK_INT(r, -EINVAL);
	CHECK_INT(utf8_validate(um, &q2), -1);
}

/*
 * doc/kernel-facts.md, "Quirks of fs/unicode": stray continuation bytes,
 * NUL, a bad start.
 */
static void test_quirks(const struct unicode_map *um)
{
	FOLD(um, "A\x80", "a\x80");
	NORM(um, "A\x80", "A\x80");
	NOT_VALID(um, "A\x80");
	FOLD(um, "\xc3\xa9\x80", "e\x80\xcc\x81\x80");
	NORM(um, "\xc3\xa9\x80", "e\x80\xcc\x81\x80");
	NOT_VALID(um, "\xc3\xa9\x80");
	/* A stray byte in a run of two classes: once per pass. */
	NORM(um, "a\xcc\x81\x80\xcc\xa3", "a\x80\x80\xcc\xa3\xcc\x81\x80");
	/* Folding accepts it, so the comparisons do too. */
	CASECMP(um, "A\x80", "a\x80", 0);
	CASECMP(um, "A\x80", "a", 1);
	CMP(um, "A\x80", "A\x80", 0);

	/* An embedded NUL ends the string. */
	FOLD(um, "AB\0CD", "ab");
	NORM(um, "AB\0\xff", "AB");
	VALID(um, "ab\0\xff");
	CASECMP(um, "ab\0x", "AB", 0);
	CASECMP(um, "ab\0x", "ab\0y", 0);

	/* A leading continuation byte: invalid everywhere. */
	FOLD_INVALID(um, "\x80");
	FOLD_INVALID(um, "\x80" "abc");
	NORM_INVALID(um, "\xbf" "a");
	NOT_VALID(um, "\x80");
	CASECMP(um, "\x80", "\x80", -EINVAL);
	CASECMP(um, "\x80", "a", -EINVAL);
	CMP(um, "\x80", "\x80", -EINVAL);

	/* Invalid UTF-8 of every kind. */
	FOLD_INVALID(um, "\xc0\xaf");			/* overlong '/' */
	FOLD_INVALID(um, "\xe0\x80\xaf");		/* overlong, 3 bytes */
	FOLD_INVALID(um, "a\xed\xa0\x80");		/* surrogate U+D800 */
	FOLD_INVALID(um, "\xf4\x90\x80\x80");		/* U+110000 */
	FOLD_INVALID(um, "\xf5\x80\x80\x80");
	FOLD_INVALID(um, "a\xff");
	FOLD_INVALID(um, "a\xfe");
	FOLD_INVALID(um, "a\xc3");			/* truncated */
	FOLD_INVALID(um, "a\xe2\x82");
	FOLD_INVALID(um, "a\xc3" "b");
	NORM_INVALID(um, "a\xed\xbf\xbf");
	NOT_VALID(um, "\xc0\xaf");
	NOT_VALID(um, "a\xed\xa0\x80");
	NOT_VALID(um, "\xf4\x90\x80\x80");
	NOT_VALID(um, "a\xff");
	NOT_VALID(um, "a\xe2\x82");
	VALID(um, "");
	VALID(um, "abc");
	VALID(um, "caf\xc3\xa9");
	VALID(um, "\xed\x9f\xbf");			/* U+D7FF */
	VALID(um, "\xee\x80\x80");			/* U+E000 */
	/* Two invalid strings never compare equal. */
	CASECMP(um, "a\xff", "a\xff", -EINVAL);
	CMP(um, "a\xff", "a\xff", -EINVAL);
	/* The first difference decides, before an error further on. */
	CASECMP(um, "a", "b\xff", 1);
	CASECMP(um, "ab\xff", "AC", 1);
	CASECMP(um, "b\xff", "B", -EINVAL);
	CMP(um, "ab\xff", "ac", 1);
	CMP(um, "b\xff", "b", -EINVAL);
}

/* dlen must exceed the result's length (room for the NUL). */
static void check_sizes(int line, const char *name, form_fn fn,
			const struct unicode_map *um, const char *in,
			size_t inlen, const char *want, size_t wantlen)
{
	unsigned char dest[4096];
	struct qstr q = { (const unsigned char *)in, (unsigned int)inlen };
	char what[1200];
	size_t dlen, i;

	for (dlen = 0; dlen <= wantlen + 2; dlen++) {
		int n;

		memset(dest, 0xAA, sizeof(dest));
		n = fn(um, &q, dest, dlen);
		snprintf(what, sizeof(what), "%s, dlen %zu",
			 describe(name, um, in, inlen), dlen);
		if (dlen <= wantlen) {
			unit_check_long(__FILE__, line, what, n, -EINVAL);
		} else if (unit_check_long(__FILE__, line, what, n, wantlen)) {
			unit_check_bytes(__FILE__, line, what, dest, n, want,
					 wantlen);
			unit_check_long(__FILE__, line, what, dest[n], 0);
		}
		/* Never a byte past dlen, result or error. */
		for (i = dlen; i < dlen + 8; i++)
			if (dest[i] != 0xAA)
				break;
		unit_check_long(__FILE__, line, "first byte written past dlen",
				i, dlen + 8);
	}
}

#define SIZES(fn, um, in, want) \
	check_sizes(__LINE__, #fn, fn, um, L(in), L(want))

static void test_buffer_sizes(const struct unicode_map *um)
{
	SIZES(utf8_casefold, um, "README", "readme");
	SIZES(utf8_casefold, um, "", "");
	SIZES(utf8_casefold, um, "Stra\xc3\x9f" "e", "strasse");
	SIZES(utf8_normalize, um, "Stra\xc3\x9f" "e", "Stra\xc3\x9f" "e");
	SIZES(utf8_casefold, um, "\xed\x95\x9c\xea\xb5\xad",	/* 한국 */
	      "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab"
	      "\xe1\x84\x80\xe1\x85\xae\xe1\x86\xa8");
	SIZES(utf8_normalize, um, "caf\xc3\xa9", "cafe\xcc\x81");
	SIZES(utf8_casefold, um, "\xc3\xa9\x80", "e\x80\xcc\x81\x80");
	SIZES(utf8_casefold, um, "A\xe2\x80\x8b" "B", "ab");
	SIZES(utf8_casefold, um, "\xce\x90\xce\x90",
	      "\xce\xb9\xcc\x88\xcc\x81\xce\xb9\xcc\x88\xcc\x81");
}

/* Code points whose answer depends on the Unicode version. */
static void test_version_behaviour(void)
{
	struct unicode_map *u11 = load("1.1"), *u20 = load("2.0");
	struct unicode_map *u12 = load("12.1"), *u13 = load("13.0");
	struct unicode_map *u14 = load("14.0"), *u15 = load("15.0");
	struct unicode_map *u21 = load("2.1"), *u30 = load("3.0");
	struct unicode_map *u31 = load("3.1"), *u32 = load("3.2");
	struct unicode_map *u40 = load("4.0");
	struct unicode_map *u151 = load("15.1"), *u16 = load("16.0");
	struct unicode_map *u17 = load("17.0");

	/* U+180F: Default_Ignorable, assigned in 14.0. */
	FOLD(u15, "a\xe1\xa0\x8f" "b", "ab");
	FOLD(u14, "a\xe1\xa0\x8f" "b", "ab");
	FOLD(u12, "a\xe1\xa0\x8f" "b", "a\xe1\xa0\x8f" "b");
	NORM(u12, "a\xe1\xa0\x8f" "b", "a\xe1\xa0\x8f" "b");
	CASECMP(u12, "a\xe1\xa0\x8f" "b", "ab", 1);
	CASECMP(u15, "a\xe1\xa0\x8f" "b", "ab", 0);
	/* U+180B (3.0) is ignorable in every version that has it. */
	FOLD(u12, "a\xe1\xa0\x8b" "b", "ab");

	/* U+1E030 (15.0) is left alone before 15.0, and valid. */
	FOLD(u12, "\xf0\x9e\x80\xb0", "\xf0\x9e\x80\xb0");
	VALID(u12, "\xf0\x9e\x80\xb0");
	/* U+A7C7 (13.0) folds to U+A7C8 from 13.0 on. */
	FOLD(u12, "\xea\x9f\x87", "\xea\x9f\x87");
	FOLD(u13, "\xea\x9f\x87", "\xea\x9f\x88");
	CASECMP(u12, "\xea\x9f\x87", "\xea\x9f\x88", 1);
	CASECMP(u13, "\xea\x9f\x87", "\xea\x9f\x88", 0);
	/* U+2C2F (14.0) folds to U+2C5F from 14.0 on. */
	FOLD(u13, "\xe2\xb0\xaf", "\xe2\xb0\xaf");
	FOLD(u14, "\xe2\xb0\xaf", "\xe2\xb1\x9f");
	/* U+1C89 (16.0) folds to U+1C8A from 16.0 on. */
	FOLD(u151, "\xe1\xb2\x89", "\xe1\xb2\x89");
	FOLD(u16, "\xe1\xb2\x89", "\xe1\xb2\x8a");
	/* U+A7DC (16.0), a new capital whose small letter U+019B is 1.1's. */
	CASECMP(u151, "\xea\x9f\x9c", "\xc6\x9b", 1);
	CASECMP(u16, "\xea\x9f\x9c", "\xc6\x9b", 0);
	FOLD(u16, "\xc6\x9b", "\xc6\x9b");
	/* U+A7CE (17.0) folds to U+A7CF under 17.0 only. */
	FOLD(u16, "\xea\x9f\x8e", "\xea\x9f\x8e");
	FOLD(u17, "\xea\x9f\x8e", "\xea\x9f\x8f");
	CASECMP(u17, "\xea\x9f\x8e", "\xea\x9f\x8f", 0);
	/* U+105C9 (16.0) decomposes to U+105D2 U+0307 from 16.0 on. */
	NORM(u151, "\xf0\x90\x97\x89", "\xf0\x90\x97\x89");
	NORM(u16, "\xf0\x90\x97\x89", "\xf0\x90\x97\x92\xcc\x87");
	NORM(u17, "\xf0\x90\x97\x89", "\xf0\x90\x97\x92\xcc\x87");
	/* U+11938 (13.0) decomposes to U+11935 U+11930 from 13.0 on. */
	NORM(u12, "\xf0\x91\xa4\xb8", "\xf0\x91\xa4\xb8");
	NORM(u13, "\xf0\x91\xa4\xb8", "\xf0\x91\xa4\xb5\xf0\x91\xa4\xb0");
	/* U+1ABF (13.0, class 220) is a starter before 13.0: no reordering. */
	NORM(u12, "a\xcc\x81\xe1\xaa\xbf", "a\xcc\x81\xe1\xaa\xbf");
	NORM(u13, "a\xcc\x81\xe1\xaa\xbf", "a\xe1\xaa\xbf\xcc\x81");
	/*
	 * A mapping may hold a code point newer than the one mapped: U+0622
	 * (1.1) is U+0627 U+0653, and U+0653 (class 230) came in 3.0. Before
	 * 3.0 it is a starter, so U+0650 (class 32) after it stays after it.
	 */
	NORM(u21, "\xd8\xa2\xd9\x90", "\xd8\xa7\xd9\x93\xd9\x90");
	NORM(u30, "\xd8\xa2\xd9\x90", "\xd8\xa7\xd9\x90\xd9\x93");
	NORM(u12, "\xd8\xa2\xd9\x90", "\xd8\xa7\xd9\x90\xd9\x93");
	/* Hangul syllables arrived in 2.0; 1.1 leaves them alone. */
	FOLD(u11, "\xed\x95\x9c", "\xed\x95\x9c");
	NORM(u11, "\xea\xb0\x80", "\xea\xb0\x80");
	NORM(u20, "\xea\xb0\x80", "\xe1\x84\x80\xe1\x85\xa1");
	/* ...but 1.1 knows Latin: folding, decomposition, ordering. */
	FOLD(u11, "CAF\xc3\x89", "cafe\xcc\x81");
	NORM(u11, "a\xcc\x81\xcc\xa3", "a\xcc\xa3\xcc\x81");
	CASECMP(u11, "Stra\xc3\x9f" "e", "STRASSE", 0);

	/*
	 * NormalizationCorrections.txt: U+F951 mapped to U+96FB before 3.2.0
	 * and to U+964B since; U+2F868 (3.1) to U+2136A before 4.0.0 and to
	 * U+36FC since.
	 */
	STREAM(utf8nfdi(UNICODE_AGE(3, 1, 0)), "\xef\xa5\x91",
	       0xe9, 0x9b, 0xbb, 0);
	STREAM(utf8nfdi(UNICODE_AGE(3, 2, 0)), "\xef\xa5\x91",
	       0xe9, 0x99, 0x8b, 0);
	STREAM(utf8nfdicf(UNICODE_AGE(3, 0, 0)), "\xef\xa5\x91",
	       0xe9, 0x9b, 0xbb, 0);
	STREAM(utf8nfdi(UNICODE_AGE(15, 0, 0)), "\xef\xa5\x91",
	       0xe9, 0x99, 0x8b, 0);
	NORM(u31, "\xef\xa5\x91", "\xe9\x9b\xbb");
	NORM(u32, "\xef\xa5\x91", "\xe9\x99\x8b");
	NORM(u12, "\xef\xa5\x91", "\xe9\x99\x8b");
	NORM(u31, "\xf0\xaf\xa1\xa8", "\xf0\xa1\x8d\xaa");
	NORM(u32, "\xf0\xaf\xa1\xa8", "\xf0\xa1\x8d\xaa");
	NORM(u40, "\xf0\xaf\xa1\xa8", "\xe3\x9b\xbc");
	CASECMP(u31, "\xef\xa5\x91", "\xe9\x9b\xbb", 0);
	CASECMP(u32, "\xef\xa5\x91", "\xe9\x9b\xbb", 1);

	utf8_unload(u11);
	utf8_unload(u20);
	utf8_unload(u12);
	utf8_unload(u13);
	utf8_unload(u14);
	utf8_unload(u15);
	utf8_unload(u21);
	utf8_unload(u30);
	utf8_unload(u31);
	utf8_unload(u32);
	utf8_unload(u40);
	utf8_unload(u151);
	utf8_unload(u16);
	utf8_unload(u17);
}

/* ------------------------------------------------------------------ */

static void test_cursor(void)
{
	const struct utf8data *cf12 = utf8nfdicf(UNICODE_AGE(12, 1, 0));
	const struct utf8data *i12 = utf8nfdi(UNICODE_AGE(12, 1, 0));
	struct utf8cursor cur;
	int got[16];
	size_t n;

	CHECK_INT(utf8cursor(&cur, cf12, "\x80" "abc"), -1);
	CHECK_INT(utf8ncursor(&cur, cf12, "\xbf", 1), -1);
	CHECK_INT(utf8cursor(&cur, NULL, "abc"), -1);
	CHECK_INT(utf8ncursor(&cur, NULL, "abc", 3), -1);
	CHECK_INT(utf8cursor(&cur, cf12, NULL), -1);
	CHECK_INT(utf8ncursor(&cur, cf12, NULL, 3), -1);
	CHECK_INT(utf8cursor(&cur, utf8nfdicf(UNICODE_AGE(12, 2, 0)), "a"), -1);
	/* No byte to look at: nothing to refuse, an empty stream. */
	if (CHECK_INT(utf8ncursor(&cur, cf12, "\x80", 0), 0))
		CHECK_INT(utf8byte(&cur), 0);

	/* NUL-terminated, and the end stays the end. */
	if (CHECK_INT(utf8cursor(&cur, cf12, "Stra\xc3\x9f" "e"), 0)) {
		n = stream(&cur, got, 16);
		CHECK_INT(n, 8);
		CHECK_INT(got[0], 's');
		CHECK_INT(got[4], 's');
		CHECK_INT(got[5], 's');
		CHECK_INT(got[6], 'e');
		CHECK_INT(got[7], 0);
		CHECK_INT(utf8byte(&cur), 0);
	}
	STREAM(i12, "Stra\xc3\x9f" "e", 'S', 't', 'r', 'a', 0xc3, 0x9f, 'e', 0);
	/* utf8ncursor stops at len, or at a NUL before it. */
	STREAM(cf12, "ABCD", 'a', 'b', 'c', 'd', 0);
	check_stream(__LINE__, cf12, "ABCD", 2,
		     (const int[]){ 'a', 'b', 0 }, 3);
	STREAM(cf12, "AB\0CD", 'a', 'b', 0);
	/* Cut inside a character: the stream fails there. */
	check_stream(__LINE__, cf12, "a\xc3\xa9", 2,
		     (const int[]){ 'a', -1 }, 2);
	STREAM(cf12, "a\xc3", 'a', -1);
	STREAM(cf12, "ab\xff" "cd", 'a', 'b', -1);
	/* A decomposed character, then the byte after it. */
	STREAM(cf12, "\xc3\x89" "A", 'e', 0xcc, 0x81, 'a', 0);
	STREAM(cf12, "\xed\x95\x9c",
	       0xe1, 0x84, 0x92, 0xe1, 0x85, 0xa1, 0xe1, 0x86, 0xab, 0);
	STREAM(cf12, "A\x80", 'a', 0x80, 0);
	STREAM(cf12, "\xc3\xa9\x80", 'e', 0x80, 0xcc, 0x81, 0x80, 0);
	/* Ignorables vanish from the stream. */
	STREAM(cf12, "\xe2\x80\x8b" "a\xe2\x80\x8d", 'a', 0);
	/* Reordering inside a run, which an ignorable ends. */
	STREAM(i12, "a\xcc\x81\xcc\xa3" "b",
	       'a', 0xcc, 0xa3, 0xcc, 0x81, 'b', 0);
	STREAM(i12, "a\xcc\x81\xe2\x80\x8b\xcc\xa3",
	       'a', 0xcc, 0x81, 0xcc, 0xa3, 0);
	STREAM(cf12, "A\xcc\x81\xcc\xa3\xe2\x80\x8b\xcc\x81\xcc\xa3",
	       'a', 0xcc, 0xa3, 0xcc, 0x81, 0xcc, 0xa3, 0xcc, 0x81, 0);
	/* Under 1.1 the syllable is passed through. */
	STREAM(utf8nfdi(UNICODE_AGE(1, 1, 0)), "\xea\xb0\x80",
	       0xea, 0xb0, 0x80, 0);
}

static void check_len(int line, const struct utf8data *t, const char *s,
		      size_t len, long want)
{
	char what[256];

	snprintf(what, sizeof(what), "utf8nlen(\"%.*s\"..., %zu)",
		 (int)(len < 40 ? len : 40), s, len);
	unit_check_long(__FILE__, line, what, utf8nlen(t, s, len), want);
	/* utf8len is utf8nlen up to the NUL. */
	if (len == strlen(s))
		unit_check_long(__FILE__, line, "utf8len", utf8len(t, s), want);
}

#define LEN(t, s, want) check_len(__LINE__, t, L(s), want)

static void test_len(void)
{
	const struct utf8data *cf12 = utf8nfdicf(UNICODE_AGE(12, 1, 0));
	const struct utf8data *i12 = utf8nfdi(UNICODE_AGE(12, 1, 0));
	const struct utf8data *cf15 = utf8nfdicf(UNICODE_AGE(15, 0, 0));
	const struct utf8data *i11 = utf8nfdi(UNICODE_AGE(1, 1, 0));

	LEN(cf12, "", 0);
	LEN(cf12, "README", 6);
	LEN(cf12, "\xe1\xba\x9e", 2);		/* U+1E9E -> ss */
	LEN(i12, "\xe1\xba\x9e", 3);
	LEN(cf12, "caf\xc3\xa9", 6);
	LEN(i12, "caf\xc3\xa9", 6);
	LEN(cf12, "a\xe2\x80\x8b" "b", 2);
	LEN(cf12, "\xe2\x80\x8b", 0);
	LEN(cf12, "\xed\x95\x9c", 9);
	LEN(cf12, "\xea\xb0\x80", 6);
	LEN(i11, "\xea\xb0\x80", 3);
	LEN(cf12, "\xef\xac\x81", 2);
	LEN(i12, "\xef\xac\x81", 3);
	LEN(cf12, "\xce\x90", 6);
	LEN(cf12, "\xe1\xa0\x8f", 3);		/* U+180F under 12.1 */
	LEN(cf15, "\xe1\xa0\x8f", 0);
	/* Stray continuation bytes are invalid here, unlike when folding. */
	LEN(cf12, "A\x80", -1);
	LEN(cf12, "\x80", -1);
	LEN(cf12, "\xc3\xa9\x80", -1);
	LEN(cf12, "a\xff", -1);
	LEN(cf12, "\xed\xa0\x80", -1);
	check_len(__LINE__, cf12, "abc", 2, 2);
	check_len(__LINE__, cf12, "caf\xc3\xa9", 4, -1);	/* cut */
	check_len(__LINE__, cf12, "ab\0cd", 5, 2);
	check_len(__LINE__, cf12, "ab\0\xff", 4, 2);
	check_len(__LINE__, cf12, "\x80", 0, 0);
	CHECK_INT(utf8len(NULL, "abc"), -1);
	CHECK_INT(utf8nlen(NULL, "abc", 3), -1);
}

static void test_age(void)
{
	const struct utf8data *i15 = utf8nfdi(UNICODE_AGE(15, 0, 0));
	const struct utf8data *i60 = utf8nfdi(UNICODE_AGE(6, 0, 0));
	const struct utf8data *cf12 = utf8nfdicf(UNICODE_AGE(12, 1, 0));
	const struct utf8data *i11 = utf8nfdi(UNICODE_AGE(1, 1, 0));
	const char *grin = "a\xf0\x9f\x98\x80";	/* a U+1F600 (6.1) */

	CHECK_INT(utf8agemax(i15, grin), UNICODE_AGE(6, 1, 0));
	CHECK_INT(utf8agemin(i15, grin), UNICODE_AGE(1, 1, 0));
	CHECK_INT(utf8agemax(i15, "\xf0\x9f\x98\x80"), UNICODE_AGE(6, 1, 0));
	CHECK_INT(utf8agemin(i15, "\xf0\x9f\x98\x80"), UNICODE_AGE(6, 1, 0));
	/* Under 6.0 the emoji is not counted. */
	CHECK_INT(utf8agemax(i60, grin), UNICODE_AGE(1, 1, 0));
	CHECK_INT(utf8agemin(i60, grin), UNICODE_AGE(1, 1, 0));
	/* Nothing counted: max 0, min the table's version. */
	CHECK_INT(utf8agemax(i60, "\xf0\x9f\x98\x80"), 0);
	CHECK_INT(utf8agemin(i60, "\xf0\x9f\x98\x80"), UNICODE_AGE(6, 0, 0));
	CHECK_INT(utf8agemax(cf12, "\xf0\x9e\x80\xb0"), 0);	/* U+1E030 */
	CHECK_INT(utf8agemin(cf12, "\xf0\x9e\x80\xb0"), UNICODE_AGE(12, 1, 0));
	CHECK_INT(utf8agemax(cf12, ""), 0);
	CHECK_INT(utf8agemin(cf12, ""), UNICODE_AGE(12, 1, 0));
	/* Unassigned: age 0, counted. */
	CHECK_INT(utf8agemin(cf12, "a\xcd\xb8"), 0);	/* U+0378 */
	CHECK_INT(utf8agemax(cf12, "a\xcd\xb8"), UNICODE_AGE(1, 1, 0));
	/* Hangul: 2.0; Euro sign: 2.1; U+180F: 14.0. */
	CHECK_INT(utf8agemax(i15, "\xea\xb0\x80"), UNICODE_AGE(2, 0, 0));
	CHECK_INT(utf8agemax(i11, "\xea\xb0\x80"), 0);
	CHECK_INT(utf8agemin(i11, "\xea\xb0\x80"), UNICODE_AGE(1, 1, 0));
	CHECK_INT(utf8agemax(i15, "\xe2\x82\xac"), UNICODE_AGE(2, 1, 0));
	CHECK_INT(utf8agemax(i15, "a\xe1\xa0\x8f\xe2\x82\xac"),
		  UNICODE_AGE(14, 0, 0));
	CHECK_INT(utf8agemax(cf12, "a\xe1\xa0\x8f\xe2\x82\xac"),
		  UNICODE_AGE(2, 1, 0));
	/* Bounded by len, and by a NUL. */
	CHECK_INT(utf8nagemax(i15, grin, 1), UNICODE_AGE(1, 1, 0));
	CHECK_INT(utf8nagemax(i15, grin, 5), UNICODE_AGE(6, 1, 0));
	CHECK_INT(utf8nagemin(i15, grin + 1, 4), UNICODE_AGE(6, 1, 0));
	CHECK_INT(utf8nagemin(i15, grin + 1, 0), UNICODE_AGE(15, 0, 0));
	CHECK_INT(utf8nagemax(i15, "a\0\xf0\x9f\x98\x80", 6),
		  UNICODE_AGE(1, 1, 0));
	/* Invalid: -1. */
	CHECK_INT(utf8nagemax(i15, grin, 3), -1);	/* cut */
	CHECK_INT(utf8nagemin(i15, grin, 2), -1);
	CHECK_INT(utf8agemax(i15, "a\xff"), -1);
	CHECK_INT(utf8agemin(i15, "a\xff"), -1);
	CHECK_INT(utf8agemax(i15, "A\x80"), -1);
	CHECK_INT(utf8agemin(i15, "\xed\xa0\x80"), -1);
	CHECK_INT(utf8agemax(NULL, "a"), -1);
	CHECK_INT(utf8agemin(NULL, "a"), -1);
	CHECK_INT(utf8nagemax(NULL, "a", 1), -1);
	CHECK_INT(utf8nagemin(NULL, "a", 1), -1);
}

/* ------------------------------------------------------------------ */

static void test_casefold_folded(const struct unicode_map *um)
{
	static const char cf[] = "strasse";
	struct qstr qcf = { (const unsigned char *)cf, 7 };
	struct qstr s;

#define FOLDED(str, want) do { \
	s.name = (const unsigned char *)(str); \
	s.len = sizeof(str) - 1; \
	if (!CHECK_INT(utf8_strncasecmp_folded(um, &qcf, &s), want)) \
		fprintf(stderr, "  (cf \"%.*s\", s1 %s)\n", (int)qcf.len, \
			(const char *)qcf.name, #str); \
} while (0)
	FOLDED("STRASSE", 0);
	FOLDED("strasse", 0);
	FOLDED("Stra\xc3\x9f" "e", 0);
	FOLDED("stra\xe1\xba\x9e" "e", 0);
	FOLDED("STRAS\xe2\x80\x8bSE", 0);
	FOLDED("strasse2", 1);
	FOLDED("strass", 1);
	FOLDED("", 1);
	FOLDED("\x80", -EINVAL);
	FOLDED("s\xff", -EINVAL);		/* agrees with cf until the error */
	FOLDED("t\xff", 1);			/* differs before it */
	FOLDED("strasse\0tail", 0);
	/* cf may be exactly len bytes, without a NUL. */
	qcf.len = 4;				/* "stra" */
	FOLDED("STRA", 0);
	FOLDED("STRAS", 1);
	/* An empty cf. */
	qcf.len = 0;
	FOLDED("", 0);
	FOLDED("\xe2\x80\x8b", 0);
	FOLDED("a", 1);
#undef FOLDED
	/* No map: an error, never an answer. */
	s.name = (const unsigned char *)"a";
	s.len = 1;
	CHECK_INT(utf8_strncasecmp_folded(NULL, &qcf, &s), -EINVAL);
	CHECK_INT(utf8_strncasecmp(NULL, &s, &s), -EINVAL);
	CHECK_INT(utf8_strncmp(NULL, &s, &s), -EINVAL);
}

/* The kernel's name hash over bytes, computed here from its formula. */
static unsigned int expected_name_hash(unsigned long salt, const char *s,
				       size_t len)
{
	unsigned long hash = salt;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned long c = (unsigned char)s[i];

		hash = (hash + (c << 4) + (c >> 4)) * 11;
	}
	return (unsigned int)((hash * 0x61C8864680B583EBull) >> 32);
}

static void check_name_hash(int line, const struct unicode_map *um,
			    unsigned long salt, const char *s, size_t len,
			    const char *folded, size_t flen)
{
	struct qstr q = { (const unsigned char *)s, (unsigned int)len };
	unsigned int h = 0xdeadbeef;
	const char *what = describe("utf8_casefold_hash", um, s, len);

	if (unit_check_long(__FILE__, line, what,
			    utf8_casefold_hash(um, (const void *)salt, &q, &h),
			    0))
		unit_check_long(__FILE__, line, what, h,
				expected_name_hash(salt, folded, flen));
}

#define NAME_HASH(um, salt, s, folded) \
	check_name_hash(__LINE__, um, salt, L(s), L(folded))

static void test_name_hash(const struct unicode_map *um)
{
	struct qstr q;
	unsigned int h = 0x12345678;

	NAME_HASH(um, 0, "README", "readme");
	NAME_HASH(um, 0, "", "");
	NAME_HASH(um, 0x1234, "README", "readme");
	NAME_HASH(um, 0xffff888012345678ul, "Stra\xc3\x9f" "e", "strasse");
	NAME_HASH(um, 0xffff888012345678ul, "STRASSE", "strasse");
	NAME_HASH(um, 7, "CAF\xc3\x89", "cafe\xcc\x81");
	NAME_HASH(um, 7, "\xed\x95\x9c", "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab");
	NAME_HASH(um, 7, "A\x80", "a\x80");		/* folds, so hashes */
	NAME_HASH(um, 7, "a\xe2\x80\x8b" "b", "ab");
	/* The hand formula really depends on the salt and the bytes. */
	CHECK(expected_name_hash(0, "a", 1) != expected_name_hash(1, "a", 1));
	CHECK(expected_name_hash(0, "a", 1) != expected_name_hash(0, "b", 1));

	q.name = (const unsigned char *)"a\xff";
	q.len = 2;
	CHECK_INT(utf8_casefold_hash(um, NULL, &q, &h), -EINVAL);
	CHECK_INT(h, 0x12345678);		/* untouched on error */
	q.name = (const unsigned char *)"\x80";
	q.len = 1;
	CHECK_INT(utf8_casefold_hash(um, NULL, &q, &h), -EINVAL);
	q.name = (const unsigned char *)"a";
	CHECK_INT(utf8_casefold_hash(NULL, NULL, &q, &h), -EINVAL);
}

/* ------------------------------------------------------------------ */

static void check_parse(int line, const char *list, errcode_t want_ret,
			unsigned int want_flags, const char *want_bad)
{
	__u16 flags = 0xBEEF, cleared;
	char *bad = (char *)"not set";
	char what[128];
	errcode_t ret = e2fold_parse_encoding_flags(list, &flags, &cleared,
						    &bad);

	snprintf(what, sizeof(what), "e2fold_parse_encoding_flags(\"%s\")",
		 list);
	unit_check_long(__FILE__, line, what, ret, want_ret);
	if (!want_ret) {
		unit_check_long(__FILE__, line, what, flags, want_flags);
		unit_check_long(__FILE__, line, "ret_bad is NULL", bad == NULL,
				1);
		return;
	}
	if (unit_check_long(__FILE__, line, "ret_bad is set",
			    bad != NULL && strcmp(bad, "not set"), 1))
		unit_check_bytes(__FILE__, line, "ret_bad", bad, strlen(bad),
				 want_bad, strlen(want_bad));
	if (bad && strcmp(bad, "not set"))
		free(bad);
}

static void check_format(int line, unsigned int flags, const char *want)
{
	char buf[128], what[64];
	char *ret;

	memset(buf, 'x', sizeof(buf));
	ret = e2fold_format_encoding_flags(flags, buf, sizeof(buf));
	snprintf(what, sizeof(what), "e2fold_format_encoding_flags(0x%04x)",
		 flags);
	unit_check_long(__FILE__, line, "returns buf", ret == buf, 1);
	unit_check_bytes(__FILE__, line, what, buf, strnlen(buf, sizeof(buf)),
			 want, strlen(want));
}

static void test_encoding_names(void)
{
	const struct e2fold_encoding *enc = e2fold_encoding_by_magic(1);
	struct unicode_map *um;
	char small[12];

	if (CHECK(enc != NULL)) {
		CHECK_INT(enc->magic, E2FOLD_ENC_UTF8_12_1);
		CHECK_STR(enc->name, "utf8-12.1");
		CHECK_STR(enc->unicode, "12.1.0");
	}
	CHECK_INT(E2FOLD_ENC_UTF8_12_1, EXT4_ENC_UTF8_12_1);
	CHECK_INT(E2FOLD_CASEFOLD_FL, EXT4_CASEFOLD_FL);
	CHECK(e2fold_encoding_by_magic(0) == NULL);
	CHECK(e2fold_encoding_by_magic(2) == NULL);
	CHECK(e2fold_encoding_by_magic(-1) == NULL);
	CHECK(e2fold_encoding_by_magic(0x10001) == NULL);
	CHECK(e2fold_encoding_by_name("utf8") == enc);
	CHECK(e2fold_encoding_by_name("utf8-12.1") == enc);
	CHECK(e2fold_encoding_by_name("utf8-13.0") == NULL);
	CHECK(e2fold_encoding_by_name("utf8-12") == NULL);
	CHECK(e2fold_encoding_by_name("utf") == NULL);
	CHECK(e2fold_encoding_by_name("") == NULL);
	CHECK(e2fold_encoding_by_name("latin1") == NULL);

	um = e2fold_load_encoding(enc);
	if (CHECK(um != NULL))
		CHECK_INT(um->version, UNICODE_AGE(12, 1, 0));
	utf8_unload(um);
	errno = 0;
	CHECK(e2fold_load_encoding(NULL) == NULL);
	CHECK_INT(errno, EINVAL);

	check_parse(__LINE__, "strict", 0, E2FOLD_ENC_STRICT_FL, NULL);
	check_parse(__LINE__, "no_compat_fallback", 0,
		    E2FOLD_ENC_NO_COMPAT_FALLBACK_FL, NULL);
	check_parse(__LINE__, "hashonly", 0, E2FOLD_ENC_NO_COMPAT_FALLBACK_FL,
		    NULL);
	check_parse(__LINE__, "strict,no_compat_fallback", 0, 3, NULL);
	check_parse(__LINE__, "no_compat_fallback,strict", 0, 3, NULL);
	check_parse(__LINE__, "strict-hashonly", 0, 3, NULL);
	check_parse(__LINE__, "strict,strict", 0, 1, NULL);
	/* mke2fs's spellings: '-' between flags, "no" to clear one */
	check_parse(__LINE__, "strict-no_compat_fallback", 0, 3, NULL);
	check_parse(__LINE__, "strict+no_compat_fallback", 0, 3, NULL);
	check_parse(__LINE__, "strict-nostrict", 0, 0, NULL);
	check_parse(__LINE__, "nostrict", 0, 0, NULL);
	check_parse(__LINE__, "strict-nono_compat_fallback", 0, 1, NULL);
	check_parse(__LINE__, "none", 0, 0, NULL);
	check_parse(__LINE__, "strict-none", EINVAL, 0, "none");
	check_parse(__LINE__, "no", EINVAL, 0, "no");
	check_parse(__LINE__, "", 0, 0, NULL);
	check_parse(__LINE__, "bogus", EINVAL, 0, "bogus");
	check_parse(__LINE__, "strict,bogus", EINVAL, 0, "bogus");
	check_parse(__LINE__, "bogus-strict", EINVAL, 0, "bogus");
	check_parse(__LINE__, "Strict", EINVAL, 0, "Strict");
	check_parse(__LINE__, "stric", EINVAL, 0, "stric");
	check_parse(__LINE__, "strictly", EINVAL, 0, "strictly");

	check_format(__LINE__, 0, "");
	check_format(__LINE__, 1, "strict");
	check_format(__LINE__, 2, "no_compat_fallback");
	check_format(__LINE__, 3, "strict,no_compat_fallback");
	check_format(__LINE__, 4, "0x0004");
	check_format(__LINE__, 7, "strict,no_compat_fallback,0x0004");
	check_format(__LINE__, 0x8001, "strict,0x8000");
	check_format(__LINE__, 0x0300, "0x0100,0x0200");
	/* A short buffer is cut, still terminated, never overrun. */
	memset(small, 'x', sizeof(small));
	e2fold_format_encoding_flags(3, small, 8);
	CHECK_INT(strnlen(small, 8), 7);
	CHECK_BYTES(small, 7, "strict,", 7);
	CHECK_BYTES(small + 8, 4, "xxxx", 4);
}

/* One reference hash: libext2fs's algorithm over the given bytes. */
static void check_dirhash(int line, const struct unicode_map *um,
			  int version, const char *name, size_t len,
			  const __u32 *seed, const char *hashed, size_t hlen)
{
	ext2_dirhash_t h = 1, m = 1, wh = 2, wm = 2;
	const char *what = describe("e2fold_casefold_dirhash", um, name, len);
	errcode_t ret;

	CHECK_INT(ext2fs_dirhash(version, hashed, hlen, seed, &wh, &wm), 0);
	if (wh == 0xFFFFFFFE)
		wh = 0xFFFFFFFC;
	ret = e2fold_casefold_dirhash(um, version, (const unsigned char *)name,
				      len, seed, &h, &m);
	if (!unit_check_long(__FILE__, line, what, ret, 0))
		return;
	unit_check_long(__FILE__, line, what, h, wh);
	unit_check_long(__FILE__, line, what, m, wm);
}

#define DIRHASH(um, v, name, seed, hashed) \
	check_dirhash(__LINE__, um, v, L(name), seed, L(hashed))

static void test_dirhash(const struct unicode_map *um)
{
	static const __u32 seed[4] = { 0xe2a0a5d1, 0x6e4f0c3b, 0x2b5c719a,
				       0x371d4f8e };
	static char big[2000], raw_big[2000];
	struct struct_ext2_filsys fs;
	struct ext2_super_block sb;
	ext2_dirhash_t h1, h2, m;
	int v;

	for (v = EXT2_HASH_LEGACY; v <= EXT2_HASH_TEA_UNSIGNED; v++) {
		DIRHASH(um, v, "README", NULL, "readme");
		DIRHASH(um, v, "A", seed, "a");
		DIRHASH(um, v, "\xc3\x89", seed, "e\xcc\x81");
		DIRHASH(um, v, "README", seed, "readme");
		DIRHASH(um, v, "Stra\xc3\x9f" "e", seed, "strasse");
		DIRHASH(um, v, "\xed\x95\x9c", NULL,
			"\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab");
		DIRHASH(um, v, "\xef\xac\x81" "LE", seed, "file");
		DIRHASH(um, v, "CAF\xc3\x89", seed, "cafe\xcc\x81");
		/* Invalid: the raw bytes. */
		DIRHASH(um, v, "a\xff", seed, "a\xff");
		DIRHASH(um, v, "\x80" "ABC", NULL, "\x80" "ABC");
		DIRHASH(um, v, "A\xed\xa0\x80", seed, "A\xed\xa0\x80");
		/* A stray byte after a character folds, so it is folded. */
		DIRHASH(um, v, "A\x80", seed, "a\x80");
		/* No map: raw. */
		DIRHASH(NULL, v, "README", seed, "README");
		DIRHASH(um, v, "", seed, "");
	}
	/* The hash depends on the name's fold, the seed and the version. */
	CHECK_INT(e2fold_casefold_dirhash(um, 1, (const unsigned char *)"ab",
					  2, NULL, &h1, NULL), 0);
	CHECK_INT(e2fold_casefold_dirhash(um, 1, (const unsigned char *)"ab",
					  2, seed, &h2, &m), 0);
	CHECK(h1 != h2);
	CHECK_INT(e2fold_casefold_dirhash(um, 2, (const unsigned char *)"ab",
					  2, seed, &h1, &m), 0);
	CHECK(h1 != h2);
	/* Unsigned variants differ only on bytes >= 0x80. */
	e2fold_casefold_dirhash(um, 1, (const unsigned char *)"\xc3\xa9", 2,
				seed, &h1, &m);
	e2fold_casefold_dirhash(um, 4, (const unsigned char *)"\xc3\xa9", 2,
				seed, &h2, &m);
	CHECK(h1 != h2);
	/* SipHash (6) and unknown versions are refused. */
	CHECK_INT(e2fold_casefold_dirhash(um, EXT2_HASH_SIPHASH,
					  (const unsigned char *)"a", 1, NULL,
					  &h1, &m), EXT2_ET_DIRHASH_UNSUPP);
	CHECK_INT(e2fold_casefold_dirhash(um, 42, (const unsigned char *)"a",
					  1, NULL, &h1, &m),
		  EXT2_ET_DIRHASH_UNSUPP);
	/* A fold longer than the kernel's PATH_MAX buffer: raw bytes. */
	for (v = 0; v < 1000; v++) {
		memcpy(big + 2 * v, "\xce\x90", 2);	/* folds to 6 bytes */
		memcpy(raw_big + 2 * v, "\xce\x90", 2);
	}
	check_dirhash(__LINE__, um, 1, big, 2000, seed, raw_big, 2000);
	/*
	 * The buffer holds the fold and its NUL: 4095 bytes fold, 4096 do not.
	 * 682 x U+0390 fold to 4092 bytes; add "AAA" or "AAAA".
	 */
	{
		char name[1368], folded[4096];

		for (v = 0; v < 682; v++) {
			memcpy(name + 2 * v, "\xce\x90", 2);
			memcpy(folded + 6 * v, "\xce\xb9\xcc\x88\xcc\x81", 6);
		}
		memcpy(name + 1364, "AAAA", 4);
		memcpy(folded + 4092, "aaaa", 4);
		check_dirhash(__LINE__, um, 1, name, 1367, seed, folded, 4095);
		check_dirhash(__LINE__, um, 1, name, 1368, seed, name, 1368);
	}
	/* 600 of them fold to 3600 bytes, which fit. */
	{
		char folded[3600];

		for (v = 0; v < 600; v++)
			memcpy(folded + 6 * v, "\xce\xb9\xcc\x88\xcc\x81", 6);
		check_dirhash(__LINE__, um, 1, big, 1200, seed, folded, 3600);
	}

	/* The effective version: +3 for 0-2 with the unsigned flag only. */
	memset(&fs, 0, sizeof(fs));
	memset(&sb, 0, sizeof(sb));
	fs.super = &sb;
	for (v = 0; v <= 6; v++)
		CHECK_INT(e2fold_effective_hash_version(&fs, v), v);
	sb.s_flags = EXT2_FLAGS_SIGNED_HASH;
	for (v = 0; v <= 6; v++)
		CHECK_INT(e2fold_effective_hash_version(&fs, v), v);
	sb.s_flags = EXT2_FLAGS_UNSIGNED_HASH;
	CHECK_INT(e2fold_effective_hash_version(&fs, EXT2_HASH_LEGACY),
		  EXT2_HASH_LEGACY_UNSIGNED);
	CHECK_INT(e2fold_effective_hash_version(&fs, EXT2_HASH_HALF_MD4),
		  EXT2_HASH_HALF_MD4_UNSIGNED);
	CHECK_INT(e2fold_effective_hash_version(&fs, EXT2_HASH_TEA),
		  EXT2_HASH_TEA_UNSIGNED);
	CHECK_INT(e2fold_effective_hash_version(&fs, EXT2_HASH_TEA_UNSIGNED),
		  EXT2_HASH_TEA_UNSIGNED);
	CHECK_INT(e2fold_effective_hash_version(&fs, EXT2_HASH_SIPHASH),
		  EXT2_HASH_SIPHASH);
}

/* e2fold_key_dirhash: the hash of a key's bytes, as they are. */
static void check_key_dirhash(int line, const struct unicode_map *um,
			      int version, const char *name, size_t len,
			      const __u32 *seed)
{
	static struct e2fold_key key;
	ext2_dirhash_t h = 1, m = 1, wh = 2, wm = 2;
	const char *what = describe("e2fold_key_dirhash", um, name, len);

	e2fold_name_key(um, (const unsigned char *)name, len, &key);
	unit_check_long(__FILE__, line, "e2fold_casefold_dirhash",
			e2fold_casefold_dirhash(um, version,
						(const unsigned char *)name,
						len, seed, &wh, &wm), 0);
	if (!unit_check_long(__FILE__, line, what,
			     e2fold_key_dirhash(&key, version, seed, &h, &m),
			     0))
		return;
	unit_check_long(__FILE__, line, what, h, wh);
	unit_check_long(__FILE__, line, what, m, wm);
}

/*
 * e2fold_dirhash_keeping_ignorables: the hash of the fold that keeps
 * Default_Ignorable code points where they are; ENOENT when there is none
 * to keep or the name cannot be folded.
 */
static void check_keeping(int line, const struct unicode_map *um,
			  int version, const char *name, size_t len,
			  const __u32 *seed, const char *kept, long keptlen)
{
	ext2_dirhash_t h = 1, m = 1, wh = 2, wm = 2;
	const char *what = describe("e2fold_dirhash_keeping_ignorables", um,
				    name, len);
	errcode_t ret = e2fold_dirhash_keeping_ignorables(um, version,
			(const unsigned char *)name, len, seed, &h, &m);

	if (keptlen < 0) {
		unit_check_long(__FILE__, line, what, ret, ENOENT);
		return;
	}
	if (!unit_check_long(__FILE__, line, what, ret, 0))
		return;
	CHECK_INT(ext2fs_dirhash(version, kept, keptlen, seed, &wh, &wm), 0);
	if (wh == 0xFFFFFFFE)
		wh = 0xFFFFFFFC;
	unit_check_long(__FILE__, line, what, h, wh);
	unit_check_long(__FILE__, line, what, m, wm);
}

#define KEEPING(um, v, name, seed, kept) \
	check_keeping(__LINE__, um, v, L(name), seed, L(kept))
#define KEEPING_NONE(um, v, name, seed) \
	check_keeping(__LINE__, um, v, L(name), seed, NULL, -1)

static void test_key_and_ignorable_hashes(const struct unicode_map *um)
{
	static const __u32 seed[4] = { 0xe2a0a5d1, 0x6e4f0c3b, 0x2b5c719a,
				       0x371d4f8e };
	struct unicode_map *u15 = load("15.0");
	static struct e2fold_key key;
	ext2_dirhash_t h1, h2, m;
	int v;

	for (v = EXT2_HASH_LEGACY; v <= EXT2_HASH_TEA_UNSIGNED; v++) {
		check_key_dirhash(__LINE__, um, v, L("README"), seed);
		check_key_dirhash(__LINE__, um, v, L("Stra\xc3\x9f" "e"), NULL);
		check_key_dirhash(__LINE__, um, v, L("a\xff"), seed);
		check_key_dirhash(__LINE__, um, v, L("A\x80"), seed);

		KEEPING(um, v, "a\xe2\x80\x8d" "b", seed, "a\xe2\x80\x8d" "b");
		KEEPING(um, v, "A\xe2\x80\x8d" "B", NULL, "a\xe2\x80\x8d" "b");
		KEEPING(um, v, "\xe2\x9d\xa4\xef\xb8\x8f", seed,
			"\xe2\x9d\xa4\xef\xb8\x8f");
		KEEPING(um, v, "\xc3\x89\xe2\x80\x8b", seed,
			"e\xcc\x81\xe2\x80\x8b");
		/* An ignorable is a starter: no reordering across it. */
		KEEPING(um, v, "a\xcc\x81\xcd\x8f\xcc\xa3", seed,
			"a\xcc\x81\xcd\x8f\xcc\xa3");	/* U+034F */
		/* Unassigned ignorables are kept too. */
		KEEPING(um, v, "a\xe2\x81\xa5", seed, "a\xe2\x81\xa5");
		KEEPING_NONE(um, v, "README", seed);
		KEEPING_NONE(um, v, "", seed);
		KEEPING_NONE(um, v, "a\xe2\x80\x8d\xff", seed);	/* invalid */
		KEEPING_NONE(NULL, v, "a\xe2\x80\x8d" "b", seed);
		/* U+180F is not ignorable under 12.1, but is under 15.0. */
		KEEPING_NONE(um, v, "a\xe1\xa0\x8f", seed);
		KEEPING(u15, v, "A\xe1\xa0\x8f", seed, "a\xe1\xa0\x8f");
	}
	/* The key is hashed as it is, not folded again. */
	memset(&key, 0, sizeof(key));
	memcpy(key.bytes, "README", 6);
	key.len = 6;
	CHECK_INT(e2fold_key_dirhash(&key, 1, NULL, &h1, &m), 0);
	CHECK_INT(ext2fs_dirhash(1, "README", 6, NULL, &h2, &m), 0);
	CHECK_INT(h1, h2);
	CHECK_INT(e2fold_key_dirhash(&key, EXT2_HASH_SIPHASH, NULL, &h1, &m),
		  EXT2_ET_DIRHASH_UNSUPP);
	utf8_unload(u15);
}

int main(void)
{
	struct unicode_map *um12;

	test_versions();
	test_load();
	um12 = load("12.1");
	test_facts_12_1(um12);
	test_quirks(um12);
	test_long_strings(um12);
	test_buffer_sizes(um12);
	test_version_behaviour();
	test_cursor();
	test_len();
	test_age();
	test_casefold_folded(um12);
	test_name_hash(um12);
	test_encoding_names();
	test_dirhash(um12);
	test_key_and_ignorable_hashes(um12);
	utf8_unload(um12);
	return unit_done("u_utf8_api");
}
