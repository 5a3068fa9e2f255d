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

#endif /* E2FOLD_EXTERNAL_H */
