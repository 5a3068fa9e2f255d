/*
 * rename.c: rename, as ext4_rename does it:
 *   - the source is found by lookup in its directory;
 *   - when a lookup of the new name finds an entry, that entry is
 *     pointed at the source's inode and keeps its stored name (so
 *     renaming "a" over "README" in a casefolded directory holding
 *     "readme" leaves "readme"), and the inode it named loses a link;
 *     a directory may only replace an empty directory, and a file only
 *     a file;
 *   - otherwise the new name is created (checked as any creation) where
 *     its hash leads;
 *   - the old entry is removed; a moved directory's ".." is pointed at
 *     its new parent and the parents' link counts follow.
 * When both names reach the same inode (another spelling of the same
 * entry, or two links to one file) nothing changes, as vfs_rename
 * returns early: in a casefolded directory "mv readme README" keeps
 * "readme" (the kernel's FUSE client does not even send that rename).
 * RENAME_NOREPLACE is honoured. RENAME_EXCHANGE (ext4_cross_rename)
 * swaps the inodes two existing entries name, each keeping its stored
 * spelling; moved directories get their ".." and the parents' link
 * counts follow. RENAME_WHITEOUT is refused with EINVAL.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "diredit.h"
#include "e2fuse.h"
#include "newinode.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

/* Is ancestor an ancestor of (or equal to) dir? Walks "..". */
static int is_ancestor(struct e2fuse *srv, ext2_ino_t ancestor, ext2_ino_t dir)
{
	int depth;

	for (depth = 0; depth < 4096; depth++) {
		struct e2fuse_found f;

		if (dir == ancestor)
			return 1;
		if (dir == EXT2_ROOT_INO)
			return 0;
		if (e2fuse_find(srv, dir, "..", &f) || !f.ino)
			return 0;
		dir = f.ino;
	}
	return 1;
}

/* ".." of a moved directory points at its new parent. */
static errcode_t repoint_dotdot(struct e2fuse *srv, ext2_ino_t dir,
				ext2_ino_t parent)
{
	struct ext2_inode_large inode;
	errcode_t retval = e2fuse_read_inode(srv, dir, &inode);

	if (retval)
		return retval;
	if (inode.i_flags & EXT4_INLINE_DATA_FL) {
		/* The inline directory's parent is its first four bytes. */
		inode.i_block[0] = ext2fs_cpu_to_le32(parent);
		return e2fuse_write_inode(srv, dir, &inode);
	}
	return e2fold_dirblock_set_ino(srv->fs, dir, 0, 12, parent,
				       EXT2_FT_DIR);
}

struct move {
	ext2_ino_t from_dir, to_dir;
	const char *from_name, *to_name;
	struct e2fuse_found src, dst;
	int src_is_dir, dst_is_dir;
};

/* Point the existing target entry at the source's inode. */
static errcode_t replace(struct e2fuse *srv, struct move *m)
{
	struct ext2_inode_large inode;
	errcode_t retval;

	retval = e2fold_dirblock_set_ino(srv->fs, m->to_dir, m->dst.lblk,
					 m->dst.offset, m->src.ino,
					 m->src.file_type);
	if (!retval)
		retval = e2fuse_read_inode(srv, m->to_dir, &inode);
	if (!retval) {
		e2fuse_set_times(srv, &inode, E2FUSE_MTIME | E2FUSE_CTIME, NULL);
		retval = e2fuse_write_inode(srv, m->to_dir, &inode);
	}
	if (!retval)
		retval = e2fuse_drop_link(srv, m->dst.ino);
	if (!retval && m->dst_is_dir)
		retval = e2fuse_adjust_links(srv, m->to_dir, -1);
	return retval;
}

