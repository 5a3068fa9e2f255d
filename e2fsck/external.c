/*
 * external.c: the system e2fsck, for everything that is not directory
 * names and hash trees.
 *
 * The division of labour. e2fsck checks and repairs the filesystem's
 * structure (inodes, blocks, bitmaps, counts, journal, connectivity).
 * e2fold owns directory names and hash trees in every directory, because
 * e2fsck 1.47's repairs there are lossy or impossible in casefolded
 * directories, and a problem code cannot be turned off for casefolded
 * directories alone:
 *   - it overwrites an invalid name with dots (0x020053), cuts names to
 *     rename duplicates (0x020042) or clears them (0x020041, 0x020054);
 *   - it cannot hash names that are not valid UTF-8 in a casefolded
 *     directory, so it reports correct hash trees as broken and clears
 *     their index (0x020038 and the codes that clear an index directly),
 *     then fails to rebuild it; a leaf without room for its checksum is
 *     rebuilt the same failing way (0x02004C);
 *   - the casefold flag decisions (0x010088, 0x010089, 0x01008D,
 *     0x01008E) belong with the rest of casefold.
 * e2fsck reads per-problem answers from the file E2FSCK_CONFIG names;
 * e2fold writes one that answers "no" to exactly these codes (after the
 * user's own /etc/e2fsck.conf, which stays in force) and asks e2fsck for
 * its problem log, so that it knows which of e2fsck's findings were left
 * to e2fold and which were e2fsck's own.
 *
 * One verdict per problem. e2fsck must say nothing about what it leaves
 * to e2fold, or the user reads two verdicts, the first one wrong: its
 * "IGNORED." and "WARNING: Filesystem still has errors" for names that
 * e2fold then renames, or in preen mode its "UNEXPECTED INCONSISTENCY;
 * RUN fsck MANUALLY" (and an e2fsck that stops before its passes 3 to 5)
 * for an index e2fold then rebuilds. So each of these codes is also
 * no_nomsg (no message when forced to "no"), no_ok (declining it leaves
 * the filesystem valid in e2fsck's eyes) and preen_ok (no halt in -p);
 * the problem log still records it, and e2fold's own passes report it.
 *
 * The order: e2fold's pass 0 first (e2fsck refuses a filesystem whose
 * encoding it does not know), then e2fsck (with -n, alongside e2fold's
 * passes: both only read), then e2fold's passes, then, if anything
 * changed and -E verify asks for it, e2fsck -fn again as the judge.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <et/com_err.h>

#include "e2fsck.h"
#include "encoding.h"
#include "external.h"
#include "misread.h"
#include "overlay.h"
#include "problem.h"
#include "tmpdir.h"

/*
 * The e2fsck problems whose answer is e2fold's, and why (see above).
 * Some only report and lead to the others (their answer changes nothing
 * in e2fsck); they are silenced all the same.
 */
static const unsigned int owned[] = {
	0x010088,	/* PR_1_CASEFOLD_NONDIR */
	0x010089,	/* PR_1_CASEFOLD_FEATURE */
	0x01008D,	/* PR_1_HTREE_NEEDS_SIPHASH */
	0x01008E,	/* PR_1_HTREE_CANNOT_SIPHASH */
	0x020034,	/* PR_2_HTREE_NOTREF: reports only */
	0x020035,	/* PR_2_HTREE_DUPREF: reports only */
	0x020036,	/* PR_2_HTREE_MIN_HASH: reports only */
	0x020037,	/* PR_2_HTREE_MAX_HASH: reports only */
	0x020038,	/* PR_2_HTREE_CLEAR */
	0x02003A,	/* PR_2_HTREE_BADBLK */
	0x02003C,	/* PR_2_HTREE_BAD_ROOT */
	0x02003D,	/* PR_2_HTREE_BAD_LIMIT */
	0x02003E,	/* PR_2_HTREE_BAD_COUNT */
	0x02003F,	/* PR_2_HTREE_HASH_ORDER */
	0x020040,	/* PR_2_HTREE_BAD_DEPTH: reports only */
	0x020041,	/* PR_2_DUPLICATE_DIRENT */
	0x020042,	/* PR_2_NON_UNIQUE_FILE */
	0x020043,	/* PR_2_REPORT_DUP_DIRENT: reports only */
	0x020049,	/* PR_2_HTREE_ROOT_CSUM_INVALID */
	0x02004A,	/* PR_2_HTREE_NODE_CSUM_INVALID */
	0x02004C,	/* PR_2_LEAF_NODE_MISSING_CSUM */
	0x020053,	/* PR_2_BAD_ENCODED_NAME */
	0x020054,	/* PR_2_NON_UNIQUE_FILE_NO_RENAME */
	0x031002,	/* PR_3A_OPTIMIZE_DIR_ERR: its rebuild failed */
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int is_owned(unsigned int code)
{
	size_t i;

	for (i = 0; i < COUNT(owned); i++)
		if (owned[i] == code)
			return 1;
	return 0;
}

/* The first word of PATH that holds an executable e2fsck, or NULL. */
static char *find_on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (strchr(prog, '/'))
		return access(prog, X_OK) ? NULL : strdup(prog);
	/* fsck helpers live in /sbin, which a user's PATH may lack. */
	copy = malloc(strlen(path ? path : "") + 32);
	if (!copy)
		return NULL;
	sprintf(copy, "%s:/usr/sbin:/sbin", path ? path : "");
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *cand = malloc(strlen(dir) + strlen(prog) + 2);

		if (!cand)
			break;
		sprintf(cand, "%s/%s", *dir ? dir : ".", prog);
		if (!access(cand, X_OK))
			found = cand;
		else
			free(cand);
	}
	free(copy);
	return found;
}

