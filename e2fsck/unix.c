/*
 * unix.c: e2fold-fsck's command line, opening the filesystem, running the
 * passes, and the exit code (e2fsck's conventions).
 *
 *   e2fold-fsck [-n|-y|-p] [-fvtcdkrDF] [-C fd] [-E extended-options]
 *               [-b superblock] [-B blocksize] [-z undo_file]
 *               [-l|-L file] [-j journal] [-I blocks] [-P size]
 *               [--report FILE.json] [--e2fsck PATH|--no-e2fsck] DEVICE|FILE
 *   e2fold-fsck -V|--version|--help
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <et/com_err.h>

#include "e2fsck.h"
#include "overlay.h"
#include "htree.h"
#include "encoding.h"
#include "external.h"
#include "openfs.h"
#include "plural.h"
#include "misread.h"
#include "syncio.h"
#include "problem.h"
#include "fsck_report.h"
#include "version.h"

static const char *prog = "e2fold-fsck";

/* The usage text: on stdout for --help (exit 0), else on stderr (16). */
static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"Usage: %s [-n|-y|-p] [-fvtcdkrDF] [-C fd] [-E extended-options]\n"
		"\t\t[-b superblock] [-B blocksize] [-z undo_file]\n"
		"\t\t[-l|-L bad_blocks_file] [-j external_journal]\n"
		"\t\t[-I inode_buffer_blocks] [-P process_inode_size]\n"
		"\t\t[--report FILE.json] [--e2fsck PATH|--no-e2fsck] device\n\n"
		"  -n   check read-only, answer no to every question\n"
		"  -y   answer yes to every question\n"
		"  -p   repair what is safe without asking (preen)\n"
		"  -f   check even if the filesystem seems clean\n"
		"  -b superblock       use this backup superblock (e2fsck too)\n"
		"  -B blocksize        its block size (default: each is tried)\n"
		"  -v   verbose\n"
		"  -C fd               progress on file descriptor fd (0: stdout)\n"
		"  -E check_encoding   check names are valid UTF-8 even when the\n"
		"                      filesystem is not strict\n"
		"  -E verify           after a repair, run e2fsck -fn on the whole\n"
		"                      filesystem too\n"
		"  -z undo_file        save the original of every block written\n"
		"  -c -k -t -d -D -F -l -L -j -I -P, and -E keys of e2fsck's own\n"
		"  (journal_only, discard, readahead_kb=, fragcheck, ...): as\n"
		"                      e2fsck takes them, handed to it; -r does\n"
		"                      nothing, as in e2fsck\n"
		"  --report FILE.json  every finding and change, as JSON\n"
		"  --e2fsck PATH       the e2fsck that checks the rest (default:\n"
		"                      e2fsck on PATH or in /sbin)\n"
		"  --no-e2fsck         check names and hash trees only\n"
		"  -V, --version       print the version and exit\n"
		"  -h, --help          print this help and exit\n",
		prog);
	exit(status);
}

/* e2fsck 1.47's -E keys that e2fold hands over as they are. */
static const char *const e2fsck_keys[] = {
	"ea_ver", "readahead_kb", "fragcheck", "journal_only", "discard",
	"nodiscard", "optimize_extents", "no_optimize_extents",
	"inode_count_fullmap", "no_inode_count_fullmap", "log_filename",
	"bmap2extent", "fixes_only", "unshare_blocks", "clear_all_uninit_bits",
};

static int is_e2fsck_key(const char *tok)
{
	size_t len = strcspn(tok, "="), i;

	for (i = 0; i < sizeof(e2fsck_keys) / sizeof(e2fsck_keys[0]); i++)
		if (strlen(e2fsck_keys[i]) == len &&
		    !strncmp(e2fsck_keys[i], tok, len))
			return 1;
	return 0;
}

static void pass_extended(struct fsck_options *opt, const char *tok)
{
	size_t used = strlen(opt->e2fsck_extended);

	if (used + strlen(tok) + 2 > sizeof(opt->e2fsck_extended)) {
		fprintf(stderr, "%s: -E %s: too many extended options\n", prog,
			tok);
		exit(FSCK_USAGE);
	}
	sprintf(opt->e2fsck_extended + used, "%s%s", used ? "," : "", tok);
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
		} else if (!strcmp(tok, "verify")) {
			opt->verify = 1;
		} else if (!strncmp(tok, "problem_log", 11)) {
			fprintf(stderr, "%s: -E problem_log: e2fold gives e2fsck "
				"a problem log of its own (--report FILE.json "
				"has every finding of both)\n", prog);
			exit(FSCK_USAGE);
		} else if (is_e2fsck_key(tok)) {
			if (!strcmp(tok, "journal_only"))
				opt->journal_only = 1;
			pass_extended(opt, tok);
		} else {
			fprintf(stderr, "%s: unknown extended option '%s'\n",
				prog, tok);
			exit(FSCK_USAGE);
		}
	}
	free(copy);
}

/* One of e2fsck's own options, with its argument (or NULL). */
static void pass_option(struct fsck_options *opt, const char *flag,
			const char *arg)
{
	if (opt->n_e2fsck_args + 2 > FSCK_MAX_E2FSCK_ARGS) {
		fprintf(stderr, "%s: too many options for e2fsck\n", prog);
		exit(FSCK_USAGE);
	}
	opt->e2fsck_args[opt->n_e2fsck_args++] = flag;
	if (arg)
		opt->e2fsck_args[opt->n_e2fsck_args++] = arg;
}

