/*
 * txnio.h: journaled writes for every tool. An I/O manager that sits
 * between libext2fs and the device and, once e2fold_txn_begin has opened
 * the filesystem's journal (journal.h), keeps every block written in
 * memory instead of on the device: later reads see the new contents,
 * and e2fold_txn_commit makes them all reach the device at once, through
 * the journal. A crash before the commit's record leaves the old
 * filesystem; after it, the new one once the journal is replayed (by
 * e2fsck, or by Linux at mount).
 *
 *   ext2fs_open2(name, NULL, flags, 0, 0,
 *                e2fold_txn_io_manager(e2fold_default_io_manager()), &fs);
 *   e2fold_txn_begin(fs);          (sets needs_recovery, as a mount does)
 *   ... change metadata through libext2fs ...
 *   e2fold_txn_commit(fs);         (one atomic change; repeat as needed)
 *   e2fold_txn_close(fs);          (flush, commit, needs_recovery off, close)
 *
 * Writes are metadata unless e2fold_txn_data says otherwise: data blocks
 * (file contents) go to the device at once and are flushed before the
 * next commit record, so that metadata never points to data that is not
 * on disk (ext4's data=ordered). A data block must be free on disk: not
 * one the open transaction freed (doc/journal.md, "Ordered data"); so
 * that no allocator hands such a block out, a block freed while a
 * transaction is open stays marked in use in memory until it commits
 * (the filesystem must then be closed with e2fold_txn_close, which
 * releases them before the closing flush).
 * Without e2fold_txn_begin, or on a filesystem without a journal, every
 * write goes straight through.
 *
 * Sizes: a transaction must fit in the log (e2fold_txn_room); a commit
 * that does not is refused and the blocks stay pending, so a caller
 * commits at a point where the filesystem is consistent (after each
 * command, each request, each directory) before one grows too large.
 * A long-lived user (e2fold-fuse) keeps one transaction open and commits
 * on fsync, on a timer and at unmount; each commit also writes its
 * blocks in place and empties the journal, so the log never holds two
 * transactions and a freed block needs no revoke record to be reused
 * (doc/journal.md, "Revoke records").
 */
#ifndef E2FOLD_TXNIO_H
#define E2FOLD_TXNIO_H

#include <ext2fs/ext2fs.h>

#include "journal.h"

/*
 * The transaction manager over inner (unix_io_manager or the fault
 * injector); as e2fold_sync_io_manager, the last inner given is the one
 * every channel opened through it afterwards uses.
 */
io_manager e2fold_txn_io_manager(io_manager inner);

/*
 * Start journaling the writes to fs, which was opened read-write through
 * e2fold_txn_io_manager: the errors of e2fold_journal_open (no journal,
 * an external one, one that needs recovery...), and EXT2_ET_INVALID_ARGUMENT
 * if fs was opened through another manager. On error writes still go
 * straight through.
 */
errcode_t e2fold_txn_begin(ext2_filsys fs);

/* Are the writes to fs journaled? */
int e2fold_txn_active(ext2_filsys fs);

/*
 * Call watch(arg, block, count) for every write of count blocks at block
 * asked of fs's layer from now on, journaled or not, before it is made
 * (NULL: none). libext2fs writes every change to a block it reads back
 * (inodes, directory and extent blocks) through the layer as it makes
 * it, so a reader that keeps what it parsed from some blocks learns
 * here when they change. -1 if fs was not opened through the layer.
 */
int e2fold_txn_watch(ext2_filsys fs,
		     void (*watch)(void *arg, blk64_t block, int count),
		     void *arg);

/*
 * Commit what was written since the last commit, and what libext2fs
 * holds in memory (it flushes the superblock, group descriptors and
 * bitmaps first), as one transaction (e2fold_journal_commit). 0 with
 * nothing pending or no transaction.
 * EXT2_ET_JOURNAL_TOO_SMALL leaves the blocks pending; after any other
 * error later writes fail with EIO and the journal is left as it is,
 * for e2fsck or Linux to recover.
 */
errcode_t e2fold_txn_commit(ext2_filsys fs);

/*
 * For the crash tests: commit, but stop where journal.h's stop says, as
 * a crash there would; every later write is dropped and closing writes
 * nothing more.
 */
errcode_t e2fold_txn_commit_stop(ext2_filsys fs,
				 enum e2fold_journal_stop stop);

/*
 * Is anything waiting for the next commit: blocks written, or changes
 * libext2fs holds in memory (superblock, descriptors, bitmaps), which
 * the commit flushes first?
 */
int e2fold_txn_dirty(ext2_filsys fs);

/* Blocks pending, and how many more one transaction can take. */
size_t e2fold_txn_pending(ext2_filsys fs);
size_t e2fold_txn_room(ext2_filsys fs);

/*
 * For a change too large for one transaction that keeps itself crash
 * safe by the order of its writes (a directory rewrite, doc/crash-safety.md):
 * suspend commits what is pending (its errors), then lets every write go
 * straight through, flushes included, with the journal open and empty;
 * resume collects again. Nothing if writes are not journaled.
 */
errcode_t e2fold_txn_suspend(ext2_filsys fs);
void e2fold_txn_resume(ext2_filsys fs);

/*
 * on: the writes that follow are file data (written through at once);
 * off: metadata again. A data write that covers a block pending as
 * metadata takes it out of the transaction, with a revoke record.
 */
void e2fold_txn_data(ext2_filsys fs, int on);

/*
 * Blocks [block, block + count) hold file contents that libext2fs wrote
 * as if they were metadata (ext2fs_file_write cannot say otherwise):
 * those pending go to the device now and leave the transaction, as
 * e2fold_txn_data writes do. A caller passes only blocks the file owns,
 * allocated since the last commit (free on disk) or already its own on
 * disk.
 */
errcode_t e2fold_txn_write_data(ext2_filsys fs, blk64_t block,
				blk64_t count);

/* How many blocks freed since the last commit are held back. */
blk64_t e2fold_txn_held(ext2_filsys fs);

/*
 * The last resort for a change larger than the journal (the commit said
 * EXT2_ET_JOURNAL_TOO_SMALL): every pending block is written in place,
 * without the journal and so without atomicity, then the device is
 * flushed and collecting goes on. Its errors (then later writes fail).
 */
errcode_t e2fold_txn_write_through(ext2_filsys fs);

/*
 * Abandon the open transaction, as jbd2 aborts its journal after an
 * error: nothing pending is ever committed (reads still see it), the
 * primary superblock alone is still written to the device, so that an
 * error recorded in it survives (flush with EXT2_FLAG_SUPER_ONLY and
 * EXT2_FLAG_MASTER_SB_ONLY), every other write is dropped, and commits
 * answer EIO. The journal is left empty, as the last commit left it.
 */
void e2fold_txn_abort(ext2_filsys fs);

/*
 * Close fs (ext2fs_close_free): its superblock, descriptors and bitmaps
 * go into a last transaction, which is committed, then the journal is
 * closed (needs_recovery cleared). Returns the first error; with
 * EXT2_ET_JOURNAL_TOO_SMALL the pending blocks are dropped, the
 * filesystem is left as the last commit left it, and needs_recovery is
 * cleared too.
 */
errcode_t e2fold_txn_close(ext2_filsys *fs);

#endif /* E2FOLD_TXNIO_H */
