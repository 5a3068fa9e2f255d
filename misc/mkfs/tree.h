/*
 * tree.h: the source (a directory tree or an archive) in memory, read
 * completely before anything is written, so that every casefold problem
 * is known before the target is touched.
 *
 * A node is one name in the tree. Hard links are several nodes of which
 * the first made is the primary: it holds the inode's metadata, the
 * others point to it with `link`. Names are bytes, not strings: a source
 * name may be invalid UTF-8.
 */
#ifndef MKFS_TREE_H
#define MKFS_TREE_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include <ext2fs/ext2fs.h>

enum mkfs_kind {
	MKFS_REG = 0,
	MKFS_DIR,
	MKFS_SYMLINK,
	MKFS_CHR,
	MKFS_BLK,
	MKFS_FIFO,
	MKFS_SOCK,
};

struct mkfs_xattr {
	char *name;
	void *value;
	size_t len;
};

struct mkfs_node {
	struct mkfs_node *parent;
	unsigned char *src_name;	/* the name in the source */
	unsigned int src_len;
	unsigned char *name;		/* the name in the image (renamed?) */
	unsigned int name_len;

	enum mkfs_kind kind;
	mode_t mode;			/* permission bits and S_IFMT */
	uid_t uid;
	gid_t gid;
	struct timespec atime, mtime, ctime;
	__u64 size;
	dev_t rdev;
	char *target;			/* symlinks */
	struct mkfs_xattr *xattrs;
	size_t nxattrs;

	struct mkfs_node *link;		/* hard link: the primary node */
	unsigned int nlink;		/* primary: names in the image */
	long src_entry;			/* archive entry that defined it; -1 */

	int casefold;			/* directories: casefolded in the image */
	int src_casefold;		/* the source directory had FS_CASEFOLD_FL */
	int reserved;			/* /lost+found: made by mkfs, never renamed */
	int implicit;			/* made for a path's parent: no metadata */

	struct mkfs_node **children;	/* directories */
	size_t nchildren, cap;

	ext2_ino_t ino;			/* set while writing */
};

struct mkfs_tree {
	struct mkfs_node *root;
	void *index;			/* (parent, name) -> node, see tree.c */
	size_t nodes;
};

/* An empty tree whose root is a directory (mode 0755). */
errcode_t mkfs_tree_init(struct mkfs_tree *tree);
void mkfs_tree_free(struct mkfs_tree *tree);

/*
 * A new child of dir named name/len, of the given kind, with the
 * metadata left zero. Returns EXT2_ET_FILE_EXISTS if dir has that name.
 */
errcode_t mkfs_tree_add(struct mkfs_tree *tree, struct mkfs_node *dir,
			const unsigned char *name, unsigned int len,
			enum mkfs_kind kind, struct mkfs_node **ret);

/* The child of dir named name/len, or NULL. */
struct mkfs_node *mkfs_tree_child(struct mkfs_tree *tree,
				  struct mkfs_node *dir,
				  const unsigned char *name, unsigned int len);

/* Sort every directory's children by source name, bytewise (memcmp). */
void mkfs_tree_sort(struct mkfs_tree *tree);

/* Attach an extended attribute (copies name and value). */
errcode_t mkfs_node_add_xattr(struct mkfs_node *node, const char *name,
			      const void *value, size_t len);

/* Drop every extended attribute of node. */
void mkfs_node_clear_xattrs(struct mkfs_node *node);

/*
 * The path of node below the root, '/'-separated without a leading '/',
 * from source names (image names with image = 1). "" for the root.
 * Returns the length, or -1 if it does not fit size bytes.
 */
int mkfs_node_path(const struct mkfs_node *node, int image, char *buf,
		   size_t size);

/* The node holding the inode of node: itself, or its hard-link primary. */
static inline struct mkfs_node *mkfs_node_inode(struct mkfs_node *node)
{
	return node->link ? node->link : node;
}

/* Inodes the tree needs besides the root and /lost+found. */
size_t mkfs_tree_inodes(struct mkfs_tree *tree);

/* How many nodes of each kind: what the summary reports. */
struct mkfs_tally {
	size_t files, dirs, symlinks, specials, hardlinks, casefolded;
};

/* Count node in t: a hard link as one, anything else by its kind. */
void mkfs_tally_add(struct mkfs_tally *t, const struct mkfs_node *node);

/* Call fn on every node, parents before children. Stops at an error. */
errcode_t mkfs_tree_walk(struct mkfs_tree *tree,
			 errcode_t (*fn)(struct mkfs_node *node, void *arg),
			 void *arg);

#endif /* MKFS_TREE_H */
