/*
 * pass2.c: the names and hash trees of every directory.
 *
 * e2fold owns these for all directories, casefolded or not, because the
 * problems are shared: e2fsck's repairs of duplicate names and of hash
 * trees are lossy in casefolded directories, and e2fold tells e2fsck to
 * leave them all (external.c). In a directory that is not casefolded the
 * same rules apply with byte comparison and plain hashes.
 *
 * An indexed directory is first offered to leafcheck.c, which proves most
 * of them clean in little memory. The others, in one walk over entries
 * read whole:
 *   - each name's key (cfname.h) is computed once; it gives the directory
 *     hash and goes into a nameset, so duplicates (equal keys) are found
 *     in linear time, whatever blocks they sit in, indexed or not;
 *   - in casefolded directories under strict (or -E check_encoding),
 *     names utf8_validate rejects;
 *   - in an indexed directory, every entry's hash must fall in the range
 *     of the leaf it sits in, or lookups by name miss it; the index and
 *     every block must pass their checksums (metadata_csum).
 * The entry that comes first in the directory (lowest block and offset,
 * which is what a linear scan meets first) keeps its name; every later
 * duplicate, and every invalid name, is renamed: the planner of every
 * tool (renameplan.h) says which and chooses the new names, and each
 * rename is asked for, so that a refused one leaves its new name free.
 * Any accepted fix rewrites the whole directory (rehash.c) so that names
 * and hashes change together.
 *
 * Encrypted directories hold ciphertext names, which cannot be renamed
 * without the key. Two entries with one ciphertext name have one name:
 * the second the kernel meets is removed, and its inode, if the first's
 * is another, kept in /lost+found (relink.c). In encrypted casefolded
 * directories only the stored hashes can be checked: equal stored hashes
 * of different ciphertexts mean names equal after casefolding, which can
 * only be reported; a misplaced hash can be fixed by rebuilding the index
 * from the stored hashes.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <et/com_err.h>

#include "array.h"
#include "dirread.h"
#include "dirwrite.h"
#include "htree.h"
#include "e2fsck.h"
#include "encoding.h"
#include "problem.h"
#include "renameplan.h"

/*
 * Misplaced entries preen names per directory (then one line for the
 * rest); every other mode names them all, and the report always does.
 */
#define PRINT_MISPLACED 8

struct dir_check {
	struct fsck_ctx *ctx;
	struct scanned_dir *sd;
	const struct unicode_map *um;	/* NULL: not casefolded */
	struct e2fold_dir *dir;
	struct e2fold_renameplan *rp;
	struct e2fold_rename_plan *plans;	/* accepted, once checked */
	size_t nplans;
	struct entry_drop *drops;
	size_t ndrops, drops_cap;
	ext2_dirhash_t *hash;
	struct e2fold_key key;
	int rebuild;			/* an accepted fix needs a rewrite */
	int wanted;			/* fixes that could not be offered */
	int latch;			/* one rebuild answer per directory */
	int can_rebuild;
};

static int entry_name(void *arg, size_t id, const unsigned char **ret_name,
		      unsigned int *ret_len)
{
	const struct e2fold_dir *dir = arg;

	if (id >= dir->nents)
		return -1;
	*ret_name = dir->ents[id].name;
	*ret_len = dir->ents[id].name_len;
	return 0;
}

/*
 * In a casefolded directory a name that folds to "." is found as "." by
 * a linear lookup; invalid names count under strict or -E check_encoding.
 */
errcode_t fsck_dir_planner(struct fsck_ctx *ctx, const struct e2fold_dir *dir,
			   const struct unicode_map *um,
			   struct e2fold_renameplan **ret)
{
	int check_valid = um && (ctx->strict || ctx->opt.check_encoding);

	return e2fold_renameplan_new(um, (um ? E2FOLD_PLAN_DOTS : 0) |
				     (check_valid ? E2FOLD_PLAN_STRICT : 0),
				     dir->nents, entry_name, (void *)dir, ret);
}