static errcode_t do_move(struct e2fuse *srv, struct move *m)
{
	struct ext2_inode_large inode;
	errcode_t retval;

	if (m->dst.ino)
		retval = replace(srv, m);
	else
		retval = e2fuse_add_name(srv, m->to_dir, m->to_name,
					 m->src.ino, m->src.file_type);
	if (retval)
		return retval;
	/* The source's entry: found again, as adding may have moved it. */
	if (e2fuse_find(srv, m->from_dir, m->from_name, &m->src) ||
	    !m->src.ino)
		return EXT2_ET_DIR_CORRUPTED;
	retval = e2fuse_remove_entry(srv, m->from_dir, &m->src);
	if (!retval && m->src_is_dir && m->from_dir != m->to_dir) {
		retval = repoint_dotdot(srv, m->src.ino, m->to_dir);
		if (!retval)
			retval = e2fuse_adjust_links(srv, m->from_dir, -1);
		if (!retval)
			retval = e2fuse_adjust_links(srv, m->to_dir, +1);
	}
	if (retval)
		return retval;
	retval = e2fuse_read_inode(srv, m->src.ino, &inode);
	if (!retval) {
		e2fuse_set_times(srv, &inode, E2FUSE_CTIME, NULL);
		retval = e2fuse_write_inode(srv, m->src.ino, &inode);
	}
	return retval;
}

static int encrypted(struct e2fuse *srv, ext2_ino_t dir)
{
	struct ext2_inode_large inode;

	return !e2fuse_read_inode(srv, dir, &inode) &&
	       (inode.i_flags & EXT4_ENCRYPT_FL);
}

/* The checks of ext4_rename and the VFS, in their order. */
static int check_move(struct e2fuse *srv, struct move *m, unsigned int flags)
{
	struct ext2_inode_large inode;
	int err, empty;

	if (encrypted(srv, m->from_dir) || encrypted(srv, m->to_dir))
		return ENOKEY;	/* fscrypt needs both keys to move a name */
	err = e2fuse_find(srv, m->from_dir, m->from_name, &m->src);
	if (err)
		return err;
	if (!m->src.ino)
		return ENOENT;
	err = e2fuse_errno(e2fuse_read_inode(srv, m->src.ino, &inode));
	if (err)
		return err;
	m->src_is_dir = LINUX_S_ISDIR(inode.i_mode);
	m->src.file_type = e2fold_file_type(inode.i_mode);
	err = e2fuse_find(srv, m->to_dir, m->to_name, &m->dst);
	if (err)
		return err;
	if (m->dst.ino == m->src.ino)
		return -1;	/* the same inode: nothing to do */
	if (m->src_is_dir && m->from_dir != m->to_dir &&
	    is_ancestor(srv, m->src.ino, m->to_dir))
		return EINVAL;
	if (!m->dst.ino) {
		err = e2fuse_may_create(srv, m->to_dir, m->to_name);
		/* A directory moved in adds to its new parent's count. */
		if (!err && m->src_is_dir && m->from_dir != m->to_dir)
			err = e2fuse_may_link_dir(srv, m->to_dir);
		return err;
	}
	if (flags & RENAME_NOREPLACE)
		return EEXIST;
	err = e2fuse_errno(e2fuse_read_inode(srv, m->dst.ino, &inode));
	if (err)
		return err;
	m->dst_is_dir = LINUX_S_ISDIR(inode.i_mode);
	if (m->src_is_dir && !m->dst_is_dir)
		return ENOTDIR;
	if (!m->src_is_dir && m->dst_is_dir)
		return EISDIR;
	if (m->dst_is_dir) {
		err = e2fuse_errno(e2fuse_dir_empty(srv, m->dst.ino, &empty));
		if (!err && !empty)
			err = ENOTEMPTY;
	}
	return err;
}

/* The checks of an exchange: both names exist, no loop is made. */
static int check_exchange(struct e2fuse *srv, struct move *m)
{
	struct ext2_inode_large inode;
	int err;

	if (encrypted(srv, m->from_dir) || encrypted(srv, m->to_dir))
		return ENOKEY;
	err = e2fuse_find(srv, m->from_dir, m->from_name, &m->src);
	if (!err)
		err = e2fuse_find(srv, m->to_dir, m->to_name, &m->dst);
	if (err)
		return err;
	if (!m->src.ino || !m->dst.ino)
		return ENOENT;
	if (m->src.ino == m->dst.ino)
		return -1;
	err = e2fuse_errno(e2fuse_read_inode(srv, m->src.ino, &inode));
	if (err)
		return err;
	m->src_is_dir = LINUX_S_ISDIR(inode.i_mode);
	m->src.file_type = e2fold_file_type(inode.i_mode);
	err = e2fuse_errno(e2fuse_read_inode(srv, m->dst.ino, &inode));
	if (err)
		return err;
	m->dst_is_dir = LINUX_S_ISDIR(inode.i_mode);
	m->dst.file_type = e2fold_file_type(inode.i_mode);
	if (m->from_dir != m->to_dir &&
	    ((m->src_is_dir && is_ancestor(srv, m->src.ino, m->to_dir)) ||
	     (m->dst_is_dir && is_ancestor(srv, m->dst.ino, m->from_dir))))
		return EINVAL;
	/* The parent that gains a subdirectory must have room to count it. */
	if (m->from_dir != m->to_dir && m->src_is_dir != m->dst_is_dir)
		return e2fuse_may_link_dir(srv, m->src_is_dir ? m->to_dir :
							      m->from_dir);
	return 0;
}

