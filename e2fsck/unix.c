/*
 * unix.c: e2fold-fsck's command line, opening the filesystem, running the
 * passes, and the exit code (e2fsck's conventions).
 *
 *   e2fold-fsck [-n|-y|-p] [-f] [-v] [-C fd] [-E check_encoding]
 *               [-z undo_file] [--report FILE.json] DEVICE|FILE
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <et/com_err.h>

#include "e2fsck.h"
#include "faultio.h"
#include "report.h"
#include "version.h"

static const char *prog = "e2fold-fsck";

static void usage(void)
{
	fprintf(stderr,
		"Usage: %s [-n|-y|-p] [-f] [-v] [-C fd] [-E check_encoding]\n"
		"\t\t[-z undo_file] [--report FILE.json] device\n\n"
		"  -n   check read-only, answer no to every question\n"
		"  -y   answer yes to every question\n"
		"  -p   repair what is safe without asking (preen)\n"
		"  -f   check even if the filesystem seems clean\n"
		"  -v   verbose\n"
		"  -C fd               progress on file descriptor fd (0: stdout)\n"
		"  -E check_encoding   check names are valid UTF-8 even when the\n"
		"                      filesystem is not strict\n"
		"  -z undo_file        save the original of every block written\n"
		"  --report FILE.json  every finding and change, as JSON\n",
		prog);
	exit(FSCK_USAGE);
}

static void parse_extended(struct fsck_options *opt, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		exit(FSCK_ERROR);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "check_encoding")) {
			opt->check_encoding = 1;
		} else {
			fprintf(stderr, "%s: unknown extended option '%s'\n",
				prog, tok);
			exit(FSCK_USAGE);
		}
	}
	free(copy);
}

static void set_mode(struct fsck_options *opt, enum fsck_mode mode)
{
	if (opt->mode != MODE_ASK && opt->mode != mode) {
		fprintf(stderr, "%s: only one of -n, -y and -p may be given\n",
			prog);
		exit(FSCK_USAGE);
	}
	opt->mode = mode;
}

static void parse_options(int argc, char **argv, struct fsck_options *opt)
{
	static const struct option longopts[] = {
		{ "report", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opt, 0, sizeof(*opt));
	opt->progress_fd = -1;
	while ((c = getopt_long(argc, argv, "nypafvVC:E:z:", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'n':
			set_mode(opt, MODE_NO);
			break;
		case 'y':
			set_mode(opt, MODE_YES);
			break;
		case 'p':
		case 'a':
			set_mode(opt, MODE_PREEN);
			break;
		case 'f':
			opt->force = 1;
			break;
		case 'v':
			opt->verbose = 1;
			break;
		case 'V':
			printf("%s\n", e2fold_version_banner(prog));
			exit(FSCK_OK);
		case 'C': {
			char *end;
			long fd = strtol(optarg, &end, 10);

			if (*end || fd < 0) {
				fprintf(stderr, "%s: -C %s: not a file descriptor\n",
					prog, optarg);
				exit(FSCK_USAGE);
			}
			opt->progress_fd = fd;
			break;
		}
		case 'E':
			parse_extended(opt, optarg);
			break;
		case 'z':
			opt->undo_file = optarg;
			break;
		case 'R':
			opt->report_file = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	opt->device = argv[optind];
}

/* Open the filesystem (through the undo manager with -z). */
static errcode_t open_fs(struct fsck_ctx *ctx)
{
	int flags = EXT2_FLAG_64BITS | EXT2_FLAG_IGNORE_CSUM_ERRORS |
		    EXT2_FLAG_SKIP_MMP;
	errcode_t retval;

	/* unix I/O, or the fault injector the tests ask for (faultio.h). */
	ctx->io = e2fold_default_io_manager();
	if (fsck_may_write(ctx))
		flags |= EXT2_FLAG_RW | EXT2_FLAG_EXCLUSIVE;
	if (ctx->opt.undo_file && fsck_may_write(ctx)) {
		retval = set_undo_io_backing_manager(ctx->io);
		if (!retval)
			retval = set_undo_io_backup_file((char *)ctx->opt.undo_file);
		if (retval)
			return retval;
		ctx->io = undo_io_manager;
	}
	return ext2fs_open2(ctx->opt.device, NULL, flags, 0, 0, ctx->io,
			    &ctx->fs);
}

/* Refuse what e2fsck would refuse before writing. */
static int preflight(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	int mount_flags = 0;
	errcode_t retval;

	retval = ext2fs_check_if_mounted(ctx->opt.device, &mount_flags);
	if (!retval && (mount_flags & EXT2_MF_MOUNTED) && fsck_may_write(ctx)) {
		fprintf(stderr, "%s: %s is mounted; repairing a mounted "
			"filesystem would damage it\n", prog, ctx->opt.device);
		return FSCK_ERROR;
	}
	if (ext2fs_has_feature_journal_needs_recovery(fs->super)) {
		if (fsck_may_write(ctx)) {
			fprintf(stderr, "%s: %s: the journal needs recovery; "
				"run e2fsck first\n", prog, ctx->opt.device);
			return FSCK_ERROR;
		}
		printf("Warning: the journal needs recovery; checking the "
		       "filesystem as it is without it.\n");
	}
	if (ctx->opt.undo_file && !fsck_may_write(ctx))
		printf("Warning: -z is ignored with -n, which writes nothing.\n");
	return 0;
}