/* A decimal number of at least min, for option opt; usage error else. */
static unsigned long long parse_number(const char *arg, const char *opt,
				       unsigned long long min)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || n < min || arg[0] == '-') {
		fprintf(stderr, "%s: %s %s: not a valid number\n", prog, opt,
			arg);
		exit(FSCK_USAGE);
	}
	return n;
}

/*
 * After the options: what e2fsck refuses together, refused here with its
 * words and its exit status, before anything is opened.
 */
static void check_combinations(struct fsck_options *opt)
{
	const char *with = NULL;

	if (opt->mode == MODE_NO) {
		for (int i = 0; i < opt->n_e2fsck_args && !with; i++)
			if (!strcmp(opt->e2fsck_args[i], "-c"))
				with = "-c";
		if (opt->optimize_dirs)
			with = "-D";
		if (opt->badblocks_list)
			with = "-l/-L";
	}
	if (with) {
		fprintf(stderr, "%s: the -n and %s options are incompatible\n",
			prog, with);
		exit(FSCK_ERROR);
	}
	if (opt->e2fsck_extended[0])
		pass_option(opt, "-E", opt->e2fsck_extended);
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
		{ "e2fsck", required_argument, NULL, 'X' },
		{ "no-e2fsck", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opt, 0, sizeof(*opt));
	opt->progress_fd = -1;
	while ((c = getopt_long(argc, argv, "nypafvVhrcktdFDb:B:C:E:z:l:L:j:I:P:", longopts,
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

			if (*end || end == optarg) {
				fprintf(stderr, "%s: -C %s: not a file descriptor\n",
					prog, optarg);
				exit(FSCK_USAGE);
			}
			/*
			 * fsck(8) running several checks at once gives all but
			 * one -C-FD: no progress until asked, as in e2fsck.
			 */
			opt->progress_fd = fd < 0 ? -1 : fd;
			break;
		}
		case 'b':
			opt->superblock = parse_number(optarg, "-b", 1);
			break;
		case 'B':
			opt->blocksize = parse_number(optarg, "-B", 1024);
			if (opt->blocksize & (opt->blocksize - 1) ||
			    opt->blocksize > EXT2_MAX_BLOCK_SIZE) {
				fprintf(stderr, "%s: -B %s: not a block size "
					"(1024 to 65536, a power of 2)\n", prog,
					optarg);
				exit(FSCK_USAGE);
			}
			break;
		case 'E':
			parse_extended(opt, optarg);
			break;
		case 'z':
			opt->undo_file = optarg;
			break;
		case 'r':	/* e2fsck's "for compatibility only" */
			break;
		case 'c':	/* badblocks; like -l and -L, it forces a check */
			opt->force = 1;
			/* fall through */
		case 'k':
		case 't':
		case 'd':
		case 'F':
			pass_option(opt, c == 'c' ? "-c" : c == 'k' ? "-k" :
				    c == 't' ? "-t" : c == 'd' ? "-d" : "-F",
				    NULL);
			break;
		case 'D':
			opt->optimize_dirs = 1;
			pass_option(opt, "-D", NULL);
			break;
		case 'l':
		case 'L':
			opt->force = 1;
			opt->badblocks_list = 1;
			pass_option(opt, c == 'l' ? "-l" : "-L", optarg);
			break;
		case 'j':
		case 'I':
		case 'P':
			pass_option(opt, c == 'j' ? "-j" : c == 'I' ? "-I" : "-P",
				    optarg);
			break;
		case 'R':
			opt->report_file = optarg;
			break;
		case 'X':
			opt->e2fsck = optarg;
			break;
		case 'N':
			opt->no_e2fsck = 1;
			break;
		case 'h':
			usage(FSCK_OK);
			break;
		default:
			usage(FSCK_USAGE);
		}
	}
	if (optind != argc - 1)
		usage(FSCK_USAGE);
	check_combinations(opt);
	opt->device = argv[optind];
}

/*
 * An error that stops the check: said on stderr as com_err says it
 * ("e2fold-fsck: MESSAGE while WHAT DEVICE"), kept in the report.
 */
static void fail(struct fsck_ctx *ctx, errcode_t retval, const char *what,
		 const char *object)
{
	com_err(prog, retval, "while %s %s", what, object);
	report_error(ctx->report, "%s while %s %s", error_message(retval),
		     what, object);
	ctx->aborted = 1;
}

/* -b (with -B, or each block size in turn): that superblock, or none. */
static errcode_t open_backup_given(struct fsck_ctx *ctx, int flags,
				   const char *undo_file)
{
	unsigned int bs = ctx->opt.blocksize ? ctx->opt.blocksize :
			  EXT2_MIN_BLOCK_SIZE;
	errcode_t retval;

	for (;;) {
		retval = e2fold_open_fs_at(ctx->opt.device, flags,
					   ctx->opt.superblock, bs, undo_file,
					   &ctx->fs);
		if (!retval || ctx->opt.blocksize || bs >= EXT2_MAX_BLOCK_SIZE)
			break;
		bs <<= 1;
	}
	if (retval)
		return retval;
	if (!ctx->backup_sb)
		printf("%s: using the superblock at block %llu (block size "
		       "%u).\n", ctx->opt.device,
		       (unsigned long long)ctx->opt.superblock, bs);
	ctx->backup_sb = ctx->opt.superblock;
	ctx->backup_bs = bs;
	return 0;
}

