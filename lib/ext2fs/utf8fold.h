/*
 * utf8fold.h: the fast path of the engine: a whole string normalized into
 * a buffer, with the cursor's exact bytes.
 */
#ifndef E2FOLD_UTF8FOLD_H
#define E2FOLD_UTF8FOLD_H

#include <stddef.h>

#include "utf8lookup.h"

enum utf8_fold_status {
	UTF8_FOLD_OK,		/* the whole form is in the buffer */
	UTF8_FOLD_INVALID,	/* the buffer holds the bytes before the -1 */
	UTF8_FOLD_FULL,		/* the form does not fit in the buffer */
};

/*
 * Write the form of table t of s (at most len bytes, up to a NUL) into
 * out[0..cap), and its length to *ret_len. The bytes are those utf8byte()
 * yields, up to its 0 or -1; a string that begins with a continuation
 * byte is INVALID with no bytes, as the cursor refuses to start on it.
 */
enum utf8_fold_status e2fold_utf8_fold(const struct utf8data *t,
				       const unsigned char *s, size_t len,
				       unsigned char *out, size_t cap,
				       size_t *ret_len);

/*
 * The same for the rest of a string whose start folded to a starter (so
 * no run is pending): a first continuation byte is a stray byte here, not
 * an invalid start. A run of more than 32 non-starters reports
 * UTF8_FOLD_FULL (the cursor cannot start mid-string); callers fall back
 * to folding the whole string.
 */
enum utf8_fold_status e2fold_utf8_fold_rest(const struct utf8data *t,
					    const unsigned char *s, size_t len,
					    unsigned char *out, size_t cap,
					    size_t *ret_len);

/*
 * The same, except that Default_Ignorable code points are kept as they
 * are (as starters) instead of removed: the form Linux 6.12-rc3 to
 * 6.13-rc2 computed, which placed some entries in htree leaves that other
 * kernels cannot find. Used only to name such entries; runs of more than
 * 32 non-starters report UTF8_FOLD_FULL.
 */
enum utf8_fold_status e2fold_utf8_fold_keeping_ignorables(
	const struct utf8data *t, const unsigned char *s, size_t len,
	unsigned char *out, size_t cap, size_t *ret_len);

/*
 * Would folding s (at most len bytes, up to a NUL) succeed? The answer is
 * the same under every table: the stream fails only where the bytes are
 * not UTF-8 (a stray continuation byte passes, except as the first byte).
 * Two identical names compare equal exactly when this holds.
 */
int e2fold_utf8_stream_ok(const unsigned char *s, size_t len);

/* What each ASCII byte becomes under table t (128 bytes). */
const unsigned char *e2fold_utf8_ascii_map(const struct utf8data *t);

#endif /* E2FOLD_UTF8FOLD_H */
