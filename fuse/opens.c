/*
 * opens.c: which inodes have open files, so that a file unlinked while
 * open keeps its contents until it is closed, as under Linux. The list
 * is short (one entry per inode with open files) and searched linearly.
 * A crash in between leaves an inode without links, which e2fsck frees
 * (the kernel would have recorded it in its orphan list).
 */
#include "config.h"

#include <stdlib.h>

#include "array.h"
#include "e2fuse.h"
#include "newinode.h"

static struct e2fuse_open *find(struct e2fuse *srv, ext2_ino_t ino)
{
	size_t i;

	for (i = 0; i < srv->nopens; i++)
		if (srv->opens[i].ino == ino)
			return &srv->opens[i];
	return NULL;
}

errcode_t e2fuse_opened(struct e2fuse *srv, ext2_ino_t ino)
{
	struct e2fuse_open *o = find(srv, ino);

	if (!o) {
		errcode_t retval = e2fold_array_reserve(&srv->opens,
							&srv->opens_cap,
							srv->nopens + 1,
							sizeof(*srv->opens));

		if (retval)
			return retval;
		o = &srv->opens[srv->nopens++];
		o->ino = ino;
		o->count = 0;
		o->unlinked = 0;
	}
	o->count++;
	return 0;
}

errcode_t e2fuse_released(struct e2fuse *srv, ext2_ino_t ino)
{
	struct e2fuse_open *o = find(srv, ino);
	int unlinked;

	if (!o || --o->count)
		return 0;
	unlinked = o->unlinked;
	*o = srv->opens[--srv->nopens];
	if (unlinked && !srv->opt.readonly)
		return e2fold_free_inode(srv->fs, ino, e2fuse_now(srv));
	return 0;
}

errcode_t e2fuse_unlinked(struct e2fuse *srv, ext2_ino_t ino)
{
	struct e2fuse_open *o = find(srv, ino);

	if (o) {
		o->unlinked = 1;
		return 0;
	}
	return e2fold_free_inode(srv->fs, ino, e2fuse_now(srv));
}

void e2fuse_free_orphans(struct e2fuse *srv)
{
	size_t i;

	for (i = 0; i < srv->nopens; i++)
		if (srv->opens[i].unlinked && !srv->opt.readonly)
			e2fold_free_inode(srv->fs, srv->opens[i].ino,
					  e2fuse_now(srv));
	free(srv->opens);
	srv->opens = NULL;
	srv->nopens = srv->opens_cap = 0;
}