/*
 * Open the filesystem (through the undo manager with -z, into the undo
 * file with this suffix: each phase that may write keeps its own).
 */
errcode_t fsck_open_fs(struct fsck_ctx *ctx, const char *undo_suffix)
{
	char undo[4096];
	const char *undo_file = NULL;
	int flags = EXT2_FLAG_IGNORE_CSUM_ERRORS | EXT2_FLAG_SKIP_MMP;
	blk64_t sb = 0;
	unsigned int bs = 0;
	errcode_t retval;

	if (fsck_may_write(ctx))
		flags |= EXT2_FLAG_RW | EXT2_FLAG_EXCLUSIVE;
	if (ctx->opt.undo_file) {
		snprintf(undo, sizeof(undo), "%s%s", ctx->opt.undo_file,
			 undo_suffix);
		undo_file = undo;
	}
	if (ctx->opt.superblock && !ctx->primary_restored)
		return open_backup_given(ctx, flags, undo_file);
	retval = e2fold_open_fs(ctx->opt.device, flags, undo_file, &ctx->fs);
	if (!retval || !e2fold_superblock_unusable(retval))
		return retval;
	/* As e2fsck: try the backups, and say which one serves. */
	if (e2fold_open_fs_backup(ctx->opt.device, flags, ctx->opt.blocksize,
				  undo_file, &ctx->fs, &sb, &bs))
		return retval;
	if (ctx->backup_sb != sb)
		printf("%s: the primary superblock cannot be used (%s); using "
		       "the backup at block %llu (block size %u).\n",
		       ctx->opt.device, error_message(retval),
		       (unsigned long long)sb, bs);
	ctx->backup_sb = sb;
	ctx->backup_bs = bs;
	return 0;
}

/*
 * Without -f a filesystem is checked, as e2fsck checks it, only when it
 * is not marked clean, has errors, or is due: mounted s_max_mnt_count
 * times, or s_checkinterval seconds after its last check. A check that
 * is due is said, in e2fsck's words; e2fsck's full run resets both.
 */
static int looks_clean(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	time_t now = time(NULL);

	if (ctx->opt.force || !(sb->s_state & EXT2_VALID_FS) ||
	    (sb->s_state & EXT2_ERROR_FS))
		return 0;
	if (ext2fs_has_feature_journal_needs_recovery(sb))
		return 0;
	if (sb->s_max_mnt_count > 0 &&
	    sb->s_mnt_count >= (unsigned int)sb->s_max_mnt_count) {
		printf("%s has been mounted %u times without being checked, "
		       "check forced.\n", ctx->opt.device, sb->s_mnt_count);
		return 0;
	}
	if (sb->s_checkinterval && now >= (time_t)sb->s_lastcheck &&
	    (unsigned long)(now - sb->s_lastcheck) >= sb->s_checkinterval) {
		printf("%s has gone %lu days without being checked, check "
		       "forced.\n", ctx->opt.device,
		       (unsigned long)(now - sb->s_lastcheck) / (3600 * 24));
		return 0;
	}
	return 1;
}

/* Open, or say why not; 0 on success. */
static int open_or_report(struct fsck_ctx *ctx, const char *undo_suffix)
{
	errcode_t retval = fsck_open_fs(ctx, undo_suffix);

	if (retval) {
		fail(ctx, retval, "opening", ctx->opt.device);
		return -1;
	}
	return 0;
}

/*
 * A journal that needs recovery (a crash, or a boot check after one) is
 * replayed by the system e2fsck, as fsck.ext4 would replay it: e2fold
 * never replays a journal itself. -1 if it could not be.
 */
static int replay_journal(struct fsck_ctx *ctx)
{
	int status;
	errcode_t retval;

	ext2fs_close_free(&ctx->fs);
	retval = fsck_replay_journal(ctx, &status);
	if (retval) {
		fail(ctx, retval, "running", ctx->e2fsck_path);
		return -1;
	}
	if (status & ~FSCK_NONDESTRUCT) {
		fprintf(stderr, "%s: %s: e2fsck could not replay the journal "
			"(exit status %d)\n", prog, ctx->opt.device, status);
		report_error(ctx->report, "the journal could not be replayed");
		return -1;
	}
	ctx->changed = 1;
	return open_or_report(ctx, ".super");
}

/* Refuse what e2fsck would refuse before writing. */
static int preflight(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	int mount_flags = 0;
	errcode_t retval;

	if (e2fold_fs_truncated(prog, fs, ctx->opt.device)) {
		report_error(ctx->report, "the superblock says the filesystem "
			     "is larger than the device");
		return FSCK_ERROR;
	}

	/* A clean one is left alone, mounted or not (a boot check of /). */
	retval = ext2fs_check_if_mounted(ctx->opt.device, &mount_flags);
	if (!retval && (mount_flags & EXT2_MF_MOUNTED) && fsck_may_write(ctx) &&
	    !looks_clean(ctx)) {
		fprintf(stderr, "%s: %s is mounted; repairing a mounted "
			"filesystem would damage it\n", prog, ctx->opt.device);
		report_error(ctx->report, "mounted: not repaired");
		return FSCK_ERROR;
	}
	if (ext2fs_has_feature_journal_needs_recovery(fs->super)) {
		if (fsck_may_write(ctx) && ctx->use_e2fsck)
			return replay_journal(ctx) ? FSCK_ERROR : 0;
		if (fsck_may_write(ctx)) {
			fprintf(stderr, "%s: %s: the journal needs recovery; "
				"run e2fsck first\n", prog, ctx->opt.device);
			report_error(ctx->report, "the journal needs recovery");
			return FSCK_ERROR;
		}
		printf("Warning: the journal needs recovery; checking the "
		       "filesystem as it is without it.\n");
	}
	if (ctx->opt.undo_file && !fsck_may_write(ctx))
		printf("Warning: -z is ignored with -n, which writes nothing.\n");
	return 0;
}

