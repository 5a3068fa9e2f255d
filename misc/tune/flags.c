/*
 * flags.c: the encoding flags, set only once the filesystem is proved to
 * meet them.
 *   strict               every name in every casefolded directory is
 *                        valid UTF-8 (a strict kernel fails the lookup
 *                        of any other);
 *   no_compat_fallback   every entry of every indexed casefolded
 *                        directory lies in the leaf its hash leads to
 *                        (without the fallback, newer kernels look
 *                        nowhere else); with --rebuild the directories
 *                        that fail are rebuilt first, once everything
 *                        else has been proved.
 * Clearing a flag needs no proof. The proofs read the filesystem as it is
 * on disk: in a dry run, directories that the same run would have
 * converted are judged as they are now.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <et/com_err.h>

#include "array.h"
#include "dirread.h"
#include "encoding.h"
#include "extopts.h"
#include "plural.h"
#include "json.h"
#include "tune.h"

struct proof {
	int strict, hashonly;		/* what is to be proved */
	size_t invalid, misplaced;
	size_t damaged;			/* indexes too damaged to read */
	ext2_ino_t *rebuild;		/* directories with misplaced entries */
	size_t nrebuild, rebuild_cap;
	blk64_t need;			/* blocks their rebuilds may add */
	int unrebuildable;		/* one of them cannot be rebuilt */
};

/* 1 if a hashed lookup of entry e finds the leaf that holds it. */
static int in_its_leaf(struct tune_ctx *ctx, const struct e2fold_dir *dir,
		       const struct e2fold_dirent *e, ext2_dirhash_t *ret_hash)
{
	const struct e2fold_dx_leaf *leaf = e2fold_dir_leaf_at(dir, e->lblk);
	int version;

	*ret_hash = 0;
	if (dir->encrypted) {
		if (!e->has_stored_hash)
			return 0;
		*ret_hash = e->stored_hash;
	} else {
		version = e2fold_effective_hash_version(ctx->fs,
							dir->dx_hash_version);
		if (e2fold_casefold_dirhash(ctx->um, version, e->name,
					    e->name_len,
					    ctx->fs->super->s_hash_seed,
					    ret_hash, NULL))
			return 0;
	}
	return leaf && *ret_hash >= leaf->lo && *ret_hash < leaf->hi;
}

static void report_misplaced(struct tune_ctx *ctx, const struct e2fold_dir *dir,
			     const struct e2fold_dirent *e, ext2_dirhash_t hash)
{
	struct e2fold_json o;

	printf("  ");
	tune_print_name(stdout, ctx->fs, dir->ino, e->name, e->name_len);
	printf(" (hash 0x%08x) is in block %llu, not where its hash leads\n",
	       hash, (unsigned long long)e->lblk);
	tune_report_begin(ctx, &o, "finding", "misplaced", dir->ino, e->ino);
	e2fold_json_name(&o, "name", e->name, e->name_len);
	e2fold_json_number(&o, "hash", hash);
	e2fold_json_number(&o, "block", e->lblk);
	tune_report_add_finding(ctx, &o);
}

/*
 * Count the entries a hashed lookup misses, and damaged indexes (where
 * no lookup can be trusted); 1 if the directory needs a rebuild.
 */
static int find_misplaced(struct tune_ctx *ctx, const struct e2fold_dir *dir,
			  struct proof *pf)
{
	size_t i, bad = 0;

	if (!dir->indexed)
		return 0;
	if (dir->dx_problem) {
		char *path = tune_path(ctx->fs, dir->ino);
		struct e2fold_json o;

		printf("  %s: its index is damaged (%s): no entry can be "
		       "trusted to be found\n", path ? path : "?",
		       e2fold_dx_problem_text(dir->dx_problem));
		free(path);
		tune_report_begin(ctx, &o, "finding", "damaged_index", dir->ino,
				  0);
		e2fold_json_string(&o, "problem", (const unsigned char *)
				   e2fold_dx_problem_text(dir->dx_problem),
				   strlen(e2fold_dx_problem_text(dir->dx_problem)));
		tune_report_add_finding(ctx, &o);
		pf->damaged++;
		return 1;
	}
	for (i = 0; i < dir->nents; i++) {
		ext2_dirhash_t hash;

		if (in_its_leaf(ctx, dir, &dir->ents[i], &hash))
			continue;
		report_misplaced(ctx, dir, &dir->ents[i], hash);
		bad++;
	}
	pf->misplaced += bad;
	return bad != 0;
}

static errcode_t push(struct proof *pf, ext2_ino_t ino)
{
	errcode_t retval = e2fold_array_reserve(&pf->rebuild, &pf->rebuild_cap,
						pf->nrebuild + 1,
						sizeof(*pf->rebuild));

	if (retval)
		return retval;
	pf->rebuild[pf->nrebuild++] = ino;
	return 0;
}

static errcode_t check_dir(struct tune_ctx *ctx, ext2_ino_t ino,
			   struct proof *pf)
{
	struct e2fold_dir *dir;
	const char *why;
	errcode_t retval;

	retval = e2fold_dir_read(ctx->fs, ino, &dir);
	if (retval)
		return retval;
	if (pf->strict)
		pf->invalid += tune_show_invalid(ctx, dir, "");
	if (pf->hashonly && find_misplaced(ctx, dir, pf)) {
		blk64_t after = tune_rewrite_blocks(ctx->fs, dir, NULL, 0);

		if (after > dir->nblocks)
			pf->need += after - dir->nblocks;
		retval = push(pf, ino);
		why = tune_unrewritable(dir);
		if (why && ctx->opt.rebuild) {
			char *path = tune_path(ctx->fs, ino);

			printf("  %s cannot be rebuilt: %s\n", path ? path : "?",
			       why);
			free(path);
			pf->unrebuildable = 1;
		}
	}
	e2fold_dir_free(dir);
	return retval;
}

