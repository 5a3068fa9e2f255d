/*
 * utf8cursor.c: the normalized form of a string, one byte at a time, with
 * the kernel's exact output on every input, valid or not; and the length
 * and age queries.
 *
 * How the kernel's byte stream is defined (Linux fs/unicode, utf8byte):
 * the input is read as a sequence of code points, each replaced by its
 * mapping when it has one. A starter (combining class 0) is emitted as
 * soon as it is reached. A non-starter begins a "run" that lasts until the
 * next starter, ignorable code point or end of input; the run is emitted
 * in passes, one per distinct combining class in increasing order, each
 * pass emitting the run's code points of that class in input order. A
 * first pass finds the lowest class and emits no code point.
 *
 * Continuation bytes decide the quirks. A byte 10xxxxxx met where a code
 * point should start is emitted on the spot, in whatever pass is running:
 * so "A\x80" folds to "a\x80", and a stray byte inside a run is emitted
 * once per pass, including the first ("\xc3\xa9\x80" -> "e\x80\xcc\x81\x80").
 * Any other undecodable sequence ends the stream with -1, after the bytes
 * already emitted. A NUL byte ends the input.
 *
 * The cursor implements exactly that, without buffering: a pass restarts
 * from the saved beginning of the run. The fast path in utf8fold.c
 * computes the same bytes differently and is checked against this.
 */
#include "config.h"

#include "utf8lookup.h"

#define CCC_FIRST_PASS (-1)	/* scanning a run for its lowest class */
#define CCC_NONE 255		/* no class left above the current one */
#define CCC_IGNORABLE 256	/* class_here(): a code point mapped to nothing */

static int cursor_start(struct utf8cursor *u8c, const struct utf8data *data,
			const char *s, size_t len)
{
	if (!data || !s)
		return -1;
	u8c->data = data;
	u8c->s = (const unsigned char *)s;
	u8c->xend = NULL;
	u8c->resume = NULL;
	u8c->len = len;
	u8c->run_s = NULL;
	u8c->run_xend = NULL;
	u8c->run_resume = NULL;
	u8c->run_len = 0;
	u8c->ccc = 0;
	u8c->next_ccc = 0;
	/* A string may not begin in the middle of a sequence. */
	if (len > 0 && (u8c->s[0] & 0xC0) == 0x80)
		return -1;
	return 0;
}

int utf8ncursor(struct utf8cursor *u8c, const struct utf8data *data,
		const char *s, size_t len)
{
	return cursor_start(u8c, data, s, len);
}

int utf8cursor(struct utf8cursor *u8c, const struct utf8data *data,
	       const char *s)
{
	return cursor_start(u8c, data, s, (size_t)-1);
}

/* Emit the byte under the cursor. */
static int take_byte(struct utf8cursor *u8c)
{
	if (!u8c->xend)
		u8c->len--;
	return *u8c->s++;
}

/* Step over the code point under the cursor without emitting it. */
static void skip_char(struct utf8cursor *u8c)
{
	unsigned int n = utf8_seqlen(*u8c->s);

	if (!u8c->xend)
		u8c->len -= n;
	u8c->s += n;
}

static void save_run(struct utf8cursor *u8c)
{
	u8c->run_s = u8c->s;
	u8c->run_xend = u8c->xend;
	u8c->run_resume = u8c->resume;
	u8c->run_len = u8c->len;
}

static void restore_run(struct utf8cursor *u8c)
{
	u8c->s = u8c->run_s;
	u8c->xend = u8c->run_xend;
	u8c->resume = u8c->run_resume;
	u8c->len = u8c->run_len;
}

/*
 * Class of the code point under the cursor, entering its mapping if it
 * has one (the cursor then points at the mapping's first byte).
 * Returns 0..254, CCC_IGNORABLE for a code point mapped to nothing, or -1
 * if the input is not valid here.
 */
