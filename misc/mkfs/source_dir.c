/*
 * source_dir.c: read a directory tree with its metadata: type, mode,
 * owner, times (with nanoseconds), device numbers, symlink targets, hard
 * links (by st_dev and st_ino), extended attributes (ACLs included, as
 * their system.posix_acl_* attributes) and the casefold attribute
 * (FS_CASEFOLD_FL, as `chattr +F` sets it and FS_IOC_GETFLAGS reports it).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/fs.h>

#include <et/com_err.h>

#include "array.h"
#include "encoding.h"
#include "fileio.h"
#include "mkfs.h"
#include "source.h"

struct scan {
	struct mkfs_source *src;
	struct mkfs_tree *tree;
	void *inodes;		/* (st_dev, st_ino) -> primary node */
	char *path;		/* the directory being read, then "/name" */
	size_t cap;
};

struct inode_key {
	dev_t dev;
	ino_t ino;
	struct mkfs_node *node;
};

static int cmp_inode_key(const void *a, const void *b)
{
	const struct inode_key *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

static errcode_t fail(struct scan *s, errcode_t err, const char *what)
{
	com_err(mkfs_prog, err, "while %s %s", what, s->path);
	return err;
}

/* Make room for len bytes of path plus a NUL. */
static errcode_t path_reserve(struct scan *s, size_t len)
{
	return e2fold_array_reserve(&s->path, &s->cap, len + 1, 1);
}

static enum mkfs_kind kind_of(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return MKFS_DIR;
	case S_IFLNK:
		return MKFS_SYMLINK;
	case S_IFCHR:
		return MKFS_CHR;
	case S_IFBLK:
		return MKFS_BLK;
	case S_IFIFO:
		return MKFS_FIFO;
	case S_IFSOCK:
		return MKFS_SOCK;
	}
	return MKFS_REG;
}

static void copy_stat(struct mkfs_node *node, const struct stat *st)
{
	node->mode = st->st_mode;
	node->uid = st->st_uid;
	node->gid = st->st_gid;
	node->atime = st->st_atim;
	node->mtime = st->st_mtim;
	node->ctime = st->st_ctim;
	node->size = node->kind == MKFS_REG ? (__u64)st->st_size : 0;
	node->rdev = st->st_rdev;
}

/* Every extended attribute of s->path (not following a symlink). */
static errcode_t read_xattrs(struct scan *s, struct mkfs_node *node)
{
	ssize_t len = llistxattr(s->path, NULL, 0), vlen;
	char *names, *name;
	void *value = NULL;
	errcode_t retval = 0;

	if (len <= 0)
		return (len < 0 && errno != ENOTSUP) ?
			fail(s, errno, "listing the attributes of") : 0;
	names = malloc(len);
	if (!names)
		return EXT2_ET_NO_MEMORY;
	len = llistxattr(s->path, names, len);
	if (len < 0)
		retval = fail(s, errno, "listing the attributes of");
	for (name = names; !retval && name < names + len;
	     name += strlen(name) + 1) {
		vlen = lgetxattr(s->path, name, NULL, 0);
		if (vlen >= 0) {
			free(value);
			value = malloc(vlen ? vlen : 1);
			if (!value) {
				retval = EXT2_ET_NO_MEMORY;
				break;
			}
			vlen = lgetxattr(s->path, name, value, vlen);
		}
		if (vlen < 0)
			retval = fail(s, errno, "reading the attributes of");
		else
			retval = mkfs_node_add_xattr(node, name, value, vlen);
	}
	free(value);
	free(names);
	return retval;
}

/* FS_CASEFOLD_FL of the directory open as fd; filesystems without it say no. */
static int has_casefold_attr(int fd)
{
	int flags = 0;

	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		return 0;
	return (flags & E2FOLD_CASEFOLD_FL) != 0;
}

/* A second name of an inode already seen becomes a hard link to it. */
static errcode_t link_or_remember(struct scan *s, struct mkfs_node *node,
				  const struct stat *st)
{
	struct inode_key *key, **found;

	if (node->kind == MKFS_DIR || st->st_nlink < 2)
		return 0;
	key = malloc(sizeof(*key));
	if (!key)
		return EXT2_ET_NO_MEMORY;
	key->dev = st->st_dev;
	key->ino = st->st_ino;
	key->node = node;
	found = tsearch(key, &s->inodes, cmp_inode_key);
	if (!found) {
		free(key);
		return EXT2_ET_NO_MEMORY;
	}
	if (*found != key) {
		free(key);
		node->link = (*found)->node;
		node->link->nlink++;
	}
	return 0;
}

static errcode_t read_symlink(struct scan *s, struct mkfs_node *node,
			      const struct stat *st)
{
	size_t cap = st->st_size ? (size_t)st->st_size + 1 : PATH_MAX;
	ssize_t n;

	node->target = malloc(cap);
	if (!node->target)
		return EXT2_ET_NO_MEMORY;
	n = readlink(s->path, node->target, cap);
	if (n < 0)
		return fail(s, errno, "reading the symbolic link");
	if ((size_t)n >= cap)
		return fail(s, ENAMETOOLONG, "reading the symbolic link");
	node->target[n] = '\0';
	return 0;
}

