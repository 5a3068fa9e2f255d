/*
 * dryrun_io.h: an I/O manager for -n. It lets ext2fs_initialize() lay out
 * a filesystem in memory without opening the target: reads return zeros,
 * and a write is an error, so that a dry run provably writes nothing.
 */
#ifndef MKFS_DRYRUN_IO_H
#define MKFS_DRYRUN_IO_H

#include <ext2fs/ext2fs.h>

extern io_manager mkfs_dryrun_io_manager;

#endif /* MKFS_DRYRUN_IO_H */
