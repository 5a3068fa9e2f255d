/*
 * problem.h: every problem e2fold-fsck knows, by code.
 *
 * A code is 0xPPSNNN as in e2fsck: pass, sub-pass, serial. The table in
 * problem.c holds each problem's message, prompt and policy; checking code
 * fills a problem_context and calls fix_problem(), which prints (or not,
 * in preen mode), asks or answers by -n/-y/-p, records the finding in the
 * report, and returns whether to fix.
 *
 * Message expansions:
 *   %d dir inode     %p dir path      %i entry inode   %j partner inode
 *   %n name          %P partner name  %R new name      %b block
 *   %c num           %C num2          %h num (hex32)   %H num2 (hex32)
 *   %x num (hex16)   %r hash range    %s str           %m error message
 *   %N{one|many}, %M{one|many}: the word that agrees with num, num2
 *   %k, %K what a misplaced entry (%K: num of them) costs, by kernel
 *   %Q "the same name as '%P' (%j) after casefolding", or without a
 *      partner "which is not valid UTF-8"
 * Names are always escaped (control bytes and invalid UTF-8 as \xHH).
 */
#ifndef E2FOLD_PROBLEM_H
#define E2FOLD_PROBLEM_H

#include <ext2fs/ext2fs.h>

struct fsck_ctx;

struct problem_context {
	ext2_ino_t dir;
	ext2_ino_t ino, ino2;
	const unsigned char *name, *name2, *new_name;
	unsigned int len, len2, new_len;
	blk64_t blk;
	__u64 num, num2;
	__u64 lo, hi;			/* a hash range [lo, hi) */
	const char *str;
	errcode_t errcode;
	int *latch;			/* one answer for a group: -1 unasked */
	int no_fix;			/* the fix cannot be made here: report */
	int quiet;			/* preen may leave it out: printed in
					   every other mode, and always
					   reported */
};

/* Pass 0: the superblock. */
#define PR_0_ENCODING_RESTORE		0x000001
#define PR_0_ENCODING_UNEXPLAINED	0x000002
#define PR_0_ENCODING_FLAGS_UNKNOWN	0x000003
#define PR_0_ENCODING_WITHOUT_FEATURE	0x000004
#define PR_0_CASEFOLD_FEATURE_MISSING	0x000005
#define PR_0_E2FSCK_MISREADS		0x000006
#define PR_0_E2FSCK_REPAIRS		0x000007
#define PR_0_E2FSCK_ENCODING_COPY	0x000008

/* Pass 1: inode flags. */
#define PR_1_CASEFOLD_NONDIR		0x010001
#define PR_1_CASEFOLD_NO_FEATURE	0x010002
#define PR_1_ENCRYPT_HASH_VERSION	0x010003
#define PR_1_INLINE_LEFTOVER		0x010004

/* Pass 2: casefolded directories. */
#define PR_2_CORRUPT_BLOCK		0x020002
#define PR_2_NAME_INVALID		0x020003
#define PR_2_DUPLICATE			0x020004
#define PR_2_DUPLICATE_IDENTICAL	0x020005
#define PR_2_DUPLICATE_ENCRYPTED	0x020006
#define PR_2_HTREE_DAMAGED		0x020007
#define PR_2_HTREE_BAD_BUCKET		0x020008
#define PR_2_HTREE_IGNORABLE		0x020009
#define PR_2_HTREE_NOT_LEAF		0x02000A
#define PR_2_ENCRYPTED_BAD_BUCKET	0x02000B
#define PR_2_ENCRYPTED_DAMAGED		0x02000C
#define PR_2_RENAME_IMPOSSIBLE		0x02000D
#define PR_2_DIR_NOT_REBUILT		0x02000E
#define PR_2_ENCRYPTED_NO_HASH		0x02000F
#define PR_2_MORE_MISPLACED		0x020010
#define PR_2_DIR_NO_CSUM_TAIL		0x020012
#define PR_2_HTREE_CSUM			0x020013
#define PR_2_ENCRYPTED_NODE_LIMIT	0x020014
#define PR_2_TWIN_ENTRY			0x020015
#define PR_2_TWIN_RELINK		0x020016
#define PR_2_TWIN_NO_LOST_FOUND		0x020017
#define PR_2_MISPLACED			0x020018
#define PR_2_DUPLICATE_SAME_INODE	0x020019

/* Pass 3: rebuilding directories. */
#define PR_3_REBUILD_FAILED		0x030001
#define PR_3_REBUILD_LOST		0x030002

/* Policy flags. */
#define PR_PREEN_OK	0x0001	/* -p fixes it without asking */
#define PR_NO_FIX	0x0002	/* report only: nothing can be done here */
#define PR_FATAL	0x0004	/* stop the check after reporting */
#define PR_INFO		0x0008	/* a note about other findings: no answer */
#define PR_PREEN_ONLY	0x0010	/* a summary of what preen left out (quiet
				   findings): said in preen mode only */
#define PR_LIST		0x0020	/* a line of a list under a finding that
				   asked (latched): no blank line after it;
				   fix_problem_list_end() ends the list */

struct problem {
	int code;
	const char *message;
	int prompt;			/* enum prompt in problem.c */
	int flags;
};

/* Report a problem; 1 if it should be fixed now. */
int fix_problem(struct fsck_ctx *ctx, int code, struct problem_context *pctx);

/* After the PR_LIST lines of a finding: the blank line that ends them. */
void fix_problem_list_end(struct fsck_ctx *ctx);

/* The table, for the unit test that checks its order. */
const struct problem *problem_table(size_t *ret_count);

#endif /* E2FOLD_PROBLEM_H */
