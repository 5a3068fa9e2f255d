/* openfs.c: opening a filesystem (openfs.h). */
#include "config.h"

#include <stdio.h>

#include "faultio.h"
#include "icache.h"
#include "openfs.h"
#include "syncio.h"

errcode_t e2fold_open_fs(const char *device, int flags, const char *undo_file,
			 ext2_filsys *ret_fs)
{
	/* unix I/O, or the fault injector the tests ask for (faultio.h). */
	io_manager io = e2fold_default_io_manager();
	errcode_t retval;

	if (undo_file && (flags & EXT2_FLAG_RW)) {
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
	retval = ext2fs_open2(device, NULL, flags | EXT2_FLAG_64BITS, 0, 0, io,
			      ret_fs);
	if (!retval)
		e2fold_guard_inode_cache(*ret_fs);
	return retval;
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
