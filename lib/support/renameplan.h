/*
 * renameplan.h: which entries of one directory must give up their names
 * for the directory to be casefolded (or, under strict, to be on a strict
 * filesystem), and the new name each gets (newname.h).
 *
 * Names whose keys are equal (cfname.h) collide; with E2FOLD_PLAN_DOTS so
 * does a name whose key equals that of "." or "..": Linux's linear lookup
 * meets those entries first. The names are added in the caller's order:
 * the first of a group keeps its name, "." and ".." always keep theirs,
 * every later member of a group loses its own. With E2FOLD_PLAN_STRICT a
 * name that collides with nothing but that utf8_validate rejects loses
 * its name too. New names are chosen in the caller's order as well, each
 * unique among all the names and the new names taken before it.
 *
 * One planner serves every tool; what differs is said by parameters:
 *   - e2fold-mkfs and e2fold-tune plan a whole directory at once
 *     (e2fold_plan_renames): names in byte order, every rename taken, a
 *     name that cannot be made unique an error;
 *   - e2fold-fsck goes step by step: names in directory order with the
 *     keys it computed for their hashes, dots only where the directory is
 *     casefolded, each new name taken only if the rename is accepted (a
 *     refused one leaves its new name free for the next), and a name that
 *     cannot be made unique reported, not fatal;
 *   - e2fold-utf8 scan and fsck's leaf check only group the names: they
 *     read a name's keeper, or whether it collides, and choose nothing.
 */
#ifndef E2FOLD_RENAMEPLAN_H
#define E2FOLD_RENAMEPLAN_H

#include <ext2fs/ext2fs.h>

#include "cfname.h"
#include "nameset.h"

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
	/*
	 * Collisions: the name that keeps its own, an index below n (the
	 * number of names), or n for "." and n + 1 for ".."
	 * (e2fold_keeper_dot); SIZE_MAX for an invalid name.
	 */
	size_t keeper;
	unsigned char name[E2FOLD_NAME_MAX];
	unsigned int len;
};

/* "." (keeper n) or ".." (n + 1), or NULL for a keeper below n. */
const char *e2fold_keeper_dot(size_t n, size_t keeper);

#define E2FOLD_PLAN_STRICT	0x1	/* invalid names lose theirs */
#define E2FOLD_PLAN_DOTS	0x2	/* "." and ".." are in the directory */

struct e2fold_renameplan;

/*
 * A planner for n names, whose bytes name_fn gives for ids below n (it
 * is asked only when two keys' hashes are equal). um NULL compares bytes.
 * Returns 0, or EXT2_ET_NO_MEMORY.
 */
errcode_t e2fold_renameplan_new(const struct unicode_map *um, int flags,
				size_t n, e2fold_name_fn name_fn, void *arg,
				struct e2fold_renameplan **ret);
void e2fold_renameplan_free(struct e2fold_renameplan *rp);

/*
 * Add name k, the next in the caller's order, with its key (NULL: the
 * planner computes it). *ret_loses (may be NULL): 1 if k must give up its
 * name. Returns 0, or EXT2_ET_NO_MEMORY.
 */
errcode_t e2fold_renameplan_add(struct e2fold_renameplan *rp, size_t k,
				const struct e2fold_key *key, int *ret_loses);

/*
 * Once k is added: 0 if it keeps its name, else 1 with plan's index,
 * reason and keeper set (its new name not yet chosen).
 */
int e2fold_renameplan_fate(const struct e2fold_renameplan *rp, size_t k,
			   struct e2fold_rename_plan *plan);

/*
 * Choose plan's new name, unique among every name and every new name
 * taken so far; it is not taken yet. Returns 0, or EXT2_ET_TOO_MANY_REFS
 * if no unique name was found.
 */
errcode_t e2fold_renameplan_choose(struct e2fold_renameplan *rp,
				   struct e2fold_rename_plan *plan);

/* The plan is carried out: later choices avoid its name. */
errcode_t e2fold_renameplan_take(struct e2fold_renameplan *rp,
				 const struct e2fold_rename_plan *plan);

/*
 * The plans taken, in the order taken, handed to the caller: a malloc'd
 * array (NULL when none) to free; the planner no longer holds them.
 */
void e2fold_renameplan_release(struct e2fold_renameplan *rp,
			       struct e2fold_rename_plan **ret,
			       size_t *ret_count);

/*
 * The whole plan at once, for names[0..n) taken in order[0..n) (indexes
 * into names; NULL: input order), "." and ".." in the directory, every
 * rename taken. Returns 0 with a malloc'd array (free it) of *ret_count
 * plans, in order, or EXT2_ET_NO_MEMORY, or EXT2_ET_TOO_MANY_REFS if no
 * unique name exists.
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
