/* txnio.c: collecting a tool's writes into journal transactions (txnio.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "iolayer.h"
#include "txnio.h"

static io_manager txn_inner;

enum txn_state {
	TXN_OFF,	/* writes go straight through */
	TXN_ON,		/* writes are collected */
	TXN_SUSPENDED,	/* the journal is open and empty; writes go through */
	TXN_STOPPED,	/* a simulated crash: writes are dropped */
	TXN_FAILED,	/* a commit failed: writes fail */
	TXN_ABORTED,	/* e2fold_txn_abort: reads see what is pending, the
			 * superblock alone is written through */
};

/* Blocks [start, start + len) freed by the open transaction. */
struct txn_run {
	blk64_t start, len;
};

struct txn_block {
	blk64_t block;
	unsigned char *data;	/* NULL: taken out (a data write covered it) */
	int revoked;		/* taken out, and a revoke record says so */
};

struct txn_data {
	struct e2fold_io_layer layer;	/* first (iolayer.h) */
	io_channel inner;	/* layer.inner, named shorter */
	enum txn_state state;
	int data_mode;
	unsigned int unit;	/* the filesystem's block size */
	struct e2fold_journal *journal;
	struct txn_block *blocks;
	size_t nblocks, cap;
	size_t nlive;		/* of the blocks, those with data */
	size_t *slots;		/* hash of block number: index + 1, 0 empty */
	size_t nslots;		/* a power of 2, at least twice nblocks */
	size_t nrevoked;	/* of the blocks, those revoked */
	ext2_filsys fs;		/* the filesystem being journaled */
	struct txn_run *pins;	/* freed, held in use until the commit */
	size_t npins, pins_cap;
	void (*chained_stats)(ext2_filsys, blk64_t, int);
	/* Told of every write asked of the layer (e2fold_txn_watch). */
	void (*watch)(void *arg, blk64_t block, int count);
	void *watch_arg;
};

static errcode_t last_close_error;

static struct txn_data *data_of(io_channel channel)
{
	return channel->private_data;
}

static size_t hash_slot(const struct txn_data *d, blk64_t block)
{
	return (block * 0x9E3779B97F4A7C15ULL >> 20) & (d->nslots - 1);
}

/* The pending copy of block, or NULL. */
static struct txn_block *find_block(const struct txn_data *d, blk64_t block)
{
	size_t i;

	if (!d->nslots)
		return NULL;
	for (i = hash_slot(d, block); d->slots[i]; i = (i + 1) & (d->nslots - 1))
		if (d->blocks[d->slots[i] - 1].block == block)
			return &d->blocks[d->slots[i] - 1];
	return NULL;
}

static void insert_slot(struct txn_data *d, size_t n)
{
	size_t i = hash_slot(d, d->blocks[n].block);

	while (d->slots[i])
		i = (i + 1) & (d->nslots - 1);
	d->slots[i] = n + 1;
}

static errcode_t rehash(struct txn_data *d, size_t nslots)
{
	size_t *slots;
	errcode_t retval;

	retval = ext2fs_get_arrayzero(nslots, sizeof(*slots), &slots);
	if (retval)
		return retval;
	ext2fs_free_mem(&d->slots);
	d->slots = slots;
	d->nslots = nslots;
	for (size_t n = 0; n < d->nblocks; n++)
		insert_slot(d, n);
	return 0;
}

/*
 * A copy of block as the device has it, into *data; not read when the
 * caller overwrites all of it (whole).
 */
static errcode_t read_unit(struct txn_data *d, blk64_t block, int whole,
			   unsigned char **data)
{
	errcode_t retval = ext2fs_get_mem(d->unit, data);

	if (!retval && !whole)
		retval = io_channel_read_blk64(d->inner, block * d->unit /
					       d->inner->block_size,
					       -(int)d->unit, *data);
	if (retval)
		ext2fs_free_mem(data);
	return retval;
}

/* A new pending block, its contents those of the device (see read_unit). */
static errcode_t add_block(struct txn_data *d, blk64_t block, int whole,
			   struct txn_block **ret)
{
	struct txn_block *b;
	errcode_t retval;

