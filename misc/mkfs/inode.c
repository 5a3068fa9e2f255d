/* inode.c: node metadata into ext4 inodes. */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <ext2fs/ext3_extents.h>

#include "inode.h"

#define EPOCH_MASK 3

static __u32 extra_time(const struct timespec *ts)
{
	__u32 epoch = (__u32)(((__s64)ts->tv_sec - (__s32)ts->tv_sec) >> 32) &
		EPOCH_MASK;

	return epoch | ((__u32)ts->tv_nsec << 2);
}

/* Do the *_extra time fields exist in this inode? */
static int has_extra_times(ext2_filsys fs, const struct ext2_inode_large *in)
{
	return EXT2_INODE_SIZE(fs->super) > EXT2_GOOD_OLD_INODE_SIZE &&
	       in->i_extra_isize >= offsetof(struct ext2_inode_large,
					     i_crtime_extra) + 4 -
				   EXT2_GOOD_OLD_INODE_SIZE;
}

static void apply_owner(struct ext2_inode_large *in, uid_t uid, gid_t gid)
{
	in->i_uid = uid & 0xFFFF;
	ext2fs_set_i_uid_high(*in, uid >> 16);
	in->i_gid = gid & 0xFFFF;
	ext2fs_set_i_gid_high(*in, gid >> 16);
}

static void apply_times(ext2_filsys fs, struct ext2_inode_large *in,
			const struct mkfs_node *node, time_t crtime)
{
	in->i_atime = (__u32)node->atime.tv_sec;
	in->i_mtime = (__u32)node->mtime.tv_sec;
	in->i_ctime = (__u32)node->ctime.tv_sec;
	if (!has_extra_times(fs, in))
		return;
	in->i_atime_extra = extra_time(&node->atime);
	in->i_mtime_extra = extra_time(&node->mtime);
	in->i_ctime_extra = extra_time(&node->ctime);
	in->i_crtime = (__u32)crtime;
	in->i_crtime_extra = extra_time(&(struct timespec){ .tv_sec = crtime });
}

static void init_extent_tree(struct ext2_inode_large *in)
{
	struct ext3_extent_header *eh = (struct ext3_extent_header *)in->i_block;

	eh->eh_magic = ext2fs_cpu_to_le16(EXT3_EXT_MAGIC);
	eh->eh_entries = 0;
	eh->eh_max = ext2fs_cpu_to_le16((sizeof(in->i_block) - sizeof(*eh)) /
					sizeof(struct ext3_extent));
	eh->eh_depth = 0;
	in->i_flags |= EXT4_EXTENTS_FL;
}

static void encode_device(struct ext2_inode_large *in, dev_t rdev)
{
	unsigned int maj = major(rdev), min = minor(rdev);

	if (maj < 256 && min < 256) {
		in->i_block[0] = maj << 8 | min;
	} else {
		in->i_block[0] = 0;
		in->i_block[1] = (min & 0xff) | (maj << 8) |
			((min & ~0xffU) << 12);
	}
}

/* Write all EXT2_INODE_SIZE bytes: in, then zeros. */
static errcode_t write_whole(ext2_filsys fs, ext2_ino_t ino,
			     const struct ext2_inode_large *in)
{
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	unsigned char *buf;
	errcode_t retval;

	retval = ext2fs_get_memzero(isize, &buf);
	if (retval)
		return retval;
	memcpy(buf, in, isize < sizeof(*in) ? isize : sizeof(*in));
	retval = ext2fs_write_inode_full(fs, ino, (struct ext2_inode *)buf,
					 isize);
	ext2fs_free_mem(&buf);
	return retval;
}

errcode_t mkfs_inode_write(ext2_filsys fs, ext2_ino_t ino,
			   const struct mkfs_node *node, unsigned int links,
			   __u32 flags, time_t crtime)
{
	struct ext2_inode_large in;

	memset(&in, 0, sizeof(in));
	if (EXT2_INODE_SIZE(fs->super) > EXT2_GOOD_OLD_INODE_SIZE)
		in.i_extra_isize = fs->super->s_want_extra_isize;
	in.i_mode = node->mode;
	in.i_links_count = links;
	in.i_flags = flags;
	apply_owner(&in, node->uid, node->gid);
	apply_times(fs, &in, node, crtime);
	switch (node->kind) {
	case MKFS_REG:
	case MKFS_DIR:
		if (ext2fs_has_feature_extents(fs->super))
			init_extent_tree(&in);
		break;
	case MKFS_CHR:
	case MKFS_BLK:
		encode_device(&in, node->rdev);
		break;
	default:
		break;
	}
	return write_whole(fs, ino, &in);
}

errcode_t mkfs_inode_restamp(ext2_filsys fs, ext2_ino_t ino,
			     const struct mkfs_node *node, int keep_owner,
			     unsigned int links, time_t crtime)
{
	struct ext2_inode_large in;
	errcode_t retval;

	memset(&in, 0, sizeof(in));
	retval = ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)&in,
					sizeof(in));
	if (retval)
		return retval;
	in.i_mode = (in.i_mode & S_IFMT) | (node->mode & 07777);
	if (!keep_owner)
		apply_owner(&in, node->uid, node->gid);
	if (links)
		in.i_links_count = links;
	apply_times(fs, &in, node, crtime);
	return ext2fs_write_inode_full(fs, ino, (struct ext2_inode *)&in,
				       sizeof(in));
}

errcode_t mkfs_inode_symlink(ext2_filsys fs, ext2_ino_t parent,
			     ext2_ino_t ino, const struct mkfs_node *node,
			     time_t crtime)
{
	errcode_t retval = ext2fs_symlink(fs, parent, ino, NULL, node->target);

	if (retval)
		return retval;
	return mkfs_inode_restamp(fs, ino, node, 0, 0, crtime);
}

errcode_t mkfs_inode_xattrs(ext2_filsys fs, ext2_ino_t ino,
			    const struct mkfs_node *node)
{
	struct ext2_xattr_handle *h;
	errcode_t retval, closed;
	size_t i;

	if (!node->nxattrs)
		return 0;
	retval = ext2fs_xattrs_open(fs, ino, &h);
	if (retval)
		return retval;
	retval = ext2fs_xattrs_read(h);
	for (i = 0; !retval && i < node->nxattrs; i++)
		retval = ext2fs_xattr_set(h, node->xattrs[i].name,
					  node->xattrs[i].value,
					  node->xattrs[i].len);
	closed = ext2fs_xattrs_close(&h);
	return retval ? retval : closed;
}

int mkfs_file_type(enum mkfs_kind kind)
{
	static const int types[] = {
		[MKFS_REG] = EXT2_FT_REG_FILE,
		[MKFS_DIR] = EXT2_FT_DIR,
		[MKFS_SYMLINK] = EXT2_FT_SYMLINK,
		[MKFS_CHR] = EXT2_FT_CHRDEV,
		[MKFS_BLK] = EXT2_FT_BLKDEV,
		[MKFS_FIFO] = EXT2_FT_FIFO,
		[MKFS_SOCK] = EXT2_FT_SOCK,
	};

	return types[kind];
}