static void base_context(struct dir_check *dc, struct problem_context *pctx,
			 size_t i)
{
	const struct e2fold_dirent *e = &dc->dir->ents[i];

	memset(pctx, 0, sizeof(*pctx));
	pctx->dir = dc->dir->ino;
	pctx->ino = e->ino;
	pctx->name = e->name;
	pctx->len = e->name_len;
	pctx->blk = e->lblk;
	pctx->no_fix = !dc->can_rebuild;
}

/* Keys, hashes, duplicates and validity of every entry. */
static errcode_t index_names(struct dir_check *dc)
{
	struct fsck_ctx *ctx = dc->ctx;
	struct e2fold_dir *dir = dc->dir;
	int version = e2fold_effective_hash_version(ctx->fs, dir->dx_hash_version);
	errcode_t retval;
	size_t i;

	retval = fsck_dir_planner(ctx, dir, dc->um, &dc->rp);
	for (i = 0; i < dir->nents && !retval; i++) {
		const struct e2fold_dirent *e = &dir->ents[i];

		e2fold_name_key(dc->um, e->name, e->name_len, &dc->key);
		if (dir->indexed &&
		    e2fold_key_dirhash(&dc->key, version,
				       ctx->fs->super->s_hash_seed,
				       &dc->hash[i], NULL))
			dc->hash[i] = 0;
		retval = e2fold_renameplan_add(dc->rp, i, &dc->key, NULL);
		if ((i & 0xffff) == 0xffff)
			fsck_dir_progress(ctx, i, dir->nents);
	}
	return retval;
}

/*
 * Of two entries of the directory with one name, the one the kernel's
 * lookup meets first (negative: a): in an indexed directory, the one in
 * the leaf that comes first in the index; within a block, or in a linear
 * directory, the earlier one.
 */
static int kernel_order(const struct e2fold_dir *dir, size_t a, size_t b)
{
	const struct e2fold_dx_leaf *la, *lb;

	if (dir->indexed) {
		la = e2fold_dir_leaf_at(dir, dir->ents[a].lblk);
		lb = e2fold_dir_leaf_at(dir, dir->ents[b].lblk);
		if (la && lb && la != lb)
			return la < lb ? -1 : 1;
	}
	return a < b ? -1 : a > b;
}

/*
 * Entry i has the ciphertext name of entry keep, which the kernel finds
 * instead: take i out, and keep its inode in /lost+found unless keep
 * names it too (relink.c).
 */
static errcode_t offer_twin_removal(struct dir_check *dc, size_t i,
				    size_t keep)
{
	const struct e2fold_dirent *e = &dc->dir->ents[i];
	struct problem_context pctx;
	struct entry_drop *d;
	ext2_ino_t lost_found = 0;
	int code = PR_2_TWIN_ENTRY;
	errcode_t retval;

	base_context(dc, &pctx, i);
	pctx.ino2 = dc->dir->ents[keep].ino;
	if (e->ino != pctx.ino2) {
		retval = fsck_find_lost_found(dc->ctx, &lost_found, &pctx.str);
		if (retval)
			return retval;
		code = lost_found ? PR_2_TWIN_RELINK : PR_2_TWIN_NO_LOST_FOUND;
	}
	dc->wanted += pctx.no_fix;
	if (!fix_problem(dc->ctx, code, &pctx) || pctx.no_fix ||
	    code == PR_2_TWIN_NO_LOST_FOUND)
		return 0;
	retval = e2fold_array_reserve(&dc->drops, &dc->drops_cap,
				      dc->ndrops + 1, sizeof(*dc->drops));
	if (retval)
		return retval;
	d = &dc->drops[dc->ndrops];
	d->entry = i;
	d->kept = keep;
	d->ino = e->ino;
	d->file_type = e->file_type;
	d->relinked = 0;
	if (lost_found) {
		/* Linked before its entry goes: never without a name. */
		retval = fsck_relink(dc->ctx, lost_found, e->ino,
				     e->file_type);
		if (retval)
			return retval;
		d->relinked = 1;
	}
	dc->ndrops++;
	dc->rebuild = 1;
	return 0;
}

/*
 * Entry i repeats entry keep exactly, name and inode: it goes, with the
 * link count it added (as e2fsck counted it), not renamed into a hard
 * link nobody made. A directory's second name is e2fsck's to judge.
 */
