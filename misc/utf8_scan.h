/*
 * utf8_scan.h: `e2fold-utf8 scan`, which walks host directory trees (on
 * any filesystem) and reports the names that could not live side by side
 * in a casefolded ext4 directory, and the names a strict one refuses.
 */
#ifndef E2FOLD_UTF8_SCAN_H
#define E2FOLD_UTF8_SCAN_H

#include "unicode.h"

struct utf8_scan_options {
	const struct unicode_map *um;	/* the encoding's Unicode version */
	int strict;	/* the target refuses invalid UTF-8 (and so never
			   compares such names) */
	int json;	/* one JSON document instead of text */
	int hex;	/* each name's bytes in hex after it (text) */
	int progress_fd;	/* -C: e2fsck's progress (progress.h); -1 none */
};

/* Exit statuses of scan; e2fold-utf8(1) documents them. */
#define UTF8_SCAN_CLEAN 0	/* no finding, no error */
#define UTF8_SCAN_FOUND 1	/* a collision or (strict) an invalid name */
#define UTF8_SCAN_ERROR 2	/* a usage error, or something not scanned */

/* Scan the trees under the NULL-terminated paths; returns an exit status. */
int utf8_scan(const struct utf8_scan_options *opt, char *const *paths);

#endif /* E2FOLD_UTF8_SCAN_H */
