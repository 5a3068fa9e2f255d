/*
 * fuzz_engine: every function of unicode.h on arbitrary bytes.
 *
 * Input: 4 control bytes, then two strings a and b:
 *   [0] the Unicode version: bit 7 clear means 12.1 (ext4's); otherwise
 *       one of the supported versions, or an unsupported one
 *   [1] how big the output buffers are (0, tiny, just too small, exact)
 *   [2..3] where a ends and b begins in the rest
 * Each string is copied into a malloc of exactly its length (and, for the
 * functions that stop at a NUL, of its length plus the NUL), so that
 * AddressSanitizer sees any read past the end.
 *
 * What must hold, for each string s and each form (NFDi, NFDiCF):
 *   - the cursor's stream (utf8ncursor + utf8byte) ends with 0 exactly
 *     when the kernel accepts s (ref_kernel_accepts: valid, or only stray
 *     continuation bytes after a valid start), else with -1;
 *   - utf8_normalize/utf8_casefold return those bytes when they fit with
 *     their NUL in dlen, -EINVAL otherwise, and never write past dlen;
 *   - for valid s (utf8_validate == 0, which must agree with strict
 *     UTF-8), the stream equals the reference (reference.h) and utf8nlen
 *     is its length. (Not idempotence: an ignorable ends a run before it
 *     is removed, so U+0301 U+034F U+0316 folds to U+0301 U+0316, which
 *     folds to U+0316 U+0301; the kernel does the same.)
 *   - utf8len, utf8cursor and utf8agemax/min on the NUL-terminated copy
 *     agree with the counted forms; the ages agree with the reference;
 *   - strncmp/strncasecmp(a, b) are the kernel's byte loop over the two
 *     streams (so 0 exactly when both fold and the folds are equal), and
 *     symmetric; strncasecmp_folded and utf8_casefold_hash agree with the
 *     streams too;
 *   - the same call twice gives the same answer.
 * For invalid strings the stream is not compared with the reference: the
 * kernel's handling of a stray continuation byte is a quirk, not a rule.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "reference.h"
#include "unicode.h"

#define MAX_VERSIONS 64

static struct ref_ucd *ref;
static struct unicode_map *maps[MAX_VERSIONS];
static int nmaps;
static struct unicode_map *map_12_1;

/* The forms of one string: the cursor's stream and how it ended. */
struct stream {
	unsigned char *bytes;
	size_t len;
	int end;		/* 0 complete, -1 invalid */
};

struct subject {
	const unsigned char *s;		/* exactly len bytes */
	const char *z;			/* len bytes and a NUL */
	size_t len;
	int valid, accepted;
	struct stream form[UTF8_NMAX];
};

static void quiet_log(const char *message, void *arg)
{
	(void)message;
	(void)arg;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	unsigned int maj, min, rev;

	(void)argc;
	(void)argv;
	fuzz_init_report();
	utf8_set_log_hook(quiet_log, NULL);
	ref = ref_load(fuzz_ucd_dir());
	if (!ref)
		abort();
	for (maj = 1; maj < 32; maj++)
		for (min = 0; min < 10; min++)
			for (rev = 0; rev < 4; rev++) {
				char v[32];

				if (!utf8version_is_supported(maj, min, rev) ||
				    nmaps == MAX_VERSIONS)
					continue;
				snprintf(v, sizeof(v), "%u.%u.%u", maj, min, rev);
				maps[nmaps] = utf8_load(v);
				FUZZ_ASSERT(maps[nmaps]);
				if (maj == 12 && min == 1)
					map_12_1 = maps[nmaps];
				nmaps++;
			}
	FUZZ_ASSERT(map_12_1);
	return 0;
}

/* The cursor's bytes, up to its 0 or -1 (bounded, against a hang). */
static void read_stream(const struct unicode_map *um, enum utf8_normalization n,
			const struct subject *x, struct stream *st)
{
	struct utf8cursor cur;
	size_t cap = 64 + x->len * 64;
	int c;

	st->bytes = fuzz_malloc(cap);
	st->len = 0;
	st->end = -1;
	if (utf8ncursor(&cur, um->ntab[n], (const char *)x->s, x->len) < 0) {
		FUZZ_ASSERT(x->len && (x->s[0] & 0xC0) == 0x80);
		return;
	}
	while ((c = utf8byte(&cur)) > 0) {
		FUZZ_ASSERT(st->len < cap);
		st->bytes[st->len++] = c;
	}
	st->end = c;
	FUZZ_ASSERT(c == 0 || c == -1);
}

static size_t pick_dlen(unsigned char sel, size_t n)
{
	switch (sel & 7) {
	case 0: return 0;
	case 1: return 1 + (sel >> 3) % 4;
	case 2: return n;			/* no room for the NUL */
	case 3: return n + 1;			/* exact */
	case 4: return n ? n - 1 : 0;
	case 5: return n + 2 + (sel >> 3);
	case 6: return sel >> 3;
	}
	return 4096;
}