	if (2 * (d->nblocks + 1) > d->nslots) {
		retval = rehash(d, d->nslots ? 2 * d->nslots : 256);
		if (retval)
			return retval;
	}
	retval = e2fold_array_reserve(&d->blocks, &d->cap, d->nblocks + 1,
				      sizeof(*d->blocks));
	if (retval)
		return retval;
	b = &d->blocks[d->nblocks];
	b->block = block;
	b->data = NULL;
	b->revoked = 0;
	retval = read_unit(d, block, whole, &b->data);
	if (retval)
		return retval;
	insert_slot(d, d->nblocks++);
	d->nlive++;
	*ret = b;
	return 0;
}

/*
 * The pending copy of block, made from the device's if there is none
 * (unread if the caller overwrites it whole). Back in the transaction, a
 * block is no longer revoked.
 */
static errcode_t pending_block(struct txn_data *d, blk64_t block, int whole,
			       struct txn_block **ret)
{
	struct txn_block *b = find_block(d, block);
	errcode_t retval;

	if (!b)
		return add_block(d, block, whole, ret);
	if (b->revoked) {
		b->revoked = 0;
		d->nrevoked--;
	}
	if (!b->data) {
		retval = read_unit(d, block, whole, &b->data);
		if (retval)
			return retval;
		d->nlive++;
	}
	*ret = b;
	return 0;
}

static void free_blocks(struct txn_data *d)
{
	for (size_t i = 0; i < d->nblocks; i++)
		ext2fs_free_mem(&d->blocks[i].data);
	d->nblocks = 0;
	d->nlive = 0;
	d->nrevoked = 0;
	if (d->nslots)
		memset(d->slots, 0, d->nslots * sizeof(*d->slots));
}

static struct struct_io_manager txn_manager;

static errcode_t txn_open(const char *name, int flags, io_channel *ret)
{
	struct txn_data *d = calloc(1, sizeof(*d));
	errcode_t retval;

	if (!d)
		return EXT2_ET_NO_MEMORY;
	retval = e2fold_io_layer_open(&txn_manager, txn_inner, name, flags, d,
				      ret);
	if (!retval)
		d->inner = d->layer.inner;
	return retval;
}

static int by_block(const void *a, const void *b)
{
	const struct e2fold_jblock *x = a, *y = b;

	return x->block < y->block ? -1 : x->block > y->block;
}

/*
 * Commit the pending blocks as one transaction, in block order (the
 * checkpoint then writes them in one sweep).
 */
static errcode_t commit_pending(struct txn_data *d,
				enum e2fold_journal_stop stop)
{
	struct e2fold_jblock *list;
	blk64_t *revoked;
	size_t n = 0, nrevoked = 0;
	errcode_t retval;

	if (d->state != TXN_ON)
		return d->state == TXN_FAILED ? EIO : 0;
	if (!d->nblocks)
		return 0;
	retval = ext2fs_get_array(d->nblocks, sizeof(*list), &list);
	if (retval)
		return retval;
	retval = ext2fs_get_array(d->nblocks, sizeof(*revoked), &revoked);
	if (retval) {
		ext2fs_free_mem(&list);
		return retval;
	}
	for (size_t i = 0; i < d->nblocks; i++) {
		if (d->blocks[i].data) {
			list[n].block = d->blocks[i].block;
			list[n++].data = d->blocks[i].data;
		} else if (d->blocks[i].revoked) {
			revoked[nrevoked++] = d->blocks[i].block;
		}
	}
	qsort(list, n, sizeof(*list), by_block);
	retval = e2fold_journal_commit(d->journal, list, n, revoked,
				       nrevoked, stop);
	ext2fs_free_mem(&list);
	ext2fs_free_mem(&revoked);
	if (retval == EXT2_ET_JOURNAL_TOO_SMALL)
		return retval;
	if (retval)
		d->state = TXN_FAILED;
	else if (stop != E2FOLD_JOURNAL_COMPLETE)
		d->state = TXN_STOPPED;
	free_blocks(d);
	return retval;
}

/* The last transaction, then the journal closed (txnio.h). */
static errcode_t finish(struct txn_data *d)
{
	errcode_t retval;

	if (d->state == TXN_OFF)
		return 0;
	if (d->state == TXN_SUSPENDED)
		d->state = TXN_ON;	/* nothing pending: just close */
	if (d->state != TXN_ON) {
		e2fold_journal_free(d->journal);
		d->journal = NULL;
		return d->state == TXN_FAILED ? EIO : 0;
	}
	retval = commit_pending(d, E2FOLD_JOURNAL_COMPLETE);
	if (!retval || retval == EXT2_ET_JOURNAL_TOO_SMALL) {
		/*
		 * Empty (a refused transaction writes nothing, and its
		 * blocks are dropped): needs_recovery goes off again.
		 */
		errcode_t retval2 = e2fold_journal_close(d->journal);

		retval = retval ? retval : retval2;
	} else {
		/* Not empty: needs_recovery stays set for e2fsck. */
		e2fold_journal_free(d->journal);
	}
	d->journal = NULL;
	d->state = TXN_OFF;
	return retval;
}

