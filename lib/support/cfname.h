/*
 * cfname.h: file names in casefolded directories, as the kernel sees them.
 *
 * Identity. Linux looks a name up by its casefolded form; a name whose
 * folding fails (invalid UTF-8) is matched byte for byte instead, and is
 * hashed over its raw bytes. So every name has one "key": its casefolded
 * bytes, or its raw bytes when it cannot be folded. Two entries of one
 * directory whose keys are equal are duplicates: a lookup of one can find
 * the other (an entry whose raw bytes equal another name's folded bytes
 * is found by that name, as Linux 6.1 matches a folded lookup name against
 * an unfoldable entry byte for byte). The directory hash is a function of
 * the key alone.
 *
 * Validity. A strict filesystem refuses names that utf8_validate rejects;
 * that includes names with a stray continuation byte, which folding
 * accepts.
 */
#ifndef E2FOLD_CFNAME_H
#define E2FOLD_CFNAME_H

#include <stddef.h>

#include "unicode.h"

#define E2FOLD_NAME_MAX 255
/* The kernel folds into a PATH_MAX buffer: a fold longer than that fails. */
#define E2FOLD_FOLD_MAX 4096

struct e2fold_key {
	unsigned char bytes[E2FOLD_FOLD_MAX];
	unsigned int len;
	int folded;		/* 1: casefolded bytes; 0: the raw name */
};

/* The key of a name (see above). um NULL: the raw name. */
void e2fold_name_key(const struct unicode_map *um,
		     const unsigned char *name, unsigned int len,
		     struct e2fold_key *key);

/* 1 if a strict filesystem would accept the name. */
int e2fold_name_is_valid(const struct unicode_map *um,
			 const unsigned char *name,
			 unsigned int len);

/*
 * Escape a name for a terminal or a log: printable ASCII and valid UTF-8
 * sequences of printable characters as they are, a backslash as "\\",
 * everything else (control bytes, invalid or stray bytes, C1 controls,
 * U+2028/U+2029, bidirectional controls) as \xHH per byte. The result is
 * NUL-terminated and truncated to fit size (at least 1). Returns buf.
 */
char *e2fold_escape_name(const unsigned char *name,
			 unsigned int len, char *buf, size_t size);

/* Bytes e2fold_escape_name needs for any name of len bytes. */
#define E2FOLD_ESCAPED_SIZE(len) (4 * (size_t)(len) + 1)

/*
 * Names that differ only in normalization (NFC and NFD "café") print
 * alike, yet are different names. The rule for every message that shows
 * two or more names: when any two of them are different bytes whose
 * escaped forms (invisible code points already \xHH) are canonically
 * equivalent, as e2fold_names_print_alike tells (names of at most
 * E2FOLD_NAME_MAX bytes), every name of that message is printed with
 * e2fold_escape_name_exact, which writes each character outside
 * printable ASCII as \uXXXX (\UXXXXXXXX above U+FFFF), a byte that is
 * not UTF-8 as \xHH and a backslash as "\\": "caf\u00E9" and
 * "cafe\u0301". It needs no more room than E2FOLD_ESCAPED_SIZE.
 */
int e2fold_names_print_alike(const unsigned char *a, unsigned int alen,
			     const unsigned char *b, unsigned int blen);
char *e2fold_escape_name_exact(const unsigned char *name, unsigned int len,
			       char *buf, size_t size);

/*
 * Escape a byte string as the contents of a JSON string (without the
 * quotes): valid UTF-8 stays, '"' and control characters get JSON
 * escapes, and the decoded string follows e2fold_escape_name's scheme: a
 * backslash is "\\\\" (two backslashes once decoded) and a byte that is
 * not part of valid UTF-8 is "\\xHH" (a backslash, then xHH), so that the
 * original bytes can be recovered. Returns buf, truncated to size like
 * e2fold_escape_name.
 */
char *e2fold_json_escape(const unsigned char *s, unsigned int len,
			 char *buf, size_t size);
#define E2FOLD_JSON_ESCAPED_SIZE(len) (6 * (size_t)(len) + 1)

#endif /* E2FOLD_CFNAME_H */
