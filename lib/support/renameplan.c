/* renameplan.c: plan the renames that make a directory's names unique. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "nameset.h"
#include "newname.h"
#include "renameplan.h"

/* A name's fate: it keeps its name, is invalid, or the id of its keeper. */
#define KEEPS SIZE_MAX
#define INVALID (SIZE_MAX - 1)

static const char *const dots[] = { ".", ".." };

/*
 * Nameset ids: the caller's names (0..n-1), "." and ".." (n, n + 1, in
 * the set with E2FOLD_PLAN_DOTS), then the new names taken (n + 2...).
 */
struct e2fold_renameplan {
	const struct unicode_map *um;
	int flags;
	size_t n;
	e2fold_name_fn name_fn;
	void *arg;
	struct e2fold_nameset *set;
	size_t *fate;
	struct e2fold_rename_plan *plans;	/* taken */
	size_t nplans, cap;
};

const char *e2fold_keeper_dot(size_t n, size_t keeper)
{
	return keeper == n || keeper == n + 1 ? dots[keeper - n] : NULL;
}

static int member_name(void *arg, size_t id, const unsigned char **ret_name,
		       unsigned int *ret_len)
{
	struct e2fold_renameplan *rp = arg;

	if (id < rp->n)
		return rp->name_fn(rp->arg, id, ret_name, ret_len);
	id -= rp->n;
	if (id < 2) {
		*ret_name = (const unsigned char *)dots[id];
		*ret_len = id + 1;
		return 0;
	}
	id -= 2;
	if (id >= rp->nplans)
		return -1;
	*ret_name = rp->plans[id].name;
	*ret_len = rp->plans[id].len;
	return 0;
}

static int taken(void *arg, const unsigned char *name, unsigned int len)
{
	struct e2fold_renameplan *rp = arg;
	size_t other;

	return e2fold_nameset_find(rp->set, name, len, &other);
}

/* "." and ".." first: a name with their key is never their keeper. */
static errcode_t add_dots(struct e2fold_renameplan *rp)
{
	size_t other, i;

	for (i = 0; i < 2; i++)
		if (e2fold_nameset_add(rp->set, rp->n + i,
				       (const unsigned char *)dots[i], i + 1,
				       &other) < 0)
			return EXT2_ET_NO_MEMORY;
	return 0;
}

errcode_t e2fold_renameplan_new(const struct unicode_map *um, int flags,
				size_t n, e2fold_name_fn name_fn, void *arg,
				struct e2fold_renameplan **ret)
{
	struct e2fold_renameplan *rp = calloc(1, sizeof(*rp));
	errcode_t retval = EXT2_ET_NO_MEMORY;
	size_t i;

	*ret = NULL;
	if (!rp)
		return retval;
	rp->um = um;
	rp->flags = flags;
	rp->n = n;
	rp->name_fn = name_fn;
	rp->arg = arg;
	rp->set = e2fold_nameset_new(um, member_name, rp);
	rp->fate = malloc((n + 1) * sizeof(*rp->fate));
	/* The names, "." and "..": a set that grows only for new names. */
	if (!rp->set || !rp->fate || e2fold_nameset_reserve(rp->set, n + 2))
		goto fail;
	for (i = 0; i < n; i++)
		rp->fate[i] = KEEPS;
	if (flags & E2FOLD_PLAN_DOTS) {
		retval = add_dots(rp);
		if (retval)
			goto fail;
	}
	*ret = rp;
	return 0;
fail:
	e2fold_renameplan_free(rp);
	return retval;
}

void e2fold_renameplan_free(struct e2fold_renameplan *rp)
{
	if (!rp)
		return;
	e2fold_nameset_free(rp->set);
	free(rp->fate);
	free(rp->plans);
	free(rp);
}

errcode_t e2fold_renameplan_add(struct e2fold_renameplan *rp, size_t k,
				const struct e2fold_key *key, int *ret_loses)
{
	const unsigned char *name = NULL;
	unsigned int len = 0;
	size_t other;
	int r;

	if (!key && rp->name_fn(rp->arg, k, &name, &len))
		return EXT2_ET_INVALID_ARGUMENT;
	r = key ? e2fold_nameset_add_key(rp->set, k, key, &other) :
		  e2fold_nameset_add(rp->set, k, name, len, &other);
	if (r < 0)
		return EXT2_ET_NO_MEMORY;
	if (r)
		rp->fate[k] = other;
	else if (rp->flags & E2FOLD_PLAN_STRICT) {
		if (!name && rp->name_fn(rp->arg, k, &name, &len))
			return EXT2_ET_INVALID_ARGUMENT;
		if (!e2fold_name_is_valid(rp->um, name, len))
			rp->fate[k] = INVALID;
	}
	if (ret_loses)
		*ret_loses = rp->fate[k] != KEEPS;
	return 0;
}

