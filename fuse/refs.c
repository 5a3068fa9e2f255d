/*
 * refs.c: the inodes the kernel holds, and the orphans among them.
 *
 * Every reply that hands the kernel an inode (lookup, create, mknod,
 * mkdir, symlink, link) adds one to that inode's lookup count, and the
 * kernel gives them back with forget when it drops the inode (libfuse's
 * contract); an open file, an O_PATH handle or a working directory keeps
 * the inode, so no forget comes while they last. An inode whose last
 * link goes while the kernel holds it stays allocated, as ext4 keeps it
 * on its orphan list until its last reference goes: its number cannot be
 * reused, so a handle to it never reaches another file (freeing it at
 * the last unlink once let a user's stale handle read root's new file).
 * It is put on the filesystem's orphan list (the superblock's
 * s_last_orphan, chained through each inode's i_dtime), so that a crash
 * frees it at the next check or read-write mount, and it is freed when
 * forgotten, or at unmount.
 *
 * The counts live in a hash table with open addressing, keyed by inode
 * number; the orphans in an array in chain order (the first is the one
 * s_last_orphan names), short because orphans are.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "e2fuse.h"
#include "newinode.h"

struct e2fuse_ref {
	ext2_ino_t ino;		/* 0: a free slot */
	__u64 nlookup;
};

static size_t slot_of(const struct e2fuse *srv, ext2_ino_t ino)
{
	return (ino * 2654435761u) & (srv->refs_cap - 1);
}

static struct e2fuse_ref *find(const struct e2fuse *srv, ext2_ino_t ino)
{
	size_t i;

	if (!srv->refs_cap)
		return NULL;
	for (i = slot_of(srv, ino); srv->refs[i].ino;
	     i = (i + 1) & (srv->refs_cap - 1))
		if (srv->refs[i].ino == ino)
			return &srv->refs[i];
	return NULL;
}

/* Twice the slots, every count moved; the table stays at most half full. */
static errcode_t grow(struct e2fuse *srv)
{
	size_t cap = srv->refs_cap ? 2 * srv->refs_cap : 1024, i;
	struct e2fuse_ref *old = srv->refs, *refs = calloc(cap, sizeof(*refs));
	size_t old_cap = srv->refs_cap;

	if (!refs)
		return EXT2_ET_NO_MEMORY;
	srv->refs = refs;
	srv->refs_cap = cap;
	for (i = 0; i < old_cap; i++) {
		size_t j;

		if (!old[i].ino)
			continue;
		for (j = slot_of(srv, old[i].ino); refs[j].ino;
		     j = (j + 1) & (cap - 1))
			;
		refs[j] = old[i];
	}
	free(old);
	return 0;
}

errcode_t e2fuse_ref(struct e2fuse *srv, ext2_ino_t ino)
{
	struct e2fuse_ref *r = find(srv, ino);
	errcode_t retval;
	size_t i;

	if (r) {
		r->nlookup++;
		return 0;
	}
	if (2 * (srv->nrefs + 1) > srv->refs_cap) {
		retval = grow(srv);
		if (retval)
			return retval;
	}
	for (i = slot_of(srv, ino); srv->refs[i].ino;
	     i = (i + 1) & (srv->refs_cap - 1))
		;
	srv->refs[i].ino = ino;
	srv->refs[i].nlookup = 1;
	srv->nrefs++;
	return 0;
}

/* Take slot r out, moving later entries of its run back (no tombstones). */
static void remove_slot(struct e2fuse *srv, struct e2fuse_ref *r)
{
	size_t mask = srv->refs_cap - 1, i = r - srv->refs, j = i;

	srv->refs[i].ino = 0;
	srv->nrefs--;
	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!srv->refs[j].ino)
			return;
		home = slot_of(srv, srv->refs[j].ino);
		/* Leave it if its home lies cyclically in (i, j]. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		srv->refs[i] = srv->refs[j];
		srv->refs[j].ino = 0;
		i = j;
	}
}

/* ---- the orphan list ---- */

static size_t orphan_index(const struct e2fuse *srv, ext2_ino_t ino)
{
	size_t i;

	for (i = 0; i < srv->norphans; i++)
		if (srv->orphans[i] == ino)
			return i;
	return srv->norphans;
}

/* The link to the orphan at index i: the superblock or the one before. */
static errcode_t set_link_to(struct e2fuse *srv, size_t i, ext2_ino_t next)
{
	struct ext2_inode_large inode;
	errcode_t retval;

	if (i == 0) {
		srv->fs->super->s_last_orphan = next;
		ext2fs_mark_super_dirty(srv->fs);
		return 0;
	}
	retval = e2fuse_read_inode(srv, srv->orphans[i - 1], &inode);
	if (retval)
		return retval;
	inode.i_dtime = next;
	return e2fuse_write_inode(srv, srv->orphans[i - 1], &inode);
}

