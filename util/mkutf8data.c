/*
 * mkutf8data: generate lib/ext2fs/utf8data.h from the Unicode Character
 * Database.
 *
 *   mkutf8data -u UCD_DIR -s SHA256SUMS -o OUTPUT
 *
 * UCD_DIR holds the UCD text files (the build passes the copy pinned in
 * util/ucd, unpacked into the build tree and checked against its
 * SHA256SUMS); SHA256SUMS is `sha256sum` output for the files read,
 * recorded in the banner so that a reader can tell which data a committed
 * table came from. The output is written to a temporary file
 * and renamed, so an interrupted run never leaves a half table behind.
 * Any input line that cannot be understood, and any property of the result
 * that the runtime relies on but cannot be verified, is a fatal error.
 *
 * What the tables mean is the kernel's fs/unicode definition:
 *   - NFDi: full canonical decomposition (compatibility mappings are not
 *     used) with every Default_Ignorable_Code_Point mapped to nothing;
 *   - NFDiCF: the same, starting from the C+F case folding of a code point
 *     where CaseFolding.txt has one; mappings are expanded until no code
 *     point in them has a mapping of its own;
 *   - Hangul syllables decompose algorithmically (runtime);
 *   - a code point's age decides whether a table version may touch it;
 *   - NormalizationCorrections.txt restores the old (erroneous) mapping of
 *     a few code points for versions older than the correction.
 * The steps below apply these rules in the kernel's order, because the
 * order decides overlaps (an ignorable code point's case folding, for
 * instance, is overridden by its removal).
 *
 * The output format is documented in lib/ext2fs/utf8data.h's banner and in
 * lib/ext2fs/utf8table.h, which holds the definitions shared by this
 * generator and the runtime.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "utf8table.h"

#define NCODES 0x110000
#define MAXMAP 24		/* code points in one expanded mapping */
#define LINE_MAX_LEN 4096

static const char *prog = "mkutf8data";

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("out of memory");
	return p;
}

/* ------------------------------------------------------------------ */
/* Input files                                                          */

struct input {
	const char *name;	/* path relative to the UCD directory */
	FILE *file;
	unsigned int lineno;
	char line[LINE_MAX_LEN];
};

static const char *ucd_dir;

static void input_open(struct input *in, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", ucd_dir, name);
	in->name = name;
	in->lineno = 0;
	in->file = fopen(path, "r");
	if (!in->file)
		die("cannot open %s: %s", path, strerror(errno));
}

/*
 * Next data line with its comment removed; blank and comment-only lines
 * are skipped. The raw line (with comment) stays in in->line. Returns
 * NULL at the end of the file.
 */
static char *input_next(struct input *in, char *data, size_t size)
{
	while (fgets(in->line, sizeof(in->line), in->file)) {
		char *hash, *end;

		in->lineno++;
		if (!strchr(in->line, '\n') && !feof(in->file))
			die("%s:%u: line too long", in->name, in->lineno);
		snprintf(data, size, "%s", in->line);
		hash = strchr(data, '#');
		if (hash)
			*hash = '\0';
		end = data + strlen(data);
		while (end > data && (end[-1] == ' ' || end[-1] == '\t' ||
				      end[-1] == '\n' || end[-1] == '\r'))
			*--end = '\0';
		if (*data)
			return data;
	}
	if (ferror(in->file))
		die("%s: read error", in->name);
	return NULL;
}

static void input_fail(struct input *in, const char *what)
{
	die("%s:%u: %s: %s", in->name, in->lineno, what, in->line);
}

static void input_close(struct input *in)
{
	fclose(in->file);
}

/* Split s at ';' into at most max fields, trimming blanks. */
static int split_fields(char *s, char **fields, int max)
{
	int n = 0;

	for (;;) {
		char *semi = strchr(s, ';');
		char *end;

		if (n == max)
			return -1;
		if (semi)
			*semi = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		end = s + strlen(s);
		while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		fields[n++] = s;
		if (!semi)
			return n;
		s = semi + 1;
	}
}

/* Parse one hex code point; the whole string must be consumed. */
static int parse_code(const char *s, uint32_t *ret)
{
	char *end;
	unsigned long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtoul(s, &end, 16);
	if (errno || *end || v >= NCODES)
		return -1;
	*ret = v;
	return 0;
}

/* "XXXX" or "XXXX..YYYY" */
static int parse_range(char *s, uint32_t *first, uint32_t *last)
{
	char *dots = strstr(s, "..");

	if (!dots)
		return parse_code(s, first) ? -1 : (*last = *first, 0);
	*dots = '\0';
	if (parse_code(s, first) || parse_code(dots + 2, last) ||
	    *last < *first)
		return -1;
	return 0;
}

/* A space-separated list of hex code points, at most MAXMAP of them. */
static int parse_mapping(const char *s, uint32_t *map, int *count)
{
	int n = 0;

	while (*s) {
		char *end;
		unsigned long v;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		errno = 0;
		v = strtoul(s, &end, 16);
		if (errno || end == s || v >= NCODES || n == MAXMAP)
			return -1;
		if (*end && *end != ' ')
			return -1;
		map[n++] = v;
		s = end;
	}
	*count = n;
	return 0;
}

