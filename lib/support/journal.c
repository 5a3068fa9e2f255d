/*
 * journal.c: transactions in the filesystem's jbd2 journal (journal.h).
 * The on-disk facts, in our words, with the tests that check them, are
 * in doc/journal.md; the section names below are its.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array.h"
#include "journal.h"
#include "le.h"

/* Every jbd2 field is big-endian ("Byte order"). */
static __u32 be32_at(const unsigned char *p)
{
	return (__u32)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static void put_be32(unsigned char *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put_be16(unsigned char *p, __u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put_be64(unsigned char *p, __u64 v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, v);
}

/* "Block header": magic, block type, transaction ID. */
#define JBD2_MAGIC		0xC03B3998U
#define JBD2_DESCRIPTOR		1
#define JBD2_COMMIT		2
#define JBD2_SUPER_V2		4
#define JBD2_REVOKE		5
#define JBD2_HEADER_SIZE	12

/* "Journal superblock": offsets of the fields e2fold reads or writes. */
#define JSB_BLOCKSIZE		0x0C
#define JSB_MAXLEN		0x10
#define JSB_FIRST		0x14
#define JSB_SEQUENCE		0x18
#define JSB_START		0x1C
#define JSB_COMPAT		0x24
#define JSB_INCOMPAT		0x28
#define JSB_RO_COMPAT		0x2C
#define JSB_UUID		0x30
#define JSB_NR_USERS		0x40
#define JSB_CHECKSUM_TYPE	0x50
#define JSB_CHECKSUM		0xFC
#define JSB_SIZE		1024

#define JBD2_COMPAT_CHECKSUM	0x1	/* checksum v1 */
#define JBD2_INCOMPAT_REVOKE	0x1
#define JBD2_INCOMPAT_64BIT	0x2
#define JBD2_INCOMPAT_ASYNC	0x4
#define JBD2_INCOMPAT_CSUM_V2	0x8
#define JBD2_INCOMPAT_CSUM_V3	0x10
#define JBD2_INCOMPAT_FAST	0x20
/* What e2fold writes: no checksums or v3, 32- or 64-bit tags. */
#define WRITTEN_INCOMPAT	(JBD2_INCOMPAT_REVOKE | JBD2_INCOMPAT_64BIT | \
				 JBD2_INCOMPAT_ASYNC | JBD2_INCOMPAT_CSUM_V3)
#define JBD2_CRC32C		4

/* "Descriptor block" tags. */
#define TAG_ESCAPE		0x1
#define TAG_SAME_UUID		0x2
#define TAG_LAST		0x8
#define TAIL_SIZE		4	/* a checksum at the end of the block */

/* "Commit block": the v2/v3 checksum and the time. */
#define COMMIT_CHECKSUM		0x10
#define COMMIT_SEC		0x30
#define COMMIT_NSEC		0x38

/* "Revoke block": bytes used, then the block numbers. */
#define REVOKE_COUNT		0x0C
#define REVOKE_RECORDS		0x10

/* The ext4 superblock fields the needs_recovery flag touches. */
#define SB_OFFSET		1024
#define SB_SIZE			1024
#define SB_INCOMPAT		0x60
#define SB_RO_COMPAT		0x64
#define SB_CHECKSUM		0x3FC

static int has_csum(const struct e2fold_journal *j)
{
	return j->incompat & JBD2_INCOMPAT_CSUM_V3;
}

static __u32 csum(const struct e2fold_journal *j, __u32 seed,
		  const unsigned char *p, size_t len)
{
	(void)j;
	return ext2fs_crc32c_le(seed, p, len);
}

/* "Descriptor block": the size of one tag (the UUID after the first not counted). */
static unsigned int tag_bytes(const struct e2fold_journal *j)
{
	if (has_csum(j))
		return 16;
	return j->incompat & JBD2_INCOMPAT_64BIT ? 12 : 8;
}

static unsigned int tail_bytes(const struct e2fold_journal *j)
{
	return has_csum(j) ? TAIL_SIZE : 0;
}

static size_t tags_per_descriptor(const struct e2fold_journal *j)
{
	return (j->blocksize - JBD2_HEADER_SIZE - 16 - tail_bytes(j)) /
	       tag_bytes(j);
}

static unsigned int revoke_record_bytes(const struct e2fold_journal *j)
{
	return j->incompat & JBD2_INCOMPAT_64BIT ? 8 : 4;
}

static size_t revokes_per_block(const struct e2fold_journal *j)
{
	return (j->blocksize - REVOKE_RECORDS - tail_bytes(j)) /
	       revoke_record_bytes(j);
}

static size_t div_up(size_t a, size_t b)
{
	return (a + b - 1) / b;
}

__u32 e2fold_journal_needed(const struct e2fold_journal *j, size_t nblocks,
			    size_t nrevoked)
{
	return div_up(nblocks, tags_per_descriptor(j)) + nblocks +
	       div_up(nrevoked, revokes_per_block(j)) + 1;
}

__u32 e2fold_journal_capacity(const struct e2fold_journal *j)
{
	return j->last - j->first;
}

/* The filesystem block of journal block n, or 0 if the inode maps none. */
static blk64_t journal_block(const struct e2fold_journal *j, __u32 n)
{
	size_t lo = 0, hi = j->nruns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct e2fold_journal_run *r = &j->runs[mid];

		if (n < r->logical)
			hi = mid;
		else if (n - r->logical >= r->len)
			lo = mid + 1;
		else
			return r->physical + (n - r->logical);
	}
	return 0;
}