static errcode_t txn_close(io_channel channel)
{
	struct txn_data *d = data_of(channel);
	errcode_t retval, retval2;

	if (--channel->refcount > 0)
		return 0;
	retval = finish(d);
	retval2 = io_channel_close(d->inner);
	last_close_error = retval ? retval : retval2;
	free_blocks(d);
	ext2fs_free_mem(&d->blocks);
	ext2fs_free_mem(&d->slots);
	ext2fs_free_mem(&d->pins);
	e2fold_io_layer_free(channel);
	return last_close_error;
}

/* A request in the channel's blocks, as bytes. */
static void byte_range(io_channel channel, unsigned long long block,
		       int count, unsigned long long *off, size_t *len)
{
	*off = block * channel->block_size;
	*len = count < 0 ? (size_t)-count : (size_t)count * channel->block_size;
}

/* Copy the pending blocks' parts of [off, off + len) over buf. */
static void overlay(const struct txn_data *d, unsigned long long off,
		    size_t len, unsigned char *buf)
{
	blk64_t b, last;

	if (!d->nblocks)
		return;
	last = (off + len - 1) / d->unit;
	for (b = off / d->unit; b <= last; b++) {
		const struct txn_block *p = find_block(d, b);
		unsigned long long start = b * d->unit, from, to;

		if (!p || !p->data)
			continue;
		from = start > off ? start : off;
		to = start + d->unit < off + len ? start + d->unit : off + len;
		memcpy(buf + (from - off), p->data + (from - start), to - from);
	}
}

static errcode_t txn_read_blk64(io_channel channel, unsigned long long block,
				int count, void *data)
{
	struct txn_data *d = data_of(channel);
	unsigned long long off;
	size_t len;
	errcode_t retval;

	retval = io_channel_read_blk64(d->inner, block, count, data);
	if (retval || (d->state != TXN_ON && d->state != TXN_ABORTED) ||
	    !count)
		return retval;
	byte_range(channel, block, count, &off, &len);
	overlay(d, off, len, data);
	return 0;
}

static errcode_t txn_read_blk(io_channel channel, unsigned long block,
			      int count, void *data)
{
	return txn_read_blk64(channel, block, count, data);
}

/* Metadata: [off, off + len) into the pending blocks. */
static errcode_t collect(struct txn_data *d, unsigned long long off,
			 size_t len, const unsigned char *buf)
{
	blk64_t b, last = (off + len - 1) / d->unit;
	errcode_t retval;

	for (b = off / d->unit; b <= last; b++) {
		unsigned long long start = b * d->unit, from, to;
		struct txn_block *p;

		from = start > off ? start : off;
		to = start + d->unit < off + len ? start + d->unit : off + len;
		retval = pending_block(d, b, to - from == d->unit, &p);
		if (retval)
			return retval;
		memcpy(p->data + (from - start), buf + (from - off), to - from);
	}
	return 0;
}

/*
 * Data over pending metadata (a freed block reused for file contents):
 * a block it covers whole leaves the transaction, with a revoke record;
 * one it covers in part keeps the new bytes in its pending copy too, so
 * that the commit does not write the old ones back.
 */
static errcode_t data_over_pending(struct txn_data *d,
				   unsigned long long off, size_t len,
				   const unsigned char *buf)
{
	blk64_t b, last = (off + len - 1) / d->unit;
	errcode_t retval;

	for (b = off / d->unit; b <= last; b++) {
		unsigned long long start = b * d->unit;
		struct txn_block *p = find_block(d, b);

		if (!p || !p->data)
			continue;
		if (start >= off && start + d->unit <= off + len) {
			ext2fs_free_mem(&p->data);
			d->nlive--;
			p->revoked = 1;
			d->nrevoked++;
			continue;
		}
		retval = collect(d, start > off ? start : off,
				 (start + d->unit < off + len ?
				  start + d->unit : off + len) -
				 (start > off ? start : off),
				 buf + ((start > off ? start : off) - off));
		if (retval)
			return retval;
	}
	return 0;
}

