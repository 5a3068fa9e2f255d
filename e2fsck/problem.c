/*
 * problem.c: the problem table and fix_problem(), the one place that
 * prints findings, applies -n/-y/-p and asks the user.
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <et/com_err.h>

#include "array.h"
#include "cfname.h"
#include "e2fsck.h"
#include "problem.h"
#include "fsck_report.h"

enum prompt {
	PROMPT_NONE,
	PROMPT_FIX,
	PROMPT_CLEAR,
	PROMPT_RENAME,
	PROMPT_REBUILD,
	PROMPT_RESTORE,
	PROMPT_SET_FEATURE,
	PROMPT_MOVE_LOST_FOUND,
	PROMPT_ABORT,
};

/* The question, and what preen mode says once it has acted. */
static const struct {
	const char *question;
	const char *done;
} prompts[] = {
	[PROMPT_NONE] = { NULL, NULL },
	[PROMPT_FIX] = { "Fix", "FIXED" },
	[PROMPT_CLEAR] = { "Clear", "CLEARED" },
	[PROMPT_RENAME] = { "Rename to '%R'", "RENAMED" },
	[PROMPT_REBUILD] = { "Rebuild the directory", "REBUILT" },
	[PROMPT_RESTORE] = { "Restore encoding utf8-12.1", "RESTORED" },
	[PROMPT_SET_FEATURE] = { "Set the casefold feature", "SET" },
	[PROMPT_MOVE_LOST_FOUND] = { "Move it to /lost+found", "MOVED" },
	[PROMPT_ABORT] = { NULL, NULL },
};

