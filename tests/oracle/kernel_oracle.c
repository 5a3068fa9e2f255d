/* kernel_oracle.c: plain-typed wrappers over the kernel's fs/unicode. */
#include <stdio.h>
#include <linux/unicode.h>

#include "kernel_oracle.h"

/* From the kernel's utf8n.h, renamed by kern-rename.h. */
int utf8ncursor(void *u8c, const struct unicode_map *um,
		enum utf8_normalization n, const char *s, size_t len);
int utf8byte(void *u8c);
ssize_t utf8nlen(const struct unicode_map *um, enum utf8_normalization n,
		 const char *s, size_t len);

static struct qstr q(const unsigned char *s, unsigned int len)
{
	struct qstr r = { .name = s };

	r.len = len;
	return r;
}

void *ko_load_version(unsigned int maj, unsigned int min, unsigned int rev)
{
	struct unicode_map *um = utf8_load(UNICODE_AGE(maj, min, rev));

	if (!um || (long)um < 0 && (long)um > -4096)
		return NULL;
	return um;
}

void ko_unload(void *um)
{
	utf8_unload(um);
}

void *ko_load(void)
{
	void *um = ko_load_version(12, 1, 0);

	if (!um) {
		fprintf(stderr, "kernel oracle: utf8_load(12.1.0) failed\n");
		abort();
	}
	return um;
}

int ko_validate(void *um, const unsigned char *s, unsigned int len)
{
	struct qstr a = q(s, len);

	return utf8_validate(um, &a);
}

int ko_normalize(void *um, const unsigned char *s, unsigned int len,
		 unsigned char *dest, size_t dlen)
{
	struct qstr a = q(s, len);

	return utf8_normalize(um, &a, dest, dlen);
}

int ko_casefold(void *um, const unsigned char *s, unsigned int len,
		unsigned char *dest, size_t dlen)
{
	struct qstr a = q(s, len);

	return utf8_casefold(um, &a, dest, dlen);
}

int ko_strncmp(void *um, const unsigned char *a, unsigned int alen,
	       const unsigned char *b, unsigned int blen)
{
	struct qstr x = q(a, alen), y = q(b, blen);

	return utf8_strncmp(um, &x, &y);
}

int ko_strncasecmp(void *um, const unsigned char *a, unsigned int alen,
		   const unsigned char *b, unsigned int blen)
{
	struct qstr x = q(a, alen), y = q(b, blen);

	return utf8_strncasecmp(um, &x, &y);
}

int ko_strncasecmp_folded(void *um, const unsigned char *cf,
			  unsigned int cflen, const unsigned char *s,
			  unsigned int len)
{
	struct qstr x = q(cf, cflen), y = q(s, len);

	return utf8_strncasecmp_folded(um, &x, &y);
}

int ko_casefold_hash(void *um, const void *salt, const unsigned char *s,
		     unsigned int len, unsigned int *ret_hash)
{
	struct qstr a = q(s, len);
	int r = utf8_casefold_hash(um, salt, &a);

	*ret_hash = a.hash;
	return r;
}

long ko_nlen(void *um, int form, const unsigned char *s, size_t len)
{
	return utf8nlen(um, form, (const char *)s, len);
}

int ko_stream(void *um, int form, const unsigned char *s, size_t len,
	      int *out, int max)
{
	long cursor[64];	/* larger than struct utf8cursor */
	int n = 0, c;

	if (utf8ncursor(cursor, um, form, (const char *)s, len) < 0)
		return -1;
	do {
		c = utf8byte(cursor);
		out[n++] = c;
	} while (c > 0 && n < max);
	return n;
}