static errcode_t offer_repeat_removal(struct dir_check *dc, size_t i,
				      size_t keep)
{
	const struct e2fold_dirent *e = &dc->dir->ents[i];
	struct problem_context pctx;
	struct entry_drop *d;
	errcode_t retval;

	base_context(dc, &pctx, i);
	pctx.ino2 = dc->dir->ents[keep].ino;
	dc->wanted += pctx.no_fix;
	if (!fix_problem(dc->ctx, PR_2_DUPLICATE_SAME_INODE, &pctx) ||
	    pctx.no_fix)
		return 0;
	retval = e2fold_array_reserve(&dc->drops, &dc->drops_cap,
				      dc->ndrops + 1, sizeof(*dc->drops));
	if (retval)
		return retval;
	d = &dc->drops[dc->ndrops++];
	d->entry = i;
	d->kept = keep;
	d->ino = e->ino;
	d->file_type = e->file_type;
	d->relinked = 0;
	dc->rebuild = 1;
	return 0;
}

/* Of entry i and the twins taken out in its favour, the one kept. */
static size_t survivor(const struct dir_check *dc, size_t i)
{
	size_t k;

	for (k = 0; k < dc->ndrops; k++)
		if (dc->drops[k].entry == i)
			return survivor(dc, dc->drops[k].kept);
	return i;
}

/* The entry, or "." or "..", whose name a colliding entry has. */
static void keeper_context(struct dir_check *dc, struct problem_context *pctx,
			   size_t keeper)
{
	const struct e2fold_dir *dir = dc->dir;
	const char *dot = e2fold_keeper_dot(dir->nents, keeper);

	if (dot) {
		pctx->ino2 = keeper == dir->nents ? dir->dot : dir->dotdot;
		pctx->name2 = (const unsigned char *)dot;
		pctx->len2 = strlen(dot);
	} else {
		pctx->ino2 = dir->ents[keeper].ino;
		pctx->name2 = dir->ents[keeper].name;
		pctx->len2 = dir->ents[keeper].name_len;
	}
}

/* Choose a new name for the plan's entry and ask; takes it if accepted. */
static errcode_t offer_rename(struct dir_check *dc,
			      struct e2fold_rename_plan *plan, int code)
{
	struct problem_context pctx;
	errcode_t retval;

	base_context(dc, &pctx, plan->index);
	if (plan->reason == E2FOLD_RENAME_COLLISION)
		keeper_context(dc, &pctx, plan->keeper);
	if (e2fold_renameplan_choose(dc->rp, plan)) {
		fix_problem(dc->ctx, PR_2_RENAME_IMPOSSIBLE, &pctx);
		return 0;
	}
	pctx.new_name = plan->name;
	pctx.new_len = plan->len;
	dc->wanted += pctx.no_fix;
	if (!fix_problem(dc->ctx, code, &pctx) || pctx.no_fix)
		return 0;
	retval = e2fold_renameplan_take(dc->rp, plan);
	if (retval)
		return retval;
	dc->rebuild = 1;
	return 0;
}

static int same_name(const struct e2fold_dirent *a,
		     const struct e2fold_dirent *b)
{
	return a->name_len == b->name_len &&
	       !memcmp(a->name, b->name, a->name_len);
}

/* Is entry i exactly entry keep again: its name, a file's inode? */
static int repeats(const struct e2fold_dir *dir, size_t i, size_t keep)
{
	return keep < dir->nents && dir->ents[i].ino == dir->ents[keep].ino &&
	       dir->ents[i].file_type != EXT2_FT_DIR &&
	       same_name(&dir->ents[i], &dir->ents[keep]);
}

/* What a name that must give way is asked about. */
static int rename_code(const struct e2fold_dir *dir,
		       const struct e2fold_rename_plan *plan)
{
	if (plan->reason == E2FOLD_RENAME_INVALID)
		return PR_2_NAME_INVALID;
	return plan->keeper < dir->nents &&
	       same_name(&dir->ents[plan->keeper], &dir->ents[plan->index]) ?
	       PR_2_DUPLICATE_IDENTICAL : PR_2_DUPLICATE;
}

