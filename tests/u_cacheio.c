/*
 * u_cacheio: the block cache (lib/support/cacheio.h) over a device held
 * in memory. After every operation of a long random mix (single and
 * multi-block reads and writes, byte-ranged ones, discards, zeroouts,
 * writes that fail half-way, block size changes) each read through the
 * cache must return what the device holds. Then: a block read twice is
 * read from the device once, a block not read for a cache's worth of
 * other blocks is read again, and a discard of the whole 64-bit range
 * finishes.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cacheio.h"
#include "unit.h"

#define DEV_BYTES (64u << 20)

/* The device: its bytes, its reads counted, a write made to fail. */
static unsigned char *dev;
static unsigned long dev_reads;
static int fail_next_write;

static struct struct_io_manager mem_manager;

static errcode_t mem_open(const char *name, int flags, io_channel *ret)
{
	io_channel c = calloc(1, sizeof(*c));

	(void)flags;
	if (!c)
		return EXT2_ET_NO_MEMORY;
	c->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	c->manager = &mem_manager;
	c->name = strdup(name);
	c->block_size = 1024;
	c->refcount = 1;
	*ret = c;
	return 0;
}

static errcode_t mem_close(io_channel c)
{
	if (--c->refcount > 0)
		return 0;
	free(c->name);
	free(c);
	return 0;
}

static errcode_t mem_set_blksize(io_channel c, int bs)
{
	c->block_size = bs;
	return 0;
}

/* Bytes [*off, *off + *len) of a block-or-byte count; 0 if on the device. */
static int range(io_channel c, unsigned long long block, long long count,
		 unsigned long long *off, unsigned long long *len)
{
	*off = block * c->block_size;
	*len = count < 0 ? (unsigned long long)-count :
	       (unsigned long long)count * c->block_size;
	return *off <= DEV_BYTES && *len <= DEV_BYTES - *off ? 0 : -1;
}

static errcode_t mem_read_blk64(io_channel c, unsigned long long block,
				int count, void *buf)
{
	unsigned long long off, len;

	dev_reads++;
	if (range(c, block, count, &off, &len))
		return EXT2_ET_SHORT_READ;
	memcpy(buf, dev + off, len);
	return 0;
}

static errcode_t mem_read_blk(io_channel c, unsigned long block, int count,
			      void *buf)
{
	return mem_read_blk64(c, block, count, buf);
}

/* A failing write stores its first half, as a write cut short does. */
static errcode_t mem_write_blk64(io_channel c, unsigned long long block,
				 int count, const void *buf)
{
	unsigned long long off, len;

	if (range(c, block, count, &off, &len))
		return EXT2_ET_SHORT_WRITE;
	if (fail_next_write) {
		fail_next_write = 0;
		memcpy(dev + off, buf, len / 2);
		return EIO;
	}
	memcpy(dev + off, buf, len);
	return 0;
}

static errcode_t mem_write_blk(io_channel c, unsigned long block, int count,
			       const void *buf)
{
	return mem_write_blk64(c, block, count, buf);
}

static errcode_t mem_fill(io_channel c, unsigned long long block,
			  unsigned long long count, int byte)
{
	unsigned long long off = block * c->block_size, len;

	if (off >= DEV_BYTES)
		return 0;
	len = count > (DEV_BYTES - off) / c->block_size ? DEV_BYTES - off :
	      count * c->block_size;
	memset(dev + off, byte, len);
	return 0;
}

/* A discard here leaves 0xdd, so that a stale copy would show. */
static errcode_t mem_discard(io_channel c, unsigned long long block,
			     unsigned long long count)
{
	return mem_fill(c, block, count, 0xdd);
}

static errcode_t mem_zeroout(io_channel c, unsigned long long block,
			     unsigned long long count)
{
	return mem_fill(c, block, count, 0);
}

static errcode_t mem_flush(io_channel c)
{
	(void)c;
	return 0;
}

static struct struct_io_manager mem_manager = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "u_cacheio memory device",
	.open = mem_open,
	.close = mem_close,
	.set_blksize = mem_set_blksize,
	.read_blk = mem_read_blk,
	.write_blk = mem_write_blk,
	.flush = mem_flush,
	.read_blk64 = mem_read_blk64,
	.write_blk64 = mem_write_blk64,
	.discard = mem_discard,
	.zeroout = mem_zeroout,
};

static unsigned long long rnd(unsigned long long n)
{
	return (unsigned long long)random() % n;
}

/* Read through the cache and compare with the device. */
static void check_read(io_channel ch, unsigned long long block, int count)
{
	static unsigned char buf[1u << 20];
	unsigned long long off = block * ch->block_size;
	size_t len = count < 0 ? (size_t)-count : (size_t)count * ch->block_size;

	if (!CHECK_INT(io_channel_read_blk64(ch, block, count, buf), 0))
		return;
	CHECK(!memcmp(buf, dev + off, len));
}

