/* populate.c: the source tree into inodes and directories. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <time.h>

#include <et/com_err.h>

#include "cfname.h"
#include "diredit.h"
#include "dirlinks.h"
#include "encoding.h"
#include "inode.h"
#include "layout.h"
#include "mkfs.h"
#include "populate.h"

static time_t now_of(ext2_filsys fs)
{
	return fs->now ? fs->now : time(NULL);
}

static errcode_t failed(struct mkfs_populate *p, const struct mkfs_node *node,
			errcode_t retval, const char *what)
{
	char buf[E2FOLD_ESCAPED_SIZE(PATH_MAX) + 64];

	if (p->progress)
		e2fold_progress_break(p->progress);
	com_err(mkfs_prog, retval, "while %s %s", what,
		mkfs_source_describe(p->src, node, buf, sizeof(buf)));
	return retval;
}

/* A directory the source only implied gets the root's owner and now. */
static void fill_implicit(struct mkfs_populate *p, struct mkfs_node *node)
{
	struct timespec now = { .tv_sec = now_of(p->fs) };

	if (!node->implicit)
		return;
	node->uid = p->root_uid;
	node->gid = p->root_gid;
	node->atime = node->mtime = node->ctime = now;
}

/*
 * ".", "..", and one ".." in each subdirectory, as the kernel counts them
 * (dirlinks.h). A directory with that many subdirectories spans many
 * blocks, so it is indexed wherever the filesystem has dir_index.
 */
static errcode_t dir_links(struct mkfs_populate *p, const struct mkfs_node *dir,
			   unsigned int *ret)
{
	unsigned long nsub = 0;
	__u16 links = 0;
	size_t i;

	for (i = 0; i < dir->nchildren; i++)
		if (dir->children[i]->kind == MKFS_DIR)
			nsub++;
	if (e2fold_dir_links_for(p->fs, 1, nsub, &links)) {
		char buf[E2FOLD_ESCAPED_SIZE(PATH_MAX) + 64];

		com_err(mkfs_prog, 0, "%s: more than %d subdirectories "
			"need the dir_nlink and dir_index features",
			mkfs_source_describe(p->src, dir, buf, sizeof(buf)),
			E2FOLD_LINK_MAX - 2);
		return EXT2_ET_TOO_MANY_REFS;
	}
	*ret = links;
	return 0;
}

/* The inode of node (a primary), made near directory inode near. */
/* The source's extended attributes, unless -E no_copy_xattrs. */
static errcode_t store_xattrs(struct mkfs_populate *p, ext2_ino_t ino,
			      const struct mkfs_node *node)
{
	return p->no_xattrs ? 0 : mkfs_inode_xattrs(p->fs, ino, node);
}

static errcode_t make_inode(struct mkfs_populate *p, struct mkfs_node *node,
			    ext2_ino_t near)
{
	ext2_filsys fs = p->fs;
	unsigned int links = node->nlink;
	ext2_ino_t ino;
	errcode_t retval;
	int is_dir = node->kind == MKFS_DIR;

	if (node->ino)
		return 0;
	fill_implicit(p, node);
	retval = ext2fs_new_inode(fs, near, node->mode, 0, &ino);
	if (retval)
		return failed(p, node, retval, "allocating an inode for");
	if (node->kind == MKFS_SYMLINK) {
		retval = mkfs_inode_symlink(fs, near, ino, node, now_of(fs));
	} else {
		ext2fs_inode_alloc_stats2(fs, ino, +1, is_dir);
		if (is_dir)
			retval = dir_links(p, node, &links);
		if (!retval)
			retval = mkfs_inode_write(fs, ino, node, links,
						  node->casefold ?
						  EXT4_CASEFOLD_FL : 0,
						  now_of(fs));
	}
	if (retval)
		return failed(p, node, retval, "writing the inode of");
	node->ino = ino;
	retval = store_xattrs(p, ino, node);
	if (retval)
		return failed(p, node, retval, "storing the attributes of");
	if (node->kind == MKFS_REG && node->size) {
		retval = mkfs_source_write_file(p->src, fs, node, ino);
		if (retval)
			return retval;
	}
	mkfs_tally_add(&p->counts, node);
	if (p->progress)
		e2fold_progress_update(p->progress, 2, ++p->made, p->total);
	return 0;
}