static const struct problem table[] = {
	{ PR_0_ENCODING_RESTORE,
	  "The superblock's encoding is %c, which no kernel defines, but the "
	  "hashes of the casefolded directories match utf8-12.1 (%C %M{entry|entries} "
	  "checked).\n",
	  PROMPT_RESTORE, PR_PREEN_OK },
	{ PR_0_ENCODING_UNEXPLAINED,
	  "The superblock's encoding is %c, which no kernel defines, and the "
	  "hashes of the casefolded directories do not match utf8-12.1 "
	  "(%s).  Nothing was changed: casefolded directories cannot be "
	  "checked without knowing their encoding.\n",
	  PROMPT_ABORT, PR_FATAL },
	{ PR_0_ENCODING_FLAGS_UNKNOWN,
	  "The superblock's encoding flags have unknown bits %x.\n",
	  PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_0_ENCODING_WITHOUT_FEATURE,
	  "The superblock has an encoding (%c) or encoding flags (%H) but "
	  "not the casefold feature.\n",
	  PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_0_CASEFOLD_FEATURE_MISSING,
	  "%c %N{directory is|directories are} casefolded and the superblock names encoding "
	  "utf8-12.1, but the casefold feature is not set.\n",
	  PROMPT_SET_FEATURE, PR_PREEN_OK },
	{ PR_0_E2FSCK_MISREADS,
	  "Note: e2fsck misreads the %c htree index %N{node|nodes} of encrypted "
	  "casefolded directories here: Linux gives them room for %C "
	  "entries, e2fsck expects one more and takes them for corrupt "
	  "leaves.  e2fsck checks a copy of the metadata that shows them "
	  "in its layout.\n",
	  PROMPT_NONE, PR_INFO },
	{ PR_0_E2FSCK_REPAIRS,
	  "e2fsck has repairs to make: it runs on the filesystem with those "
	  "%c index %N{node|nodes} in its layout, and e2fold gives them back Linux's "
	  "right after.\n",
	  PROMPT_NONE, PR_INFO },
	{ PR_0_E2FSCK_ENCODING_COPY,
	  "e2fsck refuses encoding %c: it checks a copy of the metadata "
	  "with utf8-12.1 instead, and repairs nothing until the encoding "
	  "is restored.\n",
	  PROMPT_NONE, PR_INFO },

	{ PR_1_CASEFOLD_NONDIR,
	  "Inode %i (%s) is not a directory but has the casefold flag.\n",
	  PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_1_CASEFOLD_NO_FEATURE,
	  "Directory %i has the casefold flag, but the filesystem has no "
	  "casefold feature (the kernel refuses such a directory).\n",
	  PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_1_ENCRYPT_HASH_VERSION,
	  "Encrypted casefolded directory %i has htree hash version %c, not "
	  "SipHash (6); the kernel cannot use its index.\n",
	  PROMPT_REBUILD, PR_PREEN_OK },
	{ PR_1_INLINE_LEFTOVER,
	  "Directory %i is no longer inline but still has its inline data "
	  "attribute (system.data): a move into blocks was interrupted.\n",
	  PROMPT_CLEAR, PR_PREEN_OK },

	{ PR_2_CORRUPT_BLOCK,
	  "Block %b of casefolded directory %p (%d) is corrupt; its entries "
	  "were not checked (e2fsck repairs directory blocks).\n",
	  PROMPT_NONE, PR_NO_FIX },
	{ PR_2_NAME_INVALID,
	  "Entry '%n' (%i) in %p (%d) is not valid UTF-8, which a strict "
	  "filesystem does not allow.\n",
	  PROMPT_RENAME, 0 },
	{ PR_2_DUPLICATE,
	  "Entry '%n' (%i) in %p (%d) is the same name as '%P' (%j) after "
	  "casefolding.\n",
	  PROMPT_RENAME, 0 },
	{ PR_2_DUPLICATE_IDENTICAL,
	  "Entry '%n' (%i) in %p (%d) has exactly the name of an earlier "
	  "entry (%j).\n",
	  PROMPT_RENAME, 0 },
	{ PR_2_DUPLICATE_ENCRYPTED,
	  "Entries %i and %j of encrypted casefolded directory %p (%d) have "
	  "the same stored hash %h:%H, so probably the same name.  Without "
	  "the key they can be neither compared nor renamed: mount with the "
	  "key and rename one.\n",
	  PROMPT_NONE, PR_NO_FIX },
	{ PR_2_HTREE_DAMAGED,
	  "The htree index of %p (%d) is damaged: %s (block %b).\n",
	  PROMPT_REBUILD, PR_PREEN_OK },
	{ PR_2_HTREE_BAD_BUCKET,
	  "  '%n' (%i): hash %h, in leaf block %b, which holds hashes %r\n",
	  PROMPT_REBUILD, PR_PREEN_OK | PR_LIST },
	{ PR_2_HTREE_IGNORABLE,
	  "  '%n' (%i): in leaf block %b, where a kernel that kept "
	  "Default_Ignorable code points when folding (Linux 6.12-rc3 to "
	  "6.13-rc2) put it\n",
	  PROMPT_REBUILD, PR_PREEN_OK | PR_LIST },
	{ PR_2_HTREE_NOT_LEAF,
	  "  '%n' (%i): in block %b, which the htree index does not lead "
	  "to\n",
	  PROMPT_REBUILD, PR_PREEN_OK | PR_LIST },
	{ PR_2_ENCRYPTED_BAD_BUCKET,
	  "Entry %i of encrypted casefolded directory %p (%d) has stored hash "
	  "%h, but its leaf (block %b) holds hashes %r: %k.  The index can "
	  "be rebuilt from the stored hashes without the key.\n",
	  PROMPT_REBUILD, PR_PREEN_OK },
	{ PR_2_ENCRYPTED_DAMAGED,
	  "The htree index of encrypted casefolded directory %p (%d) is "
	  "damaged: %s (block %b).\n",
	  PROMPT_REBUILD, PR_PREEN_OK },
	{ PR_2_RENAME_IMPOSSIBLE,
	  "No free name was found for entry '%n' (%i) in %p (%d), %Q: "
	  "every name e2fold tries for it (numbered ~1 and on) is taken, "
	  "so it keeps its name.  Rename or remove one of the two names, "
	  "or free a numbered one, on the mounted filesystem (or through "
	  "e2fold-fuse), then run e2fold-fsck again.\n",
	  PROMPT_NONE, PR_NO_FIX },
	{ PR_2_DIR_NOT_REBUILT,
	  "Directory %p (%d) cannot be rewritten safely (%s), so the "
	  "problems above stay: run e2fsck first, then e2fold-fsck again.\n",
	  PROMPT_NONE, PR_NO_FIX },
	{ PR_2_ENCRYPTED_NO_HASH,
	  "Entry %i of encrypted casefolded directory %p (%d) has no stored "
	  "hash.\n",
	  PROMPT_NONE, PR_NO_FIX },

	{ PR_2_MORE_MISPLACED,
	  "  and %c more (the report lists them all)\n",
	  PROMPT_NONE, PR_INFO | PR_PREEN_ONLY | PR_LIST },

	{ PR_2_DIR_NO_CSUM_TAIL,
	  "Block %b of directory %p (%d) has no room for its checksum "
	  "(metadata_csum).\n",
	  PROMPT_REBUILD, PR_PREEN_OK },
	{ PR_2_HTREE_CSUM,
	  "Index block %b of directory %p (%d) fails its checksum.\n",
	  PROMPT_REBUILD, PR_PREEN_OK },
	{ PR_2_ENCRYPTED_NODE_LIMIT,
	  "Index node block %b of encrypted casefolded directory %p (%d) "
	  "has room for %c entries, as e2fsprogs computes; Linux requires "
	  "%C, and otherwise scans the directory linearly and fails every "
	  "create.\n",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_2_TWIN_ENTRY,
	  "Entry %i of encrypted directory %p (%d) repeats the encrypted "
	  "name of an earlier entry for the same inode; lookups find only "
	  "the earlier one.\n",
	  PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_2_TWIN_RELINK,
	  "Entries %j and %i of encrypted directory %p (%d) have the same "
	  "encrypted name, so lookups find only %j.  Without the key neither "
	  "name can be changed: the entry for %i is removed and inode %i "
	  "kept in /lost+found as '#%i'.\n",
	  PROMPT_MOVE_LOST_FOUND, 0 },
	{ PR_2_TWIN_NO_LOST_FOUND,
	  "Entries %j and %i of encrypted directory %p (%d) have the same "
	  "encrypted name, so lookups find only %j.  Without the key neither "
	  "name can be changed, and inode %i cannot be kept in /lost+found "
	  "instead (%s): run e2fsck, which makes one, then e2fold-fsck "
	  "again.\n",
	  PROMPT_NONE, PR_NO_FIX },
	{ PR_2_MISPLACED,
	  "%c %N{entry|entries} of %p (%d) %N{is|are} not in the htree leaf "
	  "%N{its hash leads|their hashes lead} to: %K.  %N{It is|They are} "
	  "listed below.\n",
	  PROMPT_REBUILD, PR_PREEN_OK },
	/*
	 * The same name for the same inode twice: what a write cut short
	 * between a new leaf and the old leaf's shorter copy leaves. The
	 * second entry goes (and the link it added); renaming it would make
	 * a hard link nobody made.
	 */
	{ PR_2_DUPLICATE_SAME_INODE,
	  "Entry '%n' (%i) in %p (%d) repeats an earlier entry: the same "
	  "name for the same inode.\n",
	  PROMPT_CLEAR, PR_PREEN_OK },

	{ PR_3_REBUILD_FAILED,
	  "Rebuilding directory %p (%d) failed: %m.  Run e2fsck on the "
	  "filesystem, or restore it from the undo file if -z was given.\n",
	  PROMPT_NONE, PR_FATAL },
	{ PR_3_REBUILD_LOST,
	  "Rebuilt directory %p (%d) does not read back as it was written "
	  "(%s).  Restore the filesystem from the undo file if -z was "
	  "given.\n",
	  PROMPT_NONE, PR_FATAL },
};

