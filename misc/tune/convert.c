/*
 * convert.c: turning a directory that already holds names into a
 * casefolded one (--casefold PATH), and back (--no-casefold PATH).
 *
 * The kernel lets only an empty directory change its casefold flag, and
 * new subdirectories inherit it; so a conversion takes the directory and
 * every directory below it, as if the tree had been created under the
 * flag. First every directory is planned without writing anything: names
 * that collide after casefolding (renameplan.h: all but the first in byte
 * order give theirs up), and under strict the names a strict filesystem
 * rejects. If a plan needs renames and -E collisions=rename was not
 * given, or a directory cannot be rewritten (encrypted: its names are
 * ciphertext and its hashes need the key; damaged: e2fold-fsck's job),
 * or the rewrites may need more blocks than are free (space.c), the
 * whole conversion is refused. Then each directory gets its flag and is
 * rewritten with its new names and the hashes the kernel computes for it
 * (dirwrite.h), casefolded or plain. A directory without entries only
 * changes its flag, so lost+found keeps the blocks it was given.
 * Directories already in the state asked for are left alone.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <et/com_err.h>

#include "array.h"
#include "cfname.h"
#include "dirread.h"
#include "encoding.h"
#include "json.h"
#include "renameplan.h"
#include "tune.h"
#include "txnio.h"

struct planned_dir {
	struct e2fold_dir *dir;
	struct e2fold_rename_plan *plans;
	size_t nplans;
	int skip;			/* already as the conversion wants */
};

struct conversion {
	int casefold;			/* the target state */
	const struct unicode_map *um;	/* casefold: the encoding; else NULL */
	int strict;
	struct planned_dir *dirs;
	size_t n, cap;
	size_t nskip;
};

static errcode_t add_dir(struct conversion *cv, struct e2fold_dir *dir)
{
	errcode_t retval = e2fold_array_reserve(&cv->dirs, &cv->cap, cv->n + 1,
						sizeof(*cv->dirs));

	if (retval)
		return retval;
	memset(&cv->dirs[cv->n], 0, sizeof(cv->dirs[0]));
	cv->dirs[cv->n].dir = dir;
	if (!dir->casefolded == !cv->casefold) {
		cv->dirs[cv->n].skip = 1;
		cv->nskip++;
	}
	cv->n++;
	return 0;
}

/* A subdirectory entry (without the filetype feature, every type is unknown). */
static int may_be_dir(ext2_filsys fs, const struct e2fold_dirent *e)
{
	return (e->file_type == EXT2_FT_DIR || e->file_type == EXT2_FT_UNKNOWN) &&
	       e->ino && e->ino <= fs->super->s_inodes_count;
}

/*
 * Read the directory ino and, below it, every subdirectory (each once,
 * whatever a damaged tree claims), breadth first so that deep trees do
 * not deepen the stack.
 */
static errcode_t collect(struct tune_ctx *ctx, ext2_ino_t ino,
			 struct conversion *cv)
{
	ext2fs_inode_bitmap seen;
	struct e2fold_dir *dir;
	errcode_t retval;
	size_t i, j;

	retval = ext2fs_allocate_inode_bitmap(ctx->fs, "converted", &seen);
	if (retval)
		return retval;
	retval = e2fold_dir_read(ctx->fs, ino, &dir);
	if (!retval) {
		retval = add_dir(cv, dir);
		if (retval)
			e2fold_dir_free(dir);
	}
	ext2fs_mark_inode_bitmap2(seen, ino);
	for (i = 0; i < cv->n && !retval; i++) {
		const struct e2fold_dir *d = cv->dirs[i].dir;

		/* Read of found so far: the total grows with the tree. */
		e2fold_progress_update(&ctx->progress, 1, i, cv->n);

		for (j = 0; j < d->nents && !retval; j++) {
			ext2_ino_t child = d->ents[j].ino;

			if (!may_be_dir(ctx->fs, &d->ents[j]) ||
			    ext2fs_test_inode_bitmap2(seen, child))
				continue;
			ext2fs_mark_inode_bitmap2(seen, child);
			retval = e2fold_dir_read(ctx->fs, child, &dir);
			if (retval == EXT2_ET_NO_DIRECTORY) {
				retval = 0;
				continue;
			}
			if (!retval) {
				retval = add_dir(cv, dir);
				if (retval)
					e2fold_dir_free(dir);
			}
		}
	}
	ext2fs_free_inode_bitmap(seen);
	if (!retval)
		e2fold_progress_update(&ctx->progress, 1, cv->n, cv->n);
	return retval;
}