/* The version in a UCD file's first line, "# Name-15.0.0.txt". */
static unsigned int header_version(struct input *in)
{
	unsigned int maj, min, rev;
	char *dash;

	if (!fgets(in->line, sizeof(in->line), in->file))
		die("%s: empty file", in->name);
	in->lineno = 1;
	dash = strrchr(in->line, '-');
	if (in->line[0] != '#' || !dash ||
	    sscanf(dash, "-%u.%u.%u.txt", &maj, &min, &rev) != 3 ||
	    maj > 255 || min > 255 || rev > 255)
		input_fail(in, "no version in the header line");
	return UTF8_AGE_PACK(maj, min, rev);
}

/* ------------------------------------------------------------------ */
/* Per code point properties                                            */

/* A mapping: NULL pointer = none; count 0 = maps to nothing. */
struct mapping {
	int present;
	int count;
	uint32_t cp[MAXMAP];
};

struct code {
	int gen;		/* index into ages[]; 0 = unassigned */
	int ccc;
	int hangul;
	struct mapping nfdi;
	struct mapping nfdicf;
};

static struct code *codes;

static unsigned int ages[UTF8_MAXGEN + 1];	/* ages[0] = 0 */
static int ngens;				/* ages[1..ngens] */
static unsigned int ucd_version;

struct correction {
	uint32_t cp;
	unsigned int age;	/* version that corrected the mapping */
	struct mapping old;	/* the mapping before that version */
};

static struct correction corrections[UTF8_MAXCORR];
static int ncorrections;

static int is_surrogate(uint32_t cp)
{
	return cp >= 0xD800 && cp <= 0xDFFF;
}

static void check_version(struct input *in, unsigned int version)
{
	if (version != ucd_version)
		die("%s is from Unicode %u.%u.%u but DerivedAge.txt from %u.%u.%u",
		    in->name, UTF8_AGE_MAJ(version), UTF8_AGE_MIN(version),
		    UTF8_AGE_REV(version), UTF8_AGE_MAJ(ucd_version),
		    UTF8_AGE_MIN(ucd_version), UTF8_AGE_REV(ucd_version));
}

/*
 * DerivedAge.txt: sections "# Age=V1_1" in increasing order, each
 * followed by the code points first assigned in that version.
 */
static void read_ages(void)
{
	struct input in;
	char data[LINE_MAX_LEN];
	int assigned = 0;

	input_open(&in, "DerivedAge.txt");
	ucd_version = header_version(&in);
	while (fgets(in.line, sizeof(in.line), in.file)) {
		unsigned int maj, min, rev = 0;
		char *fields[3];
		uint32_t first, last, cp;
		int n;

		in.lineno++;
		if (sscanf(in.line, "# Age=V%u_%u_%u", &maj, &min, &rev) >= 2) {
			unsigned int age = UTF8_AGE_PACK(maj, min, rev);

			if (maj > 255 || min > 255 || rev > 255)
				input_fail(&in, "version out of range");
			if (ngens == UTF8_MAXGEN)
				input_fail(&in, "too many versions");
			if (ngens && age <= ages[ngens])
				input_fail(&in, "versions not in increasing order");
			ages[++ngens] = age;
			continue;
		}
		snprintf(data, sizeof(data), "%s", in.line);
		if (strchr(data, '#'))
			*strchr(data, '#') = '\0';
		if (strspn(data, " \t\r\n") == strlen(data))
			continue;
		n = split_fields(data, fields, 3);
		if (n != 2 || parse_range(fields[0], &first, &last) ||
		    sscanf(fields[1], "%u.%u", &maj, &min) != 2)
			input_fail(&in, "cannot parse");
		if (!ngens || UTF8_AGE_PACK(maj, min, 0) !=
		    (ages[ngens] & ~0xffu))
			input_fail(&in, "age does not match its section");
		for (cp = first; cp <= last; cp++) {
			if (codes[cp].gen)
				input_fail(&in, "code point listed twice");
			codes[cp].gen = ngens;
			assigned++;
		}
	}
	input_close(&in);
	if (ngens == 0 || assigned == 0)
		die("DerivedAge.txt: no ages found");
	if (ages[ngens] != ucd_version)
		die("DerivedAge.txt: newest age is not the file's version");
}

/* The compatibility tags of UnicodeData.txt; their mappings are unused. */
static int known_compat_tag(const char *tag, size_t len)
{
	static const char *const tags[] = {
		"font", "noBreak", "initial", "medial", "final", "isolated",
		"circle", "super", "sub", "vertical", "wide", "narrow",
		"small", "square", "fraction", "compat",
	};
	size_t i;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (strlen(tags[i]) == len && !strncmp(tags[i], tag, len))
			return 1;
	return 0;
}

