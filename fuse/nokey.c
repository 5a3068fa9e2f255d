/* nokey.c: encrypted names listed and looked up without the key (nokey.h). */
#include "config.h"

#include <string.h>

#include "encoding.h"
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

/* The directory hash the kernel puts into the no-key form (nokey.h). */
static void dirhash(ext2_filsys fs, const struct e2fold_dir *d,
		    const struct e2fold_dirent *e, __u32 hash[2])
{
	ext2_dirhash_t h = 0, minor = 0;

	if (e->has_stored_hash) {
		h = e->stored_hash;
		minor = e->stored_minor;
	} else if (d->indexed && !d->casefolded &&
		   d->dx_problem == E2FOLD_DX_OK &&
		   e2fold_casefold_dirhash(NULL,
				e2fold_effective_hash_version(fs, d->dx_hash_version),
				e->name, e->name_len, fs->super->s_hash_seed,
				&h, &minor)) {
		h = minor = 0;
	}
	hash[0] = h;
	hash[1] = minor;
}

void e2fuse_nokey_name(ext2_filsys fs, const struct e2fold_dir *d,
		       const struct e2fold_dirent *e, char *out)
{
	unsigned char raw[8 + 255];
	__u32 hash[2];

	dirhash(fs, d, e, hash);
	/* The kernel copies its u32 words as they are in memory. */
	memcpy(raw, hash, sizeof(hash));
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
