/*
 * u_reference: the engine against the slow reference (reference.h) on
 * every code point, under every Unicode version the engine supports:
 * NFDi and NFDiCF (utf8_normalize, utf8_casefold), their lengths
 * (utf8nlen) and the ages (utf8nagemax, utf8nagemin). Under 12.1, ext4's
 * version, each code point is also checked between two non-starters of
 * different classes, which shows whether it ends a run and how its
 * mapping is ordered.
 *
 * The fuzzer (fuzz_engine.c) trusts the reference on strings only
 * because this test makes it agree with the engine on every code point.
 * Failures print as \u escapes with the version; the test keeps going.
 *
 * Data: $UCD_DIR, the UCD the reference reads (make check passes the
 * pinned copy, util/ucd). Versions up to the data's own are checked. The
 * data may be older than the engine's table: tests/u_ucd_history.sh runs
 * this against Unicode 15.0's files, proving that the table made from a
 * newer UCD answers every older version as that version's own data does.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "unicode.h"

#define NCP 0x110000
#define MAX_PRINT 20	/* failures printed per version */

static unsigned long checks, failures, printed;

/* Print bytes of valid UTF-8 as \uXXXX escapes (bad bytes as \xHH). */
static void print_escaped(const unsigned char *s, size_t len)
{
	while (len) {
		uint32_t cp;
		unsigned int n = ref_decode(s, len, &cp);

		if (!n) {
			fprintf(stderr, "\\x%02X", *s);
			n = 1;
		} else {
			fprintf(stderr, cp > 0xFFFF ? "\\U%06X" : "\\u%04X", cp);
		}
		s += n;
		len -= n;
	}
}

static void fail(unsigned int age, const char *what, const unsigned char *in,
		 size_t in_len, const unsigned char *got, long got_len,
		 const unsigned char *want, long want_len)
{
	failures++;
	if (printed++ >= MAX_PRINT)
		return;
	fprintf(stderr, "FAIL %s under %u.%u.%u: ", what, unicode_major(age),
		unicode_minor(age), unicode_rev(age));
	print_escaped(in, in_len);
	fprintf(stderr, "\n  got  ");
	if (got)
		print_escaped(got, got_len);
	else
		fprintf(stderr, "%ld", got_len);
	fprintf(stderr, "\n  want ");
	if (want)
		print_escaped(want, want_len);
	else
		fprintf(stderr, "%ld", want_len);
	fputc('\n', stderr);
}

/* One form of one string: utf8_normalize/casefold and utf8nlen. */
static void check_form(const struct ref_ucd *u, const struct unicode_map *um,
		       int casefold, const unsigned char *s, size_t len)
{
	unsigned char got[256], *want;
	struct qstr q = { s, (unsigned int)len };
	size_t want_len;
	int n;
	ssize_t nl;

	checks++;
	if (ref_form(u, um->version, casefold, s, len, &want, &want_len)) {
		fail(um->version, "reference", s, len, NULL, 0, NULL, -1);
		return;
	}
	n = casefold ? utf8_casefold(um, &q, got, sizeof(got)) :
		       utf8_normalize(um, &q, got, sizeof(got));
	if (n < 0 || (size_t)n != want_len || memcmp(got, want, want_len))
		fail(um->version, casefold ? "utf8_casefold" : "utf8_normalize",
		     s, len, n < 0 ? NULL : got, n, want, want_len);
	nl = utf8nlen(um->ntab[casefold ? UTF8_NFDICF : UTF8_NFDI],
		      (const char *)s, len);
	if (nl != (ssize_t)want_len)
		fail(um->version, casefold ? "utf8nlen(nfdicf)" : "utf8nlen(nfdi)",
		     s, len, NULL, nl, NULL, want_len);
	free(want);
}

static void check_ages(const struct ref_ucd *u, const struct unicode_map *um,
		       const unsigned char *s, size_t len)
{
	const char *p = (const char *)s;
	long want;
	int got;

	checks++;
	got = utf8nagemax(um->ntab[UTF8_NFDI], p, len);
	want = ref_age_scan(u, um->version, 1, s, len);
	if (got != want)
		fail(um->version, "utf8nagemax", s, len, NULL, got, NULL, want);
	got = utf8nagemin(um->ntab[UTF8_NFDICF], p, len);
	want = ref_age_scan(u, um->version, 0, s, len);
	if (got != want)
		fail(um->version, "utf8nagemin", s, len, NULL, got, NULL, want);
}

/*
 * Whether the ages of cp can be compared. A code point the data does not
 * assign may be assigned in the engine's newer table: too new for um,
 * which leaves it out of utf8nagemin, where the data's 0 counts.
 */
static int ages_comparable(const struct ref_ucd *u, uint32_t cp)
{
	return ref_age(u, cp) || ref_data_age(u) >= utf8version_latest_age();
}

static void sweep(const struct ref_ucd *u, const struct unicode_map *um,
		  int with_context)
{
	unsigned char s[16];
	uint32_t cp;
	size_t n;

	for (cp = 0; cp < NCP; cp++) {
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		n = ref_encode(cp, s);
		check_form(u, um, 0, s, n);
		check_form(u, um, 1, s, n);
		if (ages_comparable(u, cp))
			check_ages(u, um, s, n);
		if (!with_context)
			continue;
		/* U+0301 (class 230), cp, U+0316 (class 220). */
		n = ref_encode(0x301, s);
		n += ref_encode(cp, s + n);
		n += ref_encode(0x316, s + n);
		check_form(u, um, 0, s, n);
		check_form(u, um, 1, s, n);
	}
}

/* The engine must hold the data's own version, and nothing older than it. */
static int data_fits_engine(const struct ref_ucd *u)
{
	unsigned int age = ref_data_age(u);

	printf("u_reference: data of Unicode %u.%u, engine table of %s\n",
	       unicode_major(age), unicode_minor(age), utf8version_latest());
	if (utf8version_is_supported(unicode_major(age), unicode_minor(age), 0))
		return 1;
	fprintf(stderr, "FAIL: the engine lacks the data's version %u.%u\n",
		unicode_major(age), unicode_minor(age));
	return 0;
}

int main(void)
{
	const char *dir = getenv("UCD_DIR");
	struct ref_ucd *u;
	unsigned int maj, min, rev, versions = 0;

	if (!dir || !*dir) {
		fprintf(stderr, "FATAL: UCD_DIR is not set (make check sets it)\n");
		return 99;
	}
	u = ref_load(dir);
	if (!u)
		return 99;
	if (!data_fits_engine(u))
		failures++;
	for (maj = 1; maj < 32; maj++) {
		for (min = 0; min < 10; min++) {
			for (rev = 0; rev < 4; rev++) {
				char v[32];
				struct unicode_map *um;
				unsigned long before = failures;

				if (!utf8version_is_supported(maj, min, rev) ||
				    UNICODE_AGE(maj, min, rev) > ref_data_age(u))
					continue;
				snprintf(v, sizeof(v), "%u.%u.%u", maj, min, rev);
				um = utf8_load(v);
				if (!um) {
					fprintf(stderr, "FAIL utf8_load(%s)\n", v);
					failures++;
					continue;
				}
				printed = 0;
				sweep(u, um, maj == 12 && min == 1);
				utf8_unload(um);
				versions++;
				printf("%s: %lu mismatches\n", v, failures - before);
			}
		}
	}
	ref_free(u);
	printf("u_reference: %u versions, %lu checks, %lu failed\n", versions,
	       checks, failures);
	return failures || !versions ? 1 : 0;
}