static errcode_t write_journal_block(struct e2fold_journal *j, __u32 n,
				     const unsigned char *buf)
{
	blk64_t block = journal_block(j, n);

	if (!block)
		return EXT2_ET_CORRUPT_JOURNAL_SB;
	return io_channel_write_blk64(j->io, block, 1, buf);
}

/* Fill in the header every jbd2 block starts with. */
static void put_header(unsigned char *buf, __u32 type, __u32 tid)
{
	put_be32(buf, JBD2_MAGIC);
	put_be32(buf + 4, type);
	put_be32(buf + 8, tid);
}

/* The checksum at the end of a descriptor or revoke block (v3). */
static void put_tail(const struct e2fold_journal *j, unsigned char *buf)
{
	unsigned char *tail = buf + j->blocksize - TAIL_SIZE;

	if (!has_csum(j))
		return;
	memset(tail, 0, TAIL_SIZE);
	put_be32(tail, csum(j, j->csum_seed, buf, j->blocksize));
}

/* "Journal superblock" checksum (v3): crc32c of its 1024 bytes, field zeroed. */
static void put_super_csum(struct e2fold_journal *j)
{
	if (!has_csum(j))
		return;
	memset(j->super + JSB_CHECKSUM, 0, 4);
	put_be32(j->super + JSB_CHECKSUM,
		 csum(j, ~0U, j->super, JSB_SIZE));
}

static int super_csum_ok(const struct e2fold_journal *j)
{
	unsigned char copy[JSB_SIZE];

	if (!has_csum(j))
		return 1;
	memcpy(copy, j->super, JSB_SIZE);
	memset(copy + JSB_CHECKSUM, 0, 4);
	return csum(j, ~0U, copy, JSB_SIZE) == be32_at(j->super + JSB_CHECKSUM);
}

/* Point the journal superblock at a log starting at start (0: empty). */
static errcode_t write_super(struct e2fold_journal *j, __u32 start,
			     __u32 sequence)
{
	put_be32(j->super + JSB_START, start);
	put_be32(j->super + JSB_SEQUENCE, sequence);
	put_super_csum(j);
	return write_journal_block(j, 0, j->super);
}

/*
 * The ext4 superblock inside its block, with needs_recovery set or
 * cleared and, with metadata_csum, its checksum redone (crc32c of the
 * bytes before the checksum field).
 */
static void set_needs_recovery(const struct e2fold_journal *j,
			       unsigned char *block, int on)
{
	unsigned char *sb = block + j->fs_super_offset;
	__u32 incompat = e2fold_le32_at(sb + SB_INCOMPAT);

	if (on)
		incompat |= EXT3_FEATURE_INCOMPAT_RECOVER;
	else
		incompat &= ~EXT3_FEATURE_INCOMPAT_RECOVER;
	e2fold_put_le32(sb + SB_INCOMPAT, incompat);
	if (e2fold_le32_at(sb + SB_RO_COMPAT) &
	    EXT4_FEATURE_RO_COMPAT_METADATA_CSUM)
		e2fold_put_le32(sb + SB_CHECKSUM,
				ext2fs_crc32c_le(~0U, sb, SB_CHECKSUM));
}

