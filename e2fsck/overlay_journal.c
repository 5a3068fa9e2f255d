/* overlay_journal.c: e2fsck's repairs through the journal (overlay.h). */
#include "config.h"

#include <string.h>

#include "array.h"
#include "journal.h"
#include "overlay_store.h"

struct changed {
	blk64_t *blocks;
	size_t n, cap;
};

/* Is block one of the journal's own? */
static int in_journal(const struct e2fold_journal *j, blk64_t block)
{
	for (size_t i = 0; i < j->nruns; i++)
		if (block >= j->runs[i].physical &&
		    block < j->runs[i].physical + j->runs[i].len)
			return 1;
	return 0;
}

/*
 * The filesystem blocks whose overlay contents differ from the device's,
 * in block order with the primary superblock's last (a change too large
 * for one transaction then commits it in the last).
 */
static errcode_t find_changed(ext2_filsys fs, const struct overlay_map *map,
			      int ofd, blk64_t sb_block, struct changed *c)
{
	unsigned char *old = NULL, *new = NULL;
	blk64_t nblocks = ext2fs_blocks_count(fs->super);
	int sb_changed = 0;
	errcode_t retval;

	retval = ext2fs_get_mem(fs->blocksize, &old);
	if (!retval)
		retval = ext2fs_get_mem(fs->blocksize, &new);
	for (size_t u = 0; !retval && u < map->nbytes * 8; u++) {
		blk64_t b, first, last;

		if (!overlay_unit_present(map, u))
			continue;
		first = (blk64_t)u * map->unit / fs->blocksize;
		last = ((blk64_t)(u + 1) * map->unit - 1) / fs->blocksize;
		for (b = first; b <= last && b < nblocks && !retval; b++) {
			retval = overlay_read_at(ofd, new, fs->blocksize,
					 (off_t)b * fs->blocksize);
			if (!retval)
				retval = io_channel_read_blk64(fs->io, b, 1,
							       old);
			if (retval || !memcmp(old, new, fs->blocksize))
				continue;
			if (b == sb_block) {
				sb_changed = 1;
				continue;
			}
			retval = e2fold_array_reserve(&c->blocks, &c->cap,
						      c->n + 1,
						      sizeof(*c->blocks));
			if (!retval)
				c->blocks[c->n++] = b;
		}
	}
	if (!retval && sb_changed) {
		retval = e2fold_array_reserve(&c->blocks, &c->cap, c->n + 1,
					      sizeof(*c->blocks));
		if (!retval)
			c->blocks[c->n++] = sb_block;
	}
	ext2fs_free_mem(&old);
	ext2fs_free_mem(&new);
	return retval;
}

/*
 * Did e2fsck change the journal's inode (recreated, cleared, moved)?
 * Then the journal on the device is not the one to write through.
 */
static errcode_t journal_inode_changed(ext2_filsys fs,
				       const struct overlay_map *map, int ofd,
				       int *changed)
{
	ext2_ino_t ino = fs->super->s_journal_inum;
	unsigned int size = EXT2_INODE_SIZE(fs->super);
	dgrp_t group = (ino - 1) / fs->super->s_inodes_per_group;
	unsigned long long off = (unsigned long long)
		((ino - 1) % fs->super->s_inodes_per_group) * size;
	blk64_t block = ext2fs_inode_table_loc(fs, group) + off / fs->blocksize;
	unsigned char *old = NULL, *new = NULL;
	errcode_t retval;

	*changed = 0;
	if (!overlay_unit_present(map, (unsigned long long)block * fs->blocksize /
				    map->unit))
		return 0;
	retval = ext2fs_get_mem(fs->blocksize, &old);
	if (!retval)
		retval = ext2fs_get_mem(fs->blocksize, &new);
	if (!retval)
		retval = io_channel_read_blk64(fs->io, block, 1, old);
	if (!retval)
		retval = overlay_read_at(ofd, new, fs->blocksize,
				 (off_t)block * fs->blocksize);
	if (!retval)
		*changed = memcmp(old + off % fs->blocksize,
				  new + off % fs->blocksize, size) != 0;
	ext2fs_free_mem(&old);
	ext2fs_free_mem(&new);
	return retval;
}

/*
 * Commit the changed blocks, as few transactions as the log allows,
 * each loaded from the overlay just before. *ret_n: how many.
 */
static errcode_t commit_changed(struct e2fold_journal *j, int ofd,
				const struct changed *c, unsigned int *ret_n)
{
	__u32 cap = e2fold_journal_capacity(j);
	struct e2fold_jblock *list = NULL;
	unsigned char *data = NULL;
	size_t start = 0;
	errcode_t retval;

	*ret_n = 0;
	if (!c->n)
		return 0;
	retval = ext2fs_get_array(c->n, sizeof(*list), &list);
	while (!retval && start < c->n) {
		size_t n = 1;

		while (start + n < c->n &&
		       e2fold_journal_needed(j, n + 1, 0) <= cap)
			n++;
		if (e2fold_journal_needed(j, n, 0) > cap) {
			retval = EXT2_ET_JOURNAL_TOO_SMALL;
			break;
		}
		retval = ext2fs_get_array(n, j->blocksize, &data);
		for (size_t i = 0; !retval && i < n; i++) {
			list[i].block = c->blocks[start + i];
			list[i].data = data + i * j->blocksize;
			retval = overlay_read_at(ofd, data + i * j->blocksize,
					 j->blocksize,
					 (off_t)list[i].block * j->blocksize);
		}
		if (!retval)
			retval = e2fold_journal_commit(j, list, n, NULL, 0,
						       E2FOLD_JOURNAL_COMPLETE);
		ext2fs_free_mem(&data);
		if (!retval)
			(*ret_n)++;
		start += n;
	}
	ext2fs_free_mem(&list);
	return retval;
}

int overlay_apply_journaled(ext2_filsys fs, const struct overlay_map *map,
			    int ofd, errcode_t *ret,
			    unsigned int *ret_transactions)
{
	struct e2fold_journal *j = NULL;
	struct changed c = { 0 };
	int unusable = 0;
	errcode_t retval;

	*ret = 0;
	if (e2fold_journal_open(fs, fs->io, &j))
		return 0;
	retval = journal_inode_changed(fs, map, ofd, &unusable);
	if (!retval && !unusable)
		retval = find_changed(fs, map, ofd, j->fs_super_block, &c);
	for (size_t i = 0; !retval && !unusable && i < c.n; i++)
		if (in_journal(j, c.blocks[i]))
			unusable = 1;
	if (retval || unusable) {
		/* Nothing written but needs_recovery: cleared again. */
		e2fold_journal_close(j);
		ext2fs_free_mem(&c.blocks);
		*ret = retval;
		return retval != 0;
	}
	retval = commit_changed(j, ofd, &c, ret_transactions);
	if (retval)
		e2fold_journal_free(j);	/* left for the replay to settle */
	else
		retval = e2fold_journal_close(j);
	ext2fs_free_mem(&c.blocks);
	*ret = retval;
	return 1;
}