/* UnicodeData.txt: combining classes and canonical mappings. */
static void read_unicode_data(void)
{
	struct input in;
	char data[LINE_MAX_LEN];
	uint32_t range_first = 0;
	int in_range = 0, mapped = 0;

	input_open(&in, "UnicodeData.txt");
	while (input_next(&in, data, sizeof(data))) {
		char *f[16];
		uint32_t cp;
		char *end;
		long ccc;
		size_t namelen;

		if (split_fields(data, f, 16) != 15 || parse_code(f[0], &cp))
			input_fail(&in, "cannot parse");
		errno = 0;
		ccc = strtol(f[3], &end, 10);
		if (errno || *end || ccc < 0 || ccc > UTF8_MAXCCC)
			input_fail(&in, "bad combining class");
		namelen = strlen(f[1]);
		if (namelen > 8 && !strcmp(f[1] + namelen - 8, ", First>")) {
			if (in_range || ccc || *f[5])
				input_fail(&in, "unexpected range start");
			in_range = 1;
			range_first = cp;
			continue;
		}
		if (namelen > 7 && !strcmp(f[1] + namelen - 7, ", Last>")) {
			if (!in_range || ccc || *f[5] || cp < range_first)
				input_fail(&in, "unexpected range end");
			in_range = 0;
			continue;
		}
		if (in_range)
			input_fail(&in, "range not closed");
		if (is_surrogate(cp))
			input_fail(&in, "surrogate with properties");
		codes[cp].ccc = ccc;
		if (*f[5] == '<') {
			char *close = strchr(f[5], '>');

			if (!close || !known_compat_tag(f[5] + 1, close - f[5] - 1))
				input_fail(&in, "unknown decomposition tag");
			continue;
		}
		if (*f[5]) {
			struct mapping *m = &codes[cp].nfdi;

			if (parse_mapping(f[5], m->cp, &m->count) || !m->count)
				input_fail(&in, "bad decomposition");
			m->present = 1;
			mapped++;
		}
	}
	input_close(&in);
	if (in_range || !mapped)
		die("UnicodeData.txt: incomplete");
}

/* CaseFolding.txt: statuses C and F are the full case folding. */
static void read_case_folding(void)
{
	struct input in;
	char data[LINE_MAX_LEN];
	int used = 0;

	input_open(&in, "CaseFolding.txt");
	check_version(&in, header_version(&in));
	while (input_next(&in, data, sizeof(data))) {
		char *f[5];
		uint32_t cp;
		struct mapping *m;

		if (split_fields(data, f, 5) != 4 || *f[3] ||
		    parse_code(f[0], &cp) || strlen(f[1]) != 1)
			input_fail(&in, "cannot parse");
		switch (f[1][0]) {
		case 'C':
		case 'F':
			break;
		case 'S':
		case 'T':
			continue;
		default:
			input_fail(&in, "unknown status");
		}
		m = &codes[cp].nfdicf;
		if (m->present)
			input_fail(&in, "second C/F mapping");
		if (parse_mapping(f[2], m->cp, &m->count) || !m->count)
			input_fail(&in, "bad mapping");
		m->present = 1;
		used++;
	}
	input_close(&in);
	if (!used)
		die("CaseFolding.txt: no C or F mappings");
}

/* DerivedCoreProperties.txt: Default_Ignorable_Code_Point maps to nothing. */
static void read_ignorables(void)
{
	struct input in;
	char data[LINE_MAX_LEN];
	int found = 0;

	input_open(&in, "DerivedCoreProperties.txt");
	check_version(&in, header_version(&in));
	while (input_next(&in, data, sizeof(data))) {
		char *f[4];
		uint32_t first, last, cp;
		int n = split_fields(data, f, 4);

		if (n < 2 || parse_range(f[0], &first, &last))
			input_fail(&in, "cannot parse");
		if (strcmp(f[1], "Default_Ignorable_Code_Point"))
			continue;
		if (n != 2)
			input_fail(&in, "unexpected field");
		for (cp = first; cp <= last; cp++) {
			if (is_surrogate(cp))
				input_fail(&in, "surrogate is ignorable");
			codes[cp].nfdi.present = 1;
			codes[cp].nfdi.count = 0;
			codes[cp].nfdicf.present = 1;
			codes[cp].nfdicf.count = 0;
			found++;
		}
	}
	input_close(&in);
	if (!found)
		die("DerivedCoreProperties.txt: no Default_Ignorable_Code_Point");
}

/*
 * NormalizationCorrections.txt: "code;original;corrected;version". The
 * original mapping is kept, unexpanded, for versions before the one that
 * corrected it; the corrected one is already in UnicodeData.txt.
 */
static void read_corrections(void)
{
	struct input in;
	char data[LINE_MAX_LEN];

	input_open(&in, "NormalizationCorrections.txt");
	check_version(&in, header_version(&in));
	while (input_next(&in, data, sizeof(data))) {
		char *f[5];
		struct correction *c;
		struct mapping corrected;
		unsigned int maj, min, rev;
		char extra;
		int i;

		if (split_fields(data, f, 5) != 4)
			input_fail(&in, "cannot parse");
		if (ncorrections == UTF8_MAXCORR)
			input_fail(&in, "too many corrections");
		c = &corrections[ncorrections];
		if (parse_code(f[0], &c->cp) ||
		    parse_mapping(f[1], c->old.cp, &c->old.count) ||
		    parse_mapping(f[2], corrected.cp, &corrected.count) ||
		    sscanf(f[3], "%u.%u.%u%c", &maj, &min, &rev, &extra) != 3)
			input_fail(&in, "cannot parse");
		c->old.present = 1;
		c->age = UTF8_AGE_PACK(maj, min, rev);
		/* The corrected mapping must be the one UnicodeData.txt has. */
		if (!codes[c->cp].nfdi.present ||
		    codes[c->cp].nfdi.count != corrected.count)
			input_fail(&in, "correction disagrees with UnicodeData.txt");
		for (i = 0; i < corrected.count; i++)
			if (codes[c->cp].nfdi.cp[i] != corrected.cp[i])
				input_fail(&in, "correction disagrees with UnicodeData.txt");
		if (codes[c->cp].nfdicf.present)
			input_fail(&in, "corrected code point also case folds");
		for (i = 1; i <= ngens && ages[i] != c->age; i++)
			;
		if (i > ngens)
			input_fail(&in, "correction in an unknown version");
		ncorrections++;
	}
	input_close(&in);
}

