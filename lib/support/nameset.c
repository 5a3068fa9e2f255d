/* nameset.c: open-addressing hash set of entries keyed by casefold key. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "nameset.h"

struct slot {
	uint64_t khash;		/* hash of the key; 0 = empty slot */
	size_t id;
};

struct e2fold_nameset {
	const struct unicode_map *um;
	e2fold_name_fn name_fn;
	void *arg;
	struct slot *slots;
	size_t mask;		/* slots - 1 (a power of two minus one) */
	size_t count;
	struct e2fold_key probe, other;	/* scratch keys: 8 KiB, not on the stack */
};

/* FNV-1a, never 0 (0 marks an empty slot). */
static uint64_t key_hash(const struct e2fold_key *key)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned int i;

	for (i = 0; i < key->len; i++) {
		h ^= key->bytes[i];
		h *= 0x100000001b3ull;
	}
	return h ? h : 1;
}

struct e2fold_nameset *e2fold_nameset_new(const struct unicode_map *um,
					  e2fold_name_fn name_fn, void *arg)
{
	struct e2fold_nameset *set = calloc(1, sizeof(*set));

	if (!set)
		return NULL;
	set->um = um;
	set->name_fn = name_fn;
	set->arg = arg;
	set->mask = 63;
	set->slots = calloc(set->mask + 1, sizeof(*set->slots));
	if (!set->slots) {
		free(set);
		return NULL;
	}
	return set;
}

void e2fold_nameset_free(struct e2fold_nameset *set)
{
	if (!set)
		return;
	free(set->slots);
	free(set);
}

/* Move the members into a table of n slots (a power of two). */
static int resize(struct e2fold_nameset *set, size_t n)
{
	struct slot *slots = calloc(n, sizeof(*slots));
	size_t i;

	if (!slots)
		return -1;
	for (i = 0; i <= set->mask; i++) {
		size_t j;

		if (!set->slots[i].khash)
			continue;
		j = set->slots[i].khash & (n - 1);
		while (slots[j].khash)
			j = (j + 1) & (n - 1);
		slots[j] = set->slots[i];
	}
	free(set->slots);
	set->slots = slots;
	set->mask = n - 1;
	return 0;
}

/* The table is kept at most half full. */
int e2fold_nameset_reserve(struct e2fold_nameset *set, size_t n)
{
	size_t slots = set->mask + 1;

	while (slots / 2 < n) {
		if (slots > (size_t)-1 / 2 / sizeof(struct slot))
			return -1;
		slots *= 2;
	}
	return slots == set->mask + 1 ? 0 : resize(set, slots);
}

/* Does member id have this key? */
static int same_key(struct e2fold_nameset *set, size_t id,
		    const struct e2fold_key *key)
{
	const unsigned char *name;
	unsigned int len;

	if (set->name_fn(set->arg, id, &name, &len))
		return 0;
	e2fold_name_key(set->um, name, len, &set->other);
	return set->other.len == key->len &&
	       !memcmp(set->other.bytes, key->bytes, key->len);
}

/* Slot where the key is, or the empty slot where it would go. */
static size_t lookup(struct e2fold_nameset *set, const struct e2fold_key *key,
		     uint64_t khash, int *found)
{
	size_t i = khash & set->mask;

	*found = 0;
	while (set->slots[i].khash) {
		if (set->slots[i].khash == khash &&
		    same_key(set, set->slots[i].id, key)) {
			*found = 1;
			return i;
		}
		i = (i + 1) & set->mask;
	}
	return i;
}

int e2fold_nameset_find(struct e2fold_nameset *set, const unsigned char *name,
			unsigned int len, size_t *ret_other)
{
	uint64_t khash;
	size_t i;
	int found;

	e2fold_name_key(set->um, name, len, &set->probe);
	khash = key_hash(&set->probe);
	i = lookup(set, &set->probe, khash, &found);
	if (found)
		*ret_other = set->slots[i].id;
	return found;
}

int e2fold_nameset_add(struct e2fold_nameset *set, size_t id,
		       const unsigned char *name, unsigned int len,
		       size_t *ret_other)
{
	e2fold_name_key(set->um, name, len, &set->probe);
	return e2fold_nameset_add_key(set, id, &set->probe, ret_other);
}

int e2fold_nameset_add_key(struct e2fold_nameset *set, size_t id,
			   const struct e2fold_key *key, size_t *ret_other)
{
	uint64_t khash;
	size_t i;
	int found;

	if (2 * (set->count + 1) > set->mask + 1 &&
	    resize(set, (set->mask + 1) * 2))
		return -1;
	khash = key_hash(key);
	i = lookup(set, key, khash, &found);
	if (found) {
		*ret_other = set->slots[i].id;
		return 1;
	}
	set->slots[i].khash = khash;
	set->slots[i].id = id;
	set->count++;
	return 0;
}