/*
 * e2fsck's progress ("pass done total device" lines on the descriptor
 * its -C names), relayed as e2fold-fsck's own (pass_helpers.c), so that
 * the whole run shows one bar or one numbering.
 */
struct progress_relay {
	struct fsck_ctx *ctx;
	int fds[2];		/* e2fsck writes fds[1]; e2fold reads fds[0] */
	char line[256];
	size_t len;
};

static void relay_progress(struct progress_relay *r, const char *data,
			   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int pass;
		unsigned long done, total;

		if (data[i] != '\n') {
			if (r->len < sizeof(r->line) - 1)
				r->line[r->len++] = data[i];
			continue;
		}
		r->line[r->len] = '\0';
		r->len = 0;
		if (sscanf(r->line, "%d %lu %lu", &pass, &done, &total) == 3)
			fsck_progress_step(r->ctx, pass, done, total);
	}
}

/* Until both end: the child's output into out, its progress relayed. */
static void drain(int out_fd, FILE *out, struct progress_relay *r)
{
	struct pollfd p[2] = {
		{ .fd = out_fd, .events = POLLIN },
		{ .fd = r ? r->fds[0] : -1, .events = POLLIN },
	};
	char buf[4096];
	int i;

	while (p[0].fd >= 0 || p[1].fd >= 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			n = read(p[i].fd, buf, sizeof(buf));
			if (n <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
			} else if (i == 0) {
				fwrite(buf, 1, n, out);
			} else {
				relay_progress(r, buf, n);
			}
		}
	}
}

/*
 * Run argv with stdout+stderr into out (or inherited if NULL), and its
 * progress through r (NULL: none; else argv names r->fds[1] with -C);
 * with ov, its writes to device go into that overlay (overlay.h).
 */
static int run_with(char *const argv[], const char *config, FILE *out,
		    struct progress_relay *r, const struct fsck_overlay *ov,
		    const char *device, int *ret_status)
{
	int fds[2] = { -1, -1 };
	pid_t pid;
	int status;

	fflush(stdout);
	fflush(stderr);
	if (out && pipe(fds))
		return errno;
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		if (config)
			setenv("E2FSCK_CONFIG", config, 1);
		if (ov)
			fsck_overlay_environment(ov, device);
		else
			(void)fsck_preload_environment();
		if (out) {
			dup2(fds[1], 1);
			dup2(fds[1], 2);
			close(fds[0]);
			close(fds[1]);
		}
		if (r)
			close(r->fds[0]);
		execv(argv[0], argv);
		fprintf(stderr, "e2fold-fsck: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(FSCK_ERROR);
	}
	fsck_set_child(pid);
	if (out)
		close(fds[1]);
	if (r)
		close(r->fds[1]);
	if (out || r)
		drain(fds[0], out, r);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			fsck_set_child(0);
			return errno;
		}
	fsck_set_child(0);
	*ret_status = WIFEXITED(status) ? WEXITSTATUS(status) : FSCK_ERROR;
	return 0;
}

static int run(char *const argv[], const char *config, FILE *out,
	       struct progress_relay *r, int *ret_status)
{
	return run_with(argv, config, out, r, NULL, NULL, ret_status);
}

