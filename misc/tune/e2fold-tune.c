/* e2fold-tune.c: e2fold-tune's flow (see tune.h for the steps and exit codes). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <et/com_err.h>

#include "encoding.h"
#include "openfs.h"
#include "tune.h"
#include "version.h"

static const char *prog = "e2fold-tune";

/*
 * Mounted filesystems are refused before they are opened, even for a dry
 * run: the kernel's cached metadata would make any proof worthless
 * (e2fold-utf8 scan checks the names of a mounted tree).
 */
static int check_unmounted(const char *device)
{
	int mount_flags = 0;
	errcode_t retval;

	retval = ext2fs_check_if_mounted(device, &mount_flags);
	if (retval == ENOENT || (!retval && !(mount_flags & EXT2_MF_MOUNTED)))
		return TUNE_OK;	/* a missing device is the open's to say */
	if (retval) {
		com_err(prog, retval, "while checking whether %s is mounted",
			device);
		return TUNE_ERROR;
	}
	fprintf(stderr, "%s: %s is mounted; unmount it first\n", prog, device);
	return TUNE_ERROR;
}

static errcode_t open_fs(struct tune_ctx *ctx)
{
	int flags = EXT2_FLAG_EXCLUSIVE;
	errcode_t retval;

	if (!ctx->opt.dry_run)
		flags |= EXT2_FLAG_RW;
	if (ctx->opt.dry_run || ctx->opt.undo_file) {
		/* The undo manager and the journal layer do not stack. */
		retval = e2fold_open_fs(ctx->opt.device, flags,
					ctx->opt.undo_file, &ctx->fs);
	} else {
		/* Each directory's conversion one transaction (convert.c). */
		errcode_t unjournaled;

		retval = e2fold_open_fs_journaled(ctx->opt.device, flags,
						  &ctx->fs, &unjournaled);
		/* A journal to recover: opened as before, for the refusal. */
		if (retval == EXT2_ET_JOURNAL_FLAGS_WRONG)
			retval = e2fold_open_fs(ctx->opt.device, flags, NULL,
						&ctx->fs);
		else if (!retval && unjournaled &&
			 unjournaled != EXT2_ET_NO_JOURNAL)
			fprintf(stderr, "%s: %s: writing without the journal: "
				"%s\n", prog, ctx->opt.device,
				error_message(unjournaled));
	}
	if (retval)
		return retval;
	/*
	 * Without orig_super libext2fs writes the primary superblock whole,
	 * in one write, instead of one write per changed field: a kill
	 * between two of those leaves a superblock whose checksum fails
	 * (e2fold-tune never writes a mounted filesystem, whose kernel's
	 * own updates the field writes are there to keep).
	 */
	ext2fs_free_mem(&ctx->fs->orig_super);
	return ext2fs_read_bitmaps(ctx->fs);
}

static void explain_open_error(struct tune_ctx *ctx, errcode_t retval)
{
	com_err(prog, retval, "while opening %s", ctx->opt.device);
	if (retval == EXT2_ET_BAD_MAGIC || retval == EXT2_ET_SB_CSUM_INVALID ||
	    retval == EXT2_ET_CORRUPT_SUPERBLOCK)
		fprintf(stderr, "%s: %s does not hold a healthy ext2/3/4 "
			"filesystem\n", prog, ctx->opt.device);
	else if (!ctx->opt.dry_run && (retval == EACCES || retval == EROFS ||
				       retval == EPERM))
		fprintf(stderr, "%s: %s cannot be written (-n only "
			"reads)\n", prog, ctx->opt.device);
}

/* What the steps change; whether any is asked for. */
static int rewrites_directories(const struct tune_options *opt)
{
	return opt->n_to_casefold || opt->n_to_plain || opt->rebuild;
}

/*
 * Nothing is written to a filesystem larger than its device (truncated).
 * Directories are rewritten only on a filesystem that is consistent:
 * one with recorded errors, unfinished journal recovery, or mounted since
 * it was last checked must go through e2fsck first (as resize2fs asks).
 */
