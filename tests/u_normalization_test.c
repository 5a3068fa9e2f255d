/*
 * u_normalization_test FILE...: Unicode's NormalizationTest.txt files
 * against the NFDi form (utf8_normalize, utf8_strncmp). Each file is
 * checked under its own version (its first line names it,
 * "# NormalizationTest-16.0.0.txt") and every older one the engine
 * supports; one of the files must be of the engine's newest version.
 *
 * NFDi is NFD with every Default_Ignorable_Code_Point removed, so for a
 * test line c1;c2;c3;c4;c5 (source; NFC; NFD; NFKC; NFKD):
 *   NFDi(c1) == NFDi(c2) == NFDi(c3) == c3 without ignorables
 *   NFDi(c4) == NFDi(c5) == c5 without ignorables
 * Under version V a line is used when all its code points are assigned
 * at or before V (DerivedAge.txt): NFD is stable, so c3 and c5 are right
 * for every version their characters exist in, with one documented
 * exception, NormalizationCorrections.txt: before its version a
 * corrected character decomposes to its old mapping. The file's lines
 * for corrected characters are single code points; under older versions
 * their expected form is the old mapping, and the count of such lines is
 * printed. A corrected character met in any other shape fails the test
 * rather than being skipped.
 *
 * The file's second invariant is checked too: every code point not
 * listed in Part 1 is its own NFD. Under V that is every such code point
 * assigned at or before V, and also every code point not assigned at V,
 * which the engine leaves unchanged; in both cases minus the ignorables.
 * A code point is ignorable under V if DerivedCoreProperties.txt lists
 * it and it is assigned at or before V, or not assigned at all.
 *
 * Data: the ages, ignorables and corrections come from the UCD in
 * $UCD_DIR (make check passes the pinned util/ucd, of the engine's newest
 * version), which serve the older files too: a character's age,
 * ignorability and NFD do not change once it is assigned. The test files
 * are tests/data's, unpacked (tests/u_normalization_test.sh).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unicode.h"
#include "unit.h"
#include "utf8put.h"

#define NCP 0x110000
#define MAX_FIELD 64	/* code points in one column; the file has < 20 */
#define MAX_PRINT 30	/* failures printed per version */

static const char *ucd_dir;

static uint32_t cp_age[NCP];		/* UNICODE_AGE(); 0 = unassigned */
static unsigned char ignorable[NCP];	/* Default_Ignorable_Code_Point */
static unsigned char in_part1[NCP];

static unsigned int ages[64];
static int nages;

struct correction {
	uint32_t cp;
	uint32_t old_map[4];
	int old_len;
	unsigned int age;	/* the version that changed the mapping */
};
static struct correction corrections[16];
static int ncorrections;

struct test_line {
	unsigned long lineno;
	int len[5];
	uint32_t *cps[5];
	unsigned int maxage;	/* newest age of its code points */
	int unassigned;		/* a code point with no age at all */
};
static struct test_line *lines;
static size_t nlines, lines_cap;
static unsigned int file_age;	/* the version of the file being read */

static FILE *open_ucd(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", ucd_dir, name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "FATAL: cannot read %s: %s\n", path,
			strerror(errno));
		exit(99);
	}
	return f;
}

/* "MAJ.MIN" or "MAJ.MIN.REV" as UNICODE_AGE(); 0 if malformed. */
static unsigned int parse_age(const char *s)
{
	unsigned int maj, min, rev = 0;

	if (sscanf(s, "%u.%u.%u", &maj, &min, &rev) < 2)
		return 0;
	return UNICODE_AGE(maj, min, rev);
}

/* "XXXX" or "XXXX..YYYY" at the start of a line; 0 if it is not one. */
static int parse_range(const char *s, uint32_t *first, uint32_t *last)
{
	char *end;

	*first = strtoul(s, &end, 16);
	if (end == s)
		return 0;
	*last = *first;
	if (end[0] == '.' && end[1] == '.')
		*last = strtoul(end + 2, &end, 16);
	return *first <= *last && *last < NCP;
}

static void add_age(unsigned int age)
{
	int i;

	for (i = 0; i < nages; i++)
		if (ages[i] == age)
			return;
	for (i = nages; i > 0 && ages[i - 1] > age; i--)
		ages[i] = ages[i - 1];
	ages[i] = age;
	nages++;
}

