/*
 * fuzz_hash: the ext4 glue on arbitrary names and seeds (encoding.h,
 * cfname.h).
 *
 * Input: 20 control bytes, then the name:
 *   [0] hash version (-2..7: the six real ones and invalid ones), and
 *       whether the seed is NULL or all zero (the default seed)
 *   [1] the map: 12.1 (ext4's), none (raw names), or another version
 *   [2] an output size for the escaping functions
 *   [3] a length override: the name's length, 0, or a negative int
 *   [4..19] the seed, four le32
 * What must hold:
 *   - e2fold_casefold_dirhash equals ext2fs_dirhash over the utf8_casefold
 *     output of the name in a PATH_MAX buffer, or over the raw bytes when
 *     folding fails, then 0xFFFFFFFE -> 0xFFFFFFFC; the same error for
 *     versions outside 0-5; the minor hash is optional;
 *   - e2fold_name_key is that folded (or raw) key, and e2fold_key_dirhash
 *     of it gives the same hash;
 *   - e2fold_dirhash_keeping_ignorables hashes the reference's
 *     ignorable-keeping form when that differs from the normal one;
 *   - e2fold_name_is_valid is utf8_validate;
 *   - e2fold_escape_name and e2fold_json_escape stay inside any size,
 *     end with a NUL, truncate to prefixes of the full result, leave no
 *     control byte raw (nor DEL, for a terminal), produce valid UTF-8,
 *     and the full results decode back to the name;
 *   - encoding names and flag lists parse without harm, and formatting
 *     known flags parses back to them.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "cfname.h"
#include "encoding.h"
#include "fuzz.h"
#include "reference.h"

#define CTL 20
#define FOLD_BUF 4096		/* the kernel's PATH_MAX buffer */

static struct ref_ucd *ref;
static struct unicode_map *map_12_1, *map_other;

static void quiet_log(const char *message, void *arg)
{
	(void)message;
	(void)arg;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init_report();
	utf8_set_log_hook(quiet_log, NULL);
	ref = ref_load(fuzz_ucd_dir());
	map_12_1 = utf8_load("12.1");
	map_other = utf8_load(NULL);	/* the newest */
	if (!ref || !map_12_1 || !map_other)
		abort();
	return 0;
}

static __u32 le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (__u32)p[3] << 24;
}

/* The oracle: fold as the kernel does, hash with libext2fs, adjust. */
static errcode_t expected_hash(const struct unicode_map *um, int version,
			       const unsigned char *name, int len,
			       const __u32 *seed, ext2_dirhash_t *hash,
			       ext2_dirhash_t *minor)
{
	unsigned char *buf = fuzz_malloc(FOLD_BUF);
	struct qstr q = { name, (unsigned int)(len < 0 ? 0 : len) };
	int n = um && len > 0 ? utf8_casefold(um, &q, buf, FOLD_BUF) : -1;
	errcode_t retval;

	if (n >= 0)
		retval = ext2fs_dirhash(version, (const char *)buf, n, seed,
					hash, minor);
	else
		retval = ext2fs_dirhash(version, (const char *)name,
					len < 0 ? 0 : len, seed, hash, minor);
	free(buf);
	if (!retval && *hash == 0xFFFFFFFE)
		*hash = 0xFFFFFFFC;
	return retval;
}

static void check_dirhash(const struct unicode_map *um, int version,
			  const unsigned char *name, int len, const __u32 *seed)
{
	ext2_dirhash_t h = 1, m = 1, wh = 0, wm = 0, h2 = 2;
	errcode_t r, w;
	struct e2fold_key *key = fuzz_malloc(sizeof(*key));

	r = e2fold_casefold_dirhash(um, version, name, len, seed, &h, &m);
	w = expected_hash(um, version, name, len, seed, &wh, &wm);
	FUZZ_ASSERT(r == w);
	if (r) {
		FUZZ_ASSERT(r == EXT2_ET_DIRHASH_UNSUPP);
		FUZZ_ASSERT(version < 0 || version > 5);
		free(key);
		return;
	}
	FUZZ_ASSERT(version >= 0 && version <= 5);
	FUZZ_ASSERT(h == wh && m == wm);
	FUZZ_ASSERT(!(h & 1) && h != 0xFFFFFFFE);
	FUZZ_ASSERT(!e2fold_casefold_dirhash(um, version, name, len, seed,
					     &h2, NULL) && h2 == h);

	/* The key gives the same hash without folding again. */
	if (len < 0)
		len = 0;
	e2fold_name_key(um, name, len, key);
	if (key->folded) {
		struct qstr q = { name, (unsigned int)len };
		unsigned char *buf = fuzz_malloc(FOLD_BUF);
		int n = utf8_casefold(um, &q, buf, FOLD_BUF);

		FUZZ_ASSERT(um && n >= 0 && (unsigned int)n == key->len &&
			    !memcmp(buf, key->bytes, n));
		free(buf);
	} else {
		FUZZ_ASSERT(key->len == ((size_t)len < sizeof(key->bytes) ?
					 (size_t)len : sizeof(key->bytes)) &&
			    !memcmp(key->bytes, name, key->len));
	}
	if (key->folded || (size_t)len <= sizeof(key->bytes)) {
		FUZZ_ASSERT(!e2fold_key_dirhash(key, version, seed, &h2, NULL));
		FUZZ_ASSERT(h2 == h);
	}
	free(key);
}