const struct problem *problem_table(size_t *ret_count)
{
	*ret_count = sizeof(table) / sizeof(table[0]);
	return table;
}

static const struct problem *find_problem(int code)
{
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].code == code)
			return &table[i];
	return NULL;
}

/* A growing string. */
struct text {
	char *s;
	size_t len, cap;
};

static void text_add(struct text *t, const char *s, size_t n)
{
	if (e2fold_array_reserve(&t->s, &t->cap, t->len + n + 1, 1))
		return;		/* a message cut short is no disaster */
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

static void text_printf(struct text *t, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		text_add(t, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* exact: the message's names print alike otherwise (cfname.h). */
static void text_name(struct text *t, const unsigned char *name,
		      unsigned int len, int exact)
{
	char *buf = malloc(E2FOLD_ESCAPED_SIZE(len));

	if (!buf)
		return;
	if (exact)
		e2fold_escape_name_exact(name, len, buf,
					 E2FOLD_ESCAPED_SIZE(len));
	else
		e2fold_escape_name(name, len, buf, E2FOLD_ESCAPED_SIZE(len));
	text_add(t, buf, strlen(buf));
	free(buf);
}

static void text_path(struct fsck_ctx *ctx, struct text *t, ext2_ino_t dir)
{
	char *path = NULL;

	if (!ext2fs_get_pathname(ctx->fs, dir, 0, &path) && path) {
		text_name(t, (const unsigned char *)path, strlen(path), 0);
		ext2fs_free_mem(&path);
	} else {
		text_printf(t, "<inode %u>", dir);
	}
}

/*
 * What an entry that is not where its hash leads costs, by kernel
 * (doc/kernel-facts.md, "The compat fallback"). Linux 6.1 looks in the
 * hash's leaf only; 6.12 and newer scan the whole directory after a
 * hashed miss, unless no_compat_fallback is set. With the flag every
 * kernel misses the entry, and nothing else shows it: the flag is the
 * filesystem's promise that no entry is misplaced.
 */
static const char *misplaced_consequence(const struct fsck_ctx *ctx,
					 int many)
{
	if (ctx->no_fallback)
		return many ?
		       "the filesystem has no_compat_fallback, so no kernel "
		       "finds them by name (worse than without the flag, where "
		       "newer kernels find them by a linear scan)" :
		       "the filesystem has no_compat_fallback, so no kernel "
		       "finds it by name (worse than without the flag, where "
		       "newer kernels find it by a linear scan)";
	return many ? "Linux 6.1 cannot find them by name, and 6.12 and newer "
		      "find them only by scanning the whole directory" :
		      "Linux 6.1 cannot find it by name, and 6.12 and newer find "
		      "it only by scanning the whole directory";
}

/* Do the two names of the finding print alike (cfname.h's rule)? */
static int names_need_exact(const struct problem_context *pctx)
{
	return pctx->name && pctx->name2 &&
	       e2fold_names_print_alike(pctx->name, pctx->len, pctx->name2,
					pctx->len2);
}

/*
 * %N{one|many} (after num) and %M{one|many} (after num2): the word that
 * agrees with the number. Returns where the format goes on.
 */
static const char *plural(struct text *t, const char *fmt, __u64 n)
{
	const char *bar, *end;

	if (fmt[1] != '{' || !(bar = strchr(fmt, '|')) ||
	    !(end = strchr(bar, '}'))) {
		text_add(t, fmt - 1, 2);
		return fmt;
	}
	if (n == 1)
		text_add(t, fmt + 2, bar - fmt - 2);
	else
		text_add(t, bar + 1, end - bar - 1);
	return end;
}

/* %Q: what an entry collides with, or why it must be renamed. */
static void partner(struct text *t, const struct problem_context *pctx,
		    int exact)
{
	if (!pctx->name2) {
		text_printf(t, "which is not valid UTF-8");
		return;
	}
	text_printf(t, "the same name as '");
	text_name(t, pctx->name2, pctx->len2, exact);
	text_printf(t, "' (%u) after casefolding", pctx->ino2);
}

static void expand(struct fsck_ctx *ctx, struct text *t, const char *fmt,
		   const struct problem_context *pctx)
{
	int exact = names_need_exact(pctx);

	for (; *fmt; fmt++) {
		if (*fmt != '%' || !fmt[1]) {
			text_add(t, fmt, 1);
			continue;
		}
		switch (*++fmt) {
		case 'd': text_printf(t, "%u", pctx->dir); break;
		case 'p': text_path(ctx, t, pctx->dir); break;
		case 'i': text_printf(t, "%u", pctx->ino); break;
		case 'j': text_printf(t, "%u", pctx->ino2); break;
		case 'n': text_name(t, pctx->name, pctx->len, exact); break;
		case 'P': text_name(t, pctx->name2, pctx->len2, exact); break;
		case 'R': text_name(t, pctx->new_name, pctx->new_len, exact); break;
		case 'b': text_printf(t, "%llu", (unsigned long long)pctx->blk); break;
		case 'c': text_printf(t, "%llu", (unsigned long long)pctx->num); break;
		case 'C': text_printf(t, "%llu", (unsigned long long)pctx->num2); break;
		case 'h': text_printf(t, "0x%08llx", (unsigned long long)pctx->num); break;
		case 'H': text_printf(t, "0x%08llx", (unsigned long long)pctx->num2); break;
		case 'x': text_printf(t, "0x%04llx", (unsigned long long)pctx->num); break;
		case 'r':
			text_printf(t, "0x%08llx-0x%08llx",
				    (unsigned long long)pctx->lo,
				    (unsigned long long)pctx->hi - 1);
			break;
		case 's': text_add(t, pctx->str, strlen(pctx->str)); break;
		case 'N': fmt = plural(t, fmt, pctx->num); break;
		case 'Q': partner(t, pctx, exact); break;
		case 'M': fmt = plural(t, fmt, pctx->num2); break;
		case 'k':
		case 'K': {
			const char *k = misplaced_consequence(ctx,
				*fmt == 'K' && pctx->num != 1);

			text_add(t, k, strlen(k));
			break;
		}
		case 'm': {
			const char *m = error_message(pctx->errcode);

			text_add(t, m, strlen(m));
			break;
		}
		default:
			text_add(t, fmt - 1, 2);
		}
	}
}

/*
 * One key from the terminal, as e2fsck reads it: without waiting for
 * Enter and without the terminal's echo, since the caller prints the
 * answer in words. EOF at the end of input, or once SIGINT or SIGTERM
 * came (reads restart after a signal: the wait is polled instead).
 */
static int next_char(void)
{
	struct pollfd pfd = { .fd = 0, .events = POLLIN };
	unsigned char ch;

	while (!fsck_signal_pending()) {
		if (poll(&pfd, 1, 200) <= 0)
			continue;
		return read(0, &ch, 1) == 1 ? ch : EOF;
	}
	return EOF;
}

static int read_key(void)
{
	struct termios saved, raw;
	int have_tty = !tcgetattr(0, &saved), c;

	if (have_tty) {
		raw = saved;
		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 1;
		raw.c_cc[VTIME] = 0;
		tcsetattr(0, TCSANOW, &raw);
	}
	c = next_char();
	if (have_tty)
		tcsetattr(0, TCSANOW, &saved);
	return c;
}

/*
 * Ask on the terminal and print the answer after the question, as
 * e2fsck does: y or Enter is yes, n is no, a is yes to this and every
 * later question; other keys are ignored. End of input counts as "no".
 */
static int ask(struct fsck_ctx *ctx, const char *question)
{
	static int yes_to_all;
	int c;

	(void)ctx;
	if (yes_to_all) {
		printf("%s? yes\n\n", question);
		return 1;
	}
	printf("%s<y>? ", question);
	fflush(stdout);
	for (;;) {
		c = read_key();
		switch (c == EOF ? EOF : tolower(c)) {
		case EOF:
		case 'n':
			printf("no\n\n");
			return 0;
		case '\n':
		case '\r':
		case 'y':
			printf("yes\n\n");
			return 1;
		case 'a':
			yes_to_all = 1;
			printf("yes to all\n\n");
			return 1;
		}
	}
}

/*
 * As e2fsck's preen halt: the filesystem is marked as having errors
 * before exiting, so that the next check without -f (the next boot)
 * checks it again instead of finding it clean.
 */
static void preen_halt(struct fsck_ctx *ctx)
{
	if (ctx->fs && (ctx->fs->flags & EXT2_FLAG_RW)) {
		ctx->fs->super->s_state |= EXT2_ERROR_FS;
		ext2fs_mark_super_dirty(ctx->fs);
		ext2fs_close_free(&ctx->fs);
	}
	printf("\n%s: UNEXPECTED INCONSISTENCY; RUN %s MANUALLY.\n"
	       "\t(i.e., without -a or -p options)\n", ctx->opt.device,
	       ctx->prog);
	exit(FSCK_UNCORRECTED);
}

void fix_problem_list_end(struct fsck_ctx *ctx)
{
	if (ctx->opt.mode != MODE_PREEN)
		fputc('\n', fsck_out(ctx));
}

int fix_problem(struct fsck_ctx *ctx, int code, struct problem_context *pctx)
{
	const struct problem *p = find_problem(code);
	struct text msg = { 0 }, question = { 0 };
	int answer = 0, latched = pctx->latch && *pctx->latch >= 0;
	FILE *out = fsck_out(ctx);

	if (!p) {
		fprintf(stderr, "%s: internal error: unknown problem 0x%06x\n",
			ctx->prog, code);
		exit(FSCK_ERROR);
	}
	/* Every other mode names each finding: no summary needed. */
	if ((p->flags & PR_PREEN_ONLY) && ctx->opt.mode != MODE_PREEN)
		return 0;
	fsck_progress_break(ctx);
	expand(ctx, &msg, p->message, pctx);
	if (prompts[p->prompt].question)
		expand(ctx, &question, prompts[p->prompt].question, pctx);

	if (ctx->opt.mode == MODE_PREEN && !latched && !pctx->no_fix &&
	    !(p->flags & (PR_NO_FIX | PR_FATAL | PR_INFO)) &&
	    !(p->flags & PR_PREEN_OK)) {
		fputs(msg.s ? msg.s : "", out);
		preen_halt(ctx);
	}
	if (pctx->quiet && latched && ctx->opt.mode == MODE_PREEN) {
		answer = *pctx->latch;
		goto done;
	}
	if (ctx->opt.mode != MODE_PREEN || !question.s || pctx->no_fix ||
	    latched || (p->flags & (PR_NO_FIX | PR_FATAL | PR_INFO))) {
		if (ctx->opt.mode == MODE_PREEN)
			fprintf(out, "%s: ", ctx->opt.device);
		fputs(msg.s ? msg.s : "", out);
	}

	if (p->flags & PR_INFO) {
		if (ctx->opt.mode != MODE_PREEN && !(p->flags & PR_LIST))
			fputc('\n', out);
		report_finding(ctx->report, ctx, code, pctx, msg.s, 0);
		free(msg.s);
		free(question.s);
		return 0;
	}
	if (p->flags & (PR_NO_FIX | PR_FATAL) || !question.s || pctx->no_fix) {
		answer = 0;
		if (ctx->opt.mode != MODE_PREEN)
			fputc('\n', out);
	} else if (latched) {
		answer = *pctx->latch;
		if (ctx->opt.mode != MODE_PREEN && !(p->flags & PR_LIST))
			fputc('\n', out);
	} else {
		switch (ctx->opt.mode) {
		case MODE_NO:
			fprintf(out, "%s? no\n\n", question.s);
			answer = 0;
			break;
		case MODE_YES:
			fprintf(out, "%s? yes\n\n", question.s);
			answer = 1;
			break;
		case MODE_PREEN:
			/* One line, e2fsck style: "device: message  FIXED." */
			fprintf(out, "%s: %.*s  %s.\n", ctx->opt.device,
			       (int)(msg.len && msg.s[msg.len - 1] == '\n' ?
				     msg.len - 1 : msg.len),
			       msg.s ? msg.s : "", prompts[p->prompt].done);
			answer = 1;
			break;
		case MODE_ASK:
			answer = ask(ctx, question.s);
			break;
		}
		if (pctx->latch)
			*pctx->latch = answer;
	}
done:
	if (!answer)
		ctx->errors_left = 1;
	if (p->flags & PR_FATAL)
		ctx->aborted = 1;
	report_finding(ctx->report, ctx, code, pctx, msg.s, answer);
	free(msg.s);
	free(question.s);
	return answer;
}