/* Rewrite the primary superblock's block with needs_recovery on or off. */
static errcode_t write_needs_recovery(struct e2fold_journal *j, int on)
{
	unsigned char *buf;
	errcode_t retval;

	retval = ext2fs_get_mem(j->blocksize, &buf);
	if (retval)
		return retval;
	retval = io_channel_read_blk64(j->io, j->fs_super_block, 1, buf);
	if (!retval) {
		set_needs_recovery(j, buf, on);
		retval = io_channel_write_blk64(j->io, j->fs_super_block, 1,
						buf);
	}
	if (!retval)
		retval = io_channel_flush(j->io);
	ext2fs_free_mem(&buf);
	return retval;
}

struct map_walk {
	struct e2fold_journal *j;
	__u32 limit;		/* journal blocks beyond are not needed */
	errcode_t error;
};

/* One more mapped block: it extends the last run or starts one. */
static int map_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		     blk64_t ref_blk, int ref_offset, void *priv)
{
	struct map_walk *w = priv;
	struct e2fold_journal *j = w->j;
	struct e2fold_journal_run *last = j->nruns ? &j->runs[j->nruns - 1] : NULL;

	(void)fs;
	(void)ref_blk;
	(void)ref_offset;
	if (blockcnt < 0 || (__u64)blockcnt >= w->limit)
		return 0;
	if (last && last->logical + last->len == blockcnt &&
	    last->physical + last->len == *blocknr) {
		last->len++;
		return 0;
	}
	if (last && last->logical + last->len > blockcnt) {
		w->error = EXT2_ET_CORRUPT_JOURNAL_SB;	/* out of order */
		return BLOCK_ABORT;
	}
	w->error = e2fold_array_reserve(&j->runs, &j->runs_cap, j->nruns + 1,
					sizeof(*j->runs));
	if (w->error)
		return BLOCK_ABORT;
	j->runs[j->nruns].logical = blockcnt;
	j->runs[j->nruns].physical = *blocknr;
	j->runs[j->nruns++].len = 1;
	return 0;
}

/* Where the journal inode's first limit blocks lie, as runs. */
static errcode_t map_journal(ext2_filsys fs, struct e2fold_journal *j,
			     __u32 limit)
{
	struct map_walk w = { j, limit, 0 };
	errcode_t retval;

	j->nruns = 0;
	retval = ext2fs_block_iterate3(fs, fs->super->s_journal_inum,
				       BLOCK_FLAG_READ_ONLY |
				       BLOCK_FLAG_DATA_ONLY, NULL,
				       map_block, &w);
	return retval ? retval : w.error;
}

/* Which journals e2fold writes (journal.h, e2fold_journal_open). */
static errcode_t check_fs(ext2_filsys fs)
{
	if (ext2fs_has_feature_journal_needs_recovery(fs->super))
		return EXT2_ET_JOURNAL_FLAGS_WRONG;
	if (!ext2fs_has_feature_journal(fs->super))
		return EXT2_ET_NO_JOURNAL;
	if (!fs->super->s_journal_inum ||
	    ext2fs_has_feature_journal_dev(fs->super))
		return EXT2_ET_EXTERNAL_JOURNAL_NOSUPP;
	return 0;
}

static errcode_t check_super(ext2_filsys fs, const struct ext2_inode *inode,
			     struct e2fold_journal *j)
{
	const unsigned char *s = j->super;
	__u32 maxlen = be32_at(s + JSB_MAXLEN);

