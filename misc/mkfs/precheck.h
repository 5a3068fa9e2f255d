/*
 * precheck.h: the names of every casefolded directory, checked before
 * anything is written.
 *
 * Two names of one directory whose casefold keys are equal (cfname.h:
 * the casefolded bytes, or the raw bytes when folding fails, which is
 * how Linux matches them) are a collision: a lookup of one can return
 * the other. A name whose key equals that of "." or ".." collides with
 * the directory's own entries (a linear lookup would find "." first).
 * On a strict filesystem a name that is not valid UTF-8 is an error: the
 * kernel would refuse to create it and cannot look it up.
 *
 * Within a directory the names are taken in sorted byte order (memcmp of
 * the source names); the first of a collision group keeps its name, and
 * /lost+found, "." and ".." always keep theirs. With renaming, every
 * other member gets the name e2fold_plan_renames() (renameplan.h) chooses, as
 * e2fold-fsck does: unique in the directory, valid UTF-8, at most 255
 * bytes, never a cut character.
 */
#ifndef MKFS_PRECHECK_H
#define MKFS_PRECHECK_H

#include <ext2fs/ext2fs.h>

#include "tree.h"
#include "unicode.h"

enum mkfs_problem_kind {
	MKFS_PROBLEM_COLLISION,
	MKFS_PROBLEM_INVALID,
};

struct mkfs_problem {
	enum mkfs_problem_kind kind;
	struct mkfs_node *dir;
	struct mkfs_node *node;		/* the name that must give way */
	size_t index;			/* node's place in dir->children */
	struct mkfs_node *keeper;	/* collisions: who keeps the name */
	const char *keeper_dot;		/* ... or "." / ".." (keeper NULL) */
	size_t group;			/* collisions: group number, from 0 */
	int renamed;			/* node->name is its new name */
};

struct mkfs_precheck {
	struct mkfs_problem *problems;	/* by directory, then source order */
	size_t nproblems, cap;
	size_t ngroups;
	size_t ncollisions, ninvalid;
};

/*
 * Check every casefolded directory of tree; with rename, rename as
 * described above. um is the filesystem's encoding. Returns 0 (problems,
 * if any, in *ret), or EXT2_ET_NO_MEMORY / EXT2_ET_TOO_MANY_REFS (no
 * unique name found).
 */
errcode_t mkfs_precheck(struct mkfs_tree *tree, const struct unicode_map *um,
			int strict, int rename, struct mkfs_precheck *ret);

void mkfs_precheck_free(struct mkfs_precheck *pc);

#endif /* MKFS_PRECHECK_H */