static errcode_t check_names(struct dir_check *dc)
{
	struct e2fold_dir *dir = dc->dir;
	struct e2fold_rename_plan plan;
	errcode_t retval = 0;
	size_t i, o;

	for (i = 0; i < dir->nents && !retval; i++) {
		if (!e2fold_renameplan_fate(dc->rp, i, &plan))
			continue;
		o = plan.keeper;
		dc->ctx->tally.duplicates +=
			plan.reason == E2FOLD_RENAME_COLLISION;
		if (plan.reason == E2FOLD_RENAME_COLLISION &&
		    o < dir->nents && dir->encrypted) {
			/* Ciphertext, compared as bytes: one name twice. */
			o = survivor(dc, o);
			retval = kernel_order(dir, o, i) < 0 ?
				 offer_twin_removal(dc, i, o) :
				 offer_twin_removal(dc, o, i);
		} else if (plan.reason == E2FOLD_RENAME_COLLISION &&
			   repeats(dir, i, o)) {
			retval = offer_repeat_removal(dc, i, o);
		} else {
			retval = offer_rename(dc, &plan, rename_code(dir, &plan));
		}
	}
	return retval;
}

/* Ask once per directory whether to rebuild its index. */
static void ask_rebuild(struct dir_check *dc, int code,
			struct problem_context *pctx)
{
	pctx->latch = &dc->latch;
	dc->wanted += pctx->no_fix;
	if (fix_problem(dc->ctx, code, pctx) && !pctx->no_fix)
		dc->rebuild = 1;
}

static void check_damaged_index(struct dir_check *dc, int code)
{
	struct problem_context pctx = { 0 };

	pctx.dir = dc->dir->ino;
	pctx.str = e2fold_dx_problem_text(dc->dir->dx_problem);
	pctx.blk = dc->dir->dx_problem_block;
	pctx.no_fix = !dc->can_rebuild;
	ask_rebuild(dc, code, &pctx);
}

/* Would the kernel of the Default_Ignorable episode have put it there? */
static int placed_by_ignorable_kernel(struct dir_check *dc, size_t i,
				      const struct e2fold_dx_leaf *leaf)
{
	struct fsck_ctx *ctx = dc->ctx;
	const struct e2fold_dirent *e = &dc->dir->ents[i];
	ext2_dirhash_t hash;

	if (!dc->um || e2fold_dirhash_keeping_ignorables(dc->um,
			e2fold_effective_hash_version(ctx->fs,
						      dc->dir->dx_hash_version),
			e->name, e->name_len, ctx->fs->super->s_hash_seed,
			&hash, NULL))
		return 0;
	return hash >= leaf->lo && hash < leaf->hi;
}

static int misplaced_at(const struct dir_check *dc, size_t i)
{
	const struct e2fold_dx_leaf *leaf =
		e2fold_dir_leaf_at(dc->dir, dc->dir->ents[i].lblk);

	return !leaf || dc->hash[i] < leaf->lo || dc->hash[i] >= leaf->hi;
}

/*
 * Entries that are not where their hash leads: the directory's finding
 * and its question once, then the entries, one line each (preen names
 * the first few and counts the rest; the report lists them all).
 */
static void check_placement(struct dir_check *dc)
{
	struct e2fold_dir *dir = dc->dir;
	struct problem_context head = { 0 }, more = { 0 };
	size_t i, misplaced = 0;

	if (dir->dx_problem) {
		check_damaged_index(dc, PR_2_HTREE_DAMAGED);
		return;
	}
	for (i = 0; i < dir->nents; i++)
		misplaced += misplaced_at(dc, i);
	if (!misplaced)
		return;
	head.dir = dir->ino;
	head.num = misplaced;
	head.no_fix = !dc->can_rebuild;
	ask_rebuild(dc, PR_2_MISPLACED, &head);
	misplaced = 0;
	for (i = 0; i < dir->nents; i++) {
		const struct e2fold_dx_leaf *leaf =
			e2fold_dir_leaf_at(dir, dir->ents[i].lblk);
		struct problem_context pctx;

		if (!misplaced_at(dc, i))
			continue;
		base_context(dc, &pctx, i);
		pctx.num = dc->hash[i];
		pctx.quiet = ++misplaced > PRINT_MISPLACED;
		if (!leaf) {
			ask_rebuild(dc, PR_2_HTREE_NOT_LEAF, &pctx);
			continue;
		}
		pctx.lo = leaf->lo;
		pctx.hi = leaf->hi;
		ask_rebuild(dc, placed_by_ignorable_kernel(dc, i, leaf) ?
			    PR_2_HTREE_IGNORABLE : PR_2_HTREE_BAD_BUCKET, &pctx);
	}
	dc->ctx->tally.misplaced += misplaced;
	if (misplaced > PRINT_MISPLACED) {
		more.dir = dir->ino;
		more.num = misplaced - PRINT_MISPLACED;
		fix_problem(dc->ctx, PR_2_MORE_MISPLACED, &more);
	}
	fix_problem_list_end(dc->ctx);
}

