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
 *
 * That makes the undo file complete at every moment, but the undo
 * manager marks it so (E2UNDO_STATE_FINISHED in its header) only when it
 * closes: e2undo replays an unmarked file too, then marks the filesystem
 * as needing a check, changing its superblock, so a killed run could not
 * be undone byte for byte. Each header written to the undo file named by
 * e2fold_sync_io_undo_file is therefore marked finished on its way out.
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

/* The undo file whose headers are marked finished (a copy is kept). */
errcode_t e2fold_sync_io_undo_file(const char *path);

#endif /* E2FOLD_SYNCIO_H */
