/*
 * ioctl.c: FS_IOC_GETFLAGS and FS_IOC_SETFLAGS (lsattr, chattr), for the
 * flags a user may change as on ext4, and the casefold flag (+F) with
 * the kernel's rules: only on a filesystem with the casefold feature
 * (EOPNOTSUPP), only on a directory (ENOTDIR), only while it is empty
 * (ENOTEMPTY). FS_IOC_FSGETXATTR and
 * FS_IOC_FSSETXATTR carry the same flags in their xflags form.
 */
#include "config.h"

#include <errno.h>
#include <linux/fs.h>
#include <string.h>

#include "e2fuse.h"

/* What chattr may change (ext4's EXT4_FL_USER_MODIFIABLE). */
#define USER_MODIFIABLE (EXT2_SECRM_FL | EXT2_UNRM_FL | EXT2_COMPR_FL | \
	EXT2_SYNC_FL | EXT2_IMMUTABLE_FL | EXT2_APPEND_FL | \
	EXT2_NODUMP_FL | EXT2_NOATIME_FL | EXT3_JOURNAL_DATA_FL | \
	EXT2_NOTAIL_FL | EXT2_DIRSYNC_FL | EXT2_TOPDIR_FL | \
	EXT4_EXTENTS_FL | 0x00400000 | 0x02000000 | EXT4_PROJINHERIT_FL | \
	EXT4_CASEFOLD_FL)

/*
 * The flags FS_IOC_FSGETXATTR/FSSETXATTR show as xflags. The kernel's
 * FUSE client reads them before it sets flags (its fileattr calls), so
 * chattr needs both ioctls.
 */
static const struct {
	__u32 flag, xflag;
} xflags[] = {
	{ EXT2_SYNC_FL, FS_XFLAG_SYNC },
	{ EXT2_IMMUTABLE_FL, FS_XFLAG_IMMUTABLE },
	{ EXT2_APPEND_FL, FS_XFLAG_APPEND },
	{ EXT2_NODUMP_FL, FS_XFLAG_NODUMP },
	{ EXT2_NOATIME_FL, FS_XFLAG_NOATIME },
	{ EXT4_PROJINHERIT_FL, FS_XFLAG_PROJINHERIT },
};
#define NXFLAGS (sizeof(xflags) / sizeof(xflags[0]))

static __u32 to_xflags(__u32 flags)
{
	__u32 x = 0;
	size_t i;

	for (i = 0; i < NXFLAGS; i++)
		if (flags & xflags[i].flag)
			x |= xflags[i].xflag;
	return x;
}

static __u32 from_xflags(__u32 flags, __u32 x)
{
	size_t i;

	for (i = 0; i < NXFLAGS; i++) {
		flags &= ~xflags[i].flag;
		if (x & xflags[i].xflag)
			flags |= xflags[i].flag;
	}
	return flags;
}

/* What lsattr is shown (ext4's EXT4_FL_USER_VISIBLE). */
#define USER_VISIBLE 0x705BDFFF

/* The flags an inode of this mode can carry (ext4_mask_flags). */
__u32 e2fuse_mask_flags(__u16 mode, __u32 flags)
{
	if (LINUX_S_ISDIR(mode))
		return flags;
	if (LINUX_S_ISREG(mode))
		return flags & ~(EXT2_DIRSYNC_FL | EXT2_TOPDIR_FL |
				 EXT4_CASEFOLD_FL | EXT4_PROJINHERIT_FL);
	return flags & (EXT2_NODUMP_FL | EXT2_NOATIME_FL);
}

static int check_casefold(struct e2fuse *srv, ext2_ino_t ino,
			  const struct ext2_inode_large *inode, __u32 flags)
{
	int empty;

	if (!((inode->i_flags ^ flags) & EXT4_CASEFOLD_FL))
		return 0;
	if (!ext2fs_has_feature_casefold(srv->fs->super))
		return EOPNOTSUPP;
	if (!LINUX_S_ISDIR(inode->i_mode))
		return ENOTDIR;
	if (e2fuse_dir_empty(srv, ino, &empty))
		return EIO;
	return empty ? 0 : ENOTEMPTY;
}