/* ctime of ino, and mtime too for a directory whose entries changed. */
static errcode_t touch(struct e2fuse *srv, ext2_ino_t ino, int which)
{
	struct ext2_inode_large inode;
	errcode_t retval = e2fuse_read_inode(srv, ino, &inode);

	if (retval)
		return retval;
	e2fuse_set_times(srv, &inode, which, NULL);
	return e2fuse_write_inode(srv, ino, &inode);
}

static errcode_t do_exchange(struct e2fuse *srv, struct move *m)
{
	errcode_t retval;

	retval = e2fold_dirblock_set_ino(srv->fs, m->from_dir, m->src.lblk,
					 m->src.offset, m->dst.ino,
					 m->dst.file_type);
	if (!retval)
		retval = e2fold_dirblock_set_ino(srv->fs, m->to_dir,
						 m->dst.lblk, m->dst.offset,
						 m->src.ino, m->src.file_type);
	if (!retval && m->from_dir != m->to_dir) {
		if (m->src_is_dir)
			retval = repoint_dotdot(srv, m->src.ino, m->to_dir);
		if (!retval && m->dst_is_dir)
			retval = repoint_dotdot(srv, m->dst.ino, m->from_dir);
		/* A directory for a file: one subdirectory moves over. */
		if (!retval && m->src_is_dir != m->dst_is_dir) {
			int to_from = m->src_is_dir ? -1 : +1;

			retval = e2fuse_adjust_links(srv, m->from_dir, to_from);
			if (!retval)
				retval = e2fuse_adjust_links(srv, m->to_dir,
							     -to_from);
		}
	}
	if (!retval)
		retval = touch(srv, m->from_dir, E2FUSE_MTIME | E2FUSE_CTIME);
	if (!retval && m->to_dir != m->from_dir)
		retval = touch(srv, m->to_dir, E2FUSE_MTIME | E2FUSE_CTIME);
	if (!retval)
		retval = touch(srv, m->src.ino, E2FUSE_CTIME);
	if (!retval)
		retval = touch(srv, m->dst.ino, E2FUSE_CTIME);
	return retval;
}

/*
 * Both entries are about to change: until when the kernel may hold other
 * spellings of them (cache.c), which the reply must wait for.
 */
static double held_spellings(struct e2fuse *srv, const struct move *m)
{
	double from = e2fuse_cache_release(srv, m->from_dir, m->from_name,
					   &m->src);
	double to = m->dst.ino ? e2fuse_cache_release(srv, m->to_dir,
						      m->to_name, &m->dst) : 0;

	return from > to ? from : to;
}

void e2fuse_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		   fuse_ino_t newparent, const char *newname,
		   unsigned int flags)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct move m;
	double at = 0;
	int err;

	if (!e2fuse_writable(req))
		return;
	if ((flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE)) ||
	    (flags & RENAME_NOREPLACE && flags & RENAME_EXCHANGE)) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	memset(&m, 0, sizeof(m));
	m.from_dir = e2fuse_ino(parent);
	m.to_dir = e2fuse_ino(newparent);
	m.from_name = name;
	m.to_name = newname;
	if (m.from_dir == m.to_dir && !strcmp(name, newname)) {
		fuse_reply_err(req, 0);
		return;
	}
	err = flags & RENAME_EXCHANGE ? check_exchange(srv, &m) :
					check_move(srv, &m, flags);
	if (!err)
		at = held_spellings(srv, &m);
	if (!err && flags & RENAME_EXCHANGE)
		err = e2fuse_errno(do_exchange(srv, &m));
	else if (!err)
		err = e2fuse_errno(do_move(srv, &m));
	if (err < 0)
		err = 0;
	e2fuse_reply_err_at(req, err, at);
}
