/*
 * reference.c: NFDi and NFDiCF from the UCD text files, slowly and
 * obviously (see reference.h for the rules). Per code point it keeps only
 * what the files say: combining class, age, ignorability, the canonical
 * decomposition and the C+F case folding; everything else is computed
 * when asked, one code point at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

#define NCP 0x110000
#define AGE(maj, min) (((unsigned int)(maj) << 16) | ((unsigned int)(min) << 8))
#define MAX_DEPTH 16		/* mappings nest 4 deep at most */

/* Hangul syllables (Unicode chapter 3.12). */
#define S_BASE 0xAC00
#define L_BASE 0x1100
#define V_BASE 0x1161
#define T_BASE 0x11A7
#define V_COUNT 21
#define T_COUNT 28
#define N_COUNT (V_COUNT * T_COUNT)
#define S_COUNT 11172

struct correction {
	uint32_t cp;
	int32_t original;	/* pool offset of the mapping before `age` */
	unsigned int age;
};

struct ref_ucd {
	uint8_t *ccc;
	uint32_t *age;
	uint8_t *ignorable;
	int32_t *decomp;	/* pool offset or -1 */
	int32_t *fold;		/* pool offset or -1 */
	uint32_t *pool;		/* at an offset: count, then code points */
	size_t npool, cap;
	struct correction corr[16];
	int ncorr;
	unsigned int data_age;
};

/* A growing array of (code point, class); class -1 marks an ignorable. */
struct seq {
	struct item {
		uint32_t cp;
		int ccc;
	} *v;
	size_t n, cap;
	size_t first;	/* where the current input code point's mapping starts */
	int failed;
};

static void push(struct seq *q, uint32_t cp, int ccc)
{
	if (q->n == q->cap) {
		size_t c = q->cap ? q->cap * 2 : 64;
		struct item *p = realloc(q->v, c * sizeof(*p));

		if (!p) {
			q->failed = 1;
			return;
		}
		q->v = p;
		q->cap = c;
	}
	q->v[q->n].cp = cp;
	q->v[q->n].ccc = ccc;
	q->n++;
}

/* Store a mapping; returns its pool offset or -1 on no memory. */
static int32_t pool_add(struct ref_ucd *u, const uint32_t *cps, int n)
{
	int32_t at;
	int i;

	if (u->npool + n + 1 > u->cap) {
		size_t c = u->cap ? u->cap * 2 : 65536;
		uint32_t *p = realloc(u->pool, c * sizeof(*p));

		if (!p)
			return -1;
		u->pool = p;
		u->cap = c;
	}
	at = (int32_t)u->npool;
	u->pool[u->npool++] = n;
	for (i = 0; i < n; i++)
		u->pool[u->npool++] = cps[i];
	return at;
}

/* Parse "XXXX" or "XXXX..YYYY" at p; 0 on success. */
static int parse_range(const char *p, uint32_t *lo, uint32_t *hi)
{
	char *end;
	unsigned long a = strtoul(p, &end, 16), b = a;

	if (end == p)
		return -1;
	if (end[0] == '.' && end[1] == '.')
		b = strtoul(end + 2, &end, 16);
	if (a > b || b >= NCP)
		return -1;
	*lo = a;
	*hi = b;
	return 0;
}

/* Up to max hex code points separated by spaces; their count or -1. */
static int parse_cps(const char *p, uint32_t *out, int max)
{
	int n = 0;

	for (;;) {
		char *end;
		unsigned long v;

		while (*p == ' ')
			p++;
		if (!*p || *p == ';' || *p == '#')
			return n;
		v = strtoul(p, &end, 16);
		if (end == p || v >= NCP || n == max)
			return -1;
		out[n++] = v;
		p = end;
	}
}

static FILE *open_ucd(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		perror(path);
	return f;
}

/* Split a line at ';' into at most max fields (trimmed of spaces). */
static int split(char *line, char **field, int max)
{
	int n = 0;
	char *p = line, *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	while (n < max) {
		char *semi = strchr(p, ';'), *e;

		while (*p == ' ' || *p == '\t')
			p++;
		field[n++] = p;
		if (semi)
			*semi = '\0';
		e = p + strlen(p);
		while (e > p && (e[-1] == ' ' || e[-1] == '\t' ||
				 e[-1] == '\n' || e[-1] == '\r'))
			*--e = '\0';
		if (!semi)
			break;
		p = semi + 1;
	}
	return n;
}