/*
 * Before e2fsck, the scan (every inode) is needed only by what pass 0
 * may have to prove and by the search for nodes e2fsck misreads (in
 * encrypted directories): on most filesystems neither applies, and
 * e2fsck starts at once.
 */
static int early_scan_needed(ext2_filsys fs)
{
	struct ext2_super_block *sb = fs->super;

	return !ext2fs_has_feature_casefold(sb) ||
	       !e2fold_encoding_by_magic(sb->s_encoding) ||
	       ext2fs_has_feature_encrypt(sb);
}

/* Scan and pass 0; early: before e2fsck, which needs pass 0 settled. */
static errcode_t run_pass0(struct fsck_ctx *ctx, int header, int early)
{
	errcode_t retval = 0;

	if (!early || early_scan_needed(ctx->fs))
		retval = fsck_scan(ctx);
	if (retval || ctx->cancelled)
		return retval;
	if (header)
		fsck_say(ctx, "Pass 0: Checking the superblock's encoding\n");
	return fsck_pass0(ctx);
}

static errcode_t run_passes(struct fsck_ctx *ctx, int pass0_header)
{
	errcode_t retval;

	retval = run_pass0(ctx, pass0_header, 0);
	if (retval || ctx->aborted || fsck_cancelled(ctx))
		return retval;
	fsck_say(ctx, "Pass 1: Checking casefold inode flags\n");
	retval = fsck_pass1(ctx);
	if (retval || ctx->aborted || fsck_cancelled(ctx))
		return retval;
	fsck_say(ctx, "Pass 2: Checking directory names and hash trees\n");
	retval = fsck_pass2(ctx);
	return retval;
}

static int exit_status(const struct fsck_ctx *ctx)
{
	int status = FSCK_OK;

	/* As e2fsck: cancelled, and whether anything was fixed before. */
	if (ctx->cancelled)
		return FSCK_CANCELED | (ctx->changed ? FSCK_NONDESTRUCT : 0);
	if (ctx->aborted)
		return FSCK_ERROR | (ctx->changed ? FSCK_NONDESTRUCT : 0);
	if (ctx->changed)
		status |= FSCK_NONDESTRUCT;
	if (ctx->errors_left)
		status |= FSCK_UNCORRECTED;
	return status;
}

/* -v: e2fsck's statistics layout, for what e2fold checked. */
static void statistics(const struct fsck_ctx *ctx)
{
	const struct fsck_tally *t = &ctx->tally;

	printf("\nNames and hash trees (e2fold):\n"
	       "%12lu directories\n%12lu casefolded directories\n"
	       "%12lu entries\n%12lu names folded\n%12lu duplicates\n"
	       "%12lu rebuilt directories\n", t->dirs_checked,
	       t->cf_dirs_checked, t->entries_checked, t->names_folded,
	       t->duplicates, ctx->rebuilt);
	if (ctx->renamed)
		printf("%12lu renamed entries\n", ctx->renamed);
}

/*
 * The end of a check. In preen mode, as e2fsck -p, a clean check says
 * one line: e2fsck's, or e2fold's own without e2fsck; e2fold adds its
 * line only when it changed something or left something.
 */
static void summary(const struct fsck_ctx *ctx)
{
	const char *dev = ctx->opt.device;
	int preen = ctx->opt.mode == MODE_PREEN;

	if (ctx->changed && !preen)
		printf("\n%s: ***** FILE SYSTEM WAS MODIFIED *****\n", dev);
	if (ctx->errors_left && !ctx->aborted && !ctx->cancelled)
		printf("\n%s: ********** WARNING: Filesystem still has "
		       "errors in names or hash trees **********\n", dev);
	if (ctx->opt.verbose) {
		statistics(ctx);
		return;
	}
	if (preen && ctx->use_e2fsck && !ctx->changed && !ctx->errors_left)
		return;
	printf("%s: %lu %s (%lu casefolded), %lu %s checked", dev,
	       ctx->tally.dirs_checked, e2fold_plural(ctx->tally.dirs_checked,
			"directory", "directories"),
	       ctx->tally.cf_dirs_checked, ctx->tally.entries_checked,
	       e2fold_plural(ctx->tally.entries_checked, "entry", "entries"));
	if (ctx->renamed || ctx->rebuilt)
		printf("; %lu renamed, %lu %s rebuilt", ctx->renamed,
		       ctx->rebuilt, e2fold_plural(ctx->rebuilt, "directory",
						   "directories"));
	printf("\n");
}

/*
 * After a check that leaves every casefolded entry where its hash leads,
 * tell whether the filesystem can take no_compat_fallback (naming strict
 * too where it is set: e2fold-tune's list replaces the flags): e2fold-fsck
 * has just proved what the flag promises, but never sets it itself
 * (e2fold-tune proves it again and sets it). Preen mode stays quiet.
 */