/* The name a plan's entry keeps colliding with. */
static void keeper_name(const struct e2fold_dir *dir,
			const struct e2fold_rename_plan *p,
			const unsigned char **ret_name, unsigned int *ret_len)
{
	const char *dot = e2fold_keeper_dot(dir->nents, p->keeper);

	if (dot) {
		*ret_name = (const unsigned char *)dot;
		*ret_len = strlen(dot);
	} else {
		*ret_name = dir->ents[p->keeper].name;
		*ret_len = dir->ents[p->keeper].name_len;
	}
}

/* Print one planned rename and add it to the report's findings. */
static void show_plan(struct tune_ctx *ctx, const struct e2fold_dir *dir,
		      const struct e2fold_rename_plan *p, int refused)
{
	const struct e2fold_dirent *e = &dir->ents[p->index];
	const char *verb = !ctx->opt.rename ? "it would have to be renamed" :
			   refused || ctx->opt.dry_run ? "it would be renamed" :
			   "renamed";
	const unsigned char *kname = NULL;
	unsigned int klen = 0;
	struct e2fold_json o;
	void (*print)(FILE *, ext2_filsys, ext2_ino_t, const unsigned char *,
		      unsigned int) = tune_print_name;

	if (p->reason != E2FOLD_RENAME_INVALID) {
		keeper_name(dir, p, &kname, &klen);
		if (e2fold_names_print_alike(e->name, e->name_len, kname, klen))
			print = tune_print_name_exact;
	}
	printf("  ");
	print(stdout, ctx->fs, dir->ino, e->name, e->name_len);
	if (p->reason == E2FOLD_RENAME_INVALID) {
		printf(" is not valid UTF-8 (the filesystem is strict)");
	} else {
		printf(" is the same name as ");
		if (e2fold_keeper_dot(dir->nents, p->keeper))
			printf("%.*s", (int)klen, (const char *)kname);
		else
			print(stdout, ctx->fs, dir->ino, kname, klen);
	}
	printf("; %s ", verb);
	print(stdout, ctx->fs, dir->ino, p->name, p->len);
	printf("\n");

	tune_report_begin(ctx, &o, "finding", p->reason == E2FOLD_RENAME_INVALID ?
			  "invalid_utf8" : "collision", dir->ino, e->ino);
	e2fold_json_name(&o, "name", e->name, e->name_len);
	if (kname)
		e2fold_json_name(&o, "same_as", kname, klen);
	e2fold_json_name(&o, "new_name", p->name, p->len);
	e2fold_json_bool(&o, "renamed", !refused);
	tune_report_add_finding(ctx, &o);
}

/* Why a directory cannot be converted, or NULL. */
static const char *unconvertible(const struct e2fold_dir *dir)
{
	if (dir->encrypted)
		return "it is encrypted (its names are ciphertext, and an "
		       "encrypted casefolded directory hashes them with a key "
		       "e2fold does not have)";
	if (dir->ncorrupt || !dir->dotdot)
		return "it is damaged (run e2fold-fsck first)";
	return NULL;
}

/* Plan one directory's renames. */
static errcode_t plan_dir(const struct conversion *cv, struct planned_dir *pd)
{
	const struct e2fold_dir *dir = pd->dir;
	struct e2fold_name_in *names;
	size_t *order = NULL, i;
	errcode_t retval;

	names = calloc(dir->nents + 1, sizeof(*names));
	if (!names)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < dir->nents; i++) {
		names[i].name = dir->ents[i].name;
		names[i].len = dir->ents[i].name_len;
	}
	retval = e2fold_sorted_order(names, dir->nents, &order);
	if (!retval)
		retval = e2fold_plan_renames(cv->um, cv->strict, names,
					     dir->nents, order, &pd->plans,
					     &pd->nplans);
	free(order);
	free(names);
	return retval;
}

