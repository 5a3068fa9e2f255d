/* fsck_report.c: the JSON report (--report FILE). */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfname.h"
#include "json.h"
#include "external.h"
#include "fsck_report.h"

struct list {
	char **items;
	size_t n, cap;
};

struct report {
	struct list findings, changes, e2fsck;
};

static void obj_path(struct e2fold_json *o, struct fsck_ctx *ctx, ext2_ino_t dir)
{
	char *path = NULL;

	e2fold_json_number(o, "dir_inode", dir);
	if (!ext2fs_get_pathname(ctx->fs, dir, 0, &path) && path) {
		e2fold_json_name(o, "dir_path", (const unsigned char *)path, strlen(path));
		ext2fs_free_mem(&path);
	}
}

static void list_add(struct list *l, struct e2fold_json *o)
{
	if (!e2fold_json_finish(o))
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		char **p = realloc(l->items, cap * sizeof(*p));

		if (!p) {
			free(o->s);
			return;
		}
		l->items = p;
		l->cap = cap;
	}
	l->items[l->n++] = o->s;
}

struct report *report_new(void)
{
	return calloc(1, sizeof(struct report));
}

void report_finding(struct report *r, struct fsck_ctx *ctx, int code,
		    const struct problem_context *pctx, const char *message,
		    int fixed)
{
	struct e2fold_json o = { 0 };
	char codebuf[16];
	size_t mlen;

	if (!r)
		return;
	snprintf(codebuf, sizeof(codebuf), "0x%06x", code);
	e2fold_json_string(&o, "code", (const unsigned char *)codebuf,
			   strlen(codebuf));
	mlen = message ? strlen(message) : 0;
	while (mlen && message[mlen - 1] == '\n')
		mlen--;
	e2fold_json_string(&o, "message", (const unsigned char *)message, mlen);
	e2fold_json_bool(&o, "fixed", fixed);
	if (pctx->dir)
		obj_path(&o, ctx, pctx->dir);
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
	list_add(&r->findings, &o);
}

void report_rename(struct report *r, struct fsck_ctx *ctx, ext2_ino_t dir,
		   ext2_ino_t ino, const unsigned char *old_name,
		   unsigned int old_len, const unsigned char *new_name,
		   unsigned int new_len)
{
	struct e2fold_json o = { 0 };

	if (!r)
		return;
	e2fold_json_string(&o, "change", (const unsigned char *)"rename", 6);
	obj_path(&o, ctx, dir);
	e2fold_json_number(&o, "inode", ino);
	e2fold_json_name(&o, "old_name", old_name, old_len);
	e2fold_json_name(&o, "new_name", new_name, new_len);
	list_add(&r->changes, &o);
}

void report_drop(struct report *r, struct fsck_ctx *ctx, ext2_ino_t dir,
		 ext2_ino_t ino, const unsigned char *name, unsigned int len,
		 int relinked)
{
	struct e2fold_json o = { 0 };
	char lf_name[16];

	if (!r)
		return;
	e2fold_json_string(&o, "change", (const unsigned char *)"remove", 6);
	obj_path(&o, ctx, dir);
	e2fold_json_number(&o, "inode", ino);
	e2fold_json_name(&o, "old_name", name, len);
	if (relinked) {
		snprintf(lf_name, sizeof(lf_name), "#%u", ino);
		e2fold_json_name(&o, "lost_found_name",
				 (const unsigned char *)lf_name,
				 strlen(lf_name));
	}
	list_add(&r->changes, &o);
}

void report_rebuild(struct report *r, struct fsck_ctx *ctx, ext2_ino_t dir,
		    size_t entries, int casefolded)
{
	struct e2fold_json o = { 0 };

	if (!r)
		return;
	e2fold_json_string(&o, "change", (const unsigned char *)"rebuild", 7);
	obj_path(&o, ctx, dir);
	e2fold_json_number(&o, "entries", entries);
	e2fold_json_bool(&o, "casefolded", casefolded);
	list_add(&r->changes, &o);
}

void report_flag(struct report *r, struct fsck_ctx *ctx, const char *what,
		 ext2_ino_t ino, __u64 old_value, __u64 new_value)
{
	struct e2fold_json o = { 0 };

	(void)ctx;
	if (!r)
		return;
	e2fold_json_string(&o, "change", (const unsigned char *)what, strlen(what));
	if (ino)
		e2fold_json_number(&o, "inode", ino);
	e2fold_json_number(&o, "old_value", old_value);
	e2fold_json_number(&o, "new_value", new_value);
	list_add(&r->changes, &o);
}

void report_e2fsck(struct report *r, const char *phase, const char *version,
		   const struct e2fsck_run *res)
{
	struct e2fold_json o = { 0 };

	if (!r)
		return;
	e2fold_json_string(&o, "phase", (const unsigned char *)phase, strlen(phase));
	e2fold_json_string(&o, "version", (const unsigned char *)version,
		   strlen(version));
	e2fold_json_number(&o, "exit_status", res->status);
	e2fold_json_number(&o, "problems", res->problems);
	e2fold_json_number(&o, "left_unfixed", res->left);
	e2fold_json_number(&o, "left_to_e2fold", res->handed_over);
	list_add(&r->e2fsck, &o);
}

static void write_list(FILE *f, const char *key, const struct list *l)
{
	size_t i;

	fprintf(f, "  \"%s\": [", key);
	for (i = 0; i < l->n; i++)
		fprintf(f, "%s\n    %s", i ? "," : "", l->items[i]);
	fprintf(f, "%s]", l->n ? "\n  " : "");
}

int report_write(struct report *r, struct fsck_ctx *ctx, const char *file,
		 int exit_status)
{
	FILE *f;
	char *dev;
	size_t devlen;

	if (!r)
		return 0;
	f = fopen(file, "w");
	if (!f)
		return errno;
	devlen = strlen(ctx->opt.device);
	dev = malloc(E2FOLD_JSON_ESCAPED_SIZE(devlen));
	if (dev)
		e2fold_json_escape((const unsigned char *)ctx->opt.device,
				   devlen, dev, E2FOLD_JSON_ESCAPED_SIZE(devlen));
	fprintf(f, "{\n  \"tool\": \"e2fold-fsck\",\n  \"version\": \"%s\",\n"
		"  \"device\": \"%s\",\n  \"read_only\": %s,\n",
		PACKAGE_VERSION, dev ? dev : "",
		ctx->opt.mode == MODE_NO ? "true" : "false");
	free(dev);
	write_list(f, "findings", &r->findings);
	fprintf(f, ",\n");
	write_list(f, "changes", &r->changes);
	fprintf(f, ",\n");
	write_list(f, "e2fsck", &r->e2fsck);
	fprintf(f, ",\n  \"directories_checked\": %lu,\n"
		"  \"casefolded_directories_checked\": %lu,\n"
		"  \"entries_checked\": %lu,\n  \"renamed\": %lu,\n"
		"  \"rebuilt\": %lu,\n  \"exit_status\": %d\n}\n",
		ctx->dirs_checked, ctx->cf_dirs_checked,
		ctx->entries_checked, ctx->renamed,
		ctx->rebuilt, exit_status);
	if (fclose(f))
		return errno;
	return 0;
}

void report_free(struct report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->findings.n; i++)
		free(r->findings.items[i]);
	for (i = 0; i < r->changes.n; i++)
		free(r->changes.items[i]);
	for (i = 0; i < r->e2fsck.n; i++)
		free(r->e2fsck.items[i]);
	free(r->e2fsck.items);
	free(r->findings.items);
	free(r->changes.items);
	free(r);
}
