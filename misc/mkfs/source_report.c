/* source_report.c: source check results as text and as JSON. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <et/com_err.h>

#include "cfname.h"
#include "encoding.h"
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

static void print_group_head(FILE *f, const struct mkfs_problem *p,
			     const struct mkfs_source *src, size_t members)
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
		fprintf(f, "\t%s\n", mkfs_source_describe(src, p->keeper, buf,
							  sizeof(buf)));
}

void mkfs_report_problems(FILE *f, const struct mkfs_precheck *pc,
			  const struct mkfs_source *src)
{
	size_t n = 0, i, j, *order = collisions_by_group(pc, &n);
	char buf[PATH_BUF];

	for (i = 0; order && i < n; i = j) {
		const struct mkfs_problem *first = &pc->problems[order[i]];

		for (j = i; j < n && pc->problems[order[j]].group == first->group;
		     j++)
			;
		print_group_head(f, first, src, j - i + 1);
		for (; i < j; i++)
			fprintf(f, "\t%s\n", mkfs_source_describe(src,
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
		mkfs_source_describe(src, p->node, path, sizeof(path));
		e2fold_escape_name(p->node->name, p->node->name_len, to,
				   sizeof(to));
		if (p->kind == MKFS_PROBLEM_INVALID)
			fprintf(f, "Renamed %s to %s (not valid UTF-8)\n", path,
				to);
		else if (p->keeper_dot)
			fprintf(f, "Renamed %s to %s (the same as \"%s\")\n",
				path, to, p->keeper_dot);
		else
			fprintf(f, "Renamed %s to %s (the same as %s)\n", path,
				to, e2fold_escape_name(p->keeper->name,
						       p->keeper->name_len,
						       keeper, sizeof(keeper)));
	}
}

/* ------------------------------------------------------------------ */
/* JSON                                                                 */

static void json_bytes(FILE *f, const unsigned char *s, size_t len)
{
	char *buf = malloc(E2FOLD_JSON_ESCAPED_SIZE(len));

	if (!buf) {
		fputs("null", f);
		return;
	}
	e2fold_json_escape(s, len, buf, E2FOLD_JSON_ESCAPED_SIZE(len));
	fprintf(f, "\"%s\"", buf);
	free(buf);
}

static void json_string(FILE *f, const char *s)
{
	json_bytes(f, (const unsigned char *)s, strlen(s));
}

/* The directory's path in the image: "/" and its (new) names. */
static void json_dir(FILE *f, const struct mkfs_node *dir)
{
	char *path = malloc(PATH_MAX + 1);
	int len;

	if (!path) {
		fputs("null", f);
		return;
	}
	path[0] = '/';
	len = mkfs_node_path(dir, 1, path + 1, PATH_MAX);
	json_bytes(f, (const unsigned char *)path, len < 0 ? 1 : len + 1);
	free(path);
}

static void json_src_name(FILE *f, const struct mkfs_node *node)
{
	json_bytes(f, node->src_name, node->src_len);
}

static void json_group(FILE *f, const struct mkfs_precheck *pc,
		       const size_t *order, size_t from, size_t to)
{
	const struct mkfs_problem *first = &pc->problems[order[from]];
	size_t i, renamed = 0;

	fputs("    {\"directory\": ", f);
	json_dir(f, first->dir);
	fputs(", \"names\": [", f);
	if (first->keeper)
		json_src_name(f, first->keeper);
	else
		json_string(f, first->keeper_dot);
	for (i = from; i < to; i++) {
		fputs(", ", f);
		json_src_name(f, pc->problems[order[i]].node);
	}
	fputs("], \"kept\": ", f);
	if (first->keeper)
		json_src_name(f, first->keeper);
	else
		json_string(f, first->keeper_dot);
	fputs(", \"renamed\": [", f);
	for (i = from; i < to; i++) {
		const struct mkfs_node *node = pc->problems[order[i]].node;

		if (!pc->problems[order[i]].renamed)
			continue;
		fputs(renamed++ ? ", {\"from\": " : "{\"from\": ", f);
		json_src_name(f, node);
		fputs(", \"to\": ", f);
		json_bytes(f, node->name, node->name_len);
		fputs("}", f);
	}
	fputs("]}", f);
}

static void json_groups(FILE *f, const struct mkfs_precheck *pc)
{
	size_t n = 0, i, j, groups = 0, *order = collisions_by_group(pc, &n);

	fputs("  \"collision_groups\": [", f);
	for (i = 0; order && i < n; i = j) {
		for (j = i; j < n && pc->problems[order[j]].group ==
		     pc->problems[order[i]].group; j++)
			;
		fputs(groups++ ? ",\n" : "\n", f);
		json_group(f, pc, order, i, j);
	}
	fputs(groups ? "\n  ],\n" : "],\n", f);
	free(order);
}

static void json_invalid(FILE *f, const struct mkfs_precheck *pc)
{
	size_t i, n = 0;

	fputs("  \"invalid_names\": [", f);
	for (i = 0; i < pc->nproblems; i++) {
		const struct mkfs_problem *p = &pc->problems[i];

		if (p->kind != MKFS_PROBLEM_INVALID)
			continue;
		fputs(n++ ? ",\n    {\"directory\": " : "\n    {\"directory\": ",
		      f);
		json_dir(f, p->dir);
		fputs(", \"name\": ", f);
		json_src_name(f, p->node);
		fputs(", \"renamed_to\": ", f);
		if (p->renamed)
			json_bytes(f, p->node->name, p->node->name_len);
		else
			fputs("null", f);
		fputs("}", f);
	}
	fputs(n ? "\n  ]\n" : "]\n", f);
}

errcode_t mkfs_report_json(const char *path, const struct mkfs_precheck *pc,
			   const struct mkfs_report_info *info)
{
	FILE *f = fopen(path, "w");
	char flags[64];

	if (!f) {
		com_err(mkfs_prog, errno, "while creating the report %s", path);
		return errno;
	}
	fputs("{\n  \"source\": ", f);
	if (info->source)
		json_string(f, info->source);
	else
		fputs("null", f);
	fputs(",\n  \"encoding\": ", f);
	if (info->encoding)
		json_string(f, info->encoding);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"encoding_flags\": \"%s\",\n",
		e2fold_format_encoding_flags(info->encoding_flags, flags,
					     sizeof(flags)));
	fprintf(f, "  \"collisions\": \"%s\",\n",
		info->rename ? "rename" : "stop");
	fprintf(f, "  \"casefolded_directories\": %zu,\n",
		info->casefolded_dirs);
	fprintf(f, "  \"written\": %s,\n", info->written ? "true" : "false");
	json_groups(f, pc);
	json_invalid(f, pc);
	fputs("}\n", f);
	if (fclose(f)) {
		com_err(mkfs_prog, errno, "while writing the report %s", path);
		return errno;
	}
	return 0;
}