/* One entry of the directory at s->path[0..dirlen): stat it, add it. */
static errcode_t add_entry(struct scan *s, struct mkfs_node *dir,
			   size_t dirlen, const char *name)
{
	size_t nlen = strlen(name);
	struct mkfs_node *node;
	struct stat st;
	errcode_t retval;

	retval = path_reserve(s, dirlen + 1 + nlen);
	if (retval)
		return retval;
	s->path[dirlen] = '/';
	memcpy(s->path + dirlen + 1, name, nlen + 1);
	if (lstat(s->path, &st) < 0)
		return fail(s, errno, "reading");
	if (s->src->skip_target && st.st_dev == s->src->target_dev &&
	    st.st_ino == s->src->target_ino) {
		fprintf(stderr, "%s: %s is the target itself: not copied\n",
			mkfs_prog, s->path);
		return 0;
	}
	retval = mkfs_tree_add(s->tree, dir, (const unsigned char *)name, nlen,
			       kind_of(st.st_mode), &node);
	if (retval)
		return fail(s, retval, "adding");
	copy_stat(node, &st);
	retval = link_or_remember(s, node, &st);
	if (!retval && node->link)
		return 0;
	if (!retval && node->kind == MKFS_SYMLINK)
		retval = read_symlink(s, node, &st);
	if (!retval)
		retval = read_xattrs(s, node);
	return retval;
}

static errcode_t scan_dir(struct scan *s, struct mkfs_node *dir,
			  size_t dirlen, int depth);

/* Read the entries of one directory, then descend; one DIR open at a time. */
static errcode_t read_entries(struct scan *s, struct mkfs_node *dir,
			      size_t dirlen)
{
	DIR *d;
	struct dirent *de;
	errcode_t retval = 0;

	s->path[dirlen] = '\0';
	d = opendir(s->path);
	if (!d)
		return fail(s, errno, "opening the directory");
	dir->src_casefold = has_casefold_attr(dirfd(d));
	while (!retval) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno)
				retval = fail(s, errno, "reading the directory");
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		retval = add_entry(s, dir, dirlen, de->d_name);
	}
	closedir(d);
	return retval;
}

static errcode_t scan_dir(struct scan *s, struct mkfs_node *dir,
			  size_t dirlen, int depth)
{
	errcode_t retval;
	size_t i;

	if (depth > MKFS_MAX_DEPTH)
		return fail(s, ENAMETOOLONG, "descending into");
	retval = read_entries(s, dir, dirlen);
	for (i = 0; !retval && i < dir->nchildren; i++) {
		struct mkfs_node *child = dir->children[i];
		size_t len = dirlen + 1 + child->src_len;

		if (child->kind != MKFS_DIR)
			continue;
		retval = path_reserve(s, len);
		if (retval)
			break;
		s->path[dirlen] = '/';
		memcpy(s->path + dirlen + 1, child->src_name, child->src_len);
		retval = scan_dir(s, child, len, depth + 1);
	}
	return retval;
}

static void free_key(void *p)
{
	free(p);
}

errcode_t mkfs_dir_scan(struct mkfs_source *src, struct mkfs_tree *tree)
{
	struct scan s = { .src = src, .tree = tree };
	size_t len = strlen(src->path);
	struct stat st;
	errcode_t retval;

	retval = path_reserve(&s, len);
	if (retval)
		return retval;
	memcpy(s.path, src->path, len + 1);
	/* The root may be given through a symbolic link: follow it. */
	if (stat(s.path, &st) < 0) {
		retval = fail(&s, errno, "reading");
		goto out;
	}
	copy_stat(tree->root, &st);
	retval = read_xattrs(&s, tree->root);
	if (!retval)
		retval = scan_dir(&s, tree->root, len, 0);
out:
	tdestroy(s.inodes, free_key);
	free(s.path);
	return retval;
}

/* The source path of node: SOURCE/its/path. NULL when out of memory. */
static char *source_path(const struct mkfs_source *src,
			 const struct mkfs_node *node)
{
	size_t plen = strlen(src->path);
	char *path = malloc(plen + 2 + PATH_MAX);

	if (!path)
		return NULL;
	memcpy(path, src->path, plen);
	path[plen] = '/';
	if (mkfs_node_path(node, 0, path + plen + 1, PATH_MAX) < 0) {
		free(path);
		return NULL;
	}
	return path;
}

errcode_t mkfs_dir_write_file(struct mkfs_source *src, ext2_filsys fs,
			      struct mkfs_node *node, ext2_ino_t ino)
{
	char *path = source_path(src, node);
	errcode_t retval;
	int fd;

	if (!path)
		return EXT2_ET_NO_MEMORY;
	fd = open(path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0) {
		retval = errno;
		com_err(mkfs_prog, retval, "while opening %s", path);
		free(path);
		return retval;
	}
	retval = mkfs_copy_fd(fs, ino, fd, node->size);
	if (retval)
		com_err(mkfs_prog, retval, "while copying %s", path);
	close(fd);
	free(path);
	return retval;
}