static void random_mix(io_channel ch)
{
	static unsigned char buf[1u << 20];
	unsigned long i, bad = unit_failures;

	for (i = 0; i < 100000 && unit_failures == bad; i++) {
		unsigned long long nblocks = DEV_BYTES / ch->block_size;
		/* A small hot set, so that copies are kept and then stale. */
		unsigned long long b = rnd(64) < 60 ? rnd(256) : rnd(nblocks - 64);
		int n = 1 + (int)rnd(8), op = (int)rnd(100), j;
		long long bytes = 1 + (long long)rnd(3 * ch->block_size);

		for (j = 0; j < n * ch->block_size; j++)
			buf[j] = (unsigned char)random();
		if (op < 45)
			check_read(ch, b, 1);
		else if (op < 50)
			check_read(ch, b, n);
		else if (op < 53)
			check_read(ch, b, -(int)bytes);
		else if (op < 73)
			CHECK_INT(io_channel_write_blk64(ch, b, 1, buf), 0);
		else if (op < 83)
			CHECK_INT(io_channel_write_blk64(ch, b, n, buf), 0);
		else if (op < 90)
			CHECK_INT(io_channel_write_blk64(ch, b, -(int)bytes, buf), 0);
		else if (op < 93) {
			fail_next_write = 1;
			CHECK_INT(io_channel_write_blk64(ch, b, n, buf), EIO);
		} else if (op < 95)
			CHECK_INT(io_channel_discard(ch, b, n), 0);
		else if (op < 97)
			CHECK_INT(io_channel_zeroout(ch, b, n), 0);
		else if (op < 98)
			CHECK_INT(io_channel_set_blksize(ch, 1024 << rnd(3)), 0);
		else
			for (j = 0; j < 256; j++)
				check_read(ch, (unsigned long long)j, 1);
	}
	CHECK_INT(i, 100000);
}

/* A block read again comes from memory, until a cache's worth passes. */
static void kept_and_given_back(io_channel ch)
{
	static unsigned char buf[4096];
	unsigned long before, slots = E2FOLD_CACHE_BYTES / 4096, i;

	CHECK_INT(io_channel_set_blksize(ch, 4096), 0);
	CHECK_INT(io_channel_read_blk64(ch, 7, 1, buf), 0);
	before = dev_reads;
	CHECK_INT(io_channel_read_blk64(ch, 7, 1, buf), 0);
	CHECK_INT(dev_reads, before);
	CHECK(!memcmp(buf, dev + 7 * 4096, 4096));
	/* Read by a write: the device's new bytes, still from memory. */
	memset(buf, 0x5a, sizeof(buf));
	CHECK_INT(io_channel_write_blk64(ch, 7, 1, buf), 0);
	before = dev_reads;
	check_read(ch, 7, 1);
	CHECK_INT(dev_reads, before);
	/* A cache and a half of other blocks, each read twice. */
	for (i = 0; i < slots + slots / 2; i++) {
		CHECK_INT(io_channel_read_blk64(ch, 100 + i, 1, buf), 0);
		CHECK_INT(io_channel_read_blk64(ch, 100 + i, 1, buf), 0);
	}
	before = dev_reads;
	check_read(ch, 7, 1);
	CHECK_INT(dev_reads, before + 1);
	/* Multi-block reads are not kept. */
	check_read(ch, 50, 4);
	before = dev_reads;
	check_read(ch, 51, 1);
	CHECK_INT(dev_reads, before + 1);
}

/* A discard of every block there could be drops what it covers, at once. */
static void discard_everything(io_channel ch)
{
	static unsigned char buf[4096];
	unsigned long before;

	CHECK_INT(io_channel_set_blksize(ch, 4096), 0);
	CHECK_INT(io_channel_read_blk64(ch, 3, 1, buf), 0);
	CHECK_INT(io_channel_discard(ch, 0, ~0ull >> 13), 0);
	before = dev_reads;
	check_read(ch, 3, 1);
	CHECK_INT(dev_reads, before + 1);
}

int main(void)
{
	io_manager io = e2fold_cache_io_manager(&mem_manager);
	io_channel ch;
	size_t i;

	dev = malloc(DEV_BYTES);
	if (!dev)
		return 99;
	srandom(20261205);
	for (i = 0; i < DEV_BYTES; i++)
		dev[i] = (unsigned char)random();
	if (!CHECK_INT(io->open("mem", IO_FLAG_RW, &ch), 0))
		return unit_done("u_cacheio");
	random_mix(ch);
	kept_and_given_back(ch);
	discard_everything(ch);
	CHECK_INT(io_channel_close(ch), 0);
	free(dev);
	return unit_done("u_cacheio");
}