static int load_unicode_data(struct ref_ucd *u, const char *dir)
{
	FILE *f = open_ucd(dir, "UnicodeData.txt");
	char line[1024], *field[16];
	int bad = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		uint32_t cp, hi, map[32];
		int n;

		if (split(line, field, 16) < 6 || parse_range(field[0], &cp, &hi))
			continue;
		u->ccc[cp] = atoi(field[3]);
		/* Ranges (First>/Last>) have class 0 and no decomposition. */
		if (!field[5][0] || field[5][0] == '<')
			continue;
		n = parse_cps(field[5], map, 32);
		if (n <= 0 || (u->decomp[cp] = pool_add(u, map, n)) < 0)
			bad = 1;
	}
	fclose(f);
	return bad ? -1 : 0;
}

static int load_case_folding(struct ref_ucd *u, const char *dir)
{
	FILE *f = open_ucd(dir, "CaseFolding.txt");
	char line[1024], *field[4];
	int bad = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		uint32_t cp, hi, map[8];
		int n;

		if (split(line, field, 4) < 3 || parse_range(field[0], &cp, &hi))
			continue;
		/* Full case folding: C (common) and F (full), not S or T. */
		if (strcmp(field[1], "C") && strcmp(field[1], "F"))
			continue;
		n = parse_cps(field[2], map, 8);
		if (n <= 0 || (u->fold[cp] = pool_add(u, map, n)) < 0)
			bad = 1;
	}
	fclose(f);
	return bad ? -1 : 0;
}

static int load_age(struct ref_ucd *u, const char *dir)
{
	FILE *f = open_ucd(dir, "DerivedAge.txt");
	char line[1024], *field[4];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		uint32_t lo, hi, cp;
		unsigned int maj, min;

		if (!strncmp(line, "# DerivedAge-", 13) &&
		    sscanf(line + 13, "%u.%u", &maj, &min) == 2)
			u->data_age = AGE(maj, min);
		if (split(line, field, 4) < 2 || parse_range(field[0], &lo, &hi) ||
		    sscanf(field[1], "%u.%u", &maj, &min) != 2)
			continue;
		for (cp = lo; cp <= hi; cp++)
			u->age[cp] = AGE(maj, min);
	}
	fclose(f);
	return u->data_age ? 0 : -1;
}

static int load_ignorable(struct ref_ucd *u, const char *dir)
{
	FILE *f = open_ucd(dir, "DerivedCoreProperties.txt");
	char line[1024], *field[4];
	int seen = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		uint32_t lo, hi, cp;

		if (split(line, field, 4) < 2 ||
		    strcmp(field[1], "Default_Ignorable_Code_Point") ||
		    parse_range(field[0], &lo, &hi))
			continue;
		for (cp = lo; cp <= hi; cp++)
			u->ignorable[cp] = 1;
		seen = 1;
	}
	fclose(f);
	return seen ? 0 : -1;
}

/* Before its version, a corrected character had its original mapping. */
static int load_corrections(struct ref_ucd *u, const char *dir)
{
	FILE *f = open_ucd(dir, "NormalizationCorrections.txt");
	char line[1024], *field[5];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		uint32_t cp, hi, map[8];
		unsigned int maj, min;
		int n;

		if (split(line, field, 5) < 4 || parse_range(field[0], &cp, &hi) ||
		    sscanf(field[3], "%u.%u", &maj, &min) != 2 ||
		    u->ncorr == (int)(sizeof(u->corr) / sizeof(u->corr[0])))
			continue;
		n = parse_cps(field[1], map, 8);
		if (n <= 0)
			continue;
		u->corr[u->ncorr].cp = cp;
		u->corr[u->ncorr].original = pool_add(u, map, n);
		u->corr[u->ncorr].age = AGE(maj, min);
		if (u->corr[u->ncorr].original >= 0)
			u->ncorr++;
	}
	fclose(f);
	return 0;
}