static void show_unconvertible(struct tune_ctx *ctx,
			       const struct e2fold_dir *dir, const char *why)
{
	char *path = tune_path(ctx->fs, dir->ino);
	struct e2fold_json o;

	printf("%s cannot be converted: %s.\n", path ? path : "?", why);
	free(path);
	tune_report_begin(ctx, &o, "finding", dir->encrypted ?
			  "encrypted_dir" : "damaged_dir", dir->ino, 0);
	tune_report_add_finding(ctx, &o);
}

/* The blocks the rewrites of the conversion may add. */
static blk64_t blocks_needed(struct tune_ctx *ctx, const struct conversion *cv)
{
	blk64_t need = 0;
	size_t i;

	for (i = 0; i < cv->n; i++) {
		const struct planned_dir *pd = &cv->dirs[i];
		blk64_t after;

		if (pd->skip || !pd->dir->nents)
			continue;
		after = tune_rewrite_blocks(ctx->fs, pd->dir, pd->plans,
					    pd->nplans);
		if (after > pd->dir->nblocks)
			need += after - pd->dir->nblocks;
	}
	return need;
}

/*
 * Plan every directory of the conversion, then say what the plans are
 * (knowing by then whether they will be carried out); nothing is written
 * here.
 */
static int plan(struct tune_ctx *ctx, struct conversion *cv)
{
	size_t i, j, renames = 0;
	blk64_t need;
	int refuse = 0;

	for (i = 0; i < cv->n; i++) {
		struct planned_dir *pd = &cv->dirs[i];
		errcode_t retval;

		e2fold_progress_update(&ctx->progress, 2, i, cv->n);
		if (pd->skip)
			continue;
		if (unconvertible(pd->dir)) {
			refuse = 1;
			continue;
		}
		retval = plan_dir(cv, pd);
		if (retval) {
			com_err("e2fold-tune", retval, "while planning directory "
				"%u", pd->dir->ino);
			return TUNE_ERROR;
		}
		renames += pd->nplans;
	}
	e2fold_progress_update(&ctx->progress, 2, cv->n, cv->n);
	e2fold_progress_break(&ctx->progress);
	if (renames && !ctx->opt.rename)
		refuse = 1;
	need = blocks_needed(ctx, cv);
	if (need > ext2fs_free_blocks_count(ctx->fs->super))
		refuse = 1;
	for (i = 0; i < cv->n; i++) {
		const struct planned_dir *pd = &cv->dirs[i];
		const char *why = unconvertible(pd->dir);

		if (pd->skip)
			continue;
		if (why) {
			show_unconvertible(ctx, pd->dir, why);
			continue;
		}
		for (j = 0; j < pd->nplans; j++)
			show_plan(ctx, pd->dir, &pd->plans[j], refuse);
		/* Not strict: kept, but say a strict filesystem would not. */
		if (cv->casefold && !cv->strict)
			tune_show_invalid(ctx, pd->dir, ": kept as it is (a "
					  "strict filesystem would reject it)");
	}
	if (renames && !ctx->opt.rename)
		printf("%zu name%s would have to be renamed (-E collisions="
		       "rename renames them).\n", renames,
		       renames == 1 ? "" : "s");
	tune_check_space(ctx, need, "convert");
	if (refuse)
		printf("The conversion is refused.\n");
	return refuse ? TUNE_REFUSED : TUNE_OK;
}

