/*
 * run.c: e2fold-mkfs, the program (mkfs_main); e2fold-mkfs.c only calls it.
 *
 * e2fold-mkfs: make an ext4 filesystem, casefolded where asked, and
 * populate it from a directory or an archive with every name hashed as
 * Linux hashes it and every casefold collision found before writing.
 *
 * The order of work is the promise to the user: parse, look at the
 * target, plan the filesystem, read and check the whole source; only
 * then create the target (if it is a new file) and write. A refusal or a
 * problem in the source leaves the target as it was.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <et/com_err.h>

#include "casefold.h"
#include "cfname.h"
#include "create.h"
#include "dryrun_io.h"
#include "encoding.h"
#include "layout.h"
#include "mkfs.h"
#include "openfs.h"
#include "options.h"
#include "plan.h"
#include "populate.h"
#include "precheck.h"
#include "source_report.h"
#include "source.h"
#include "summary.h"
#include "target.h"
#include "tree.h"

const char *mkfs_prog = "e2fold-mkfs";

struct run {
	struct mkfs_options opt;
	struct mkfs_target target;
	struct mkfs_plan plan;
	struct mkfs_tree tree;
	struct mkfs_source src;
	struct mkfs_precheck pc;
	struct unicode_map *um;
	size_t casefolded_dirs;
	ext2_filsys fs;
	struct e2fold_progress progress;	/* --progress */
};

static int has_casefold(struct run *r)
{
	return ext2fs_has_feature_casefold(&r->plan.param);
}

/*
 * /lost+found is the filesystem's, not the source's: a source directory
 * of that name at the top is merged into it, anything else is refused.
 */
static errcode_t reserve_lost_found(struct run *r)
{
	static const unsigned char name[] = "lost+found";
	struct mkfs_node *node = mkfs_tree_child(&r->tree, r->tree.root, name,
						 sizeof(name) - 1);
	char buf[E2FOLD_ESCAPED_SIZE(PATH_MAX)];
	errcode_t retval;

	if (node && node->kind != MKFS_DIR) {
		com_err(mkfs_prog, 0, "%s: not a directory, but the filesystem "
			"needs /lost+found", mkfs_source_describe(&r->src, node,
					buf, sizeof(buf)));
		return EXT2_ET_INVALID_ARGUMENT;
	}
	if (!node) {
		retval = mkfs_tree_add(&r->tree, r->tree.root, name,
				       sizeof(name) - 1, MKFS_DIR, &node);
		if (retval)
			return retval;
		node->implicit = 1;
	}
	node->reserved = 1;
	node->src_casefold = 0;
	return 0;
}

static errcode_t load_encoding(struct run *r)
{
	const struct e2fold_encoding *enc;

	if (!has_casefold(r))
		return 0;
	enc = e2fold_encoding_by_magic(r->plan.param.s_encoding);
	r->um = e2fold_load_encoding(enc);
	if (!r->um) {
		com_err(mkfs_prog, EXT2_ET_NO_MEMORY, "while loading the %s "
			"encoding", enc ? enc->name : "filename");
		return EXT2_ET_NO_MEMORY;
	}
	return 0;
}

