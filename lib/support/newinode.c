/* newinode.c: allocate, initialize and free inodes. */
#include "config.h"

#include <string.h>

#include "newinode.h"

#include <ext2fs/ext3_extents.h>

/* An empty extent tree in i_block, as the kernel starts one. */
static void init_extents(struct ext2_inode_large *inode)
{
	struct ext3_extent_header *eh = (struct ext3_extent_header *)inode->i_block;

	eh->eh_magic = ext2fs_cpu_to_le16(EXT3_EXT_MAGIC);
	eh->eh_entries = 0;
	eh->eh_depth = 0;
	eh->eh_max = ext2fs_cpu_to_le16((sizeof(inode->i_block) - sizeof(*eh)) /
					sizeof(struct ext3_extent));
	inode->i_flags |= EXT4_EXTENTS_FL;
}

errcode_t e2fold_new_inode(ext2_filsys fs, ext2_ino_t dir, __u16 mode,
			   __u32 flags, __u32 now, ext2_ino_t *ret_ino)
{
	struct ext2_inode_large inode;
	ext2_ino_t ino;
	errcode_t retval;

	retval = ext2fs_new_inode(fs, dir, mode, 0, &ino);
	if (retval)
		return retval;
	memset(&inode, 0, sizeof(inode));
	inode.i_mode = mode;
	inode.i_links_count = LINUX_S_ISDIR(mode) ? 2 : 1;
	inode.i_atime = inode.i_ctime = inode.i_mtime = now;
	inode.i_flags = flags;
	/*
	 * Only what holds blocks gets an extent tree, as ext4's new inodes:
	 * a device, FIFO or socket keeps i_block for its device number or
	 * nothing, and e2fsck calls one with the extents flag illegal.
	 */
	if (ext2fs_has_feature_extents(fs->super) &&
	    (LINUX_S_ISDIR(mode) || LINUX_S_ISREG(mode) || LINUX_S_ISLNK(mode)))
		init_extents(&inode);
	/* Zeroes the rest of the on-disk inode and sets i_extra_isize. */
	retval = ext2fs_write_new_inode(fs, ino, (struct ext2_inode *)&inode);
	if (retval)
		return retval;
	ext2fs_inode_alloc_stats2(fs, ino, +1, LINUX_S_ISDIR(mode));
	*ret_ino = ino;
	return 0;
}

errcode_t e2fold_free_inode(ext2_filsys fs, ext2_ino_t ino, __u32 now)
{
	struct ext2_inode_large inode;
	errcode_t retval;
	int is_dir;

	retval = ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)&inode,
					sizeof(inode));
	if (retval)
		return retval;
	is_dir = LINUX_S_ISDIR(inode.i_mode);
	/* Fast symlinks keep their target in i_block: nothing to punch. */
	if (ext2fs_inode_has_valid_blocks2(fs, (struct ext2_inode *)&inode)) {
		retval = ext2fs_punch(fs, ino, (struct ext2_inode *)&inode,
				      NULL, 0, ~0ULL);
		if (retval)
			return retval;
	}
	if (ext2fs_file_acl_block(fs, (struct ext2_inode *)&inode)) {
		blk64_t blk = ext2fs_file_acl_block(fs, (struct ext2_inode *)&inode);
		__u32 count = 0;

		retval = ext2fs_adjust_ea_refcount3(fs, blk, NULL, -1, &count,
						    ino);
		if (retval)
			return retval;
		if (!count)
			ext2fs_block_alloc_stats2(fs, blk, -1);
		ext2fs_file_acl_block_set(fs, (struct ext2_inode *)&inode, 0);
	}
	inode.i_links_count = 0;
	inode.i_dtime = now;
	inode.i_size = inode.i_size_high = 0;
	retval = ext2fs_write_inode_full(fs, ino, (struct ext2_inode *)&inode,
					 sizeof(inode));
	if (retval)
		return retval;
	ext2fs_inode_alloc_stats2(fs, ino, -1, is_dir);
	return 0;
}

int e2fold_file_type(__u16 mode)
{
	switch (mode & LINUX_S_IFMT) {
	case LINUX_S_IFREG:
		return EXT2_FT_REG_FILE;
	case LINUX_S_IFDIR:
		return EXT2_FT_DIR;
	case LINUX_S_IFCHR:
		return EXT2_FT_CHRDEV;
	case LINUX_S_IFBLK:
		return EXT2_FT_BLKDEV;
	case LINUX_S_IFIFO:
		return EXT2_FT_FIFO;
	case LINUX_S_IFSOCK:
		return EXT2_FT_SOCK;
	case LINUX_S_IFLNK:
		return EXT2_FT_SYMLINK;
	}
	return EXT2_FT_UNKNOWN;
}