static void read_ages(void)
{
	FILE *f = open_ucd("DerivedAge.txt");
	char line[512];

	while (fgets(line, sizeof(line), f)) {
		uint32_t first, last, cp;
		char *semi = strchr(line, ';');
		unsigned int age;

		if (line[0] == '#' || !semi || !parse_range(line, &first, &last))
			continue;
		age = parse_age(semi + 1 + strspn(semi + 1, " "));
		if (!age) {
			fprintf(stderr, "FATAL: DerivedAge.txt: bad line %s", line);
			exit(99);
		}
		add_age(age);
		for (cp = first; cp <= last; cp++)
			cp_age[cp] = age;
	}
	fclose(f);
}

static void read_ignorables(void)
{
	FILE *f = open_ucd("DerivedCoreProperties.txt");
	char line[512];
	unsigned long n = 0;

	while (fgets(line, sizeof(line), f)) {
		uint32_t first, last, cp;
		char *semi = strchr(line, ';');

		if (line[0] == '#' || !semi || !parse_range(line, &first, &last))
			continue;
		semi += 1 + strspn(semi + 1, " ");
		if (strncmp(semi, "Default_Ignorable_Code_Point", 28) ||
		    (semi[28] != ' ' && semi[28] != '#' && semi[28] != '\n'))
			continue;
		for (cp = first; cp <= last; cp++, n++)
			ignorable[cp] = 1;
	}
	fclose(f);
	if (n < 100) {
		fprintf(stderr, "FATAL: only %lu ignorables read\n", n);
		exit(99);
	}
}

/* F951;96FB;964B;3.2.0 # comment */
static void read_corrections(void)
{
	FILE *f = open_ucd("NormalizationCorrections.txt");
	char line[512];

	while (fgets(line, sizeof(line), f)) {
		struct correction *c = &corrections[ncorrections];
		char *field[4], *p = line, *end;
		int i;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		for (i = 0; i < 4; i++) {
			field[i] = p;
			p = strchr(p, ';');
			if (!p && i < 3)
				break;
			if (p)
				*p++ = '\0';
		}
		if (i < 4 || ncorrections == 16) {
			fprintf(stderr, "FATAL: NormalizationCorrections.txt: "
				"bad line\n");
			exit(99);
		}
		c->cp = strtoul(field[0], NULL, 16);
		for (p = field[1], c->old_len = 0; c->old_len < 4;) {
			uint32_t cp = strtoul(p, &end, 16);

			if (end == p)
				break;
			c->old_map[c->old_len++] = cp;
			p = end;
		}
		c->age = parse_age(field[3]);
		ncorrections++;
	}
	fclose(f);
}

static const struct correction *correction_of(uint32_t cp)
{
	int i;

	for (i = 0; i < ncorrections; i++)
		if (corrections[i].cp == cp)
			return &corrections[i];
	return NULL;
}

/* The version in the first line, "# NormalizationTest-16.0.0.txt". */
static unsigned int header_age(FILE *f, const char *path)
{
	char line[256];
	unsigned int maj, min, rev;
	char tail[8];

	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "# NormalizationTest-%u.%u.%u%7s", &maj, &min, &rev,
		   tail) != 4 || strcmp(tail, ".txt")) {
		fprintf(stderr, "FATAL: %s: no version in its first line\n",
			path);
		exit(99);
	}
	return UNICODE_AGE(maj, min, rev);
}

/* Forget the previous file's lines. */
static void free_tests(void)
{
	size_t i;
	int j;

	for (i = 0; i < nlines; i++)
		for (j = 0; j < 5; j++)
			free(lines[i].cps[j]);
	free(lines);
	lines = NULL;
	nlines = lines_cap = 0;
	memset(in_part1, 0, sizeof(in_part1));
}

/* One column: hex code points separated by spaces. */
static int parse_field(char *s, uint32_t *out)
{
	int n = 0;
	char *end;

	for (;;) {
		uint32_t cp = strtoul(s, &end, 16);

		if (end == s)
			return n;
		if (n == MAX_FIELD || cp >= NCP)
			return -1;
		out[n++] = cp;
		s = end;
	}
}

