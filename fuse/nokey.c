/* nokey.c: encrypted names listed and looked up without the key (nokey.h). */
#include "config.h"

#include <string.h>

#include "nokey.h"

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* base64url of n bytes, no padding; returns the characters written. */
static size_t encode(const unsigned char *in, size_t n, char *out)
{
	size_t i, o = 0;
	unsigned int acc = 0, bits = 0;

	for (i = 0; i < n; i++) {
		acc = acc << 8 | in[i];
		bits += 8;
		while (bits >= 6) {
			bits -= 6;
			out[o++] = alphabet[(acc >> bits) & 63];
		}
	}
	if (bits)
		out[o++] = alphabet[(acc << (6 - bits)) & 63];
	return o;
}

void e2fuse_nokey_name(const struct e2fold_dirent *e, char *out)
{
	unsigned char raw[8 + 255];
	__u32 hash = e->has_stored_hash ? e->stored_hash : 0;
	__u32 minor = e->has_stored_hash ? e->stored_minor : 0;
	int i;

	for (i = 0; i < 4; i++) {
		raw[i] = hash >> (8 * i);
		raw[4 + i] = minor >> (8 * i);
	}
	memcpy(raw + 8, e->name, e->name_len);
	out[encode(raw, 8 + e->name_len, out)] = '\0';
}

int e2fuse_nokey_decode(const char *name, unsigned char *out,
			unsigned int *ret_len)
{
	unsigned char raw[8 + 255 + 2];
	unsigned int acc = 0, bits = 0;
	size_t n = 0;
	const char *p;

	for (p = name; *p; p++) {
		const char *at = strchr(alphabet, *p);

		if (!at || n >= sizeof(raw))
			return -1;
		acc = acc << 6 | (unsigned int)(at - alphabet);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			raw[n++] = acc >> bits;
		}
	}
	if (n <= 8 || n > 8 + 255)
		return -1;
	memcpy(out, raw + 8, n - 8);
	*ret_len = n - 8;
	return 0;
}
