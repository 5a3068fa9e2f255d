/* report.c: the JSON report. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cfname.h"
#include "external.h"
#include "report.h"

struct list {
	char **items;
	size_t n, cap;
};

struct report {
	struct list findings, changes, e2fsck;
};

/* A growing JSON object under construction. */
struct obj {
	char *s;
	size_t len, cap;
	int fields;
};

static void obj_raw(struct obj *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 256;
		char *p;

		while (cap < o->len + n + 1)
			cap *= 2;
		p = realloc(o->s, cap);
		if (!p)
			return;
		o->s = p;
		o->cap = cap;
	}
	memcpy(o->s + o->len, s, n);
	o->len += n;
	o->s[o->len] = '\0';
}

static void obj_printf(struct obj *o, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		obj_raw(o, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static void obj_key(struct obj *o, const char *key)
{
	obj_printf(o, "%s\"%s\": ", o->fields++ ? ", " : "{", key);
}

static void obj_string(struct obj *o, const char *key, const unsigned char *s,
		       unsigned int len)
{
	char *buf = malloc(E2FOLD_JSON_ESCAPED_SIZE(len));

	if (!buf)
		return;
	e2fold_json_escape(s, len, buf, E2FOLD_JSON_ESCAPED_SIZE(len));
	obj_key(o, key);
	obj_raw(o, "\"", 1);
	obj_raw(o, buf, strlen(buf));
	obj_raw(o, "\"", 1);
	free(buf);
}

static void obj_hex(struct obj *o, const char *key, const unsigned char *s,
		    unsigned int len)
{
	unsigned int i;

	obj_key(o, key);
	obj_raw(o, "\"", 1);
	for (i = 0; i < len; i++)
		obj_printf(o, "%02x", s[i]);
	obj_raw(o, "\"", 1);
}

static void obj_name(struct obj *o, const char *key, const unsigned char *s,
		     unsigned int len)
{
	char hexkey[64];

	obj_string(o, key, s, len);
	snprintf(hexkey, sizeof(hexkey), "%s_hex", key);
	obj_hex(o, hexkey, s, len);
}

static void obj_number(struct obj *o, const char *key, unsigned long long v)
{
	obj_key(o, key);
	obj_printf(o, "%llu", v);
}

static void obj_path(struct obj *o, struct fsck_ctx *ctx, ext2_ino_t dir)
{
	char *path = NULL;

	obj_number(o, "dir_inode", dir);
	if (!ext2fs_get_pathname(ctx->fs, dir, 0, &path) && path) {
		obj_name(o, "dir_path", (const unsigned char *)path, strlen(path));
		ext2fs_free_mem(&path);
	}
}

static void list_add(struct list *l, struct obj *o)
{
	if (!o->s)
		return;
	obj_raw(o, "}", 1);
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
	struct obj o = { 0 };
	size_t mlen;

	if (!r)
		return;
	obj_key(&o, "code");
	obj_printf(&o, "\"0x%06x\"", code);
	mlen = message ? strlen(message) : 0;
	while (mlen && message[mlen - 1] == '\n')
		mlen--;
	obj_string(&o, "message", (const unsigned char *)message, mlen);
	obj_key(&o, "fixed");
	obj_printf(&o, fixed ? "true" : "false");
	if (pctx->dir)
		obj_path(&o, ctx, pctx->dir);
	if (pctx->ino)
		obj_number(&o, "inode", pctx->ino);
	if (pctx->name)
		obj_name(&o, "name", pctx->name, pctx->len);
	if (pctx->ino2)
		obj_number(&o, "partner_inode", pctx->ino2);
	if (pctx->name2)
		obj_name(&o, "partner_name", pctx->name2, pctx->len2);
	if (pctx->new_name)
		obj_name(&o, "new_name", pctx->new_name, pctx->new_len);
	if (pctx->blk)
		obj_number(&o, "block", pctx->blk);
	list_add(&r->findings, &o);
}

void report_rename(struct report *r, struct fsck_ctx *ctx, ext2_ino_t dir,
		   ext2_ino_t ino, const unsigned char *old_name,
		   unsigned int old_len, const unsigned char *new_name,
		   unsigned int new_len)
{
	struct obj o = { 0 };

	if (!r)
		return;
	obj_string(&o, "change", (const unsigned char *)"rename", 6);
	obj_path(&o, ctx, dir);
	obj_number(&o, "inode", ino);
	obj_name(&o, "old_name", old_name, old_len);
	obj_name(&o, "new_name", new_name, new_len);
	list_add(&r->changes, &o);
}

void report_rebuild(struct report *r, struct fsck_ctx *ctx, ext2_ino_t dir,
		    size_t entries, int casefolded)
{
	struct obj o = { 0 };

	if (!r)
		return;
	obj_string(&o, "change", (const unsigned char *)"rebuild", 7);
	obj_path(&o, ctx, dir);
	obj_number(&o, "entries", entries);
	obj_key(&o, "casefolded");
	obj_printf(&o, casefolded ? "true" : "false");
	list_add(&r->changes, &o);
}

void report_flag(struct report *r, struct fsck_ctx *ctx, const char *what,
		 ext2_ino_t ino, __u64 old_value, __u64 new_value)
{
	struct obj o = { 0 };

	(void)ctx;
	if (!r)
		return;
	obj_string(&o, "change", (const unsigned char *)what, strlen(what));
	if (ino)
		obj_number(&o, "inode", ino);
	obj_number(&o, "old_value", old_value);
	obj_number(&o, "new_value", new_value);
	list_add(&r->changes, &o);
}

void report_e2fsck(struct report *r, const char *phase, const char *version,
		   const struct e2fsck_run *res)
{
	struct obj o = { 0 };

	if (!r)
		return;
	obj_string(&o, "phase", (const unsigned char *)phase, strlen(phase));
	obj_string(&o, "version", (const unsigned char *)version,
		   strlen(version));
	obj_number(&o, "exit_status", res->status);
	obj_number(&o, "problems", res->problems);
	obj_number(&o, "left_unfixed", res->left);
	obj_number(&o, "left_to_e2fold", res->handed_over);
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
