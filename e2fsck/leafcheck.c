/*
 * leafcheck.c: proving a clean indexed directory clean, a few leaves at a
 * time.
 *
 * pass2.c reads a whole directory into memory to find duplicates across
 * all its blocks: about 100 MB for a million entries, where e2fsck holds
 * a block at a time. An index allows less. If every entry lies in the
 * leaf its hash leads to, two names with equal keys (equal hashes) lie in
 * one leaf, or in a run of leaves that continue one hash value (bit 0 of
 * an index hash): such a run holds every entry a duplicate could have.
 * So this file checks each run on its own. It only proves: at the first
 * thing the ordinary check would report (a misplaced entry, a duplicate,
 * an invalid name, a damaged index or block, a missing checksum tail) it
 * gives up, and pass2.c checks the directory again the ordinary way, which
 * reports everything and can repair.
 */
#include "config.h"

#include <stdlib.h>

#include "dirread.h"
#include "e2fsck.h"
#include "encoding.h"
#include "renameplan.h"

struct leaf_run {
	struct fsck_ctx *ctx;
	const struct unicode_map *um;	/* NULL: not casefolded */
	struct e2fold_dir *dir;
	int hash_version;
	struct e2fold_key key;
};

/*
 * Are the entries now in lr->dir (one run of leaves) without a finding?
 * A name that would lose its name in pass 2's plan is one.
 */
static int run_is_clean(struct leaf_run *lr)
{
	struct e2fold_dir *dir = lr->dir;
	struct e2fold_renameplan *rp;
	size_t i;
	int loses = 0;
	int clean = !fsck_dir_planner(lr->ctx, dir, lr->um, &rp);

	for (i = 0; clean && i < dir->nents; i++) {
		const struct e2fold_dirent *e = &dir->ents[i];
		const struct e2fold_dx_leaf *leaf = e2fold_dir_leaf_at(dir, e->lblk);
		ext2_dirhash_t hash;

		e2fold_name_key(lr->um, e->name, e->name_len, &lr->key);
		clean = leaf && !e2fold_key_dirhash(&lr->key, lr->hash_version,
				lr->ctx->fs->super->s_hash_seed, &hash, NULL) &&
			hash >= leaf->lo && hash < leaf->hi &&
			!e2fold_renameplan_add(rp, i, &lr->key, &loses) &&
			!loses;
	}
	e2fold_renameplan_free(rp);
	return clean;
}

int fsck_dir_clean_by_leaves(struct fsck_ctx *ctx, struct scanned_dir *sd,
			     errcode_t *ret_err)
{
	struct leaf_run lr = { .ctx = ctx };
	struct e2fold_dir *dir;
	blk64_t *run = NULL, lblk, covered = 0;
	size_t i, j, entries = 0;
	int clean;

	*ret_err = 0;
	if (!sd->indexed || sd->encrypted || sd->rebuild ||
	    e2fold_dir_read_index(ctx->fs, sd->ino, &dir))
		return 0;
	lr.dir = dir;
	lr.um = sd->casefolded ? ctx->um : NULL;
	lr.hash_version = e2fold_effective_hash_version(ctx->fs,
							dir->dx_hash_version);
	/* Every block must be the index's: a block outside it is a finding. */
	for (lblk = 0; lblk < dir->nblocks; lblk++)
		covered += dir->index_block[lblk] || dir->leaf_of[lblk] != (size_t)-1;
	clean = !dir->dx_problem && !dir->ncorrupt && !dir->nbadsum &&
		dir->dot && dir->dotdot && covered == dir->nblocks &&
		dir->nleaves && (run = malloc(dir->nleaves * sizeof(*run)));
	if (clean && dir->leaves[0].continued)
		clean = 0;	/* the first leaf continues nothing */
	for (i = 0; clean && i < dir->nleaves; i = j) {
		int ok;

		for (j = i; j < dir->nleaves &&
		     (j == i || dir->leaves[j].continued); j++)
			run[j - i] = dir->leaves[j].lblk;
		*ret_err = e2fold_dir_read_blocks(ctx->fs, dir, run, j - i, &ok);
		clean = !*ret_err && ok && run_is_clean(&lr);
		entries += dir->nents;
		if ((i & 0xff) == 0)
			fsck_dir_progress(ctx, i, dir->nleaves);
	}
	if (clean) {
		ctx->tally.dirs_checked++;
		ctx->tally.cf_dirs_checked += sd->casefolded;
		ctx->tally.entries_checked += entries;
		ctx->tally.names_folded += sd->casefolded ? entries : 0;
	}
	free(run);
	e2fold_dir_free(dir);
	return clean;
}
