/* precheck.c: collisions and invalid names in casefolded directories. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "precheck.h"
#include "renameplan.h"

/* The group of the collisions kept by keeper k (children, then the dots). */
static size_t group_of(size_t *groups, size_t k, struct mkfs_precheck *pc)
{
	if (groups[k] == (size_t)-1)
		groups[k] = pc->ngroups++;
	return groups[k];
}

/* A zeroed problem at the end of the list. */
static struct mkfs_problem *new_problem(struct mkfs_precheck *pc)
{
	struct mkfs_problem *p;

	if (e2fold_array_reserve(&pc->problems, &pc->cap, pc->nproblems + 1,
				 sizeof(*pc->problems)))
		return NULL;
	p = &pc->problems[pc->nproblems++];
	memset(p, 0, sizeof(*p));
	return p;
}

static errcode_t add_problem(struct mkfs_precheck *pc, struct mkfs_node *dir,
			     const struct e2fold_rename_plan *plan,
			     size_t *groups, int rename)
{
	size_t n = dir->nchildren;
	struct mkfs_problem *p = new_problem(pc);
	struct mkfs_node *node = dir->children[plan->index];

	if (!p)
		return EXT2_ET_NO_MEMORY;
	p->dir = dir;
	p->node = node;
	p->index = plan->index;
	if (plan->reason == E2FOLD_RENAME_INVALID) {
		p->kind = MKFS_PROBLEM_INVALID;
		pc->ninvalid++;
	} else {
		p->kind = MKFS_PROBLEM_COLLISION;
		pc->ncollisions++;
		p->keeper_dot = e2fold_keeper_dot(n, plan->keeper);
		if (!p->keeper_dot)
			p->keeper = dir->children[plan->keeper];
		p->group = group_of(groups, plan->keeper, pc);
	}
	if (!rename)
		return 0;
	node->name = malloc(plan->len);
	if (!node->name) {
		node->name = node->src_name;
		return EXT2_ET_NO_MEMORY;
	}
	memcpy(node->name, plan->name, plan->len);
	node->name_len = plan->len;
	p->renamed = 1;
	return 0;
}

/*
 * The names in sorted order (the children are sorted already), but
 * /lost+found first: it is the filesystem's and keeps its name.
 */
static void keeper_order(const struct mkfs_node *dir, size_t *order)
{
	size_t i, k = 0;

	for (i = 0; i < dir->nchildren; i++)
		if (dir->children[i]->reserved)
			order[k++] = i;
	for (i = 0; i < dir->nchildren; i++)
		if (!dir->children[i]->reserved)
			order[k++] = i;
}

static errcode_t check_dir(struct mkfs_node *dir, const struct unicode_map *um,
			   int strict, int rename, struct mkfs_precheck *pc)
{
	size_t n = dir->nchildren, i, nplans = 0;
	struct e2fold_name_in *names = calloc(n, sizeof(*names));
	size_t *order = calloc(n, sizeof(*order));
	size_t *groups = malloc((n + 2) * sizeof(*groups));
	struct e2fold_rename_plan *plans = NULL;
	errcode_t retval = EXT2_ET_NO_MEMORY;

	if (!names || !order || !groups)
		goto out;
	for (i = 0; i < n; i++) {
		names[i].name = dir->children[i]->name;
		names[i].len = dir->children[i]->name_len;
	}
	for (i = 0; i < n + 2; i++)
		groups[i] = (size_t)-1;
	keeper_order(dir, order);
	retval = e2fold_plan_renames(um, strict, names, n, order, &plans,
				     &nplans);
	for (i = 0; !retval && i < nplans; i++)
		retval = add_problem(pc, dir, &plans[i], groups, rename);
out:
	free(plans);
	free(groups);
	free(order);
	free(names);
	return retval;
}

struct walk {
	const struct unicode_map *um;
	int strict, rename;
	struct mkfs_precheck *pc;
};

static errcode_t check_node(struct mkfs_node *node, void *arg)
{
	struct walk *w = arg;

	if (node->kind != MKFS_DIR || !node->casefold || !node->nchildren)
		return 0;
	return check_dir(node, w->um, w->strict, w->rename, w->pc);
}

errcode_t mkfs_precheck(struct mkfs_tree *tree, const struct unicode_map *um,
			int strict, int rename, struct mkfs_precheck *ret)
{
	struct walk w = { .um = um, .strict = strict, .rename = rename,
			  .pc = ret };

	memset(ret, 0, sizeof(*ret));
	return mkfs_tree_walk(tree, check_node, &w);
}

void mkfs_precheck_free(struct mkfs_precheck *pc)
{
	free(pc->problems);
	pc->problems = NULL;
	pc->nproblems = pc->cap = 0;
}
