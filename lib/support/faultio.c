/* faultio.c: fail the Nth read or write, for fault-injection tests. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "faultio.h"
#include "iolayer.h"

enum fault_kind {
	FAULT_NONE, FAULT_READ, FAULT_WRITE, FAULT_DROP,
	FAULT_SIGINT_READ, FAULT_SIGINT_WRITE, FAULT_CUT, FAULT_CUT_LAST,
	FAULT_CUT_HALF,
};

/* A write since the last flush, with what it overwrote (power cuts). */
struct unflushed {
	unsigned long long block;
	int count, blksize;
	void *old, *new;
};

struct fault_data {
	struct e2fold_io_layer layer;	/* first (iolayer.h) */
	enum fault_kind kind;
	unsigned long target;	/* which operation fails */
	unsigned long reads, writes;
	int is_target;		/* the filesystem, not an undo file */
	struct unflushed *unflushed;	/* FAULT_CUT*: since the last flush */
	size_t nunflushed, unflushed_cap;
};

/*
 * The file the faults are for: the first one opened through this manager
 * in the process, the filesystem. Files opened through it later, such as
 * the undo file of an undo manager that uses it as its backing manager,
 * pass through untouched, or a test could not tell whether the undo file
 * of a failed repair restores it.
 */
static char *fault_target;

static int is_target(const char *name)
{
	if (!fault_target)
		fault_target = strdup(name);
	return fault_target && !strcmp(fault_target, name);
}

static void parse_fault(struct fault_data *d, const char *name)
{
	const char *spec = getenv("E2FOLD_FAULT");
	const char *colon = spec ? strchr(spec, ':') : NULL;

	d->kind = FAULT_NONE;
	d->is_target = spec && is_target(name);
	if (!colon || !d->is_target)
		return;
	d->target = strtoul(colon + 1, NULL, 10);
	if (!strncmp(spec, "read:", 5))
		d->kind = FAULT_READ;
	else if (!strncmp(spec, "write:", 6))
		d->kind = FAULT_WRITE;
	else if (!strncmp(spec, "drop:", 5))
		d->kind = FAULT_DROP;
	else if (!strncmp(spec, "sigint-read:", 12))
		d->kind = FAULT_SIGINT_READ;
	else if (!strncmp(spec, "sigint-write:", 13))
		d->kind = FAULT_SIGINT_WRITE;
	else if (!strncmp(spec, "cut:", 4))
		d->kind = FAULT_CUT;
	else if (!strncmp(spec, "cut-last:", 9))
		d->kind = FAULT_CUT_LAST;
	else if (!strncmp(spec, "cut-half:", 9))
		d->kind = FAULT_CUT_HALF;
}

static struct fault_data *data_of(io_channel channel)
{
	return channel->private_data;
}

static struct struct_io_manager fault_manager;

static void forget_unflushed(struct fault_data *d)
{
	for (size_t i = 0; i < d->nunflushed; i++) {
		free(d->unflushed[i].old);
		free(d->unflushed[i].new);
	}
	d->nunflushed = 0;
}


static errcode_t fault_open(const char *name, int flags, io_channel *ret)
{
	struct fault_data *d = calloc(1, sizeof(*d));

	if (!d)
		return EXT2_ET_NO_MEMORY;
	parse_fault(d, name);
	return e2fold_io_layer_open(&fault_manager, unix_io_manager, name,
				    flags, d, ret);
}

/* The file the environment variable var names, to append to; or NULL. */
static FILE *log_file(const char *var, const struct fault_data *d)
{
	const char *path = getenv(var);

	return path && *path && d->is_target ? fopen(path, "a") : NULL;
}

/*
 * With E2FOLD_FAULT_COUNTS=FILE, each close of the filesystem's channel
 * appends "reads R writes W" to FILE: a test learns how many operations
 * a run makes, so it can fail every one of them in turn.
 */
static void log_counts(const struct fault_data *d)
{
	FILE *f = log_file("E2FOLD_FAULT_COUNTS", d);

	if (!f)
		return;
	fprintf(f, "reads %lu writes %lu\n", d->reads, d->writes);
	fclose(f);
}

static errcode_t fault_close(io_channel channel)
{
	struct fault_data *d = data_of(channel);
	errcode_t retval;

	if (--channel->refcount > 0)
		return 0;
	log_counts(d);
	forget_unflushed(d);
	free(d->unflushed);
	retval = io_channel_close(d->layer.inner);
	e2fold_io_layer_free(channel);
	return retval;
}

static int read_fails(struct fault_data *d)
{
	if (++d->reads != d->target)
		return 0;
	if (d->kind == FAULT_SIGINT_READ)
		raise(SIGINT);
	return d->kind == FAULT_READ;
}

static errcode_t fault_read_blk64(io_channel channel, unsigned long long block,
				  int count, void *data)
{
	struct fault_data *d = data_of(channel);

	if (read_fails(d))
		return EIO;
	return io_channel_read_blk64(d->layer.inner, block, count, data);
}

static errcode_t fault_read_blk(io_channel channel, unsigned long block,
				int count, void *data)
{
	return fault_read_blk64(channel, block, count, data);
}

static size_t byte_count(io_channel inner, int count)
{
	return count < 0 ? (size_t)-count : (size_t)count * inner->block_size;
}

/* Write data over (block, count) in the block size it was made in. */
static void rewrite(io_channel inner, const struct unflushed *u,
		    const void *data)
{
	int blksize = inner->block_size;

	if (blksize != u->blksize)
		io_channel_set_blksize(inner, u->blksize);
	io_channel_write_blk64(inner, u->block, u->count, data);
	if (blksize != u->blksize)
		io_channel_set_blksize(inner, blksize);
}

