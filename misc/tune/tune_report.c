/*
 * tune_report.c: the JSON report of e2fold-tune (--report FILE):
 *   {"tool", "version", "device", "dry_run",
 *    "findings": [...],   what the proofs found, named entry by entry
 *    "changes": [...],    what was written (a dry run: would be)
 *    "exit_status"}
 * Names and paths appear as escaped text and as hex (json.h), so that no
 * byte of an invalid name is lost.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfname.h"
#include "json.h"
#include "tune.h"

struct list {
	char **items;
	size_t n, cap;
};

struct tune_report {
	struct list findings, changes;
};

struct tune_report *tune_report_new(void)
{
	return calloc(1, sizeof(struct tune_report));
}

static void list_free(struct list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
}

void tune_report_free(struct tune_report *r)
{
	if (!r)
		return;
	list_free(&r->findings);
	list_free(&r->changes);
	free(r);
}

void tune_report_begin(struct tune_ctx *ctx, struct e2fold_json *o,
		       const char *kind, const char *what, ext2_ino_t dir,
		       ext2_ino_t ino)
{
	memset(o, 0, sizeof(*o));
	if (!ctx->report)
		return;
	e2fold_json_string(o, kind, (const unsigned char *)what, strlen(what));
	if (dir) {
		char *path = tune_raw_path(ctx->fs, dir);

		e2fold_json_number(o, "dir_inode", dir);
		if (path)
			e2fold_json_name(o, "dir_path", (const unsigned char *)path,
					 strlen(path));
		free(path);
	}
	if (ino)
		e2fold_json_number(o, "inode", ino);
}

static void list_add(struct list *l, struct e2fold_json *o)
{
	char *s = e2fold_json_finish(o);

	if (!s)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		char **p = realloc(l->items, cap * sizeof(*p));

		if (!p) {
			free(s);
			return;
		}
		l->items = p;
		l->cap = cap;
	}
	l->items[l->n++] = s;
}

void tune_report_add_finding(struct tune_ctx *ctx, struct e2fold_json *o)
{
	if (ctx->report)
		list_add(&ctx->report->findings, o);
	else
		free(o->s);
}

void tune_report_add_change(struct tune_ctx *ctx, struct e2fold_json *o)
{
	if (ctx->report)
		list_add(&ctx->report->changes, o);
	else
		free(o->s);
}

void tune_report_drop_changes(struct tune_ctx *ctx)
{
	if (!ctx->report)
		return;
	list_free(&ctx->report->changes);
	memset(&ctx->report->changes, 0, sizeof(ctx->report->changes));
}

static void write_list(FILE *f, const char *key, const struct list *l)
{
	size_t i;

	fprintf(f, "  \"%s\": [", key);
	for (i = 0; i < l->n; i++)
		fprintf(f, "%s\n    %s", i ? "," : "", l->items[i]);
	fprintf(f, "%s],\n", l->n ? "\n  " : "");
}

int tune_report_write(struct tune_ctx *ctx, int exit_status)
{
	size_t devlen = strlen(ctx->opt.device);
	char *dev = malloc(E2FOLD_JSON_ESCAPED_SIZE(devlen));
	FILE *f;

	if (!dev)
		return ENOMEM;
	e2fold_json_escape((const unsigned char *)ctx->opt.device, devlen, dev,
			   E2FOLD_JSON_ESCAPED_SIZE(devlen));
	f = fopen(ctx->opt.report_file, "w");
	if (!f) {
		free(dev);
		return errno;
	}
	fprintf(f, "{\n  \"tool\": \"e2fold-tune\",\n  \"version\": \"%s\",\n"
		"  \"device\": \"%s\",\n  \"dry_run\": %s,\n", PACKAGE_VERSION,
		dev, ctx->opt.dry_run ? "true" : "false");
	free(dev);
	write_list(f, "findings", &ctx->report->findings);
	write_list(f, "changes", &ctx->report->changes);
	fprintf(f, "  \"exit_status\": %d\n}\n", exit_status);
	if (fclose(f))
		return errno;
	return 0;
}