/* ------------------------------------------------------------------ */
/* Expansion                                                            */

static void hangul_mappings(void)
{
	uint32_t cp;

	for (cp = UTF8_HANGUL_FIRST; cp <= UTF8_HANGUL_LAST; cp++) {
		uint32_t s = cp - UTF8_HANGUL_FIRST;
		struct mapping m = { .present = 1 };

		if (codes[cp].nfdi.present || codes[cp].nfdicf.present)
			die("Hangul syllable U+%04X has a mapping in the data", cp);
		m.cp[m.count++] = UTF8_HANGUL_L + s / (UTF8_HANGUL_V_COUNT * UTF8_HANGUL_T_COUNT);
		m.cp[m.count++] = UTF8_HANGUL_V + (s % (UTF8_HANGUL_V_COUNT * UTF8_HANGUL_T_COUNT)) / UTF8_HANGUL_T_COUNT;
		if (s % UTF8_HANGUL_T_COUNT)
			m.cp[m.count++] = UTF8_HANGUL_T + s % UTF8_HANGUL_T_COUNT;
		codes[cp].nfdi = m;
		codes[cp].nfdicf = m;
		codes[cp].hangul = 1;
	}
}

/*
 * Replace every code point of *m that has a mapping in the same form by
 * that mapping, until none has one. Returns the number of rounds.
 */
static void expand(uint32_t cp, int casefold)
{
	struct mapping *m = casefold ? &codes[cp].nfdicf : &codes[cp].nfdi;
	int round;

	for (round = 0; round < 16; round++) {
		struct mapping out = { .present = 1 };
		int i, j, changed = 0;

		for (i = 0; i < m->count; i++) {
			uint32_t c = m->cp[i];
			struct mapping *sub = casefold ? &codes[c].nfdicf : &codes[c].nfdi;

			if (sub->present && c != cp) {
				for (j = 0; j < sub->count; j++) {
					if (out.count == MAXMAP)
						die("mapping of U+%04X too long", cp);
					out.cp[out.count++] = sub->cp[j];
				}
				changed = 1;
			} else if (sub->present) {
				die("U+%04X maps to itself", cp);
			} else {
				if (out.count == MAXMAP)
					die("mapping of U+%04X too long", cp);
				out.cp[out.count++] = c;
			}
		}
		*m = out;
		if (!changed)
			return;
	}
	die("mapping of U+%04X does not converge", cp);
}

static void expand_all(void)
{
	uint32_t cp;

	for (cp = 0; cp < NCODES; cp++) {
		if (!codes[cp].nfdi.present)
			continue;
		expand(cp, 0);
		/* A code point that does not case fold folds as it decomposes. */
		if (!codes[cp].nfdicf.present)
			codes[cp].nfdicf = codes[cp].nfdi;
	}
	for (cp = 0; cp < NCODES; cp++)
		if (codes[cp].nfdicf.present)
			expand(cp, 1);
}

/* ------------------------------------------------------------------ */
/* Encoding                                                             */

static int utf8_encode(uint32_t cp, unsigned char *out)
{
	if (cp < 0x80) {
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = 0xC0 | (cp >> 6);
		out[1] = 0x80 | (cp & 0x3F);
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = 0xE0 | (cp >> 12);
		out[1] = 0x80 | ((cp >> 6) & 0x3F);
		out[2] = 0x80 | (cp & 0x3F);
		return 3;
	}
	out[0] = 0xF0 | (cp >> 18);
	out[1] = 0x80 | ((cp >> 12) & 0x3F);
	out[2] = 0x80 | ((cp >> 6) & 0x3F);
	out[3] = 0x80 | (cp & 0x3F);
	return 4;
}

/* Are all code points of the mapping starters (combining class 0)? */
static int all_starters(const struct mapping *m)
{
	int i;

	for (i = 0; i < m->count; i++)
		if (codes[m->cp[i]].ccc)
			return 0;
	return 1;
}

/*
 * Does the mapping begin with a starter, with its non-starters in class
 * order? (Then nothing after a starter that follows it can move into it.)
 */
static int canonically_ordered(const struct mapping *m)
{
	int i;

	if (m->count == 0 || codes[m->cp[0]].ccc)
		return 0;
	for (i = 1; i < m->count; i++) {
		int prev = codes[m->cp[i - 1]].ccc, cur = codes[m->cp[i]].ccc;

		if (cur && prev > cur)
			return 0;
	}
	return 1;
}

/* The flag bits of a mapping's length byte. */
static int map_flags(const struct mapping *m)
{
	return (all_starters(m) ? UTF8_MAP_STARTERS : 0) |
	       (canonically_ordered(m) ? UTF8_MAP_ORDERED : 0);
}

/* Encode a mapping as UTF-8; returns the byte count. */
static int mapping_utf8(const struct mapping *m, unsigned char *out)
{
	int i, n = 0;

	for (i = 0; i < m->count; i++)
		n += utf8_encode(m->cp[i], out + n);
	if (n > UTF8_MAXEXPANSION)
		die("expansion too long");
	return n;
}

