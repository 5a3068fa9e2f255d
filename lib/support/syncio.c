/* syncio.c: an I/O manager that flushes after every write (syncio.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iolayer.h"
#include "syncio.h"

/* An open has no argument of its own: the inner manager is kept here. */
static io_manager sync_inner;
static char *undo_path;

struct sync_data {
	struct e2fold_io_layer layer;	/* first (iolayer.h) */
	int is_undo;		/* the undo file named to us */
};

static io_channel inner_of(io_channel channel)
{
	return e2fold_io_layer_inner(channel);
}

/*
 * The undo file's header (e2fsprogs' undo_io.c and e2undo.c read and
 * write it): 512 bytes at offset 0 of the file, little-endian; the magic
 * "E2UNDO02" at 0, the state flags at 44 (bit 0: finished), and at 508
 * the CRC32C (seed ~0) of the 508 bytes before it.
 */
#define UNDO_HDR_SIZE		512
#define UNDO_HDR_STATE		44
#define UNDO_HDR_CRC		508
#define UNDO_STATE_FINISHED	0x1

static void put_le32(unsigned char *p, __u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* A copy of the header with the finished bit set and its CRC redone. */
static void mark_finished(const void *hdr, unsigned char *out)
{
	memcpy(out, hdr, UNDO_HDR_SIZE);
	out[UNDO_HDR_STATE] |= UNDO_STATE_FINISHED;
	put_le32(out + UNDO_HDR_CRC,
		 ext2fs_crc32c_le(~0, out, UNDO_HDR_CRC));
}

static int is_undo_header(io_channel channel, unsigned long long block,
			  int count, const void *data)
{
	struct sync_data *d = channel->private_data;

	return d->is_undo && block == 0 && count == -UNDO_HDR_SIZE &&
	       !memcmp(data, "E2UNDO02", 8);
}

errcode_t e2fold_sync_io_undo_file(const char *path)
{
	free(undo_path);
	undo_path = strdup(path);
	return undo_path ? 0 : EXT2_ET_NO_MEMORY;
}

static struct struct_io_manager sync_manager;

static errcode_t sync_open(const char *name, int flags, io_channel *ret)
{
	struct sync_data *d = calloc(1, sizeof(*d));

	if (!d)
		return EXT2_ET_NO_MEMORY;
	d->is_undo = undo_path && !strcmp(name, undo_path);
	return e2fold_io_layer_open(&sync_manager, sync_inner, name, flags, d,
				    ret);
}

static errcode_t sync_close(io_channel channel)
{
	errcode_t retval;

	if (--channel->refcount > 0)
		return 0;
	retval = io_channel_close(inner_of(channel));
	e2fold_io_layer_free(channel);
	return retval;
}

static errcode_t sync_read_blk64(io_channel channel, unsigned long long block,
				 int count, void *data)
{
	return io_channel_read_blk64(inner_of(channel), block, count, data);
}

static errcode_t sync_read_blk(io_channel channel, unsigned long block,
			       int count, void *data)
{
	return sync_read_blk64(channel, block, count, data);
}

static errcode_t sync_write_blk64(io_channel channel, unsigned long long block,
				  int count, const void *data)
{
	unsigned char hdr[UNDO_HDR_SIZE];
	errcode_t retval;

	if (is_undo_header(channel, block, count, data)) {
		mark_finished(data, hdr);
		data = hdr;
	}
	retval = io_channel_write_blk64(inner_of(channel), block, count, data);
	return retval ? retval : io_channel_flush(inner_of(channel));
}

static errcode_t sync_write_blk(io_channel channel, unsigned long block,
				int count, const void *data)
{
	return sync_write_blk64(channel, block, count, data);
}

static errcode_t sync_write_byte(io_channel channel, unsigned long offset,
				 int count, const void *data)
{
	errcode_t retval;

	retval = io_channel_write_byte(inner_of(channel), offset, count, data);
	return retval ? retval : io_channel_flush(inner_of(channel));
}

static errcode_t sync_flush(io_channel channel)
{
	return io_channel_flush(inner_of(channel));
}

static errcode_t sync_discard(io_channel channel, unsigned long long block,
			      unsigned long long count)
{
	errcode_t retval = io_channel_discard(inner_of(channel), block, count);

	return retval ? retval : io_channel_flush(inner_of(channel));
}

static errcode_t sync_zeroout(io_channel channel, unsigned long long block,
			      unsigned long long count)
{
	errcode_t retval = io_channel_zeroout(inner_of(channel), block, count);

	return retval ? retval : io_channel_flush(inner_of(channel));
}

static struct struct_io_manager sync_manager = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "e2fold write-through I/O manager",
	.open = sync_open,
	.close = sync_close,
	.set_blksize = e2fold_io_layer_set_blksize,
	.read_blk = sync_read_blk,
	.write_blk = sync_write_blk,
	.flush = sync_flush,
	.write_byte = sync_write_byte,
	.set_option = e2fold_io_layer_set_option,
	.get_stats = e2fold_io_layer_get_stats,
	.read_blk64 = sync_read_blk64,
	.write_blk64 = sync_write_blk64,
	.discard = sync_discard,
	.zeroout = sync_zeroout,
};

io_manager e2fold_sync_io_manager(io_manager inner)
{
	sync_inner = inner;
	return &sync_manager;
}
