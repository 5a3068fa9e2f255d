/*
 * profile.h: the defaults mke2fs takes from mke2fs.conf.
 *
 * Read from the file mke2fs reads (MKE2FS_CONFIG, else /etc/mke2fs.conf),
 * so that e2fold-mkfs makes what mke2fs makes on the same machine; where
 * there is no such file, the one Debian 12 ships (e2fsprogs 1.47.0) is
 * built in. As in mke2fs, the filesystem type (ext2, ext3, ext4) and a
 * size type chosen from the size (floppy below 3 MiB, small below
 * 512 MiB, default below 4 TiB, big below 16 TiB, huge), or -T's usage
 * types, select [fs_types] sections; a later section overrides an
 * earlier one, and [defaults] fills the rest.
 */
#ifndef MKFS_PROFILE_H
#define MKFS_PROFILE_H

#include <ext2fs/ext2fs.h>

#define MKFS_PROFILE_MAX_TYPES 4

struct mkfs_profile {
	const char *types[MKFS_PROFILE_MAX_TYPES];	/* sections used, in order */
	size_t ntypes;
	const char *base_features;
	const char *features[MKFS_PROFILE_MAX_TYPES];	/* each section's list */
	const char *default_mntopts;
	int blocksize;			/* -1: the page size */
	unsigned int inode_size;
	unsigned int inode_ratio;
	double reserved_ratio;
	unsigned int flex_bg_size;
	const char *hash_alg;
	const char *encoding;
	unsigned int cluster_size;	/* 0: 16 blocks */
};

/*
 * The profile for filesystem type fs_type (NULL: ext4) of size_blocks
 * blocks of blocksize bytes, with -T's usage types (comma-separated; NULL:
 * the size's type). Returns 0, or EXT2_ET_INVALID_ARGUMENT for an unknown
 * filesystem type (after saying so).
 */
errcode_t mkfs_profile_get(const char *fs_type, const char *usage_types,
			   blk64_t size_blocks, unsigned int blocksize,
			   struct mkfs_profile *ret);

#endif /* MKFS_PROFILE_H */
