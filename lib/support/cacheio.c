/* cacheio.c: the blocks read last, kept in memory (cacheio.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cacheio.h"
#include "iolayer.h"

static io_manager cache_inner;

#define NO_SLOT UINT32_MAX

struct slot {
	unsigned long long block;
	uint32_t next;		/* the next slot of its bucket */
	unsigned char used;
	unsigned char recent;	/* read since the clock last passed */
};

struct cache_data {
	struct e2fold_io_layer layer;	/* first (iolayer.h) */
	struct slot *slots;
	uint32_t *buckets;	/* heads; nslots * 2 of them, a power of 2 */
	char *bytes;		/* nslots blocks of block_size */
	uint32_t nslots, nbuckets, hand;
	int block_size;		/* of what is kept: 0 while nothing is */
};

static struct cache_data *data_of(io_channel channel)
{
	return channel->private_data;
}

static io_channel inner_of(io_channel channel)
{
	return e2fold_io_layer_inner(channel);
}

static void drop_all(struct cache_data *d)
{
	free(d->slots);
	free(d->buckets);
	free(d->bytes);
	d->slots = NULL;
	d->buckets = NULL;
	d->bytes = NULL;
	d->nslots = d->nbuckets = d->hand = 0;
	d->block_size = 0;
}

/* Room for E2FOLD_CACHE_BYTES of blocks of size bs; 0, or no memory. */
static int make_room(struct cache_data *d, int bs)
{
	uint32_t n = E2FOLD_CACHE_BYTES / (unsigned)bs, i;

	if (n < 16)
		n = 16;
	d->slots = calloc(n, sizeof(*d->slots));
	for (d->nbuckets = 1; d->nbuckets < 2 * n; d->nbuckets <<= 1)
		;
	d->buckets = malloc(d->nbuckets * sizeof(*d->buckets));
	/* Touched only as blocks come in: untouched pages cost nothing. */
	d->bytes = malloc((size_t)n * bs);
	if (!d->slots || !d->buckets || !d->bytes) {
		drop_all(d);
		return -1;
	}
	for (i = 0; i < d->nbuckets; i++)
		d->buckets[i] = NO_SLOT;
	d->nslots = n;
	d->block_size = bs;
	return 0;
}

static uint32_t bucket_of(const struct cache_data *d, unsigned long long block)
{
	return (uint32_t)((block * 0x9E3779B97F4A7C15ull) >> 32) &
	       (d->nbuckets - 1);
}

static char *bytes_of(const struct cache_data *d, uint32_t s)
{
	return d->bytes + (size_t)s * d->block_size;
}

static uint32_t find(const struct cache_data *d, unsigned long long block)
{
	uint32_t s;

	if (!d->nslots)
		return NO_SLOT;
	for (s = d->buckets[bucket_of(d, block)]; s != NO_SLOT;
	     s = d->slots[s].next)
		if (d->slots[s].block == block)
			return s;
	return NO_SLOT;
}

static void unlink_slot(struct cache_data *d, uint32_t s)
{
	uint32_t *p = &d->buckets[bucket_of(d, d->slots[s].block)];

	while (*p != s)
		p = &d->slots[*p].next;
	*p = d->slots[s].next;
	d->slots[s].used = 0;
}

static void drop(struct cache_data *d, unsigned long long block)
{
	uint32_t s = find(d, block);

	if (s != NO_SLOT)
		unlink_slot(d, s);
}

/* Drop the kept copies of blocks first to last (a discard's may be many). */
static void drop_blocks(struct cache_data *d, unsigned long long first,
			unsigned long long last)
{
	unsigned long long b;
	uint32_t s;

	if (!d->nslots || last < first)
		return;
	if (last - first >= d->nslots) {
		for (s = 0; s < d->nslots; s++)
			if (d->slots[s].used && d->slots[s].block >= first &&
			    d->slots[s].block <= last)
				unlink_slot(d, s);
		return;
	}
	for (b = first; b <= last; b++)
		drop(d, b);
}

/* Drop the blocks that bytes [start, start + len) touch. */
static void drop_bytes(struct cache_data *d, unsigned long long start,
		       unsigned long long len)
{
	if (d->nslots && len)
		drop_blocks(d, start / d->block_size,
			    (start + len - 1) / d->block_size);
}

/* A slot for block: a free one, or the first the clock finds unread. */
static uint32_t take_slot(struct cache_data *d, unsigned long long block)
{
	uint32_t s, b;

	for (;;) {
		s = d->hand;
		d->hand = (d->hand + 1) % d->nslots;
		if (!d->slots[s].used)
			break;
		if (!d->slots[s].recent) {
			unlink_slot(d, s);
			break;
		}
		d->slots[s].recent = 0;
	}
	b = bucket_of(d, block);
	d->slots[s].block = block;
	d->slots[s].used = 1;
	d->slots[s].recent = 0;
	d->slots[s].next = d->buckets[b];
	d->buckets[b] = s;
	return s;
}

