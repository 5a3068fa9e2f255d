/*
 * e2fsck.h: the state of one e2fold-fsck run, shared by its passes.
 *
 * The passes, in order:
 *   scan     read every inode once; note directories (casefolded or
 *            not) and casefold flags where they do not belong (scan.c)
 *   pass 0   the superblock: encoding, flags, feature (super.c)
 *   pass 1   inode flags (pass1.c)
 *   pass 2   names and hash trees of every directory: validity and
 *            duplicates under casefolding where it applies, bytes
 *            elsewhere; index structure, checksums and placement
 *            (pass2.c)
 *   pass 3   rebuild the directories pass 2 changed (rehash.c)
 * e2fold owns directory names and hash trees; the system e2fsck, run
 * between pass 0 and pass 1 (external.c), owns everything else.
 * Checking code never prints or decides: it fills a problem_context and
 * asks fix_problem() (problem.c), which knows -n/-y/-p and the report.
 */
#ifndef E2FOLD_E2FSCK_H
#define E2FOLD_E2FSCK_H

#include <stdio.h>
#include <sys/types.h>
#include <ext2fs/ext2fs.h>

#include "unicode.h"

/* Exit codes, as e2fsck's. */
#define FSCK_OK 0
#define FSCK_NONDESTRUCT 1	/* errors corrected */
#define FSCK_UNCORRECTED 4	/* errors left */
#define FSCK_ERROR 8		/* operational error */
#define FSCK_USAGE 16
#define FSCK_CANCELED 32

enum fsck_mode {
	MODE_ASK,		/* ask on the terminal */
	MODE_NO,		/* -n: read-only, answer no */
	MODE_YES,		/* -y */
	MODE_PREEN,		/* -p: fix what is safe, stop otherwise */
};

#define FSCK_MAX_E2FSCK_ARGS 48

struct fsck_options {
	const char *device;
	enum fsck_mode mode;
	int force;		/* -f */
	int verbose;		/* -v */
	int progress_fd;	/* -C fd; -1 none */
	int check_encoding;	/* -E check_encoding: validate non-strict names */
	int verify;		/* -E verify: e2fsck -fn judges a repair */
	blk64_t superblock;	/* -b: a backup superblock; 0 the primary */
	unsigned int blocksize;	/* -B: its block size; 0 any */
	const char *undo_file;	/* -z */
	const char *report_file;	/* --report */
	const char *e2fsck;	/* --e2fsck: which e2fsck to run */
	int no_e2fsck;		/* --no-e2fsck: names and hash trees only */
	/*
	 * e2fsck's own options, handed to its run on the device as given
	 * (-c -k -t -d -F -l -L -j -I -P, -E keys e2fold has nothing to add
	 * to): e2fold checks nothing they change.
	 */
	const char *e2fsck_args[FSCK_MAX_E2FSCK_ARGS];
	int n_e2fsck_args;
	char e2fsck_extended[1024];	/* their -E keys, joined with ',' */
	int journal_only;	/* -E journal_only: e2fsck replays, that is all */
	int optimize_dirs;	/* -D (handed to e2fsck too) */
	int badblocks_list;	/* -l or -L (handed to e2fsck) */
};

/* A rename pass 2 plans, and the planner (renameplan.h). */
struct e2fold_rename_plan;
struct e2fold_renameplan;

/*
 * A directory entry pass 2 takes out: the second of two entries with one
 * encrypted name, which cannot be renamed without the key (relink.c).
 */
struct entry_drop {
	size_t entry;			/* index in the directory's entries */
	size_t kept;			/* the entry with its name that stays */
	ext2_ino_t ino;
	int file_type;
	int relinked;			/* its inode was linked into /lost+found */
};

/* A directory found by the scan. */
struct scanned_dir {
	ext2_ino_t ino;
	int casefolded;
	int encrypted;
	int indexed;
	int rebuild;		/* pass 1 wants the index rebuilt */
	int skip;		/* casefolded without the feature: not checked */
};

