/*
 * attr.c: getattr and setattr (chmod, chown, truncate, utimens). With
 * default_permissions the kernel has checked the caller's rights; what
 * is left is what only the filesystem knows.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "e2fuse.h"

void e2fuse_getattr(fuse_req_t req, fuse_ino_t node,
		    struct fuse_file_info *fi EXT2FS_ATTR((unused)))
{
	struct e2fuse *srv = e2fuse_of(req);
	ext2_ino_t ino = e2fuse_ino(node);
	struct ext2_inode_large inode;
	struct stat st;
	errcode_t retval = e2fuse_read_inode(srv, ino, &inode);

	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	e2fuse_fill_stat(srv, ino, &inode, &st);
	fuse_reply_attr(req, &st, e2fuse_attr_timeout(srv));
}

static errcode_t set_size(struct e2fuse *srv, ext2_ino_t ino, off_t size)
{
	ext2_file_t file;
	errcode_t retval, close_retval;

	retval = e2fuse_file_open(srv, ino, EXT2_FILE_WRITE, &file);
	if (retval)
		return retval;
	retval = ext2fs_file_set_size2(file, size);
	close_retval = ext2fs_file_close(file);
	return retval ? retval : close_retval;
}

static void set_owner(struct ext2_inode_large *inode, const struct stat *attr,
		      int to_set)
{
	struct ext2_inode *in = (struct ext2_inode *)inode;

	if (to_set & FUSE_SET_ATTR_UID) {
		in->i_uid = attr->st_uid & 0xffff;
		ext2fs_set_i_uid_high(*in, attr->st_uid >> 16);
	}
	if (to_set & FUSE_SET_ATTR_GID) {
		in->i_gid = attr->st_gid & 0xffff;
		ext2fs_set_i_gid_high(*in, attr->st_gid >> 16);
	}
}

static void set_times(struct e2fuse *srv, struct ext2_inode_large *inode,
		      const struct stat *attr, int to_set)
{
	if (to_set & FUSE_SET_ATTR_ATIME_NOW)
		e2fuse_set_times(srv, inode, E2FUSE_ATIME, NULL);
	else if (to_set & FUSE_SET_ATTR_ATIME)
		e2fuse_set_times(srv, inode, E2FUSE_ATIME, &attr->st_atim);
	if (to_set & FUSE_SET_ATTR_MTIME_NOW)
		e2fuse_set_times(srv, inode, E2FUSE_MTIME, NULL);
	else if (to_set & FUSE_SET_ATTR_MTIME)
		e2fuse_set_times(srv, inode, E2FUSE_MTIME, &attr->st_mtim);
}

void e2fuse_setattr(fuse_req_t req, fuse_ino_t node, struct stat *attr,
		    int to_set, struct fuse_file_info *fi EXT2FS_ATTR((unused)))
{
	struct e2fuse *srv = e2fuse_of(req);
	ext2_ino_t ino = e2fuse_ino(node);
	struct ext2_inode_large inode;
	errcode_t retval;

	if (!e2fuse_writable(req))
		return;
	if (to_set & FUSE_SET_ATTR_SIZE) {
		retval = e2fuse_read_inode(srv, ino, &inode);
		if (!retval && LINUX_S_ISDIR(inode.i_mode))
			retval = EISDIR;
		if (!retval)
			retval = set_size(srv, ino, attr->st_size);
		if (retval) {
			fuse_reply_err(req, e2fuse_errno(retval));
			return;
		}
	}
	retval = e2fuse_read_inode(srv, ino, &inode);
	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	if (to_set & FUSE_SET_ATTR_MODE)
		inode.i_mode = (inode.i_mode & LINUX_S_IFMT) |
			       (attr->st_mode & 07777);
	set_owner(&inode, attr, to_set);
	set_times(srv, &inode, attr, to_set);
	if (to_set & FUSE_SET_ATTR_SIZE)
		e2fuse_set_times(srv, &inode, E2FUSE_MTIME, NULL);
	e2fuse_set_times(srv, &inode, E2FUSE_CTIME, NULL);
	retval = e2fuse_write_inode(srv, ino, &inode);
	/* A stored access ACL follows the mode, as posix_acl_chmod. */
	if (!retval && (to_set & FUSE_SET_ATTR_MODE))
		retval = e2fuse_acl_chmod(srv, ino, inode.i_mode);
	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	e2fuse_getattr(req, node, NULL);
}