/* The leaf blob: variable-length records, deduplicated. */
static unsigned char *blob;
static size_t blob_len, blob_cap;

/* Offset of rec[0..len) in the blob, appending it if new. */
static size_t blob_intern(const unsigned char *rec, size_t len)
{
	size_t off;

	for (off = 0; off + len <= blob_len; off++)
		if (!memcmp(blob + off, rec, len) &&
		    utf8_leaf_size(blob + off) == len)
			return off;
	if (blob_len + len > blob_cap) {
		blob_cap = blob_cap ? blob_cap * 2 : 65536;
		blob = realloc(blob, blob_cap);
		if (!blob)
			die("out of memory");
	}
	memcpy(blob + blob_len, rec, len);
	blob_len += len;
	return blob_len - len;
}

static int same_mapping(const struct mapping *a, const struct mapping *b)
{
	return a->present == b->present && a->count == b->count &&
	       !memcmp(a->cp, b->cp, a->count * sizeof(a->cp[0]));
}

static int is_correction(uint32_t cp)
{
	int i;

	for (i = 0; i < ncorrections; i++)
		if (corrections[i].cp == cp)
			return 1;
	return 0;
}

/* Trie value classes for plain non-starters: (ccc, gen) pairs. */
static uint8_t class_ccc[UTF8_MAXCLASS], class_gen[UTF8_MAXCLASS];
static int nclasses = 1;	/* class 0 = plain starter */

static int class_of(int ccc, int gen)
{
	int i;

	for (i = 1; i < nclasses; i++)
		if (class_ccc[i] == ccc && class_gen[i] == gen)
			return i;
	if (nclasses == UTF8_MAXCLASS)
		die("too many (combining class, age) pairs");
	class_ccc[nclasses] = ccc;
	class_gen[nclasses] = gen;
	return nclasses++;
}

/*
 * The trie value of every code point: 0 for a starter without mappings
 * (its age never matters: a too-new starter is left alone just the same),
 * a class for a non-starter without mappings, or UTF8_LEAF_BASE + the
 * offset of its leaf record.
 */
static uint16_t *values;

static void build_values(void)
{
	unsigned char rec[2 + 2 * (1 + UTF8_MAXEXPANSION)];
	uint32_t cp;

	values = xcalloc(NCODES, sizeof(*values));
	for (cp = 0; cp < NCODES; cp++) {
		struct code *c = &codes[cp];
		size_t len = 2, off;
		int n;

		if (is_surrogate(cp) || c->hangul)
			continue;	/* never looked up */
		if (!c->nfdi.present && !c->nfdicf.present) {
			values[cp] = c->ccc ? class_of(c->ccc, c->gen) : 0;
			continue;
		}
		rec[0] = c->gen;
		rec[1] = c->ccc;
		if (c->nfdi.present) {
			rec[0] |= UTF8_LEAF_NFDI;
			n = mapping_utf8(&c->nfdi, rec + len + 1);
			rec[len] = n | map_flags(&c->nfdi);
			len += 1 + n;
		}
		if (c->nfdicf.present && !same_mapping(&c->nfdi, &c->nfdicf)) {
			rec[0] |= UTF8_LEAF_NFDICF;
			n = mapping_utf8(&c->nfdicf, rec + len + 1);
			rec[len] = n | map_flags(&c->nfdicf);
			len += 1 + n;
		}
		if (is_correction(cp))
			rec[0] |= UTF8_LEAF_CORRECTED;
		off = blob_intern(rec, len);
		if (UTF8_LEAF_BASE + off > 0xFFFF)
			die("leaf blob too large for 16-bit offsets");
		values[cp] = UTF8_LEAF_BASE + off;
	}
}

/* ------------------------------------------------------------------ */
/* The three-stage trie                                                 */

struct trie {
	int shift3;		/* log2 of a stage-3 block */
	int shift2;		/* log2 of a stage-2 block */
	uint8_t *stage1;	/* one entry per 2^(shift2+shift3) code points */
	uint16_t *stage2;
	uint16_t *stage3;
	size_t n1, n2, n3;	/* entries */
	size_t bytes;
};

/* Index of block[0..n) in pool (appending it if new), in units of n. */
static size_t block_intern(uint16_t **pool, size_t *used, const uint16_t *block,
			   size_t n)
{
	size_t i;

	for (i = 0; i < *used; i += n)
		if (!memcmp(*pool + i, block, n * sizeof(*block)))
			return i / n;
	*pool = realloc(*pool, (*used + n) * sizeof(**pool));
	if (!*pool)
		die("out of memory");
	memcpy(*pool + *used, block, n * sizeof(*block));
	*used += n;
	return *used / n - 1;
}

static void trie_build(struct trie *t, int shift3, int shift2)
{
	size_t n3 = (size_t)1 << shift3, n2 = (size_t)1 << shift2;
	size_t nblocks3 = NCODES >> shift3, i;
	uint16_t *index3 = xcalloc(nblocks3, sizeof(*index3));
	uint16_t *pool2 = NULL;
	size_t used2 = 0;

	memset(t, 0, sizeof(*t));
	t->shift3 = shift3;
	t->shift2 = shift2;
	for (i = 0; i < nblocks3; i++) {
		size_t b = block_intern(&t->stage3, &t->n3, values + i * n3, n3);

		if (b > 0xFFFF)
			die("too many stage-3 blocks");
		index3[i] = b;
	}
	t->n1 = nblocks3 >> shift2;
	t->stage1 = xcalloc(t->n1, 1);
	for (i = 0; i < t->n1; i++) {
		size_t b = block_intern(&pool2, &used2, index3 + i * n2, n2);

		if (b > 0xFF)
			die("too many stage-2 blocks");
		t->stage1[i] = b;
	}
	t->stage2 = pool2;
	t->n2 = used2;
	t->bytes = t->n1 + 2 * t->n2 + 2 * t->n3;
	free(index3);
}

