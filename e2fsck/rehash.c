/*
 * rehash.c: pass 3, rewriting a directory with its renames applied and
 * hashes the kernel agrees with, then proving that nothing was lost: the
 * directory is read back, and its entries must be the same multiset of
 * (inode, name) pairs as planned.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dirread.h"
#include "e2fsck.h"
#include "diredit.h"
#include "problem.h"
#include "renameplan.h"
#include "fsck_report.h"

/* An order-independent fingerprint of (inode, name) pairs. */
struct fingerprint {
	size_t count;
	__u64 sum;
};

static __u64 entry_print(ext2_ino_t ino, const unsigned char *name,
			 unsigned int len)
{
	__u64 h = 0xcbf29ce484222325ull ^ ino;
	unsigned int i;

	for (i = 0; i < len; i++) {
		h ^= name[i];
		h *= 0x100000001b3ull;
	}
	return h * 0x9E3779B97F4A7C15ull;
}

static void fingerprint_add(struct fingerprint *fp, ext2_ino_t ino,
			    const unsigned char *name, unsigned int len)
{
	fp->count++;
	fp->sum += entry_print(ino, name, len);
}

static errcode_t verify(struct fsck_ctx *ctx, ext2_ino_t ino,
			const struct fingerprint *want)
{
	struct problem_context pctx = { 0 };
	struct fingerprint got = { 0 };
	struct e2fold_dir *dir;
	errcode_t retval;
	size_t i;

	retval = e2fold_dir_read(ctx->fs, ino, &dir);
	if (retval)
		return retval;
	for (i = 0; i < dir->nents; i++)
		fingerprint_add(&got, dir->ents[i].ino, dir->ents[i].name,
				dir->ents[i].name_len);
	if (got.count != want->count || got.sum != want->sum ||
	    dir->ncorrupt || dir->dx_problem) {
		char why[96];

		if (got.count != want->count)
			snprintf(why, sizeof(why), "%zu entries instead of %zu",
				 got.count, want->count);
		else if (got.sum != want->sum)
			snprintf(why, sizeof(why), "names or inodes differ");
		else
			snprintf(why, sizeof(why), "its blocks are damaged");
		pctx.dir = ino;
		pctx.str = why;
		fix_problem(ctx, PR_3_REBUILD_LOST, &pctx);
	}
	e2fold_dir_free(dir);
	return 0;
}

/* The dropped entries' references, once the directory is without them. */
static errcode_t drop_references(struct fsck_ctx *ctx, ext2_ino_t dir,
				 const struct entry_drop *drops, size_t ndrops)
{
	errcode_t retval = 0;
	size_t i;

	for (i = 0; i < ndrops && !retval; i++)
		retval = fsck_drop_reference(ctx, dir, &drops[i]);
	return retval;
}

errcode_t fsck_rebuild_dir(struct fsck_ctx *ctx, struct e2fold_dir *dir,
			   const struct e2fold_rename_plan *plans,
			   size_t nplans,
			   const struct entry_drop *drops, size_t ndrops,
			   int casefolded, int stored_hashes)
{
	ext2_filsys fs = ctx->fs;
	struct e2fold_dir_layout layout = {
		.ino = dir->ino,
		.parent = dir->dotdot,
		.um = casefolded ? ctx->um : NULL,
		.hash_version = stored_hashes ? EXT2_HASH_SIPHASH :
				e2fold_dir_hash_version(fs, dir),
		.stored_hashes = stored_hashes,
		/*
		 * A crash-safe rewrite takes new blocks the block bitmap
		 * calls free. Only a bitmap e2fsck has just checked can be
		 * trusted with that: without e2fsck (--no-e2fsck) a wrong
		 * bitmap would hand over another file's blocks, so the
		 * directory is rewritten over its own blocks instead.
		 */
		.in_place = !ctx->e2fsck_path,
	};
	struct problem_context pctx = { 0 };
	struct fingerprint want = { 0 };
	struct e2fold_new_entry *ents;
	ext2_ino_t ino = dir->ino;
	errcode_t retval = 0;
	size_t i, n = 0;

	if (!fsck_may_write(ctx))
		goto out;
	if (!fs->block_map) {
		retval = ext2fs_read_bitmaps(fs);
		if (retval)
			goto out;
	}
	retval = e2fold_dir_entries(dir, 0, &ents);
	if (retval)
		goto out;
	for (i = 0; i < nplans; i++) {
		ents[plans[i].index].name = plans[i].name;
		ents[plans[i].index].name_len = plans[i].len;
	}
	/* A dropped entry is marked by inode 0, then squeezed out. */
	for (i = 0; i < ndrops; i++)
		ents[drops[i].entry].ino = 0;
	for (i = 0; i < dir->nents; i++) {
		if (!ents[i].ino)
			continue;
		ents[n] = ents[i];
		fingerprint_add(&want, ents[n].ino, ents[n].name,
				ents[n].name_len);
		n++;
	}
	retval = e2fold_dir_write(fs, &layout, ents, n);
	ctx->changed = 1;
	free(ents);
	if (!retval)
		retval = drop_references(ctx, ino, drops, ndrops);
	pctx.dir = ino;
	if (retval) {
		pctx.errcode = retval;
		fix_problem(ctx, PR_3_REBUILD_FAILED, &pctx);
		retval = 0;
		goto out;
	}
	for (i = 0; i < nplans; i++) {
		const struct e2fold_dirent *e = &dir->ents[plans[i].index];

		report_rename(ctx->report, ctx, ino, e->ino, e->name,
			      e->name_len, plans[i].name, plans[i].len);
	}
	for (i = 0; i < ndrops; i++) {
		const struct e2fold_dirent *e = &dir->ents[drops[i].entry];

		report_drop(ctx->report, ctx, ino, e->ino, e->name,
			    e->name_len, drops[i].relinked);
	}
	report_rebuild(ctx->report, ctx, ino, n, casefolded);
	ctx->renamed += nplans;
	ctx->rebuilt++;
	/* The old copy goes before the new one is read back (e2fsck.h). */
	e2fold_dir_free(dir);
	return verify(ctx, ino, &want);
out:
	e2fold_dir_free(dir);
	return retval;
}
