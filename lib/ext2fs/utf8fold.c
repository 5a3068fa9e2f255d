/*
 * utf8fold.c: normalize a whole string at once.
 *
 * The byte stream is the one utf8cursor.c defines (read its comment
 * first); this file produces it in one forward pass instead of one byte
 * per call and one rescan per combining class:
 *   - ASCII between runs is copied through a 128-byte map, with no table
 *     lookup: every ASCII character is a Unicode 1.1 starter whose only
 *     mapping is A-Z -> a-z when case folding (the generator checks this);
 *   - other input is cut into tokens (a code point of a mapping, an
 *     unmapped code point, a stray continuation byte, an ignorable, the
 *     end, an invalid sequence), starters are copied as they come, and a
 *     run of non-starters is collected and emitted sorted by class.
 * A run that holds stray continuation bytes is emitted pass by pass, as
 * the kernel does; one longer than MAX_RUN tokens (never seen in a real
 * name) falls back to the cursor.
 */
#include "config.h"

#include <string.h>

#include "utf8fold.h"
#include "utf8swar.h"

#define MAX_RUN 32

enum tok_kind {
	TOK_END,
	TOK_INVALID,
	TOK_STRAY,		/* a continuation byte where a code point starts */
	TOK_CHAR,
	TOK_IGNORABLE,
};

struct tok {
	uint8_t kind;
	uint8_t ccc;
	uint8_t n;		/* bytes at p */
	const unsigned char *p;
};

struct fold_iter {
	const struct utf8data *t;
	const unsigned char *s, *end;	/* input */
	const unsigned char *x, *xend;	/* the mapping being read */
	const unsigned char *ascii;
	unsigned char hangul[12];
};

/* ASCII as each form writes it. */
static const unsigned char ascii_same[128] = {
#define R(b) b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7
	R(0x00), R(0x08), R(0x10), R(0x18), R(0x20), R(0x28), R(0x30), R(0x38),
	R(0x40), R(0x48), R(0x50), R(0x58), R(0x60), R(0x68), R(0x70), R(0x78),
};
static const unsigned char ascii_folded[128] = {
	R(0x00), R(0x08), R(0x10), R(0x18), R(0x20), R(0x28), R(0x30), R(0x38),
	0x40, R(0x61), R(0x69), R(0x71), 0x79, 0x7a, 0x5b, 0x5c, 0x5d, 0x5e,
	0x5f, R(0x60), R(0x68), R(0x70), R(0x78),
#undef R
};

static inline void next_tok(struct fold_iter *it, struct tok *tk)
{
	struct utf8_char ch;
	uint32_t cp = 0;
	unsigned int n, c;

	if (it->x < it->xend) {
		/* Inside a mapping: valid, and never mapped again. */
		tk->kind = TOK_CHAR;
		tk->p = it->x;
		if (*it->x < 0x80) {
			tk->n = 1;
			tk->ccc = 0;
		} else {
			tk->n = utf8_decode(it->x, 4, &cp);
			tk->ccc = utf8_inner_ccc(it->t, cp);
		}
		it->x += tk->n;
		return;
	}
	if (it->s == it->end || *it->s == '\0') {
		tk->kind = TOK_END;
		return;
	}
	c = *it->s;
	if (c < 0x80) {
		tk->kind = TOK_CHAR;
		tk->p = it->ascii + c;
		tk->n = 1;
		tk->ccc = 0;
		it->s++;
		return;
	}
	if ((c & 0xC0) == 0x80) {
		tk->kind = TOK_STRAY;
		tk->p = it->s++;
		tk->n = 1;
		return;
	}
	n = utf8_decode(it->s, it->end - it->s, &cp);
	if (!n) {
		tk->kind = TOK_INVALID;
		return;
	}
	utf8_classify(it->t, cp, it->hangul, &ch);
	if (!ch.map) {
		tk->kind = TOK_CHAR;
		tk->p = it->s;
		tk->n = n;
		tk->ccc = ch.ccc;
		it->s += n;
		return;
	}
	it->s += n;
	if (!ch.maplen) {
		tk->kind = TOK_IGNORABLE;
		tk->p = it->s - n;	/* for callers that keep ignorables */
		tk->n = n;
		return;
	}
	it->x = ch.map;
	it->xend = ch.map + ch.maplen;
	next_tok(it, tk);
}