static int class_here(struct utf8cursor *u8c)
{
	struct utf8_char ch;
	uint32_t cp = 0;
	unsigned int n;

	if (u8c->xend) {
		/* Inside a mapping: valid by construction, never mapped again. */
		utf8_decode(u8c->s, 4, &cp);
		return utf8_inner_ccc(u8c->data, cp);
	}
	n = utf8_decode(u8c->s, u8c->len, &cp);
	if (!n)
		return -1;
	utf8_classify(u8c->data, cp, u8c->hangul, &ch);
	if (!ch.map)
		return ch.ccc;
	u8c->len -= n;
	u8c->resume = u8c->s + n;
	u8c->s = ch.map;
	u8c->xend = ch.map + ch.maplen;
	return ch.maplen ? ch.ccc : CCC_IGNORABLE;
}

int utf8byte(struct utf8cursor *u8c)
{
	int ccc;

	for (;;) {
		if (u8c->xend && u8c->s == u8c->xend) {
			/* The mapping is done: back to the input. */
			u8c->s = u8c->resume;
			u8c->xend = NULL;
			u8c->resume = NULL;
		}
		if (!u8c->xend && (u8c->len == 0 || *u8c->s == '\0')) {
			if (u8c->ccc == 0)
				return 0;
			ccc = 0;	/* the end closes a run */
		} else if ((*u8c->s & 0xC0) == 0x80) {
			return take_byte(u8c);
		} else {
			ccc = class_here(u8c);
			if (ccc < 0)
				return -1;
			if (ccc == CCC_IGNORABLE) {
				if (u8c->ccc == 0)
					continue;
				ccc = 0;	/* an ignorable closes a run */
			} else {
				if (ccc != 0 && u8c->ccc < ccc &&
				    ccc < u8c->next_ccc)
					u8c->next_ccc = ccc;
				if (ccc == u8c->ccc)
					return take_byte(u8c);
			}
		}

		/* The code point under the cursor is not emitted in this pass. */
		if (u8c->next_ccc == 0) {
			/* A non-starter after a starter: a run begins. */
			u8c->ccc = CCC_FIRST_PASS;
			u8c->next_ccc = ccc;
			save_run(u8c);
			skip_char(u8c);
		} else if (ccc != 0) {
			skip_char(u8c);
		} else if (u8c->next_ccc != CCC_NONE) {
			/* End of a pass: emit the next class from the start. */
			u8c->ccc = u8c->next_ccc;
			u8c->next_ccc = CCC_NONE;
			restore_run(u8c);
		} else {
			/* End of the last pass: carry on from here. */
			u8c->ccc = 0;
			u8c->next_ccc = 0;
		}
	}
}

ssize_t utf8nlen(const struct utf8data *data, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char hangul[12];
	ssize_t ret = 0;

	if (!data || !s)
		return -1;
	while (len && *s) {
		struct utf8_char ch;
		uint32_t cp;
		unsigned int n = utf8_decode(s, len, &cp);

		if (!n)
			return -1;
		utf8_classify(data, cp, hangul, &ch);
		ret += ch.map ? ch.maplen : n;
		len -= n;
		s += n;
	}
	return ret;
}

ssize_t utf8len(const struct utf8data *data, const char *s)
{
	return utf8nlen(data, s, (size_t)-1);
}

/*
 * The highest or lowest age of the characters of s that the table's
 * version knows; -1 if s is invalid.
 */
static int age_scan(const struct utf8data *data, const char *str, size_t len,
		    int want_max)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned int maxage, age;

	if (!data || !s)
		return -1;
	maxage = utf8_age_of_gen(data->gen);
	age = want_max ? 0 : maxage;
	while (len && *s) {
		uint32_t cp;
		unsigned int n = utf8_decode(s, len, &cp), a;

		if (!n)
			return -1;
		a = utf8_age_of_gen(e2fold_utf8_gen_of(cp));
		if (a <= maxage && (want_max ? a > age : a < age))
			age = a;
		len -= n;
		s += n;
	}
	return age;
}

int utf8agemax(const struct utf8data *data, const char *s)
{
	return age_scan(data, s, (size_t)-1, 1);
}

int utf8agemin(const struct utf8data *data, const char *s)
{
	return age_scan(data, s, (size_t)-1, 0);
}

int utf8nagemax(const struct utf8data *data, const char *s, size_t len)
{
	return age_scan(data, s, len, 1);
}

int utf8nagemin(const struct utf8data *data, const char *s, size_t len)
{
	return age_scan(data, s, len, 0);
}