/* What the passes counted: a re-check saves and restores it whole. */
struct fsck_tally {
	unsigned long dirs_checked, cf_dirs_checked, entries_checked;
	unsigned long names_folded;	/* entries of casefolded directories */
	unsigned long duplicates;	/* names equal to an earlier one */
	unsigned long misplaced;	/* entries not where their hash leads */
};

struct fsck_ctx {
	struct fsck_options opt;
	const char *prog;
	ext2_filsys fs;
	char *e2fsck_path;		/* NULL: e2fold runs alone */
	int use_e2fsck;			/* an e2fsck good enough was found */
	char e2fsck_version[64];
	/*
	 * The backup superblock in use (-b, or found when the primary
	 * could not be read), handed to e2fsck too; 0 once the primary
	 * serves again (e2fsck wrote it from the backup).
	 */
	blk64_t backup_sb;
	unsigned int backup_bs;
	int primary_restored;		/* e2fsck repaired from the backup */
	int e2fsck_done;		/* its run (not the judge) is over */
	int rechecking;			/* re-reading what e2fold wrote */
	/*
	 * Where findings and headers go (NULL: stdout): a temporary file
	 * while e2fold's read-only passes run alongside e2fsck, whose
	 * output goes to the terminal first.
	 */
	FILE *out;
	size_t progress_dir;		/* pass 2's directory, for progress */

	/*
	 * Pass 0 runs before e2fsck and again after it: a finding asked
	 * the first time keeps its answer, unasked (bits by the code's
	 * serial). feature_missing: the casefold feature was found missing
	 * and not set, which every later finding about it repeats.
	 */
	unsigned int pass0_asked, pass0_yes;
	int feature_missing;
	/*
	 * e2fsck refuses the encoding, which -n (or a "no") kept: it checks
	 * a copy of the metadata with utf8-12.1 instead (external.c).
	 */
	int e2fsck_needs_encoding;

	/* Encoding of the filesystem, once pass 0 accepts it. */
	struct unicode_map *um;
	int strict;
	int no_fallback;		/* no_compat_fallback is set */

	/* Found by the scan: every directory, casefolded or not. */
	struct scanned_dir *dirs;
	size_t n_dirs;
	size_t n_cf_dirs;		/* how many of them are casefolded */
	ext2_ino_t *cf_nondirs;		/* non-directories with the flag */
	size_t n_cf_nondirs;

	/* Index nodes e2fsck misreads (misread.h). */
	struct misread_node *misread;
	size_t n_misread, misread_cap;
	/* Outcome. */
	int changed;			/* a byte was written */
	int errors_left;		/* a problem was not fixed */
	int aborted;			/* a fatal problem stopped the check */
	int cancelled;			/* SIGINT or SIGTERM: its number */
	int may_mark_clean;		/* e2fsck left nothing: mark the fs valid */
	struct fsck_tally tally;	/* what was checked and found */
	unsigned long renamed, rebuilt;

	struct report *report;
};

/*
 * The whole program (e2fold-fsck.c calls it), kept apart from main() so that a
 * fuzzer can run it in-process, many times. Returns the exit status.
 */
int fsck_main(int argc, char **argv);

/*
 * Progress (nothing without -C), numbered across the whole run
 * (pass_helpers.c): fsck_progress for e2fold's pass N (1 the scan, 2
 * names and hash trees) at done/total; fsck_dir_progress for part/whole
 * of the directory ctx->progress_dir in pass 2; fsck_progress_step for
 * a step already numbered (e2fsck's 1 to 5, relayed); fsck_progress_end
 * ends a bar's line before other output.
 */
void fsck_progress(struct fsck_ctx *ctx, int pass, unsigned long done,
		   unsigned long total);
void fsck_dir_progress(struct fsck_ctx *ctx, unsigned long part,
		       unsigned long whole);
void fsck_progress_step(struct fsck_ctx *ctx, int pass, unsigned long done,
			unsigned long total);
void fsck_progress_end(struct fsck_ctx *ctx);
/* Before other output: end the line of a bar being drawn, if any. */
void fsck_progress_break(struct fsck_ctx *ctx);
/* Another process drew the bar (e2fsck's relay): its line may be open. */
void fsck_progress_bar_open(void);