/* By stored hash, then in the order the kernel's lookup meets them. */
static int cmp_stored(const void *a, const void *b, void *arg)
{
	const struct e2fold_dir *dir = arg;
	const struct e2fold_dirent *x = &dir->ents[*(const size_t *)a];
	const struct e2fold_dirent *y = &dir->ents[*(const size_t *)b];

	if (x->stored_hash != y->stored_hash)
		return x->stored_hash < y->stored_hash ? -1 : 1;
	if (x->stored_minor != y->stored_minor)
		return x->stored_minor < y->stored_minor ? -1 : 1;
	return kernel_order(dir, *(const size_t *)a, *(const size_t *)b);
}

/*
 * Entries with equal stored hashes, order[0..n) in the kernel's order:
 * a later copy of a ciphertext is a twin of its first copy; a different
 * ciphertext is a name equal after casefolding, which only the key could
 * tell apart or rename.
 */
static errcode_t check_equal_hashes(struct dir_check *dc, const size_t *order,
				    size_t n)
{
	const struct e2fold_dirent *ents = dc->dir->ents;
	struct problem_context pctx;
	errcode_t retval = 0;
	size_t i, j;

	for (i = 1; i < n && !retval; i++) {
		const struct e2fold_dirent *b = &ents[order[i]];

		for (j = 0; j < i && !same_name(&ents[order[j]], b); j++)
			;
		if (j < i) {
			retval = offer_twin_removal(dc, order[i], order[j]);
			continue;
		}
		dc->ctx->tally.duplicates++;
		base_context(dc, &pctx, order[i]);
		pctx.ino2 = ents[order[0]].ino;
		pctx.num = b->stored_hash;
		pctx.num2 = b->stored_minor;
		fix_problem(dc->ctx, PR_2_DUPLICATE_ENCRYPTED, &pctx);
	}
	return retval;
}

/*
 * Interior nodes in the layout e2fsprogs writes (e2fsck rebuilt the
 * directory, or e2fold showed it the nodes that way for its repairs and
 * was stopped before giving them back): Linux's layout is restored in
 * place, or by a rebuild if a node holds more entries than Linux allows.
 */
static errcode_t check_node_limits(struct dir_check *dc)
{
	struct e2fold_dir *dir = dc->dir;
	unsigned int kernel = e2fold_dx_node_limit(dc->ctx->fs, 1);
	struct problem_context pctx = { 0 };
	errcode_t retval;
	size_t i;

	pctx.dir = dir->ino;
	pctx.num2 = kernel;
	for (i = 0; i < dir->nnodes; i++) {
		const struct e2fold_dx_node *node = &dir->nodes[i];

		if (node->limit == kernel)
			continue;
		pctx.blk = node->lblk;
		pctx.num = node->limit;
		if (node->count > kernel) {
			pctx.no_fix = !dc->can_rebuild;
			ask_rebuild(dc, PR_2_ENCRYPTED_NODE_LIMIT, &pctx);
			continue;
		}
		if (!fix_problem(dc->ctx, PR_2_ENCRYPTED_NODE_LIMIT, &pctx))
			continue;
		retval = e2fold_dx_node_set_limit(dc->ctx->fs, dir->ino,
						  node->lblk, kernel);
		if (retval)
			return retval;
		dc->ctx->changed = 1;
	}
	return 0;
}