	if (be32_at(s) != JBD2_MAGIC)
		return EXT2_ET_CORRUPT_JOURNAL_SB;
	if (be32_at(s + 4) != JBD2_SUPER_V2)
		return EXT2_ET_JOURNAL_UNSUPP_VERSION;
	j->incompat = be32_at(s + JSB_INCOMPAT);
	if ((be32_at(s + JSB_COMPAT) & JBD2_COMPAT_CHECKSUM) ||
	    (j->incompat & ~WRITTEN_INCOMPAT) || be32_at(s + JSB_RO_COMPAT) ||
	    be32_at(s + JSB_NR_USERS) > 1)
		return EXT2_ET_UNSUPP_FEATURE;
	if (has_csum(j) && s[JSB_CHECKSUM_TYPE] != JBD2_CRC32C)
		return EXT2_ET_UNSUPP_FEATURE;
	if (!super_csum_ok(j))
		return EXT2_ET_CORRUPT_JOURNAL_SB;
	if (be32_at(s + JSB_BLOCKSIZE) != fs->blocksize ||
	    maxlen > EXT2_I_SIZE(inode) / fs->blocksize)
		return EXT2_ET_CORRUPT_JOURNAL_SB;
	j->first = be32_at(s + JSB_FIRST);
	j->last = maxlen;
	if (j->first < 1 || j->first + 2 >= j->last)
		return EXT2_ET_CORRUPT_JOURNAL_SB;
	if (!(j->incompat & JBD2_INCOMPAT_64BIT) &&
	    ext2fs_blocks_count(fs->super) > 0xFFFFFFFFULL)
		return EXT2_ET_UNSUPP_FEATURE;	/* tags would cut block numbers */
	if (be32_at(s + JSB_START))
		return EXT2_ET_JOURNAL_FLAGS_WRONG;
	/*
	 * A clean journal's s_sequence may already be on stale blocks of
	 * the log; Linux's recovery starts the next transaction one later
	 * (fs/jbd2/recovery.c, jbd2_journal_recover), and so does e2fold.
	 */
	j->sequence = be32_at(s + JSB_SEQUENCE) + 1;
	memcpy(j->uuid, s + JSB_UUID, sizeof(j->uuid));
	j->csum_seed = csum(j, ~0U, j->uuid, sizeof(j->uuid));
	return 0;
}

/* How many journal blocks the runs map (they never overlap). */
static __u64 mapped_blocks(const struct e2fold_journal *j)
{
	__u64 n = 0;

	for (size_t i = 0; i < j->nruns; i++)
		n += j->runs[i].len;
	return n;
}

/*
 * The journal superblock (journal block 0), then the map of the log it
 * describes; every block of the journal must be mapped.
 */
static errcode_t load_journal(ext2_filsys fs, struct e2fold_journal *j)
{
	struct ext2_inode inode;
	errcode_t retval;

	retval = ext2fs_read_inode(fs, fs->super->s_journal_inum, &inode);
	if (!retval)
		retval = map_journal(fs, j, 1);
	if (retval)
		return retval;
	if (!journal_block(j, 0))
		return EXT2_ET_NO_JOURNAL_SB;
	retval = ext2fs_get_mem(fs->blocksize, &j->super);
	if (!retval)
		retval = io_channel_read_blk64(j->io, journal_block(j, 0), 1,
					       j->super);
	if (!retval)
		retval = check_super(fs, &inode, j);
	if (!retval)
		retval = map_journal(fs, j, j->last);
	if (retval)
		return retval;
	return mapped_blocks(j) == j->last ? 0 : EXT2_ET_CORRUPT_JOURNAL_SB;
}

errcode_t e2fold_journal_open(ext2_filsys fs, io_channel io,
			      struct e2fold_journal **ret_journal)
{
	struct e2fold_journal *j;
	errcode_t retval;

	retval = check_fs(fs);
	if (retval)
		return retval;
	retval = ext2fs_get_memzero(sizeof(*j), &j);
	if (retval)
		return retval;
	j->io = io;
	j->blocksize = fs->blocksize;
	j->fs_super_block = SB_OFFSET / fs->blocksize;
	j->fs_super_offset = SB_OFFSET % fs->blocksize;
	retval = load_journal(fs, j);
	if (!retval)
		retval = write_needs_recovery(j, 1);
	if (retval) {
		e2fold_journal_free(j);
		return retval;
	}
	*ret_journal = j;
	return 0;
}

void e2fold_journal_free(struct e2fold_journal *j)
{
	if (!j)
		return;
	ext2fs_free_mem(&j->runs);
	ext2fs_free_mem(&j->super);
	ext2fs_free_mem(&j);
}

errcode_t e2fold_journal_close(struct e2fold_journal *j)
{
	errcode_t retval = write_needs_recovery(j, 0);

	e2fold_journal_free(j);
	return retval;
}

/* Where the log is written: the next journal block and the transaction. */
struct log_cursor {
	struct e2fold_journal *j;
	__u32 pos;
	__u32 tid;
	unsigned char *buf;	/* one block */
};

static errcode_t log_block(struct log_cursor *c, const unsigned char *buf)
{
	return write_journal_block(c->j, c->pos++, buf);
}

