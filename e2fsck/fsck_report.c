/* fsck_report.c: the JSON report (--report FILE). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "external.h"
#include "fsck_report.h"

struct report {
	struct e2fold_json_list findings, changes, e2fsck;
	char *error;		/* why the check could not be made, or NULL */
};

/* An item of a list, an object on one line: its first member is kind. */
static void item_begin(struct e2fold_json *o, const char *kind,
		       const char *what)
{
	memset(o, 0, sizeof(*o));
	e2fold_json_object(o, NULL, E2FOLD_JSON_INLINE);
	e2fold_json_text(o, kind, what);
}

struct report *report_new(void)
{
	return calloc(1, sizeof(struct report));
}

void report_error(struct report *r, const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	if (!r || r->error)
		return;		/* the first error is the cause */
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	r->error = strdup(buf);
}

void report_finding(struct report *r, struct fsck_ctx *ctx, int code,
		    const struct problem_context *pctx, const char *message,
		    int fixed)
{
	struct e2fold_json o;
	char codebuf[16];
	size_t mlen;

	if (!r)
		return;
	snprintf(codebuf, sizeof(codebuf), "0x%06x", code);
	item_begin(&o, "code", codebuf);
	mlen = message ? strlen(message) : 0;
	while (mlen && message[mlen - 1] == '\n')
		mlen--;
	e2fold_json_string(&o, "message", (const unsigned char *)message, mlen);
	e2fold_json_bool(&o, "fixed", fixed);
	if (pctx->dir)
		e2fold_json_dir(&o, ctx->fs, pctx->dir);
	if (pctx->ino)
		e2fold_json_number(&o, "inode", pctx->ino);
	if (pctx->name)
		e2fold_json_name(&o, "name", pctx->name, pctx->len);
	if (pctx->ino2)
		e2fold_json_number(&o, "partner_inode", pctx->ino2);
	if (pctx->name2)
		e2fold_json_name(&o, "partner_name", pctx->name2, pctx->len2);
	if (pctx->new_name)
		e2fold_json_name(&o, "new_name", pctx->new_name, pctx->new_len);
	if (pctx->blk)
		e2fold_json_number(&o, "block", pctx->blk);
	e2fold_json_list_add(&r->findings, &o);
}

void report_rename(struct report *r, struct fsck_ctx *ctx, ext2_ino_t dir,
		   ext2_ino_t ino, const unsigned char *old_name,
		   unsigned int old_len, const unsigned char *new_name,
		   unsigned int new_len)
{
	struct e2fold_json o;

	if (!r)
		return;
	item_begin(&o, "change", "rename");
	e2fold_json_dir(&o, ctx->fs, dir);
	e2fold_json_number(&o, "inode", ino);
	e2fold_json_name(&o, "old_name", old_name, old_len);
	e2fold_json_name(&o, "new_name", new_name, new_len);
	e2fold_json_list_add(&r->changes, &o);
}

void report_drop(struct report *r, struct fsck_ctx *ctx, ext2_ino_t dir,
		 ext2_ino_t ino, const unsigned char *name, unsigned int len,
		 int relinked)
{
	struct e2fold_json o;
	char lf_name[16];

	if (!r)
		return;
	item_begin(&o, "change", "remove");
	e2fold_json_dir(&o, ctx->fs, dir);
	e2fold_json_number(&o, "inode", ino);
	e2fold_json_name(&o, "old_name", name, len);
	if (relinked) {
		snprintf(lf_name, sizeof(lf_name), "#%u", ino);
		e2fold_json_name(&o, "lost_found_name",
				 (const unsigned char *)lf_name,
				 strlen(lf_name));
	}
	e2fold_json_list_add(&r->changes, &o);
}

void report_rebuild(struct report *r, struct fsck_ctx *ctx, ext2_ino_t dir,
		    size_t entries, int casefolded)
{
	struct e2fold_json o;

	if (!r)
		return;
	item_begin(&o, "change", "rebuild");
	e2fold_json_dir(&o, ctx->fs, dir);
	e2fold_json_number(&o, "entries", entries);
	e2fold_json_bool(&o, "casefolded", casefolded);
	e2fold_json_list_add(&r->changes, &o);
}

void report_flag(struct report *r, struct fsck_ctx *ctx, const char *what,
		 ext2_ino_t ino, __u64 old_value, __u64 new_value)
{
	struct e2fold_json o;

	(void)ctx;
	if (!r)
		return;
	item_begin(&o, "change", what);
	if (ino)
		e2fold_json_number(&o, "inode", ino);
	e2fold_json_number(&o, "old_value", old_value);
	e2fold_json_number(&o, "new_value", new_value);
	e2fold_json_list_add(&r->changes, &o);
}

void report_e2fsck(struct report *r, const char *phase, const char *version,
		   const struct e2fsck_run *res)
{
	struct e2fold_json o;

	if (!r)
		return;
	item_begin(&o, "phase", phase);
	e2fold_json_text(&o, "version", version);
	e2fold_json_number(&o, "exit_status", res->status);
	e2fold_json_number(&o, "problems", res->problems);
	e2fold_json_number(&o, "left_unfixed", res->left);
	e2fold_json_number(&o, "left_to_e2fold", res->handed_over);
	e2fold_json_list_add(&r->e2fsck, &o);
}

int report_write(struct report *r, struct fsck_ctx *ctx, const char *file,
		 int exit_status)
{
	struct e2fold_json o;
	int err;

	if (!r)
		return 0;
	err = e2fold_json_create_document(&o, file, "e2fold-fsck");
	if (err)
		return err;
	e2fold_json_text(&o, "device", ctx->opt.device);
	e2fold_json_bool(&o, "read_only", ctx->opt.mode == MODE_NO);
	if (r->error)
		e2fold_json_text(&o, "error", r->error);
	e2fold_json_list_write(&o, "findings", &r->findings);
	e2fold_json_list_write(&o, "changes", &r->changes);
	e2fold_json_list_write(&o, "e2fsck", &r->e2fsck);
	e2fold_json_number(&o, "directories_checked", ctx->tally.dirs_checked);
	e2fold_json_number(&o, "casefolded_directories_checked",
			   ctx->tally.cf_dirs_checked);
	e2fold_json_number(&o, "entries_checked", ctx->tally.entries_checked);
	e2fold_json_number(&o, "renamed", ctx->renamed);
	e2fold_json_number(&o, "rebuilt", ctx->rebuilt);
	e2fold_json_int(&o, "exit_status", exit_status);
	return e2fold_json_close_document(&o);
}

void report_free(struct report *r)
{
	if (!r)
		return;
	e2fold_json_list_free(&r->findings);
	e2fold_json_list_free(&r->changes);
	e2fold_json_list_free(&r->e2fsck);
	free(r->error);
	free(r);
}