/* Encrypted: equal stored hashes, and hashes outside their leaf. */
static errcode_t check_encrypted(struct dir_check *dc)
{
	struct e2fold_dir *dir = dc->dir;
	struct problem_context pctx;
	errcode_t retval = 0;
	size_t *order, i, j, n = 0;

	order = malloc((dir->nents + 1) * sizeof(*order));
	if (!order)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < dir->nents; i++) {
		if (dir->ents[i].has_stored_hash) {
			order[n++] = i;
			continue;
		}
		base_context(dc, &pctx, i);
		fix_problem(dc->ctx, PR_2_ENCRYPTED_NO_HASH, &pctx);
		dc->can_rebuild = 0;
	}
	qsort_r(order, n, sizeof(*order), cmp_stored, dir);
	for (i = 0; i < n && !retval; i = j) {
		const struct e2fold_dirent *a = &dir->ents[order[i]];

		for (j = i + 1; j < n &&
		     dir->ents[order[j]].stored_hash == a->stored_hash &&
		     dir->ents[order[j]].stored_minor == a->stored_minor; j++)
			;
		if (j - i > 1)
			retval = check_equal_hashes(dc, order + i, j - i);
	}
	free(order);
	if (retval)
		return retval;
	if (!dir->indexed)
		return 0;
	if (dc->sd->rebuild)
		dc->rebuild = dc->can_rebuild;
	if (dir->dx_problem == E2FOLD_DX_FOREIGN_LIMIT) {
		retval = check_node_limits(dc);
		if (retval)
			return retval;
	} else if (dir->dx_problem &&
		   dir->dx_problem != E2FOLD_DX_BAD_HASH_VERSION) {
		check_damaged_index(dc, PR_2_ENCRYPTED_DAMAGED);
		return 0;
	}
	for (i = 0; i < dir->nents && (!dir->dx_problem ||
		dir->dx_problem == E2FOLD_DX_FOREIGN_LIMIT); i++) {
		const struct e2fold_dirent *e = &dir->ents[i];
		const struct e2fold_dx_leaf *leaf = e2fold_dir_leaf_at(dir, e->lblk);

		if (!e->has_stored_hash || !leaf ||
		    (e->stored_hash >= leaf->lo && e->stored_hash < leaf->hi))
			continue;
		base_context(dc, &pctx, i);
		pctx.num = e->stored_hash;
		pctx.lo = leaf->lo;
		pctx.hi = leaf->hi;
		ask_rebuild(dc, PR_2_ENCRYPTED_BAD_BUCKET, &pctx);
	}
	return 0;
}

static errcode_t check_plain(struct dir_check *dc)
{
	errcode_t retval;

	dc->hash = malloc((dc->dir->nents + 1) * sizeof(*dc->hash));
	if (!dc->hash)
		return EXT2_ET_NO_MEMORY;
	retval = index_names(dc);
	if (!retval)
		retval = check_names(dc);
	if (!retval && dc->dir->indexed)
		check_placement(dc);
	return retval;
}

/* Index blocks failing their checksum, leaves with no room for one. */
static void check_checksums(struct dir_check *dc)
{
	struct problem_context pctx = { 0 };
	size_t i;

	pctx.dir = dc->dir->ino;
	pctx.no_fix = !dc->can_rebuild;
	for (i = 0; i < dc->dir->nbadsum; i++) {
		pctx.blk = dc->dir->badsum[i].lblk;
		ask_rebuild(dc, dc->dir->badsum[i].index ? PR_2_HTREE_CSUM :
			    PR_2_DIR_NO_CSUM_TAIL, &pctx);
	}
}

static void report_corrupt_blocks(struct dir_check *dc)
{
	struct problem_context pctx = { 0 };
	size_t i;

	pctx.dir = dc->dir->ino;
	for (i = 0; i < dc->dir->ncorrupt; i++) {
		pctx.blk = dc->dir->corrupt[i];
		fix_problem(dc->ctx, PR_2_CORRUPT_BLOCK, &pctx);
	}
}

/*
 * What finding duplicates took; a rebuild needs only entries and plans,
 * which the planner hands over.
 */