/* utf8_normalize or utf8_casefold into a buffer of exactly dlen bytes. */
static void check_form_call(const struct unicode_map *um,
			    enum utf8_normalization n, const struct subject *x,
			    size_t dlen)
{
	const struct stream *st = &x->form[n];
	struct qstr q = { x->s, (unsigned int)x->len };
	unsigned char *dest = fuzz_malloc(dlen);
	int r, r2;

	r = n == UTF8_NFDICF ? utf8_casefold(um, &q, dest, dlen) :
			       utf8_normalize(um, &q, dest, dlen);
	if (st->end == 0 && st->len + 1 <= dlen) {
		FUZZ_ASSERT(r == (int)st->len);
		FUZZ_ASSERT(!memcmp(dest, st->bytes, st->len));
		FUZZ_ASSERT(dest[r] == 0);
	} else {
		FUZZ_ASSERT(r == -EINVAL);
	}
	/* Deterministic. */
	r2 = n == UTF8_NFDICF ? utf8_casefold(um, &q, dest, dlen) :
				utf8_normalize(um, &q, dest, dlen);
	FUZZ_ASSERT(r2 == r);
	free(dest);
}

static void check_reference(const struct unicode_map *um,
			    enum utf8_normalization n, const struct subject *x)
{
	const struct stream *st = &x->form[n];
	unsigned char *want;
	size_t want_len;

	FUZZ_ASSERT(!ref_form(ref, um->version,
			      n == UTF8_NFDICF ? REF_CASEFOLD : 0, x->s, x->len,
			      &want, &want_len));
	if (st->len != want_len || memcmp(st->bytes, want, want_len))
		fuzz_fail_bytes("engine differs from the reference", x->s,
				x->len, st->bytes, st->len, want, want_len);
	free(want);
}

static void check_lengths_and_ages(const struct unicode_map *um,
				   enum utf8_normalization n,
				   const struct subject *x)
{
	const struct utf8data *t = um->ntab[n];
	struct utf8cursor cur;
	ssize_t nl = utf8nlen(t, (const char *)x->s, x->len);
	long age;
	size_t i = 0;
	int c;

	FUZZ_ASSERT(nl == (x->valid ? (ssize_t)x->form[n].len : -1));
	FUZZ_ASSERT(utf8len(t, x->z) == nl);
	age = ref_age_scan(ref, um->version, 1, x->s, x->len);
	FUZZ_ASSERT(utf8nagemax(t, (const char *)x->s, x->len) == age);
	FUZZ_ASSERT(utf8agemax(t, x->z) == age);
	age = ref_age_scan(ref, um->version, 0, x->s, x->len);
	FUZZ_ASSERT(utf8nagemin(t, (const char *)x->s, x->len) == age);
	FUZZ_ASSERT(utf8agemin(t, x->z) == age);
	/* The NUL-terminated cursor yields the same stream. */
	if (utf8cursor(&cur, t, x->z) < 0) {
		FUZZ_ASSERT(x->form[n].end == -1 && x->form[n].len == 0);
		return;
	}
	while ((c = utf8byte(&cur)) > 0) {
		FUZZ_ASSERT(i < x->form[n].len && x->form[n].bytes[i] == c);
		i++;
	}
	FUZZ_ASSERT(i == x->form[n].len && c == x->form[n].end);
}

static void examine(const struct unicode_map *um, struct subject *x,
		    unsigned char dlen_sel)
{
	struct qstr q = { x->s, (unsigned int)x->len };
	int n;

	x->valid = ref_valid(x->s, x->len);
	x->accepted = ref_kernel_accepts(x->s, x->len);
	FUZZ_ASSERT(utf8_validate(um, &q) == (x->valid ? 0 : -1));
	for (n = 0; n < UTF8_NMAX; n++) {
		struct stream *st = &x->form[n];

		read_stream(um, n, x, st);
		FUZZ_ASSERT(st->end == (x->accepted ? 0 : -1));
		check_form_call(um, n, x, pick_dlen(dlen_sel, st->len));
		check_form_call(um, n, x, st->len + 1);
		if (x->valid)
			check_reference(um, n, x);
		check_lengths_and_ages(um, n, x);
	}
}

/* The kernel's comparison loop over two streams. */
static int stream_byte(const struct stream *st, size_t i)
{
	return i < st->len ? st->bytes[i] : st->end;
}

static int compare_streams(const struct stream *a, const struct stream *b)
{
	size_t i;

	for (i = 0;; i++) {
		int c1 = stream_byte(a, i), c2 = stream_byte(b, i);

		if (c1 < 0 || c2 < 0)
			return -EINVAL;
		if (c1 != c2)
			return 1;
		if (!c1)
			return 0;
	}
}

/* include/linux/stringhash.h, 64-bit, as fs/unicode hashes a fold. */
static unsigned int name_hash(unsigned long salt, const struct stream *st)
{
	unsigned long h = salt;
	size_t i;

	for (i = 0; i < st->len; i++)
		h = (h + ((unsigned long)st->bytes[i] << 4) +
		     (st->bytes[i] >> 4)) * 11;
	return (unsigned int)(((unsigned long long)h * 0x61C8864680B583EBull) >> 32);
}

