/*
 * source_report.h: what the source check found, for people and for programs.
 *
 * People: every collision group as the full source paths of its names
 * (the one that keeps the name first), every invalid name, and, when
 * renaming, one line per rename. Programs: --report FILE, a JSON object:
 *
 *   { "source": "...", "encoding": "utf8-12.1", "encoding_flags": "strict",
 *     "collisions": "stop" | "rename", "casefolded_directories": N,
 *     "written": true | false, "error": "stage: message" (a failure only),
 *     "collision_groups": [ { "directory": "/image/path",
 *         "names": ["README", "readme"], "kept": "README",
 *         "renamed": [ { "from": "readme", "to": "readme~1" } ] } ],
 *     "invalid_names": [ { "directory": "/image/path", "name": "...",
 *         "renamed_to": "..." | null } ] }
 *
 * Names are JSON strings of their bytes: valid UTF-8 as it is, any other
 * byte as the six characters \\xHH (e2fold_json_escape).
 */
#ifndef MKFS_REPORT_H
#define MKFS_REPORT_H

#include <stdio.h>

#include <ext2fs/ext2fs.h>

#include "precheck.h"
#include "source.h"

struct mkfs_report_info {
	const char *source;
	const char *encoding;		/* NULL: no casefold feature */
	__u16 encoding_flags;
	int rename;
	size_t casefolded_dirs;
	int written;
	const char *error;		/* why nothing was written, or NULL */
};

/* The problems that stop the run (collisions=stop), to f. */
void mkfs_report_problems(FILE *f, const struct mkfs_precheck *pc,
			  const struct mkfs_source *src);

/* One line per rename, to f. */
void mkfs_report_renames(FILE *f, const struct mkfs_precheck *pc,
			 const struct mkfs_source *src);

/* Write the JSON report to path. Prints and returns errno on failure. */
errcode_t mkfs_report_json(const char *path, const struct mkfs_precheck *pc,
			   const struct mkfs_report_info *info);

#endif /* MKFS_REPORT_H */