/* "Revoke block": as many as the revoked blocks need. */
static errcode_t log_revokes(struct log_cursor *c, const blk64_t *revoked,
			     size_t nrevoked)
{
	struct e2fold_journal *j = c->j;
	unsigned int len = revoke_record_bytes(j);
	size_t per = revokes_per_block(j), i, n;
	errcode_t retval;

	for (i = 0; i < nrevoked; i += n) {
		unsigned char *p = c->buf + REVOKE_RECORDS;

		n = nrevoked - i < per ? nrevoked - i : per;
		memset(c->buf, 0, j->blocksize);
		put_header(c->buf, JBD2_REVOKE, c->tid);
		put_be32(c->buf + REVOKE_COUNT, REVOKE_RECORDS + n * len);
		for (size_t k = 0; k < n; k++, p += len) {
			if (len == 8)
				put_be64(p, revoked[i + k]);
			else
				put_be32(p, revoked[i + k]);
		}
		put_tail(j, c->buf);
		retval = log_block(c, c->buf);
		if (retval)
			return retval;
	}
	return 0;
}

/*
 * "Data block": the copy that goes into the log. A block that starts
 * with the jbd2 magic would pass for a journal block: its first four
 * bytes are logged as zeros and its tag says so (escaped).
 */
static int log_copy(const struct e2fold_journal *j, const unsigned char *data,
		    unsigned char *out)
{
	memcpy(out, data, j->blocksize);
	if (be32_at(out) != JBD2_MAGIC)
		return 0;
	memset(out, 0, 4);
	return 1;
}

/* One tag of a descriptor, at p; returns the bytes it took. */
static unsigned int put_tag(const struct log_cursor *c, unsigned char *p,
			    blk64_t block, const unsigned char *logged,
			    __u32 flags, int first)
{
	const struct e2fold_journal *j = c->j;
	unsigned int len = tag_bytes(j);

	memset(p, 0, len);
	put_be32(p, block);
	if (has_csum(j)) {
		unsigned char seq[4];
		__u32 sum;

		put_be32(seq, c->tid);
		sum = csum(j, j->csum_seed, seq, sizeof(seq));
		sum = csum(j, sum, logged, j->blocksize);
		put_be32(p + 4, flags);
		put_be32(p + 8, block >> 32);
		put_be32(p + 12, sum);
	} else {
		put_be16(p + 6, flags);
		if (j->incompat & JBD2_INCOMPAT_64BIT)
			put_be32(p + 8, block >> 32);
	}
	if (!first)
		return len;
	memcpy(p + len, j->uuid, sizeof(j->uuid));
	return len + sizeof(j->uuid);
}

/*
 * The copy of block b as logged and written in place: the primary
 * superblock's block with needs_recovery set (journal.h).
 */
static const unsigned char *final_contents(const struct e2fold_journal *j,
					   const struct e2fold_jblock *b,
					   unsigned char *scratch)
{
	if (b->block != j->fs_super_block)
		return b->data;
	memcpy(scratch, b->data, j->blocksize);
	set_needs_recovery(j, scratch, 1);
	return scratch;
}

/*
 * One descriptor and the copies of blocks[0..n) after it. The
 * descriptor is written last, once the copies' checksums are in it,
 * but it lands before them in the log.
 */
static errcode_t log_descriptor(struct log_cursor *c,
				const struct e2fold_jblock *blocks, size_t n,
				unsigned char *copy, unsigned char *scratch)
{
	struct e2fold_journal *j = c->j;
	unsigned char *desc = c->buf, *p = desc + JBD2_HEADER_SIZE;
	__u32 at = c->pos++;
	errcode_t retval;

	memset(desc, 0, j->blocksize);
	put_header(desc, JBD2_DESCRIPTOR, c->tid);
	for (size_t i = 0; i < n; i++) {
		const unsigned char *data = final_contents(j, &blocks[i],
							   scratch);
		__u32 flags = log_copy(j, data, copy) ? TAG_ESCAPE : 0;

		if (i)
			flags |= TAG_SAME_UUID;
		if (i == n - 1)
			flags |= TAG_LAST;
		p += put_tag(c, p, blocks[i].block, copy, flags, i == 0);
		retval = log_block(c, copy);
		if (retval)
			return retval;
	}
	put_tail(j, desc);
	return write_journal_block(j, at, desc);
}

