/*
 * xattr.c: extended attributes through libext2fs's xattr handle (which
 * also converts POSIX ACLs between the VFS layout and ext4's).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "array.h"
#include "e2fuse.h"

/* The attributes of ino, read; close with ext2fs_xattrs_close. */
static errcode_t open_attrs(struct e2fuse *srv, ext2_ino_t ino,
			    struct ext2_xattr_handle **ret_h)
{
	errcode_t retval = ext2fs_xattrs_open(srv->fs, ino, ret_h);

	if (retval)
		return retval;
	retval = ext2fs_xattrs_read(*ret_h);
	if (retval)
		ext2fs_xattrs_close(ret_h);
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
	errcode_t retval = open_attrs(srv, e2fuse_ino(node), &h);

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
};

static int add_name(char *name, char *value EXT2FS_ATTR((unused)),
		    size_t value_len EXT2FS_ATTR((unused)), void *data)
{
	struct name_list *l = data;
	size_t n = strlen(name) + 1;

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
	struct name_list l = { NULL, 0, 0, 0 };
	struct ext2_xattr_handle *h;
	errcode_t retval = open_attrs(srv, e2fuse_ino(node), &h);

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
	retval = open_attrs(srv, e2fuse_ino(node), &h);
	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	if ((flags & XATTR_CREATE) && has_attr(h, name))
		err = EEXIST;
	else if ((flags & XATTR_REPLACE) && !has_attr(h, name))
		err = ENODATA;
	else
		err = e2fuse_errno(ext2fs_xattr_set(h, name, value, size));
	retval = ext2fs_xattrs_close(&h);
	if (!err)
		err = e2fuse_errno(retval);
	fuse_reply_err(req, err);
}

void e2fuse_removexattr(fuse_req_t req, fuse_ino_t node, const char *name)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct ext2_xattr_handle *h;
	errcode_t retval;
	int err;

	if (!e2fuse_writable(req))
		return;
	retval = open_attrs(srv, e2fuse_ino(node), &h);
	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	err = has_attr(h, name) ? e2fuse_errno(ext2fs_xattr_remove(h, name)) :
				  ENODATA;
	retval = ext2fs_xattrs_close(&h);
	if (!err)
		err = e2fuse_errno(retval);
	fuse_reply_err(req, err);
}