static void check_pair(const struct unicode_map *um, const struct subject *a,
		       const struct subject *b)
{
	struct qstr qa = { a->s, (unsigned int)a->len };
	struct qstr qb = { b->s, (unsigned int)b->len };
	const struct stream *fa = &a->form[UTF8_NFDICF];
	const struct stream *fb = &b->form[UTF8_NFDICF];
	int r = utf8_strncasecmp(um, &qa, &qb);
	unsigned int h;

	FUZZ_ASSERT(r == compare_streams(fa, fb));
	FUZZ_ASSERT(utf8_strncasecmp(um, &qb, &qa) == r);
	/* Equal exactly when both fold and the folds are equal. */
	FUZZ_ASSERT((r == 0) == (fa->end == 0 && fb->end == 0 &&
				 fa->len == fb->len &&
				 !memcmp(fa->bytes, fb->bytes, fa->len)));
	if (r == -EINVAL)
		FUZZ_ASSERT(!a->accepted || !b->accepted);
	r = utf8_strncmp(um, &qa, &qb);
	FUZZ_ASSERT(r == compare_streams(&a->form[UTF8_NFDI],
					 &b->form[UTF8_NFDI]));
	FUZZ_ASSERT(utf8_strncmp(um, &qb, &qa) == r);

	/* A folded string compares with b as a does. */
	if (fa->end == 0) {
		unsigned char *cf = fuzz_malloc(fa->len);
		struct qstr qcf = { cf, (unsigned int)fa->len };

		memcpy(cf, fa->bytes, fa->len);
		r = utf8_strncasecmp_folded(um, &qcf, &qb);
		/* cf_byte ends at a NUL inside cf: the folds hold none. */
		FUZZ_ASSERT(r == compare_streams(fa, fb));
		free(cf);
	}
	r = utf8_casefold_hash(um, (const void *)0x5a17, &qa, &h);
	if (fa->end == 0)
		FUZZ_ASSERT(r == 0 && h == name_hash(0x5a17, fa));
	else
		FUZZ_ASSERT(r == -EINVAL);
}

/* Version parsing and lookup on arbitrary values. */
static void check_versions(const uint8_t *data, size_t size)
{
	char v[16];
	size_t n = size < sizeof(v) - 1 ? size : sizeof(v) - 1;
	struct unicode_map *um;
	unsigned int maj = data[0] % 20, min = data[1] % 12, rev = data[2] % 4;
	unsigned int age = UNICODE_AGE(maj, min, rev);
	int ok = utf8version_is_supported(maj, min, rev);

	FUZZ_ASSERT(!!utf8nfdi(age) == ok && !!utf8nfdicf(age) == ok);
	memcpy(v, data, n);
	v[n] = '\0';
	um = utf8_load(v);
	if (um) {
		FUZZ_ASSERT(utf8version_is_supported(unicode_major(um->version),
						     unicode_minor(um->version),
						     unicode_rev(um->version)));
		utf8_unload(um);
	}
}

/* A map without tables must fail cleanly. */
static void check_null_map(const struct subject *x)
{
	struct unicode_map none = { 0 };
	struct qstr q = { x->s, (unsigned int)x->len };
	unsigned char out[4];
	unsigned int h;

	FUZZ_ASSERT(utf8_validate(&none, &q) == -1);
	FUZZ_ASSERT(utf8_casefold(&none, &q, out, sizeof(out)) == -EINVAL);
	FUZZ_ASSERT(utf8_normalize(&none, &q, out, sizeof(out)) == -EINVAL);
	FUZZ_ASSERT(utf8_strncasecmp(&none, &q, &q) == -EINVAL);
	FUZZ_ASSERT(utf8_casefold_hash(&none, NULL, &q, &h) == -EINVAL);
	FUZZ_ASSERT(utf8nlen(NULL, (const char *)x->s, x->len) == -1);
}

static void subject_init(struct subject *x, const uint8_t *p, size_t len)
{
	unsigned char *s = fuzz_malloc(len), *z = fuzz_malloc(len + 1);

	memcpy(s, p, len);
	memcpy(z, p, len);
	z[len] = '\0';
	memset(x, 0, sizeof(*x));
	x->s = s;
	x->z = (const char *)z;
	x->len = len;
}

static void subject_free(struct subject *x)
{
	int n;

	for (n = 0; n < UTF8_NMAX; n++)
		free(x->form[n].bytes);
	free((void *)x->s);
	free((void *)x->z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct unicode_map *um;
	struct subject a, b;
	size_t split;

	if (size < 4)
		return 0;
	check_versions(data, size);
	um = data[0] & 0x80 ? maps[data[0] % nmaps] : map_12_1;
	split = ((size_t)data[2] << 8 | data[3]) % (size - 4 + 1);
	subject_init(&a, data + 4, split);
	subject_init(&b, data + 4 + split, size - 4 - split);
	examine(um, &a, data[1]);
	examine(um, &b, data[1] >> 3 | data[1] << 5);
	check_pair(um, &a, &b);
	check_pair(um, &b, &a);
	check_pair(um, &a, &a);
	check_null_map(&a);
	subject_free(&a);
	subject_free(&b);
	return 0;
}
