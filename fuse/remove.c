/*
 * remove.c: unlink and rmdir. The name is looked up as any lookup (so
 * "README" removes the entry stored as "readme" in a casefolded
 * directory), its entry taken out of its block, the inode loses a link
 * and is freed at none.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "e2fuse.h"

/* The entry name reaches in parent, checked for the operation. */
static int find_victim(struct e2fuse *srv, ext2_ino_t parent, const char *name,
		       int want_dir, struct e2fuse_found *f)
{
	struct ext2_inode_large inode;
	errcode_t retval;
	int err, empty;

	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return want_dir ? (name[1] ? ENOTEMPTY : EINVAL) : EISDIR;
	err = e2fuse_find(srv, parent, name, f);
	if (err)
		return err;
	if (!f->ino)
		return ENOENT;
	/*
	 * A name folding to "." or ".." (a dot and an ignorable code point)
	 * reaches the directory's own entries, which are never removed.
	 */
	if (f->lblk == 0 && (f->offset == 0 || f->offset == 12)) {
		struct e2fuse_found up;

		if (f->ino == parent ||
		    (!e2fuse_find(srv, parent, "..", &up) && f->ino == up.ino))
			return want_dir ? EBUSY : EISDIR;
	}
	retval = e2fuse_read_inode(srv, f->ino, &inode);
	if (retval)
		return e2fuse_errno(retval);
	if (!want_dir)
		return LINUX_S_ISDIR(inode.i_mode) ? EISDIR : 0;
	if (!LINUX_S_ISDIR(inode.i_mode))
		return ENOTDIR;
	retval = e2fuse_dir_empty(srv, f->ino, &empty);
	if (retval)
		return e2fuse_errno(retval);
	return empty ? 0 : ENOTEMPTY;
}

static void remove_name(fuse_req_t req, fuse_ino_t parent_node,
			const char *name, int is_dir)
{
	struct e2fuse *srv = e2fuse_of(req);
	ext2_ino_t parent = e2fuse_ino(parent_node);
	struct e2fuse_found f;
	errcode_t retval;
	double at;
	int err;

	if (!e2fuse_writable(req))
		return;
	err = find_victim(srv, parent, name, is_dir, &f);
	if (err) {
		fuse_reply_err(req, err);
		return;
	}
	/* Other spellings the kernel holds: the reply waits for them. */
	at = e2fuse_cache_release(srv, parent, name, &f);
	retval = e2fuse_remove_entry(srv, parent, &f);
	if (!retval)
		retval = e2fuse_drop_link(srv, f.ino);
	if (!retval && is_dir)
		retval = e2fuse_adjust_links(srv, parent, -1);
	e2fuse_reply_err_at(req, e2fuse_errno(retval), at);
}

void e2fuse_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	remove_name(req, parent, name, 0);
}

void e2fuse_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	remove_name(req, parent, name, 1);
}
