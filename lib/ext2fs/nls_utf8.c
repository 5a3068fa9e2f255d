/*
 * nls_utf8.c: the high-level UTF-8 API over counted strings (struct qstr),
 * with the kernel's results and error codes (fs/unicode/utf8-core.c), and
 * the two queries lib/support makes beyond it (unicode_internal.h).
 *
 * Every operation folds into a stack buffer with the fast path and falls
 * back to the byte cursor only when the result does not fit: the answers
 * are the same, the cursor is just slower.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8fold.h"
#include "utf8swar.h"

/* Names are at most 255 bytes; their forms fit this many with room. */
#define FOLD_BUF 1024

static void default_log(const char *message, void *arg)
{
	(void)arg;
	fprintf(stderr, "e2fold: %s\n", message);
}

static utf8_log_fn log_fn = default_log;
static void *log_arg;

void utf8_set_log_hook(utf8_log_fn fn, void *arg)
{
	log_fn = fn ? fn : default_log;
	log_arg = fn ? arg : NULL;
}

/* One decimal component of a version: 1 to 3 digits, at most 255. */
static const char *parse_component(const char *p, unsigned int *ret)
{
	unsigned int v = 0;
	int digits = 0;

	while (*p >= '0' && *p <= '9' && digits < 4) {
		v = v * 10 + (*p++ - '0');
		digits++;
	}
	if (!digits || digits > 3 || v > 255)
		return NULL;
	*ret = v;
	return p;
}

/* "MAJ.MIN" or "MAJ.MIN.REV" -> UNICODE_AGE(); -1 if malformed. */
static long parse_version(const char *version)
{
	unsigned int maj, min, rev = 0;
	const char *p = parse_component(version, &maj);

	if (!p || *p++ != '.')
		return -1;
	p = parse_component(p, &min);
	if (!p)
		return -1;
	if (*p == '.') {
		p = parse_component(p + 1, &rev);
		if (!p)
			return -1;
	}
	if (*p)
		return -1;
	return UNICODE_AGE(maj, min, rev);
}

struct unicode_map *utf8_load(const char *version)
{
	struct unicode_map *um;
	long age;

	if (version) {
		age = parse_version(version);
		if (age < 0 || !utf8version_is_supported(unicode_major(age),
							 unicode_minor(age),
							 unicode_rev(age))) {
			errno = EINVAL;
			return NULL;
		}
	} else {
		char msg[128];

		age = utf8version_latest_age();
		snprintf(msg, sizeof(msg),
			 "no Unicode version given, using the newest (%s)",
			 utf8version_latest());
		log_fn(msg, log_arg);
	}
	um = calloc(1, sizeof(*um));
	if (!um) {
		errno = ENOMEM;
		return NULL;
	}
	um->version = age;
	um->ntab[UTF8_NFDI] = utf8nfdi(age);
	um->ntab[UTF8_NFDICF] = utf8nfdicf(age);
	return um;
}

void utf8_unload(struct unicode_map *um)
{
	free(um);
}

static const struct utf8data *table(const struct unicode_map *um,
				    enum utf8_normalization n)
{
	return um ? um->ntab[n] : NULL;
}

int utf8_validate(const struct unicode_map *um, const struct qstr *str)
{
	if (utf8nlen(table(um, UTF8_NFDI), (const char *)str->name,
		     str->len) < 0)
		return -1;
	return 0;
}

/*
 * The folded bytes of one string, or where its stream fails: byte i of
 * the stream is buf[i] for i < len, then 0 (complete) or -1 (invalid).
 */
struct folded {
	unsigned char buf[FOLD_BUF];
	size_t len;
	int invalid;
};

/* 0, or -1 if the form does not fit (use the cursor). */
static int fold_qstr(const struct utf8data *t, const struct qstr *str,
		     struct folded *f)
{
	enum utf8_fold_status st = e2fold_utf8_fold(t, str->name, str->len,
						    f->buf, sizeof(f->buf),
						    &f->len);

	f->invalid = st == UTF8_FOLD_INVALID;
	return st == UTF8_FOLD_FULL ? -1 : 0;
}

/* The same for the rest of a string after an ASCII prefix of skip bytes. */
static int fold_rest(const struct utf8data *t, const struct qstr *str,
		     size_t skip, struct folded *f)
{
	enum utf8_fold_status st;

	if (!skip)
		return fold_qstr(t, str, f);
	st = e2fold_utf8_fold_rest(t, str->name + skip, str->len - skip,
				   f->buf, sizeof(f->buf), &f->len);
	f->invalid = st == UTF8_FOLD_INVALID;
	return st == UTF8_FOLD_FULL ? -1 : 0;
}