/*
 * After e2fold_txn_abort: the primary superblock (libext2fs writes it
 * as 1,024 bytes at byte 1,024) reaches the device, so that the error
 * it records survives; every other write is dropped, as a crash would
 * drop it.
 */
static errcode_t aborted_write(struct txn_data *d, io_channel channel,
			       unsigned long long block, int count,
			       const void *data)
{
	unsigned long long off;
	size_t len;

	byte_range(channel, block, count, &off, &len);
	if (off != SUPERBLOCK_OFFSET || len != SUPERBLOCK_SIZE)
		return 0;
	if (find_block(d, off / d->unit)) {
		errcode_t retval = collect(d, off, len, data);

		if (retval)
			return retval;
	}
	return io_channel_write_blk64(d->inner, block, count, data);
}

static errcode_t txn_write_blk64(io_channel channel, unsigned long long block,
				 int count, const void *data)
{
	struct txn_data *d = data_of(channel);
	unsigned long long off;
	size_t len;
	errcode_t retval;

	byte_range(channel, block, count, &off, &len);
	/* The whole blocks the bytes touch. */
	if (d->watch && len)
		d->watch(d->watch_arg, block,
			 (int)((len + channel->block_size - 1) /
			       channel->block_size));
	switch (d->state) {
	case TXN_OFF:
	case TXN_SUSPENDED:
		return io_channel_write_blk64(d->inner, block, count, data);
	case TXN_STOPPED:
		return 0;
	case TXN_FAILED:
		return EIO;
	case TXN_ABORTED:
		return aborted_write(d, channel, block, count, data);
	case TXN_ON:
		break;
	}
	if (!len)
		return 0;
	if (!d->data_mode)
		return collect(d, off, len, data);
	retval = data_over_pending(d, off, len, data);
	if (retval)
		return retval;
	return io_channel_write_blk64(d->inner, block, count, data);
}

static errcode_t txn_write_blk(io_channel channel, unsigned long block,
			       int count, const void *data)
{
	return txn_write_blk64(channel, block, count, data);
}

/*
 * While a transaction collects, a flush asks nothing of the device: the
 * pending blocks wait for the commit, whatever order they were written
 * in, and the commit flushes the device before its commit record, which
 * makes the data written in place meanwhile durable first (ordered
 * mode). A flush that orders writes made without a transaction (a
 * directory split's, doc/crash-safety.md) reaches the device. Inside a
 * transaction those flushes cost an fsync each for nothing: two for
 * every leaf split, nearly every create in a full directory.
 */
static errcode_t txn_flush(io_channel channel)
{
	struct txn_data *d = data_of(channel);

	if (d->state == TXN_ON)
		return 0;
	return io_channel_flush(d->inner);
}

/*
 * No write_byte: libext2fs then writes the superblock whole (one block
 * of the transaction) instead of field by field. No discard or zeroout
 * either: both would change blocks behind the transaction's back
 * (libext2fs writes zeroed blocks instead).
 */
static struct struct_io_manager txn_manager = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "e2fold journaled-transaction I/O manager",
	.open = txn_open,
	.close = txn_close,
	.set_blksize = e2fold_io_layer_set_blksize,
	.read_blk = txn_read_blk,
	.write_blk = txn_write_blk,
	.flush = txn_flush,
	.set_option = e2fold_io_layer_set_option,
	.get_stats = e2fold_io_layer_get_stats,
	.read_blk64 = txn_read_blk64,
	.write_blk64 = txn_write_blk64,
};

io_manager e2fold_txn_io_manager(io_manager inner)
{
	txn_inner = inner;
	return &txn_manager;
}

/* The layer's state for fs, or NULL if fs was not opened through it. */
static struct txn_data *txn_of(ext2_filsys fs)
{
	if (!fs || !fs->io || fs->io->manager != &txn_manager)
		return NULL;
	return data_of(fs->io);
}

int e2fold_txn_watch(ext2_filsys fs,
		     void (*watch)(void *arg, blk64_t block, int count),
		     void *arg)
{
	struct txn_data *d = txn_of(fs);

	if (!d)
		return -1;
	d->watch = watch;
	d->watch_arg = arg;
	return 0;
}