static void record_dir(struct tune_ctx *ctx, const struct conversion *cv,
		       const struct planned_dir *pd)
{
	const struct e2fold_dir *dir = pd->dir;
	struct e2fold_json o;
	size_t i;

	for (i = 0; i < pd->nplans; i++) {
		const struct e2fold_rename_plan *p = &pd->plans[i];
		const struct e2fold_dirent *e = &dir->ents[p->index];

		tune_report_begin(ctx, &o, "change", "rename", dir->ino, e->ino);
		e2fold_json_name(&o, "old_name", e->name, e->name_len);
		e2fold_json_name(&o, "new_name", p->name, p->len);
		tune_report_add_change(ctx, &o);
	}
	tune_report_begin(ctx, &o, "change", cv->casefold ? "casefold_dir" :
			  "uncasefold_dir", dir->ino, 0);
	e2fold_json_number(&o, "entries", dir->nents);
	e2fold_json_bool(&o, "rewritten", dir->nents != 0);
	tune_report_add_change(ctx, &o);
}

static errcode_t convert_dir(struct tune_ctx *ctx, const struct conversion *cv,
			     struct planned_dir *pd)
{
	__u32 set = cv->casefold ? EXT4_CASEFOLD_FL : 0;
	__u32 clear = cv->casefold ? 0 : EXT4_CASEFOLD_FL;
	struct ext2_inode inode;
	errcode_t retval;

	/*
	 * The entries' hashes change with the flag: the directory is
	 * rebuilt, and the flag changes in the inode write that switches it
	 * to its new blocks, so that no kill leaves one without the other.
	 */
	if (pd->dir->nents)
		return tune_rewrite_dir(ctx, pd->dir, cv->um, pd->plans,
					pd->nplans, set, clear);
	retval = ext2fs_read_inode(ctx->fs, pd->dir->ino, &inode);
	if (retval)
		return retval;
	inode.i_flags = (inode.i_flags | set) & ~clear;
	retval = ext2fs_write_inode(ctx->fs, pd->dir->ino, &inode);
	ctx->wrote = 1;
	return retval;
}

/*
 * What one directory's transaction holds at most: its rewritten blocks
 * (tune_rewrite_blocks's bound), and what libext2fs flushes with them:
 * every group's two bitmaps, the group descriptors, the superblock, the
 * inode table block, and a margin.
 */
static blk64_t transaction_bound(const struct tune_ctx *ctx,
				 const struct planned_dir *pd)
{
	ext2_filsys fs = ctx->fs;

	return tune_rewrite_blocks(fs, pd->dir, pd->plans, pd->nplans) +
	       2 * (blk64_t)fs->group_desc_count + fs->desc_blocks + 16;
}

/*
 * On a journaled filesystem (txnio.h) a directory's conversion is one
 * transaction: its new blocks, the inode that switches to them, the
 * bitmaps and the superblock, committed together. A directory whose
 * transaction might not fit in the journal is converted with the
 * journal suspended, by the ordered writes of the rewrite alone, and
 * said so.
 */
static errcode_t convert_dir_atomically(struct tune_ctx *ctx,
					const struct conversion *cv,
					struct planned_dir *pd)
{
	blk64_t need;
	size_t room;
	errcode_t retval;

	if (!e2fold_txn_active(ctx->fs))
		return convert_dir(ctx, cv, pd);
	need = transaction_bound(ctx, pd);
	room = e2fold_txn_room(ctx->fs);
	if (need > room) {
		char *path = tune_path(ctx->fs, pd->dir->ino);

		printf("  %s: up to %llu blocks, more than the journal's %zu: "
		       "converted without it\n", path ? path : "?",
		       (unsigned long long)need, room);
		free(path);
		retval = e2fold_txn_suspend(ctx->fs);
		if (!retval)
			retval = convert_dir(ctx, cv, pd);
		e2fold_txn_resume(ctx->fs);
		return retval;
	}
	retval = convert_dir(ctx, cv, pd);
	if (!retval)
		retval = e2fold_txn_commit(ctx->fs);
	return retval;
}

