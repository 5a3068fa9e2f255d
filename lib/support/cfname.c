/* cfname.c: name keys, validity and safe printing. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cfname.h"
#include "unicode_internal.h"

void e2fold_name_key(const struct unicode_map *um, const unsigned char *name,
		     unsigned int len, struct e2fold_key *key)
{
	if (um && len) {
		struct qstr q = { name, len };
		int n = utf8_casefold(um, &q, key->bytes, sizeof(key->bytes));

		if (n >= 0) {
			key->len = n;
			key->folded = 1;
			return;
		}
	}
	/* Names are at most 255 bytes; clamp anything longer defensively. */
	key->len = len < sizeof(key->bytes) ? len : sizeof(key->bytes);
	memcpy(key->bytes, name, key->len);
	key->folded = 0;
}

int e2fold_name_is_valid(const struct unicode_map *um,
			 const unsigned char *name, unsigned int len)
{
	struct qstr q = { name, len };

	return utf8_validate(um, &q) == 0;
}

/*
 * Length of a printable UTF-8 character at s, or 0 if the bytes there are
 * not one (invalid, or a control or formatting character that could
 * disturb a terminal).
 */
static unsigned int printable_char(const unsigned char *s, size_t avail)
{
	uint32_t cp = 0;
	unsigned int n = utf8_decode(s, avail, &cp);

	if (!n)
		return 0;
	if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0))
		return 0;
	/* Line separators and bidirectional controls reorder what follows. */
	if (cp == 0x2028 || cp == 0x2029 || (cp >= 0x200E && cp <= 0x200F) ||
	    (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
		return 0;
	/*
	 * Default_Ignorable code points are invisible, and they are exactly
	 * what makes two names that look alike different: show them.
	 */
	if (cp >= 0x80 && e2fold_utf8_is_ignorable(cp))
		return 0;
	return n;
}

/*
 * How one character of a name is shown: its text into tmp (room for 16
 * bytes), *ret_len its length; returns the bytes of s it stands for.
 */
typedef unsigned int (*escape_fn)(const unsigned char *s, size_t avail,
				  char *tmp, size_t *ret_len);

/* name shown character by character with f, cut to fit size. */
static char *escape_with(escape_fn f, const unsigned char *name,
			 unsigned int len, char *buf, size_t size)
{
	size_t out = 0, i = 0;

	while (i < len) {
		char tmp[16];
		size_t plen;
		unsigned int n = f(name + i, len - i, tmp, &plen);

		if (out + plen >= size)
			break;
		memcpy(buf + out, tmp, plen);
		out += plen;
		i += n;
	}
	buf[out] = '\0';
	return buf;
}

/* As a terminal may show it; the rest as \xHH. */
static unsigned int terminal_char(const unsigned char *s, size_t avail,
				  char *tmp, size_t *ret_len)
{
	unsigned int n = printable_char(s, avail);

	if (!n) {
		*ret_len = snprintf(tmp, 16, "\\x%02X", s[0]);
		return 1;
	}
	if (s[0] == '\\') {
		*ret_len = snprintf(tmp, 16, "\\\\");
	} else {
		memcpy(tmp, s, n);
		*ret_len = n;
	}
	return n;
}

char *e2fold_escape_name(const unsigned char *name, unsigned int len,
			 char *buf, size_t size)
{
	return escape_with(terminal_char, name, len, buf, size);
}

/* The newest tables the engine has, for what a terminal would show. */
static void latest_map(struct unicode_map *um)
{
	um->version = utf8version_latest_age();
	um->ntab[UTF8_NFDI] = utf8nfdi(um->version);
	um->ntab[UTF8_NFDICF] = utf8nfdicf(um->version);
}

/*
 * As a terminal shows them: escaped (so that invisible code points are
 * already \xHH text), then compared in NFD. Different names whose escaped
 * forms are canonically equivalent look the same.
 */
int e2fold_names_print_alike(const unsigned char *a, unsigned int alen,
			     const unsigned char *b, unsigned int blen)
{
	char ea[E2FOLD_ESCAPED_SIZE(E2FOLD_NAME_MAX)];
	char eb[E2FOLD_ESCAPED_SIZE(E2FOLD_NAME_MAX)];
	struct unicode_map um;
	struct qstr qa, qb;

	if ((alen == blen && !memcmp(a, b, alen)) || alen > E2FOLD_NAME_MAX ||
	    blen > E2FOLD_NAME_MAX)
		return 0;
	e2fold_escape_name(a, alen, ea, sizeof(ea));
	e2fold_escape_name(b, blen, eb, sizeof(eb));
	qa.name = (const unsigned char *)ea;
	qa.len = strlen(ea);
	qb.name = (const unsigned char *)eb;
	qb.len = strlen(eb);
	latest_map(&um);
	return utf8_strncmp(&um, &qa, &qb) == 0;
}

/* ASCII as itself, every other code point as \uXXXX, a bad byte \xHH. */
static unsigned int exact_char(const unsigned char *s, size_t avail,
			       char *tmp, size_t *ret_len)
{
	uint32_t cp = 0;
	unsigned int n = utf8_decode(s, avail, &cp);

	if (n && cp == '\\')
		*ret_len = snprintf(tmp, 16, "\\\\");
	else if (n && cp >= 0x20 && cp < 0x7F)
		*ret_len = snprintf(tmp, 16, "%c", (int)cp);
	else if (n && cp <= 0xFFFF)
		*ret_len = snprintf(tmp, 16, "\\u%04X", cp);
	else if (n)
		*ret_len = snprintf(tmp, 16, "\\U%08X", cp);
	else
		*ret_len = snprintf(tmp, 16, "\\x%02X", s[0]);
	return n ? n : 1;
}

char *e2fold_escape_name_exact(const unsigned char *name, unsigned int len,
			       char *buf, size_t size)
{
	return escape_with(exact_char, name, len, buf, size);
}

char *e2fold_json_escape(const unsigned char *s, unsigned int len, char *buf,
			 size_t size)
{
	size_t out = 0, i = 0;

	while (i < len) {
		uint32_t cp = 0;
		unsigned int n = utf8_decode(s + i, len - i, &cp);
		char tmp[8];
		const char *piece = tmp;
		size_t plen;

		if (n && cp == '"') {
			piece = "\\\"";
			plen = 2;
		} else if (n && cp == '\\') {
			/*
			 * Doubled in the decoded text too, as e2fold_escape_name
			 * writes it: a name holding the text \xFF must not read
			 * back as the byte 0xFF.
			 */
			piece = "\\\\\\\\";
			plen = 4;
		} else if (n && cp < 0x20) {
			plen = snprintf(tmp, sizeof(tmp), "\\u%04x", cp);
		} else if (n) {
			piece = (const char *)s + i;
			plen = n;
		} else {
			/* Not UTF-8: a visible escape; the hex field is exact. */
			plen = snprintf(tmp, sizeof(tmp), "\\\\x%02X", s[i]);
			n = 1;
		}
		if (out + plen >= size)
			break;
		memcpy(buf + out, piece, plen);
		out += plen;
		i += n;
	}
	buf[out] = '\0';
	return buf;
}
