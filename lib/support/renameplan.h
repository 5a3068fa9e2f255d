/*
 * renameplan.h: the renames that make one directory's names acceptable to a
 * casefolded directory (and, under strict, to a strict filesystem).
 *
 * Names whose keys are equal (cfname.h) collide, and so does a name whose
 * key equals that of "." or "..": Linux's linear lookup meets those entries
 * first. The name that comes first in the caller's order keeps its name;
 * "." and ".." always keep theirs. Every other member of a group, and
 * under strict every name utf8_validate rejects, gets a new name from
 * e2fold_unique_name(), unique among all names including the new ones.
 */
#ifndef E2FOLD_RENAMEPLAN_H
#define E2FOLD_RENAMEPLAN_H

#include <ext2fs/ext2fs.h>

#include "cfname.h"

struct e2fold_name_in {
	const unsigned char *name;
	unsigned int len;
};

enum e2fold_rename_reason {
	E2FOLD_RENAME_COLLISION,	/* same key as an earlier name */
	E2FOLD_RENAME_INVALID,		/* not valid UTF-8 (strict) */
};

struct e2fold_rename_plan {
	size_t index;			/* which name (its place in the input) */
	enum e2fold_rename_reason reason;
	/* Collisions: the name that keeps its own, or SIZE_MAX for "."/"..". */
	size_t keeper;
	int keeper_is_dot;		/* 1 ".", 2 ".." (keeper SIZE_MAX) */
	unsigned char name[E2FOLD_NAME_MAX];
	unsigned int len;
};

/*
 * Plan the renames for names[0..n) taken in order[0..n) (indexes into
 * names; NULL: input order). um NULL compares bytes. Returns 0 with a
 * malloc'd array (free it) of *ret_count plans, in order, or
 * EXT2_ET_NO_MEMORY, or EXT2_ET_TOO_MANY_REFS if no unique name exists.
 */
errcode_t e2fold_plan_renames(const struct unicode_map *um,
			      int strict,
			      const struct e2fold_name_in *names,
			      size_t n, const size_t *order,
			      struct e2fold_rename_plan **ret,
			      size_t *ret_count);

/* An order of names[0..n) by their bytes (memcmp, shorter first on ties). */
errcode_t e2fold_sorted_order(const struct e2fold_name_in *names,
			      size_t n, size_t **ret_order);

#endif /* E2FOLD_RENAMEPLAN_H */