/* Has s ended at byte i (its length, or a NUL)? */
static int ended(const struct qstr *s, size_t i)
{
	return i >= s->len || s->name[i] == '\0';
}

/*
 * The length of the common prefix of two names over which both are ASCII
 * and fold to equal bytes, or -1 if a difference within the ASCII part
 * already decides. ASCII characters are starters: what they fold to is
 * final whatever follows, so it can be compared byte by byte before
 * anything is folded.
 */
static long ascii_prefix(const struct utf8data *t, const struct qstr *s1,
			 const struct qstr *s2)
{
	const unsigned char *map = e2fold_utf8_ascii_map(t);
	const unsigned char *a = s1->name, *b = s2->name;
	size_t i, n = s1->len < s2->len ? s1->len : s2->len;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t wa = swar_load(a + i), wb = swar_load(b + i);

		if (!swar_plain_ascii(wa) || !swar_plain_ascii(wb))
			break;
		if (wa != wb && (!t->casefold ||
				 swar_fold_ascii(wa) != swar_fold_ascii(wb)))
			return -1;
	}
	for (; i < n; i++) {
		unsigned int ca = a[i], cb = b[i];

		if (ca - 1 >= 0x7F || cb - 1 >= 0x7F)
			break;
		if (map[ca] != map[cb])
			return -1;
	}
	return i;
}

static int folded_byte(const struct folded *f, size_t i)
{
	if (i < f->len)
		return f->buf[i];
	return f->invalid ? -1 : 0;
}

/* The kernel's comparison loop, over two cursors. */
static int compare_cursors(const struct utf8data *t, const struct qstr *s1,
			   const struct qstr *s2)
{
	struct utf8cursor cur1, cur2;
	int c1, c2;

	if (utf8ncursor(&cur1, t, (const char *)s1->name, s1->len) < 0 ||
	    utf8ncursor(&cur2, t, (const char *)s2->name, s2->len) < 0)
		return -EINVAL;
	do {
		c1 = utf8byte(&cur1);
		c2 = utf8byte(&cur2);
		if (c1 < 0 || c2 < 0)
			return -EINVAL;
		if (c1 != c2)
			return 1;
	} while (c1);
	return 0;
}

/*
 * 0 equal, 1 different, -EINVAL: the first position where either stream
 * fails or the two differ decides, as in the kernel's byte loop.
 */
static int compare(const struct utf8data *t, const struct qstr *s1,
		   const struct qstr *s2)
{
	struct folded f1, f2;
	long skip;
	size_t i;

	if (!t || !s1->name || !s2->name)
		return -EINVAL;
	/*
	 * The same bytes make the same stream: only its validity is in
	 * question. Lookups of a name as it was created are the common case.
	 */
	if (s1->len == s2->len && !memcmp(s1->name, s2->name, s1->len))
		return e2fold_utf8_stream_ok(s1->name, s1->len) ? 0 : -EINVAL;
	skip = ascii_prefix(t, s1, s2);
	if (skip < 0)
		return 1;
	if (ended(s1, skip) || ended(s2, skip)) {
		/* Equal if both ended; different if the other goes on in ASCII. */
		if (ended(s1, skip) && ended(s2, skip))
			return 0;
		if ((ended(s1, skip) ? s2->name[skip] : s1->name[skip]) < 0x80)
			return 1;
	}
	if (fold_rest(t, s1, skip, &f1) || fold_rest(t, s2, skip, &f2))
		return compare_cursors(t, s1, s2);
	if (!f1.invalid && !f2.invalid)
		return f1.len != f2.len || memcmp(f1.buf, f2.buf, f1.len);
	for (i = 0;; i++) {
		int c1 = folded_byte(&f1, i), c2 = folded_byte(&f2, i);

		if (c1 < 0 || c2 < 0)
			return -EINVAL;
		if (c1 != c2)
			return 1;
		if (!c1)
			return 0;
	}
}

int utf8_strncmp(const struct unicode_map *um, const struct qstr *s1,
		 const struct qstr *s2)
{
	return compare(table(um, UTF8_NFDI), s1, s2);
}