/* Read and check the source; rename or stop as asked. */
static errcode_t read_source(struct run *r)
{
	int strict = r->plan.param.s_encoding_flags & E2FOLD_ENC_STRICT_FL;
	int rename = r->opt.collisions == E2FOLD_COLLISIONS_RENAME;
	errcode_t retval = 0;

	if (r->opt.source) {
		retval = mkfs_source_scan(r->opt.source, r->opt.device,
					  r->opt.progress_fd >= 0 ?
					  &r->progress : NULL, &r->src,
					  &r->tree);
		e2fold_progress_break(&r->progress);
		if (!retval)
			retval = reserve_lost_found(r);
		mkfs_tree_sort(&r->tree);
	}
	if (!retval)
		retval = mkfs_mark_casefold(&r->tree, &r->opt, r->opt.source ?
					    &r->src : NULL, has_casefold(r),
					    &r->casefolded_dirs);
	if (retval || !r->opt.source || !r->casefolded_dirs)
		return retval;
	retval = mkfs_precheck(&r->tree, r->um, strict, rename, &r->pc);
	if (retval) {
		com_err(mkfs_prog, retval, "while checking the names of %s",
			r->opt.source);
		return retval;
	}
	if (r->pc.nproblems && !rename) {
		mkfs_report_problems(stderr, &r->pc, &r->src);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	/* -q hides progress, never a change to the user's names. */
	mkfs_report_renames(stdout, &r->pc, &r->src);
	return 0;
}

static errcode_t write_report(struct run *r, int written, const char *error)
{
	const struct e2fold_encoding *enc = has_casefold(r) ?
		e2fold_encoding_by_magic(r->plan.param.s_encoding) : NULL;
	struct mkfs_report_info info = {
		.source = r->opt.source,
		.encoding = enc ? enc->name : NULL,
		.encoding_flags = r->plan.param.s_encoding_flags,
		.rename = r->opt.collisions == E2FOLD_COLLISIONS_RENAME,
		.casefolded_dirs = r->casefolded_dirs,
		.written = written,
		.error = error,
	};

	if (!r->opt.report_path)
		return 0;
	return mkfs_report_json(r->opt.report_path, &r->pc, &info);
}

/*
 * Every inode the source needs must fit: found here, before writing,
 * rather than in the middle of copying. (Blocks are not counted ahead:
 * holes and blocks of zeros make a file smaller than its size.)
 */
static errcode_t check_inodes(struct run *r, ext2_filsys fs)
{
	size_t need = mkfs_tree_inodes(&r->tree);
	/* Inodes below s_first_ino are reserved; /lost+found takes the first. */
	size_t have = fs->super->s_inodes_count - EXT2_FIRST_INO(fs->super);

	if (need <= have)
		return 0;
	com_err(mkfs_prog, 0, "%s needs %zu inodes, but %s would have %zu "
		"free; give -N or a smaller -i", r->opt.source, need,
		r->opt.device, have);
	return EXT2_ET_TOO_MANY_INODES;
}

/* -n: lay the filesystem out in memory only, and say what it would be. */
static errcode_t dry_run(struct run *r)
{
	errcode_t retval = mkfs_create(r->opt.device, &r->plan, r->opt.label,
				       mkfs_dryrun_io_manager, 0, &r->fs);

	if (retval)
		return retval;
	retval = check_inodes(r, r->fs);
	if (!retval) {
		mkfs_summary_fs(stdout, r->fs, 1);
		if (r->opt.source)
			mkfs_summary_tree(stdout, &r->tree);
	}
	ext2fs_free(r->fs);
	r->fs = NULL;
	return retval;
}

static errcode_t populate(struct run *r, ext2_ino_t lost_found)
{
	struct mkfs_populate p = {
		.fs = r->fs, .src = &r->src, .um = r->um,
		.lost_found = lost_found,
		.keep_root_owner = r->opt.have_root_owner,
		.no_xattrs = r->opt.no_copy_xattrs,
		.root_uid = r->plan.root_uid, .root_gid = r->plan.root_gid,
		.progress = r->opt.progress_fd >= 0 ? &r->progress : NULL,
	};
	/* A bar takes the line: the words follow it, with "done". */
	int bar = r->opt.progress_fd == 0;
	errcode_t retval;

	if (!r->opt.quiet && !bar) {
		fputs("Copying files into the filesystem: ", stdout);
		fflush(stdout);
	}
	retval = mkfs_populate(&p, &r->tree);
	e2fold_progress_end(&r->progress);
	if (!retval && !r->opt.quiet) {
		puts(bar ? "Copying files into the filesystem: done" : "done");
		mkfs_summary_populated(stdout, &p);
	}
	return retval;
}

/*
 * The device's I/O: with -z, through an undo manager that saves every
 * block the first time it is overwritten (written through, so that a
 * killed run can be undone too; lib/support/openfs.h), and no discard,
 * which no undo file could give back.
 */
static errcode_t writing_manager(struct run *r, io_manager *io)
{
	errcode_t retval = e2fold_writing_io_manager(r->opt.undo_file, io);

	if (retval) {
		com_err(mkfs_prog, retval, "while setting up the undo file %s",
			r->opt.undo_file);
		return retval;
	}
	if (r->opt.undo_file) {
		r->plan.discard = 0;
		if (!r->opt.quiet)
			printf("The blocks this overwrites are saved in %s: "
			       "e2undo %s %s puts them back.\n\n",
			       r->opt.undo_file, r->opt.undo_file,
			       r->opt.device);
	}
	return 0;
}

/*
 * Create the target if it is a new file, and choose its io manager. An
 * Android sparse image (-E android_sparse) is the sparse io manager's to
 * create: it writes the file whole when closed.
 */
static errcode_t open_target(struct run *r, struct mkfs_layout *layout,
			     io_manager *io)
{
	errcode_t retval;

	if (r->plan.android_sparse) {
		*io = sparse_io_manager;
		return 0;
	}
	if (!r->target.exists) {
		retval = mkfs_target_create(&r->target,
					   r->plan.offset + r->plan.bytes);
		if (retval)
			return retval;
		layout->target_has_data = 1;
	}
	return writing_manager(r, io);
}

static errcode_t make_filesystem(struct run *r)
{
	io_manager io;
	struct mkfs_layout layout = {
		.plan = &r->plan,
		.target_has_data = r->target.size_bytes > 0,
		.root_casefold = r->tree.root->casefold,
		.quiet = r->opt.quiet,
		.bad_blocks_file = r->opt.bad_blocks_file,
		.check_blocks = r->opt.check_blocks,
		.super_only = r->opt.super_only,
	};
	errcode_t retval;

	retval = open_target(r, &layout, &io);
	if (!retval)
		retval = mkfs_create(r->opt.device, &r->plan, r->opt.label, io,
				     r->opt.direct_io ? EXT2_FLAG_DIRECT_IO : 0,
				     &r->fs);
	if (!retval)
		retval = check_inodes(r, r->fs);
	if (retval)
		return retval;
	if (!r->opt.quiet)
		mkfs_summary_fs(stdout, r->fs, 0);
	retval = mkfs_layout_write(r->fs, &layout);
	if (!retval && r->opt.source)
		retval = populate(r, layout.lost_found);
	if (!retval && !r->opt.quiet) {
		fputs("Writing superblocks and filesystem accounting "
		      "information: ", stdout);
		fflush(stdout);
	}
	if (!retval) {
		retval = ext2fs_close_free(&r->fs);
		if (retval)
			com_err(mkfs_prog, retval, "while writing out and "
				"closing %s", r->opt.device);
	}
	if (!retval && !r->opt.quiet)
		puts("done\n");
	return retval;
}

/*
 * -O quota: the system tune2fs makes the quota inodes (tune2fs -Q with
 * the types of -E quotatype=), as the system libext2fs lacks libquota.
 * It runs on the written filesystem and counts what -d put there. Its
 * banner goes to /dev/null.
 */
static errcode_t add_quota(struct run *r)
{
	static const char *const paths[] = {
		"tune2fs", "/usr/sbin/tune2fs", "/sbin/tune2fs",
	};
	const char *types = r->plan.quota_types;
	int status;
	pid_t pid;
	size_t i;

	if (!types[0])
		return 0;
	if (!r->opt.quiet)
		printf("Adding quota inodes (%s) with tune2fs: ", types);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
			execvp(paths[i], (char *const[]){ (char *)paths[i],
				"-Q", (char *)types, (char *)r->opt.device,
				NULL });
		fprintf(stderr, "%s: cannot run tune2fs: %s\n", mkfs_prog,
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		com_err(mkfs_prog, 0, "tune2fs -Q %s %s failed; the filesystem "
			"was made without quota", types, r->opt.device);
		return EXT2_ET_OP_NOT_SUPPORTED;
	}
	if (!r->opt.quiet)
		puts("done");
	return 0;
}

/*
 * A run that stopped: the report (--report) still says so, with the
 * stage and libext2fs's words for the error, so that a script finds one.
 */
static void report_failure(struct run *r, const char *stage,
			   errcode_t retval)
{
	char error[256];

	snprintf(error, sizeof(error), "%s: %s", stage,
		 r->pc.nproblems && retval == EXT2_ET_INVALID_ARGUMENT ?
		 "names collide or are invalid" : error_message(retval));
	write_report(r, 0, error);
}

static errcode_t run(struct run *r, int argc, char **argv)
{
	const char *stage = "checking the device";
	errcode_t retval;

	retval = mkfs_parse_options(argc, argv, &r->opt);
	if (retval)
		return retval;	/* a usage error: no report, as e2fold-fsck */
	e2fold_progress_init(&r->progress, r->opt.progress_fd, r->opt.device);
	retval = mkfs_target_inspect(r->opt.device, r->opt.force, &r->target);
	if (!retval) {
		stage = "planning the filesystem";
		retval = mkfs_plan_make(&r->opt, &r->target, &r->plan);
	}
	if (!retval)
		retval = load_encoding(r);
	if (!retval)
		retval = mkfs_tree_init(&r->tree);
	if (!retval) {
		stage = "reading the source";
		retval = read_source(r);
	}
	if (retval) {
		report_failure(r, stage, retval);
		return retval;
	}
	if (r->opt.noaction) {
		retval = dry_run(r);
		if (retval)
			report_failure(r, "laying the filesystem out", retval);
		else
			retval = write_report(r, 0, NULL);
		return retval;
	}
	retval = make_filesystem(r);
	if (retval) {
		if (r->fs)
			ext2fs_free(r->fs);
		r->fs = NULL;
		mkfs_target_discard_created(&r->target);
		report_failure(r, "making the filesystem", retval);
		return retval;
	}
	retval = add_quota(r);
	if (retval) {
		report_failure(r, "adding quota", retval);
		return retval;
	}
	return write_report(r, 1, NULL);
}

int mkfs_main(int argc, char **argv)
{
	struct run r;
	errcode_t retval;

	memset(&r, 0, sizeof(r));
	/* Once per process: add_error_table() would grow a list each run. */
	initialize_ext2_error_table();
	optind = 1;	/* mkfs_main may run more than once in a process */
	retval = run(&r, argc, argv);
	mkfs_precheck_free(&r.pc);
	mkfs_tree_free(&r.tree);
	mkfs_source_free(&r.src);
	utf8_unload(r.um);
	mkfs_free_options(&r.opt);
	return retval ? MKFS_EXIT_ERROR : MKFS_EXIT_OK;
}