struct sink {
	unsigned char *p, *end;
};

/* Append; 0, or -1 when the buffer is full. */
static inline int put(struct sink *o, const unsigned char *p, unsigned int n)
{
	if ((size_t)(o->end - o->p) < n)
		return -1;
	memcpy(o->p, p, n);
	o->p += n;
	return 0;
}

/* A run without stray bytes: a stable sort by class. */
static int put_sorted_run(struct sink *o, struct tok *run, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++) {
		struct tok t = run[i];

		for (j = i; j > 0 && run[j - 1].ccc > t.ccc; j--)
			run[j] = run[j - 1];
		run[j] = t;
	}
	for (i = 0; i < n; i++)
		if (put(o, run[i].p, run[i].n))
			return -1;
	return 0;
}

/* The stray bytes of a run, as its first pass emits them. */
static int put_strays(struct sink *o, const struct tok *run, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (run[i].kind == TOK_STRAY && put(o, run[i].p, 1))
			return -1;
	return 0;
}

/*
 * A run with stray bytes, pass by pass: every pass emits the code points
 * of its class and, again, every stray byte.
 */
static int put_passes(struct sink *o, const struct tok *run, unsigned int n)
{
	unsigned int i, cur = 0;

	if (put_strays(o, run, n))
		return -1;
	for (;;) {
		unsigned int next = 256;

		for (i = 0; i < n; i++)
			if (run[i].kind == TOK_CHAR && run[i].ccc > cur &&
			    run[i].ccc < next)
				next = run[i].ccc;
		if (next == 256)
			return 0;
		for (i = 0; i < n; i++)
			if ((run[i].kind == TOK_STRAY || run[i].ccc == next) &&
			    put(o, run[i].p, run[i].n))
				return -1;
		cur = next;
	}
}

static enum utf8_fold_status fold_by_cursor(const struct utf8data *t,
					    const unsigned char *s, size_t len,
					    unsigned char *out, size_t cap,
					    size_t *ret_len)
{
	struct utf8cursor cur;
	size_t n = 0;
	int c;

	*ret_len = 0;
	if (utf8ncursor(&cur, t, (const char *)s, len))
		return UTF8_FOLD_INVALID;
	while ((c = utf8byte(&cur)) > 0) {
		if (n == cap)
			return UTF8_FOLD_FULL;
		out[n++] = c;
		*ret_len = n;
	}
	return c ? UTF8_FOLD_INVALID : UTF8_FOLD_OK;
}

int e2fold_utf8_stream_ok(const unsigned char *s, size_t len)
{
	const unsigned char *e;
	uint32_t cp;

	if (!s)
		return 0;
	e = len > (size_t)-1 - (size_t)s ? (const unsigned char *)-1 : s + len;
	if (s < e && (*s & 0xC0) == 0x80)
		return 0;
	while (s < e && *s) {
		unsigned int n;

		if (e - s >= 8 && swar_plain_ascii(swar_load(s))) {
			s += 8;
			continue;
		}
		if (*s < 0xC0) {	/* ASCII, or a stray byte */
			s++;
			continue;
		}
		if (*s < 0xE0) {	/* two bytes: Latin, Greek, Cyrillic... */
			if (*s < 0xC2 || e - s < 2 || (s[1] & 0xC0) != 0x80)
				return 0;
			s += 2;
			continue;
		}
		n = utf8_decode(s, e - s, &cp);
		if (!n)
			return 0;
		s += n;
	}
	return 1;
}

const unsigned char *e2fold_utf8_ascii_map(const struct utf8data *t)
{
	return t->casefold ? ascii_folded : ascii_same;
}

enum fast_kind {
	FAST_KEEP,	/* a starter without mapping: copy its bytes */
	FAST_MAP,	/* a mapping of starters only: copy it (length 0: drop) */
	FAST_MAP_TAIL,	/* a mapping in class order ending in non-starters:
			   copy it if a starter follows */
	FAST_HANGUL,	/* a Hangul syllable: arithmetic, all starters */
	FAST_SLOW,	/* anything that may need reordering: the token path */
};

/*
 * What a code point needs, for the fast path: most of every name is made
 * of starters, whose bytes (or mapping) go out as soon as they are read.
 */
