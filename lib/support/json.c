/* json.c: JSON objects for the reports. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfname.h"
#include "json.h"

void e2fold_json_raw(struct e2fold_json *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 256;
		char *p;

		while (cap < o->len + n + 1)
			cap *= 2;
		p = realloc(o->s, cap);
		if (!p) {
			o->failed = 1;
			return;
		}
		o->s = p;
		o->cap = cap;
	}
	memcpy(o->s + o->len, s, n);
	o->len += n;
	o->s[o->len] = '\0';
}

void e2fold_json_key(struct e2fold_json *o, const char *key)
{
	if (o->fields++)
		e2fold_json_raw(o, ", \"", 3);
	else
		e2fold_json_raw(o, "{\"", 2);
	e2fold_json_raw(o, key, strlen(key));
	e2fold_json_raw(o, "\": ", 3);
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
	e2fold_json_key(o, key);
	e2fold_json_raw(o, "\"", 1);
	e2fold_json_raw(o, buf, strlen(buf));
	e2fold_json_raw(o, "\"", 1);
	free(buf);
}

void e2fold_json_number(struct e2fold_json *o, const char *key,
			unsigned long long v)
{
	char buf[32];

	e2fold_json_key(o, key);
	e2fold_json_raw(o, buf, snprintf(buf, sizeof(buf), "%llu", v));
}

void e2fold_json_bool(struct e2fold_json *o, const char *key, int v)
{
	e2fold_json_key(o, key);
	e2fold_json_raw(o, v ? "true" : "false", v ? 4 : 5);
}

void e2fold_json_name(struct e2fold_json *o, const char *key,
		      const unsigned char *s, unsigned int len)
{
	char hexkey[64], hex[3];
	unsigned int i;

	e2fold_json_string(o, key, s, len);
	snprintf(hexkey, sizeof(hexkey), "%s_hex", key);
	e2fold_json_key(o, hexkey);
	e2fold_json_raw(o, "\"", 1);
	for (i = 0; i < len; i++) {
		snprintf(hex, sizeof(hex), "%02x", s[i]);
		e2fold_json_raw(o, hex, 2);
	}
	e2fold_json_raw(o, "\"", 1);
}

char *e2fold_json_finish(struct e2fold_json *o)
{
	if (!o->fields)
		e2fold_json_raw(o, "{", 1);
	e2fold_json_raw(o, "}", 1);
	if (o->failed) {
		free(o->s);
		o->s = NULL;
	}
	return o->s;
}