static void read_tests(const char *path)
{
	int part = -1;
	FILE *f = fopen(path, "r");
	char line[4096];
	unsigned long lineno = 1;

	if (!f) {
		fprintf(stderr, "FATAL: cannot read %s: %s\n", path,
			strerror(errno));
		exit(99);
	}
	free_tests();
	file_age = header_age(f, path);

	while (fgets(line, sizeof(line), f)) {
		struct test_line *t;
		char *p = line, *semi;
		int i;

		lineno++;
		if (line[0] == '@') {
			part = strncmp(line, "@Part1", 6) ? 0 : 1;
			continue;
		}
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (nlines == lines_cap) {
			lines_cap = lines_cap ? 2 * lines_cap : 32768;
			lines = realloc(lines, lines_cap * sizeof(*lines));
			if (!lines)
				exit(99);
		}
		t = &lines[nlines];
		memset(t, 0, sizeof(*t));
		t->lineno = lineno;
		t->maxage = 0;
		t->unassigned = 0;
		for (i = 0; i < 5; i++) {
			uint32_t buf[MAX_FIELD];
			int j;

			semi = strchr(p, ';');
			if (!semi)
				break;
			*semi = '\0';
			t->len[i] = parse_field(p, buf);
			if (t->len[i] <= 0)
				break;
			t->cps[i] = malloc(t->len[i] * sizeof(uint32_t));
			if (!t->cps[i])
				exit(99);
			memcpy(t->cps[i], buf, t->len[i] * sizeof(uint32_t));
			for (j = 0; j < t->len[i]; j++) {
				if (!cp_age[buf[j]])
					t->unassigned = 1;
				else if (cp_age[buf[j]] > t->maxage)
					t->maxage = cp_age[buf[j]];
			}
			p = semi + 1;
		}
		if (i < 5) {
			fprintf(stderr, "FATAL: %s line %lu is malformed\n",
				path, lineno);
			exit(99);
		}
		if (part == 1 && t->len[0] == 1)
			in_part1[t->cps[0][0]] = 1;
		nlines++;
	}
	if (ferror(f) || fclose(f) != 0) {
		fprintf(stderr, "FATAL: reading %s failed\n", path);
		exit(99);
	}
	if (nlines < 10000) {
		fprintf(stderr, "FATAL: %s: only %zu test lines read\n", path,
			nlines);
		exit(99);
	}
}

static int is_ignorable(uint32_t cp, unsigned int version)
{
	return ignorable[cp] && cp_age[cp] <= version;
}

static size_t encode(const uint32_t *cps, int n, unsigned char *out)
{
	size_t len = 0;
	int i;

	for (i = 0; i < n; i++)
		len += put_utf8(cps[i], out + len);
	return len;
}

/* The code points as NormalizationTest writes them, minus ignorables. */
static size_t encode_nfdi(const uint32_t *cps, int n, unsigned int version,
			  unsigned char *out)
{
	size_t len = 0;
	int i;

	for (i = 0; i < n; i++)
		if (!is_ignorable(cps[i], version))
			len += put_utf8(cps[i], out + len);
	return len;
}

/* UTF-8 bytes as \uXXXX escapes; anything undecodable as \xNN. */
static void print_escaped(FILE *f, const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned int c = s[i], n = 0, cp = 0, k;

		if (c < 0x80)
			n = 1, cp = c;
		else if ((c & 0xE0) == 0xC0)
			n = 2, cp = c & 0x1F;
		else if ((c & 0xF0) == 0xE0)
			n = 3, cp = c & 0x0F;
		else if ((c & 0xF8) == 0xF0)
			n = 4, cp = c & 0x07;
		for (k = 1; n && k < n; k++) {
			if (i + k >= len || (s[i + k] & 0xC0) != 0x80)
				n = 0;
			else
				cp = cp << 6 | (s[i + k] & 0x3F);
		}
		if (!n) {
			fprintf(f, "\\x%02X", c);
			i++;
			continue;
		}
		fprintf(f, cp > 0xFFFF ? "\\U%08X" : "\\u%04X", cp);
		i += n;
	}
}

struct version_stats {
	unsigned long lines, corrected, codepoints, checks, failures;
};