/*
 * The power goes (faultio.h, cut:N, cut-last:N, cut-half:N): the writes
 * since the last flush are undone, newest first; then the newest of them
 * that the disk had stored (none, one, half) are made again, in order;
 * what is left is flushed, and the process dies.
 */
static void power_cut(struct fault_data *d)
{
	io_channel inner = d->layer.inner;
	size_t n = d->nunflushed, kept, i;

	kept = d->kind == FAULT_CUT_LAST ? (n > 0) :
	       d->kind == FAULT_CUT_HALF ? (n + 1) / 2 : 0;
	for (i = n; i-- > 0;)
		rewrite(inner, &d->unflushed[i], d->unflushed[i].old);
	for (i = n - kept; i < n; i++)
		rewrite(inner, &d->unflushed[i], d->unflushed[i].new);
	io_channel_flush(inner);
	raise(SIGKILL);
}

/* Keep what a write overwrites and writes, until the next flush. */
static errcode_t remember_write(struct fault_data *d, unsigned long long block,
				int count, const void *data)
{
	io_channel inner = d->layer.inner;
	size_t len = byte_count(inner, count);
	struct unflushed *u;
	errcode_t retval;

	retval = e2fold_array_reserve(&d->unflushed, &d->unflushed_cap,
				      d->nunflushed + 1, sizeof(*d->unflushed));
	if (retval)
		return retval;
	u = &d->unflushed[d->nunflushed];
	u->block = block;
	u->count = count;
	u->blksize = inner->block_size;
	u->old = malloc(len);
	u->new = malloc(len);
	if (!u->old || !u->new) {
		free(u->old);
		free(u->new);
		return EXT2_ET_NO_MEMORY;
	}
	memcpy(u->new, data, len);
	retval = io_channel_read_blk64(inner, block, count, u->old);
	if (retval) {
		free(u->old);
		free(u->new);
		return retval;
	}
	d->nunflushed++;
	return 0;
}

static int cutting(const struct fault_data *d)
{
	return d->kind == FAULT_CUT || d->kind == FAULT_CUT_LAST ||
	       d->kind == FAULT_CUT_HALF;
}

/* 1 to fail, 2 to drop, 0 to write. */
static int write_fault(struct fault_data *d)
{
	if (++d->writes != d->target)
		return 0;
	if (d->kind == FAULT_SIGINT_WRITE)
		raise(SIGINT);	/* then the write is made */
	if (cutting(d))
		power_cut(d);
	return d->kind == FAULT_WRITE ? 1 : d->kind == FAULT_DROP ? 2 : 0;
}

static errcode_t fault_write_blk64(io_channel channel,
				   unsigned long long block, int count,
				   const void *data)
{
	struct fault_data *d = data_of(channel);
	errcode_t retval;

	switch (write_fault(d)) {
	case 1:
		return EIO;
	case 2:
		return 0;
	}
	if (cutting(d)) {
		retval = remember_write(d, block, count, data);
		if (retval)
			return retval;
	}
	return io_channel_write_blk64(d->layer.inner, block, count, data);
}

static errcode_t fault_write_blk(io_channel channel, unsigned long block,
				 int count, const void *data)
{
	return fault_write_blk64(channel, block, count, data);
}

static errcode_t fault_write_byte(io_channel channel, unsigned long offset,
				  int count, const void *data)
{
	struct fault_data *d = data_of(channel);

	switch (write_fault(d)) {
	case 1:
		return EIO;
	case 2:
		return 0;
	}
	return io_channel_write_byte(d->layer.inner, offset, count, data);
}

/*
 * With E2FOLD_FAULT_FLUSHES=FILE, each flush of the filesystem's channel
 * appends the number of block writes made before it: a power cut (cut:N)
 * leaves the same image at every N between two flushes, so a test cuts
 * once between each pair instead of at every write.
 */
static void log_flush(const struct fault_data *d)
{
	FILE *f = log_file("E2FOLD_FAULT_FLUSHES", d);

	if (!f)
		return;
	fprintf(f, "%lu\n", d->writes);
	fclose(f);
}

static errcode_t fault_flush(io_channel channel)
{
	struct fault_data *d = data_of(channel);
	errcode_t retval = io_channel_flush(d->layer.inner);

	if (!retval) {
		forget_unflushed(d);
		log_flush(d);
	}
	return retval;
}

static errcode_t fault_discard(io_channel channel, unsigned long long block,
			       unsigned long long count)
{
	return io_channel_discard(data_of(channel)->layer.inner, block, count);
}

static errcode_t fault_zeroout(io_channel channel, unsigned long long block,
			       unsigned long long count)
{
	return io_channel_zeroout(data_of(channel)->layer.inner, block, count);
}

static struct struct_io_manager fault_manager = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "e2fold fault-injection I/O manager",
	.open = fault_open,
	.close = fault_close,
	.set_blksize = e2fold_io_layer_set_blksize,
	.read_blk = fault_read_blk,
	.write_blk = fault_write_blk,
	.flush = fault_flush,
	.write_byte = fault_write_byte,
	.set_option = e2fold_io_layer_set_option,
	.get_stats = e2fold_io_layer_get_stats,
	.read_blk64 = fault_read_blk64,
	.write_blk64 = fault_write_blk64,
	.discard = fault_discard,
	.zeroout = fault_zeroout,
};

io_manager e2fold_fault_io_manager = &fault_manager;

io_manager e2fold_default_io_manager(void)
{
	return getenv("E2FOLD_FAULT") ? e2fold_fault_io_manager :
	       unix_io_manager;
}