/*
 * Run an e2fsck that may write the device: into an overlay, then the
 * overlay applied through the journal (overlay.h), saved into undo
 * first if not NULL (then argv has no -z: e2fsck writes nothing that
 * needs undoing). Without the preload library (an incomplete
 * installation), e2fsck writes the device itself, with -z undo if asked
 * (the caller says so in argv), and a warning says that its repairs are
 * not atomic then.
 */
static int run_writing(struct fsck_ctx *ctx, char *const argv[],
		       const char *config, FILE *out,
		       struct progress_relay *r, const char *undo,
		       int *ret_status)
{
	struct fsck_overlay ov;
	enum fsck_overlay_how how;
	unsigned int transactions;
	errcode_t retval;

	if (!fsck_overlay_library()) {
		fprintf(stderr, "e2fold-fsck: warning: %s is missing: e2fsck "
			"writes %s directly, and a crash inside it can leave "
			"the filesystem worse\n", E2FOLD_OVERLAY_INSTALLED,
			ctx->opt.device);
		return run(argv, config, out, r, ret_status);
	}
	retval = fsck_overlay_create(&ov, ctx->opt.device);
	if (retval)
		return retval;
	retval = run_with(argv, config, out, r, &ov, ctx->opt.device,
			  ret_status);
	if (!retval)
		retval = fsck_overlay_apply(&ov, ctx->opt.device, undo, &how,
					    &transactions);
	if (retval)
		com_err("e2fold-fsck", retval, "while writing e2fsck's repairs "
			"to %s", ctx->opt.device);
	/* Kept after a failed apply: the next run finishes what it began. */
	if (!retval || !ov.persistent)
		fsck_overlay_remove(&ov);
	return retval;
}

errcode_t fsck_find_e2fsck(struct fsck_ctx *ctx)
{
	char *argv[3];
	char line[256] = "";
	FILE *out;
	int status, maj = 0, min = 0;
	errcode_t retval;

	ctx->e2fsck_path = find_on_path(ctx->opt.e2fsck ? ctx->opt.e2fsck :
					"e2fsck");
	if (!ctx->e2fsck_path)
		return ENOENT;
	argv[0] = ctx->e2fsck_path;
	argv[1] = "-V";
	argv[2] = NULL;
	out = tmpfile();
	if (!out)
		return errno;
	retval = run(argv, "/dev/null", out, NULL, &status);
	rewind(out);
	if (!retval && (!fgets(line, sizeof(line), out) ||
			sscanf(line, "e2fsck %d.%d", &maj, &min) != 2))
		retval = EXT2_ET_UNIMPLEMENTED;
	fclose(out);
	if (retval)
		return retval;
	line[strcspn(line, "\n")] = '\0';
	snprintf(ctx->e2fsck_version, sizeof(ctx->e2fsck_version), "%s", line);
	/* Per-problem answers and the problem log came in 1.46. */
	if (maj < 1 || (maj == 1 && min < 46))
		return EXT2_ET_UNIMPLEMENTED;
	return 0;
}

/* Copy the user's e2fsck configuration, then e2fold's part. */
static int write_config(const char *file, const char *problem_log)
{
	const char *user = getenv("E2FSCK_CONFIG");
	FILE *f = fopen(file, "w"), *in;
	size_t i;

	if (!f)
		return errno;
	in = fopen(user ? user : "/etc/e2fsck.conf", "r");
	if (in) {
		char buf[4096];
		size_t n;

		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, f);
		fclose(in);
		fputc('\n', f);
	}
	fprintf(f, "# Added by e2fold-fsck: names and hash trees are e2fold's.\n"
		"[options]\n\tproblem_log_filename = %s\n[problems]\n",
		problem_log);
	for (i = 0; i < COUNT(owned); i++)
		fprintf(f, "\t0x%06x = {\n\t\tforce_no = true\n"
			"\t\tno_nomsg = true\n\t\tno_ok = true\n"
			"\t\tpreen_ok = true\n\t}\n", owned[i]);
	if (fclose(f))
		return errno;
	return 0;
}

/* Count the problems of the log that e2fsck did not fix and did not own. */
static void read_problem_log(const char *file, struct e2fsck_run *res)
{
	FILE *f = fopen(file, "r");
	char line[1024];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned int code;
		int answer;
		const char *p = strstr(line, "<problem code=\"0x");

		if (!p || sscanf(p, "<problem code=\"0x%x\" answer=\"%d\"",
				 &code, &answer) != 2)
			continue;
		if (is_owned(code)) {
			res->handed_over++;
		} else {
			res->problems++;
			if (!strstr(line, "fixed=\"1\"") && !answer)
				res->left++;
		}
	}
	fclose(f);
}