static int apply(struct tune_ctx *ctx, const struct conversion *cv)
{
	errcode_t retval = 0;
	size_t i;

	if (tune_begin_writes(ctx))
		return TUNE_ERROR;
	for (i = 0; i < cv->n; i++) {
		struct planned_dir *pd = &cv->dirs[i];

		e2fold_progress_update(&ctx->progress, 3, i, cv->n);
		retval = 0;
		if (pd->skip)
			continue;
		if (ctx->opt.dry_run) {
			if (!cv->casefold && ctx->uncasefolded)
				ext2fs_mark_inode_bitmap2(ctx->uncasefolded,
							  pd->dir->ino);
		} else {
			retval = convert_dir_atomically(ctx, cv, pd);
		}
		if (retval) {
			char *path = tune_path(ctx->fs, pd->dir->ino);

			e2fold_progress_break(&ctx->progress);
			com_err("e2fold-tune", retval, "while converting %s "
				"(inode %u): the conversion stopped part way "
				"(e2undo with the -z undo file restores the "
				"filesystem; without one, run e2fold-fsck -f)",
				path ? path : "?", pd->dir->ino);
			free(path);
			return TUNE_ERROR;
		}
		record_dir(ctx, cv, pd);
	}
	e2fold_progress_update(&ctx->progress, 3, cv->n, cv->n);
	e2fold_progress_end(&ctx->progress);
	return TUNE_OK;
}

static void free_conversion(struct conversion *cv)
{
	size_t i;

	for (i = 0; i < cv->n; i++) {
		e2fold_dir_free(cv->dirs[i].dir);
		free(cv->dirs[i].plans);
	}
	free(cv->dirs);
	cv->dirs = NULL;
	cv->n = cv->cap = 0;
}

static int convert_path(struct tune_ctx *ctx, const char *path, int casefold)
{
	struct ext2_super_block *sb = ctx->fs->super;
	__u16 flags = ctx->opt.set_flags ? ctx->opt.flags : sb->s_encoding_flags;
	struct conversion cv = {
		.casefold = casefold,
		.um = casefold ? ctx->um : NULL,
		.strict = casefold && (flags & E2FOLD_ENC_STRICT_FL),
	};
	size_t todo;
	ext2_ino_t ino;
	errcode_t retval;
	int status;

	retval = ext2fs_namei(ctx->fs, EXT2_ROOT_INO, EXT2_ROOT_INO, path, &ino);
	if (!retval)
		retval = collect(ctx, ino, &cv);
	if (retval) {
		com_err("e2fold-tune", retval, "while reading %s", path);
		free_conversion(&cv);
		return TUNE_ERROR;
	}
	todo = cv.n - cv.nskip;
	e2fold_progress_break(&ctx->progress);
	printf("%s %s: %zu director%s to convert", casefold ? "Casefolding" :
	       "Uncasefolding", path, todo, todo == 1 ? "y" : "ies");
	if (cv.nskip)
		printf(", %zu already %s", cv.nskip, casefold ? "casefolded" :
		       "not casefolded");
	printf(".\n");
	status = plan(ctx, &cv);
	if (status == TUNE_OK)
		status = apply(ctx, &cv);
	free_conversion(&cv);
	return status;
}

int tune_convert(struct tune_ctx *ctx)
{
	int status = TUNE_OK;
	size_t i;

	if (ctx->opt.n_to_casefold && !ctx->um) {
		fprintf(stderr, "e2fold-tune: --casefold needs the casefold "
			"feature (add -O casefold)\n");
		return TUNE_ERROR;
	}
	if (ctx->opt.dry_run && ctx->opt.n_to_plain && !ctx->uncasefolded &&
	    ext2fs_allocate_inode_bitmap(ctx->fs, "uncasefolded",
					 &ctx->uncasefolded)) {
		fprintf(stderr, "e2fold-tune: out of memory\n");
		return TUNE_ERROR;
	}
	for (i = 0; i < ctx->opt.n_to_casefold && status == TUNE_OK; i++)
		status = convert_path(ctx, ctx->opt.to_casefold[i], 1);
	for (i = 0; i < ctx->opt.n_to_plain && status == TUNE_OK; i++)
		status = convert_path(ctx, ctx->opt.to_plain[i], 0);
	return status;
}