/* Without -f a filesystem marked clean is not checked, as in e2fsck. */
static int looks_clean(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;

	return !ctx->opt.force && (sb->s_state & EXT2_VALID_FS) &&
	       !(sb->s_state & EXT2_ERROR_FS);
}

static errcode_t run_passes(struct fsck_ctx *ctx)
{
	errcode_t retval;

	retval = fsck_scan(ctx);
	if (retval)
		return retval;
	printf("Pass 0: Checking the superblock's encoding\n");
	retval = fsck_pass0(ctx);
	if (retval || ctx->aborted)
		return retval;
	printf("Pass 1: Checking casefold inode flags\n");
	retval = fsck_pass1(ctx);
	if (retval || ctx->aborted)
		return retval;
	printf("Pass 2: Checking names in casefolded directories\n");
	retval = fsck_pass2(ctx);
	if (retval || ctx->aborted)
		return retval;
	if (ctx->n_rebuild_plain) {
		printf("Pass 3: Rehashing directories that lost the casefold flag\n");
		retval = fsck_rebuild_plain(ctx);
	}
	return retval;
}

static int exit_status(const struct fsck_ctx *ctx)
{
	int status = FSCK_OK;

	if (ctx->aborted)
		return FSCK_ERROR | (ctx->changed ? FSCK_NONDESTRUCT : 0);
	if (ctx->changed)
		status |= FSCK_NONDESTRUCT;
	if (ctx->errors_left)
		status |= FSCK_UNCORRECTED;
	return status;
}

static void summary(const struct fsck_ctx *ctx)
{
	const char *dev = ctx->opt.device;

	if (ctx->changed)
		printf("\n%s: ***** FILE SYSTEM WAS MODIFIED *****\n", dev);
	if (ctx->errors_left && !ctx->aborted)
		printf("\n%s: ********** WARNING: Filesystem still has "
		       "casefold errors **********\n", dev);
	printf("%s: %lu casefolded directories, %lu entries checked",
	       dev, ctx->dirs_checked, ctx->entries_checked);
	if (ctx->renamed || ctx->rebuilt)
		printf("; %lu renamed, %lu directories rebuilt", ctx->renamed,
		       ctx->rebuilt);
	printf("\n");
}

int main(int argc, char **argv)
{
	struct fsck_ctx ctx;
	errcode_t retval;
	int status;

	memset(&ctx, 0, sizeof(ctx));
	ctx.prog = prog;
	add_error_table(&et_ext2_error_table);
	parse_options(argc, argv, &ctx.opt);
	if (ctx.opt.mode == MODE_ASK && !isatty(0)) {
		fprintf(stderr, "%s: need a terminal to ask questions; use -n, "
			"-y or -p\n", prog);
		return FSCK_USAGE;
	}
	if (ctx.opt.report_file)
		ctx.report = report_new();
	printf("%s\n", e2fold_version_banner(prog));

	retval = open_fs(&ctx);
	if (retval) {
		com_err(prog, retval, "while opening %s", ctx.opt.device);
		return FSCK_ERROR;
	}
	status = preflight(&ctx);
	if (status) {
		ext2fs_close_free(&ctx.fs);
		return status;
	}
	if (looks_clean(&ctx)) {
		printf("%s: clean, %u/%u files, %llu/%llu blocks\n",
		       ctx.opt.device,
		       ctx.fs->super->s_inodes_count - ctx.fs->super->s_free_inodes_count,
		       ctx.fs->super->s_inodes_count,
		       (unsigned long long)(ext2fs_blocks_count(ctx.fs->super) -
			ext2fs_free_blocks_count(ctx.fs->super)),
		       (unsigned long long)ext2fs_blocks_count(ctx.fs->super));
		ext2fs_close_free(&ctx.fs);
		return FSCK_OK;
	}

	retval = run_passes(&ctx);
	if (retval) {
		com_err(prog, retval, "while checking %s", ctx.opt.device);
		ctx.aborted = 1;
	}
	if (ctx.aborted && ctx.changed)
		printf("%s: the check stopped after changes; restore with the "
		       "undo file if -z was given, or run %s again\n",
		       ctx.opt.device, prog);
	if (ctx.changed)
		ext2fs_mark_super_dirty(ctx.fs);
	retval = ext2fs_close_free(&ctx.fs);
	if (retval) {
		com_err(prog, retval, "while writing %s", ctx.opt.device);
		ctx.aborted = 1;
	}
	summary(&ctx);
	status = exit_status(&ctx);
	if (ctx.opt.report_file) {
		int err;

		ctx.fs = NULL;
		err = report_write(ctx.report, &ctx, ctx.opt.report_file,
				   status);
		if (err) {
			fprintf(stderr, "%s: writing %s: %s\n", prog,
				ctx.opt.report_file, strerror(err));
			status |= FSCK_ERROR;
		}
	}
	report_free(ctx.report);
	utf8_unload(ctx.um);
	return status;
}
