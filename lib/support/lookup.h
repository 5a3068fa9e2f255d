/*
 * lookup.h: find a name in a directory the way Linux ext4 does, and say
 * how it was found.
 *
 * What the kernel does (fs/ext4/namei.c, Linux 6.1 unless noted):
 *   1. In a casefolded directory the name is casefolded into a buffer of
 *      EXT4_NAME_LEN (255) bytes; if that fails (invalid UTF-8, or a fold
 *      of 255 bytes or more) or gives nothing, the name is used as given.
 *      A strict filesystem refuses a name that cannot be folded before
 *      ext4 sees it (the dcache hash fails with EINVAL).
 *   2. An indexed directory hashes the name (e2fold_casefold_dirhash: the
 *      fold, or the raw bytes, with the directory's hash version), walks
 *      the index to the last leaf whose index hash is at most the hash,
 *      searches it, and then each following leaf whose index hash without
 *      its continuation bit equals the hash. An index whose root, limits
 *      or counts are wrong makes the kernel scan every block instead; an
 *      index damaged where dx_probe does not look (hashes out of order,
 *      blocks out of range) leads the kernel astray, which is not
 *      modelled: every block is scanned and the path says so.
 *   3. A directory without an index is scanned block by block.
 *   4. Newer kernels (measured: 6.12 stable and 7.2) scan every block of
 *      a casefolded indexed directory when the hashed search misses,
 *      unless s_encoding_flags has no_compat_fallback; Linux 6.1 never
 *      does (doc/kernel-facts.md, "The compat fallback"). This finds
 *      entries left in the wrong leaf by kernels that hashed differently
 *      (doc/kernel-facts.md, "The Default_Ignorable episode").
 * A scan of every block sees block 0's "." and ".." entries too, so a name
 * whose casefold is "." or ".." (a dot and an ignorable code point) finds
 * the directory or its parent. The names "." and ".." themselves never
 * reach ext4: the VFS answers them.
 * An entry matches when:
 *   - not casefolded (or encrypted, whose names are ciphertext without
 *     the key): its bytes equal the name's;
 *   - casefolded: its casefold equals the name's (utf8_strncasecmp_folded
 *     against the folded name, or utf8_strncasecmp when the name did not
 *     fold in step 1). If that comparison fails because a string is
 *     invalid, a strict filesystem never matches, and a non-strict one
 *     compares bytes: the folded name (or the raw name when it did not
 *     fold) against the entry's raw bytes.
 */
#ifndef E2FOLD_LOOKUP_H
#define E2FOLD_LOOKUP_H

#include <ext2fs/ext2fs.h>

#include "cfname.h"
#include "dirread.h"

/* How the search that found (or missed) the name went. */
enum e2fold_lookup_path {
	E2FOLD_LOOKUP_LINEAR = 0,	/* no index: every block scanned */
	E2FOLD_LOOKUP_HTREE,		/* the leaves the hash leads to */
	E2FOLD_LOOKUP_BAD_INDEX,	/* index unusable: every block scanned */
	E2FOLD_LOOKUP_DAMAGED_INDEX,	/* damaged past the kernel's checks */
	E2FOLD_LOOKUP_FALLBACK,		/* hashed search missed, then every block */
	E2FOLD_LOOKUP_EXACT,		/* caller asked for bytes: every block */
	E2FOLD_LOOKUP_NO_KEY,		/* encrypted: ciphertext bytes, every block */
};

/* Why the entry found matches the name. */
enum e2fold_match_rule {
	E2FOLD_MATCH_NONE = 0,
	E2FOLD_MATCH_BYTES,		/* not casefolded: bytes equal */
	E2FOLD_MATCH_FOLDED,		/* casefolded forms equal */
	E2FOLD_MATCH_RAW_FALLBACK,	/* a side did not fold; bytes equal */
};

/* e2fold_lookup() flags */
#define E2FOLD_LOOKUP_FL_EXACT 0x1	/* compare bytes, scan every block */

