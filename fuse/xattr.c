/*
 * xattr.c: extended attributes through libext2fs's xattr handle (which
 * also converts POSIX ACLs between the VFS layout and ext4's). The two
 * ACL attributes are kept as ext4 keeps them (acl.c).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "array.h"
#include "e2fuse.h"

errcode_t e2fuse_xattrs_open(struct e2fuse *srv, ext2_ino_t ino, int write,
			     struct ext2_xattr_handle **ret_h)
{
	errcode_t retval;

	/* ext4 turns the feature on when it writes the first attribute. */
	if (write && !ext2fs_has_feature_xattr(srv->fs->super)) {
		ext2fs_set_feature_xattr(srv->fs->super);
		ext2fs_mark_super_dirty(srv->fs);
	}
	retval = ext2fs_xattrs_open(srv->fs, ino, ret_h);

	if (retval)
		return retval;
	retval = ext2fs_xattrs_read(*ret_h);
	if (retval)
		ext2fs_xattrs_close(ret_h);
	return retval;
}

errcode_t e2fuse_xattr_changed(struct e2fuse *srv, ext2_ino_t ino,
			       const __u16 *mode)
{
	struct ext2_inode_large inode;
	errcode_t retval = e2fuse_read_inode(srv, ino, &inode);

	if (retval)
		return retval;
	if (mode)
		inode.i_mode = *mode;
	e2fuse_set_times(srv, &inode, E2FUSE_CTIME, NULL);
	retval = e2fuse_write_inode(srv, ino, &inode);
	/* The kernel expects a new ctime, not a new mode. */
	if (!retval && mode)
		e2fuse_attr_changed(srv, ino);
	return retval;
}

/* Reply with a value or its size, as getxattr and listxattr do. */
static void reply_value(fuse_req_t req, const void *value, size_t len,
			size_t size)
{
	if (!size)
		fuse_reply_xattr(req, len);
	else if (len > size)
		fuse_reply_err(req, ERANGE);
	else
		fuse_reply_buf(req, value, len);
}

void e2fuse_getxattr(fuse_req_t req, fuse_ino_t node, const char *name,
		     size_t size)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct ext2_xattr_handle *h;
	size_t len = 0;
	void *value = NULL;
	errcode_t retval;

	if (e2fuse_acl_name(name) && !e2fuse_acl_on(srv)) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	retval = e2fuse_xattrs_open(srv, e2fuse_ino(node), 0, &h);
	if (retval == EXT2_ET_MISSING_EA_FEATURE) {
		fuse_reply_err(req, ENODATA);
		return;
	}
	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	retval = ext2fs_xattr_get(h, name, &value, &len);
	ext2fs_xattrs_close(&h);
	if (retval)
		fuse_reply_err(req, e2fuse_errno(retval));
	else
		reply_value(req, value, len, size);
	ext2fs_free_mem(&value);
}

struct name_list {
	char *buf;
	size_t len, cap;
	int failed;
	int hide_acls;		/* noacl: ext4 does not list them */
};

static int add_name(char *name, char *value EXT2FS_ATTR((unused)),
		    size_t value_len EXT2FS_ATTR((unused)), void *data)
{
	struct name_list *l = data;
	size_t n = strlen(name) + 1;

	if (l->hide_acls && e2fuse_acl_name(name))
		return 0;
	if (e2fold_array_reserve(&l->buf, &l->cap, l->len + n, 1)) {
		l->failed = 1;
		return XATTR_ABORT;
	}
	memcpy(l->buf + l->len, name, n);
	l->len += n;
	return 0;
}

void e2fuse_listxattr(fuse_req_t req, fuse_ino_t node, size_t size)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct name_list l = { NULL, 0, 0, 0, !e2fuse_acl_on(srv) };
	struct ext2_xattr_handle *h;
	errcode_t retval = e2fuse_xattrs_open(srv, e2fuse_ino(node), 0, &h);

	if (retval == EXT2_ET_MISSING_EA_FEATURE) {
		reply_value(req, NULL, 0, size);
		return;
	}
	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	retval = ext2fs_xattrs_iterate(h, add_name, &l);
	ext2fs_xattrs_close(&h);
	if (!retval && l.failed)
		retval = EXT2_ET_NO_MEMORY;
	if (retval)
		fuse_reply_err(req, e2fuse_errno(retval));
	else
		reply_value(req, l.buf, l.len, size);
	free(l.buf);
}

/* Does the attribute name exist on the handle? */
static int has_attr(struct ext2_xattr_handle *h, const char *name)
{
	void *value = NULL;
	size_t len;

	if (ext2fs_xattr_get(h, name, &value, &len))
		return 0;
	ext2fs_free_mem(&value);
	return 1;
}

void e2fuse_setxattr(fuse_req_t req, fuse_ino_t node, const char *name,
		     const char *value, size_t size, int flags)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct ext2_xattr_handle *h;
	errcode_t retval;
	int err = 0;

	if (!e2fuse_writable(req))
		return;
	/* An ACL may set the mode alone: acl.c turns the feature on. */
	retval = e2fuse_xattrs_open(srv, e2fuse_ino(node),
				    !e2fuse_acl_name(name), &h);
	if (retval == EXT2_ET_MISSING_EA_FEATURE) {
		err = flags & XATTR_REPLACE ? ENODATA : 0;
	} else if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	} else {
		if ((flags & XATTR_CREATE) && has_attr(h, name))
			err = EEXIST;
		else if ((flags & XATTR_REPLACE) && !has_attr(h, name))
			err = ENODATA;
		else if (!e2fuse_acl_name(name))	/* ACLs: after close */
			err = e2fuse_errno(ext2fs_xattr_set(h, name, value,
							    size));
		retval = ext2fs_xattrs_close(&h);
		if (!err)
			err = e2fuse_errno(retval);
	}
	if (!err && e2fuse_acl_name(name))
		err = e2fuse_acl_set(req, e2fuse_ino(node), name, value, size);
	else if (!err)
		err = e2fuse_errno(e2fuse_xattr_changed(srv, e2fuse_ino(node),
							NULL));
	fuse_reply_err(req, err);
}

void e2fuse_removexattr(fuse_req_t req, fuse_ino_t node, const char *name)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct ext2_xattr_handle *h;
	errcode_t retval;
	int err = 0;

	if (!e2fuse_writable(req))
		return;
	retval = e2fuse_xattrs_open(srv, e2fuse_ino(node), 0, &h);
	if (retval == EXT2_ET_MISSING_EA_FEATURE) {
		fuse_reply_err(req, e2fuse_acl_name(name) &&
			       !e2fuse_acl_on(srv) ? EOPNOTSUPP : ENODATA);
		return;
	}
	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	if (!has_attr(h, name))
		err = e2fuse_acl_name(name) && !e2fuse_acl_on(srv) ?
		      EOPNOTSUPP : ENODATA;
	else if (!e2fuse_acl_name(name))
		err = e2fuse_errno(ext2fs_xattr_remove(h, name));
	retval = ext2fs_xattrs_close(&h);
	if (!err)
		err = e2fuse_errno(retval);
	if (!err && e2fuse_acl_name(name))
		err = e2fuse_acl_set(req, e2fuse_ino(node), name, NULL, 0);
	else if (!err)
		err = e2fuse_errno(e2fuse_xattr_changed(srv, e2fuse_ino(node),
							NULL));
	fuse_reply_err(req, err);
}
