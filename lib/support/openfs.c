/* openfs.c: opening a filesystem (openfs.h). */
#include "config.h"

#include <stdio.h>

#include "cacheio.h"
#include "faultio.h"
#include "icache.h"
#include "imagelock.h"
#include "openfs.h"
#include "syncio.h"
#include "txnio.h"

errcode_t e2fold_open_fs(const char *device, int flags, const char *undo_file,
			 ext2_filsys *ret_fs)
{
	return e2fold_open_fs_at(device, flags, 0, 0, undo_file, ret_fs);
}

/*
 * io, without write_byte. Given a manager with write_byte, libext2fs
 * writes the primary superblock field by field, only the changed bytes;
 * a kill between two such writes leaves a superblock whose checksum
 * fails, which nothing opens without a backup (a filesystem of one block
 * group has none). Without it, the superblock goes in one write of its
 * 1,024 bytes, which a kill cannot cut (doc/crash-safety.md). The
 * journal's layer (txnio.c) has no write_byte of its own.
 */
static io_manager whole_superblock(io_manager io)
{
	static struct struct_io_manager copy;

	copy = *io;
	copy.write_byte = NULL;
	return &copy;
}

/*
 * Lock an image opened for writing (imagelock.h), open it through io,
 * and guard its inode cache: the part every way of opening shares.
 */
static errcode_t open_locked(const char *device, int flags, blk64_t superblock,
			     unsigned int block_size, io_manager io,
			     ext2_filsys *ret_fs)
{
	errcode_t retval;

	if (flags & EXT2_FLAG_RW) {
		retval = e2fold_image_lock(device, 1);
		if (retval)
			return retval;
	}
	retval = ext2fs_open2(device, NULL, flags | EXT2_FLAG_64BITS,
			      superblock, block_size, io, ret_fs);
	/* The channel names its manager itself: replaced there. */
	if (!retval && (flags & EXT2_FLAG_RW) &&
	    (*ret_fs)->io->manager->write_byte)
		(*ret_fs)->io->manager = whole_superblock((*ret_fs)->io->manager);
	if (!retval)
		e2fold_guard_inode_cache(*ret_fs);
	return retval;
}

errcode_t e2fold_writing_io_manager(const char *undo_file, io_manager *ret)
{
	/* unix I/O, or the fault injector the tests ask for (faultio.h). */
	io_manager io = e2fold_default_io_manager();
	errcode_t retval;

	if (undo_file) {
		/* Written through, the undo file covers every block the
		 * moment before it changes, also in a killed run (syncio.h). */
		retval = set_undo_io_backing_manager(e2fold_sync_io_manager(io));
		if (!retval)
			retval = e2fold_sync_io_undo_file(undo_file);
		if (!retval)
			retval = set_undo_io_backup_file((char *)undo_file);
		if (retval)
			return retval;
		io = undo_io_manager;
	}
	*ret = io;
	return 0;
}

errcode_t e2fold_open_fs_at(const char *device, int flags, blk64_t superblock,
			    unsigned int block_size, const char *undo_file,
			    ext2_filsys *ret_fs)
{
	io_manager io;
	errcode_t retval;

	retval = e2fold_writing_io_manager(flags & EXT2_FLAG_RW ? undo_file :
					   NULL, &io);
	if (retval)
		return retval;
	return open_locked(device, flags, superblock, block_size, io, ret_fs);
}

errcode_t e2fold_open_fs_txn(const char *device, int flags,
			     ext2_filsys *ret_fs)
{
	return open_locked(device, flags, 0, 0,
			   e2fold_txn_io_manager(e2fold_default_io_manager()),
			   ret_fs);
}

errcode_t e2fold_open_fs_served(const char *device, int flags,
				ext2_filsys *ret_fs)
{
	io_manager io = e2fold_cache_io_manager(e2fold_default_io_manager());

	return open_locked(device, flags, 0, 0,
			   flags & EXT2_FLAG_RW ? e2fold_txn_io_manager(io) : io,
			   ret_fs);
}

errcode_t e2fold_open_fs_journaled(const char *device, int flags,
				   ext2_filsys *ret_fs,
				   errcode_t *ret_unjournaled)
{
	errcode_t retval;

	*ret_unjournaled = EXT2_ET_NO_JOURNAL;
	retval = e2fold_open_fs_txn(device, flags, ret_fs);
	if (retval || !(flags & EXT2_FLAG_RW))
		return retval;
	retval = e2fold_txn_begin(*ret_fs);
	if (retval == EXT2_ET_JOURNAL_FLAGS_WRONG) {
		/* Closing would write the superblock: free only. */
		ext2fs_free(*ret_fs);
		*ret_fs = NULL;
		return retval;
	}
	*ret_unjournaled = retval;
	return 0;
}

int e2fold_superblock_unusable(errcode_t retval)
{
	return retval == EXT2_ET_BAD_MAGIC || retval == EXT2_ET_SB_CSUM_INVALID ||
	       retval == EXT2_ET_CORRUPT_SUPERBLOCK ||
	       retval == EXT2_ET_BAD_DESC_SIZE || retval == EXT2_ET_SHORT_READ ||
	       retval == EXT2_ET_UNKNOWN_CSUM || retval == EXT2_ET_REV_TOO_HIGH;
}

/*
 * mke2fs puts a backup of the superblock at the start of block group 1
 * (every sparse_super layout keeps that one). A group spans 8 blocks per
 * byte of block, one bitmap block's worth, and with 1 KiB blocks the
 * groups start at block 1, after the boot block.
 */
errcode_t e2fold_open_fs_backup(const char *device, int flags,
				unsigned int block_size, const char *undo_file,
				ext2_filsys *ret_fs, blk64_t *ret_superblock,
				unsigned int *ret_block_size)
{
	unsigned int bs;

	for (bs = EXT2_MIN_BLOCK_SIZE; bs <= EXT2_MAX_BLOCK_SIZE; bs <<= 1) {
		blk64_t sb = (blk64_t)bs * 8 + (bs == EXT2_MIN_BLOCK_SIZE);

		if (block_size && bs != block_size)
			continue;
		if (e2fold_open_fs_at(device, flags, sb, bs, undo_file, ret_fs))
			continue;
		*ret_superblock = sb;
		*ret_block_size = bs;
		return 0;
	}
	return EXT2_ET_BAD_MAGIC;
}

int e2fold_fs_truncated(const char *prog, ext2_filsys fs, const char *device)
{
	blk64_t dev_blocks = 0;

	if (ext2fs_get_device_size2(device, fs->blocksize, &dev_blocks) ||
	    !dev_blocks || ext2fs_blocks_count(fs->super) <= dev_blocks)
		return 0;
	fprintf(stderr, "%s: %s: the superblock says %llu blocks, the device "
		"holds %llu: truncated, or the superblock is corrupt\n", prog,
		device, (unsigned long long)ext2fs_blocks_count(fs->super),
		(unsigned long long)dev_blocks);
	return 1;
}

int e2fold_fs_geometry_bad(const char *prog, ext2_filsys fs, const char *device)
{
	__u32 first = fs->super->s_first_data_block;
	__u32 want = fs->blocksize == 1024 && EXT2FS_CLUSTER_RATIO(fs) == 1;

	if (first == want)
		return 0;
	fprintf(stderr, "%s: %s: the superblock puts the first data block at "
		"%u, where its block size puts it at %u: the superblock is "
		"corrupt; run e2fold-fsck on it\n", prog, device, first, want);
	return 1;
}
