/*
 * journal.h: writing transactions into a filesystem's own jbd2 journal,
 * in the format Linux and e2fsck replay (doc/journal.md has the format
 * facts and the test that checks each).
 *
 * A transaction is a set of whole filesystem blocks with their new
 * contents, and blocks revoked. e2fold_journal_commit makes it atomic:
 * it logs the blocks, writes the commit record, writes them in place
 * (the checkpoint) and marks the journal empty again, flushing between
 * the steps as jbd2 does, so that a crash at any write leaves either all
 * of the old contents or, once the journal is replayed, all of the new.
 * Only internal journals (inode 8) are written; the journal must be
 * empty, and the filesystem's needs_recovery flag is set for as long as
 * the journal is open (as Linux keeps it set while mounted).
 *
 * Every write goes through the io_channel given, in filesystem blocks.
 */
#ifndef E2FOLD_JOURNAL_H
#define E2FOLD_JOURNAL_H

#include <ext2fs/ext2fs.h>

/* Journal blocks [logical, logical + len) are filesystem blocks from physical on. */
struct e2fold_journal_run {
	__u32 logical, len;
	blk64_t physical;
};

/* What the journal superblock says, and where the journal's blocks lie. */
struct e2fold_journal {
	io_channel io;		/* the filesystem's, below any transaction layer */
	unsigned int blocksize;
	__u32 first, last;	/* the log: journal blocks [first, last) */
	__u32 sequence;		/* the next transaction's ID */
	__u32 incompat;		/* JBD2 incompat features */
	__u32 csum_seed;	/* crc32c of the journal UUID (checksum v3) */
	unsigned char uuid[16];
	struct e2fold_journal_run *runs;	/* where the journal's blocks lie */
	size_t nruns, runs_cap;
	unsigned char *super;	/* journal block 0, as last written */
	blk64_t fs_super_block;	/* the block holding the primary superblock */
	unsigned int fs_super_offset;	/* and its offset in that block */
};

/* One block of a transaction. */
struct e2fold_jblock {
	blk64_t block;
	const unsigned char *data;	/* blocksize bytes */
};

/*
 * Where e2fold_journal_commit stops, for the tests that simulate a crash:
 * E2FOLD_JOURNAL_STOP_BEFORE_COMMIT returns after the log blocks and the
 * journal superblock are flushed, without the commit record;
 * E2FOLD_JOURNAL_STOP_AFTER_COMMIT after the commit record is flushed,
 * before anything is written in place. Both leave the journal in the
 * state a crash there would leave: the caller must not write again.
 */
enum e2fold_journal_stop {
	E2FOLD_JOURNAL_COMPLETE,
	E2FOLD_JOURNAL_STOP_BEFORE_COMMIT,
	E2FOLD_JOURNAL_STOP_AFTER_COMMIT,
};

/*
 * Open the journal of fs for writing through io (fs->io, or the channel
 * below a transaction layer), and set the filesystem's needs_recovery
 * flag on disk (flushed). Refuses, writing nothing: a filesystem without
 * a journal (EXT2_ET_NO_JOURNAL), an external journal
 * (EXT2_ET_EXTERNAL_JOURNAL_NOSUPP), a journal that needs recovery or a
 * filesystem marked so (EXT2_ET_JOURNAL_FLAGS_WRONG: run e2fsck first),
 * a journal superblock that is not v2, has a bad magic or checksum
 * (EXT2_ET_CORRUPT_JOURNAL_SB, EXT2_ET_JOURNAL_UNSUPP_VERSION), a block
 * size other than the filesystem's, or features e2fold does not write
 * (EXT2_ET_UNSUPP_FEATURE: checksum v1 and v2, fast commits, shared
 * journals, unknown ones).
 */
errcode_t e2fold_journal_open(ext2_filsys fs, io_channel io,
			      struct e2fold_journal **ret_journal);

/*
 * Clear the needs_recovery flag again (flushed) and free the journal.
 * Every commit must be complete: the superblock on disk is the one the
 * last checkpoint wrote. Frees j also on error.
 */
errcode_t e2fold_journal_close(struct e2fold_journal *j);

/* Free j without writing (after a simulated crash). */
void e2fold_journal_free(struct e2fold_journal *j);

/*
 * The number of journal blocks a transaction of nblocks blocks and
 * nrevoked revoked blocks takes (descriptors, copies, revoke blocks and
 * the commit record), and how many the log holds.
 */
__u32 e2fold_journal_needed(const struct e2fold_journal *j, size_t nblocks,
			    size_t nrevoked);
__u32 e2fold_journal_capacity(const struct e2fold_journal *j);

/*
 * Commit blocks[0..nblocks) (distinct block numbers) and revoked[0..
 * nrevoked) (none of them among blocks) as one transaction, atomically.
 * Data blocks the transaction's metadata points to (ordered mode) must
 * have been written to j->io before: the flush before the commit record
 * covers them. A transaction larger than the log is refused with
 * EXT2_ET_JOURNAL_TOO_SMALL before anything is written: splitting it
 * would make its parts visible one without the other. A block holding
 * the primary superblock is logged and written with needs_recovery set,
 * so that a crash during a replay or the checkpoint leaves a filesystem
 * that still asks for recovery. On an error of a write the journal is
 * left as it is, for recovery to settle; the caller must stop writing.
 */
errcode_t e2fold_journal_commit(struct e2fold_journal *j,
				const struct e2fold_jblock *blocks,
				size_t nblocks, const blk64_t *revoked,
				size_t nrevoked, enum e2fold_journal_stop stop);

#endif /* E2FOLD_JOURNAL_H */