static void report(struct version_stats *st, unsigned int version,
		   unsigned long lineno, const char *what,
		   const unsigned char *in, size_t inlen,
		   const unsigned char *got, long gotlen,
		   const unsigned char *want, size_t wantlen)
{
	st->failures++;
	unit_failures++;
	if (st->failures > MAX_PRINT)
		return;
	fprintf(stderr, "FAIL %u.%u.%u ", unicode_major(version),
		unicode_minor(version), unicode_rev(version));
	if (lineno)
		fprintf(stderr, "line %lu ", lineno);
	fprintf(stderr, "%s(", what);
	print_escaped(stderr, in, inlen);
	fprintf(stderr, ") = ");
	if (gotlen < 0)
		fprintf(stderr, "error %ld", gotlen);
	else
		print_escaped(stderr, got, gotlen);
	fprintf(stderr, ", want ");
	print_escaped(stderr, want, wantlen);
	fputc('\n', stderr);
}

/* utf8_normalize(in) must be want. */
static void check_nfdi(struct version_stats *st,
		       const struct unicode_map *um, unsigned long lineno,
		       const char *column, const unsigned char *in,
		       size_t inlen, const unsigned char *want,
		       size_t wantlen)
{
	unsigned char got[1024];
	struct qstr q = { in, (unsigned int)inlen };
	int n = utf8_normalize(um, &q, got, sizeof(got));

	st->checks++;
	unit_checks++;
	if (n < 0 || (size_t)n != wantlen || memcmp(got, want, wantlen))
		report(st, um->version, lineno, column, in, inlen, got, n,
		       want, wantlen);
}

/* utf8_strncmp(a, b) must be 0. */
static void check_equal(struct version_stats *st,
			const struct unicode_map *um, unsigned long lineno,
			const char *what, const unsigned char *a, size_t alen,
			const unsigned char *b, size_t blen)
{
	struct qstr qa = { a, (unsigned int)alen }, qb = { b, (unsigned int)blen };
	int r = utf8_strncmp(um, &qa, &qb);

	st->checks++;
	unit_checks++;
	if (r == 0)
		return;
	st->failures++;
	unit_failures++;
	if (st->failures > MAX_PRINT)
		return;
	fprintf(stderr, "FAIL %u.%u.%u line %lu %s(", unicode_major(um->version),
		unicode_minor(um->version), unicode_rev(um->version), lineno,
		what);
	print_escaped(stderr, a, alen);
	fprintf(stderr, ", ");
	print_escaped(stderr, b, blen);
	fprintf(stderr, ") = %d, want 0\n", r);
}

/* The old mapping if column i is a corrected character older than V. */
static const struct correction *corrected_here(const struct test_line *t,
					       int i, unsigned int version)
{
	const struct correction *c;
	int j;

	for (j = 0; j < t->len[i]; j++) {
		c = correction_of(t->cps[i][j]);
		if (!c || version >= c->age)
			continue;
		if (t->len[i] == 1)
			return c;
		fprintf(stderr, "FAIL line %lu: corrected U+%04X inside a "
			"sequence: this test cannot tell its NFD before %u.%u\n",
			t->lineno, c->cp, unicode_major(c->age),
			unicode_minor(c->age));
		unit_failures++;
	}
	return NULL;
}

static void check_line(struct version_stats *st, const struct unicode_map *um,
		       const struct test_line *t)
{
	static const char *const names[5] = { "NFDi(c1)", "NFDi(c2)",
					      "NFDi(c3)", "NFDi(c4)",
					      "NFDi(c5)" };
	unsigned char in[5][MAX_FIELD * 4], want[5][MAX_FIELD * 4];
	size_t inlen[5], wantlen[5];
	int i, corrected = 0;

	for (i = 0; i < 5; i++) {
		/* c1..c3 have the NFD c3; c4 and c5 the NFD c5. */
		int from = i < 3 ? 2 : 4;
		const struct correction *c = corrected_here(t, i, um->version);

		inlen[i] = encode(t->cps[i], t->len[i], in[i]);
		if (c) {
			wantlen[i] = encode_nfdi(c->old_map, c->old_len,
						 um->version, want[i]);
			corrected = 1;
		} else {
			wantlen[i] = encode_nfdi(t->cps[from], t->len[from],
						 um->version, want[i]);
		}
		check_nfdi(st, um, t->lineno, names[i], in[i], inlen[i],
			   want[i], wantlen[i]);
	}
	st->lines++;
	st->corrected += corrected;
	if (corrected)
		return;
	check_equal(st, um, t->lineno, "utf8_strncmp(c1, c3)", in[0],
		    inlen[0], in[2], inlen[2]);
	check_equal(st, um, t->lineno, "utf8_strncmp(c2, c3)", in[1],
		    inlen[1], in[2], inlen[2]);
	check_equal(st, um, t->lineno, "utf8_strncmp(c4, c5)", in[3],
		    inlen[3], in[4], inlen[4]);
}

