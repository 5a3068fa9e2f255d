/*
 * node.c: node ids, inodes as stat structures, errors as errnos: the
 * small conversions every operation makes.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "e2fuse.h"

ext2_ino_t e2fuse_ino(fuse_ino_t node)
{
	return node == FUSE_ROOT_ID ? EXT2_ROOT_INO : (ext2_ino_t)node;
}

fuse_ino_t e2fuse_node(ext2_ino_t ino)
{
	return ino == EXT2_ROOT_INO ? FUSE_ROOT_ID : (fuse_ino_t)ino;
}

struct e2fuse *e2fuse_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

int e2fuse_errno(errcode_t retval)
{
	switch (retval) {
	case 0:
		return 0;
	case EXT2_ET_NO_MEMORY:
		return ENOMEM;
	case EXT2_ET_DIR_NO_SPACE:
	case EXT2_ET_BLOCK_ALLOC_FAIL:
	case EXT2_ET_INODE_ALLOC_FAIL:
	case EXT2_ET_EA_NO_SPACE:
	case EXT2_ET_TOOSMALL:
		return ENOSPC;
	case EXT2_ET_RO_FILSYS:
	case EXT2_ET_RO_BLOCK_ITERATE:
		return EROFS;
	case EXT2_ET_FILE_NOT_FOUND:
		return ENOENT;
	case EXT2_ET_NO_DIRECTORY:
		return ENOTDIR;
	case EXT2_ET_UNIMPLEMENTED:
	case EXT2_ET_OP_NOT_SUPPORTED:
		return EOPNOTSUPP;
	case EXT2_ET_EA_KEY_NOT_FOUND:
		return ENODATA;
	case EXT2_ET_INVALID_ARGUMENT:
	case EXT2_ET_EA_BAD_NAME_LEN:
		return EINVAL;
	case EXT2_ET_FILE_TOO_BIG:
		return EFBIG;
	case EXT2_ET_DIR_EXISTS:
		return EEXIST;
	case EXT2_ET_TOO_MANY_REFS:
		return EMLINK;
	}
	/* Small values are errnos libext2fs passed through (EIO, ENOSPC...). */
	if (retval > 0 && retval < 4096)
		return (int)retval;
	return EIO;
}

__u32 e2fuse_now(struct e2fuse *srv)
{
	return srv->fs->now ? (__u32)srv->fs->now : (__u32)time(NULL);
}

errcode_t e2fuse_read_inode(struct e2fuse *srv, ext2_ino_t ino,
			    struct ext2_inode_large *inode)
{
	errcode_t retval;

	memset(inode, 0, sizeof(*inode));
	retval = ext2fs_read_inode_full(srv->fs, ino, (struct ext2_inode *)inode,
					sizeof(*inode));
	if (e2fuse_is_corruption(retval))
		e2fuse_corrupt(srv, ino, "read_inode", retval);
	return retval;
}

errcode_t e2fuse_write_inode(struct e2fuse *srv, ext2_ino_t ino,
			     struct ext2_inode_large *inode)
{
	return ext2fs_write_inode_full(srv->fs, ino, (struct ext2_inode *)inode,
				       sizeof(*inode));
}

/* A timestamp with its extra bits (nanoseconds, epoch) if stored. */
static struct timespec stamp(__u32 secs, const __u32 *extra)
{
	struct timespec ts = { .tv_sec = (__s32)secs, .tv_nsec = 0 };

	if (extra) {
		ts.tv_sec += (time_t)(*extra & EXT4_EPOCH_MASK) << 32;
		ts.tv_nsec = *extra >> EXT4_EPOCH_BITS;
	}
	return ts;
}

/* Does the large inode's extra space reach past field at offset off? */
#define HAS_EXTRA(inode, field) \
	((size_t)EXT2_GOOD_OLD_INODE_SIZE + (inode)->i_extra_isize >= \
	 offsetof(struct ext2_inode_large, field) + sizeof((inode)->field))

void e2fuse_fill_stat(struct e2fuse *srv, ext2_ino_t ino,
		      const struct ext2_inode_large *inode, struct stat *st)
{
	const struct ext2_inode *in = (const struct ext2_inode *)inode;

	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_mode = inode->i_mode;
	st->st_nlink = inode->i_links_count;
	st->st_uid = inode_uid(*in);
	st->st_gid = inode_gid(*in);
	if (srv->opt.uid_set)
		st->st_uid = srv->opt.uid;
	if (srv->opt.gid_set)
		st->st_gid = srv->opt.gid;
	st->st_size = EXT2_I_SIZE(in);
	st->st_blksize = srv->fs->blocksize;
	st->st_blocks = ext2fs_get_stat_i_blocks(srv->fs, (struct ext2_inode *)in);
	if (LINUX_S_ISCHR(inode->i_mode) || LINUX_S_ISBLK(inode->i_mode)) {
		if (inode->i_block[0])
			st->st_rdev = makedev((inode->i_block[0] >> 8) & 255,
					      inode->i_block[0] & 255);
		else
			st->st_rdev = makedev((inode->i_block[1] & 0xfff00) >> 8,
					      (inode->i_block[1] & 0xff) |
					      ((inode->i_block[1] >> 12) & 0xfff00));
	}
	st->st_atim = stamp(inode->i_atime,
			    HAS_EXTRA(inode, i_atime_extra) ? &inode->i_atime_extra : NULL);
	st->st_mtim = stamp(inode->i_mtime,
			    HAS_EXTRA(inode, i_mtime_extra) ? &inode->i_mtime_extra : NULL);
	st->st_ctim = stamp(inode->i_ctime,
			    HAS_EXTRA(inode, i_ctime_extra) ? &inode->i_ctime_extra : NULL);
}

