/*
 * dxcache.c: the hash-tree indexes of the directories being served, kept
 * between requests while nothing is written.
 *
 * A lookup through the index reads the directory's inode, its block map
 * and every index block before the one leaf it needs: about 6 blocks,
 * and 2,000 leaves parsed, in a directory of 100,000 names. The kernel
 * keeps those blocks in its buffer cache; this keeps what they parse to.
 * Any block write through the filesystem's I/O layer (txnio.h: every
 * change e2fold-fuse makes reaches it at once) forgets every kept index,
 * so that a kept index is always what the blocks hold now, whatever
 * wrote them. A read-only mount writes nothing, so its indexes stay.
 * Checked by tests/fuse_index_cache.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "e2fuse.h"
#include "txnio.h"

/* Directories kept: a few busy ones at a time is what serving sees. */
#define KEPT 8

struct e2fuse_index_cache {
	unsigned long long writes;	/* e2fold_txn_writes when they were read */
	unsigned long long tick;	/* for the least recently used */
	struct kept {
		struct e2fold_dir *d;	/* NULL: free */
		unsigned long long used;
		int lent;		/* handed out, not yet done */
		int stale;		/* forgotten while lent */
	} kept[KEPT];
};

/* The write count that dates what was read; -1: nothing may be kept. */
static int writes_now(const struct e2fuse *srv, unsigned long long *ret)
{
	if (!e2fold_txn_writes(srv->fs, ret))
		return 0;
	/* Opened without the layer, read-only: nothing is ever written. */
	if (srv->opt.readonly) {
		*ret = 0;
		return 0;
	}
	return -1;
}

void e2fuse_index_forget(struct e2fuse *srv)
{
	struct e2fuse_index_cache *c = srv->indexes;
	size_t i;

	if (!c)
		return;
	for (i = 0; i < KEPT; i++) {
		if (!c->kept[i].d)
			continue;
		/* A lent index is freed when it comes back. */
		if (c->kept[i].lent) {
			c->kept[i].stale = 1;
			continue;
		}
		e2fold_dir_free(c->kept[i].d);
		c->kept[i].d = NULL;
	}
}

void e2fuse_index_free(struct e2fuse *srv)
{
	e2fuse_index_forget(srv);
	free(srv->indexes);
	srv->indexes = NULL;
}

static struct kept *find_kept(struct e2fuse_index_cache *c, ext2_ino_t dir)
{
	size_t i;

	for (i = 0; i < KEPT; i++)
		if (c->kept[i].d && !c->kept[i].stale &&
		    c->kept[i].d->ino == dir)
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
	if (k) {
		e2fold_dir_free(k->d);
		k->d = NULL;
	}
	return k;
}

errcode_t e2fuse_index_get(struct e2fuse *srv, ext2_ino_t dir,
			   struct e2fold_dir **ret_dir)
{
	struct e2fuse_index_cache *c = srv->indexes;
	unsigned long long writes;
	struct kept *k;
	errcode_t retval;

	if (writes_now(srv, &writes))
		return e2fold_dir_read_index(srv->fs, dir, ret_dir);
	if (!c) {
		c = srv->indexes = calloc(1, sizeof(*c));
		if (!c)
			return e2fold_dir_read_index(srv->fs, dir, ret_dir);
		c->writes = writes;
	}
	if (c->writes != writes) {
		e2fuse_index_forget(srv);
		c->writes = writes;
	}
	k = find_kept(c, dir);
	if (!k || k->lent) {
		k = k ? NULL : free_slot(c);
		retval = e2fold_dir_read_index(srv->fs, dir, ret_dir);
		if (retval || !k)
			return retval;
		k->d = *ret_dir;
	}
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
	unsigned long long writes;
	size_t i;

	for (i = 0; c && i < KEPT; i++) {
		if (c->kept[i].d != d)
			continue;
		c->kept[i].lent = 0;
		/* Forgotten while it was lent, or written since. */
		if (c->kept[i].stale || writes_now(srv, &writes) ||
		    writes != c->writes) {
			e2fold_dir_free(d);
			c->kept[i].d = NULL;
			c->kept[i].stale = 0;
		}
		return;
	}
	e2fold_dir_free(d);
}