/* Part 1's complement: each code point is its own NFD (minus ignorables). */
static void check_code_points(struct version_stats *st,
			      const struct unicode_map *um)
{
	uint32_t cp;

	for (cp = 1; cp < NCP; cp++) {
		unsigned char in[4], want[4];
		size_t inlen, wantlen;
		int known = cp_age[cp] && cp_age[cp] <= um->version;

		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		if (known && in_part1[cp])
			continue;	/* the test lines cover it */
		inlen = put_utf8(cp, in);
		wantlen = is_ignorable(cp, um->version) ? 0 : inlen;
		memcpy(want, in, wantlen);
		check_nfdi(st, um, 0, "NFDi", in, inlen, want, wantlen);
		st->codepoints++;
	}
}

static void check_version(unsigned int version)
{
	struct version_stats st = { 0, 0, 0, 0, 0 };
	struct unicode_map *um;
	char name[16];
	size_t i;

	snprintf(name, sizeof(name), "%u.%u.%u", unicode_major(version),
		 unicode_minor(version), unicode_rev(version));
	if (!CHECK_INT(utf8version_is_supported(unicode_major(version),
						unicode_minor(version),
						unicode_rev(version)), 1)) {
		fprintf(stderr, "FAIL: DerivedAge.txt has %s, the engine "
			"does not support it\n", name);
		return;
	}
	um = utf8_load(name);
	if (!CHECK(um != NULL))
		return;
	for (i = 0; i < nlines; i++)
		if (!lines[i].unassigned && lines[i].maxage <= version)
			check_line(&st, um, &lines[i]);
	check_code_points(&st, um);
	if (st.failures > MAX_PRINT)
		fprintf(stderr, "... %lu more failures under %s\n",
			st.failures - MAX_PRINT, name);
	printf("%-7s %5lu lines (%lu with corrected mappings), %7lu code "
	       "points, %8lu checks, %lu failed\n", name, st.lines,
	       st.corrected, st.codepoints, st.checks, st.failures);
	utf8_unload(um);
}

/* Every version up to the file's own, which the engine must support. */
static void check_file(const char *path)
{
	int i;

	read_tests(path);
	printf("%s: Unicode %u.%u.%u, %zu test lines\n", path,
	       unicode_major(file_age), unicode_minor(file_age),
	       unicode_rev(file_age), nlines);
	if (!CHECK(file_age <= utf8version_latest_age()))
		fprintf(stderr, "  the file is newer than the engine's %s\n",
			utf8version_latest());
	for (i = 0; i < nages && ages[i] <= file_age; i++)
		check_version(ages[i]);
	if (!CHECK_INT(i > 0 ? ages[i - 1] : 0, file_age))
		fprintf(stderr, "  %s: its version is not one of DerivedAge.txt's\n",
			path);
}

int main(int argc, char **argv)
{
	int i, newest = 0;

	ucd_dir = getenv("UCD_DIR");
	if (!ucd_dir || !*ucd_dir || argc < 2) {
		fprintf(stderr, "usage: UCD_DIR=DIR %s NormalizationTest.txt...\n",
			argv[0]);
		return 99;
	}
	read_ages();
	read_ignorables();
	read_corrections();
	printf("UCD %s: %d Unicode versions, %d corrections\n", ucd_dir,
	       nages, ncorrections);

	/* The table covers exactly the versions of DerivedAge.txt. */
	CHECK(nages >= 20);
	CHECK_INT(ages[nages - 1], utf8version_latest_age());
	for (i = 1; i < argc; i++) {
		check_file(argv[i]);
		newest |= file_age == utf8version_latest_age();
	}
	if (!CHECK(newest))
		fprintf(stderr, "  no NormalizationTest.txt of the newest "
			"version, %s\n", utf8version_latest());
	free_tests();
	return unit_done("u_normalization_test");
}