static void trie_free(struct trie *t)
{
	free(t->stage1);
	free(t->stage2);
	free(t->stage3);
}

/* Try the plausible block sizes and keep the smallest trie. */
static void trie_choose(struct trie *best)
{
	int s3, s2;

	best->bytes = 0;
	for (s3 = 3; s3 <= 7; s3++) {
		for (s2 = 3; s2 <= 7; s2++) {
			struct trie t;

			/* stage 1 indexes must fit a byte */
			if ((NCODES >> (s3 + s2)) > 4352)
				continue;
			trie_build(&t, s3, s2);
			if (t.n2 / ((size_t)1 << s2) > 256) {
				trie_free(&t);
				continue;
			}
			if (!best->bytes || t.bytes < best->bytes) {
				if (best->bytes)
					trie_free(best);
				*best = t;
			} else {
				trie_free(&t);
			}
		}
	}
	if (!best->bytes)
		die("no trie layout fits");
}

static uint16_t trie_get(const struct trie *t, uint32_t cp)
{
	size_t b2 = t->stage1[cp >> (t->shift2 + t->shift3)];
	size_t b3 = t->stage2[(b2 << t->shift2) +
			      ((cp >> t->shift3) & ((1u << t->shift2) - 1))];

	return t->stage3[(b3 << t->shift3) + (cp & ((1u << t->shift3) - 1))];
}

/* ------------------------------------------------------------------ */
/* Age runs, for the age queries                                        */

static uint32_t *age_runs;
static size_t nage_runs;

static void build_age_runs(void)
{
	uint32_t cp;
	int prev = -1;

	age_runs = xcalloc(NCODES, sizeof(*age_runs));
	for (cp = 0; cp < NCODES; cp++) {
		int gen = is_surrogate(cp) ? 0 : codes[cp].gen;

		if (gen != prev)
			age_runs[nage_runs++] = UTF8_RUN_PACK(cp, gen);
		prev = gen;
	}
}

/* ------------------------------------------------------------------ */
/* Verification: read every code point back through the output format  */

static void expect_mapping(uint32_t cp, const char *form,
			   const struct mapping *want,
			   const unsigned char *got, int got_len)
{
	unsigned char buf[UTF8_MAXEXPANSION + 4];
	int n = want->present ? mapping_utf8(want, buf) : -1;

	if (n != got_len || (n > 0 && memcmp(buf, got, n)))
		die("verification failed: %s of U+%04X", form, cp);
}

/* One form's mapping as the engine reads it (utf8_leaf_map), or NULL. */
static void verify_map(uint32_t cp, const char *form,
		       const struct mapping *want, const unsigned char *map)
{
	if (map && (map[0] & ~UTF8_MAP_LEN_MASK) != map_flags(want))
		die("verification failed: %s mapping flags of U+%04X", form, cp);
	expect_mapping(cp, form, want, map ? utf8_map_bytes(map) : NULL,
		       map ? (int)utf8_map_len(map) : -1);
}

static void verify_code(const struct trie *t, uint32_t cp)
{
	const struct code *c = &codes[cp];
	uint16_t v = trie_get(t, cp);
	const unsigned char *leaf;

	if (v == 0) {
		if (c->ccc || c->nfdi.present || c->nfdicf.present)
			die("verification failed: U+%04X read as a plain starter", cp);
		return;
	}
	if (v < UTF8_LEAF_BASE) {
		if (v >= nclasses || class_ccc[v] != c->ccc ||
		    class_gen[v] != c->gen || c->nfdi.present ||
		    c->nfdicf.present)
			die("verification failed: class of U+%04X", cp);
		return;
	}
	leaf = blob + (v - UTF8_LEAF_BASE);
	if ((int)utf8_leaf_gen(leaf) != c->gen ||
	    (int)utf8_leaf_ccc(leaf) != c->ccc ||
	    utf8_leaf_corrected(leaf) != is_correction(cp))
		die("verification failed: leaf header of U+%04X", cp);
	verify_map(cp, "NFDi", &c->nfdi, utf8_leaf_map(leaf, 0));
	verify_map(cp, "NFDiCF", &c->nfdicf, utf8_leaf_map(leaf, 1));
}

/*
 * The runtime expands a code point once: no code point inside a mapping
 * may have a mapping of its own in that form, nor be a Hangul syllable.
 */
