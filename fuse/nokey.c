/* nokey.c: encrypted names listed and looked up without the key (nokey.h). */
#include "config.h"

#include <string.h>

#include "nokey.h"
#include "sha256.h"

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

void e2fuse_nokey_name(const struct e2fold_dirent *e, __u32 hash,
		       __u32 minor, char *out)
{
	unsigned char raw[8 + E2FUSE_NOKEY_BYTES + E2FUSE_SHA256_SIZE];
	size_t n = 8 + e->name_len;
	__u32 words[2] = { hash, minor };

	/* The kernel copies its u32 words as they are in memory. */
	memcpy(raw, words, sizeof(words));
	if (e->name_len <= E2FUSE_NOKEY_BYTES) {
		memcpy(raw + 8, e->name, e->name_len);
	} else {
		memcpy(raw + 8, e->name, E2FUSE_NOKEY_BYTES);
		e2fuse_sha256(e->name + E2FUSE_NOKEY_BYTES,
			      e->name_len - E2FUSE_NOKEY_BYTES,
			      raw + 8 + E2FUSE_NOKEY_BYTES);
		n = sizeof(raw);
	}
	out[encode(raw, n, out)] = '\0';
}

int e2fuse_nokey_decode(const char *name, struct e2fuse_nokey *ret)
{
	unsigned char raw[8 + E2FUSE_NOKEY_BYTES + E2FUSE_SHA256_SIZE + 2];
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
	/* As the kernel: a short form, or exactly the long one. */
	if (n <= 8 || (n > 8 + E2FUSE_NOKEY_BYTES &&
		       n != 8 + E2FUSE_NOKEY_BYTES + E2FUSE_SHA256_SIZE))
		return -1;
	ret->long_form = n > 8 + E2FUSE_NOKEY_BYTES;
	ret->len = ret->long_form ? E2FUSE_NOKEY_BYTES : n - 8;
	memcpy(ret->bytes, raw + 8, ret->len);
	if (ret->long_form)
		memcpy(ret->digest, raw + 8 + E2FUSE_NOKEY_BYTES,
		       E2FUSE_SHA256_SIZE);
	return 0;
}

int e2fuse_nokey_match(const struct e2fuse_nokey *nk,
		       const struct e2fold_dirent *e)
{
	unsigned char digest[E2FUSE_SHA256_SIZE];

	if (!nk->long_form)
		return e->name_len == nk->len &&
		       !memcmp(e->name, nk->bytes, nk->len);
	if (e->name_len <= E2FUSE_NOKEY_BYTES ||
	    memcmp(e->name, nk->bytes, E2FUSE_NOKEY_BYTES))
		return 0;
	e2fuse_sha256(e->name + E2FUSE_NOKEY_BYTES,
		      e->name_len - E2FUSE_NOKEY_BYTES, digest);
	return !memcmp(digest, nk->digest, sizeof(digest));
}
