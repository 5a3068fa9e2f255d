/*
 * commit.c: when e2fold-fuse's changes reach the image (doc/fuse.md,
 * "Journal").
 *
 * On an image whose journal e2fold writes (txnio.h), the changes of
 * every request join one open transaction, which commits through the
 * journal, atomically, as jbd2 commits ext4's: on fsync of a file or a
 * directory, every commit= seconds after its first change (ext4's
 * default 5), at unmount, and before a request when it could not take
 * one more (the journal's room, or blocks held back after a large
 * delete). Requests run one at a time (under workers.c's lock) and a
 * commit happens only between two, so that it never holds half a
 * request. File contents go in place before the commit that makes them
 * reachable (file.c, ordered mode).
 *
 * Without such a journal every change is written through libext2fs as
 * it is made, what it keeps in memory at each close, and a crash leaves
 * what e2fsck repairs (doc/crash-safety.md).
 *
 * The session loops that call these between requests are loop.c's and
 * workers.c's.
 */
#include "config.h"

#include <errno.h>

#include <et/com_err.h>

#include "e2fuse.h"
#include "txnio.h"

/*
 * Room kept for the next request: the blocks of one largest write
 * (libfuse's default max_write, 128 KiB; they leave the transaction when
 * the request ends), and its metadata.
 */
#define REQUEST_BYTES (128 * 1024)
#define REQUEST_METADATA_BLOCKS 64

static unsigned int interval(const struct e2fuse *srv)
{
	return srv->opt.commit_secs ? srv->opt.commit_secs :
				      E2FUSE_DEFAULT_COMMIT;
}

/* Are writes being collected into a transaction now? */
static int collecting(const struct e2fuse *srv)
{
	return srv->journaled && srv->fs && e2fuse_may_write(srv) &&
	       e2fold_txn_active(srv->fs);
}

errcode_t e2fuse_commit(struct e2fuse *srv)
{
	errcode_t retval;

	if (srv->opt.readonly || !srv->fs)
		return 0;
	if (!srv->journaled)
		return ext2fs_flush2(srv->fs, 0);
	if (srv->failed)
		return EIO;
	retval = e2fold_txn_commit(srv->fs);
	if (retval == EXT2_ET_JOURNAL_TOO_SMALL) {
		com_err("e2fold-fuse", retval, "%s: one change is larger than "
			"the journal: written in place, without the journal",
			srv->opt.image);
		retval = e2fold_txn_write_through(srv->fs);
	}
	srv->txn_start = 0;
	return retval;
}

/* A commit the server decides on itself: a failure is logged. */
static void commit_now(struct e2fuse *srv, const char *why)
{
	errcode_t retval = e2fuse_commit(srv);

	if (retval)
		com_err("e2fold-fuse", retval, "%s: while committing (%s)",
			srv->opt.image, why);
}

/*
 * Before a request: commit if it might not fit in what is left of the
 * journal, or if blocks held back since the last commit are half of
 * what looks free (a request could then find no space that the commit
 * would give).
 */
void e2fuse_before_request(struct e2fuse *srv)
{
	size_t reserve = 2 * (REQUEST_BYTES / srv->fs->blocksize) +
			 REQUEST_METADATA_BLOCKS;

	if (!collecting(srv) || !e2fold_txn_dirty(srv->fs))
		return;
	if (e2fold_txn_room(srv->fs) < reserve)
		commit_now(srv, "the journal is nearly full");
	else if (2 * e2fold_txn_held(srv->fs) >
		 ext2fs_free_blocks_count(srv->fs->super))
		commit_now(srv, "freed blocks are held back");
}

/* After a request: the commit timer starts with the first change. */
void e2fuse_after_request(struct e2fuse *srv)
{
	if (collecting(srv) && !srv->txn_start &&
	    e2fold_txn_dirty(srv->fs)) {
		srv->txn_start = e2fuse_monotonic();
		srv->timer_started = 1;
	}
}

/* Milliseconds until the timer's commit is due; -1: none is. */
int e2fuse_commit_due_ms(struct e2fuse *srv)
{
	double left;

	if (!collecting(srv) || !srv->txn_start)
		return -1;
	left = srv->txn_start + interval(srv) - e2fuse_monotonic();
	if (left <= 0) {
		commit_now(srv, "commit interval");
		return -1;
	}
	return (int)(left * 1000) + 1;
}