static inline enum fast_kind fast_class(const struct utf8data *t, uint32_t cp,
					const unsigned char **ret_map,
					unsigned int *ret_len)
{
	struct utf8_entry e;

	if (cp - UTF8_HANGUL_FIRST <= UTF8_HANGUL_LAST - UTF8_HANGUL_FIRST)
		return UTF8_HANGUL_GEN <= t->gen ? FAST_HANGUL : FAST_KEEP;
	utf8_lookup(t, cp, &e);
	if (e.corrected)
		return FAST_SLOW;
	if (!e.map)
		return e.ccc ? FAST_SLOW : FAST_KEEP;
	if (!utf8_map_starters(e.map) && !utf8_map_ordered(e.map))
		return FAST_SLOW;
	*ret_map = utf8_map_bytes(e.map);
	*ret_len = utf8_map_len(e.map);
	return utf8_map_starters(e.map) ? FAST_MAP : FAST_MAP_TAIL;
}

/*
 * Copy input starting at *ps while it needs no reordering, into *po.
 * Stops before anything else (or at the end, or when out of room: the
 * token path then finds out which). Local pointers keep the loop in
 * registers.
 *
 * A mapping that ends in non-starters (e + U+0301 for U+00E9) is final
 * only if a starter comes next; it is copied at once, and taken back if
 * the loop stops before it has seen one: the token path then starts
 * again from the code point that produced it.
 */
static inline void fast_path(const struct utf8data *t, const unsigned char *ascii,
			     const unsigned char **ps, const unsigned char *e,
			     unsigned char **po, unsigned char *oe,
			     int keep_ignorables)
{
	const unsigned char *p = *ps;
	unsigned char *op = *po;
	const unsigned char *undo_p = NULL;	/* set: a tail is pending */
	unsigned char *undo_op = NULL;
	int casefold = ascii != ascii_same;

	while (p < e) {
		unsigned int c = *p, n;
		const unsigned char *map = NULL;
		unsigned int maplen = 0;
		uint32_t cp = 0;

		if (c - 1 < 0x7F) {
			const unsigned char *run = p;

			/* Whole words of ASCII, while they fit both ends. */
			while (e - p >= 8 && oe - op >= 8) {
				uint64_t w = swar_load(p);

				if (!swar_plain_ascii(w))
					break;
				swar_store(op, casefold ? swar_fold_ascii(w) : w);
				p += 8;
				op += 8;
			}
			/*
			 * The last few bytes of an ASCII run of 8 or more: the
			 * input's last word, stored over the output of the
			 * bytes of this run it shares (the same values).
			 */
			if (p < e && e - p < 8 && e - run >= 8 &&
			    oe - op >= e - p) {
				uint64_t w = swar_load(e - 8);

				if (swar_plain_ascii(w)) {
					swar_store(op - (8 - (e - p)), casefold ?
						   swar_fold_ascii(w) : w);
					op += e - p;
					p = e;
				}
			}
			undo_p = NULL;
			if (p == e)
				break;
			c = *p;
		}
		if (c - 1 < 0x7F) {
			if (op == oe)
				goto out;
			*op++ = ascii[c];
			p++;
			undo_p = NULL;
			continue;
		}
		if (c < 0xC2)
			goto out;	/* NUL, or a stray byte: the token path */
		n = utf8_decode(p, e - p, &cp);
		if (!n)
			goto out;
		switch (fast_class(t, cp, &map, &maplen)) {
		case FAST_KEEP:
			if ((size_t)(oe - op) < n)
				goto out;
			/* n is 2 to 4: stores, not a call to memcpy */
			op[0] = p[0];
			op[1] = p[1];
			if (n > 2) {
				op[2] = p[2];
				if (n > 3)
					op[3] = p[3];
			}
			op += n;
			undo_p = NULL;
			break;
		case FAST_MAP:
			if ((!maplen && keep_ignorables) ||
			    (size_t)(oe - op) < maplen)
				goto out;
			memcpy(op, map, maplen);
			op += maplen;
			if (maplen)	/* an ignorable settles nothing */
				undo_p = NULL;
			break;
		case FAST_MAP_TAIL:
			if ((size_t)(oe - op) < maplen)
				goto out;
			undo_p = p;
			undo_op = op;
			memcpy(op, map, maplen);
			op += maplen;
			break;
		case FAST_HANGUL:
			if (oe - op < 9)
				goto out;
			op += e2fold_utf8_hangul(cp, op);
			undo_p = NULL;
			break;
		default:
			goto out;
		}
		p += n;
	}
	/* The end of the input: a pending tail stands. */
	undo_p = NULL;
out:
	if (undo_p) {
		p = undo_p;
		op = undo_op;
	}
	*ps = p;
	*po = op;
}