static void free_name_index(struct dir_check *dc)
{
	if (dc->rp)
		e2fold_renameplan_release(dc->rp, &dc->plans, &dc->nplans);
	e2fold_renameplan_free(dc->rp);
	free(dc->hash);
	dc->rp = NULL;
	dc->hash = NULL;
}

/*
 * An entry with an empty name is e2fsck's to clear; a block rewritten
 * with it is one e2fsck 1.47 calls corrupt (and stops there under -n).
 */
static int has_empty_name(const struct e2fold_dir *dir)
{
	size_t i;

	for (i = 0; i < dir->nents; i++)
		if (!dir->ents[i].name_len)
			return 1;
	return 0;
}

static errcode_t check_dir(struct fsck_ctx *ctx, struct scanned_dir *sd)
{
	struct dir_check dc = { .ctx = ctx, .sd = sd, .latch = -1 };
	struct problem_context pctx = { 0 };
	errcode_t retval;

	pctx.dir = sd->ino;
	dc.um = sd->casefolded ? ctx->um : NULL;
	/* Most directories are clean: prove it in little memory first. */
	if (fsck_dir_clean_by_leaves(ctx, sd, &retval) || retval)
		return retval;
	/* An unreadable inode or no memory: nothing sensible can follow. */
	retval = e2fold_dir_read(ctx->fs, sd->ino, &dc.dir);
	if (retval) {
		com_err(ctx->prog, retval, "while reading directory %u", sd->ino);
		return retval;
	}
	ctx->tally.dirs_checked++;
	ctx->tally.cf_dirs_checked += sd->casefolded;
	ctx->tally.entries_checked += dc.dir->nents;
	ctx->tally.names_folded += sd->casefolded ? dc.dir->nents : 0;
	report_corrupt_blocks(&dc);
	/*
	 * A rebuild writes '.' and '..' anew from the old ones; when either
	 * is missing or malformed, the directory is e2fsck's to mend first.
	 */
	dc.can_rebuild = !dc.dir->ncorrupt && dc.dir->dot && dc.dir->dotdot &&
			 !has_empty_name(dc.dir);
	check_checksums(&dc);
	if (dc.dir->encrypted && sd->casefolded)
		retval = check_encrypted(&dc);
	else
		retval = check_plain(&dc);
	if (!retval && dc.rebuild) {
		struct e2fold_dir *dir = dc.dir;

		free_name_index(&dc);
		dc.dir = NULL;		/* fsck_rebuild_dir frees it */
		retval = fsck_rebuild_dir(ctx, dir, dc.plans, dc.nplans,
					  dc.drops, dc.ndrops,
					  sd->casefolded,
					  dir->encrypted && sd->casefolded);
	} else if (!retval && dc.wanted) {
		pctx.str = dc.dir->ncorrupt ? "it has corrupt blocks" :
			   !dc.dir->dot || !dc.dir->dotdot ?
			   "its '.' or '..' entry is missing or malformed" :
			   has_empty_name(dc.dir) ? "an entry has an empty name" :
			   "an entry has no stored hash";
		fix_problem(ctx, PR_2_DIR_NOT_REBUILT, &pctx);
	}
	free_name_index(&dc);
	free(dc.plans);
	free(dc.drops);
	e2fold_dir_free(dc.dir);
	return retval;
}

errcode_t fsck_pass2(struct fsck_ctx *ctx)
{
	errcode_t retval = 0;
	size_t i;

	/*
	 * The safe point for a signal: between two directories, each
	 * checked, and rewritten and read back if need be, completely.
	 */
	for (i = 0; i < ctx->n_dirs && !retval && !ctx->aborted &&
	     !fsck_cancelled(ctx); i++) {
		struct scanned_dir *sd = &ctx->dirs[i];

		ctx->progress_dir = i;
		fsck_dir_progress(ctx, 0, 1);
		/* Casefolded without a usable encoding: nothing to go by. */
		if (sd->skip || (sd->casefolded && !ctx->um))
			continue;
		retval = check_dir(ctx, sd);
	}
	ctx->progress_dir = ctx->n_dirs;
	if (!ctx->cancelled)
		fsck_dir_progress(ctx, 0, 1);
	return retval;
}