static void verify_mapping_closed(uint32_t cp, const struct mapping *m,
				  int casefold)
{
	int i;

	for (i = 0; m->present && i < m->count; i++) {
		const struct code *in = &codes[m->cp[i]];
		const struct mapping *sub = casefold ? &in->nfdicf : &in->nfdi;

		if (sub->present)
			die("U+%04X: mapping holds U+%04X, which maps again",
			    cp, m->cp[i]);
		if (is_surrogate(m->cp[i]))
			die("U+%04X: mapping holds a surrogate", cp);
		if (is_correction(m->cp[i]))
			die("U+%04X: mapping holds corrected U+%04X", cp, m->cp[i]);
		/*
		 * The kernel takes the class of a mapping's first code point
		 * without asking its age; the runtime asks. Same answer as
		 * long as a newer first code point is a starter.
		 */
		if (i == 0 && in->gen > codes[cp].gen && in->ccc)
			die("U+%04X: mapping starts with newer non-starter U+%04X",
			    cp, m->cp[i]);
	}
}

/*
 * The runtime folds ASCII without the table: every ASCII character is a
 * starter from Unicode 1.1 without an NFDi mapping, and only A-Z case
 * fold, to a-z.
 */
static void verify_ascii(void)
{
	uint32_t cp;

	for (cp = 0; cp < 0x80; cp++) {
		const struct code *c = &codes[cp];
		int upper = cp >= 'A' && cp <= 'Z';

		if (c->gen != 1 || c->ccc || c->nfdi.present ||
		    c->nfdicf.present != upper ||
		    (upper && (c->nfdicf.count != 1 ||
			       c->nfdicf.cp[0] != cp + 0x20)))
			die("ASCII U+%04X is not what the runtime assumes", cp);
	}
}

static void verify_all(const struct trie *t)
{
	uint32_t cp;
	int i;

	for (cp = 0; cp < NCODES; cp++) {
		if (is_surrogate(cp) || codes[cp].hangul)
			continue;
		verify_code(t, cp);
		verify_mapping_closed(cp, &codes[cp].nfdi, 0);
		verify_mapping_closed(cp, &codes[cp].nfdicf, 1);
	}
	for (i = 0; i < ncorrections; i++) {
		verify_mapping_closed(corrections[i].cp, &corrections[i].old, 0);
		verify_mapping_closed(corrections[i].cp, &corrections[i].old, 1);
	}
	for (cp = UTF8_HANGUL_FIRST; cp <= UTF8_HANGUL_LAST; cp++)
		if (codes[cp].gen != codes[UTF8_HANGUL_FIRST].gen)
			die("Hangul syllables are not all of one age");
	for (cp = UTF8_HANGUL_L; cp < UTF8_HANGUL_L + 0x100; cp++)
		if (codes[cp].ccc)
			die("a Hangul jamo is not a starter");
	verify_ascii();
}

/* ------------------------------------------------------------------ */
/* Output                                                               */

/*
 * Tables are declared always and defined only where the including file
 * asks for it (lib/ext2fs/utf8data.c), so that one copy exists.
 */
static void write_array(FILE *out, const char *type, const char *name,
			const void *a, size_t elsize, size_t n,
			const char *comment)
{
	size_t i, per_line = elsize == 1 ? 12 : elsize == 2 ? 10 : 6;
	int width = (int)elsize * 2;

	fprintf(out, "/* %s */\nextern const %s %s[%zu];\n", comment, type,
		name, n);
	fprintf(out, "#ifdef UTF8DATA_DEFINE_TABLES\nconst %s %s[%zu] = {",
		type, name, n);
	for (i = 0; i < n; i++) {
		unsigned long v = elsize == 1 ? ((const uint8_t *)a)[i] :
			elsize == 2 ? ((const uint16_t *)a)[i] :
			((const uint32_t *)a)[i];

		fprintf(out, "%s0x%0*lx,", i % per_line ? " " : "\n\t", width, v);
	}
	fprintf(out, "\n};\n#endif\n\n");
}

static void write_banner(FILE *out, const char *sums_name, size_t total)
{
	FILE *sums = fopen(sums_name, "r");
	char line[1024];

	if (!sums)
		die("cannot open %s: %s", sums_name, strerror(errno));
	fprintf(out,
		"/*\n"
		" * GENERATED by util/mkutf8data from the Unicode Character Database\n"
		" * %u.%u.%u. Do not edit: change the generator and run `make regen`.\n"
		" *\n"
		" * Inputs (SHA-256):\n",
		UTF8_AGE_MAJ(ucd_version), UTF8_AGE_MIN(ucd_version),
		UTF8_AGE_REV(ucd_version));
	while (fgets(line, sizeof(line), sums)) {
		char *nl = strchr(line, '\n');
		char *name;

		if (nl)
			*nl = '\0';
		name = strstr(line, "  ");
		if (strlen(line) < 66 || !name)
			die("%s: not sha256sum output", sums_name);
		*name = '\0';
		name += 2;
		if (strrchr(name, '/'))
			name = strrchr(name, '/') + 1;
		fprintf(out, " *   %s  %s\n", line, name);
	}
	fclose(sums);
	fprintf(out,
		" *\n"
		" * Table bytes: %zu (see lib/ext2fs/utf8table.h for the format).\n"
		" */\n\n", total);
}