static enum utf8_fold_status fold(const struct utf8data *t,
				  const unsigned char *s, size_t len,
				  unsigned char *out, size_t cap,
				  size_t *ret_len, int keep_ignorables,
				  int check_start)
{
	struct fold_iter it;
	struct sink o = { out, out + cap };
	struct tok tk, run[MAX_RUN];
	unsigned int nrun, strays;
	enum utf8_fold_status status;

	*ret_len = 0;
	if (!t || !s || (check_start && len > 0 && (s[0] & 0xC0) == 0x80))
		return UTF8_FOLD_INVALID;
	it.t = t;
	it.s = s;
	/* A NUL ends the input as well; the bound only guards overflow. */
	it.end = len > (size_t)-1 - (size_t)s ? (const unsigned char *)-1 : s + len;
	it.x = it.xend = NULL;
	it.ascii = t->casefold ? ascii_folded : ascii_same;

	for (;;) {
		/* Between runs, in the input: the fast path. */
		if (it.x == it.xend) {
			fast_path(t, it.ascii, &it.s, it.end, &o.p, o.end,
				  keep_ignorables);
			if (it.s == it.end) {	/* the common way out */
				status = UTF8_FOLD_OK;
				goto done;
			}
		}
		next_tok(&it, &tk);
dispatch:
		switch (tk.kind) {
		case TOK_END:
			status = UTF8_FOLD_OK;
			goto done;
		case TOK_INVALID:
			status = UTF8_FOLD_INVALID;
			goto done;
		case TOK_IGNORABLE:
			if (keep_ignorables && put(&o, tk.p, tk.n))
				goto full;
			continue;
		case TOK_STRAY:
			if (put(&o, tk.p, 1))
				goto full;
			continue;
		}
		if (tk.ccc == 0) {
			if (put(&o, tk.p, tk.n))
				goto full;
			continue;
		}

		/* A run of non-starters, up to the next stopper. */
		run[0] = tk;
		nrun = 1;
		strays = 0;
		for (;;) {
			next_tok(&it, &tk);
			if (tk.kind == TOK_STRAY)
				strays++;
			else if (tk.kind != TOK_CHAR || tk.ccc == 0)
				break;
			if (nrun == MAX_RUN && !keep_ignorables && check_start)
				return fold_by_cursor(t, s, len, out, cap, ret_len);
			if (nrun == MAX_RUN)
				goto full;	/* no cursor for this variant */
			run[nrun++] = tk;
		}
		if (tk.kind == TOK_INVALID) {
			/* The first pass meets the error. */
			if (put_strays(&o, run, nrun))
				goto full;
			status = UTF8_FOLD_INVALID;
			goto done;
		}
		if (strays ? put_passes(&o, run, nrun) :
		    nrun == 1 ? put(&o, run[0].p, run[0].n) :
		    put_sorted_run(&o, run, nrun))
			goto full;
		goto dispatch;
	}
full:
	status = UTF8_FOLD_FULL;
done:
	*ret_len = o.p - out;
	return status;
}

enum utf8_fold_status e2fold_utf8_fold(const struct utf8data *t,
				       const unsigned char *s, size_t len,
				       unsigned char *out, size_t cap,
				       size_t *ret_len)
{
	return fold(t, s, len, out, cap, ret_len, 0, 1);
}

enum utf8_fold_status e2fold_utf8_fold_rest(const struct utf8data *t,
					    const unsigned char *s, size_t len,
					    unsigned char *out, size_t cap,
					    size_t *ret_len)
{
	return fold(t, s, len, out, cap, ret_len, 0, 0);
}

enum utf8_fold_status e2fold_utf8_fold_keeping_ignorables(
	const struct utf8data *t, const unsigned char *s, size_t len,
	unsigned char *out, size_t cap, size_t *ret_len)
{
	return fold(t, s, len, out, cap, ret_len, 1, 1);
}
