/*
 * iolayer.h: what every e2fold I/O manager that sits on another one
 * (faultio.h, syncio.h, txnio.h) does alike: open the inner channel and
 * a channel of its own over it, hand block size, options and statistics
 * down, and free both. Each layer's private data must begin with the
 * inner channel (struct e2fold_io_layer first).
 */
#ifndef E2FOLD_IOLAYER_H
#define E2FOLD_IOLAYER_H

#include <ext2fs/ext2fs.h>

struct e2fold_io_layer {
	io_channel inner;
};

/*
 * Open name through inner into the layer data (which the new channel
 * owns from then on: e2fold_io_layer_free frees it), and a channel of
 * manager over it, in *ret. On error nothing stays open or allocated,
 * data included.
 */
errcode_t e2fold_io_layer_open(io_manager manager, io_manager inner,
			       const char *name, int flags, void *data,
			       io_channel *ret);

/* The channel below channel. */
io_channel e2fold_io_layer_inner(io_channel channel);

/* Free channel and its layer data (the inner channel is closed already). */
void e2fold_io_layer_free(io_channel channel);

/* Handed down to the inner channel. */
errcode_t e2fold_io_layer_set_blksize(io_channel channel, int blksize);
errcode_t e2fold_io_layer_set_option(io_channel channel, const char *option,
				     const char *arg);
errcode_t e2fold_io_layer_get_stats(io_channel channel, io_stats *stats);

#endif /* E2FOLD_IOLAYER_H */