errcode_t e2fuse_fill_entry(struct e2fuse *srv, ext2_ino_t dir,
			    const char *name, ext2_ino_t ino,
			    struct fuse_entry_param *e)
{
	return e2fuse_fill_entry_in(srv, dir, -1, name, ino, e);
}

errcode_t e2fuse_fill_entry_in(struct e2fuse *srv, ext2_ino_t dir,
			       int casefolded, const char *name,
			       ext2_ino_t ino, struct fuse_entry_param *e)
{
	struct ext2_inode_large inode;
	errcode_t retval;

	retval = e2fuse_read_inode(srv, ino, &inode);
	if (retval)
		return retval;
	memset(e, 0, sizeof(*e));
	e->ino = e2fuse_node(ino);
	e->generation = inode.i_generation;
	e2fuse_fill_stat(srv, ino, &inode, &e->attr);
	e2fuse_cache_entry(srv, dir, casefolded, name,
			   name ? strlen(name) : 0, ino, &inode, e);
	return 0;
}

void e2fuse_reply_entry(fuse_req_t req, ext2_ino_t dir, const char *name,
			ext2_ino_t ino)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct fuse_entry_param e;
	errcode_t retval;

	retval = e2fuse_fill_entry(srv, dir, name, ino, &e);
	if (!retval)
		retval = e2fuse_ref(srv, ino);
	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	/* Interrupted: the kernel never had it. */
	if (fuse_reply_entry(req, &e))
		e2fuse_unref(srv, ino, 1);
}

int e2fuse_writable(fuse_req_t req)
{
	if (!e2fuse_may_write(e2fuse_of(req))) {
		fuse_reply_err(req, EROFS);
		return 0;
	}
	return 1;
}

/* Seconds and, with room for it, the extra word of one timestamp. */
static void put_stamp(__u32 *secs, __u32 *extra, const struct timespec *ts)
{
	*secs = (__u32)ts->tv_sec;
	if (extra)
		*extra = ((__u32)(((__u64)ts->tv_sec - (__s32)*secs) >> 32) &
			  EXT4_EPOCH_MASK) |
			 ((__u32)ts->tv_nsec << EXT4_EPOCH_BITS);
}

void e2fuse_set_times(struct e2fuse *srv, struct ext2_inode_large *inode,
		      int which, const struct timespec *ts)
{
	struct timespec now;

	if (!ts) {
		if (srv->fs->now) {
			now.tv_sec = srv->fs->now;
			now.tv_nsec = 0;
		} else {
			clock_gettime(CLOCK_REALTIME, &now);
		}
		ts = &now;
	}
	if (which & E2FUSE_ATIME)
		put_stamp(&inode->i_atime, HAS_EXTRA(inode, i_atime_extra) ?
			  &inode->i_atime_extra : NULL, ts);
	if (which & E2FUSE_MTIME)
		put_stamp(&inode->i_mtime, HAS_EXTRA(inode, i_mtime_extra) ?
			  &inode->i_mtime_extra : NULL, ts);
	if (which & E2FUSE_CTIME)
		put_stamp(&inode->i_ctime, HAS_EXTRA(inode, i_ctime_extra) ?
			  &inode->i_ctime_extra : NULL, ts);
}

/* a is not after b. */
static int not_after(struct timespec a, struct timespec b)
{
	return a.tv_sec < b.tv_sec ||
	       (a.tv_sec == b.tv_sec && a.tv_nsec <= b.tv_nsec);
}

/* relatime (fs/inode.c, relatime_need_update): is atime due? */
static int atime_due(struct e2fuse *srv, const struct ext2_inode_large *inode)
{
	struct timespec atime = stamp(inode->i_atime,
			HAS_EXTRA(inode, i_atime_extra) ? &inode->i_atime_extra : NULL);
	struct timespec mtime = stamp(inode->i_mtime,
			HAS_EXTRA(inode, i_mtime_extra) ? &inode->i_mtime_extra : NULL);
	struct timespec ctime = stamp(inode->i_ctime,
			HAS_EXTRA(inode, i_ctime_extra) ? &inode->i_ctime_extra : NULL);

	if (srv->opt.atime == E2FUSE_STRICTATIME)
		return 1;
	return not_after(atime, mtime) || not_after(atime, ctime) ||
	       (time_t)e2fuse_now(srv) - atime.tv_sec >= 24 * 60 * 60;
}

void e2fuse_accessed(struct e2fuse *srv, ext2_ino_t ino)
{
	struct ext2_inode_large inode;

	if (!e2fuse_may_write(srv) || srv->opt.atime == E2FUSE_NOATIME ||
	    e2fuse_read_inode(srv, ino, &inode) ||
	    (inode.i_flags & EXT2_NOATIME_FL) || !atime_due(srv, &inode))
		return;
	e2fuse_set_times(srv, &inode, E2FUSE_ATIME, NULL);
	e2fuse_write_inode(srv, ino, &inode);
}