static int set_flags(fuse_req_t req, ext2_ino_t ino, __u32 flags)
{
	struct e2fuse *srv = e2fuse_of(req);
	const struct fuse_ctx *ctx = fuse_req_ctx(req);
	struct ext2_inode_large inode;
	errcode_t retval;
	int err;

	if (!e2fuse_may_write(srv))
		return EROFS;
	retval = e2fuse_read_inode(srv, ino, &inode);
	if (retval)
		return e2fuse_errno(retval);
	/*
	 * As ext4_fileattr_set: flags it does not show, or that this kind of
	 * inode cannot carry (+F on a file), are ignored without an error.
	 */
	if (flags & ~USER_VISIBLE)
		return 0;
	flags &= USER_MODIFIABLE;
	if (e2fuse_mask_flags(inode.i_mode, flags) != flags)
		return 0;
	/* Only the owner (or root) changes flags; only root the special ones. */
	if (!srv->opt.fakeroot && ctx->uid &&
	    ctx->uid != inode_uid(*(struct ext2_inode *)&inode))
		return EPERM;
	if (!srv->opt.fakeroot && ctx->uid &&
	    ((inode.i_flags ^ flags) & (EXT2_APPEND_FL | EXT2_IMMUTABLE_FL |
					EXT3_JOURNAL_DATA_FL)))
		return EPERM;
	/* Extents cannot be switched off once on (ext4 refuses). */
	if ((inode.i_flags & EXT4_EXTENTS_FL) && !(flags & EXT4_EXTENTS_FL))
		return EOPNOTSUPP;
	err = check_casefold(srv, ino, &inode, flags);
	if (err)
		return err;
	inode.i_flags = (inode.i_flags & ~USER_MODIFIABLE) |
			(flags & USER_MODIFIABLE);
	e2fuse_set_times(srv, &inode, E2FUSE_CTIME, NULL);
	retval = e2fuse_write_inode(srv, ino, &inode);
	if (!retval)
		e2fuse_attr_changed(srv, ino);	/* its ctime */
	return e2fuse_errno(retval);
}

static void get_flags(fuse_req_t req, ext2_ino_t ino, unsigned int cmd,
		      size_t out_bufsz)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct ext2_inode_large inode;
	struct fsxattr fsx;
	errcode_t retval;
	int value;

	if (out_bufsz < (cmd == FS_IOC_GETFLAGS ? sizeof(value) : sizeof(fsx))) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	retval = e2fuse_read_inode(srv, ino, &inode);
	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	value = inode.i_flags & USER_VISIBLE;
	if (cmd == FS_IOC_GETFLAGS) {
		fuse_reply_ioctl(req, 0, &value, sizeof(value));
		return;
	}
	memset(&fsx, 0, sizeof(fsx));
	fsx.fsx_xflags = to_xflags(inode.i_flags);
	fuse_reply_ioctl(req, 0, &fsx, sizeof(fsx));
}

static void put_flags(fuse_req_t req, ext2_ino_t ino, unsigned int cmd,
		      const void *in_buf, size_t in_bufsz)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct ext2_inode_large inode;
	struct fsxattr fsx;
	__u32 flags;
	int value, err;

	if (in_bufsz < (cmd == FS_IOC_SETFLAGS ? sizeof(value) : sizeof(fsx))) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (cmd == FS_IOC_SETFLAGS) {
		memcpy(&value, in_buf, sizeof(value));
		flags = (__u32)value;
	} else {
		memcpy(&fsx, in_buf, sizeof(fsx));
		err = e2fuse_errno(e2fuse_read_inode(srv, ino, &inode));
		if (err) {
			fuse_reply_err(req, err);
			return;
		}
		flags = from_xflags(inode.i_flags, fsx.fsx_xflags);
	}
	err = set_flags(req, ino, flags);
	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_ioctl(req, 0, NULL, 0);
}

void e2fuse_ioctl(fuse_req_t req, fuse_ino_t node, unsigned int cmd,
		  void *arg EXT2FS_ATTR((unused)),
		  struct fuse_file_info *fi EXT2FS_ATTR((unused)),
		  unsigned flags, const void *in_buf, size_t in_bufsz,
		  size_t out_bufsz)
{
	ext2_ino_t ino = e2fuse_ino(node);

	if (flags & FUSE_IOCTL_COMPAT) {
		fuse_reply_err(req, ENOSYS);
		return;
	}
	switch (cmd) {
	case FS_IOC_GETFLAGS:
	case FS_IOC_FSGETXATTR:
		get_flags(req, ino, cmd, out_bufsz);
		return;
	case FS_IOC_SETFLAGS:
	case FS_IOC_FSSETXATTR:
		put_flags(req, ino, cmd, in_buf, in_bufsz);
		return;
	}
	fuse_reply_err(req, ENOTTY);
}
