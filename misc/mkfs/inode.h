/*
 * inode.h: a source node's metadata as an ext4 inode.
 *
 * Times keep their nanoseconds and the two epoch bits in the *_extra
 * fields (Linux's ext4_encode_extra_time: extra = ((sec - (s32)sec) >> 32
 * & 3) | nsec << 2); i_crtime is the creation time of the image, since
 * the inode is born there. Device numbers use the kernel's encodings:
 * i_block[0] = major << 8 | minor when both fit 8 bits, else i_block[1] =
 * (minor & 0xff) | major << 8 | (minor & ~0xff) << 12. Regular files and
 * directories start with an empty extent tree on extent filesystems;
 * device nodes, fifos and sockets never have EXT4_EXTENTS_FL (e2fsck
 * rejects it there).
 */
#ifndef MKFS_INODE_H
#define MKFS_INODE_H

#include <ext2fs/ext2fs.h>

#include "tree.h"

/*
 * Write inode ino for node (not a symlink) with links names and extra
 * i_flags. The whole on-disk inode is written, so no stale bytes of a
 * lazily initialized inode table survive.
 */
errcode_t mkfs_inode_write(ext2_filsys fs, ext2_ino_t ino,
			   const struct mkfs_node *node, unsigned int links,
			   __u32 flags, time_t crtime);

/* Make symlink node as inode ino (ext2fs_symlink), with node's metadata. */
errcode_t mkfs_inode_symlink(ext2_filsys fs, ext2_ino_t parent,
			     ext2_ino_t ino, const struct mkfs_node *node,
			     time_t crtime);

/* Give an existing inode (the root) node's mode, owner and times. */
errcode_t mkfs_inode_restamp(ext2_filsys fs, ext2_ino_t ino,
			     const struct mkfs_node *node, int keep_owner,
			     unsigned int links, time_t crtime);

/* Store node's extended attributes on inode ino. */
errcode_t mkfs_inode_xattrs(ext2_filsys fs, ext2_ino_t ino,
			    const struct mkfs_node *node);

/* The directory entry file type (EXT2_FT_*) of a kind. */
int mkfs_file_type(enum mkfs_kind kind);

#endif /* MKFS_INODE_H */