int e2fold_renameplan_fate(const struct e2fold_renameplan *rp, size_t k,
			   struct e2fold_rename_plan *plan)
{
	size_t fate = rp->fate[k];

	if (fate == KEEPS)
		return 0;
	memset(plan, 0, sizeof(*plan));
	plan->index = k;
	plan->reason = fate == INVALID ? E2FOLD_RENAME_INVALID :
		       E2FOLD_RENAME_COLLISION;
	plan->keeper = fate == INVALID ? SIZE_MAX : fate;
	return 1;
}

errcode_t e2fold_renameplan_choose(struct e2fold_renameplan *rp,
				   struct e2fold_rename_plan *plan)
{
	const unsigned char *name;
	unsigned int len;

	if (rp->name_fn(rp->arg, plan->index, &name, &len))
		return EXT2_ET_INVALID_ARGUMENT;
	return e2fold_unique_name(name, len, taken, rp, plan->name, &plan->len);
}

errcode_t e2fold_renameplan_take(struct e2fold_renameplan *rp,
				 const struct e2fold_rename_plan *plan)
{
	size_t other;
	errcode_t retval;

	retval = e2fold_array_reserve(&rp->plans, &rp->cap, rp->nplans + 1,
				      sizeof(*rp->plans));
	if (retval)
		return retval;
	rp->plans[rp->nplans++] = *plan;
	if (e2fold_nameset_add(rp->set, rp->n + 2 + rp->nplans - 1, plan->name,
			       plan->len, &other) < 0)
		return EXT2_ET_NO_MEMORY;
	return 0;
}

void e2fold_renameplan_release(struct e2fold_renameplan *rp,
			       struct e2fold_rename_plan **ret,
			       size_t *ret_count)
{
	*ret = rp->plans;
	*ret_count = rp->nplans;
	rp->plans = NULL;
	rp->nplans = rp->cap = 0;
}

static int input_name(void *arg, size_t id, const unsigned char **ret_name,
		      unsigned int *ret_len)
{
	const struct e2fold_name_in *names = arg;

	*ret_name = names[id].name;
	*ret_len = names[id].len;
	return 0;
}

/* Every name's fate first, so that new names avoid all old ones. */
static errcode_t plan_all(struct e2fold_renameplan *rp, size_t n,
			  const size_t *order)
{
	struct e2fold_rename_plan plan;
	errcode_t retval = 0;
	size_t i;

	for (i = 0; i < n && !retval; i++)
		retval = e2fold_renameplan_add(rp, order ? order[i] : i, NULL,
					       NULL);
	for (i = 0; i < n && !retval; i++) {
		if (!e2fold_renameplan_fate(rp, order ? order[i] : i, &plan))
			continue;
		retval = e2fold_renameplan_choose(rp, &plan);
		if (!retval)
			retval = e2fold_renameplan_take(rp, &plan);
	}
	return retval;
}

errcode_t e2fold_plan_renames(const struct unicode_map *um, int strict,
			      const struct e2fold_name_in *names, size_t n,
			      const size_t *order,
			      struct e2fold_rename_plan **ret,
			      size_t *ret_count)
{
	struct e2fold_renameplan *rp;
	errcode_t retval;

	*ret = NULL;
	*ret_count = 0;
	retval = e2fold_renameplan_new(um, E2FOLD_PLAN_DOTS |
				       (strict ? E2FOLD_PLAN_STRICT : 0), n,
				       input_name, (void *)names, &rp);
	if (retval)
		return retval;
	retval = plan_all(rp, n, order);
	if (!retval)
		e2fold_renameplan_release(rp, ret, ret_count);
	e2fold_renameplan_free(rp);
	return retval;
}

static int by_bytes(const void *a, const void *b, void *arg)
{
	const struct e2fold_name_in *names = arg;
	const struct e2fold_name_in *x = &names[*(const size_t *)a];
	const struct e2fold_name_in *y = &names[*(const size_t *)b];
	unsigned int n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, n);

	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

errcode_t e2fold_sorted_order(const struct e2fold_name_in *names, size_t n,
			      size_t **ret_order)
{
	size_t *order = malloc((n + 1) * sizeof(*order)), i;

	if (!order)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_bytes, (void *)names);
	*ret_order = order;
	return 0;
}