static int check_consistent(struct tune_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;

	if (e2fold_fs_truncated(prog, ctx->fs, ctx->opt.device) ||
	    e2fold_fs_geometry_bad(prog, ctx->fs, ctx->opt.device))
		return TUNE_ERROR;
	if (ext2fs_has_feature_journal_needs_recovery(sb)) {
		fprintf(stderr, "%s: %s: the journal needs recovery; run "
			"e2fsck first\n", prog, ctx->opt.device);
		return TUNE_ERROR;
	}
	if (!rewrites_directories(&ctx->opt) || ctx->opt.dry_run)
		return TUNE_OK;
	if (!(sb->s_state & EXT2_VALID_FS) || (sb->s_state & EXT2_ERROR_FS) ||
	    sb->s_lastcheck < sb->s_mtime) {
		fprintf(stderr, "%s: %s must be checked before its directories "
			"are rewritten; run e2fsck -f (or e2fold-fsck -f) "
			"first\n", prog, ctx->opt.device);
		return TUNE_ERROR;
	}
	return TUNE_OK;
}

static int run_steps(struct tune_ctx *ctx)
{
	int status = check_consistent(ctx);

	if (status == TUNE_OK)
		status = tune_feature(ctx);
	if (status == TUNE_OK)
		status = tune_convert(ctx);
	if (status == TUNE_OK)
		status = tune_disable_after_convert(ctx);
	if (status == TUNE_OK)
		status = tune_flags(ctx);
	return status;
}

static void cleanup(struct tune_ctx *ctx)
{
	tune_report_free(ctx->report);
	if (ctx->uncasefolded)
		ext2fs_free_inode_bitmap(ctx->uncasefolded);
	free(ctx->opt.to_casefold);
	free(ctx->opt.to_plain);
	utf8_unload(ctx->um);
}

/*
 * The run stopped before its steps: the report (--report) still says why,
 * so that a script finds one.
 */
static int stop_early(struct tune_ctx *ctx, int status, const char *error)
{
	int err;

	if (ctx->report) {
		tune_report_error(ctx, error);
		err = tune_report_write(ctx, status);
		if (err)
			fprintf(stderr, "%s: %s: %s\n", prog,
				ctx->opt.report_file, strerror(err));
	}
	cleanup(ctx);
	return status;
}

int main(int argc, char **argv)
{
	struct tune_ctx ctx;
	errcode_t retval;
	int status;

	memset(&ctx, 0, sizeof(ctx));
	/* Messages to stdout and errors to stderr stay in order in a log. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	add_error_table(&et_ext2_error_table);
	tune_parse_options(argc, argv, &ctx.opt);
	e2fold_progress_init(&ctx.progress, ctx.opt.progress_fd,
			     ctx.opt.device);
	if (ctx.opt.report_file && !(ctx.report = tune_report_new())) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return TUNE_ERROR;
	}
	status = check_unmounted(ctx.opt.device);
	if (status != TUNE_OK)
		return stop_early(&ctx, status, "the device is mounted, or "
				  "cannot be checked");
	retval = open_fs(&ctx);
	if (retval) {
		char error[256];

		explain_open_error(&ctx, retval);
		if (ctx.fs)
			ext2fs_free(ctx.fs);
		snprintf(error, sizeof(error), "opening the device: %s",
			 error_message(retval));
		return stop_early(&ctx, TUNE_ERROR, error);
	}
	status = run_steps(&ctx);
	/* Done writing directories (tune_begin_writes): checked again. */
	if (ctx.writing && status != TUNE_ERROR) {
		ctx.fs->super->s_state |= EXT2_VALID_FS;
		ext2fs_mark_super_dirty(ctx.fs);
	}
	if (ctx.changed && (status == TUNE_OK || ctx.wrote)) {
		/*
		 * Features and encoding fields belong in every superblock
		 * copy (libext2fs writes only the primary unless told), so
		 * that e2fsck -b finds the same filesystem.
		 */
		ctx.fs->flags &= ~EXT2_FLAG_MASTER_SB_ONLY;
		ext2fs_mark_super_dirty(ctx.fs);
	}
	if (status != TUNE_OK && !ctx.wrote) {
		printf("Nothing was written.\n");
		tune_report_drop_changes(&ctx);
	}
	retval = ext2fs_close_free(&ctx.fs);
	if (retval) {
		com_err(prog, retval, "while writing %s", ctx.opt.device);
		status = TUNE_ERROR;
	}
	if (ctx.report) {
		retval = tune_report_write(&ctx, status);
		if (retval) {
			fprintf(stderr, "%s: %s: %s\n", prog,
				ctx.opt.report_file, strerror(retval));
			status = TUNE_ERROR;
		}
	}
	if (ctx.opt.dry_run && status == TUNE_OK)
		printf("Dry run: nothing was written.\n");
	cleanup(&ctx);
	return status;
}
