/*
 * u_renameplan: the rename planner (lib/support/renameplan.h) as each
 * tool drives it: the whole plan at once (e2fold-mkfs, e2fold-tune), and
 * step by step with renames that may be refused (e2fold-fsck).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "renameplan.h"
#include "unit.h"

#define N(s) { (const unsigned char *)(s), sizeof(s) - 1 }

static struct unicode_map *um;

static int name_of(void *arg, size_t id, const unsigned char **ret_name,
		   unsigned int *ret_len)
{
	const struct e2fold_name_in *names = arg;

	*ret_name = names[id].name;
	*ret_len = names[id].len;
	return 0;
}

#define CHECK_NAME(plan, want) \
	CHECK_BYTES((plan).name, (plan).len, (want), sizeof(want) - 1)

/* Collisions with a name, with a new name's neighbour, and with ".". */
static void whole_plan(void)
{
	static const struct e2fold_name_in names[] = {
		N("b"), N("B"), N("a.txt"), N("A.TXT"),
		N(".\xe2\x80\x8d"),	/* "." and a ZERO WIDTH JOINER */
		N("B~1"),
	};
	size_t n = sizeof(names) / sizeof(names[0]), count = 0;
	struct e2fold_rename_plan *plans = NULL;

	CHECK_INT(e2fold_plan_renames(um, 0, names, n, NULL, &plans, &count),
		  0);
	if (!CHECK_INT(count, 3))
		goto out;
	CHECK_INT(plans[0].index, 1);
	CHECK_INT(plans[0].reason, E2FOLD_RENAME_COLLISION);
	CHECK_INT(plans[0].keeper, 0);
	CHECK_NAME(plans[0], "B~2");	/* "B~1" is taken */
	CHECK_INT(plans[1].index, 3);
	CHECK_INT(plans[1].keeper, 2);
	CHECK_NAME(plans[1], "A~1.TXT");
	CHECK_INT(plans[2].index, 4);
	CHECK_INT(plans[2].keeper, n);
	CHECK_STR(e2fold_keeper_dot(n, plans[2].keeper), ".");
	CHECK_NAME(plans[2], ".\xe2\x80\x8d~1");
out:
	free(plans);
	CHECK(e2fold_keeper_dot(n, n + 1) &&
	      !strcmp(e2fold_keeper_dot(n, n + 1), ".."));
	CHECK(!e2fold_keeper_dot(n, n - 1));
}

/*
 * Strict: invalid names lose theirs too (bytes that cannot fold compare
 * as bytes: "z\xff" and "Z\xff" do not collide), and a new name avoids
 * the new names taken before it.
 */
static void strict_plan(void)
{
	static const struct e2fold_name_in names[] = {
		N("z\xff"), N("Z\xff"), N("ok"), N("OK"),
	};
	static const size_t order[] = { 2, 1, 0, 3 };
	struct e2fold_rename_plan *plans = NULL;
	size_t count = 0;

	CHECK_INT(e2fold_plan_renames(um, 1, names, 4, order, &plans, &count),
		  0);
	if (CHECK_INT(count, 3)) {
		CHECK_INT(plans[0].index, 1);
		CHECK_INT(plans[0].reason, E2FOLD_RENAME_INVALID);
		CHECK_INT(plans[0].keeper, SIZE_MAX);
		CHECK_NAME(plans[0], "Z%FF");
		CHECK_INT(plans[1].index, 0);
		CHECK_NAME(plans[1], "z%FF~1");
		CHECK_INT(plans[2].index, 3);
		CHECK_INT(plans[2].reason, E2FOLD_RENAME_COLLISION);
		CHECK_INT(plans[2].keeper, 2);
		CHECK_NAME(plans[2], "OK~1");
	}
	free(plans);
	/* Not strict: only the collision. */
	CHECK_INT(e2fold_plan_renames(um, 0, names, 4, order, &plans, &count),
		  0);
	CHECK_INT(count, 1);
	free(plans);
}

/* fsck's way: a refused rename leaves its new name to the next. */
static void step_by_step(int accept)
{
	static const struct e2fold_name_in names[] = {
		N("a"), N("A"), N("a"),
	};
	struct e2fold_renameplan *rp;
	struct e2fold_rename_plan plan, *taken = NULL;
	size_t i, count = 0;
	int loses;

	if (!CHECK_INT(e2fold_renameplan_new(um, E2FOLD_PLAN_DOTS, 3, name_of,
					     (void *)names, &rp), 0))
		return;
	for (i = 0; i < 3; i++) {
		CHECK_INT(e2fold_renameplan_add(rp, i, NULL, &loses), 0);
		CHECK_INT(loses, i > 0);
	}
	CHECK_INT(e2fold_renameplan_fate(rp, 0, &plan), 0);
	CHECK_INT(e2fold_renameplan_fate(rp, 1, &plan), 1);
	CHECK_INT(e2fold_renameplan_choose(rp, &plan), 0);
	CHECK_NAME(plan, "A~1");
	if (accept)
		CHECK_INT(e2fold_renameplan_take(rp, &plan), 0);
	CHECK_INT(e2fold_renameplan_fate(rp, 2, &plan), 1);
	CHECK_INT(plan.keeper, 0);
	CHECK_INT(e2fold_renameplan_choose(rp, &plan), 0);
	if (accept)
		CHECK_NAME(plan, "a~2");
	else
		CHECK_NAME(plan, "a~1");
	e2fold_renameplan_release(rp, &taken, &count);
	CHECK_INT(count, accept ? 1 : 0);
	if (accept && count)
		CHECK_NAME(taken[0], "A~1");
	free(taken);
	e2fold_renameplan_free(rp);
}

/* Without E2FOLD_PLAN_DOTS, or without an encoding, fewer names collide. */
static void without_dots_or_folding(void)
{
	static const struct e2fold_name_in names[] = {
		N(".\xe2\x80\x8d"), N("x"), N("X"),
	};
	struct e2fold_renameplan *rp;
	struct e2fold_rename_plan plan;
	int loses;

	if (CHECK_INT(e2fold_renameplan_new(um, 0, 3, name_of, (void *)names,
					    &rp), 0)) {
		CHECK_INT(e2fold_renameplan_add(rp, 0, NULL, &loses), 0);
		CHECK_INT(loses, 0);
		e2fold_renameplan_free(rp);
	}
	if (CHECK_INT(e2fold_renameplan_new(NULL, E2FOLD_PLAN_DOTS, 3, name_of,
					    (void *)names, &rp), 0)) {
		CHECK_INT(e2fold_renameplan_add(rp, 1, NULL, &loses), 0);
		CHECK_INT(e2fold_renameplan_add(rp, 2, NULL, &loses), 0);
		CHECK_INT(loses, 0);
		CHECK_INT(e2fold_renameplan_fate(rp, 2, &plan), 0);
		e2fold_renameplan_free(rp);
	}
}

int main(void)
{
	um = utf8_load("12.1");
	if (!um) {
		fprintf(stderr, "u_renameplan: cannot load utf8-12.1\n");
		return 1;
	}
	whole_plan();
	strict_plan();
	step_by_step(0);
	step_by_step(1);
	without_dots_or_folding();
	utf8_unload(um);
	return unit_done("u_renameplan");
}
