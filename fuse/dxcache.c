/*
 * dxcache.c: the hash-tree indexes of the directories being served, kept
 * between requests while what they were read from stays the same.
 *
 * A lookup through the index reads the directory's inode, its block map
 * and every index block before the one leaf it needs: about 6 blocks,
 * and 2,000 leaves parsed, in a directory of 100,000 names. The kernel
 * keeps those blocks in its buffer cache; this keeps what they parse to.
 * A kept index stays true while its sources do:
 *   - its index blocks (the root and the interior nodes), which the
 *     filesystem's I/O layer names when anything writes them (txnio.h:
 *     every change e2fold-fuse makes reaches it at once);
 *   - the directory's block map, held in the inode itself for a
 *     directory of up to four extents (a deeper map lives in blocks not
 *     followed here: any write at all forgets such an index);
 *   - the inode's flags, size and block count, compared when the index
 *     is handed out.
 * A leaf written (a name added or removed in place), or another inode,
 * leaves the index as it was. A read-only mount writes nothing.
 * Checked by tests/fuse_index_cache.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "e2fuse.h"
#include "txnio.h"

/* Directories kept: a few busy ones at a time is what serving sees. */
#define KEPT 8

struct kept {
	struct e2fold_dir *d;	/* NULL: free */
	unsigned long long used;
	int lent;		/* handed out, not yet done */
	int stale;		/* a source written since it was read */
	int deep_map;		/* block map outside the inode */
	blk64_t *sources;	/* physical blocks of the index */
	size_t nsources;
};

struct e2fuse_index_cache {
	unsigned long long tick;	/* for the least recently used */
	int watched;			/* the I/O layer tells of writes */
	struct kept kept[KEPT];
};

static void drop(struct kept *k)
{
	if (k->d)
		e2fold_dir_free(k->d);
	free(k->sources);
	memset(k, 0, sizeof(*k));
}

/* The I/O layer's news: blocks [block, block + count) are being written. */
static void written(void *arg, blk64_t block, int count)
{
	struct e2fuse_index_cache *c = arg;
	size_t i, j;

	for (i = 0; i < KEPT; i++) {
		struct kept *k = &c->kept[i];

		if (!k->d || k->stale)
			continue;
		if (k->deep_map)
			k->stale = 1;
		for (j = 0; j < k->nsources && !k->stale; j++)
			if (k->sources[j] >= block &&
			    k->sources[j] - block < (blk64_t)count)
				k->stale = 1;
	}
}

static struct e2fuse_index_cache *cache_of(struct e2fuse *srv)
{
	struct e2fuse_index_cache *c = srv->indexes;

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	/* Without the layer only a read-only mount is sure to write nothing. */
	c->watched = !e2fold_txn_watch(srv->fs, written, c);
	if (!c->watched && !srv->opt.readonly) {
		free(c);
		return NULL;
	}
	srv->indexes = c;
	return c;
}

/* At close, between requests: nothing is lent. */
void e2fuse_index_free(struct e2fuse *srv)
{
	struct e2fuse_index_cache *c = srv->indexes;
	size_t i;

	if (!c)
		return;
	for (i = 0; i < KEPT; i++)
		drop(&c->kept[i]);
	if (c->watched)
		e2fold_txn_watch(srv->fs, NULL, NULL);
	free(c);
	srv->indexes = NULL;
}

/* Is the inode what the index was read with (flags, size, map)? */
static int same_inode(struct e2fuse *srv, const struct e2fold_dir *d)
{
	struct ext2_inode_large now;

	if (ext2fs_read_inode_full(srv->fs, d->ino, (struct ext2_inode *)&now,
				   sizeof(now)))
		return 0;
	return now.i_flags == d->inode.i_flags &&
	       now.i_size == d->inode.i_size &&
	       now.i_size_high == d->inode.i_size_high &&
	       now.i_blocks == d->inode.i_blocks &&
	       now.osd2.linux2.l_i_blocks_hi ==
			d->inode.osd2.linux2.l_i_blocks_hi &&
	       !memcmp(now.i_block, d->inode.i_block, sizeof(now.i_block));
}

/* The map is in the inode: no extents, or extents of depth 0. */
static int map_in_inode(const struct e2fold_dir *d)
{
	const unsigned char *h = (const unsigned char *)d->inode.i_block;

	if (!(d->inode.i_flags & EXT4_EXTENTS_FL))
		return 0;	/* block maps have indirect blocks */
	/* ext3_extent_header: magic 0xF30A, then entries, max, depth. */
	return h[0] == 0x0A && h[1] == 0xF3 && h[6] == 0 && h[7] == 0;
}

/* Where the index's blocks are; 0, or an error (then not kept). */
static errcode_t find_sources(struct e2fuse *srv, struct kept *k)
{
	const struct e2fold_dir *d = k->d;
	errcode_t retval;
	size_t i;

	k->deep_map = !map_in_inode(d);
	k->sources = calloc(d->nnodes + 1, sizeof(*k->sources));
	if (!k->sources)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i <= d->nnodes; i++) {
		blk64_t lblk = i ? d->nodes[i - 1].lblk : 0;

		retval = ext2fs_bmap2(srv->fs, d->ino, NULL, NULL, 0, lblk,
				      NULL, &k->sources[i]);
		if (retval)
			return retval;
	}
	k->nsources = d->nnodes + 1;
	return 0;
}

static struct kept *find_kept(struct e2fuse_index_cache *c, ext2_ino_t dir)
{
	size_t i;

	for (i = 0; i < KEPT; i++)
		if (c->kept[i].d && c->kept[i].d->ino == dir)
			return &c->kept[i];
	return NULL;
}

/* A free slot, or the least recently used one, emptied; NULL if all lent. */
static struct kept *free_slot(struct e2fuse_index_cache *c)
{
	struct kept *k = NULL;
	size_t i;

	for (i = 0; i < KEPT; i++) {
		if (c->kept[i].lent)
			continue;
		if (!c->kept[i].d)
			return &c->kept[i];
		if (!k || c->kept[i].used < k->used)
			k = &c->kept[i];
	}
	if (k)
		drop(k);
	return k;
}

errcode_t e2fuse_index_get(struct e2fuse *srv, ext2_ino_t dir,
			   struct e2fold_dir **ret_dir)
{
	struct e2fuse_index_cache *c = cache_of(srv);
	struct kept *k = c ? find_kept(c, dir) : NULL;
	errcode_t retval;

	if (k && !k->lent && (k->stale || !same_inode(srv, k->d)))
		drop(k);
	else if (k && !k->lent)
		goto lend;
	/* Lent already (a second use within one request): a copy of its own. */
	k = c && !(k && k->lent) ? free_slot(c) : NULL;
	retval = e2fold_dir_read_index(srv->fs, dir, ret_dir);
	if (retval || !k)
		return retval;
	k->d = *ret_dir;
	if (find_sources(srv, k)) {
		k->d = NULL;	/* the caller's, freed at done */
		drop(k);
		return 0;
	}
lend:
	k->used = ++c->tick;
	k->lent = 1;
	/* Entries of leaves read for an earlier request are not this one's. */
	k->d->nents = 0;
	*ret_dir = k->d;
	return 0;
}

void e2fuse_index_done(struct e2fuse *srv, struct e2fold_dir *d)
{
	struct e2fuse_index_cache *c = srv->indexes;
	size_t i;

	for (i = 0; c && i < KEPT; i++) {
		if (c->kept[i].d != d)
			continue;
		c->kept[i].lent = 0;
		if (c->kept[i].stale)
			drop(&c->kept[i]);
		return;
	}
	e2fold_dir_free(d);
}
