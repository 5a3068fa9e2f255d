/* newinode.h: allocate and initialize the inode of a new file or directory. */
#ifndef E2FOLD_NEWINODE_H
#define E2FOLD_NEWINODE_H

#include <ext2fs/ext2fs.h>

/*
 * Allocate and write a new inode near directory dir: mode (with its type
 * bits), flags (EXT4_CASEFOLD_FL ...), all three times `now`, an empty
 * extent tree when the filesystem has extents, one link (two for a
 * directory). The bitmaps must be loaded. Returns its number in *ret_ino.
 */
errcode_t e2fold_new_inode(ext2_filsys fs, ext2_ino_t dir, __u16 mode,
			   __u32 flags, __u32 now, ext2_ino_t *ret_ino);

/*
 * Free inode ino and its blocks (its links have gone): size 0, dtime
 * `now`, the bitmaps updated. Undoes e2fold_new_inode after a later step
 * failed, and ends an unlinked inode.
 */
errcode_t e2fold_free_inode(ext2_filsys fs, ext2_ino_t ino, __u32 now);

/* The directory entry type (EXT2_FT_*) of an inode's mode. */
int e2fold_file_type(__u16 mode);

#endif /* E2FOLD_NEWINODE_H */
