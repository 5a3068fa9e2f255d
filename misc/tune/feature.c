/*
 * feature.c: the casefold feature itself. Enabling it sets the only
 * encoding ext4 defines (utf8-12.1) and no encoding flags, as tune2fs
 * does. Disabling it is refused while any inode carries the casefold
 * flag: Linux reports such an inode as corrupt ("casefold flag without
 * casefold feature"), whatever its type, and newer kernels refuse to
 * load it at all.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <et/com_err.h>

#include "encoding.h"
#include "json.h"
#include "tune.h"

static void record(struct tune_ctx *ctx, const char *what, int old_value,
		   int new_value)
{
	struct e2fold_json o;

	tune_report_begin(ctx, &o, "change", what, 0, 0);
	e2fold_json_number(&o, "old_value", old_value);
	e2fold_json_number(&o, "new_value", new_value);
	tune_report_add_change(ctx, &o);
}

/* A dry run that uncasefolded ino would have cleared its flag. */
static int flag_stays(struct tune_ctx *ctx, ext2_ino_t ino)
{
	return !ctx->uncasefolded ||
	       !ext2fs_test_inode_bitmap2(ctx->uncasefolded, ino);
}

/* Inodes named on the terminal; the report lists every one. */
#define LIST_FLAGGED 10

/*
 * List the inodes that carry the casefold flag, after why (the first
 * LIST_FLAGGED, then how many more); returns how many, or -1 if the
 * inode table cannot be read.
 */
static long list_flagged(struct tune_ctx *ctx, const char *why)
{
	ext2_ino_t *inos;
	size_t n, i, listed = 0;
	errcode_t retval;

	retval = tune_flagged_inodes(ctx->fs, 0, &inos, &n);
	if (retval) {
		com_err("e2fold-tune", retval, "while scanning the inode table");
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct ext2_inode inode;
		struct e2fold_json o;
		char *path;
		int dir;

		if (!flag_stays(ctx, inos[i]))
			continue;
		if (!listed++)
			printf("%s:\n", why);
		dir = !ext2fs_read_inode(ctx->fs, inos[i], &inode) &&
		      LINUX_S_ISDIR(inode.i_mode);
		path = dir ? tune_path(ctx->fs, inos[i]) : NULL;
		if (listed <= LIST_FLAGGED && path)
			printf("  %s (inode %u)\n", path, inos[i]);
		else if (listed <= LIST_FLAGGED)
			printf("  inode %u (not a directory)\n", inos[i]);
		free(path);
		tune_report_begin(ctx, &o, "finding", "casefold_flag",
				  dir ? inos[i] : 0, dir ? 0 : inos[i]);
		tune_report_add_finding(ctx, &o);
	}
	free(inos);
	if (listed > LIST_FLAGGED)
		printf("  and %zu more (--report lists them all)\n",
		       listed - LIST_FLAGGED);
	return (long)listed;
}

static int enable(struct tune_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	long flagged;

	if (ext2fs_has_feature_casefold(sb)) {
		if (!e2fold_encoding_by_magic(sb->s_encoding)) {
			fprintf(stderr, "e2fold-tune: the superblock names "
				"encoding %u, which ext4 does not define: run "
				"e2fold-fsck first\n", sb->s_encoding);
			return TUNE_ERROR;
		}
		printf("Casefold is already enabled (encoding utf8-12.1).\n");
		return TUNE_OK;
	}
	flagged = list_flagged(ctx, "Inodes carry the casefold flag although "
			       "the feature is off (run e2fold-fsck first)");
	if (flagged)
		return flagged < 0 ? TUNE_ERROR : TUNE_REFUSED;
	printf("%s casefold (encoding utf8-12.1).\n",
	       ctx->opt.dry_run ? "Would enable" : "Enabling");
	record(ctx, "enable_casefold", 0, E2FOLD_ENC_UTF8_12_1);
	if (ctx->opt.dry_run)
		return TUNE_OK;
	ext2fs_set_feature_casefold(sb);
	sb->s_encoding = E2FOLD_ENC_UTF8_12_1;
	sb->s_encoding_flags = 0;
	ctx->changed = 1;
	return TUNE_OK;
}

static int disable(struct tune_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	long flagged;

	if (!ext2fs_has_feature_casefold(sb)) {
		printf("Casefold is already disabled.\n");
		return TUNE_OK;
	}
	flagged = list_flagged(ctx, "Casefold stays enabled: these inodes "
			       "carry the casefold flag (convert the "
			       "directories back with --no-casefold first)");
	if (flagged)
		return flagged < 0 ? TUNE_ERROR : TUNE_REFUSED;
	printf("%s casefold.\n", ctx->opt.dry_run ? "Would disable" :
	       "Disabling");
	record(ctx, "disable_casefold", sb->s_encoding, 0);
	if (ctx->opt.dry_run)
		return TUNE_OK;
	ext2fs_clear_feature_casefold(sb);
	sb->s_encoding = 0;
	sb->s_encoding_flags = 0;
	ctx->changed = 1;
	return TUNE_OK;
}

/* The engine for the encoding the filesystem has (or will have). */
static int load_encoding(struct tune_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	const struct e2fold_encoding *enc;

	if (ext2fs_has_feature_casefold(sb))
		enc = e2fold_encoding_by_magic(sb->s_encoding);
	else if (ctx->opt.dry_run && ctx->opt.enable_casefold)
		enc = e2fold_encoding_by_magic(E2FOLD_ENC_UTF8_12_1);
	else
		return TUNE_OK;
	if (!enc) {
		fprintf(stderr, "e2fold-tune: the superblock names encoding "
			"%u, which ext4 does not define: run e2fold-fsck "
			"first\n", sb->s_encoding);
		return TUNE_ERROR;
	}
	ctx->um = e2fold_load_encoding(enc);
	if (!ctx->um) {
		fprintf(stderr, "e2fold-tune: cannot load encoding %s\n",
			enc->name);
		return TUNE_ERROR;
	}
	return TUNE_OK;
}

int tune_feature(struct tune_ctx *ctx)
{
	int status = TUNE_OK;

	if (ctx->opt.enable_casefold)
		status = enable(ctx);
	/* With --no-casefold, the feature goes after the directories. */
	if (status == TUNE_OK && ctx->opt.disable_casefold &&
	    !ctx->opt.n_to_plain)
		status = disable(ctx);
	if (status == TUNE_OK)
		status = load_encoding(ctx);
	return status;
}

int tune_disable_after_convert(struct tune_ctx *ctx)
{
	if (ctx->opt.disable_casefold && ctx->opt.n_to_plain)
		return disable(ctx);
	return TUNE_OK;
}
