/*
 * create.h: open a new filesystem in memory with ext2fs_initialize() and
 * fill in the superblock fields mke2fs sets after it (UUID and checksum
 * seed, directory hash, label, mount count, checksum type). Nothing is
 * written to the target yet.
 */
#ifndef MKFS_CREATE_H
#define MKFS_CREATE_H

#include <ext2fs/ext2fs.h>

#include "plan.h"

/*
 * ext2fs_initialize() the plan on device through io (the device's, with
 * -z its undo manager, or mkfs_dryrun_io_manager for -n), with flags
 * added to libext2fs's (EXT2_FLAG_DIRECT_IO for -D). label may be NULL.
 */
errcode_t mkfs_create(const char *device, const struct mkfs_plan *plan,
		      const char *label, io_manager io, int flags,
		      ext2_filsys *ret_fs);

#endif /* MKFS_CREATE_H */