struct e2fold_lookup {
	/* The name as given, and as the kernel prepares it. */
	unsigned char name[E2FOLD_NAME_MAX];
	unsigned int name_len;
	int exact;			/* E2FOLD_LOOKUP_FL_EXACT */
	int encrypted;			/* names are ciphertext: bytes compared */
	int strict;			/* the filesystem's strict flag */
	int casefolded;			/* the directory compares casefolded */
	int folded_ok;			/* step 1 folded the name */
	unsigned char folded[E2FOLD_NAME_MAX];
	unsigned int folded_len;
	int strict_refused;		/* strict fs, unfoldable name: EINVAL */

	/* "." and "..", as a scan of block 0 meets them (found may point here). */
	struct e2fold_dirent dots[2];

	/* The hashed search (indexed directories). */
	int hashed;			/* hash and leaf below are set */
	int hash_version;		/* effective version */
	ext2_dirhash_t hash, minor_hash;
	size_t first_leaf;		/* index into dir->leaves */
	size_t nleaves;			/* leaves searched from first_leaf */

	/* The answer. */
	enum e2fold_lookup_path path;
	const struct e2fold_dirent *found;	/* NULL: not found */
	enum e2fold_match_rule rule;
	/*
	 * The hashed search missed but a scan of every block finds this
	 * entry; set when the fallback is off (no_compat_fallback), so that
	 * found is NULL, and when it found the entry (path FALLBACK), where
	 * Linux 6.1 would not have.
	 */
	const struct e2fold_dirent *misplaced;
};

/*
 * Look name/len up in dir (read with e2fold_dir_read) as the kernel
 * would. um is the filesystem's encoding (NULL if it has none: casefolded
 * directories then compare bytes). Fills *ret and returns 0; returns
 * ENAMETOOLONG for a name longer than 255 bytes and EINVAL for an empty
 * one, as the kernel does before it searches.
 */
errcode_t e2fold_lookup(ext2_filsys fs,
			const struct unicode_map *um,
			const struct e2fold_dir *dir,
			const unsigned char *name, unsigned int len,
			int flags, struct e2fold_lookup *ret);

/*
 * Does entry de match the name prepared in lk (by e2fold_lookup)? Gives
 * the rule, E2FOLD_MATCH_NONE if it does not. For finding every entry a
 * name reaches, not just the first.
 */
enum e2fold_match_rule e2fold_lookup_match(const struct unicode_map *um,
					   const struct e2fold_lookup *lk,
					   const struct e2fold_dirent *de);

/*
 * The leaves a hashed lookup of hash searches in the sound index of dir
 * (dir->nleaves > 0), in order: dir->leaves[*ret_first] and the *ret_n - 1
 * after it whose index hash continues it (dx_probe, then the leaves
 * ext4_htree_next_block follows while their hash is the same).
 */
void e2fold_dir_hash_leaves(const struct e2fold_dir *dir, __u32 hash,
			    size_t *ret_first, size_t *ret_n);

/*
 * The index in dir->ents of the first entry in logical block lblk or
 * after it (dir->nents if none): entries are kept in block order, so
 * block b holds the entries from e2fold_dir_first_entry_at(dir, b) up to
 * e2fold_dir_first_entry_at(dir, b + 1). A binary search.
 */
size_t e2fold_dir_first_entry_at(const struct e2fold_dir *dir, blk64_t lblk);

/* Short descriptions for messages. */
/*
 * Does a strict filesystem's casefolded directory refuse this name in a
 * lookup (EINVAL)? The kernel's dentry hash fails on it: stricter than
 * nothing, laxer than utf8_validate (a name that still folds passes).
 */
int e2fold_strict_refuses(const struct unicode_map *um,
			  const unsigned char *name, unsigned int len);

const char *e2fold_lookup_path_text(enum e2fold_lookup_path path);
const char *e2fold_match_rule_text(enum e2fold_match_rule rule);

#endif /* E2FOLD_LOOKUP_H */