static void keep(struct cache_data *d, int bs, unsigned long long block,
		 const void *buf)
{
	if (d->block_size != bs) {
		drop_all(d);
		if (make_room(d, bs))
			return;
	}
	memcpy(bytes_of(d, take_slot(d, block)), buf, bs);
}

static struct struct_io_manager cache_manager;

static errcode_t cache_open(const char *name, int flags, io_channel *ret)
{
	struct cache_data *d = calloc(1, sizeof(*d));

	if (!d)
		return EXT2_ET_NO_MEMORY;
	return e2fold_io_layer_open(&cache_manager, cache_inner, name, flags,
				    d, ret);
}

static errcode_t cache_close(io_channel channel)
{
	errcode_t retval;

	if (--channel->refcount > 0)
		return 0;
	retval = io_channel_close(inner_of(channel));
	drop_all(data_of(channel));
	e2fold_io_layer_free(channel);
	return retval;
}

static errcode_t cache_set_blksize(io_channel channel, int blksize)
{
	drop_all(data_of(channel));
	return e2fold_io_layer_set_blksize(channel, blksize);
}

static errcode_t cache_read_blk64(io_channel channel, unsigned long long block,
				  int count, void *buf)
{
	struct cache_data *d = data_of(channel);
	int bs = channel->block_size;
	errcode_t retval;
	uint32_t s;

	/* Only whole single blocks are kept; the rest is read below. */
	if (count != 1)
		return io_channel_read_blk64(inner_of(channel), block, count,
					     buf);
	if (d->block_size == bs && (s = find(d, block)) != NO_SLOT) {
		memcpy(buf, bytes_of(d, s), bs);
		d->slots[s].recent = 1;
		return 0;
	}
	retval = io_channel_read_blk64(inner_of(channel), block, 1, buf);
	if (!retval)
		keep(d, bs, block, buf);
	return retval;
}

static errcode_t cache_read_blk(io_channel channel, unsigned long block,
				int count, void *buf)
{
	return cache_read_blk64(channel, block, count, buf);
}

static errcode_t cache_write_blk64(io_channel channel, unsigned long long block,
				   int count, const void *buf)
{
	struct cache_data *d = data_of(channel);
	int bs = channel->block_size;
	unsigned long long len = count < 0 ? (unsigned long long)-count :
				 (unsigned long long)count * bs;
	errcode_t retval;
	int i;

	retval = io_channel_write_blk64(inner_of(channel), block, count, buf);
	if (retval || count < 0 || d->block_size != bs) {
		drop_bytes(d, block * bs, len);
		return retval;
	}
	/* Kept copies become what is now below; nothing new is kept. */
	for (i = 0; i < count && d->nslots; i++) {
		uint32_t s = find(d, block + i);

		if (s != NO_SLOT)
			memcpy(bytes_of(d, s), (const char *)buf +
			       (size_t)i * bs, bs);
	}
	return 0;
}

static errcode_t cache_write_blk(io_channel channel, unsigned long block,
				 int count, const void *buf)
{
	return cache_write_blk64(channel, block, count, buf);
}

static errcode_t cache_discard(io_channel channel, unsigned long long block,
			       unsigned long long count)
{
	if (count)
		drop_blocks(data_of(channel), block, block + count - 1);
	return io_channel_discard(inner_of(channel), block, count);
}

static errcode_t cache_zeroout(io_channel channel, unsigned long long block,
			       unsigned long long count)
{
	if (count)
		drop_blocks(data_of(channel), block, block + count - 1);
	return io_channel_zeroout(inner_of(channel), block, count);
}

static errcode_t cache_flush(io_channel channel)
{
	return io_channel_flush(inner_of(channel));
}

static struct struct_io_manager cache_manager = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "e2fold block-cache I/O manager",
	.open = cache_open,
	.close = cache_close,
	.set_blksize = cache_set_blksize,
	.read_blk = cache_read_blk,
	.write_blk = cache_write_blk,
	.flush = cache_flush,
	.set_option = e2fold_io_layer_set_option,
	.get_stats = e2fold_io_layer_get_stats,
	.read_blk64 = cache_read_blk64,
	.write_blk64 = cache_write_blk64,
	.discard = cache_discard,
	.zeroout = cache_zeroout,
};

io_manager e2fold_cache_io_manager(io_manager inner)
{
	cache_inner = inner;
	return &cache_manager;
}