static void fallback_advice(const struct fsck_ctx *ctx)
{
	const char *dev = ctx->opt.device;

	/* The flag changes nothing where no directory is casefolded. */
	if (!ctx->um || ctx->no_fallback || ctx->aborted || ctx->cancelled ||
	    ctx->opt.mode == MODE_PREEN || !ctx->tally.cf_dirs_checked)
		return;
	if (ctx->errors_left) {
		if (ctx->tally.misplaced)
			printf("%s: once its entries are where their hashes "
			       "lead (e2fold-fsck -y), the filesystem can take "
			       "no_compat_fallback.\n", dev);
		return;
	}
	printf("%s: every casefolded entry is where its hash leads: the "
	       "filesystem can take no_compat_fallback, which spares Linux "
	       "6.12 and newer a whole-directory scan on every lookup miss "
	       "and create (e2fold-tune -E encoding_flags=%sno_compat_fallback "
	       "%s).\n", dev, ctx->strict ? "strict-" : "", dev);
}

/*
 * e2fsck marks the filesystem valid only when it leaves nothing; it
 * leaves what it hands over to e2fold (and then says "still has
 * errors"). Once e2fold has fixed all of that, the filesystem is valid:
 * say so, or the kernel warns at mount that it was never checked.
 */
static void mark_valid(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;

	if (!ctx->may_mark_clean || ctx->errors_left || ctx->aborted ||
	    ctx->cancelled ||
	    !fsck_may_write(ctx) ||
	    ((sb->s_state & EXT2_VALID_FS) && !(sb->s_state & EXT2_ERROR_FS)))
		return;
	sb->s_state |= EXT2_VALID_FS;
	sb->s_state &= ~EXT2_ERROR_FS;
	ext2fs_mark_super_dirty(ctx->fs);
}

int fsck_close_fs(struct fsck_ctx *ctx)
{
	errcode_t retval;

	if (!ctx->fs)
		return 0;
	mark_valid(ctx);
	if (ctx->changed && fsck_may_write(ctx))
		ext2fs_mark_super_dirty(ctx->fs);
	/*
	 * With orig_super, libext2fs writes only the superblock's changed
	 * fields, one write each (so as not to undo a mounted kernel's own
	 * updates; e2fold never writes a mounted filesystem). Killed between
	 * two of them, it leaves a superblock whose checksum fails, which
	 * e2fsck cannot open unless a backup saves it. Without, it writes
	 * the whole superblock in one write: the old one or the new one.
	 */
	ext2fs_free_mem(&ctx->fs->orig_super);
	retval = ext2fs_close_free(&ctx->fs);
	if (retval) {
		fail(ctx, retval, "writing", ctx->opt.device);
		return -1;
	}
	return 0;
}

/* e2fold's passes, then closing; the caller has the filesystem open. */
static void check_names(struct fsck_ctx *ctx, int pass0_header)
{
	errcode_t retval = run_passes(ctx, pass0_header);

	if (retval)
		fail(ctx, retval, "checking", ctx->opt.device);
	fsck_close_fs(ctx);
}

/* Is there an e2fsck to run? Says what will not be checked without. */
static int find_e2fsck(struct fsck_ctx *ctx)
{
	errcode_t retval;

	if (ctx->opt.no_e2fsck)
		return 0;
	retval = fsck_find_e2fsck(ctx);
	if (!retval)
		return 1;
	if (ctx->opt.e2fsck) {
		fprintf(stderr, "%s: --e2fsck %s: %s\n", prog, ctx->opt.e2fsck,
			retval == ENOENT ? "not found" : "not e2fsck 1.46 or newer");
		exit(FSCK_USAGE);
	}
	printf("Note: %s; only directory names and hash trees are checked, "
	       "not the rest of the filesystem.\n", retval == ENOENT ?
	       "e2fsck was not found" : "e2fsck is older than 1.46");
	return 0;
}

/*
 * The undo manager leaves an unusable file behind when nothing was
 * written: drop the undo file of a phase that changed nothing.
 */
static void drop_unused_undo(struct fsck_ctx *ctx, const char *suffix,
			     int changed)
{
	char undo[4096];

	if (!ctx->opt.undo_file || changed || !fsck_may_write(ctx))
		return;
	snprintf(undo, sizeof(undo), "%s%s", ctx->opt.undo_file, suffix);
	unlink(undo);
}

/* Nodes e2fsck would misread (misread.c): say so, once. */
static errcode_t find_misread_nodes(struct fsck_ctx *ctx)
{
	struct problem_context pctx = { 0 };
	errcode_t retval = fsck_find_misread_nodes(ctx);

	if (retval || !ctx->n_misread)
		return retval;
	pctx.num = ctx->n_misread;
	pctx.num2 = e2fold_dx_node_limit(ctx->fs, 1);
	fix_problem(ctx, PR_0_E2FSCK_MISREADS, &pctx);
	return 0;
}

/*
 * Run e2fsck (verify: as the judge, -fn) and put what it found in the
 * report; 0, or -1 when it could not be run (the check is aborted).
 */
static int e2fsck_phase(struct fsck_ctx *ctx, int verify,
			struct e2fsck_run *res)
{
	errcode_t retval = fsck_run_e2fsck(ctx, verify, res);

