/* renameplan.c: plan the renames that make a directory's names unique. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "nameset.h"
#include "newname.h"
#include "renameplan.h"

/* Nameset ids: the input names, then "." and "..", then new names. */
struct planner {
	const struct e2fold_name_in *names;
	size_t n;
	struct e2fold_rename_plan *plans;
	size_t nplans, cap;
	struct e2fold_nameset *set;
};

static int member_name(void *arg, size_t id, const unsigned char **ret_name,
		       unsigned int *ret_len)
{
	struct planner *p = arg;

	if (id < p->n) {
		*ret_name = p->names[id].name;
		*ret_len = p->names[id].len;
	} else if (id == p->n) {
		*ret_name = (const unsigned char *)".";
		*ret_len = 1;
	} else if (id == p->n + 1) {
		*ret_name = (const unsigned char *)"..";
		*ret_len = 2;
	} else if (id - p->n - 2 < p->nplans) {
		*ret_name = p->plans[id - p->n - 2].name;
		*ret_len = p->plans[id - p->n - 2].len;
	} else {
		return -1;
	}
	return 0;
}

static int taken(void *arg, const unsigned char *name, unsigned int len)
{
	struct planner *p = arg;
	size_t other;

	return e2fold_nameset_find(p->set, name, len, &other);
}

static errcode_t add_plan(struct planner *p, size_t index,
			  enum e2fold_rename_reason reason, size_t keeper)
{
	struct e2fold_rename_plan *plan;
	size_t other;
	errcode_t retval;

	retval = e2fold_array_reserve(&p->plans, &p->cap, p->nplans + 1,
				      sizeof(*p->plans));
	if (retval)
		return retval;
	plan = &p->plans[p->nplans];
	memset(plan, 0, sizeof(*plan));
	plan->index = index;
	plan->reason = reason;
	plan->keeper = keeper < p->n ? keeper : SIZE_MAX;
	plan->keeper_is_dot = keeper == p->n ? 1 : keeper == p->n + 1 ? 2 : 0;
	retval = e2fold_unique_name(p->names[index].name, p->names[index].len,
				    taken, p, plan->name, &plan->len);
	if (retval)
		return retval;
	p->nplans++;
	/* The new name is taken from now on. */
	if (e2fold_nameset_add(p->set, p->n + 2 + p->nplans - 1, plan->name,
			       plan->len, &other) < 0)
		return EXT2_ET_NO_MEMORY;
	return 0;
}

errcode_t e2fold_plan_renames(const struct unicode_map *um, int strict,
			      const struct e2fold_name_in *names, size_t n,
			      const size_t *order,
			      struct e2fold_rename_plan **ret,
			      size_t *ret_count)
{
	struct planner p = { .names = names, .n = n };
	unsigned char *lose = NULL;
	size_t *keeper = NULL, i, other;
	errcode_t retval = EXT2_ET_NO_MEMORY;

	*ret = NULL;
	*ret_count = 0;
	p.set = e2fold_nameset_new(um, member_name, &p);
	lose = calloc(n + 1, 1);
	keeper = calloc(n + 1, sizeof(*keeper));
	if (!p.set || !lose || !keeper)
		goto out;
	if (e2fold_nameset_add(p.set, n, (const unsigned char *)".", 1, &other) < 0 ||
	    e2fold_nameset_add(p.set, n + 1, (const unsigned char *)"..", 2,
			       &other) < 0)
		goto out;
	/* Every name's fate first, so that new names avoid all old ones. */
	for (i = 0; i < n; i++) {
		size_t k = order ? order[i] : i;
		int r = e2fold_nameset_add(p.set, k, names[k].name, names[k].len,
					   &other);

		if (r < 0)
			goto out;
		if (r) {
			lose[k] = 1 + E2FOLD_RENAME_COLLISION;
			keeper[k] = other;
		} else if (strict && !e2fold_name_is_valid(um, names[k].name,
							   names[k].len)) {
			lose[k] = 1 + E2FOLD_RENAME_INVALID;
		}
	}
	for (i = 0; i < n; i++) {
		size_t k = order ? order[i] : i;

		if (!lose[k])
			continue;
		retval = add_plan(&p, k, lose[k] - 1, keeper[k]);
		if (retval)
			goto out;
	}
	*ret = p.plans;
	*ret_count = p.nplans;
	p.plans = NULL;
	retval = 0;
out:
	free(p.plans);
	free(lose);
	free(keeper);
	e2fold_nameset_free(p.set);
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
