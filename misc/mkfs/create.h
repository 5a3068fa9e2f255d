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
 * ext2fs_initialize() the plan on device through io (unix_io_manager, or
 * mkfs_dryrun_io_manager for -n). label may be NULL.
 */
errcode_t mkfs_create(const char *device, const struct mkfs_plan *plan,
		      const char *label, io_manager io, ext2_filsys *ret_fs);

#endif /* MKFS_CREATE_H */
