/*
 * openfs.h: opening a filesystem as every tool opens it.
 *
 * Always 64-bit, through the I/O manager the tests may replace
 * (faultio.h), and, for writing with an undo file, through libext2fs's
 * undo manager, which saves the original of every block before it is
 * first overwritten (e2undo puts them back). The inode cache is guarded
 * (icache.h) once the filesystem is open. Opened for writing, the image
 * is locked against other e2fold writers first (imagelock.h).
 */
#ifndef E2FOLD_OPENFS_H
#define E2FOLD_OPENFS_H

#include <ext2fs/ext2fs.h>

/*
 * Open device with flags (EXT2_FLAG_*; EXT2_FLAG_64BITS is added). With
 * EXT2_FLAG_RW and undo_file, blocks are saved into undo_file first;
 * without EXT2_FLAG_RW undo_file is ignored. Returns 0 with the
 * filesystem in *ret_fs, or the error of the undo setup or of
 * ext2fs_open2 (EBUSY: another e2fold program holds the image, ENOENT: no such device, EACCES/EROFS: cannot be opened
 * for writing, EXT2_ET_BAD_MAGIC: not ext2/3/4, ...).
 */
errcode_t e2fold_open_fs(const char *device, int flags, const char *undo_file,
			 ext2_filsys *ret_fs);

/*
 * The I/O manager a tool writes a device through: the default (unix I/O,
 * or the fault injector the tests ask for), or with undo_file libext2fs's
 * undo manager over it, the undo file written through. Returns 0, or the
 * undo setup's error.
 */
errcode_t e2fold_writing_io_manager(const char *undo_file, io_manager *ret);

/*
 * As e2fold_open_fs, from the superblock at block superblock of
 * block_size bytes (0 and 0: the primary). libext2fs then ignores the
 * primary; writing the filesystem writes every copy of the superblock.
 */
errcode_t e2fold_open_fs_at(const char *device, int flags, blk64_t superblock,
			    unsigned int block_size, const char *undo_file,
			    ext2_filsys *ret_fs);

/*
 * As e2fold_open_fs without an undo file, through the transaction layer
 * (txnio.h), but with nothing begun: writes go straight through until
 * the caller calls e2fold_txn_begin (e2fold_open_fs_journaled at once;
 * e2fold-fuse, through e2fold_open_fs_served, once it has checked what
 * it opened).
 */
errcode_t e2fold_open_fs_txn(const char *device, int flags,
			     ext2_filsys *ret_fs);

/*
 * As e2fold_open_fs_txn with EXT2_FLAG_RW, and as e2fold_open_fs without,
 * with a block cache (cacheio.h) under libext2fs or the transaction
 * layer: for a server that reads the same blocks for as long as it runs.
 */
errcode_t e2fold_open_fs_served(const char *device, int flags,
				ext2_filsys *ret_fs);

/*
 * As e2fold_open_fs without an undo file, through the transaction layer
 * (txnio.h): with EXT2_FLAG_RW and an internal journal e2fold writes
 * (journal.h), every write from then on waits for e2fold_txn_commit or
 * e2fold_txn_close and reaches the disk through the journal. Without a
 * journal, or with one e2fold does not write (an external journal, or
 * features journal.h lists), writes go straight through, and
 * *ret_unjournaled says why (0: journaled, EXT2_ET_NO_JOURNAL: there is
 * none). A filesystem whose journal needs recovery is not opened for
 * writing: EXT2_ET_JOURNAL_FLAGS_WRONG, nothing written (e2fsck or a
 * mount replays it first).
 */
errcode_t e2fold_open_fs_journaled(const char *device, int flags,
				   ext2_filsys *ret_fs,
				   errcode_t *ret_unjournaled);

/* Is retval, from opening, a superblock a backup might stand in for? */
int e2fold_superblock_unusable(errcode_t retval);

/*
 * Open device from the first backup superblock that opens: the one of
 * block group 1, for each block size from 1 KiB to 64 KiB (only
 * block_size if it is not 0), as mke2fs places it. Returns 0 with the
 * filesystem in *ret_fs and the backup's block and block size in
 * *ret_superblock and *ret_block_size, or EXT2_ET_BAD_MAGIC when none
 * opens.
 */
errcode_t e2fold_open_fs_backup(const char *device, int flags,
				unsigned int block_size, const char *undo_file,
				ext2_filsys *ret_fs, blk64_t *ret_superblock,
				unsigned int *ret_block_size);

/*
 * Does the superblock of fs claim more blocks than device holds? Then the
 * image was truncated or the superblock is corrupt: reading past the end
 * fails at random places and writing could grow the image. Says so
 * ("PROG: DEVICE: the superblock says N blocks, the device holds M: ...")
 * and returns 1; 0 otherwise, or if the device's size is unknown.
 */
int e2fold_fs_truncated(const char *prog, ext2_filsys fs, const char *device);

/*
 * Is the first data block not where the block size puts it (block 1 with
 * 1 KiB blocks and no clusters, else 0)? e2fsck calls that corruption
 * (it moves it back), and libext2fs 1.47.2 reads the block bitmaps past
 * their end on such a filesystem. Says so, as e2fold_fs_truncated does,
 * and returns 1; else 0.
 */
int e2fold_fs_geometry_bad(const char *prog, ext2_filsys fs,
			   const char *device);

#endif /* E2FOLD_OPENFS_H */