int utf8_strncasecmp(const struct unicode_map *um, const struct qstr *s1,
		     const struct qstr *s2)
{
	return compare(table(um, UTF8_NFDICF), s1, s2);
}

/* Byte i of the already folded string: its bytes up to len, then 0. */
static int cf_byte(const struct qstr *cf, size_t i)
{
	return i < cf->len ? cf->name[i] : 0;
}

int utf8_strncasecmp_folded(const struct unicode_map *um,
			    const struct qstr *cf, const struct qstr *s1)
{
	const struct utf8data *t = table(um, UTF8_NFDICF);
	struct folded f;
	size_t i;

	if (!t)
		return -EINVAL;
	if (fold_qstr(t, s1, &f)) {
		struct utf8cursor cur;
		int c1, c2;

		if (utf8ncursor(&cur, t, (const char *)s1->name, s1->len) < 0)
			return -EINVAL;
		i = 0;
		do {
			c1 = utf8byte(&cur);
			c2 = cf_byte(cf, i++);
			if (c1 < 0)
				return -EINVAL;
			if (c1 != c2)
				return 1;
		} while (c1);
		return 0;
	}
	for (i = 0;; i++) {
		int c1 = folded_byte(&f, i), c2 = cf_byte(cf, i);

		if (c1 < 0)
			return -EINVAL;
		if (c1 != c2)
			return 1;
		if (!c1)
			return 0;
	}
}

typedef enum utf8_fold_status (*fold_fn)(const struct utf8data *t,
					 const unsigned char *s, size_t len,
					 unsigned char *out, size_t cap,
					 size_t *ret_len);

static int form_into(const struct utf8data *t, fold_fn fold,
		     const struct qstr *str, unsigned char *dest, size_t dlen)
{
	size_t n;

	if (!t || !dlen)
		return -EINVAL;
	/* The result needs room for its terminating NUL. */
	if (fold(t, str->name, str->len, dest, dlen - 1, &n) != UTF8_FOLD_OK)
		return -EINVAL;
	dest[n] = '\0';
	return n;
}

int utf8_normalize(const struct unicode_map *um, const struct qstr *str,
		   unsigned char *dest, size_t dlen)
{
	return form_into(table(um, UTF8_NFDI), e2fold_utf8_fold, str, dest,
			 dlen);
}

int utf8_casefold(const struct unicode_map *um, const struct qstr *str,
		  unsigned char *dest, size_t dlen)
{
	return form_into(table(um, UTF8_NFDICF), e2fold_utf8_fold, str, dest,
			 dlen);
}

int e2fold_utf8_casefold_keeping_ignorables(const struct unicode_map *um,
					    const struct qstr *str,
					    unsigned char *dest, size_t dlen)
{
	return form_into(table(um, UTF8_NFDICF),
			 e2fold_utf8_fold_keeping_ignorables, str, dest, dlen);
}

int e2fold_utf8_is_ignorable(uint32_t cp)
{
	const struct utf8data *t = utf8nfdi(utf8version_latest_age());
	struct utf8_char ch;
	unsigned char hangul[12];

	utf8_classify(t, cp, hangul, &ch);
	return ch.map && !ch.maplen;
}

/* The 64-bit kernel's name hash (include/linux/stringhash.h). */
static unsigned long name_hash_step(unsigned long hash, unsigned int c)
{
	return (hash + (c << 4) + (c >> 4)) * 11;
}

static unsigned int name_hash_end(unsigned long hash)
{
	return (unsigned int)(((unsigned long long)hash *
			       0x61C8864680B583EBull) >> 32);
}

int utf8_casefold_hash(const struct unicode_map *um, const void *salt,
		       const struct qstr *str, unsigned int *ret_hash)
{
	const struct utf8data *t = table(um, UTF8_NFDICF);
	unsigned long hash = (unsigned long)salt;
	struct folded f;
	size_t i;

	if (!t)
		return -EINVAL;
	if (fold_qstr(t, str, &f)) {
		struct utf8cursor cur;
		int c;

		if (utf8ncursor(&cur, t, (const char *)str->name, str->len) < 0)
			return -EINVAL;
		while ((c = utf8byte(&cur)) > 0)
			hash = name_hash_step(hash, c);
		if (c < 0)
			return -EINVAL;
	} else {
		if (f.invalid)
			return -EINVAL;
		for (i = 0; i < f.len; i++)
			hash = name_hash_step(hash, f.buf[i]);
	}
	*ret_hash = name_hash_end(hash);
	return 0;
}
