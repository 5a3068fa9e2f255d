/*
 * encoding.h: ext4's filename encodings and what depends on them: the
 * superblock's s_encoding and s_encoding_flags, and the directory hash of
 * a name in a casefolded directory, computed exactly as Linux does.
 */
#ifndef E2FOLD_ENCODING_H
#define E2FOLD_ENCODING_H

#include <ext2fs/ext2fs.h>

#include "unicode.h"

/* s_encoding_flags bits (Linux include/linux/fs.h, fs/ext4/ext4.h). */
#define E2FOLD_ENC_STRICT_FL		0x0001	/* reject invalid names */
#define E2FOLD_ENC_NO_COMPAT_FALLBACK_FL 0x0002	/* no linear lookup fallback */
#define E2FOLD_ENC_KNOWN_FLAGS \
	(E2FOLD_ENC_STRICT_FL | E2FOLD_ENC_NO_COMPAT_FALLBACK_FL)

/* The casefold feature and inode flag, in case old headers lack them. */
#define E2FOLD_FEATURE_INCOMPAT_CASEFOLD 0x20000
#define E2FOLD_CASEFOLD_FL 0x40000000
#define E2FOLD_ENC_UTF8_12_1 1

struct e2fold_encoding {
	__u16 magic;		/* s_encoding */
	const char *name;	/* canonical name, as dumpe2fs prints it */
	const char *unicode;	/* the Unicode version it means */
};

/* The encoding of s_encoding value magic, or NULL if unknown. */
const struct e2fold_encoding *e2fold_encoding_by_magic(int magic);

/* The encoding called name ("utf8", "utf8-12.1"), or NULL. */
const struct e2fold_encoding *e2fold_encoding_by_name(const char *name);

/*
 * Parse an encoding-flags list as -E encoding_flags= takes it: flag names
 * joined with '-', as mke2fs spells them ("strict-no_compat_fallback";
 * ',' and '+', older e2fold spellings, separate too); "hashonly" is
 * f2fs-tools' name for no_compat_fallback; "no" before a name clears
 * that flag (mke2fs's "nostrict"); "none" alone means no flag. The list
 * names exactly the flags wanted: it starts from none. Returns 0 and the
 * bits, and in *ret_cleared (unless NULL) those the list clears by name
 * ("noFLAG", or every flag for "none"); or EINVAL with *ret_bad pointing
 * at a copy of the first unknown item (free it). extopts.h wraps it for
 * the command lines.
 */
errcode_t e2fold_parse_encoding_flags(const char *list,
				      __u16 *ret_flags, __u16 *ret_cleared,
				      char **ret_bad);

/*
 * "strict,no_compat_fallback" style text for flags; unknown bits appear as
 * "0x0004". Empty string for 0. Returns buf.
 */
char *e2fold_format_encoding_flags(__u16 flags, char *buf,
				   size_t size);

/* Load the engine for an encoding; NULL with errno on failure. */
struct unicode_map *e2fold_load_encoding(const struct e2fold_encoding *enc);

/*
 * The directory hash of a name in a casefolded directory: the name is
 * casefolded into a PATH_MAX buffer and hashed with ext2fs_dirhash(); if
 * folding fails (invalid UTF-8, or a result longer than the buffer), the
 * raw bytes are hashed instead; then the hash gets the kernel's
 * adjustment (0xFFFFFFFE, the end-of-directory marker, becomes
 * 0xFFFFFFFC), which libext2fs does not make. hash_version is the
 * effective version (0-5: legacy, half_md4, tea, and their unsigned
 * variants). seed may be NULL (default seed). um NULL hashes the raw name.
 * Returns 0 or EXT2_ET_DIRHASH_UNSUPP.
 */
errcode_t e2fold_casefold_dirhash(const struct unicode_map *um,
				  int hash_version,
				  const unsigned char *name,
				  int len, const __u32 *seed,
				  ext2_dirhash_t *ret_hash,
				  ext2_dirhash_t *ret_minor_hash);

/*
 * A hash seed given as text, a UUID (dashes anywhere or nowhere) as the
 * superblock's s_hash_seed holds it: 16 bytes read as four little-endian
 * words. 0, or -1 if the text is not 32 hex digits.
 */
int e2fold_parse_hash_seed(const char *text, __u32 seed[4]);

/*
 * The directory hash of a name's key (see cfname.h): ext2fs_dirhash() of
 * the key bytes with the kernel's adjustment. Equal to
 * e2fold_casefold_dirhash() of the name, without folding it again.
 */
struct e2fold_key;
errcode_t e2fold_key_dirhash(const struct e2fold_key *key,
			     int hash_version, const __u32 *seed,
			     ext2_dirhash_t *ret_hash,
			     ext2_dirhash_t *ret_minor_hash);

/*
 * The hash a kernel that kept Default_Ignorable code points when folding
 * (Linux 6.12-rc3 to 6.13-rc2, and kernels that took that change) gave
 * the name. Returns 0, or ENOENT when the name holds no ignorable code
 * point (the hash is then the normal one) or cannot be folded.
 */
errcode_t e2fold_dirhash_keeping_ignorables(const struct unicode_map *um,
					    int hash_version,
					    const unsigned char *name,
					    int len, const __u32 *seed,
					    ext2_dirhash_t *ret_hash,
					    ext2_dirhash_t *ret_minor_hash);

/*
 * The hash version a directory uses for its names: the dx_root's version,
 * plus 3 for versions 0-2 when the superblock's unsigned-hash flag is set.
 */
int e2fold_effective_hash_version(ext2_filsys fs, int dx_version);

#endif /* E2FOLD_ENCODING_H */
