/* casefold.c: decide the casefold flag of every directory. */
#include "config.h"

#include <limits.h>
#include <string.h>

#include <et/com_err.h>

#include "casefold.h"
#include "cfname.h"
#include "mkfs.h"

struct marking {
	const struct mkfs_options *opt;
	const struct mkfs_source *src;
	int have_feature;
	size_t count;
	errcode_t error;
};

/* The directory a casefold_dirs path names, by source names, or NULL. */
static struct mkfs_node *find_dir(struct mkfs_tree *tree, const char *path)
{
	struct mkfs_node *node = tree->root;

	while (*path && node) {
		size_t len;

		while (*path == '/')
			path++;
		len = strcspn(path, "/");
		if (!len)
			break;
		if (!(len == 1 && path[0] == '.'))
			node = mkfs_tree_child(tree, node,
					       (const unsigned char *)path, len);
		path += len;
	}
	return node;
}

static errcode_t mark_listed(struct mkfs_tree *tree,
			     const struct mkfs_options *opt)
{
	char buf[E2FOLD_ESCAPED_SIZE(PATH_MAX)];
	size_t i;

	for (i = 0; i < opt->n_casefold_dirs; i++) {
		const char *path = opt->casefold_dirs[i];
		struct mkfs_node *dir = find_dir(tree, path);

		if (dir && dir->kind == MKFS_DIR) {
			dir->casefold = 1;
			continue;
		}
		e2fold_escape_name((const unsigned char *)path, strlen(path),
				   buf, sizeof(buf));
		com_err(mkfs_prog, 0, "casefold_dirs: %s is %s in %s", buf,
			dir ? "not a directory" : "not", opt->source);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	return 0;
}

static errcode_t mark_one(struct mkfs_node *node, void *arg)
{
	struct marking *m = arg;
	char buf[E2FOLD_ESCAPED_SIZE(PATH_MAX)];

	if (node->kind != MKFS_DIR)
		return 0;
	if (!node->parent)
		node->casefold |= m->opt->casefold_root;
	else
		node->casefold |= node->parent->casefold;
	node->casefold |= m->opt->casefold_all | node->src_casefold;
	if (!node->casefold)
		return 0;
	m->count++;
	if (m->have_feature)
		return 0;
	if (node->src_casefold && m->src)
		com_err(mkfs_prog, 0, "%s: the source directory is casefolded, "
			"but the filesystem would not be: add -O casefold",
			mkfs_source_describe(m->src, node, buf, sizeof(buf)));
	else
		com_err(mkfs_prog, 0, "casefolded directories need the "
			"casefold feature: add -O casefold");
	return EXT2_ET_INVALID_ARGUMENT;
}

errcode_t mkfs_mark_casefold(struct mkfs_tree *tree,
			     const struct mkfs_options *opt,
			     const struct mkfs_source *src, int have_feature,
			     size_t *ret_count)
{
	struct marking m = { .opt = opt, .src = src,
			     .have_feature = have_feature };
	errcode_t retval;

	if (!opt->source && (opt->n_casefold_dirs || opt->casefold_all)) {
		com_err(mkfs_prog, 0, "casefold_dirs needs a source (-d)");
		return EXT2_ET_INVALID_ARGUMENT;
	}
	retval = mark_listed(tree, opt);
	if (!retval)
		retval = mkfs_tree_walk(tree, mark_one, &m);
	*ret_count = m.count;
	return retval;
}
