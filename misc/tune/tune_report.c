/*
 * tune_report.c: the JSON report of e2fold-tune (--report FILE):
 *   {"tool", "version", "device", "dry_run",
 *    "findings": [...],   what the proofs found, named entry by entry
 *    "changes": [...],    what was written (a dry run: would be)
 *    "error",             why the run stopped early (only then)
 *    "exit_status"}
 * Names and paths appear as escaped text and as hex (json.h), so that no
 * byte of an invalid name is lost.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tune.h"

struct tune_report {
	struct e2fold_json_list findings, changes;
	char error[256];	/* why the run stopped before its steps */
};

struct tune_report *tune_report_new(void)
{
	return calloc(1, sizeof(struct tune_report));
}

void tune_report_free(struct tune_report *r)
{
	if (!r)
		return;
	e2fold_json_list_free(&r->findings);
	e2fold_json_list_free(&r->changes);
	free(r);
}

void tune_report_begin(struct tune_ctx *ctx, struct e2fold_json *o,
		       const char *kind, const char *what, ext2_ino_t dir,
		       ext2_ino_t ino)
{
	memset(o, 0, sizeof(*o));
	if (!ctx->report)
		return;
	e2fold_json_object(o, NULL, E2FOLD_JSON_INLINE);
	e2fold_json_text(o, kind, what);
	if (dir)
		e2fold_json_dir(o, ctx->fs, dir);
	if (ino)
		e2fold_json_number(o, "inode", ino);
}

void tune_report_add_finding(struct tune_ctx *ctx, struct e2fold_json *o)
{
	if (ctx->report)
		e2fold_json_list_add(&ctx->report->findings, o);
	else
		free(o->s);
}

void tune_report_add_change(struct tune_ctx *ctx, struct e2fold_json *o)
{
	if (ctx->report)
		e2fold_json_list_add(&ctx->report->changes, o);
	else
		free(o->s);
}

void tune_report_drop_changes(struct tune_ctx *ctx)
{
	if (ctx->report)
		e2fold_json_list_free(&ctx->report->changes);
}

int tune_report_write(struct tune_ctx *ctx, int exit_status)
{
	struct e2fold_json o;
	int err;

	err = e2fold_json_create_document(&o, ctx->opt.report_file,
					  "e2fold-tune");
	if (err)
		return err;
	e2fold_json_text(&o, "device", ctx->opt.device);
	e2fold_json_bool(&o, "dry_run", ctx->opt.dry_run);
	e2fold_json_list_write(&o, "findings", &ctx->report->findings);
	e2fold_json_list_write(&o, "changes", &ctx->report->changes);
	if (ctx->report->error[0])
		e2fold_json_text(&o, "error", ctx->report->error);
	e2fold_json_int(&o, "exit_status", exit_status);
	return e2fold_json_close_document(&o);
}

void tune_report_error(struct tune_ctx *ctx, const char *error)
{
	if (ctx->report)
		snprintf(ctx->report->error, sizeof(ctx->report->error), "%s",
			 error);
}
