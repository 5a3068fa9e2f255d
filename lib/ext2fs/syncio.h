/*
 * syncio.h: an I/O manager that writes through. Each write reaches the
 * file, and is flushed there (libext2fs's flush: its block cache, then
 * fsync), before the call returns, so that writes land in the order they
 * are made and a kill or a power cut cannot keep an earlier one from the
 * disk while a later one is there.
 *
 * e2fold-fsck -z gives it to libext2fs's undo manager as the backing
 * manager of both the filesystem and the undo file. The undo manager
 * saves a block's old contents, and rewrites its key block and header,
 * before it passes the write on; but through a caching manager those
 * undo-file writes could still sit in memory when the filesystem's write
 * reached the disk, and a killed run's undo file would miss blocks it had
 * overwritten. Written through, the undo file covers every block before
 * the block changes.
 */
#ifndef E2FOLD_SYNCIO_H
#define E2FOLD_SYNCIO_H

#include <ext2fs/ext2fs.h>

/*
 * The write-through manager over inner (unix_io_manager, or the fault
 * injector of faultio.h); the last inner given is the one every channel
 * opened through it afterwards uses.
 */
io_manager e2fold_sync_io_manager(io_manager inner);

#endif /* E2FOLD_SYNCIO_H */