/* Read every casefolded directory and check what is to be proved. */
static errcode_t check_all(struct tune_ctx *ctx, struct proof *pf)
{
	ext2_ino_t *dirs;
	size_t n, i;
	errcode_t retval;

	retval = tune_flagged_inodes(ctx->fs, 1, &dirs, &n);
	for (i = 0; i < n && !retval; i++) {
		if (ctx->uncasefolded &&
		    ext2fs_test_inode_bitmap2(ctx->uncasefolded, dirs[i]))
			continue;
		retval = check_dir(ctx, dirs[i], pf);
		if (retval)
			com_err("e2fold-tune", retval, "while reading directory "
				"%u", dirs[i]);
	}
	free(dirs);
	return retval;
}

static errcode_t rebuild_dir(struct tune_ctx *ctx, ext2_ino_t ino)
{
	struct e2fold_dir *dir = NULL;
	struct e2fold_json o;
	char *path = tune_path(ctx->fs, ino);
	errcode_t retval;

	retval = e2fold_dir_read(ctx->fs, ino, &dir);
	if (!retval && !ctx->opt.dry_run)
		retval = tune_rewrite_dir(ctx, dir, ctx->um, NULL, 0, 0, 0);
	if (retval) {
		com_err("e2fold-tune", retval, "while rebuilding %s (inode %u)",
			path ? path : "?", ino);
	} else {
		printf("%s %s (%zu %s).\n", ctx->opt.dry_run ?
		       "Would rebuild" : "Rebuilt", path ? path : "?",
		       dir->nents, e2fold_plural(dir->nents, "entry",
						 "entries"));
		tune_report_begin(ctx, &o, "change", "rebuild", ino, 0);
		e2fold_json_number(&o, "entries", dir->nents);
		tune_report_add_change(ctx, &o);
	}
	e2fold_dir_free(dir);
	free(path);
	return retval;
}

/* Prove the flags in pf, rebuilding first with --rebuild. */
static int prove(struct tune_ctx *ctx, struct proof *pf)
{
	size_t i;

	if (check_all(ctx, pf))
		return TUNE_ERROR;
	if (pf->invalid) {
		printf("strict is not set: %zu name%s %s not valid UTF-8 "
		       "(e2fold-fsck -E check_encoding renames them).\n",
		       pf->invalid, pf->invalid == 1 ? "" : "s",
		       pf->invalid == 1 ? "is" : "are");
		return TUNE_REFUSED;
	}
	if (!pf->nrebuild)
		return TUNE_OK;
	if (!ctx->opt.rebuild || pf->unrebuildable) {
		printf("no_compat_fallback is not set: ");
		if (pf->misplaced)
			printf("%zu entr%s not where %s hash leads%s",
			       pf->misplaced, pf->misplaced == 1 ? "y is" :
			       "ies are", pf->misplaced == 1 ? "its" : "their",
			       pf->damaged ? ", " : "");
		if (pf->damaged)
			printf("%zu ind%s damaged", pf->damaged,
			       pf->damaged == 1 ? "ex is" : "exes are");
		printf(" (%zu director%s to rebuild%s).\n", pf->nrebuild,
		       pf->nrebuild == 1 ? "y" : "ies", ctx->opt.rebuild ? "" :
		       "; --rebuild rebuilds them first");
		return TUNE_REFUSED;
	}
	if (tune_check_space(ctx, pf->need, "rebuild"))
		return TUNE_REFUSED;
	if (tune_begin_writes(ctx))
		return TUNE_ERROR;
	for (i = 0; i < pf->nrebuild; i++)
		if (rebuild_dir(ctx, pf->rebuild[i]))
			return TUNE_ERROR;
	return TUNE_OK;
}

int tune_flags(struct tune_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	__u16 old = sb->s_encoding_flags, want = ctx->opt.flags, added;
	struct proof pf = { 0 };
	struct e2fold_json o;
	char from[64], to[64];
	int status;

	if (!ctx->opt.set_flags)
		return TUNE_OK;
	if (!ctx->um) {
		fprintf(stderr, "e2fold-tune: encoding flags need the casefold "
			"feature (add -O casefold)\n");
		return TUNE_ERROR;
	}
	e2fold_format_encoding_flags(old, from, sizeof(from));
	e2fold_format_encoding_flags(want, to, sizeof(to));
	if (want == old) {
		printf("Encoding flags are already %s.\n", *to ? to : "(none)");
		return TUNE_OK;
	}
	e2fold_warn_dropped_flags("e2fold-tune", old, want,
				  ctx->opt.flags_cleared);
	added = want & ~old;
	pf.strict = !!(added & E2FOLD_ENC_STRICT_FL);
	pf.hashonly = !!(added & E2FOLD_ENC_NO_COMPAT_FALLBACK_FL);
	status = prove(ctx, &pf);
	free(pf.rebuild);
	if (status != TUNE_OK)
		return status;
	printf("%s encoding flags: %s -> %s.\n", ctx->opt.dry_run ?
	       "Would change" : "Changing", *from ? from : "(none)",
	       *to ? to : "(none)");
	tune_report_begin(ctx, &o, "change", "encoding_flags", 0, 0);
	e2fold_json_number(&o, "old_value", old);
	e2fold_json_number(&o, "new_value", want);
	tune_report_add_change(ctx, &o);
	if (ctx->opt.dry_run)
		return TUNE_OK;
	sb->s_encoding_flags = want;
	ctx->changed = 1;
	return TUNE_OK;
}
