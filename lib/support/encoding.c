/* encoding.c: ext4 filename encodings, their flags, and the casefold hash. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfname.h"
#include "encoding.h"
#include "hex.h"
#include "unicode_internal.h"

static const struct e2fold_encoding encodings[] = {
	{ E2FOLD_ENC_UTF8_12_1, "utf8-12.1", "12.1.0" },
};

/* Other spellings users type for an encoding. */
static const struct {
	const char *alias;
	__u16 magic;
} aliases[] = {
	{ "utf8", E2FOLD_ENC_UTF8_12_1 },
};

static const struct {
	__u16 bit;
	const char *name;
} flag_names[] = {
	{ E2FOLD_ENC_STRICT_FL, "strict" },
	{ E2FOLD_ENC_NO_COMPAT_FALLBACK_FL, "no_compat_fallback" },
	/* f2fs-tools' name for the same bit */
	{ E2FOLD_ENC_NO_COMPAT_FALLBACK_FL, "hashonly" },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const struct e2fold_encoding *e2fold_encoding_by_magic(int magic)
{
	size_t i;

	for (i = 0; i < COUNT(encodings); i++)
		if (encodings[i].magic == magic)
			return &encodings[i];
	return NULL;
}

const struct e2fold_encoding *e2fold_encoding_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < COUNT(encodings); i++)
		if (!strcmp(encodings[i].name, name))
			return &encodings[i];
	for (i = 0; i < COUNT(aliases); i++)
		if (!strcmp(aliases[i].alias, name))
			return e2fold_encoding_by_magic(aliases[i].magic);
	return NULL;
}

static int flag_by_name(const char *name, size_t len, __u16 *ret_bit)
{
	size_t i;

	for (i = 0; i < COUNT(flag_names); i++) {
		if (strlen(flag_names[i].name) == len &&
		    !strncmp(flag_names[i].name, name, len)) {
			*ret_bit = flag_names[i].bit;
			return 0;
		}
	}
	return -1;
}

/* One item of a flags list: a flag name sets its bit, "no" + name clears it. */
static int apply_flag_item(const char *p, size_t len, __u16 *flags,
			   __u16 *cleared)
{
	__u16 bit;

	if (!flag_by_name(p, len, &bit)) {
		*flags |= bit;
		*cleared &= ~bit;
		return 0;
	}
	if (len > 2 && !strncmp(p, "no", 2) &&
	    !flag_by_name(p + 2, len - 2, &bit)) {
		*flags &= ~bit;
		*cleared |= bit;
		return 0;
	}
	return -1;
}

errcode_t e2fold_parse_encoding_flags(const char *list, __u16 *ret_flags,
				      __u16 *ret_cleared, char **ret_bad)
{
	__u16 flags = 0, cleared = 0;
	const char *p = list;

	*ret_bad = NULL;
	if (!strcmp(list, "none")) {
		*ret_flags = 0;
		if (ret_cleared)
			*ret_cleared = E2FOLD_ENC_KNOWN_FLAGS;
		return 0;
	}
	while (*p) {
		size_t len = strcspn(p, "-,+");

		if (len == 0 || apply_flag_item(p, len, &flags, &cleared)) {
			*ret_bad = strndup(p, len ? len : 1);
			return EINVAL;
		}
		p += len;
		if (*p)
			p++;
	}
	*ret_flags = flags;
	if (ret_cleared)
		*ret_cleared = cleared;
	return 0;
}

char *e2fold_format_encoding_flags(__u16 flags, char *buf, size_t size)
{
	size_t used = 0, i;
	__u16 bit;

	buf[0] = '\0';
	for (bit = 1; bit; bit <<= 1) {
		const char *name = NULL;
		char num[8];

		if (!(flags & bit))
			continue;
		for (i = 0; i < COUNT(flag_names); i++) {
			if (flag_names[i].bit == bit) {
				name = flag_names[i].name;
				break;
			}
		}
		if (!name) {
			snprintf(num, sizeof(num), "0x%04x", bit);
			name = num;
		}
		used += snprintf(buf + used, used < size ? size - used : 0,
				 "%s%s", used ? "," : "", name);
	}
	return buf;
}

struct unicode_map *e2fold_load_encoding(const struct e2fold_encoding *enc)
{
	if (!enc) {
		errno = EINVAL;
		return NULL;
	}
	return utf8_load(enc->unicode);
}