	if (retval) {
		fail(ctx, retval, "running", ctx->e2fsck_path);
		return -1;
	}
	report_e2fsck(ctx->report, verify ? "verify" : "repair",
		      ctx->e2fsck_version, res);
	return 0;
}

/*
 * After a repair, prove what e2fold wrote without a second whole e2fsck
 * run: reopen the filesystem read-only and check names and hash trees
 * again (every directory rebuilt was already read back as it was
 * written). A finding now is printed as any other and left. Only a run
 * that claims to leave nothing is re-checked: with a finding declined or
 * beyond repair, it would only be repeated, and the exit status already
 * says errors are left. 0, or -1 if the re-check could not be made.
 */
static int recheck(struct fsck_ctx *ctx)
{
	enum fsck_mode mode = ctx->opt.mode;
	int changed = ctx->changed;
	struct fsck_tally tally = ctx->tally;
	errcode_t retval;

	if (ctx->errors_left)
		return 0;
	ctx->opt.mode = MODE_NO;
	ctx->rechecking = 1;
	retval = fsck_open_fs(ctx, "");
	if (!retval)
		retval = run_passes(ctx, 0);
	if (retval)
		fail(ctx, retval, "re-checking", ctx->opt.device);
	fsck_close_fs(ctx);
	ctx->rechecking = 0;
	ctx->opt.mode = mode;
	ctx->tally = tally;
	if (retval)
		return -1;
	if (ctx->errors_left)
		printf("%s: re-reading what e2fold wrote finds the problems "
		       "above.\n", ctx->opt.device);
	else
		fsck_say(ctx, "Re-checked names and hash trees after the "
			 "repair: nothing left.\n");
	ctx->changed = changed;
	return 0;
}

/*
 * What e2fsck's run means for the rest; -1 when the check stops there
 * (cancelled, or e2fsck could not finish: passes_ran says whether
 * e2fold's passes ran alongside it all the same).
 */
static int take_e2fsck_result(struct fsck_ctx *ctx,
			      const struct e2fsck_run *res, int passes_ran)
{
	ctx->e2fsck_done = 1;
	/* e2fsck repairing from a backup writes the primary from it. */
	if (ctx->backup_sb && fsck_may_write(ctx) &&
	    !(res->status & (FSCK_ERROR | FSCK_USAGE | FSCK_CANCELED)))
		ctx->primary_restored = 1;
	if (res->status & FSCK_NONDESTRUCT)
		ctx->changed = 1;
	if (res->left)
		ctx->errors_left = 1;
	ctx->may_mark_clean = !res->left;
	if ((res->status & FSCK_CANCELED) && !ctx->cancelled)
		ctx->cancelled = SIGINT;	/* e2fsck's own, say */
	if (fsck_cancelled(ctx))
		return -1;
	if (res->status & (FSCK_ERROR | FSCK_USAGE)) {
		printf("%s: e2fsck stopped (exit status %d)%s.\n",
		       ctx->opt.device, res->status, passes_ran ?
		       "; e2fold's findings below were made alongside it" :
		       "; e2fold's passes were not run");
		ctx->aborted = 1;
		return -1;
	}
	if (res->handed_over)
		fsck_say(ctx, "e2fold-fsck: e2fsck left %lu %s about "
			 "names or hash trees to e2fold.\n", res->handed_over,
			 e2fold_plural(res->handed_over, "finding", "findings"));
	return 0;
}

/* Copy what the passes printed into buf to dest. */
static void show_buffered(FILE *buf, FILE *dest)
{
	char chunk[4096];
	size_t n;

	fflush(buf);
	rewind(buf);
	while ((n = fread(chunk, 1, sizeof(chunk), buf)) > 0)
		fwrite(chunk, 1, n, dest);
	fflush(dest);
}

/*
 * Error messages (com_err, on stderr) of the passes run alongside e2fsck
 * wait too, so that they follow e2fsck's as they would in sequence:
 * stderr goes to errbuf meanwhile; -1 leaves it alone.
 */
static int hold_stderr(FILE *errbuf)
{
	int saved;

	fflush(stderr);
	saved = dup(2);
	if (saved >= 0 && dup2(fileno(errbuf), 2) < 0) {
		close(saved);
		saved = -1;
	}
	return saved;
}

static void release_stderr(int saved)
{
	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
}

/*
 * -n: e2fold's passes only read, as e2fsck -fn does, so they run
 * alongside it (two CPUs are the norm) and the whole check takes no
 * longer than e2fsck alone. e2fsck talks to the terminal; what the
 * passes print waits in a temporary file and follows e2fsck's output,
 * as if they had run after it. -1 if that cannot be set up (the caller
 * runs one after the other).
 */
