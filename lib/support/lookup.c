/* lookup.c: a name looked up in a directory, as Linux ext4 does it. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "encoding.h"
#include "lookup.h"

/* The index hash of leaf i: what dx_probe compares (the first is 0). */
static __u64 leaf_index_hash(const struct e2fold_dir *dir, size_t i)
{
	if (i == 0)
		return 0;
	return dir->leaves[i].lo | (dir->leaves[i].continued ? 1 : 0);
}

/* dx_probe: the last leaf whose index hash is at most hash. */
static size_t probe_leaf(const struct e2fold_dir *dir, __u32 hash)
{
	size_t lo = 0, hi = dir->nleaves;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (leaf_index_hash(dir, mid) > hash)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo ? lo - 1 : 0;
}

void e2fold_dir_hash_leaves(const struct e2fold_dir *dir, __u32 hash,
			    size_t *ret_first, size_t *ret_n)
{
	size_t first = probe_leaf(dir, hash), n = 1;

	while (first + n < dir->nleaves && dir->leaves[first + n].lo == hash)
		n++;
	*ret_first = first;
	*ret_n = n;
}

size_t e2fold_dir_first_entry_at(const struct e2fold_dir *dir, blk64_t lblk)
{
	size_t lo = 0, hi = dir->nents;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dir->ents[mid].lblk < lblk)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Does an entry differ from a folded name already in its ASCII prefix?
 * An ASCII character folds to itself, lowered; it is a starter, which no
 * later mark moves past, and never ignorable: the folded entry begins
 * with the entry's ASCII prefix lowered, byte for byte. A NUL byte ends
 * the fold (the kernel's utf8 cursors stop there), so it decides
 * nothing. 1 if they differ there (the entry cannot match, folded or as
 * raw bytes: a folded name holds no capital); 0 if only the whole fold
 * can tell. Most entries of
 * a leaf differ from the name looked up in their first byte, and this
 * spares each such entry a fold.
 */
static int ascii_prefix_differs(const unsigned char *entry, unsigned int len,
				const unsigned char *folded,
				unsigned int folded_len)
{
	unsigned int i;

	for (i = 0; i < len && i < folded_len; i++) {
		unsigned char c = entry[i];

		/* A NUL ends a name for the fold, as for the kernel's. */
		if (c >= 0x80 || !c || folded[i] >= 0x80 || !folded[i])
			return 0;
		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (c != folded[i])
			return 1;
	}
	/* All ASCII and shorter: its fold is shorter too. */
	if (i == len)
		return len < folded_len;
	/* The name ends first: an ASCII byte more makes the entry longer. */
	return entry[i] && entry[i] < 0x80;
}

enum e2fold_match_rule e2fold_lookup_match(const struct unicode_map *um,
					   const struct e2fold_lookup *lk,
					   const struct e2fold_dirent *de)
{
	struct qstr entry = { de->name, de->name_len };
	const unsigned char *bytes = lk->name;
	unsigned int len = lk->name_len;
	int r;

	if (!lk->casefolded) {
		if (de->name_len == len && !memcmp(de->name, bytes, len))
			return E2FOLD_MATCH_BYTES;
		return E2FOLD_MATCH_NONE;
	}
	if (lk->folded_ok) {
		struct qstr cf = { lk->folded, lk->folded_len };

		if (ascii_prefix_differs(de->name, de->name_len, lk->folded,
					 lk->folded_len))
			return E2FOLD_MATCH_NONE;
		r = utf8_strncasecmp_folded(um, &cf, &entry);
		bytes = lk->folded;
		len = lk->folded_len;
	} else {
		struct qstr q = { lk->name, lk->name_len };

		r = utf8_strncasecmp(um, &q, &entry);
	}
	if (r == 0)
		return E2FOLD_MATCH_FOLDED;
	if (r > 0 || lk->strict)
		return E2FOLD_MATCH_NONE;
	/* Linux 6.1 compares what it compared above, byte for byte. */
	if (de->name_len == len && !memcmp(de->name, bytes, len))
		return E2FOLD_MATCH_RAW_FALLBACK;
	return E2FOLD_MATCH_NONE;
}

/* Does the kernel's dx_probe see this problem and scan linearly? */
static int kernel_falls_back(enum e2fold_dx_problem p)
{
	return p != E2FOLD_DX_UNORDERED && p != E2FOLD_DX_BAD_BLOCK;
}

/* "." and ".." as entries of block 0, when the directory has them. */
static void set_dots(const struct e2fold_dir *dir, struct e2fold_lookup *lk)
{
	static const unsigned char dots[] = "..";
	int i;

	for (i = 0; i < 2; i++) {
		struct e2fold_dirent *e = &lk->dots[i];

		memset(e, 0, sizeof(*e));
		e->ino = i ? dir->dotdot : dir->dot;
		e->offset = 12 * i;
		e->rec_len = 12;
		e->name_len = i + 1;
		e->name = dots;
		e->file_type = EXT2_FT_DIR;
	}
}

/* The first of "." and ".." that matches, in a scan of block 0. */
static const struct e2fold_dirent *search_dots(const struct unicode_map *um,
					       struct e2fold_lookup *lk)
{
	int i;

	for (i = 0; i < 2; i++) {
		enum e2fold_match_rule rule;

		if (!lk->dots[i].ino)
			continue;
		rule = e2fold_lookup_match(um, lk, &lk->dots[i]);
		if (rule != E2FOLD_MATCH_NONE) {
			lk->rule = rule;
			return &lk->dots[i];
		}
	}
	return NULL;
}

/* First entry in ents[from, to) that matches; sets lk->rule. */
static const struct e2fold_dirent *search(const struct unicode_map *um,
					  const struct e2fold_dir *dir,
					  struct e2fold_lookup *lk, size_t from,
					  size_t to)
{
	size_t i;

	for (i = from; i < to; i++) {
		enum e2fold_match_rule rule = e2fold_lookup_match(um, lk,
								  &dir->ents[i]);

		if (rule != E2FOLD_MATCH_NONE) {
			lk->rule = rule;
			return &dir->ents[i];
		}
	}
	return NULL;
}

/* A scan of every block, in block order. */
static const struct e2fold_dirent *scan(const struct unicode_map *um,
					const struct e2fold_dir *dir,
					struct e2fold_lookup *lk)
{
	const struct e2fold_dirent *e = search_dots(um, lk);

	return e ? e : search(um, dir, lk, 0, dir->nents);
}

/* The kernel's step 1: fold into EXT4_NAME_LEN bytes, or keep the name. */
static void prepare_name(ext2_filsys fs, const struct unicode_map *um,
			 const struct e2fold_dir *dir,
			 const unsigned char *name, unsigned int len,
			 int flags, struct e2fold_lookup *lk)
{
	struct qstr q = { name, len };
	int n;

	memset(lk, 0, sizeof(*lk));
	memcpy(lk->name, name, len);
	lk->name_len = len;
	lk->exact = !!(flags & E2FOLD_LOOKUP_FL_EXACT);
	lk->encrypted = dir->encrypted;
	lk->strict = !!(fs->super->s_encoding_flags & E2FOLD_ENC_STRICT_FL);
	lk->casefolded = dir->casefolded && um && !lk->encrypted && !lk->exact;
	if (!lk->casefolded)
		return;
	n = utf8_casefold(um, &q, lk->folded, sizeof(lk->folded));
	if (n > 0) {
		lk->folded_ok = 1;
		lk->folded_len = n;
	}
	if (lk->strict && e2fold_strict_refuses(um, name, len))
		lk->strict_refused = 1;
}

int e2fold_strict_refuses(const struct unicode_map *um,
			  const unsigned char *name, unsigned int len)
{
	struct qstr q = { name, len };
	unsigned int dhash;

	/* The dcache hash folds without a length limit; only invalid fails. */
	return utf8_casefold_hash(um, NULL, &q, &dhash) < 0;
}

/* The hashed search of step 2; lk->found stays NULL on a miss. */
static errcode_t hashed_search(ext2_filsys fs, const struct unicode_map *um,
			       const struct e2fold_dir *dir,
			       struct e2fold_lookup *lk)
{
	errcode_t retval;
	size_t i;

	lk->hash_version = e2fold_effective_hash_version(fs,
							 dir->dx_hash_version);
	retval = e2fold_casefold_dirhash(lk->casefolded ? um : NULL,
					 lk->hash_version, lk->name,
					 lk->name_len, fs->super->s_hash_seed,
					 &lk->hash, &lk->minor_hash);
	if (retval)
		return retval;
	lk->hashed = 1;
	if (!dir->nleaves)
		return EXT2_ET_DIR_CORRUPTED;	/* no leaf to search */
	e2fold_dir_hash_leaves(dir, lk->hash, &lk->first_leaf, &lk->nleaves);
	if (lk->strict_refused)
		return 0;
	for (i = 0; i < lk->nleaves && !lk->found; i++) {
		blk64_t lblk = dir->leaves[lk->first_leaf + i].lblk;
		size_t from = e2fold_dir_first_entry_at(dir, lblk);

		lk->found = search(um, dir, lk, from,
				   e2fold_dir_first_entry_at(dir, lblk + 1));
	}
	return 0;
}

/* Which search the kernel makes in dir for the prepared name. */
static enum e2fold_lookup_path choose_path(const struct e2fold_dir *dir,
					   const struct e2fold_lookup *lk)
{
	if (lk->exact)
		return E2FOLD_LOOKUP_EXACT;
	if (lk->encrypted)
		return E2FOLD_LOOKUP_NO_KEY;
	if (!dir->indexed)
		return E2FOLD_LOOKUP_LINEAR;
	if (dir->dx_problem != E2FOLD_DX_OK)
		return kernel_falls_back(dir->dx_problem) ?
		       E2FOLD_LOOKUP_BAD_INDEX : E2FOLD_LOOKUP_DAMAGED_INDEX;
	return E2FOLD_LOOKUP_HTREE;
}

/* A damaged index is not searched, but the name's hash is still shown. */
static void hash_only(ext2_filsys fs, const struct unicode_map *um,
		      const struct e2fold_dir *dir, struct e2fold_lookup *lk)
{
	lk->hash_version = e2fold_effective_hash_version(fs,
							 dir->dx_hash_version);
	if (!e2fold_casefold_dirhash(lk->casefolded ? um : NULL,
				     lk->hash_version, lk->name, lk->name_len,
				     fs->super->s_hash_seed, &lk->hash,
				     &lk->minor_hash))
		lk->hashed = 1;
}

/* Step 4: newer kernels' linear fallback after a hashed miss. */
static void fallback(ext2_filsys fs, const struct unicode_map *um,
		     const struct e2fold_dir *dir, struct e2fold_lookup *lk)
{
	lk->misplaced = scan(um, dir, lk);
	if (lk->misplaced &&
	    !(fs->super->s_encoding_flags & E2FOLD_ENC_NO_COMPAT_FALLBACK_FL)) {
		lk->found = lk->misplaced;
		lk->path = E2FOLD_LOOKUP_FALLBACK;
	} else {
		lk->rule = E2FOLD_MATCH_NONE;
	}
}

errcode_t e2fold_lookup(ext2_filsys fs, const struct unicode_map *um,
			const struct e2fold_dir *dir,
			const unsigned char *name, unsigned int len, int flags,
			struct e2fold_lookup *ret)
{
	struct e2fold_lookup *lk = ret;

	if (len > E2FOLD_NAME_MAX)
		return ENAMETOOLONG;
	if (len == 0)
		return EINVAL;
	prepare_name(fs, um, dir, name, len, flags, lk);
	set_dots(dir, lk);
	lk->path = choose_path(dir, lk);
	if (lk->path == E2FOLD_LOOKUP_HTREE) {
		if (hashed_search(fs, um, dir, lk))
			lk->path = E2FOLD_LOOKUP_BAD_INDEX;
	} else if (lk->path == E2FOLD_LOOKUP_BAD_INDEX ||
		   lk->path == E2FOLD_LOOKUP_DAMAGED_INDEX) {
		hash_only(fs, um, dir, lk);
	}
	if (lk->strict_refused)
		return 0;
	if (lk->path != E2FOLD_LOOKUP_HTREE)
		lk->found = scan(um, dir, lk);
	else if (!lk->found && lk->casefolded)
		fallback(fs, um, dir, lk);
	return 0;
}

const char *e2fold_lookup_path_text(enum e2fold_lookup_path path)
{
	switch (path) {
	case E2FOLD_LOOKUP_LINEAR:
		return "linear scan (directory not indexed)";
	case E2FOLD_LOOKUP_HTREE:
		return "hashed lookup in the leaf the hash leads to";
	case E2FOLD_LOOKUP_BAD_INDEX:
		return "linear scan (index unusable)";
	case E2FOLD_LOOKUP_DAMAGED_INDEX:
		return "linear scan (index damaged where the kernel does not "
		       "check: its hashed lookup may go astray)";
	case E2FOLD_LOOKUP_FALLBACK:
		return "linear fallback after the hashed lookup missed";
	case E2FOLD_LOOKUP_EXACT:
		return "linear scan for the exact bytes";
	case E2FOLD_LOOKUP_NO_KEY:
		return "linear scan of ciphertext names (no key)";
	}
	return "unknown";
}

const char *e2fold_match_rule_text(enum e2fold_match_rule rule)
{
	switch (rule) {
	case E2FOLD_MATCH_NONE:
		return "no match";
	case E2FOLD_MATCH_BYTES:
		return "bytes equal";
	case E2FOLD_MATCH_FOLDED:
		return "casefolded forms equal";
	case E2FOLD_MATCH_RAW_FALLBACK:
		return "not foldable, bytes equal";
	}
	return "unknown";
}
