/*
 * nameset.h: a set of directory entries keyed by their casefold key (see
 * cfname.h), to find duplicates in time linear in the number of entries.
 *
 * Members are ids chosen by the caller; the set stores only a 64-bit hash
 * of each key and the id, and asks the caller for a member's name when two
 * hashes are equal, so that a million-entry directory costs 16 bytes an
 * entry rather than a copy of every name.
 */
#ifndef E2FOLD_NAMESET_H
#define E2FOLD_NAMESET_H

#include <stddef.h>
#include <stdint.h>

#include "cfname.h"

/* The name of member id (0), or -1 if the caller has none. */
typedef int (*e2fold_name_fn)(void *arg, size_t id,
			      const unsigned char **ret_name,
			      unsigned int *ret_len);

struct e2fold_nameset;

/* NULL when out of memory. um NULL: keys are the raw names. */
struct e2fold_nameset *e2fold_nameset_new(const struct unicode_map *um,
					  e2fold_name_fn name_fn,
					  void *arg);
void e2fold_nameset_free(struct e2fold_nameset *set);

/*
 * Make room for n members in all, so that adding them never grows the
 * table: each growth rehashes every member and holds the old table and
 * the new one at once. 0, or -1 when out of memory.
 */
int e2fold_nameset_reserve(struct e2fold_nameset *set, size_t n);

/*
 * Add member id, whose name is name/len. Returns 0 if added; 1 if a member
 * with an equal key exists (id is then not added and *ret_other is that
 * member); -1 when out of memory.
 */
int e2fold_nameset_add(struct e2fold_nameset *set, size_t id,
		       const unsigned char *name, unsigned int len,
		       size_t *ret_other);

/* The same, with the key of the member's name already computed. */
int e2fold_nameset_add_key(struct e2fold_nameset *set, size_t id,
			   const struct e2fold_key *key,
			   size_t *ret_other);

/* 1 and *ret_other if some member's key equals name's key, else 0. */
int e2fold_nameset_find(struct e2fold_nameset *set,
			const unsigned char *name, unsigned int len,
			size_t *ret_other);

#endif /* E2FOLD_NAMESET_H */
