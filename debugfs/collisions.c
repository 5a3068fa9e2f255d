/*
 * collisions.c: groups of entries that a casefolded lookup cannot tell
 * apart (the same casefold key; in encrypted casefolded directories, the
 * same stored hash), in one directory or, with -r, in a whole tree.
 *
 *   collisions [-r] [-e] PATH
 */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs.h"

struct walk {
	struct session *s;
	const char *cmd;
	int recursive;
	ext2fs_inode_bitmap visited;
	size_t dirs, dirs_with, groups;
};

static const struct dir_view *sort_view;

static int cmp_group(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t gx = sort_view->group[x], gy = sort_view->group[y];

	if (gx != gy)
		return gx < gy ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void print_group_head(const struct dir_view *v, const char *path,
			     size_t rep, size_t n)
{
	const struct e2fold_dirent *e = &v->dir->ents[rep];
	struct e2fold_key *key;

	if (v->dir->encrypted && v->dir->casefolded) {
		printf("%s: %zu names with the same stored hash 0x%08x 0x%08x "
		       "(equal after casefolding):\n", path, n, e->stored_hash,
		       e->stored_minor);
		return;
	}
	key = malloc(sizeof(*key));
	if (!key)
		return;
	e2fold_name_key(v->um, e->name, e->name_len, key);
	if (key->folded)
		printf("%s: %zu names fold to \"%s\":\n", path, n,
		       esc(1, key->bytes, key->len));
	else
		printf("%s: %zu names with the same bytes \"%s\"%s:\n", path, n,
		       esc(1, key->bytes, key->len),
		       v->um ? " (not foldable)" : "");
	free(key);
}

/* Print the groups of v; returns how many. */
static size_t print_groups(const struct dir_view *v, const char *path)
{
	const struct e2fold_dir *d = v->dir;
	size_t *order = malloc((v->ncolliding + 1) * sizeof(*order));
	size_t i, n = 0, groups = 0;

	if (!order)
		return 0;
	for (i = 0; i < d->nents; i++)
		if (v->group[i] != NO_GROUP)
			order[n++] = i;
	sort_view = v;
	qsort(order, n, sizeof(*order), cmp_group);
	for (i = 0; i < n;) {
		size_t j = i;

		while (j < n && v->group[order[j]] == v->group[order[i]])
			j++;
		print_group_head(v, path, v->group[order[i]], j - i);
		for (; i < j; i++) {
			const struct e2fold_dirent *e = &d->ents[order[i]];

			printf("  inode %u (block %llu, offset %u) %s\n", e->ino,
			       (unsigned long long)e->lblk, e->offset,
			       esc(0, e->name, e->name_len));
		}
		groups++;
	}
	free(order);
	return groups;
}

/* path + "/" + name, escaped. */
static char *child_path(const char *path, const struct e2fold_dirent *e)
{
	const char *name = esc(0, e->name, e->name_len);
	size_t n = strlen(path);
	char *p = malloc(n + strlen(name) + 2);

	if (p)
		sprintf(p, "%s%s%s", path, n && path[n - 1] == '/' ? "" : "/",
			name);
	return p;
}

static int is_dir(struct session *s, const struct e2fold_dirent *e)
{
	struct ext2_inode inode;

	if (e->file_type != EXT2_FT_DIR && e->file_type != EXT2_FT_UNKNOWN)
		return 0;
	return !ext2fs_read_inode(s->fs, e->ino, &inode) &&
	       LINUX_S_ISDIR(inode.i_mode);
}

static void visit(struct walk *w, ext2_ino_t ino, const char *path)
{
	struct dir_view v;
	errcode_t retval;
	size_t i, groups;

	if (ext2fs_test_inode_bitmap2(w->visited, ino))
		return;
	ext2fs_mark_inode_bitmap2(w->visited, ino);
	retval = dir_view_open(w->s, ino, &v);
	if (retval) {
		cmd_error(w->s, w->cmd, retval, "while reading %s (inode %u)",
			  path, ino);
		return;
	}
	w->dirs++;
	groups = print_groups(&v, path);
	if (groups) {
		w->dirs_with++;
		w->groups += groups;
	}
	for (i = 0; w->recursive && i < v.dir->nents; i++) {
		const struct e2fold_dirent *e = &v.dir->ents[i];
		char *sub;

		if (e->ino == 0 || e->ino > w->s->fs->super->s_inodes_count ||
		    !is_dir(w->s, e))
			continue;
		sub = child_path(path, e);
		if (!sub)
			break;
		visit(w, e->ino, sub);
		free(sub);
	}
	dir_view_close(&v);
}

DEBUGFS_CMD(do_collisions)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct walk w;
	char *root;
	ext2_ino_t ino;
	errcode_t retval;
	int c, exact = 0;

	if (!args)
		return;
	memset(&w, 0, sizeof(w));
	w.s = s;
	w.cmd = argv[0];
	while ((c = getopt(argc, args, "re")) != -1) {
		if (c == 'r')
			w.recursive = 1;
		else if (c == 'e')
			exact = 1;
		else
			goto usage;
	}
	if (optind != argc - 1)
		goto usage;
	if (path_arg(s, argv[0], args[optind],
		     PATH_FOLLOW | (exact ? PATH_EXACT : 0), &ino))
		goto out;
	retval = ext2fs_check_directory(s->fs, ino);
	if (retval) {
		cmd_error(s, argv[0], 0, "%s: not a directory",
			  esc(0, (const unsigned char *)args[optind],
			      strlen(args[optind])));
		goto out;
	}
	retval = ext2fs_allocate_inode_bitmap(s->fs, "visited", &w.visited);
	if (retval) {
		cmd_error(s, argv[0], retval, "while allocating a bitmap");
		goto out;
	}
	root = strdup(esc(0, (const unsigned char *)args[optind],
			  strlen(args[optind])));
	if (root)
		visit(&w, ino, root);
	free(root);
	ext2fs_free_inode_bitmap(w.visited);
	if (w.groups)
		printf("%zu group%s of colliding names in %zu of %zu "
		       "director%s\n", w.groups, w.groups == 1 ? "" : "s",
		       w.dirs_with, w.dirs, w.dirs == 1 ? "y" : "ies");
	else
		printf("no collisions in %zu director%s\n", w.dirs,
		       w.dirs == 1 ? "y" : "ies");
	goto out;
usage:
	cmd_error(s, argv[0], 0, "usage: collisions [-r] [-e] PATH");
out:
	free(args);
}
