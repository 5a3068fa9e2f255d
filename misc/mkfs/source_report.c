/* source_report.c: source check results as text and as JSON. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <et/com_err.h>

#include "cfname.h"
#include "encoding.h"
#include "json.h"
#include "mkfs.h"
#include "source_report.h"

#define PATH_BUF (E2FOLD_ESCAPED_SIZE(PATH_MAX) + 64)

/* Problem indices: collisions by group, each group in source order. */
static int cmp_by_group(const void *a, const void *b, void *arg)
{
	const struct mkfs_problem *pa = (const struct mkfs_problem *)arg +
		*(const size_t *)a;
	const struct mkfs_problem *pb = (const struct mkfs_problem *)arg +
		*(const size_t *)b;

	if (pa->group != pb->group)
		return pa->group < pb->group ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* The collisions' indices sorted by group; NULL if none or no memory. */
static size_t *collisions_by_group(const struct mkfs_precheck *pc,
				   size_t *ret_n)
{
	size_t *order = malloc((pc->nproblems + 1) * sizeof(*order)), i, n = 0;

	if (!order)
		return NULL;
	for (i = 0; i < pc->nproblems; i++)
		if (pc->problems[i].kind == MKFS_PROBLEM_COLLISION)
			order[n++] = i;
	qsort_r(order, n, sizeof(*order), cmp_by_group, pc->problems);
	*ret_n = n;
	return order;
}

typedef char *(*describe_fn)(const struct mkfs_source *,
			     const struct mkfs_node *, char *, size_t);

/* Do two source names of a group print alike (cfname.h)? */
static int group_prints_alike(const struct mkfs_precheck *pc,
			      const size_t *order, size_t from, size_t to)
{
	const struct mkfs_node *keeper = pc->problems[order[from]].keeper;
	size_t i, j;

	for (i = from; i < to; i++) {
		const struct mkfs_node *a = pc->problems[order[i]].node;

		if (keeper && e2fold_names_print_alike(a->src_name, a->src_len,
						       keeper->src_name,
						       keeper->src_len))
			return 1;
		for (j = i + 1; j < to; j++) {
			const struct mkfs_node *b = pc->problems[order[j]].node;

			if (e2fold_names_print_alike(a->src_name, a->src_len,
						     b->src_name, b->src_len))
				return 1;
		}
	}
	return 0;
}

static void print_group_head(FILE *f, const struct mkfs_problem *p,
			     const struct mkfs_source *src, size_t members,
			     describe_fn describe)
{
	char buf[PATH_BUF];

	mkfs_source_describe(src, p->dir, buf, sizeof(buf));
	if (p->keeper_dot)
		fprintf(f, "%s: %s: %zu name%s the same as \"%s\" after "
			"casefolding:\n", mkfs_prog, buf, members - 1,
			members == 2 ? " is" : "s are", p->keeper_dot);
	else
		fprintf(f, "%s: %s: %zu names are the same after "
			"casefolding:\n", mkfs_prog, buf, members);
	if (p->keeper && p->keeper->reserved && p->keeper->implicit)
		fprintf(f, "\t/lost+found (made by %s)\n", mkfs_prog);
	else if (p->keeper)
		fprintf(f, "\t%s\n", describe(src, p->keeper, buf,
					      sizeof(buf)));
}

void mkfs_report_problems(FILE *f, const struct mkfs_precheck *pc,
			  const struct mkfs_source *src)
{
	size_t n = 0, i, j, *order = collisions_by_group(pc, &n);
	char buf[PATH_BUF];

	for (i = 0; order && i < n; i = j) {
		const struct mkfs_problem *first = &pc->problems[order[i]];
		describe_fn describe = mkfs_source_describe;

		for (j = i; j < n && pc->problems[order[j]].group == first->group;
		     j++)
			;
		if (group_prints_alike(pc, order, i, j))
			describe = mkfs_source_describe_exact;
		print_group_head(f, first, src, j - i + 1, describe);
		for (; i < j; i++)
			fprintf(f, "\t%s\n", describe(src,
				pc->problems[order[i]].node, buf, sizeof(buf)));
	}
	free(order);
	for (i = 0; i < pc->nproblems; i++) {
		if (pc->problems[i].kind != MKFS_PROBLEM_INVALID)
			continue;
		fprintf(f, "%s: %s: not valid UTF-8; a strict filesystem "
			"refuses the name\n", mkfs_prog, mkfs_source_describe(
				src, pc->problems[i].node, buf, sizeof(buf)));
	}
	fprintf(f, "%s: %zu name%s in casefolded directories cannot be "
		"written as %s; nothing was written (-E collisions=rename "
		"renames them)\n", mkfs_prog, pc->nproblems,
		pc->nproblems == 1 ? "" : "s",
		pc->nproblems == 1 ? "it is" : "they are");
}

void mkfs_report_renames(FILE *f, const struct mkfs_precheck *pc,
			 const struct mkfs_source *src)
{
	char path[PATH_BUF], to[E2FOLD_ESCAPED_SIZE(E2FOLD_NAME_MAX)];
	char keeper[E2FOLD_ESCAPED_SIZE(E2FOLD_NAME_MAX)];
	size_t i;

	for (i = 0; i < pc->nproblems; i++) {
		const struct mkfs_problem *p = &pc->problems[i];

		if (!p->renamed)
			continue;
		int exact = p->keeper &&
			e2fold_names_print_alike(p->node->src_name,
						 p->node->src_len,
						 p->keeper->name,
						 p->keeper->name_len);

		if (exact) {
			mkfs_source_describe_exact(src, p->node, path,
						   sizeof(path));
			e2fold_escape_name_exact(p->node->name,
						 p->node->name_len, to,
						 sizeof(to));
			e2fold_escape_name_exact(p->keeper->name,
						 p->keeper->name_len, keeper,
						 sizeof(keeper));
		} else {
			mkfs_source_describe(src, p->node, path, sizeof(path));
			e2fold_escape_name(p->node->name, p->node->name_len, to,
					   sizeof(to));
			if (p->keeper)
				e2fold_escape_name(p->keeper->name,
						   p->keeper->name_len, keeper,
						   sizeof(keeper));
		}
		if (p->kind == MKFS_PROBLEM_INVALID)
			fprintf(f, "Renamed %s to %s (not valid UTF-8)\n", path,
				to);
		else if (p->keeper_dot)
			fprintf(f, "Renamed %s to %s (the same as \"%s\")\n",
				path, to, p->keeper_dot);
		else
			fprintf(f, "Renamed %s to %s (the same as %s)\n", path,
				to, keeper);
	}
}

/* ------------------------------------------------------------------ */
/* JSON                                                                 */

/* The directory's path in the image: "/" and its (new) names. */
static void json_dir(struct e2fold_json *o, const struct mkfs_node *dir)
{
	char *path = malloc(PATH_MAX + 1);
	int len;

	if (!path) {
		e2fold_json_null(o, "directory");
		return;
	}
	path[0] = '/';
	len = mkfs_node_path(dir, 1, path + 1, PATH_MAX);
	e2fold_json_string(o, "directory", (const unsigned char *)path,
			   len < 0 ? 1 : len + 1);
	free(path);
}

static void json_src_name(struct e2fold_json *o, const char *key,
			  const struct mkfs_node *node)
{
	e2fold_json_string(o, key, node->src_name, node->src_len);
}

/* The name that keeps its place: a source name, or "." or "..". */
static void json_keeper(struct e2fold_json *o, const char *key,
			const struct mkfs_problem *first)
{
	if (first->keeper)
		json_src_name(o, key, first->keeper);
	else
		e2fold_json_text(o, key, first->keeper_dot);
}

static void json_group(struct e2fold_json *o, const struct mkfs_precheck *pc,
		       const size_t *order, size_t from, size_t to)
{
	const struct mkfs_problem *first = &pc->problems[order[from]];
	size_t i;

	e2fold_json_object(o, NULL, E2FOLD_JSON_INLINE);
	json_dir(o, first->dir);
	e2fold_json_array(o, "names", E2FOLD_JSON_INLINE);
	json_keeper(o, NULL, first);
	for (i = from; i < to; i++)
		json_src_name(o, NULL, pc->problems[order[i]].node);
	e2fold_json_close(o);
	json_keeper(o, "kept", first);
	e2fold_json_array(o, "renamed", E2FOLD_JSON_INLINE);
	for (i = from; i < to; i++) {
		const struct mkfs_node *node = pc->problems[order[i]].node;

		if (!pc->problems[order[i]].renamed)
			continue;
		e2fold_json_object(o, NULL, E2FOLD_JSON_INLINE);
		json_src_name(o, "from", node);
		e2fold_json_string(o, "to", node->name, node->name_len);
		e2fold_json_close(o);
	}
	e2fold_json_close(o);
	e2fold_json_close(o);
}

static void json_groups(struct e2fold_json *o, const struct mkfs_precheck *pc)
{
	size_t n = 0, i, j, *order = collisions_by_group(pc, &n);

	e2fold_json_array(o, "collision_groups", E2FOLD_JSON_LINES);
	for (i = 0; order && i < n; i = j) {
		for (j = i; j < n && pc->problems[order[j]].group ==
		     pc->problems[order[i]].group; j++)
			;
		json_group(o, pc, order, i, j);
	}
	e2fold_json_close(o);
	free(order);
}

static void json_invalid(struct e2fold_json *o, const struct mkfs_precheck *pc)
{
	size_t i;

	e2fold_json_array(o, "invalid_names", E2FOLD_JSON_LINES);
	for (i = 0; i < pc->nproblems; i++) {
		const struct mkfs_problem *p = &pc->problems[i];

		if (p->kind != MKFS_PROBLEM_INVALID)
			continue;
		e2fold_json_object(o, NULL, E2FOLD_JSON_INLINE);
		json_dir(o, p->dir);
		json_src_name(o, "name", p->node);
		if (p->renamed)
			e2fold_json_string(o, "renamed_to", p->node->name,
					   p->node->name_len);
		else
			e2fold_json_null(o, "renamed_to");
		e2fold_json_close(o);
	}
	e2fold_json_close(o);
}

errcode_t mkfs_report_json(const char *path, const struct mkfs_precheck *pc,
			   const struct mkfs_report_info *info)
{
	struct e2fold_json o;
	char flags[64];
	errcode_t retval;

	retval = e2fold_json_create_document(&o, path, NULL);
	if (retval) {
		com_err(mkfs_prog, retval, "while creating the report %s", path);
		return retval;
	}
	e2fold_json_text(&o, "source", info->source);
	e2fold_json_text(&o, "encoding", info->encoding);
	e2fold_json_text(&o, "encoding_flags",
			 e2fold_format_encoding_flags(info->encoding_flags,
						      flags, sizeof(flags)));
	e2fold_json_text(&o, "collisions", info->rename ? "rename" : "stop");
	e2fold_json_number(&o, "casefolded_directories", info->casefolded_dirs);
	e2fold_json_bool(&o, "written", info->written);
	if (info->error)
		e2fold_json_text(&o, "error", info->error);
	json_groups(&o, pc);
	json_invalid(&o, pc);
	retval = e2fold_json_close_document(&o);
	if (retval)
		com_err(mkfs_prog, retval, "while writing the report %s", path);
	return retval;
}
