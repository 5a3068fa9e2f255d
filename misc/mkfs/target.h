/*
 * target.h: the device or file a filesystem is made on, and the checks
 * made before anything is written to it: it must not be mounted, must be
 * writable, and must not hold a filesystem or partition table that
 * libblkid recognizes unless -F says to overwrite it.
 */
#ifndef MKFS_TARGET_H
#define MKFS_TARGET_H

#include <ext2fs/ext2fs.h>

struct mkfs_target {
	const char *name;
	int exists;
	int is_blockdev;
	__u64 size_bytes;		/* of the device or file; 0 if empty */
	unsigned int sector_size;	/* logical sector size of a device */
	int created;			/* made by us, removed again on failure */
};

/*
 * Look at name and refuse it (printing why) if it is mounted, not a block
 * device or regular file, not writable, or holds something recognizable
 * and force is 0. A missing name is fine: it can be created. Returns 0 or
 * EXT2_ET_INVALID_ARGUMENT / an errno value.
 */
errcode_t mkfs_target_inspect(const char *name, int force,
			      struct mkfs_target *t);

/* Create the missing file t->name as a sparse file of bytes bytes. */
errcode_t mkfs_target_create(struct mkfs_target *t, __u64 bytes);

/* Remove the file if mkfs_target_create made it. */
void mkfs_target_discard_created(struct mkfs_target *t);

#endif /* MKFS_TARGET_H */
