/*
 * external.h: running the system e2fsck for what is not e2fold's (see
 * external.c for the division of labour and the problem codes involved).
 */
#ifndef E2FOLD_EXTERNAL_H
#define E2FOLD_EXTERNAL_H

#include "e2fsck.h"

/* What one e2fsck run found. */
struct e2fsck_run {
	int status;		/* its exit status */
	unsigned long problems;	/* its findings, except those left to e2fold */
	unsigned long left;	/* of which it did not fix */
	unsigned long handed_over;	/* findings left to e2fold */
};

/*
 * Find e2fsck (--e2fsck, or PATH plus /sbin) and check it is at least
 * 1.46. 0, ENOENT when there is none, or EXT2_ET_UNIMPLEMENTED when it is
 * too old or does not say its version.
 */
errcode_t fsck_find_e2fsck(struct fsck_ctx *ctx);

/*
 * Run e2fsck -f on the device (closed by e2fold meanwhile) in the run's
 * mode, or as -n when verify; verify runs are quiet unless they find
 * problems of e2fsck's own.
 */
errcode_t fsck_run_e2fsck(struct fsck_ctx *ctx, int verify,
			  struct e2fsck_run *res);

/*
 * Replay the journal: e2fsck -E journal_only in the run's mode (-p or
 * -y; asking is e2fsck's with neither), with -z FILE.journal when -z was
 * given. *ret_status is e2fsck's exit status.
 */
errcode_t fsck_replay_journal(struct fsck_ctx *ctx, int *ret_status);

/*
 * e2fsck -fn alongside e2fold's read-only passes (both only read): a
 * child process runs it as fsck_run_e2fsck(ctx, 0, ...) would, its
 * output to the terminal and its progress relayed, and sends back what
 * it found. fsck_start_e2fsck starts it; fsck_wait_e2fsck waits for it
 * and fills *res (0, or an errcode_t: it could not be run).
 */
struct e2fsck_job {
	pid_t pid;
	int fd;			/* the result comes through here */
};
errcode_t fsck_start_e2fsck(struct fsck_ctx *ctx, struct e2fsck_job *job);
errcode_t fsck_wait_e2fsck(struct e2fsck_job *job, struct e2fsck_run *res);

#endif /* E2FOLD_EXTERNAL_H */