/* The hash of the form Linux 6.12-rc3 gave names with ignorables. */
static void check_keeping_ignorables(const struct unicode_map *um,
				     int version, const unsigned char *name,
				     int len, const __u32 *seed)
{
	unsigned char *kept = NULL, *removed = NULL;
	size_t kept_len = 0, removed_len = 0;
	ext2_dirhash_t h = 0, wh = 0;
	errcode_t r;
	int differ;

	r = e2fold_dirhash_keeping_ignorables(um, version, name, len, seed,
					      &h, NULL);
	if (!um || len <= 0 || version < 0 || version > 5 ||
	    !ref_valid(name, len)) {
		FUZZ_ASSERT(r == 0 || r == ENOENT || r == EXT2_ET_DIRHASH_UNSUPP);
		return;
	}
	FUZZ_ASSERT(!ref_form(ref, um->version,
			      REF_CASEFOLD | REF_KEEP_IGNORABLES, name, len,
			      &kept, &kept_len));
	FUZZ_ASSERT(!ref_form(ref, um->version, REF_CASEFOLD, name, len,
			      &removed, &removed_len));
	differ = kept_len != removed_len || memcmp(kept, removed, kept_len);
	if (r == ENOENT) {
		/* Nothing to keep, a run beyond the fast path, or too long. */
		FUZZ_ASSERT(!differ ||
			    ref_longest_run(ref, um->version,
					    REF_CASEFOLD | REF_KEEP_IGNORABLES,
					    name, len) > 32 ||
			    kept_len >= FOLD_BUF);
	} else {
		FUZZ_ASSERT(r == 0 && differ);
		FUZZ_ASSERT(!ext2fs_dirhash(version, (const char *)kept,
					    kept_len, seed, &wh, NULL));
		if (wh == 0xFFFFFFFE)
			wh = 0xFFFFFFFC;
		FUZZ_ASSERT(h == wh);
	}
	free(kept);
	free(removed);
}

/* Undo e2fold_escape_name: "\\" is a backslash, "\xHH" a byte. */
static size_t unescape_name(const char *e, unsigned char *out)
{
	size_t n = 0;

	while (*e) {
		if (e[0] == '\\' && e[1] == '\\') {
			out[n++] = '\\';
			e += 2;
		} else if (e[0] == '\\' && e[1] == 'x') {
			char hex[3] = { e[2], e[3], 0 };

			FUZZ_ASSERT(e[2] && e[3]);
			out[n++] = (unsigned char)strtoul(hex, NULL, 16);
			e += 4;
		} else {
			out[n++] = (unsigned char)*e++;
		}
	}
	return n;
}

/* Undo JSON string escapes; the text is then e2fold_escape_name's. */
static size_t unescape_json(const char *e, unsigned char *out)
{
	char *text = fuzz_malloc(strlen(e) + 1);
	size_t n = 0;

	while (*e) {
		FUZZ_ASSERT((unsigned char)*e >= 0x20 && *e != '"');
		if (e[0] != '\\') {
			text[n++] = *e++;
		} else if (e[1] == 'u') {
			char hex[5] = { e[2], e[3], e[4], e[5], 0 };

			FUZZ_ASSERT(e[2] && e[3] && e[4] && e[5]);
			text[n++] = (char)strtoul(hex, NULL, 16);
			e += 6;
		} else {
			FUZZ_ASSERT(e[1] == '"' || e[1] == '\\' || e[1] == '/');
			text[n++] = e[1];
			e += 2;
		}
	}
	text[n] = '\0';
	n = unescape_name(text, out);
	free(text);
	return n;
}