/*
 * Ordered data is safe only in blocks that are free on the device: a
 * block the open transaction freed still belongs, on the device, to
 * what freed it until the commit, and file contents written there at
 * once would overwrite it under a crash (ext4 holds such blocks back
 * the same way). libext2fs frees every block through
 * ext2fs_block_alloc_stats2, which calls this: the block is marked in
 * use again in memory, so that no allocator hands it out, and released
 * when the transaction commits. (Its counts say free at once, as
 * statfs on ext4 does.)
 */
static void hold_freed(ext2_filsys fs, blk64_t block, int inuse)
{
	struct txn_data *d = txn_of(fs);
	struct txn_run *last;

	if (!d)
		return;
	if (d->chained_stats)
		d->chained_stats(fs, block, inuse);
	if (inuse >= 0 || d->state != TXN_ON)
		return;
	ext2fs_mark_block_bitmap2(fs->block_map, block);
	last = d->npins ? &d->pins[d->npins - 1] : NULL;
	if (last && last->start + last->len == block) {
		last->len++;
		return;
	}
	if (e2fold_array_reserve(&d->pins, &d->pins_cap, d->npins + 1,
				 sizeof(*d->pins))) {
		/* No memory to remember it: it stays in use until e2fsck. */
		return;
	}
	d->pins[d->npins].start = block;
	d->pins[d->npins++].len = 1;
}

/* The held blocks free in memory again (on), or held again (off). */
static void release_held(struct txn_data *d, int release)
{
	for (size_t i = 0; i < d->npins; i++) {
		if (release)
			ext2fs_unmark_block_bitmap_range2(d->fs->block_map,
							  d->pins[i].start,
							  d->pins[i].len);
		else
			ext2fs_mark_block_bitmap_range2(d->fs->block_map,
							d->pins[i].start,
							d->pins[i].len);
	}
	if (d->npins)
		ext2fs_mark_bb_dirty(d->fs);
}

errcode_t e2fold_txn_begin(ext2_filsys fs)
{
	struct txn_data *d = txn_of(fs);
	errcode_t retval;

	if (!d || !(fs->flags & EXT2_FLAG_RW))
		return EXT2_ET_INVALID_ARGUMENT;
	if (d->state != TXN_OFF)
		return 0;
	retval = e2fold_journal_open(fs, d->inner, &d->journal);
	if (retval)
		return retval;
	d->unit = fs->blocksize;
	d->fs = fs;
	if (!fs->block_map) {
		retval = ext2fs_read_block_bitmap(fs);
		if (retval) {
			e2fold_journal_free(d->journal);
			d->journal = NULL;
			return retval;
		}
	}
	ext2fs_set_block_alloc_stats_callback(fs, hold_freed,
					      &d->chained_stats);
	d->state = TXN_ON;
	return 0;
}

int e2fold_txn_active(ext2_filsys fs)
{
	struct txn_data *d = txn_of(fs);

	return d && d->state == TXN_ON;
}

/* Does libext2fs hold changes in memory (superblock, descriptors, bitmaps)? */
static int held_in_memory(ext2_filsys fs)
{
	return !!(fs->flags & (EXT2_FLAG_DIRTY | EXT2_FLAG_BB_DIRTY |
			       EXT2_FLAG_IB_DIRTY));
}

int e2fold_txn_dirty(ext2_filsys fs)
{
	return e2fold_txn_pending(fs) || held_in_memory(fs);
}

errcode_t e2fold_txn_commit(ext2_filsys fs)
{
	return e2fold_txn_commit_stop(fs, E2FOLD_JOURNAL_COMPLETE);
}

/*
 * What libext2fs keeps in memory (superblock, group descriptors,
 * bitmaps) joins the transaction first, so that it commits a whole,
 * consistent filesystem.
 */
errcode_t e2fold_txn_commit_stop(ext2_filsys fs,
				 enum e2fold_journal_stop stop)
{
	struct txn_data *d = txn_of(fs);
	errcode_t retval;

	if (!d || d->state != TXN_ON)
		return d && (d->state == TXN_FAILED ||
			     d->state == TXN_ABORTED) ? EIO : 0;
	release_held(d, 1);
	if (held_in_memory(fs)) {
		retval = ext2fs_flush2(fs, 0);
		if (retval) {
			release_held(d, 0);
			return retval;
		}
	}
	retval = commit_pending(d, stop);
	if (retval == EXT2_ET_JOURNAL_TOO_SMALL)
		release_held(d, 0);
	else
		d->npins = 0;
	/* Data written in place with nothing to commit is made durable too. */
	if (!retval && stop == E2FOLD_JOURNAL_COMPLETE)
		retval = io_channel_flush(d->inner);
	return retval;
}