/* Where the passes print: ctx->out, or stdout. */
FILE *fsck_out(struct fsck_ctx *ctx);

/*
 * Open the filesystem (through the undo manager with -z, into the undo
 * file with this suffix: each phase that may write keeps its own), and
 * close it, writing what changed (0, or -1 after reporting an error).
 */
errcode_t fsck_open_fs(struct fsck_ctx *ctx, const char *undo_suffix);
int fsck_close_fs(struct fsck_ctx *ctx);

/*
 * What e2fsck prints only outside preen mode (banner, pass headers,
 * progress notes): printf, or nothing with -p, where a clean check says
 * one line, as e2fsck -p does.
 */
void fsck_say(struct fsck_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * SIGINT and SIGTERM. fsck_catch_signals installs the handler, which only
 * notes the signal (and passes it on to a running e2fsck, which stops at
 * its own safe point); the check stops at the next safe point, between
 * two directories, never inside a rewrite. fsck_cancelled tells whether
 * to stop now, and records the signal in ctx->cancelled.
 * fsck_set_child names the e2fsck being run (0: none).
 */
void fsck_catch_signals(void);
int fsck_cancelled(struct fsck_ctx *ctx);
void fsck_set_child(pid_t pid);
int fsck_signal_pending(void);

/* Ask for a write to be allowed: 0 in -n mode (which never writes). */
int fsck_may_write(struct fsck_ctx *ctx);

/* Passes; each returns 0, or an errcode_t that stops the run. */
errcode_t fsck_scan(struct fsck_ctx *ctx);
errcode_t fsck_pass0(struct fsck_ctx *ctx);
errcode_t fsck_pass1(struct fsck_ctx *ctx);
errcode_t fsck_pass2(struct fsck_ctx *ctx);

struct e2fold_dir;
/*
 * Pass 2's shortcut for an indexed directory (leafcheck.c): 1 if it is
 * proven clean a run of leaves at a time (and counted as checked), 0 if
 * it must be checked whole; *ret_err is set only when out of memory.
 */
int fsck_dir_clean_by_leaves(struct fsck_ctx *ctx, struct scanned_dir *sd,
			     errcode_t *ret_err);

/*
 * The rename planner for dir's entries (pass2.c), as pass 2 plans them in
 * a directory casefolded under um (NULL: one that is not); leafcheck.c
 * proves a run of leaves clean by the same rules.
 */
errcode_t fsck_dir_planner(struct fsck_ctx *ctx, const struct e2fold_dir *dir,
			   const struct unicode_map *um,
			   struct e2fold_renameplan **ret);

/*
 * Pass 3 for one directory: rewrite it with the planned renames applied
 * and the dropped entries left out, casefolded (ctx->um) or not, or with
 * its stored hashes (encrypted); then read it back and make sure every
 * other entry is still there. dir is
 * freed here, in every case: before the directory is read back, so that
 * a directory of a million entries (about 70 MB read) is never in memory
 * twice.
 */
errcode_t fsck_rebuild_dir(struct fsck_ctx *ctx, struct e2fold_dir *dir,
			   const struct e2fold_rename_plan *plans,
			   size_t nplans,
			   const struct entry_drop *drops, size_t ndrops,
			   int casefolded, int stored_hashes);

/*
 * Taking an entry with an encrypted name out of its directory (relink.c).
 * fsck_find_lost_found: /lost+found's inode, or 0 with *ret_why saying
 * why it cannot take an inode. fsck_relink: link ino into it as "#INO"
 * (a directory's ".." follows), before the entry is removed.
 * fsck_drop_reference: the link counts once the entry is gone from dir.
 */
errcode_t fsck_find_lost_found(struct fsck_ctx *ctx, ext2_ino_t *ret_ino,
			       const char **ret_why);
errcode_t fsck_relink(struct fsck_ctx *ctx, ext2_ino_t lost_found,
		      ext2_ino_t ino, int file_type);
errcode_t fsck_drop_reference(struct fsck_ctx *ctx, ext2_ino_t dir,
			      const struct entry_drop *drop);

#endif /* E2FOLD_E2FSCK_H */