struct ref_ucd *ref_load(const char *dir)
{
	struct ref_ucd *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->ccc = calloc(NCP, 1);
	u->age = calloc(NCP, sizeof(*u->age));
	u->ignorable = calloc(NCP, 1);
	u->decomp = malloc(NCP * sizeof(*u->decomp));
	u->fold = malloc(NCP * sizeof(*u->fold));
	if (!u->ccc || !u->age || !u->ignorable || !u->decomp || !u->fold) {
		ref_free(u);
		return NULL;
	}
	memset(u->decomp, 0xff, NCP * sizeof(*u->decomp));
	memset(u->fold, 0xff, NCP * sizeof(*u->fold));
	if (load_unicode_data(u, dir) || load_case_folding(u, dir) ||
	    load_age(u, dir) || load_ignorable(u, dir) ||
	    load_corrections(u, dir)) {
		fprintf(stderr, "reference: cannot read the UCD in %s\n", dir);
		ref_free(u);
		return NULL;
	}
	return u;
}

void ref_free(struct ref_ucd *u)
{
	if (!u)
		return;
	free(u->ccc);
	free(u->age);
	free(u->ignorable);
	free(u->decomp);
	free(u->fold);
	free(u->pool);
	free(u);
}

unsigned int ref_data_age(const struct ref_ucd *u)
{
	return u->data_age;
}

unsigned int ref_age(const struct ref_ucd *u, uint32_t cp)
{
	return cp < NCP ? u->age[cp] : 0;
}

unsigned int ref_decode(const unsigned char *s, size_t avail, uint32_t *ret_cp)
{
	unsigned int n, i;
	uint32_t cp;

	if (!avail)
		return 0;
	if (s[0] < 0x80) {
		*ret_cp = s[0];
		return 1;
	}
	if (s[0] >= 0xC0 && s[0] < 0xE0) {
		n = 2;
		cp = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] < 0xF0) {
		n = 3;
		cp = s[0] & 0x0F;
	} else if (s[0] >= 0xF0 && s[0] < 0xF8) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (avail < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	/* Shortest form only; no surrogates; nothing above U+10FFFF. */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	*ret_cp = cp;
	return n;
}

int ref_valid(const unsigned char *s, size_t len)
{
	while (len && *s) {
		uint32_t cp;
		unsigned int n = ref_decode(s, len, &cp);

		if (!n)
			return 0;
		s += n;
		len -= n;
	}
	return 1;
}

int ref_kernel_accepts(const unsigned char *s, size_t len)
{
	if (len && (*s & 0xC0) == 0x80)
		return 0;
	while (len && *s) {
		uint32_t cp;
		unsigned int n = (*s & 0xC0) == 0x80 ? 1 : ref_decode(s, len, &cp);

		if (!n)
			return 0;
		s += n;
		len -= n;
	}
	return 1;
}

/* The canonical decomposition of cp under maxage, or -1 for none. */
static int32_t decomposition(const struct ref_ucd *u, unsigned int maxage,
			     uint32_t cp)
{
	int i;

	for (i = 0; i < u->ncorr; i++)
		if (u->corr[i].cp == cp && maxage < u->corr[i].age)
			return u->corr[i].original;
	return u->decomp[cp];
}

/*
 * Append the mapping of cp (assigned, not ignorable, not too new):
 * decompose fully, then fold each code point that does not decompose and
 * map what it folds to the same way.
 */
static void expand(const struct ref_ucd *u, unsigned int maxage, int casefold,
		   uint32_t cp, struct seq *out, int depth)
{
	int32_t m;
	uint32_t i;

	if (depth > MAX_DEPTH) {
		out->failed = 1;
		return;
	}
	if (cp >= S_BASE && cp < S_BASE + S_COUNT && u->age[cp] &&
	    u->age[cp] <= maxage) {
		uint32_t s = cp - S_BASE;

		expand(u, maxage, casefold, L_BASE + s / N_COUNT, out, depth + 1);
		expand(u, maxage, casefold, V_BASE + (s % N_COUNT) / T_COUNT,
		       out, depth + 1);
		if (s % T_COUNT)
			expand(u, maxage, casefold, T_BASE + s % T_COUNT, out,
			       depth + 1);
		return;
	}
	m = decomposition(u, maxage, cp);
	if (m < 0 && casefold)
		m = u->fold[cp];
	if (m < 0) {
		/*
		 * A mapping may hold a code point newer than the version (in
		 * 2.1, U+06D3 maps to U+06D2 U+0654, and U+0654 came in 3.0).
		 * Linux treats it as it treats any code point too new for the
		 * version: class 0, a starter, so nothing reorders around it.
		 * It takes the real class of the mapping's first code point
		 * without that test; the tables never differ there.
		 */
		int ccc = u->ccc[cp];

		if (u->age[cp] > maxage && out->n > out->first)
			ccc = 0;
		push(out, cp, ccc);
		return;
	}
	for (i = 1; i <= u->pool[m]; i++)
		expand(u, maxage, casefold, u->pool[m + i], out, depth + 1);
}

