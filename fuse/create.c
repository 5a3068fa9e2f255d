/*
 * create.c: new names: mknod, mkdir, create, symlink, link. Each checks
 * the name as the kernel does (e2fuse_may_create: EEXIST for a name a
 * lookup finds, EINVAL for invalid UTF-8 on a strict filesystem), makes
 * the inode, then adds the name where its hash leads. A new inode
 * inherits its parent's inheritable flags that fit its type, as ext4's
 * do: a new directory is casefolded in a casefolded one.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/sysmacros.h>

#include "diredit.h"
#include "e2fuse.h"
#include "newinode.h"

/* Flags a new inode takes from its parent (ext4's EXT4_FL_INHERITED). */
#define INHERITED (EXT2_SECRM_FL | EXT2_UNRM_FL | EXT2_COMPR_FL | \
	EXT2_SYNC_FL | EXT2_NODUMP_FL | EXT2_NOATIME_FL | EXT2_NOCOMPR_FL | \
	EXT3_JOURNAL_DATA_FL | EXT2_NOTAIL_FL | EXT2_DIRSYNC_FL | \
	EXT4_PROJINHERIT_FL | EXT4_CASEFOLD_FL | FS_DAX_FL)

/*
 * A new inode's generation number, random as ext4 draws it: a file handle
 * names an inode by number and generation, so that one kept past the
 * inode's end never reaches a file that reuses the number.
 */
static void new_generation(struct ext2_inode_large *inode)
{
	__u32 g = 0;

	if (getrandom(&g, sizeof(g), 0) != sizeof(g))
		g = (__u32)random();
	inode->i_generation = g;
}

/* Owner of a new inode: the caller, and the group of a setgid parent. */
static void set_owner(fuse_req_t req, const struct ext2_inode_large *parent,
		      struct ext2_inode_large *inode)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);
	struct ext2_inode *in = (struct ext2_inode *)inode;
	gid_t gid = ctx->gid;

	if (parent->i_mode & LINUX_S_ISGID) {
		gid = inode_gid(*(const struct ext2_inode *)parent);
		if (LINUX_S_ISDIR(inode->i_mode))
			inode->i_mode |= LINUX_S_ISGID;
	}
	in->i_uid = ctx->uid & 0xffff;
	ext2fs_set_i_uid_high(*in, ctx->uid >> 16);
	in->i_gid = gid & 0xffff;
	ext2fs_set_i_gid_high(*in, gid >> 16);
}

/* A new inode of mode in parent, its owner set; its flags inherited. */
static errcode_t make_inode(fuse_req_t req, ext2_ino_t parent, __u16 mode,
			    ext2_ino_t *ret_ino)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct ext2_inode_large pinode, inode;
	__u32 flags = 0;
	errcode_t retval;

	retval = e2fuse_read_inode(srv, parent, &pinode);
	if (retval)
		return retval;
	flags = e2fuse_mask_flags(mode, pinode.i_flags & INHERITED);
	retval = e2fold_new_inode(srv->fs, parent, mode, flags,
				  e2fuse_now(srv), ret_ino);
	if (retval)
		return retval;
	retval = e2fuse_read_inode(srv, *ret_ino, &inode);
	if (retval)
		return retval;
	set_owner(req, &pinode, &inode);
	new_generation(&inode);
	e2fuse_set_times(srv, &inode, E2FUSE_ATIME | E2FUSE_MTIME |
			 E2FUSE_CTIME, NULL);
	return e2fuse_write_inode(srv, *ret_ino, &inode);
}

/* The device number of a special file in i_block, as the kernel stores it. */
static errcode_t set_rdev(struct e2fuse *srv, ext2_ino_t ino, dev_t rdev)
{
	struct ext2_inode_large inode;
	unsigned int maj = major(rdev), min = minor(rdev);
	errcode_t retval = e2fuse_read_inode(srv, ino, &inode);

	if (retval)
		return retval;
	memset(inode.i_block, 0, sizeof(inode.i_block));
	if (maj < 256 && min < 256)
		inode.i_block[0] = maj << 8 | min;
	else
		inode.i_block[1] = (min & 0xff) | (maj << 8) |
				   ((min & ~0xffU) << 12);
	return e2fuse_write_inode(srv, ino, &inode);
}

/* Undo make_inode after a later step failed (best effort). */
static void forget(struct e2fuse *srv, ext2_ino_t ino)
{
	e2fold_free_inode(srv->fs, ino, e2fuse_now(srv));
}

/* mknod, mkdir and create: a new inode of mode named name in parent. */
static int make_node(fuse_req_t req, fuse_ino_t parent_node, const char *name,
		     mode_t mode, dev_t rdev, ext2_ino_t *ret_ino)
{
	struct e2fuse *srv = e2fuse_of(req);
	ext2_ino_t parent = e2fuse_ino(parent_node), ino;
	struct e2fuse_new_acl acl;
	__u16 imode = mode;
	errcode_t retval;
	int err;

	if (!e2fuse_may_write(srv))
		return EROFS;
	err = e2fuse_may_create(srv, parent, name);
	if (!err && S_ISDIR(mode))
		err = e2fuse_may_link_dir(srv, parent);
	if (err)
		return err;
	/* The parent's default ACL, or else the umask (the kernel leaves both). */
	retval = e2fuse_acl_create(srv, parent, &imode,
				   fuse_req_ctx(req)->umask, &acl);
	if (!retval)
		retval = make_inode(req, parent, imode, &ino);
	if (retval) {
		e2fuse_acl_free(&acl);
		return e2fuse_errno(retval);
	}
	retval = e2fuse_acl_store_new(srv, ino, &acl);
	if (!retval && (S_ISCHR(mode) || S_ISBLK(mode)))
		retval = set_rdev(srv, ino, rdev);
	if (!retval && S_ISDIR(mode))
		retval = e2fuse_add_dir(srv, parent, name, ino);
	else if (!retval)
		retval = e2fuse_add_name(srv, parent, name, ino,
					 e2fold_file_type(mode));
	if (retval) {
		forget(srv, ino);
		return e2fuse_errno(retval);
	}
	*ret_ino = ino;
	return 0;
}