/* The flag that gives e2fsck the run's mode. */
static char *mode_flag(const struct fsck_ctx *ctx, int check_only)
{
	if (check_only || ctx->opt.mode == MODE_NO)
		return "-n";
	if (ctx->opt.mode == MODE_YES)
		return "-y";
	if (ctx->opt.mode == MODE_PREEN)
		return "-p";
	return NULL;		/* e2fsck asks the user */
}

/*
 * Run e2fsck -f on device (the filesystem, or a copy of its metadata)
 * with mode (NULL: ask), its output into out (NULL: to the user), its
 * undo file with -z if undo_ok, its progress relayed if progress (not
 * for the judge, whose passes would come after e2fold's).
 */
static errcode_t run_e2fsck(struct fsck_ctx *ctx, const char *device,
			    char *mode, int undo_ok, int progress, FILE *out,
			    struct e2fsck_run *res)
{
	char dir[PATH_MAX], config[PATH_MAX + 16], log[PATH_MAX + 16];
	char undo[4096], sb[32], bs[32], cfd[16];
	char *argv[18 + FSCK_MAX_E2FSCK_ARGS];
	const char *undo_path = NULL;
	int argc = 0, status, i, writing, overlaid;
	struct progress_relay relay = { .ctx = ctx, .fds = { -1, -1 } };
	errcode_t retval;

	memset(res, 0, sizeof(*res));
	retval = e2fold_make_temp_dir(dir, sizeof(dir), "e2fold-fsck");
	if (retval)
		return retval;
	snprintf(config, sizeof(config), "%s/e2fsck.conf", dir);
	snprintf(log, sizeof(log), "%s/problems.xml", dir);
	retval = write_config(config, log);
	if (retval)
		goto out;
	argv[argc++] = ctx->e2fsck_path;
	if (mode)
		argv[argc++] = mode;
	argv[argc++] = "-f";
	/* -v: e2fsck's statistics too, but not from the quiet judge. */
	if (ctx->opt.verbose && !out)
		argv[argc++] = "-v";
	if (ctx->opt.check_encoding)
		argv[argc++] = "-Echeck_encoding";
	/* The superblock e2fold uses, until e2fsck has restored the primary. */
	if (ctx->backup_sb && !ctx->primary_restored) {
		snprintf(sb, sizeof(sb), "%llu",
			 (unsigned long long)ctx->backup_sb);
		snprintf(bs, sizeof(bs), "%u", ctx->backup_bs);
		argv[argc++] = "-b";
		argv[argc++] = sb;
		argv[argc++] = "-B";
		argv[argc++] = bs;
	}
	writing = device == ctx->opt.device && (!mode || strcmp(mode, "-n"));
	overlaid = writing && fsck_overlay_library();
	if (ctx->opt.undo_file && undo_ok && fsck_may_write(ctx)) {
		snprintf(undo, sizeof(undo), "%s.e2fsck", ctx->opt.undo_file);
		undo_path = undo;
		if (!overlaid) {
			argv[argc++] = "-z";
			argv[argc++] = undo;
		}
	}
	if (progress && ctx->opt.progress_fd >= 0 && !pipe(relay.fds)) {
		snprintf(cfd, sizeof(cfd), "%d", relay.fds[1]);
		argv[argc++] = "-C";
		argv[argc++] = cfd;
	}
	/* The user's e2fsck options: for the run on the device, not the judge. */
	if (device == ctx->opt.device && (undo_ok || progress))
		for (i = 0; i < ctx->opt.n_e2fsck_args; i++)
			argv[argc++] = (char *)ctx->opt.e2fsck_args[i];
	argv[argc++] = (char *)device;
	argv[argc] = NULL;
	if (writing)
		retval = run_writing(ctx, argv, config, out,
				     relay.fds[0] >= 0 ? &relay : NULL,
				     overlaid ? undo_path : NULL, &status);
	else
		retval = run(argv, config, out,
			     relay.fds[0] >= 0 ? &relay : NULL, &status);
	if (retval)
		goto out;
	res->status = status;
	read_problem_log(log, res);
	/*
	 * Some problems may be declined without harm (a last mount time a
	 * few seconds ahead of this clock, from a VM or another host):
	 * e2fsck logs the "no" but still counts the filesystem as clean.
	 * Its exit status says whether anything that matters was left.
	 */
	if (!(status & FSCK_UNCORRECTED))
		res->left = 0;
out:
	unlink(config);
	unlink(log);
	rmdir(dir);
	return retval;
}