/* ino, without links, heads the orphan list (as ext4_orphan_add). */
static errcode_t orphan_add(struct e2fuse *srv, ext2_ino_t ino)
{
	struct ext2_inode_large inode;
	errcode_t retval;

	retval = e2fold_array_reserve(&srv->orphans, &srv->orphans_cap,
				      srv->norphans + 1, sizeof(*srv->orphans));
	if (!retval)
		retval = e2fuse_read_inode(srv, ino, &inode);
	if (retval)
		return retval;
	inode.i_dtime = srv->fs->super->s_last_orphan;
	retval = e2fuse_write_inode(srv, ino, &inode);
	if (retval)
		return retval;
	memmove(srv->orphans + 1, srv->orphans,
		srv->norphans * sizeof(*srv->orphans));
	srv->orphans[0] = ino;
	srv->norphans++;
	return set_link_to(srv, 0, ino);
}

/* The orphan ino leaves the list and is freed (as ext4_orphan_del). */
static errcode_t orphan_free(struct e2fuse *srv, ext2_ino_t ino)
{
	size_t i = orphan_index(srv, ino);
	errcode_t retval;

	if (i == srv->norphans)
		return 0;
	retval = set_link_to(srv, i, i + 1 < srv->norphans ?
			     srv->orphans[i + 1] : 0);
	if (retval)
		return retval;
	memmove(srv->orphans + i, srv->orphans + i + 1,
		(srv->norphans - i - 1) * sizeof(*srv->orphans));
	srv->norphans--;
	return e2fold_free_inode(srv->fs, ino, e2fuse_now(srv));
}

int e2fuse_held(const struct e2fuse *srv, ext2_ino_t ino)
{
	return find(srv, ino) != NULL;
}

errcode_t e2fuse_unlinked(struct e2fuse *srv, ext2_ino_t ino)
{
	if (find(srv, ino))
		return orphan_add(srv, ino);
	return e2fold_free_inode(srv->fs, ino, e2fuse_now(srv));
}

void e2fuse_unref(struct e2fuse *srv, ext2_ino_t ino, __u64 n)
{
	struct e2fuse_ref *r = find(srv, ino);

	if (!r)
		return;
	if (r->nlookup > n) {
		r->nlookup -= n;
		return;
	}
	remove_slot(srv, r);
	if (e2fuse_may_write(srv))
		orphan_free(srv, ino);
}

void e2fuse_forget(fuse_req_t req, fuse_ino_t node, uint64_t nlookup)
{
	e2fuse_unref(e2fuse_of(req), e2fuse_ino(node), nlookup);
	fuse_reply_none(req);
}

void e2fuse_forget_multi(fuse_req_t req, size_t count,
			 struct fuse_forget_data *forgets)
{
	struct e2fuse *srv = e2fuse_of(req);
	size_t i;

	for (i = 0; i < count; i++)
		e2fuse_unref(srv, e2fuse_ino(forgets[i].ino),
			     forgets[i].nlookup);
	fuse_reply_none(req);
}

void e2fuse_free_orphans(struct e2fuse *srv)
{
	while (srv->norphans && e2fuse_may_write(srv) &&
	       !orphan_free(srv, srv->orphans[0]))
		;
	free(srv->orphans);
	srv->orphans = NULL;
	srv->norphans = srv->orphans_cap = 0;
	free(srv->refs);
	srv->refs = NULL;
	srv->nrefs = srv->refs_cap = 0;
}

errcode_t e2fuse_orphan_cleanup(struct e2fuse *srv)
{
	ext2_filsys fs = srv->fs;
	ext2_ino_t ino = fs->super->s_last_orphan, next;
	__u32 seen = 0;
	errcode_t retval = 0;

	fs->super->s_last_orphan = 0;
	ext2fs_mark_super_dirty(fs);
	/* A hostile chain may loop or leave the table: bounded and checked. */
	while (ino && !retval && seen++ < fs->super->s_inodes_count) {
		struct ext2_inode_large inode;

		if (ino < EXT2_FIRST_INODE(fs->super) ||
		    ino > fs->super->s_inodes_count)
			break;
		retval = e2fuse_read_inode(srv, ino, &inode);
		if (retval)
			break;
		next = inode.i_dtime;
		if (!inode.i_links_count) {
			retval = e2fold_free_inode(fs, ino, e2fuse_now(srv));
		} else {
			/* A truncate the crash cut short: blocks past i_size go. */
			blk64_t start = (EXT2_I_SIZE(&inode) + fs->blocksize - 1) /
					fs->blocksize;

			inode.i_dtime = 0;
			retval = e2fuse_write_inode(srv, ino, &inode);
			if (!retval &&
			    ext2fs_inode_has_valid_blocks2(fs,
						(struct ext2_inode *)&inode))
				retval = ext2fs_punch(fs, ino, NULL, NULL, start,
						      ~0ULL);
		}
		ino = next;
	}
	return retval;
}
