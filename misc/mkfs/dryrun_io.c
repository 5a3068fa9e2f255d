/* dryrun_io.c: the -n I/O manager: no file, zeros in, writes refused. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dryrun_io.h"

static struct struct_io_manager dryrun_struct;

static errcode_t dry_open(const char *name, int flags, io_channel *channel)
{
	io_channel io = calloc(1, sizeof(*io));

	if (!io)
		return EXT2_ET_NO_MEMORY;
	io->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	io->manager = &dryrun_struct;
	io->name = strdup(name);
	if (!io->name) {
		free(io);
		return EXT2_ET_NO_MEMORY;
	}
	io->block_size = 1024;
	io->refcount = 1;
	*channel = io;
	return 0;
}

static errcode_t dry_close(io_channel io)
{
	if (--io->refcount > 0)
		return 0;
	free(io->name);
	free(io);
	return 0;
}

static errcode_t dry_set_blksize(io_channel io, int blksize)
{
	io->block_size = blksize;
	return 0;
}

static errcode_t dry_read64(io_channel io, unsigned long long block,
			    int count, void *data)
{
	size_t size = count < 0 ? (size_t)-count :
		(size_t)count * io->block_size;

	memset(data, 0, size);
	return 0;
}

static errcode_t dry_read(io_channel io, unsigned long block, int count,
			  void *data)
{
	return dry_read64(io, block, count, data);
}

static errcode_t dry_write64(io_channel io, unsigned long long block,
			     int count, const void *data)
{
	return EROFS;
}

static errcode_t dry_write(io_channel io, unsigned long block, int count,
			   const void *data)
{
	return EROFS;
}

static errcode_t dry_write_byte(io_channel io, unsigned long offset,
				int count, const void *data)
{
	return EROFS;
}

static errcode_t dry_flush(io_channel io)
{
	return 0;
}

static errcode_t dry_set_option(io_channel io, const char *option,
				const char *arg)
{
	/* -E offset= changes nothing that is never written. */
	if (!strcmp(option, "offset"))
		return 0;
	return EXT2_ET_INVALID_ARGUMENT;
}

static struct struct_io_manager dryrun_struct = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "e2fold-mkfs dry run",
	.open = dry_open,
	.close = dry_close,
	.set_blksize = dry_set_blksize,
	.read_blk = dry_read,
	.write_blk = dry_write,
	.flush = dry_flush,
	.write_byte = dry_write_byte,
	.set_option = dry_set_option,
	.read_blk64 = dry_read64,
	.write_blk64 = dry_write64,
};

io_manager mkfs_dryrun_io_manager = &dryrun_struct;
