/* newname.c: readable, valid, unique replacement names. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "newname.h"
#include "unicode_internal.h"

#define MAX_EXT 16
#define MAX_TRIES 1000

/*
 * Is s[0..len) acceptable to a strict filesystem as it is? Valid UTF-8
 * with no stray continuation byte: exactly what utf8_decode accepts,
 * sequence by sequence.
 */
static unsigned int valid_prefix_char(const unsigned char *s, unsigned int len)
{
	uint32_t cp = 0;

	if (s[0] == '\0')
		return 0;
	return utf8_decode(s, len, &cp);
}

unsigned int e2fold_sanitize_name(const unsigned char *name, unsigned int len,
				  unsigned char *out)
{
	unsigned int in = 0, n = 0;

	while (in < len) {
		unsigned int c = valid_prefix_char(name + in, len - in);

		if (c) {
			if (n + c > E2FOLD_NAME_MAX)
				break;
			memcpy(out + n, name + in, c);
			n += c;
			in += c;
		} else {
			static const char hex[] = "0123456789ABCDEF";

			/* Three bytes, no NUL: out is full at 255. */
			if (n + 3 > E2FOLD_NAME_MAX)
				break;
			out[n++] = '%';
			out[n++] = hex[name[in] >> 4];
			out[n++] = hex[name[in] & 0xF];
			in++;
		}
	}
	return n;
}

/* The largest code point boundary of s (valid UTF-8) at or below max. */
static unsigned int boundary_at_most(const unsigned char *s, unsigned int len,
				     unsigned int max)
{
	unsigned int pos = 0;

	while (pos < len) {
		unsigned int c = utf8_seqlen(s[pos]);

		if (pos + c > max)
			break;
		pos += c;
	}
	return pos;
}

/* Where the extension starts (the last '.'), or len if it has none. */
static unsigned int extension_start(const unsigned char *s, unsigned int len)
{
	unsigned int i = len;

	while (i > 1) {
		i--;
		if (s[i] == '.')
			return len - i <= MAX_EXT ? i : len;
	}
	return len;
}

errcode_t e2fold_unique_name(const unsigned char *name, unsigned int len,
			     e2fold_taken_fn taken, void *arg,
			     unsigned char *out, unsigned int *ret_len)
{
	unsigned char clean[E2FOLD_NAME_MAX];
	unsigned int clen = e2fold_sanitize_name(name, len, clean);
	unsigned int ext = extension_start(clean, clen);
	unsigned int n;

	/* A sanitized name that is free needs no number. */
	if ((clen != len || memcmp(clean, name, len)) && clen &&
	    !taken(arg, clean, clen)) {
		memcpy(out, clean, clen);
		*ret_len = clen;
		return 0;
	}
	for (n = 1; n <= MAX_TRIES; n++) {
		char suffix[16];
		unsigned int slen = snprintf(suffix, sizeof(suffix), "~%u", n);
		unsigned int elen = clen - ext;
		unsigned int stem = boundary_at_most(clean, ext,
						     E2FOLD_NAME_MAX - slen - elen);
		unsigned int total = stem + slen + elen;

		memcpy(out, clean, stem);
		memcpy(out + stem, suffix, slen);
		memcpy(out + stem + slen, clean + ext, elen);
		if (!taken(arg, out, total)) {
			*ret_len = total;
			return 0;
		}
	}
	return EXT2_ET_TOO_MANY_REFS;
}
