/*
 * fsck_report.h: the JSON report (--report FILE): every finding with the
 * answer it got, and every change made, losslessly (names also as hex).
 */
#ifndef E2FOLD_REPORT_H
#define E2FOLD_REPORT_H

#include "e2fsck.h"
#include "problem.h"

struct report;

/* NULL when no report was asked for; the functions accept NULL. */
struct report *report_new(void);
/*
 * Why the check could not be made or stopped (opening failed, e2fsck
 * could not be run...), printf-style; only the first is kept. The
 * report then holds it as "error", so that a script always finds one.
 */
void report_error(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void report_finding(struct report *r, struct fsck_ctx *ctx, int code,
		    const struct problem_context *pctx, const char *message,
		    int fixed);
void report_rename(struct report *r, struct fsck_ctx *ctx, ext2_ino_t dir,
		   ext2_ino_t ino, const unsigned char *old_name,
		   unsigned int old_len, const unsigned char *new_name,
		   unsigned int new_len);
/* An entry taken out; relinked: its inode went to /lost+found as "#INO". */
void report_drop(struct report *r, struct fsck_ctx *ctx, ext2_ino_t dir,
		 ext2_ino_t ino, const unsigned char *name, unsigned int len,
		 int relinked);
void report_rebuild(struct report *r, struct fsck_ctx *ctx, ext2_ino_t dir,
		    size_t entries, int casefolded);
void report_flag(struct report *r, struct fsck_ctx *ctx, const char *what,
		 ext2_ino_t ino, __u64 old_value, __u64 new_value);
struct e2fsck_run;
/* What a run of the system e2fsck found ("repair" or "verify"). */
void report_e2fsck(struct report *r, const char *phase, const char *version,
		   const struct e2fsck_run *res);
/* Write the report; 0 or errno. */
int report_write(struct report *r, struct fsck_ctx *ctx, const char *file,
		 int exit_status);
void report_free(struct report *r);

#endif /* E2FOLD_REPORT_H */