void e2fuse_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		  mode_t mode, dev_t rdev)
{
	ext2_ino_t ino;
	int err = make_node(req, parent, name, mode, rdev, &ino);

	if (err)
		fuse_reply_err(req, err);
	else
		e2fuse_reply_entry(req, e2fuse_ino(parent), name, ino);
}

void e2fuse_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		  mode_t mode)
{
	ext2_ino_t ino;
	int err = make_node(req, parent, name, (mode & 07777) | S_IFDIR, 0,
			    &ino);

	if (err)
		fuse_reply_err(req, err);
	else
		e2fuse_reply_entry(req, e2fuse_ino(parent), name, ino);
}

void e2fuse_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		   mode_t mode, struct fuse_file_info *fi)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct fuse_entry_param e;
	ext2_ino_t ino;
	int err = make_node(req, parent, name, (mode & 07777) | S_IFREG, 0,
			    &ino);

	if (!err)
		err = e2fuse_errno(e2fuse_fill_entry(srv, e2fuse_ino(parent),
						     name, ino, &e));
	if (!err)
		err = e2fuse_errno(e2fuse_ref(srv, ino));
	if (err) {
		fuse_reply_err(req, err);
		return;
	}
	fi->fh = 0;
	fi->keep_cache = e2fuse_keep_cache(srv);
	if (fuse_reply_create(req, &e, fi))
		e2fuse_unref(srv, ino, 1);	/* interrupted: never handed */
}

void e2fuse_symlink(fuse_req_t req, const char *target, fuse_ino_t parent_node,
		    const char *name)
{
	struct e2fuse *srv = e2fuse_of(req);
	ext2_ino_t parent = e2fuse_ino(parent_node), ino = 0;
	struct ext2_inode_large pinode, inode;
	errcode_t retval;
	int err;

	if (!e2fuse_writable(req))
		return;
	err = e2fuse_may_create(srv, parent, name);
	if (err) {
		fuse_reply_err(req, err);
		return;
	}
	if (strlen(target) >= srv->fs->blocksize) {
		fuse_reply_err(req, ENAMETOOLONG);
		return;
	}
	retval = ext2fs_new_inode(srv->fs, parent, LINUX_S_IFLNK | 0777, 0,
				  &ino);
	/* Fast (in the inode) or slow (a block), as libext2fs decides. */
	if (!retval)
		retval = ext2fs_symlink(srv->fs, parent, ino, NULL, target);
	if (!retval)
		retval = e2fuse_read_inode(srv, parent, &pinode);
	if (!retval)
		retval = e2fuse_read_inode(srv, ino, &inode);
	if (!retval) {
		set_owner(req, &pinode, &inode);
		new_generation(&inode);
		e2fuse_set_times(srv, &inode, E2FUSE_ATIME | E2FUSE_MTIME |
				 E2FUSE_CTIME, NULL);
		retval = e2fuse_write_inode(srv, ino, &inode);
	}
	if (!retval)
		retval = e2fuse_add_name(srv, parent, name, ino,
					 EXT2_FT_SYMLINK);
	if (retval) {
		if (ino && ext2fs_test_inode_bitmap2(srv->fs->inode_map, ino))
			forget(srv, ino);
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	e2fuse_reply_entry(req, parent, name, ino);
}

void e2fuse_link(fuse_req_t req, fuse_ino_t node, fuse_ino_t newparent,
		 const char *newname)
{
	struct e2fuse *srv = e2fuse_of(req);
	ext2_ino_t ino = e2fuse_ino(node), parent = e2fuse_ino(newparent);
	struct ext2_inode_large inode;
	errcode_t retval;
	int err;

	if (!e2fuse_writable(req))
		return;
	err = e2fuse_may_create(srv, parent, newname);
	if (!err)
		err = e2fuse_errno(e2fuse_read_inode(srv, ino, &inode));
	if (!err && LINUX_S_ISDIR(inode.i_mode))
		err = EPERM;
	if (!err && inode.i_links_count >= EXT2_LINK_MAX)
		err = EMLINK;
	if (err) {
		fuse_reply_err(req, err);
		return;
	}
	retval = e2fuse_add_name(srv, parent, newname, ino,
				 e2fold_file_type(inode.i_mode));
	if (!retval) {
		inode.i_links_count++;
		e2fuse_set_times(srv, &inode, E2FUSE_CTIME, NULL);
		retval = e2fuse_write_inode(srv, ino, &inode);
	}
	if (retval)
		fuse_reply_err(req, e2fuse_errno(retval));
	else
		e2fuse_reply_entry(req, parent, newname, ino);
}