static void write_header(const char *out_name, const char *sums_name,
			 const struct trie *t)
{
	char tmp[4096];
	FILE *out;
	size_t total, i;

	total = t->bytes + blob_len + 4 * nage_runs + 2 * nclasses +
		4 * (ngens + 1);
	for (i = 0; i < (size_t)ncorrections; i++)
		total += 8 + 4 * corrections[i].old.count;
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", out_name, (long)getpid());
	out = fopen(tmp, "w");
	if (!out)
		die("cannot create %s: %s", tmp, strerror(errno));
	write_banner(out, sums_name, total);
	fprintf(out, "#ifndef E2FOLD_UTF8DATA_H\n#define E2FOLD_UTF8DATA_H\n\n");
	fprintf(out, "#include \"utf8table.h\"\n\n");
	fprintf(out, "#define UTF8_UCD_VERSION_STRING \"%u.%u.%u\"\n",
		UTF8_AGE_MAJ(ucd_version), UTF8_AGE_MIN(ucd_version),
		UTF8_AGE_REV(ucd_version));
	fprintf(out, "#define UTF8_NGENS %d\n", ngens);
	fprintf(out, "#define UTF8_SHIFT3 %d\n#define UTF8_SHIFT2 %d\n",
		t->shift3, t->shift2);
	fprintf(out, "#define UTF8_NCLASSES %d\n", nclasses);
	fprintf(out, "#define UTF8_HANGUL_GEN %d\n", codes[UTF8_HANGUL_FIRST].gen);
	fprintf(out, "#define UTF8_NAGE_RUNS %zu\n", nage_runs);
	fprintf(out, "#define UTF8_NCORRECTIONS %d\n\n", ncorrections);

	write_array(out, "uint32_t", "e2fold_utf8_gen_age", ages, 4, ngens + 1,
		    "Unicode version of each age generation; [0] = unassigned.");
	write_array(out, "uint8_t", "e2fold_utf8_class_ccc", class_ccc, 1,
		    nclasses, "Combining class of each value class.");
	write_array(out, "uint8_t", "e2fold_utf8_class_gen", class_gen, 1,
		    nclasses, "Age generation of each value class.");
	write_array(out, "uint8_t", "e2fold_utf8_stage1", t->stage1, 1, t->n1,
		    "Trie stage 1: stage-2 block of each code point range.");
	write_array(out, "uint16_t", "e2fold_utf8_stage2", t->stage2, 2, t->n2,
		    "Trie stage 2: stage-3 block of each code point range.");
	write_array(out, "uint16_t", "e2fold_utf8_stage3", t->stage3, 2, t->n3,
		    "Trie stage 3: the value of each code point.");
	write_array(out, "uint8_t", "e2fold_utf8_leaves", blob, 1, blob_len,
		    "Leaf records.");
	write_array(out, "uint32_t", "e2fold_utf8_age_runs", age_runs, 4,
		    nage_runs, "Code point runs of one age: (first << 8) | gen.");

	fprintf(out, "/* Mappings before NormalizationCorrections.txt fixed them. */\n");
	fprintf(out, "extern const struct utf8_correction e2fold_utf8_corrections[%d];\n",
		ncorrections ? ncorrections : 1);
	fprintf(out, "#ifdef UTF8DATA_DEFINE_TABLES\n");
	fprintf(out, "const struct utf8_correction e2fold_utf8_corrections[%d] = {\n",
		ncorrections ? ncorrections : 1);
	for (i = 0; i < (size_t)ncorrections; i++) {
		unsigned char buf[UTF8_MAXEXPANSION + 4];
		int n = mapping_utf8(&corrections[i].old, buf), j;

		fprintf(out, "\t{ 0x%05x, 0x%06x, %d, \"", corrections[i].cp,
			corrections[i].age, n);
		for (j = 0; j < n; j++)
			fprintf(out, "\\x%02x", buf[j]);
		fprintf(out, "\" },\n");
	}
	fprintf(out, "};\n#endif\n\n#endif /* E2FOLD_UTF8DATA_H */\n");

	if (fflush(out) || ferror(out) || fclose(out))
		die("cannot write %s", tmp);
	if (rename(tmp, out_name))
		die("cannot rename %s to %s: %s", tmp, out_name, strerror(errno));
	fprintf(stderr, "%s: Unicode %u.%u.%u, %d versions, %zu table bytes "
		"(trie %zu with blocks 2^%d/2^%d, leaves %zu, %d classes, %zu age runs)\n",
		prog, UTF8_AGE_MAJ(ucd_version), UTF8_AGE_MIN(ucd_version),
		UTF8_AGE_REV(ucd_version), ngens, total, t->bytes, t->shift2,
		t->shift3, blob_len, nclasses, nage_runs);
}

static void usage(void)
{
	fprintf(stderr, "usage: %s -u UCD_DIR -s SHA256SUMS -o OUTPUT\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *out_name = NULL, *sums_name = NULL;
	struct trie trie;
	int opt;

	while ((opt = getopt(argc, argv, "u:s:o:")) != -1) {
		switch (opt) {
		case 'u':
			ucd_dir = optarg;
			break;
		case 's':
			sums_name = optarg;
			break;
		case 'o':
			out_name = optarg;
			break;
		default:
			usage();
		}
	}
	if (!ucd_dir || !sums_name || !out_name || optind != argc)
		usage();

	codes = xcalloc(NCODES, sizeof(*codes));
	read_ages();
	read_unicode_data();
	read_case_folding();
	read_ignorables();
	read_corrections();
	hangul_mappings();
	expand_all();
	build_values();
	build_age_runs();
	trie_choose(&trie);
	verify_all(&trie);
	write_header(out_name, sums_name, &trie);
	trie_free(&trie);	/* so that a sanitizer build reports no leak */
	return 0;
}
