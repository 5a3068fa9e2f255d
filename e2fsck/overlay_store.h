/*
 * overlay_store.h: what overlay.c, overlay_journal.c and
 * overlay_inplace.c share about an overlay that e2fsck left (overlay.h):
 * its map, its data, and the two ways of applying it.
 */
#ifndef E2FOLD_OVERLAY_STORE_H
#define E2FOLD_OVERLAY_STORE_H

#include <sys/types.h>

#include <ext2fs/ext2fs.h>

/* The preload library's map: the unit size and a bit per unit written. */
struct overlay_map {
	unsigned int unit;
	unsigned char *bits;
	size_t nbytes;
};

int overlay_unit_present(const struct overlay_map *map, size_t u);

/* len bytes at off of fd, all of them, or an errcode_t. */
errcode_t overlay_read_at(int fd, void *buf, size_t len, off_t off);

/*
 * Through the journal of fs (opened read-write, through the undo manager
 * if asked): 1 when done or failed (*ret), 0 when the journal cannot take
 * it (none, one e2fold does not write, or one e2fsck changed), nothing
 * written then. *ret_transactions: how many were committed.
 */
int overlay_apply_journaled(ext2_filsys fs, const struct overlay_map *map,
			    int ofd, errcode_t *ret,
			    unsigned int *ret_transactions);

/*
 * In place through io (its block size becomes 1 KiB), resumable: the
 * pieces that differ are listed in dir/applying (written and flushed
 * before the first of them is), then written, the superblocks last; fs,
 * if not NULL, says where the journal's superblock lies.
 */
errcode_t overlay_apply_in_place(io_channel io, ext2_filsys fs,
				 const struct overlay_map *map, int ofd,
				 const char *device, const char *dir);

/*
 * An apply in place that a crash cut short (dir/applying exists): 0 and
 * *ret_found 0 when there is none; with may_write, finish it through io
 * if every listed piece of the device still holds its old or its new
 * contents (*ret_found 1), else EXT2_ET_BAD_MAGIC (the device changed
 * since: nothing written).
 */
errcode_t overlay_resume_in_place(io_channel io, int ofd, const char *dir,
				  int *ret_found);

#endif /* E2FOLD_OVERLAY_STORE_H */
