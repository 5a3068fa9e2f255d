/* tree.c: the in-memory source tree. */
#include "config.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "array.h"
#include "tree.h"

/*
 * The index finds a child by (directory, source name) in O(log n) while
 * an archive is read in any order; it holds every node but the root.
 */
static int cmp_index(const void *a, const void *b)
{
	const struct mkfs_node *x = a, *y = b;
	unsigned int n = x->src_len < y->src_len ? x->src_len : y->src_len;
	int c;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	c = memcmp(x->src_name, y->src_name, n);
	if (c)
		return c;
	return x->src_len < y->src_len ? -1 : x->src_len > y->src_len;
}

static struct mkfs_node *new_node(enum mkfs_kind kind)
{
	struct mkfs_node *node = calloc(1, sizeof(*node));

	if (!node)
		return NULL;
	node->kind = kind;
	node->nlink = 1;
	node->src_entry = -1;
	return node;
}

errcode_t mkfs_tree_init(struct mkfs_tree *tree)
{
	memset(tree, 0, sizeof(*tree));
	tree->root = new_node(MKFS_DIR);
	if (!tree->root)
		return EXT2_ET_NO_MEMORY;
	tree->root->mode = S_IFDIR | 0755;
	tree->root->src_name = (unsigned char *)strdup("");
	tree->root->name = tree->root->src_name;
	if (!tree->root->src_name)
		return EXT2_ET_NO_MEMORY;
	tree->nodes = 1;
	return 0;
}

void mkfs_node_clear_xattrs(struct mkfs_node *node)
{
	size_t i;

	for (i = 0; i < node->nxattrs; i++) {
		free(node->xattrs[i].name);
		free(node->xattrs[i].value);
	}
	free(node->xattrs);
	node->xattrs = NULL;
	node->nxattrs = 0;
}

/* Free node and its subtree; the index entries must be gone already. */
static void free_subtree(struct mkfs_node *node)
{
	size_t i;

	for (i = 0; i < node->nchildren; i++)
		free_subtree(node->children[i]);
	free(node->children);
	if (node->name != node->src_name)
		free(node->name);
	free(node->src_name);
	free(node->target);
	mkfs_node_clear_xattrs(node);
	free(node);
}

static void noop_free(void *p)
{
}

void mkfs_tree_free(struct mkfs_tree *tree)
{
	tdestroy(tree->index, noop_free);
	tree->index = NULL;
	if (tree->root)
		free_subtree(tree->root);
	tree->root = NULL;
}

struct mkfs_node *mkfs_tree_child(struct mkfs_tree *tree,
				  struct mkfs_node *dir,
				  const unsigned char *name, unsigned int len)
{
	struct mkfs_node key;
	void *found;

	key.parent = dir;
	key.src_name = (unsigned char *)name;
	key.src_len = len;
	found = tfind(&key, &tree->index, cmp_index);
	return found ? *(struct mkfs_node **)found : NULL;
}

static errcode_t append_child(struct mkfs_node *dir, struct mkfs_node *node)
{
	errcode_t retval = e2fold_array_reserve(&dir->children, &dir->cap,
						dir->nchildren + 1,
						sizeof(*dir->children));

	if (retval)
		return retval;
	dir->children[dir->nchildren++] = node;
	return 0;
}

errcode_t mkfs_tree_add(struct mkfs_tree *tree, struct mkfs_node *dir,
			const unsigned char *name, unsigned int len,
			enum mkfs_kind kind, struct mkfs_node **ret)
{
	struct mkfs_node *node;
	void *slot;

	if (mkfs_tree_child(tree, dir, name, len))
		return EXT2_ET_FILE_EXISTS;
	node = new_node(kind);
	if (!node)
		return EXT2_ET_NO_MEMORY;
	node->parent = dir;
	node->src_name = malloc(len + 1);
	if (!node->src_name || append_child(dir, node)) {
		free(node->src_name);
		free(node);
		return EXT2_ET_NO_MEMORY;
	}
	memcpy(node->src_name, name, len);
	node->src_name[len] = '\0';
	node->src_len = len;
	node->name = node->src_name;
	node->name_len = len;
	slot = tsearch(node, &tree->index, cmp_index);
	if (!slot) {
		dir->nchildren--;
		free_subtree(node);
		return EXT2_ET_NO_MEMORY;
	}
	tree->nodes++;
	*ret = node;
	return 0;
}

