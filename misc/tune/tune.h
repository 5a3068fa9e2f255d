/*
 * tune.h: e2fold-tune, casefold for filesystems that already hold data.
 *
 *   e2fold-tune [-O [^]casefold] [-n] [--rebuild]
 *               [-E encoding=utf8,encoding_flags=FLAGS,collisions=stop|rename]
 *               [--casefold PATH]... [--no-casefold PATH]...
 *               [-z undo_file] [--report FILE.json] DEVICE
 *
 * The steps run in this order, each proving what it needs before it
 * changes anything: the feature (enabling it), directory conversions,
 * the feature (disabling it, once --no-casefold has run), encoding flags.
 * A step that refuses stops the run. If nothing but the superblock had
 * changed by then, nothing is written at all; once directories have been
 * written, the superblock changes they need (the feature) are kept.
 * Exit status: 0 done, 1 refused (a proof failed: nothing was changed by
 * that step or any later one), 8 error (usage, I/O, a damaged or mounted
 * filesystem).
 */
#ifndef E2FOLD_TUNE_H
#define E2FOLD_TUNE_H

#include <stdio.h>
#include <ext2fs/ext2fs.h>

#include "progress.h"
#include "unicode.h"

#define TUNE_OK 0
#define TUNE_REFUSED 1
#define TUNE_ERROR 8

struct tune_options {
	const char *device;
	int enable_casefold;		/* -O casefold or -E encoding= */
	int disable_casefold;		/* -O ^casefold */
	int set_flags;			/* -E encoding_flags= given */
	__u16 flags_cleared;		/* of them, cleared by name (noFLAG, none) */
	__u16 flags;			/* the flags wanted, exactly */
	char **to_casefold;		/* --casefold PATH */
	size_t n_to_casefold, to_casefold_cap;
	char **to_plain;		/* --no-casefold PATH */
	size_t n_to_plain, to_plain_cap;
	int rename;			/* -E collisions=rename (else stop) */
	int rebuild;			/* --rebuild misplaced directories */
	int dry_run;
	const char *undo_file;
	const char *report_file;
	int progress_fd;		/* --progress: -1 none, 0 a bar */
};

struct tune_report;

struct tune_ctx {
	struct tune_options opt;
	ext2_filsys fs;
	struct unicode_map *um;		/* the filesystem's encoding */
	struct tune_report *report;	/* NULL without --report */
	/*
	 * Directories a dry run would have uncasefolded: -O ^casefold in the
	 * same dry run judges the filesystem as if they were (NULL if none).
	 */
	ext2fs_inode_bitmap uncasefolded;
	struct e2fold_progress progress;	/* of conversions */
	int changed;			/* the superblock was changed */
	int wrote;			/* something else was written */
	int writing;			/* tune_begin_writes has run */
};

/* Parse the command line (exits on a usage error). */
void tune_parse_options(int argc, char **argv, struct tune_options *opt);

/* Steps; each returns TUNE_OK, TUNE_REFUSED or TUNE_ERROR. */
int tune_feature(struct tune_ctx *ctx);
int tune_convert(struct tune_ctx *ctx);
int tune_disable_after_convert(struct tune_ctx *ctx);
int tune_flags(struct tune_ctx *ctx);

/*
 * In-use inodes whose flags include EXT4_CASEFOLD_FL (inode numbers,
 * ascending; free the array); dirs_only: directories only.
 */
errcode_t tune_flagged_inodes(ext2_filsys fs, int dirs_only, ext2_ino_t **ret,
			      size_t *ret_count);

/* "/path/to/dir" escaped for a terminal, or "<inode N>" (free it). */
char *tune_path(ext2_filsys fs, ext2_ino_t dir);

/* Print "PATH/NAME" with both escaped. */
void tune_print_name(FILE *f, ext2_filsys fs, ext2_ino_t dir,
		     const unsigned char *name, unsigned int len);
/* The same, the name escaped exactly (cfname.h: names that print alike). */
void tune_print_name_exact(FILE *f, ext2_filsys fs, ext2_ino_t dir,
			   const unsigned char *name, unsigned int len);

struct e2fold_dir;
struct e2fold_rename_plan;

/* Why tune_rewrite_dir cannot rewrite dir as it is, or NULL. */
const char *tune_unrewritable(const struct e2fold_dir *dir);

/*
 * Print (each followed by note) and report the names of dir that a
 * strict filesystem rejects; their number. Needs ctx->um.
 */
size_t tune_show_invalid(struct tune_ctx *ctx, const struct e2fold_dir *dir,
			 const char *note);

/*
 * Before the first directory is written (idempotent; nothing in a dry
 * run): the superblock goes to disk with the changes made so far (the
 * feature being enabled) and marked as not checked, which the end of a
 * successful run undoes. A run killed after that leaves casefolded
 * directories only on a filesystem with the feature, and one that the
 * next e2fold-tune refuses to write until e2fold-fsck has checked it
 * (the on-disk bitmaps may be behind the directories). Reports errors;
 * 0 or the error.
 */
errcode_t tune_begin_writes(struct tune_ctx *ctx);

/*
 * Rewrite a directory with its entries, renamed where plans say (an
 * encrypted casefolded one only as it is, with its stored hashes), and
 * its inode flags changed by set_flags and clear_flags in the same inode
 * write that commits the new blocks (dirwrite.h).
 */
errcode_t tune_rewrite_dir(struct tune_ctx *ctx, struct e2fold_dir *dir,
			   const struct unicode_map *um,
			   const struct e2fold_rename_plan *plans,
			   size_t nplans, __u32 set_flags, __u32 clear_flags);

/*
 * An upper bound of the blocks dir takes once rewritten with plans
 * (space.c), and whether need more blocks are free: TUNE_OK, or
 * TUNE_REFUSED with a message saying it cannot what.
 */
blk64_t tune_rewrite_blocks(ext2_filsys fs, const struct e2fold_dir *dir,
			    const struct e2fold_rename_plan *plans,
			    size_t nplans);
int tune_check_space(struct tune_ctx *ctx, blk64_t need, const char *what);

/*
 * The report (tune_report.c). A finding is what a proof found (whether or not
 * it stopped the run); a change is what was written, or in a dry run
 * what would have been. Each object gets "dir_inode"/"dir_path" when dir
 * is not 0, and "inode" when ino is not 0.
 */
struct e2fold_json;
struct tune_report *tune_report_new(void);
void tune_report_free(struct tune_report *r);
/* Start an object of kind ("finding"/"change") what; fill it, then add. */
void tune_report_begin(struct tune_ctx *ctx, struct e2fold_json *o,
		       const char *kind, const char *what, ext2_ino_t dir,
		       ext2_ino_t ino);
void tune_report_add_finding(struct tune_ctx *ctx, struct e2fold_json *o);
void tune_report_add_change(struct tune_ctx *ctx, struct e2fold_json *o);
/* Forget the changes: the run wrote none of them. */
void tune_report_drop_changes(struct tune_ctx *ctx);
/* Write the report file; 0 or an errno. */
int tune_report_write(struct tune_ctx *ctx, int exit_status);
/* Why the run stopped before its steps, for the report's "error". */
void tune_report_error(struct tune_ctx *ctx, const char *error);

#endif /* E2FOLD_TUNE_H */
