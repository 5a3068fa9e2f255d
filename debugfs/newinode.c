/* newinode.c: allocate and initialize the inode of a new file or directory. */
#include "config.h"

#include <string.h>

#include "debugfs.h"

#include <ext2fs/ext3_extents.h>

errcode_t session_load_bitmaps(struct session *s)
{
	errcode_t retval;

	if (s->bitmaps_loaded)
		return 0;
	retval = ext2fs_read_bitmaps(s->fs);
	if (!retval)
		s->bitmaps_loaded = 1;
	return retval;
}

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

errcode_t new_inode(struct session *s, ext2_ino_t dir, __u16 mode,
		    __u32 flags, ext2_ino_t *ret_ino)
{
	ext2_filsys fs = s->fs;
	struct ext2_inode_large inode;
	__u32 now = session_now(s);
	ext2_ino_t ino;
	errcode_t retval;

	retval = session_load_bitmaps(s);
	if (retval)
		return retval;
	retval = ext2fs_new_inode(fs, dir, mode, 0, &ino);
	if (retval)
		return retval;
	memset(&inode, 0, sizeof(inode));
	inode.i_mode = mode;
	inode.i_links_count = LINUX_S_ISDIR(mode) ? 2 : 1;
	inode.i_atime = inode.i_ctime = inode.i_mtime = now;
	inode.i_flags = flags;
	if (ext2fs_has_feature_extents(fs->super))
		init_extents(&inode);
	/* Zeroes the rest of the on-disk inode and sets i_extra_isize. */
	retval = ext2fs_write_new_inode(fs, ino, (struct ext2_inode *)&inode);
	if (retval)
		return retval;
	ext2fs_inode_alloc_stats2(fs, ino, +1, LINUX_S_ISDIR(mode));
	*ret_ino = ino;
	return 0;
}