/* Stable insertion sort of each run of non-starters by class. */
static void canonical_order(struct seq *q)
{
	size_t i, j;

	for (i = 1; i < q->n; i++) {
		struct item it = q->v[i];

		if (it.ccc <= 0)
			continue;
		for (j = i; j > 0 && q->v[j - 1].ccc > it.ccc; j--)
			q->v[j] = q->v[j - 1];
		q->v[j] = it;
	}
}

size_t ref_encode(uint32_t cp, unsigned char *p)
{
	if (cp < 0x80) {
		p[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		p[0] = 0xC0 | (cp >> 6);
		p[1] = 0x80 | (cp & 0x3F);
		return 2;
	}
	if (cp < 0x10000) {
		p[0] = 0xE0 | (cp >> 12);
		p[1] = 0x80 | ((cp >> 6) & 0x3F);
		p[2] = 0x80 | (cp & 0x3F);
		return 3;
	}
	p[0] = 0xF0 | (cp >> 18);
	p[1] = 0x80 | ((cp >> 12) & 0x3F);
	p[2] = 0x80 | ((cp >> 6) & 0x3F);
	p[3] = 0x80 | (cp & 0x3F);
	return 4;
}

/* The mapped code points of s with their classes, before ordering. */
static int map_string(const struct ref_ucd *u, unsigned int maxage, int flags,
		      const unsigned char *s, size_t len, struct seq *q)
{
	while (len && *s) {
		uint32_t cp;
		unsigned int k = ref_decode(s, len, &cp);

		if (!k)
			return -1;
		s += k;
		len -= k;
		if (u->age[cp] > maxage)
			push(q, cp, 0);		/* too new: a starter, as is */
		else if (u->ignorable[cp] && (flags & REF_KEEP_IGNORABLES))
			push(q, cp, 0);		/* the 6.12 variant: as is */
		else if (u->ignorable[cp])
			push(q, cp, -1);	/* removed; ends a run */
		else if (!u->age[cp])
			push(q, cp, 0);		/* unassigned: as is */
		else {
			q->first = q->n;
			expand(u, maxage, flags & REF_CASEFOLD, cp, q, 0);
		}
	}
	return q->failed ? -1 : 0;
}

int ref_form(const struct ref_ucd *u, unsigned int maxage, int flags,
	     const unsigned char *s, size_t len, unsigned char **ret_out,
	     size_t *ret_len)
{
	struct seq q = { 0 };
	unsigned char *out;
	size_t i, n = 0;

	*ret_out = NULL;
	*ret_len = 0;
	if (map_string(u, maxage, flags, s, len, &q)) {
		free(q.v);
		return -1;
	}
	/*
	 * The ignorable marks split runs; canonical_order moves a non-starter
	 * only past items of a higher class, never past a mark (-1).
	 */
	canonical_order(&q);
	out = malloc(4 * q.n + 1);
	if (!out) {
		free(q.v);
		return -1;
	}
	for (i = 0; i < q.n; i++)
		if (q.v[i].ccc >= 0)
			n += ref_encode(q.v[i].cp, out + n);
	out[n] = '\0';
	free(q.v);
	*ret_out = out;
	*ret_len = n;
	return 0;
}

long ref_longest_run(const struct ref_ucd *u, unsigned int maxage, int flags,
		     const unsigned char *s, size_t len)
{
	struct seq q = { 0 };
	long best = 0, run = 0;
	size_t i;

	if (map_string(u, maxage, flags, s, len, &q)) {
		free(q.v);
		return -1;
	}
	for (i = 0; i < q.n; i++) {
		run = q.v[i].ccc > 0 ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	free(q.v);
	return best;
}

long ref_age_scan(const struct ref_ucd *u, unsigned int maxage, int want_max,
		  const unsigned char *s, size_t len)
{
	unsigned int best = want_max ? 0 : maxage;

	while (len && *s) {
		uint32_t cp;
		unsigned int k = ref_decode(s, len, &cp), a;

		if (!k)
			return -1;
		a = u->age[cp];
		if (a <= maxage && (want_max ? a > best : a < best))
			best = a;
		s += k;
		len -= k;
	}
	return best;
}
