/*
 * dirops.c: what the operations that change directories share: the
 * kernel's checks before a name is created, adding and removing entries,
 * link counts.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfname.h"
#include "diredit.h"
#include "dirlinks.h"
#include "e2fuse.h"
#include "newinode.h"

int e2fuse_may_create(struct e2fuse *srv, ext2_ino_t dir, const char *name)
{
	struct ext2_inode_large inode;
	struct e2fuse_found f;
	errcode_t retval;
	int err;

	retval = e2fuse_read_inode(srv, dir, &inode);
	if (retval)
		return e2fuse_errno(retval);
	if (!LINUX_S_ISDIR(inode.i_mode))
		return ENOTDIR;
	/* A directory deleted while open: the kernel refuses new names. */
	if (!inode.i_links_count)
		return ENOENT;
	/* In the kernel's order: the lookup's EINVAL, the length, EEXIST. */
	err = e2fuse_find(srv, dir, name, &f);
	if (err)
		return err;
	if (f.ino)
		return EEXIST;
	/* Without the key a new name cannot be encrypted (fscrypt). */
	if (inode.i_flags & EXT4_ENCRYPT_FL)
		return ENOKEY;
	/* ext4 refuses to create what utf8_validate rejects (stricter). */
	if ((inode.i_flags & EXT4_CASEFOLD_FL) && srv->um &&
	    (srv->fs->super->s_encoding_flags & E2FOLD_ENC_STRICT_FL) &&
	    !e2fold_name_is_valid(srv->um, (const unsigned char *)name,
				  strlen(name)))
		return EINVAL;
	return 0;
}

/* mtime and ctime of directory dir, now. */
static errcode_t touch_dir(struct e2fuse *srv, ext2_ino_t dir)
{
	struct ext2_inode_large inode;
	errcode_t retval = e2fuse_read_inode(srv, dir, &inode);

	if (retval)
		return retval;
	e2fuse_set_times(srv, &inode, E2FUSE_MTIME | E2FUSE_CTIME, NULL);
	return e2fuse_write_inode(srv, dir, &inode);
}

errcode_t e2fuse_add_name(struct e2fuse *srv, ext2_ino_t dir,
			  const char *name, ext2_ino_t ino, int file_type)
{
	struct e2fold_new_name nn = {
		(const unsigned char *)name, strlen(name), ino, file_type
	};
	struct e2fold_dir *index = NULL;
	enum e2fold_add_how how;
	errcode_t retval;

	/* The index the lookup before kept (dxcache.c), if it is indexed. */
	if (e2fuse_index_get(srv, dir, &index))
		index = NULL;
	retval = e2fold_dir_add_read(srv->fs, srv->um, dir, index, &nn, &how);
	if (index)
		e2fuse_index_done(srv, index);
	if (!retval)
		retval = touch_dir(srv, dir);
	return retval;
}

errcode_t e2fuse_add_dir(struct e2fuse *srv, ext2_ino_t dir,
			 const char *name, ext2_ino_t ino)
{
	struct e2fold_new_name nn = {
		(const unsigned char *)name, strlen(name), ino, EXT2_FT_DIR
	};
	enum e2fold_add_how how;
	errcode_t retval;

	retval = e2fold_dir_mkdir(srv->fs, srv->um, dir, &nn, &how);
	if (!retval)
		retval = touch_dir(srv, dir);
	return retval;
}

int e2fuse_may_link_dir(struct e2fuse *srv, ext2_ino_t dir)
{
	struct ext2_inode_large inode;
	errcode_t retval = e2fuse_read_inode(srv, dir, &inode);

	if (retval)
		return e2fuse_errno(retval);
	return e2fold_dir_links_full(srv->fs, (struct ext2_inode *)&inode) ?
		EMLINK : 0;
}

errcode_t e2fuse_remove_entry(struct e2fuse *srv, ext2_ino_t dir,
			      const struct e2fuse_found *f)
{
	errcode_t retval;

	retval = e2fold_dir_remove(srv->fs, srv->um, dir, f->lblk, f->offset);
	if (!retval)
		retval = touch_dir(srv, dir);
	return retval;
}

errcode_t e2fuse_drop_link(struct e2fuse *srv, ext2_ino_t ino)
{
	struct ext2_inode_large inode;
	errcode_t retval = e2fuse_read_inode(srv, ino, &inode);

	if (retval)
		return retval;
	if (LINUX_S_ISDIR(inode.i_mode))
		inode.i_links_count = 0;
	else if (inode.i_links_count)
		inode.i_links_count--;
	e2fuse_set_times(srv, &inode, E2FUSE_CTIME, NULL);
	retval = e2fuse_write_inode(srv, ino, &inode);
	if (!retval && !inode.i_links_count)
		retval = e2fuse_unlinked(srv, ino);
	return retval;
}

struct empty_walk {
	int empty;
};

static int count_entry(struct ext2_dir_entry *dirent,
		       int offset EXT2FS_ATTR((unused)),
		       int blocksize EXT2FS_ATTR((unused)),
		       char *buf EXT2FS_ATTR((unused)), void *priv)
{
	struct empty_walk *w = priv;
	unsigned int len = ext2fs_dirent_name_len(dirent);

	if (!dirent->inode)
		return 0;
	if ((len == 1 && dirent->name[0] == '.') ||
	    (len == 2 && dirent->name[0] == '.' && dirent->name[1] == '.'))
		return 0;
	w->empty = 0;
	return DIRENT_ABORT;
}

errcode_t e2fuse_dir_empty(struct e2fuse *srv, ext2_ino_t ino, int *ret_empty)
{
	struct empty_walk w = { 1 };
	errcode_t retval;

	retval = ext2fs_dir_iterate(srv->fs, ino, 0, NULL, count_entry, &w);
	*ret_empty = w.empty;
	return retval;
}

errcode_t e2fuse_adjust_links(struct e2fuse *srv, ext2_ino_t dir, int delta)
{
	struct ext2_inode_large inode;
	errcode_t retval = e2fuse_read_inode(srv, dir, &inode);

	if (retval)
		return retval;
	if (delta > 0)
		e2fold_dir_links_inc(srv->fs, (struct ext2_inode *)&inode);
	else if (delta < 0)
		e2fold_dir_links_dec((struct ext2_inode *)&inode);
	e2fuse_set_times(srv, &inode, E2FUSE_CTIME, NULL);
	return e2fuse_write_inode(srv, dir, &inode);
}