static int check_alongside_e2fsck(struct fsck_ctx *ctx)
{
	struct e2fsck_job job;
	struct e2fsck_run res;
	FILE *buf = tmpfile(), *errbuf = tmpfile();
	errcode_t retval;
	int saved_stderr;

	if (!buf || !errbuf || fsck_start_e2fsck(ctx, &job)) {
		if (buf)
			fclose(buf);
		if (errbuf)
			fclose(errbuf);
		return -1;
	}
	ctx->out = buf;
	saved_stderr = hold_stderr(errbuf);
	if (!open_or_report(ctx, "")) {
		retval = run_passes(ctx, 0);
		if (retval)
			fail(ctx, retval, "checking", ctx->opt.device);
		fsck_close_fs(ctx);
	}
	release_stderr(saved_stderr);
	ctx->out = NULL;
	retval = fsck_wait_e2fsck(&job, &res);
	fflush(stdout);
	show_buffered(errbuf, stderr);
	fclose(errbuf);
	if (ctx->opt.progress_fd == 0)
		fsck_progress_bar_open();
	if (retval) {
		fail(ctx, retval, "running", ctx->e2fsck_path);
	} else {
		report_e2fsck(ctx->report, "repair", ctx->e2fsck_version, &res);
		take_e2fsck_result(ctx, &res, 1);
	}
	if (!ctx->cancelled) {
		/* The steps e2fold made meanwhile, now that e2fsck's are over. */
		fsck_progress(ctx, 1, 1, 1);
		fsck_progress(ctx, 2, 1, 1);
		fsck_say(ctx, "Checking names and hash trees (e2fold):\n");
		show_buffered(buf, stdout);
	}
	fclose(buf);
	return 0;
}

/*
 * With e2fsck: pass 0 (e2fsck refuses an unknown encoding), e2fsck for
 * the rest, e2fold's passes (alongside e2fsck with -n), and if anything
 * changed e2fold's re-check, then with -E verify e2fsck -fn as the
 * judge. Each phase that may write has its own undo file.
 */
static void check_with_e2fsck(struct fsck_ctx *ctx)
{
	struct e2fsck_run res;
	errcode_t retval;
	int changed;

	retval = run_pass0(ctx, 1, 1);
	if (!retval && !ctx->aborted)
		retval = find_misread_nodes(ctx);
	if (!retval && !ctx->aborted && ctx->e2fsck_needs_encoding) {
		struct problem_context pctx = { 0 };

		pctx.num = ctx->fs->super->s_encoding;
		fix_problem(ctx, PR_0_E2FSCK_ENCODING_COPY, &pctx);
	}
	if (retval)
		fail(ctx, retval, "checking", ctx->opt.device);
	if (fsck_close_fs(ctx) || ctx->aborted || fsck_cancelled(ctx))
		return;
	drop_unused_undo(ctx, ".super", ctx->changed);
	fsck_say(ctx, "Running %s for everything but names and hash trees:\n",
		 ctx->e2fsck_version);
	/* Read-only, and e2fsck checks the device itself (misread.c). */
	if (!fsck_may_write(ctx) && !ctx->n_misread &&
	    !check_alongside_e2fsck(ctx))
		return;
	if (e2fsck_phase(ctx, 0, &res) || take_e2fsck_result(ctx, &res, 0))
		return;
	if (open_or_report(ctx, ""))
		return;
	fsck_say(ctx, "Checking names and hash trees (e2fold):\n");
	changed = ctx->changed;
	ctx->changed = 0;
	retval = run_passes(ctx, 0);
	/* What the judge below would misread now (rebuilt, or restored). */
	if (!retval && ctx->changed)
		retval = fsck_find_misread_nodes(ctx);
	if (retval)
		fail(ctx, retval, "checking", ctx->opt.device);
	fsck_close_fs(ctx);
	drop_unused_undo(ctx, "", ctx->changed);
	ctx->changed |= changed;
	if (ctx->aborted || fsck_cancelled(ctx) || !ctx->changed ||
	    !fsck_may_write(ctx))
		return;
	/* e2fsck -fn misses what e2fsck leaves to e2fold: both with verify. */
	if (recheck(ctx) || !ctx->opt.verify)
		return;
	if (e2fsck_phase(ctx, 1, &res))
		return;
	if (res.left || (res.status & ~FSCK_UNCORRECTED)) {
		printf("%s: e2fsck -fn still finds %lu %s of its own.\n",
		       ctx->opt.device, res.left,
		       e2fold_plural(res.left, "problem", "problems"));
		ctx->errors_left = 1;
	} else {
		fsck_say(ctx, "Verified with e2fsck -fn: nothing left for "
			 "e2fsck.\n");
	}
}

/*
 * Everything a run allocated, so that fsck_main can run again in the same
 * process (the fuzzer does) without growing.
 */
static void release(struct fsck_ctx *ctx)
{
	report_free(ctx->report);
	utf8_unload(ctx->um);
	free(ctx->e2fsck_path);
	free(ctx->dirs);
	free(ctx->cf_nondirs);
	free(ctx->misread);
}

/* The end of every run: the report (when asked for), then freeing. */
static int finish(struct fsck_ctx *ctx, int status)
{
	fsck_progress_end(ctx);
	if (ctx->opt.report_file) {
		int err = report_write(ctx->report, ctx, ctx->opt.report_file,
				       status);

		if (err) {
			fprintf(stderr, "%s: writing %s: %s\n", prog,
				ctx->opt.report_file, strerror(err));
			status |= FSCK_ERROR;
		}
	}
	release(ctx);
	return status;
}

/* "DEVICE: clean, ..." for a filesystem -f would have checked. */
static void say_clean(const struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;

	printf("%s: clean, %u/%u files, %llu/%llu blocks\n", ctx->opt.device,
	       sb->s_inodes_count - sb->s_free_inodes_count,
	       sb->s_inodes_count,
	       (unsigned long long)(ext2fs_blocks_count(sb) -
				    ext2fs_free_blocks_count(sb)),
	       (unsigned long long)ext2fs_blocks_count(sb));
}

/*
 * What a signal left: every directory rebuilt was finished and read
 * back (pass2.c stops only between directories), undo files are closed.
 */