/* The kernel folds into a PATH_MAX buffer (fs/ext4/hash.c). */
#define KERNEL_FOLD_BUF 4096

static errcode_t kernel_dirhash(int hash_version, const unsigned char *s,
				int len, const __u32 *seed,
				ext2_dirhash_t *ret_hash,
				ext2_dirhash_t *ret_minor_hash);

errcode_t e2fold_casefold_dirhash(const struct unicode_map *um,
				  int hash_version, const unsigned char *name,
				  int len, const __u32 *seed,
				  ext2_dirhash_t *ret_hash,
				  ext2_dirhash_t *ret_minor_hash)
{
	struct e2fold_key key;

	if (len < 0)
		len = 0;
	e2fold_name_key(um, name, len, &key);
	/* A raw name longer than a key holds (never on ext4) is hashed whole. */
	if (!key.folded && (unsigned int)len > key.len)
		return kernel_dirhash(hash_version, name, len, seed, ret_hash,
				      ret_minor_hash);
	return e2fold_key_dirhash(&key, hash_version, seed, ret_hash,
				  ret_minor_hash);
}

/* ext2fs_dirhash() with the kernel's adjustment of the end marker. */
static errcode_t kernel_dirhash(int hash_version, const unsigned char *s,
				int len, const __u32 *seed,
				ext2_dirhash_t *ret_hash,
				ext2_dirhash_t *ret_minor_hash)
{
	ext2_dirhash_t hash, minor = 0;
	errcode_t retval;

	retval = ext2fs_dirhash(hash_version, (const char *)s, len, seed,
				&hash, &minor);
	if (retval)
		return retval;
	if (hash == 0xFFFFFFFE)
		hash = 0xFFFFFFFC;
	*ret_hash = hash;
	if (ret_minor_hash)
		*ret_minor_hash = minor;
	return 0;
}

errcode_t e2fold_key_dirhash(const struct e2fold_key *key, int hash_version,
			     const __u32 *seed, ext2_dirhash_t *ret_hash,
			     ext2_dirhash_t *ret_minor_hash)
{
	return kernel_dirhash(hash_version, key->bytes, key->len, seed,
			      ret_hash, ret_minor_hash);
}

errcode_t e2fold_dirhash_keeping_ignorables(const struct unicode_map *um,
					    int hash_version,
					    const unsigned char *name, int len,
					    const __u32 *seed,
					    ext2_dirhash_t *ret_hash,
					    ext2_dirhash_t *ret_minor_hash)
{
	unsigned char kept[KERNEL_FOLD_BUF], removed[KERNEL_FOLD_BUF];
	struct qstr q;
	int kept_len, removed_len;

	if (len <= 0)
		return ENOENT;
	q.name = name;
	q.len = len;
	kept_len = e2fold_utf8_casefold_keeping_ignorables(um, &q, kept,
							   sizeof(kept));
	removed_len = utf8_casefold(um, &q, removed, sizeof(removed));
	if (kept_len < 0 || removed_len < 0)
		return ENOENT;
	if (kept_len == removed_len && !memcmp(kept, removed, kept_len))
		return ENOENT;
	return kernel_dirhash(hash_version, kept, kept_len, seed, ret_hash,
			      ret_minor_hash);
}

int e2fold_effective_hash_version(ext2_filsys fs, int dx_version)
{
	if (dx_version <= EXT2_HASH_TEA &&
	    (fs->super->s_flags & EXT2_FLAGS_UNSIGNED_HASH))
		return dx_version + 3;
	return dx_version;
}

int e2fold_parse_hash_seed(const char *text, __u32 seed[4])
{
	unsigned char bytes[16];
	int n = 0, i;

	for (; *text; text++) {
		int byte;

		if (*text == '-')
			continue;
		byte = e2fold_hex_byte(text);
		if (byte < 0 || n == 16)
			return -1;
		bytes[n++] = byte;
		text++;
	}
	if (n != 16)
		return -1;
	for (i = 0; i < 4; i++)
		seed[i] = bytes[4 * i] | bytes[4 * i + 1] << 8 |
			  bytes[4 * i + 2] << 16 | (__u32)bytes[4 * i + 3] << 24;
	return 0;
}
