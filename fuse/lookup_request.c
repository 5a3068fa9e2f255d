/*
 * lookup_request.c: FUSE's LOOKUP, the kernel's question "which inode
 * has this name here?", and, for a file handle (NFS export,
 * open_by_handle_at), "is inode N still there?", asked as a lookup of "."
 * in N. The kernel then compares the generation number of the answer
 * with the handle's: an inode number freed and reused for another file
 * gives ESTALE, as on ext4.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "e2fuse.h"

/*
 * An inode number a name may lead to, as ext4_valid_inum says: the root,
 * or one from the first non-reserved inode on. Inode 1 (bad blocks) would
 * otherwise be handed out as node 1, FUSE's root.
 */
static int valid_ino(const struct e2fuse *srv, ext2_ino_t ino)
{
	return ino == EXT2_ROOT_INO ||
	       (ino >= EXT2_FIRST_INODE(srv->fs->super) &&
		ino <= srv->fs->super->s_inodes_count);
}

/* "." in ino, from a file handle: ino itself while it is in use. */
static void lookup_self(fuse_req_t req, ext2_ino_t ino)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct ext2_inode_large inode;

	if (!valid_ino(srv, ino) ||
	    e2fuse_read_inode(srv, ino, &inode) || !inode.i_mode ||
	    (!inode.i_links_count && !e2fuse_held(srv, ino))) {
		fuse_reply_err(req, ESTALE);
		return;
	}
	e2fuse_reply_entry(req, 0, NULL, ino);
}

void e2fuse_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct e2fuse_found f;
	int err;

	if (!strcmp(name, ".")) {
		lookup_self(req, e2fuse_ino(parent));
		return;
	}
	err = e2fuse_find(srv, e2fuse_ino(parent), name, &f);
	if (err)
		fuse_reply_err(req, err);
	else if (!f.ino)
		fuse_reply_err(req, ENOENT);
	else if (!valid_ino(srv, f.ino))
		/* ext4_lookup: "bad inode number", the filesystem corrupt. */
		fuse_reply_err(req, e2fuse_corrupt(srv, e2fuse_ino(parent),
						   "lookup",
						   EXT2_ET_DIR_CORRUPTED));
	else
		e2fuse_reply_entry(req, e2fuse_ino(parent), name, f.ino);
}