static void check_escape(int json, const unsigned char *name, unsigned int len,
			 size_t size_sel)
{
	size_t full_size = json ? E2FOLD_JSON_ESCAPED_SIZE(len) :
			   E2FOLD_ESCAPED_SIZE(len);
	size_t size = 1 + size_sel % full_size;
	char *full = fuzz_malloc(full_size), *part = fuzz_malloc(size);
	unsigned char *back = fuzz_malloc(len + 1);
	size_t n;

	if (json) {
		e2fold_json_escape(name, len, full, full_size);
		e2fold_json_escape(name, len, part, size);
	} else {
		e2fold_escape_name(name, len, full, full_size);
		e2fold_escape_name(name, len, part, size);
	}
	n = strlen(part);
	FUZZ_ASSERT(n < size && !strncmp(part, full, n));
	n = strlen(full);
	FUZZ_ASSERT(ref_valid((const unsigned char *)full, n));
	/* JSON needs only controls below 0x20 escaped; a terminal DEL too. */
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT((unsigned char)full[i] >= 0x20 &&
			    (json || full[i] != 0x7F));
	/* Whole names only: a NUL byte inside ends the C string early. */
	if (!memchr(name, 0, len)) {
		n = json ? unescape_json(full, back) : unescape_name(full, back);
		if (n != len || memcmp(back, name, len))
			fuzz_fail_bytes(json ? "json_escape does not round-trip" :
					"escape_name does not round-trip",
					name, len, back, n, name, len);
	}
	free(full);
	free(part);
	free(back);
}

static void check_encoding_names(const unsigned char *name, size_t len)
{
	char *s = fuzz_malloc(len + 1), *bad = NULL, buf[64];
	__u16 flags = 0xdead, again;
	const struct e2fold_encoding *enc;

	memcpy(s, name, len);
	s[len] = '\0';
	enc = e2fold_encoding_by_name(s);
	if (enc)
		FUZZ_ASSERT(e2fold_encoding_by_magic(enc->magic) == enc);
	if (e2fold_parse_encoding_flags(s, &flags, NULL, &bad)) {
		FUZZ_ASSERT(bad != NULL);
		free(bad);
	} else {
		FUZZ_ASSERT(bad == NULL && !(flags & ~E2FOLD_ENC_KNOWN_FLAGS));
		e2fold_format_encoding_flags(flags, buf, sizeof(buf));
		FUZZ_ASSERT(!e2fold_parse_encoding_flags(buf, &again, NULL, &bad));
		FUZZ_ASSERT(again == flags);
	}
	/* Any 16 bits format inside any size. */
	flags = len >= 2 ? name[0] | name[1] << 8 : 0;
	e2fold_format_encoding_flags(flags, buf, 1 + len % sizeof(buf));
	FUZZ_ASSERT(strlen(buf) < 1 + len % sizeof(buf));
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct unicode_map *um;
	unsigned char *name;
	__u32 seed[4];
	const __u32 *seedp = seed;
	int version, len;
	size_t n;

	if (size < CTL)
		return 0;
	version = (int)(data[0] % 10) - 2;
	if (data[0] & 0x80)
		seedp = NULL;
	um = data[1] % 4 == 0 ? NULL : data[1] % 4 == 3 ? map_other : map_12_1;
	seed[0] = le32(data + 4);
	seed[1] = le32(data + 8);
	seed[2] = le32(data + 12);
	seed[3] = le32(data + 16);
	if (data[0] & 0x40)
		memset(seed, 0, sizeof(seed));
	n = size - CTL;
	name = fuzz_malloc(n);
	memcpy(name, data + CTL, n);
	len = (int)n;
	if (data[3] == 0xff)
		len = -(int)(data[2] + 1);
	else if (data[3] == 0xfe)
		len = 0;

	check_dirhash(um, version, name, len, seedp);
	check_keeping_ignorables(um, version, name, len, seedp);
	FUZZ_ASSERT(e2fold_name_is_valid(um ? um : map_12_1, name, n) ==
		    ref_valid(name, n));
	check_escape(0, name, n, data[2]);
	check_escape(1, name, n, data[2]);
	check_encoding_names(name, n);
	free(name);
	return 0;
}