static int cmp_src_name(const void *a, const void *b)
{
	const struct mkfs_node *x = *(struct mkfs_node *const *)a;
	const struct mkfs_node *y = *(struct mkfs_node *const *)b;
	unsigned int n = x->src_len < y->src_len ? x->src_len : y->src_len;
	int c = memcmp(x->src_name, y->src_name, n);

	if (c)
		return c;
	return x->src_len < y->src_len ? -1 : x->src_len > y->src_len;
}

static errcode_t sort_one(struct mkfs_node *node, void *arg)
{
	if (node->nchildren > 1)
		qsort(node->children, node->nchildren, sizeof(*node->children),
		      cmp_src_name);
	return 0;
}

void mkfs_tree_sort(struct mkfs_tree *tree)
{
	mkfs_tree_walk(tree, sort_one, NULL);
}

errcode_t mkfs_node_add_xattr(struct mkfs_node *node, const char *name,
			      const void *value, size_t len)
{
	struct mkfs_xattr *x = realloc(node->xattrs,
				       (node->nxattrs + 1) * sizeof(*x));

	if (!x)
		return EXT2_ET_NO_MEMORY;
	node->xattrs = x;
	x += node->nxattrs;
	x->name = strdup(name);
	x->value = malloc(len ? len : 1);
	if (!x->name || !x->value) {
		free(x->name);
		free(x->value);
		return EXT2_ET_NO_MEMORY;
	}
	memcpy(x->value, value, len);
	x->len = len;
	node->nxattrs++;
	return 0;
}

int mkfs_node_path(const struct mkfs_node *node, int image, char *buf,
		   size_t size)
{
	const struct mkfs_node *n;
	size_t len = 0, pos;

	for (n = node; n->parent; n = n->parent)
		len += (image ? n->name_len : n->src_len) + (len ? 1 : 0);
	if (len + 1 > size)
		return -1;
	buf[len] = '\0';
	pos = len;
	for (n = node; n->parent; n = n->parent) {
		unsigned int l = image ? n->name_len : n->src_len;

		if (pos != len)
			buf[--pos] = '/';
		pos -= l;
		memcpy(buf + pos, image ? n->name : n->src_name, l);
	}
	return (int)len;
}

/* Iterative, so that a deep tree cannot exhaust the stack. */
errcode_t mkfs_tree_walk(struct mkfs_tree *tree,
			 errcode_t (*fn)(struct mkfs_node *node, void *arg),
			 void *arg)
{
	struct frame {
		struct mkfs_node *dir;
		size_t next;
	} *stack = NULL;
	size_t depth = 0, cap = 0;
	errcode_t retval = fn(tree->root, arg);
	struct mkfs_node *node = tree->root;

	while (!retval) {
		if (node && node->kind == MKFS_DIR && node->nchildren) {
			retval = e2fold_array_reserve(&stack, &cap, depth + 1,
						      sizeof(*stack));
			if (retval)
				break;
			stack[depth].dir = node;
			stack[depth].next = 0;
			depth++;
		}
		node = NULL;
		while (depth && stack[depth - 1].next ==
		       stack[depth - 1].dir->nchildren)
			depth--;
		if (!depth)
			break;
		node = stack[depth - 1].dir->children[stack[depth - 1].next++];
		retval = fn(node, arg);
	}
	free(stack);
	return retval;
}

static errcode_t count_inode(struct mkfs_node *node, void *arg)
{
	if (node->parent && !node->reserved && !node->link)
		(*(size_t *)arg)++;
	return 0;
}

void mkfs_tally_add(struct mkfs_tally *t, const struct mkfs_node *node)
{
	if (node->link) {
		t->hardlinks++;
		return;
	}
	switch (node->kind) {
	case MKFS_REG:
		t->files++;
		break;
	case MKFS_DIR:
		t->dirs++;
		t->casefolded += node->casefold;
		break;
	case MKFS_SYMLINK:
		t->symlinks++;
		break;
	default:
		t->specials++;
		break;
	}
}

size_t mkfs_tree_inodes(struct mkfs_tree *tree)
{
	size_t n = 0;

	mkfs_tree_walk(tree, count_inode, &n);
	return n;
}
