/* iolayer.c: the common part of e2fold's layered I/O managers (iolayer.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iolayer.h"

errcode_t e2fold_io_layer_open(io_manager manager, io_manager inner,
			       const char *name, int flags, void *data,
			       io_channel *ret)
{
	struct e2fold_io_layer *layer = data;
	io_channel channel = calloc(1, sizeof(*channel));
	errcode_t retval = EXT2_ET_NO_MEMORY;

	if (channel)
		channel->name = strdup(name);
	if (!channel || !channel->name)
		goto fail;
	retval = inner->open(name, flags, &layer->inner);
	if (retval)
		goto fail;
	channel->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	channel->manager = manager;
	channel->block_size = layer->inner->block_size;
	channel->refcount = 1;
	channel->flags = layer->inner->flags;
	channel->private_data = data;
	*ret = channel;
	return 0;
fail:
	if (channel)
		free(channel->name);
	free(channel);
	free(data);
	return retval;
}

io_channel e2fold_io_layer_inner(io_channel channel)
{
	return ((struct e2fold_io_layer *)channel->private_data)->inner;
}

void e2fold_io_layer_free(io_channel channel)
{
	free(channel->private_data);
	free(channel->name);
	free(channel);
}

errcode_t e2fold_io_layer_set_blksize(io_channel channel, int blksize)
{
	errcode_t retval = io_channel_set_blksize(e2fold_io_layer_inner(channel),
						  blksize);

	if (!retval)
		channel->block_size = blksize;
	return retval;
}

errcode_t e2fold_io_layer_set_option(io_channel channel, const char *option,
				     const char *arg)
{
	io_channel inner = e2fold_io_layer_inner(channel);

	if (!inner->manager->set_option)
		return EXT2_ET_INVALID_ARGUMENT;
	return inner->manager->set_option(inner, option, arg);
}

errcode_t e2fold_io_layer_get_stats(io_channel channel, io_stats *stats)
{
	io_channel inner = e2fold_io_layer_inner(channel);

	if (inner->manager->get_stats)
		return inner->manager->get_stats(inner, stats);
	return EXT2_ET_UNIMPLEMENTED;
}