/* "Commit block": the transaction's end, its time and checksum. */
static errcode_t log_commit(struct log_cursor *c)
{
	struct e2fold_journal *j = c->j;
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	memset(c->buf, 0, j->blocksize);
	put_header(c->buf, JBD2_COMMIT, c->tid);
	put_be64(c->buf + COMMIT_SEC, now.tv_sec);
	put_be32(c->buf + COMMIT_NSEC, now.tv_nsec);
	if (has_csum(j))
		put_be32(c->buf + COMMIT_CHECKSUM,
			 csum(j, j->csum_seed, c->buf, j->blocksize));
	return log_block(c, c->buf);
}

static errcode_t log_transaction(struct log_cursor *c,
				 const struct e2fold_jblock *blocks,
				 size_t nblocks, const blk64_t *revoked,
				 size_t nrevoked)
{
	size_t per = tags_per_descriptor(c->j), i, n;
	unsigned char *copy, *scratch;
	errcode_t retval;

	retval = log_revokes(c, revoked, nrevoked);
	if (retval)
		return retval;
	retval = ext2fs_get_mem(2 * c->j->blocksize, &copy);
	if (retval)
		return retval;
	scratch = copy + c->j->blocksize;
	for (i = 0; i < nblocks && !retval; i += n) {
		n = nblocks - i < per ? nblocks - i : per;
		retval = log_descriptor(c, blocks + i, n, copy, scratch);
	}
	ext2fs_free_mem(&copy);
	return retval;
}

/* The checkpoint: every block where it belongs. */
static errcode_t write_in_place(struct e2fold_journal *j,
				const struct e2fold_jblock *blocks,
				size_t nblocks, unsigned char *scratch)
{
	errcode_t retval = 0;

	for (size_t i = 0; i < nblocks && !retval; i++)
		retval = io_channel_write_blk64(j->io, blocks[i].block, 1,
						final_contents(j, &blocks[i],
							       scratch));
	return retval;
}

/*
 * The order, jbd2's (fs/jbd2/commit.c), each step flushed before the
 * next: the log (revokes, descriptors, copies) and the journal
 * superblock pointing at it; the commit record; the blocks in place;
 * the journal superblock marked empty. doc/journal.md, "A crash at each
 * write", says what each step leaves.
 */
static errcode_t commit_steps(struct log_cursor *c,
			      const struct e2fold_jblock *blocks,
			      size_t nblocks, const blk64_t *revoked,
			      size_t nrevoked, enum e2fold_journal_stop stop)
{
	struct e2fold_journal *j = c->j;
	errcode_t retval;

	retval = log_transaction(c, blocks, nblocks, revoked, nrevoked);
	if (!retval)
		retval = write_super(j, j->first, c->tid);
	if (!retval)
		retval = io_channel_flush(j->io);
	if (retval || stop == E2FOLD_JOURNAL_STOP_BEFORE_COMMIT)
		return retval;
	retval = log_commit(c);
	if (!retval)
		retval = io_channel_flush(j->io);
	if (retval || stop == E2FOLD_JOURNAL_STOP_AFTER_COMMIT)
		return retval;
	retval = write_in_place(j, blocks, nblocks, c->buf);
	if (!retval)
		retval = io_channel_flush(j->io);
	if (!retval)
		retval = write_super(j, 0, c->tid + 1);
	if (!retval)
		retval = io_channel_flush(j->io);
	return retval;
}

errcode_t e2fold_journal_commit(struct e2fold_journal *j,
				const struct e2fold_jblock *blocks,
				size_t nblocks, const blk64_t *revoked,
				size_t nrevoked, enum e2fold_journal_stop stop)
{
	struct log_cursor c = { j, j->first, j->sequence, NULL };
	errcode_t retval;

	if (!nblocks && !nrevoked)
		return 0;
	if (e2fold_journal_needed(j, nblocks, nrevoked) >
	    e2fold_journal_capacity(j))
		return EXT2_ET_JOURNAL_TOO_SMALL;
	retval = ext2fs_get_mem(j->blocksize, &c.buf);
	if (retval)
		return retval;
	retval = commit_steps(&c, blocks, nblocks, revoked, nrevoked, stop);
	ext2fs_free_mem(&c.buf);
	if (!retval && stop == E2FOLD_JOURNAL_COMPLETE)
		j->sequence = c.tid + 2;
	return retval;
}