errcode_t fsck_replay_journal(struct fsck_ctx *ctx, int *ret_status)
{
	char undo[4096];
	char *argv[7];
	char *mode = mode_flag(ctx, 0);
	int argc = 0, overlaid = fsck_overlay_library() != NULL;

	argv[argc++] = ctx->e2fsck_path;
	if (mode)
		argv[argc++] = mode;
	argv[argc++] = "-Ejournal_only";
	if (ctx->opt.undo_file)
		snprintf(undo, sizeof(undo), "%s.journal", ctx->opt.undo_file);
	if (ctx->opt.undo_file && !overlaid) {
		argv[argc++] = "-z";
		argv[argc++] = undo;
	}
	argv[argc++] = (char *)ctx->opt.device;
	argv[argc] = NULL;
	if (mode && !strcmp(mode, "-n"))
		return run(argv, NULL, NULL, NULL, ret_status);
	return run_writing(ctx, argv, NULL, NULL, NULL,
			   ctx->opt.undo_file && overlaid ? undo : NULL,
			   ret_status);
}

/* Copy e2fsck's output in to dest, naming `to` where it named `from`. */
static void copy_output(FILE *in, FILE *dest, const char *from,
			const char *to)
{
	char line[4096];
	size_t flen = strlen(from);

	rewind(in);
	while (fgets(line, sizeof(line), in)) {
		char *p = line, *hit;

		while (flen && (hit = strstr(p, from))) {
			fwrite(p, 1, hit - p, dest);
			fputs(to, dest);
			p = hit + flen;
		}
		fputs(p, dest);
	}
}

/* e2image of the same e2fsprogs as e2fsck: beside it, or on PATH. */
static char *find_e2image(const struct fsck_ctx *ctx)
{
	const char *slash = strrchr(ctx->e2fsck_path, '/');
	char *cand = malloc(strlen(ctx->e2fsck_path) + 16);

	if (cand && slash) {
		sprintf(cand, "%.*se2image", (int)(slash - ctx->e2fsck_path + 1),
			ctx->e2fsck_path);
		if (!access(cand, X_OK))
			return cand;
	}
	free(cand);
	return find_on_path("e2image");
}

/*
 * A sparse copy of the filesystem's metadata (directories included) in
 * snap, with the nodes e2fsck misreads in its layout (misread.c), and
 * utf8-12.1 where the device keeps an encoding e2fsck refuses.
 */
static errcode_t make_snapshot(struct fsck_ctx *ctx, const char *snap)
{
	char *argv[5];
	char *e2image = find_e2image(ctx);
	FILE *out = tmpfile();
	ext2_filsys fs = NULL;
	int status = 0;
	errcode_t retval = out ? 0 : errno;

	if (!e2image)
		retval = ENOENT;
	if (!retval) {
		argv[0] = e2image;
		argv[1] = "-r";
		argv[2] = (char *)ctx->opt.device;
		argv[3] = (char *)snap;
		argv[4] = NULL;
		retval = run(argv, NULL, out, NULL, &status);
	}
	if (!retval && status) {
		copy_output(out, stdout, "", "");
		retval = EXT2_ET_SHORT_READ;
	}
	if (!retval)
		retval = ext2fs_open2(snap, NULL, EXT2_FLAG_RW | EXT2_FLAG_64BITS |
				      EXT2_FLAG_IGNORE_CSUM_ERRORS, 0, 0,
				      unix_io_manager, &fs);
	if (!retval)
		retval = fsck_show_nodes_to_e2fsck(ctx, fs);
	/* An encoding e2fsck refuses, kept on the device (super.c). */
	if (!retval && ctx->e2fsck_needs_encoding) {
		fs->super->s_encoding = E2FOLD_ENC_UTF8_12_1;
		ext2fs_mark_super_dirty(fs);
	}
	if (fs) {
		errcode_t r = ext2fs_close_free(&fs);

		if (!retval)
			retval = r;
	}
	if (out)
		fclose(out);
	free(e2image);
	return retval;
}