/*
 * /lost+found exists already: give it the casefold flag it should have
 * and count the subdirectories a source lost+found brings.
 */
static errcode_t update_lost_found(struct mkfs_populate *p,
				   const struct mkfs_node *dir)
{
	struct ext2_inode inode;
	unsigned int links;
	errcode_t retval = dir_links(p, dir, &links);

	if (!retval)
		retval = ext2fs_read_inode(p->fs, dir->ino, &inode);
	if (retval)
		return retval;
	if (dir->casefold)
		inode.i_flags |= EXT4_CASEFOLD_FL;
	else
		inode.i_flags &= ~EXT4_CASEFOLD_FL;
	inode.i_links_count = links;
	return ext2fs_write_inode(p->fs, dir->ino, &inode);
}

static errcode_t write_entries(struct mkfs_populate *p, struct mkfs_node *dir)
{
	struct e2fold_dir_layout layout = {
		.ino = dir->ino,
		.parent = dir->parent ? dir->parent->ino : dir->ino,
		.um = dir->casefold ? p->um : NULL,
		.hash_version = e2fold_dir_hash_version(p->fs, NULL),
		/* A new image: nothing to lose if the run is killed. */
		.in_place = 1,
	};
	struct e2fold_new_entry *ents;
	errcode_t retval;
	size_t i;

	ents = calloc(dir->nchildren ? dir->nchildren : 1, sizeof(*ents));
	if (!ents)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < dir->nchildren; i++) {
		struct mkfs_node *child = dir->children[i];

		ents[i].name = child->name;
		ents[i].name_len = child->name_len;
		ents[i].ino = mkfs_node_inode(child)->ino;
		ents[i].file_type = mkfs_file_type(child->kind);
	}
	retval = e2fold_dir_write(p->fs, &layout, ents, dir->nchildren);
	free(ents);
	if (retval)
		return failed(p, dir, retval, "writing the directory");
	return 0;
}

static errcode_t write_dir(struct mkfs_populate *p, struct mkfs_node *dir)
{
	errcode_t retval = 0;
	size_t i;

	for (i = 0; !retval && i < dir->nchildren; i++) {
		struct mkfs_node *child = dir->children[i];

		if (child->link) {
			retval = make_inode(p, child->link, dir->ino);
			mkfs_tally_add(&p->counts, child);
		} else if (child->reserved) {
			child->ino = p->lost_found;
			retval = update_lost_found(p, child);
			if (!retval && child->nchildren)
				retval = write_dir(p, child);
		} else {
			retval = make_inode(p, child, dir->ino);
			if (!retval && child->kind == MKFS_DIR)
				retval = write_dir(p, child);
		}
	}
	if (!retval)
		retval = write_entries(p, dir);
	if (!retval && dir->reserved)
		retval = mkfs_grow_lost_found(p->fs, dir->ino);
	return retval;
}

errcode_t mkfs_populate(struct mkfs_populate *p, struct mkfs_tree *tree)
{
	struct mkfs_node *root = tree->root;
	unsigned int links;
	errcode_t retval;

	root->ino = EXT2_ROOT_INO;
	p->total = mkfs_tree_inodes(tree);
	fill_implicit(p, root);
	retval = write_dir(p, root);
	if (!retval)
		retval = dir_links(p, root, &links);
	if (!retval) {
		retval = mkfs_inode_restamp(p->fs, EXT2_ROOT_INO, root,
					    p->keep_root_owner, links,
					    now_of(p->fs));
		if (retval)
			failed(p, root, retval, "writing the root inode from");
	}
	if (!retval) {
		retval = store_xattrs(p, EXT2_ROOT_INO, root);
		if (retval)
			failed(p, root, retval, "storing the attributes of");
	}
	if (!retval)
		retval = mkfs_source_finish(p->src, p->fs);
	return retval;
}