static void say_cancelled(const struct fsck_ctx *ctx)
{
	printf("\n%s: interrupted by %s: %lu %s checked, %lu "
	       "rebuilt (each completely, none half written)%s.\n",
	       ctx->opt.device, ctx->cancelled == SIGTERM ? "SIGTERM" :
	       "SIGINT", ctx->tally.dirs_checked,
	       e2fold_plural(ctx->tally.dirs_checked, "directory",
			     "directories"), ctx->rebuilt,
	       ctx->changed ? "; the filesystem was changed" :
	       "; nothing was written");
	printf("%s: run %s again to finish the check.\n", ctx->opt.device,
	       prog);
}

/* Everything after opening; the exit status. */
static int check(struct fsck_ctx *ctx)
{
	int status = preflight(ctx);

	if (status) {
		ext2fs_close_free(&ctx->fs);
		return status;
	}
	if (looks_clean(ctx)) {
		say_clean(ctx);
		ext2fs_close_free(&ctx->fs);
		return FSCK_OK;
	}
	if (ctx->use_e2fsck) {
		check_with_e2fsck(ctx);
	} else {
		check_names(ctx, 1);
		drop_unused_undo(ctx, "", ctx->changed);
		if (ctx->changed && fsck_may_write(ctx) && !ctx->aborted &&
		    !fsck_cancelled(ctx))
			recheck(ctx);
	}
	fsck_close_fs(ctx);
	fsck_progress_end(ctx);
	if (ctx->cancelled)
		say_cancelled(ctx);
	else if (ctx->aborted && ctx->changed)
		printf("%s: the check stopped after changes; restore with the "
		       "undo file if -z was given, or run %s again\n",
		       ctx->opt.device, prog);
	summary(ctx);
	fallback_advice(ctx);
	return exit_status(ctx);
}

/*
 * An earlier run cut short while it wrote e2fsck's repairs in place
 * (e2fsck/overlay.h) is finished first, as a journal is replayed first;
 * -n only says so. -1 if it could not be finished.
 */
static int resume_repair(struct fsck_ctx *ctx)
{
	enum fsck_overlay_resumed r;
	char undo[4096];
	errcode_t retval;

	if (ctx->opt.undo_file)
		snprintf(undo, sizeof(undo), "%s.resume", ctx->opt.undo_file);
	retval = fsck_overlay_resume(ctx->opt.device, fsck_may_write(ctx),
				     ctx->opt.undo_file ? undo : NULL, &r);
	if (retval) {
		fail(ctx, retval, "finishing an earlier repair of",
		     ctx->opt.device);
		return -1;
	}
	switch (r) {
	case FSCK_RESUMED_NONE:
		break;
	case FSCK_RESUMED_FINISHED:
		printf("%s: an earlier run was cut short while it wrote "
		       "e2fsck's repairs: they are written now.\n",
		       ctx->opt.device);
		ctx->changed = 1;
		break;
	case FSCK_RESUMED_PENDING:
		printf("%s: an earlier run was cut short while it wrote "
		       "e2fsck's repairs; a run with -p or -y writes the rest "
		       "first.\n", ctx->opt.device);
		break;
	case FSCK_RESUMED_STALE:
		printf("%s: an earlier run was cut short while it wrote "
		       "e2fsck's repairs, but the filesystem has changed "
		       "since: they are dropped.\n", ctx->opt.device);
		break;
	}
	return 0;
}

/* -E journal_only: e2fsck replays the journal; e2fold checks nothing. */
static int journal_only(struct fsck_ctx *ctx)
{
	errcode_t retval;
	int status;

	if (!ctx->use_e2fsck) {
		fprintf(stderr, "%s: -E journal_only needs e2fsck, which "
			"replays the journal\n", prog);
		return FSCK_USAGE;
	}
	retval = fsck_replay_journal(ctx, &status);
	if (retval) {
		fail(ctx, retval, "running e2fsck on", ctx->opt.device);
		return FSCK_ERROR;
	}
	return status;
}

int fsck_main(int argc, char **argv)
{
	struct fsck_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.prog = prog;
	/* Once per process: add_error_table() would grow a list each run. */
	initialize_ext2_error_table();
	optind = 1;	/* fsck_main may run more than once in a process */
	parse_options(argc, argv, &ctx.opt);
	fsck_catch_signals();
	/* e2fsck's status for this: an operational error, not a usage one. */
	if (ctx.opt.mode == MODE_ASK && !isatty(0)) {
		fprintf(stderr, "%s: need a terminal to ask questions; use -n, "
			"-y or -p\n", prog);
		return FSCK_ERROR;
	}
	if (ctx.opt.report_file)
		ctx.report = report_new();
	fsck_say(&ctx, "%s\n", e2fold_version_banner(prog));
	ctx.use_e2fsck = find_e2fsck(&ctx);
	if (ctx.opt.journal_only)
		return finish(&ctx, journal_only(&ctx));
	if (!ctx.use_e2fsck && ctx.opt.n_e2fsck_args)
		printf("Note: without e2fsck, its options (%s ...) do "
		       "nothing.\n", ctx.opt.e2fsck_args[0]);
	if (resume_repair(&ctx) ||
	    open_or_report(&ctx, ctx.use_e2fsck ? ".super" : ""))
		return finish(&ctx, FSCK_ERROR);
	return finish(&ctx, check(&ctx));
}