/* e2fsck -fn on the snapshot; its output, naming the device, into out. */
static errcode_t check_snapshot(struct fsck_ctx *ctx, int progress, FILE *out,
				struct e2fsck_run *res)
{
	char dir[PATH_MAX], snap[PATH_MAX + 16];
	FILE *raw = tmpfile();
	errcode_t retval;

	if (!raw)
		return errno;
	retval = e2fold_make_temp_dir(dir, sizeof(dir), "e2fold-snapshot");
	if (retval) {
		fclose(raw);
		return retval;
	}
	snprintf(snap, sizeof(snap), "%s/metadata.img", dir);
	retval = make_snapshot(ctx, snap);
	if (!retval)
		retval = run_e2fsck(ctx, snap, "-n", 0, progress, raw, res);
	if (!retval)
		copy_output(raw, out, snap, ctx->opt.device);
	unlink(snap);
	rmdir(dir);
	fclose(raw);
	return retval;
}

/* Show e2fsck the nodes in its layout on the device, for its repairs. */
static errcode_t show_on_device(struct fsck_ctx *ctx)
{
	struct problem_context pctx = { 0 };
	errcode_t retval;

	pctx.num = ctx->n_misread;
	fix_problem(ctx, PR_0_E2FSCK_REPAIRS, &pctx);
	retval = fsck_open_fs(ctx, ".nodes");
	if (!retval)
		retval = fsck_show_nodes_to_e2fsck(ctx, ctx->fs);
	ctx->changed = 1;
	if (fsck_close_fs(ctx) && !retval)
		retval = EXT2_ET_SHORT_WRITE;
	return retval;
}

errcode_t fsck_run_e2fsck(struct fsck_ctx *ctx, int verify,
			  struct e2fsck_run *res)
{
	FILE *out = NULL;
	errcode_t retval;

	int copy = ctx->n_misread || ctx->e2fsck_needs_encoding;

	/* Nothing e2fsck misreads or refuses: it checks the device itself. */
	if (!copy && !verify)
		return run_e2fsck(ctx, ctx->opt.device, mode_flag(ctx, 0), 1, 1,
				  NULL, res);
	/* The verification is quiet; the real run talks to the user. */
	out = tmpfile();
	if (!out)
		return errno;
	if (!copy)
		retval = run_e2fsck(ctx, ctx->opt.device, "-n", 0, 0, out, res);
	else
		retval = check_snapshot(ctx, !verify, out, res);
	if (retval)
		goto out;
	if (verify) {
		if (res->left)
			copy_output(out, stdout, "", "");
		goto out;
	}
	/*
	 * Only what e2fsck would repair needs it on the device, which it
	 * cannot open with the encoding the user chose to keep.
	 */
	if (ctx->opt.mode == MODE_NO || !res->problems ||
	    ctx->e2fsck_needs_encoding) {
		copy_output(out, stdout, "", "");
		goto out;
	}
	retval = show_on_device(ctx);
	if (!retval)
		retval = run_e2fsck(ctx, ctx->opt.device, mode_flag(ctx, 0), 1,
				    0, NULL, res);
out:
	fclose(out);
	return retval;
}

/* What the child running e2fsck sends back. */
struct job_result {
	errcode_t retval;
	struct e2fsck_run res;
};

errcode_t fsck_start_e2fsck(struct fsck_ctx *ctx, struct e2fsck_job *job)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		errcode_t retval = errno;

		close(fds[0]);
		close(fds[1]);
		return retval;
	}
	if (pid == 0) {
		struct job_result r;

		memset(&r, 0, sizeof(r));
		close(fds[0]);
		r.retval = fsck_run_e2fsck(ctx, 0, &r.res);
		fflush(stdout);
		/* One write under PIPE_BUF: whole, or not at all. */
		if (write(fds[1], &r, sizeof(r)) != sizeof(r))
			_exit(FSCK_ERROR);
		_exit(0);
	}
	close(fds[1]);
	job->pid = pid;
	job->fd = fds[0];
	fsck_set_child(pid);
	return 0;
}

errcode_t fsck_wait_e2fsck(struct e2fsck_job *job, struct e2fsck_run *res)
{
	struct job_result r;
	ssize_t n;
	int status;

	do
		n = read(job->fd, &r, sizeof(r));
	while (n < 0 && errno == EINTR);
	close(job->fd);
	while (waitpid(job->pid, &status, 0) < 0 && errno == EINTR)
		;
	fsck_set_child(0);
	if (n != sizeof(r))
		return ECHILD;
	*res = r.res;
	return r.retval;
}
