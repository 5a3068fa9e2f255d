/*
 * json.h: building the JSON reports the tools write. An object is built
 * field by field into a growing string; names always go in twice, as
 * escaped text and as hex, so a report loses no byte.
 */
#ifndef E2FOLD_JSON_H
#define E2FOLD_JSON_H

#include <stddef.h>

#include "unicode.h"

struct e2fold_json {
	char *s;
	size_t len, cap;
	int fields;
	int failed;		/* out of memory at some point */
};

void e2fold_json_raw(struct e2fold_json *o, const char *s,
		     size_t n);
void e2fold_json_key(struct e2fold_json *o, const char *key);
void e2fold_json_string(struct e2fold_json *o, const char *key,
			const unsigned char *s, unsigned int len);
void e2fold_json_number(struct e2fold_json *o, const char *key,
			unsigned long long v);
void e2fold_json_bool(struct e2fold_json *o, const char *key,
		      int v);
/* key as escaped text, and key_hex as hex bytes. */
void e2fold_json_name(struct e2fold_json *o, const char *key,
		      const unsigned char *s, unsigned int len);
/* Close the object; returns its text (the caller frees it) or NULL. */
char *e2fold_json_finish(struct e2fold_json *o);

#endif /* E2FOLD_JSON_H */
