/*
 * json.h: the one JSON writer of the tools' reports.
 *
 * A writer holds the containers (objects and arrays) open at the moment
 * and writes either into a growing string (a zeroed struct; so the tools
 * build each report item, kept until the report is written) or straight
 * to a FILE (set .f, or begin a document: a whole report, streamed, so
 * that a scan of a large tree holds nothing of what it has written).
 *
 * Layout. An INLINE container is one line: {"a": 1, "b": [2, 3]}. A LINES
 * container puts each member on a line of its own, indented two spaces a
 * level, and closes on a line of its own; empty, it is {} or []:
 *
 *   {
 *     "a": 1,
 *     "b": [
 *       {"c": 2}
 *     ],
 *     "d": []
 *   }
 *
 * Tests compare reports byte for byte and read them line by line, so this
 * layout is part of the tools' interface.
 *
 * Values go into the innermost open container: with a key into an object,
 * with key NULL into an array (or as the whole text). Keys are written as
 * given (they are ours: plain ASCII). Names always go in twice, as escaped
 * text and as hex (e2fold_json_name), so a report loses no byte.
 *
 * Errors: running out of memory, a key in an array, none in an object or
 * nesting deeper than E2FOLD_JSON_DEPTH sets failed; the writer then
 * writes nothing more, and finishing reports it.
 */
#ifndef E2FOLD_JSON_H
#define E2FOLD_JSON_H

#include <stddef.h>
#include <stdio.h>

#include <ext2fs/ext2fs.h>

#include "unicode.h"

#define E2FOLD_JSON_DEPTH 8

enum e2fold_json_layout {
	E2FOLD_JSON_INLINE,
	E2FOLD_JSON_LINES,
};

struct e2fold_json {
	FILE *f;		/* NULL: the text is built in s */
	char *s;
	size_t len, cap;
	unsigned int depth;	/* containers open */
	struct {
		char close;	/* '}' or ']' */
		unsigned char lines;
		size_t members;
	} open[E2FOLD_JSON_DEPTH];
	int failed;
};

/* Open an object or an array; e2fold_json_close closes the innermost. */
void e2fold_json_object(struct e2fold_json *o, const char *key,
			enum e2fold_json_layout layout);
void e2fold_json_array(struct e2fold_json *o, const char *key,
		       enum e2fold_json_layout layout);
void e2fold_json_close(struct e2fold_json *o);

/* The bytes as a JSON string (e2fold_json_escape). */
void e2fold_json_string(struct e2fold_json *o, const char *key,
			const unsigned char *s, unsigned int len);
/* A C string as a JSON string; NULL is null. */
void e2fold_json_text(struct e2fold_json *o, const char *key,
		      const char *s);
void e2fold_json_number(struct e2fold_json *o, const char *key,
			unsigned long long v);
void e2fold_json_int(struct e2fold_json *o, const char *key, long long v);
void e2fold_json_bool(struct e2fold_json *o, const char *key, int v);
void e2fold_json_null(struct e2fold_json *o, const char *key);
/* key as escaped text, and key_hex as hex bytes. */
void e2fold_json_name(struct e2fold_json *o, const char *key,
		      const unsigned char *s, unsigned int len);
/*
 * A directory of fs: "dir_inode", then "dir_path" and "dir_path_hex" when
 * libext2fs can name it (a damaged tree may not lead to it).
 */
void e2fold_json_dir(struct e2fold_json *o, ext2_filsys fs, ext2_ino_t dir);
/* JSON text written as it is (a finished item, say). */
void e2fold_json_literal(struct e2fold_json *o, const char *key,
			 const char *json);

/*
 * Close what is open. A string writer returns its text (the caller frees
 * it) or NULL if it failed; a FILE writer returns NULL.
 */
char *e2fold_json_finish(struct e2fold_json *o);

/*
 * A report document: o streams to f, as one LINES object that begins with
 * "tool" and "version" (unless tool is NULL). Ending it closes what is
 * open and the line; returns 0 or ENOMEM (the writer failed: the document
 * is not whole). Errors of f itself are f's (ferror, fclose).
 */
void e2fold_json_begin_document(struct e2fold_json *o, FILE *f,
				const char *tool);
int e2fold_json_end_document(struct e2fold_json *o);

/*
 * The same in a file of its own (a --report FILE): create creates path
 * and begins the document, 0 or errno; close ends it and closes the
 * file, 0 or the first error (ENOMEM, or the file's errno).
 */
int e2fold_json_create_document(struct e2fold_json *o, const char *path,
				const char *tool);
int e2fold_json_close_document(struct e2fold_json *o);

/*
 * Items gathered while a tool runs (findings, changes), written at the
 * end as an array. An item that cannot be kept fails the list, and the
 * writer it is written to.
 */
struct e2fold_json_list {
	char **items;
	size_t n, cap;
	int failed;
};

/* Finish the string writer item and keep its text in l. */
void e2fold_json_list_add(struct e2fold_json_list *l,
			  struct e2fold_json *item);
/* l as a LINES array, each item on its own line. */
void e2fold_json_list_write(struct e2fold_json *o, const char *key,
			    const struct e2fold_json_list *l);
/* Free the items; l is empty again. */
void e2fold_json_list_free(struct e2fold_json_list *l);

#endif /* E2FOLD_JSON_H */
