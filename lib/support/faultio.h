/*
 * faultio.h: an I/O manager that fails on purpose, for testing repairs
 * when the disk misbehaves (fault injection). It passes everything
 * to libext2fs's unix I/O manager, except the Nth read or write that the
 * environment names:
 *
 *   E2FOLD_FAULT=read:N    the Nth block read fails with EIO
 *   E2FOLD_FAULT=write:N   the Nth block write fails with EIO
 *   E2FOLD_FAULT=drop:N    the Nth block write reports success but is lost
 *   E2FOLD_FAULT=sigint-read:N, sigint-write:N
 *                          the process gets SIGINT just before the Nth
 *                          block read or write, which is then made (an
 *                          interrupt at an exact point, not a fault)
 *   E2FOLD_FAULT=cut:N     a power cut just before the Nth block write:
 *                          every block written since the last flush is
 *                          given its old contents back, and the process
 *                          dies (SIGKILL), as a disk cache that loses
 *                          what it had not yet stored
 *   E2FOLD_FAULT=cut-last:N, cut-half:N
 *                          the same, but the newest of those writes, or
 *                          the newest half of them, are kept: a disk that
 *                          stored its writes out of order (flushes are
 *                          what order them)
 * (byte writes, which no tool under a cut test makes, are not undone)
 *
 * Counting starts at 1 when the channel opens; N=0 never fires. Only the
 * file first opened through the manager (the filesystem) gets faults;
 * others opened through it later (an undo manager's undo file) do not.
 * E2FOLD_FAULT_COUNTS=FILE appends "reads R writes W" to FILE when the
 * filesystem's channel closes, so a test can fail each operation in turn.
 * E2FOLD_FAULT_FLUSHES=FILE appends W, the block writes made so far, at
 * each flush of that channel: where a power cut changes what it leaves.
 * The tools use it only when E2FOLD_FAULT is set.
 */
#ifndef E2FOLD_FAULTIO_H
#define E2FOLD_FAULTIO_H

#include <ext2fs/ext2fs.h>

extern io_manager e2fold_fault_io_manager;

/* The manager a tool should use: the fault injector if E2FOLD_FAULT is set. */
io_manager e2fold_default_io_manager(void);

#endif /* E2FOLD_FAULTIO_H */
