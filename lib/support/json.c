/* json.c: the JSON writer of the reports (the layout is in json.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cfname.h"
#include "json.h"

/* Room for n more bytes and a NUL in the string writer o. */
static int reserve(struct e2fold_json *o, size_t n)
{
	return e2fold_array_reserve(&o->s, &o->cap, o->len + n + 1, 1) ?
	       ENOMEM : 0;
}

static void raw(struct e2fold_json *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->f) {
		fwrite(s, 1, n, o->f);
		return;
	}
	if (reserve(o, n)) {
		o->failed = 1;
		return;
	}
	memcpy(o->s + o->len, s, n);
	o->len += n;
	o->s[o->len] = '\0';
}

static void text(struct e2fold_json *o, const char *s)
{
	raw(o, s, strlen(s));
}

/* A new line, indented for a member of the depth-th container. */
static void newline(struct e2fold_json *o, unsigned int depth)
{
	static const char spaces[] = "                ";
	unsigned int n = 2 * depth;

	raw(o, "\n", 1);
	for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		raw(o, spaces, sizeof(spaces) - 1);
	raw(o, spaces, n);
}

/*
 * Everything before a value: the separator from the member before, the
 * line of a LINES container, and the key of an object's member.
 */
static void member(struct e2fold_json *o, const char *key)
{
	if (!o->depth) {
		if (key)
			o->failed = 1;
		return;
	}
	if ((o->open[o->depth - 1].close == '}') != (key != NULL)) {
		o->failed = 1;
		return;
	}
	if (o->open[o->depth - 1].members++)
		raw(o, ",", 1);
	if (o->open[o->depth - 1].lines)
		newline(o, o->depth);
	else if (o->open[o->depth - 1].members > 1)
		raw(o, " ", 1);
	if (key) {
		raw(o, "\"", 1);
		text(o, key);
		raw(o, "\": ", 3);
	}
}

static void open_container(struct e2fold_json *o, const char *key,
			   char open, char close,
			   enum e2fold_json_layout layout)
{
	member(o, key);
	if (o->depth == E2FOLD_JSON_DEPTH)
		o->failed = 1;
	if (o->failed)
		return;
	raw(o, &open, 1);
	o->open[o->depth].close = close;
	o->open[o->depth].lines = layout == E2FOLD_JSON_LINES;
	o->open[o->depth].members = 0;
	o->depth++;
}

void e2fold_json_object(struct e2fold_json *o, const char *key,
			enum e2fold_json_layout layout)
{
	open_container(o, key, '{', '}', layout);
}

void e2fold_json_array(struct e2fold_json *o, const char *key,
		       enum e2fold_json_layout layout)
{
	open_container(o, key, '[', ']', layout);
}

void e2fold_json_close(struct e2fold_json *o)
{
	if (!o->depth) {
		o->failed = 1;
		return;
	}
	o->depth--;
	if (o->open[o->depth].lines && o->open[o->depth].members)
		newline(o, o->depth);
	raw(o, &o->open[o->depth].close, 1);
}

void e2fold_json_string(struct e2fold_json *o, const char *key,
			const unsigned char *s, unsigned int len)
{
	size_t size = E2FOLD_JSON_ESCAPED_SIZE(len);
	char *buf = malloc(size);

	if (!buf) {
		o->failed = 1;
		return;
	}
	e2fold_json_escape(s, len, buf, size);
	member(o, key);
	raw(o, "\"", 1);
	text(o, buf);
	raw(o, "\"", 1);
	free(buf);
}

void e2fold_json_text(struct e2fold_json *o, const char *key, const char *s)
{
	if (s)
		e2fold_json_string(o, key, (const unsigned char *)s,
				   strlen(s));
	else
		e2fold_json_null(o, key);
}

void e2fold_json_number(struct e2fold_json *o, const char *key,
			unsigned long long v)
{
	char buf[32];

	member(o, key);
	raw(o, buf, snprintf(buf, sizeof(buf), "%llu", v));
}

void e2fold_json_int(struct e2fold_json *o, const char *key, long long v)
{
	char buf[32];

	member(o, key);
	raw(o, buf, snprintf(buf, sizeof(buf), "%lld", v));
}

void e2fold_json_bool(struct e2fold_json *o, const char *key, int v)
{
	member(o, key);
	text(o, v ? "true" : "false");
}

void e2fold_json_null(struct e2fold_json *o, const char *key)
{
	member(o, key);
	text(o, "null");
}

void e2fold_json_name(struct e2fold_json *o, const char *key,
		      const unsigned char *s, unsigned int len)
{
	char hexkey[64], hex[3];
	unsigned int i;

	e2fold_json_string(o, key, s, len);
	snprintf(hexkey, sizeof(hexkey), "%s_hex", key);
	member(o, hexkey);
	raw(o, "\"", 1);
	for (i = 0; i < len; i++) {
		snprintf(hex, sizeof(hex), "%02x", s[i]);
		raw(o, hex, 2);
	}
	raw(o, "\"", 1);
}

void e2fold_json_dir(struct e2fold_json *o, ext2_filsys fs, ext2_ino_t dir)
{
	char *path = NULL;

	e2fold_json_number(o, "dir_inode", dir);
	if (ext2fs_get_pathname(fs, dir, 0, &path) || !path)
		return;
	e2fold_json_name(o, "dir_path", (const unsigned char *)path,
			 strlen(path));
	ext2fs_free_mem(&path);
}

void e2fold_json_literal(struct e2fold_json *o, const char *key,
			 const char *json)
{
	member(o, key);
	text(o, json);
}

char *e2fold_json_finish(struct e2fold_json *o)
{
	while (o->depth && !o->failed)
		e2fold_json_close(o);
	if (o->failed) {
		free(o->s);
		o->s = NULL;
	}
	return o->s;
}

void e2fold_json_begin_document(struct e2fold_json *o, FILE *f,
				const char *tool)
{
	memset(o, 0, sizeof(*o));
	o->f = f;
	e2fold_json_object(o, NULL, E2FOLD_JSON_LINES);
	if (!tool)
		return;
	e2fold_json_text(o, "tool", tool);
	e2fold_json_text(o, "version", PACKAGE_VERSION);
}

int e2fold_json_end_document(struct e2fold_json *o)
{
	e2fold_json_finish(o);
	raw(o, "\n", 1);
	return o->failed ? ENOMEM : 0;
}

int e2fold_json_create_document(struct e2fold_json *o, const char *path,
				const char *tool)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return errno;
	e2fold_json_begin_document(o, f, tool);
	return 0;
}

int e2fold_json_close_document(struct e2fold_json *o)
{
	int err = e2fold_json_end_document(o);

	if (fclose(o->f) && !err)
		err = errno;
	o->f = NULL;
	return err;
}

void e2fold_json_list_add(struct e2fold_json_list *l,
			  struct e2fold_json *item)
{
	char *s = e2fold_json_finish(item);

	if (s && e2fold_array_reserve(&l->items, &l->cap, l->n + 1,
				      sizeof(*l->items))) {
		free(s);
		s = NULL;
	}
	if (!s) {
		l->failed = 1;
		return;
	}
	l->items[l->n++] = s;
}

void e2fold_json_list_write(struct e2fold_json *o, const char *key,
			    const struct e2fold_json_list *l)
{
	size_t i;

	if (l->failed)
		o->failed = 1;
	e2fold_json_array(o, key, E2FOLD_JSON_LINES);
	for (i = 0; i < l->n; i++)
		e2fold_json_literal(o, NULL, l->items[i]);
	e2fold_json_close(o);
}

void e2fold_json_list_free(struct e2fold_json_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}