size_t e2fold_txn_pending(ext2_filsys fs)
{
	struct txn_data *d = txn_of(fs);

	return d ? d->nlive : 0;
}

size_t e2fold_txn_room(ext2_filsys fs)
{
	struct txn_data *d = txn_of(fs);
	size_t n, lo = 0, hi;

	if (!d || d->state != TXN_ON)
		return 0;
	n = e2fold_txn_pending(fs);
	hi = e2fold_journal_capacity(d->journal);
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;

		if (e2fold_journal_needed(d->journal, n + mid, d->nrevoked) <=
		    e2fold_journal_capacity(d->journal))
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

errcode_t e2fold_txn_suspend(ext2_filsys fs)
{
	struct txn_data *d = txn_of(fs);
	errcode_t retval;

	if (!d || d->state != TXN_ON)
		return 0;
	retval = e2fold_txn_commit(fs);
	if (!retval)
		d->state = TXN_SUSPENDED;
	return retval;
}

void e2fold_txn_resume(ext2_filsys fs)
{
	struct txn_data *d = txn_of(fs);

	if (d && d->state == TXN_SUSPENDED)
		d->state = TXN_ON;
}

void e2fold_txn_data(ext2_filsys fs, int on)
{
	struct txn_data *d = txn_of(fs);

	if (d)
		d->data_mode = on;
}

errcode_t e2fold_txn_close(ext2_filsys *fs)
{
	struct txn_data *d = txn_of(*fs);
	errcode_t retval;

	/* The closing flush writes the bitmaps as the commit will leave them. */
	if (d && d->state == TXN_ON) {
		release_held(d, 1);
		d->npins = 0;
	}
	last_close_error = 0;
	retval = ext2fs_close_free(fs);
	return last_close_error ? last_close_error : retval;
}

/*
 * One filesystem block to the device, in whole blocks of the channel:
 * unix_io then keeps its cache true (a write of a byte count goes round
 * the cache and leaves a clean cached copy of the old contents behind).
 */
static errcode_t write_unit(struct txn_data *d, blk64_t block,
			    const unsigned char *data)
{
	unsigned int per = d->unit / d->inner->block_size;

	return io_channel_write_blk64(d->inner, block * per, per, data);
}

errcode_t e2fold_txn_write_data(ext2_filsys fs, blk64_t block, blk64_t count)
{
	struct txn_data *d = txn_of(fs);
	unsigned char *copy;
	errcode_t retval = 0;

	if (!d || d->state != TXN_ON || !d->nblocks)
		return 0;
	retval = ext2fs_get_mem(d->unit, &copy);
	if (retval)
		return retval;
	for (blk64_t b = block; b < block + count && !retval; b++) {
		struct txn_block *p = find_block(d, b);

		if (!p || !p->data)
			continue;
		memcpy(copy, p->data, d->unit);
		retval = data_over_pending(d, b * d->unit, d->unit, copy);
		if (!retval)
			retval = write_unit(d, b, copy);
	}
	ext2fs_free_mem(&copy);
	return retval;
}

errcode_t e2fold_txn_write_through(ext2_filsys fs)
{
	struct txn_data *d = txn_of(fs);
	errcode_t retval = 0;

	if (!d || d->state != TXN_ON)
		return 0;
	release_held(d, 1);
	d->npins = 0;
	if (held_in_memory(fs))
		retval = ext2fs_flush2(fs, EXT2_FLAG_FLUSH_NO_SYNC);
	for (size_t i = 0; i < d->nblocks && !retval; i++)
		if (d->blocks[i].data)
			retval = write_unit(d, d->blocks[i].block,
					    d->blocks[i].data);
	if (!retval)
		retval = io_channel_flush(d->inner);
	if (retval) {
		d->state = TXN_FAILED;
		return retval;
	}
	free_blocks(d);
	return 0;
}

void e2fold_txn_abort(ext2_filsys fs)
{
	struct txn_data *d = txn_of(fs);

	if (d && d->state == TXN_ON)
		d->state = TXN_ABORTED;
}

blk64_t e2fold_txn_held(ext2_filsys fs)
{
	struct txn_data *d = txn_of(fs);
	blk64_t n = 0;

	if (d)
		for (size_t i = 0; i < d->npins; i++)
			n += d->pins[i].len;
	return n;
}
