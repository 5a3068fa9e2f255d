/*
 * dxinsert.c: a new name in a hash-indexed directory, placed as
 * ext4_dx_add_entry places it (fs/ext4/namei.c):
 *   - down the index with dx_probe's binary search (in each index block,
 *     the last entry whose stored hash is at most the name's hash) to the
 *     leaf the hash leads to, remembering the lowest index block;
 *   - into that leaf if it has room;
 *   - otherwise do_split: the leaf's entries sorted by hash, those that
 *     fill at most half a block (counted from the top) move to a new block
 *     appended to the directory, an index entry for the new block goes in
 *     after the old one, with bit 0 set when the first hash moved equals
 *     the last one kept (a continued hash), and the name goes into the
 *     half its hash belongs to.
 * When the index block that leads to a full leaf is full too, room is
 * made first as the kernel makes it, from the highest full index block
 * on the way down: a full interior block is split in two halves (the
 * upper half moves to a new block, its first hash goes into the parent),
 * a full root gets a level (its entries move to a new block, the root
 * keeps one entry leading there), and the walk down starts again. Only a
 * full root at the deepest level the filesystem allows is an index with
 * no room (the kernel's ENOSPC): EXT2_ET_DIR_NO_SPACE, and the caller
 * rewrites the directory instead.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diredit.h"
#include "encoding.h"
#include "htree.h"

/* One index block on the way to a leaf. */
struct dx_frame {
	unsigned char *buf;
	blk64_t pblk;
	unsigned int offset;	/* its count/limit and entries */
	unsigned int count, limit;
	unsigned int at;	/* the entry that leads to the leaf */
};

/* One live entry of a leaf being split. */
struct map_ent {
	__u32 hash;
	unsigned int off;
	unsigned int size;	/* its rec_len, as do_split counts it */
};

/* The walk from the root to a leaf: one frame per index block. */
struct dx_path {
	struct dx_frame f[E2FOLD_DX_MAX_DEPTH];
	int n;			/* frames used: indirect_levels + 1 */
	int levels;		/* the root's indirect_levels now */
	blk64_t next_lblk;	/* where the directory's next block goes */
};

/* dx_probe for hash: fills the path's frames and the leaf's block. */
static errcode_t descend(ext2_filsys fs, const struct e2fold_dir *d,
			 __u32 hash, struct dx_path *path, blk64_t *ret_leaf)
{
	unsigned int offset = E2FOLD_DX_ROOT_ENTRIES_OFFSET;
	blk64_t lblk = 0;

	for (path->n = 0; path->n <= path->levels; path->n++) {
		struct dx_frame *f = &path->f[path->n];
		const unsigned char *e;
		long p, q;
		errcode_t retval = e2fold_dirblock_read(fs, d->ino, lblk, f->buf,
						 &f->pblk);

		if (retval)
			return retval;
		f->offset = offset;
		e = f->buf + offset;
		f->limit = e2fold_dx_limit(e);
		f->count = e2fold_dx_count(e);
		if (!f->count || f->count > f->limit)
			return EXT2_ET_DIR_CORRUPTED;
		p = 1;
		q = (long)f->count - 1;
		while (p <= q) {
			long m = p + (q - p) / 2;

			if (e2fold_dx_hash(e, m) > hash)
				q = m - 1;
			else
				p = m + 1;
		}
		f->at = p - 1;
		lblk = e2fold_dx_block(e, f->at);
		offset = E2FOLD_DX_NODE_ENTRIES_OFFSET;
	}
	*ret_leaf = lblk;
	return 0;
}

/* Add an index entry for newlblk after f->at; write the index block. */
static errcode_t insert_index(ext2_filsys fs, const struct e2fold_dir *d,
			      struct dx_frame *f, __u32 hash, blk64_t newlblk)
{
	unsigned char *e = f->buf + f->offset;
	unsigned char *at = e + E2FOLD_DX_ENTRY_SIZE * (f->at + 1);

	memmove(at + E2FOLD_DX_ENTRY_SIZE, at,
		E2FOLD_DX_ENTRY_SIZE * (f->count - f->at - 1));
	e2fold_dx_put(e, f->at + 1, hash, (__u32)newlblk);
	e2fold_dx_set_count(e, f->count + 1);
	return ext2fs_write_dir_block4(fs, f->pblk, f->buf, 0, d->ino);
}

/*
 * A new interior block at the directory's end, holding count entries;
 * written and flushed before anything leads to it. Its logical block
 * into *ret_lblk.
 */
static errcode_t new_node(ext2_filsys fs, const struct e2fold_dir *d,
			  struct dx_path *path, unsigned char *tmp,
			  const unsigned char *entries, unsigned int count,
			  blk64_t *ret_lblk)
{
	errcode_t retval;

	e2fold_dx_make_node(fs, tmp, entries, count,
			    e2fold_dx_node_limit(fs, e2fold_dir_stored_hashes(d)));
	retval = e2fold_dirblock_new(fs, d->ino, path->next_lblk, tmp);
	if (!retval)
		retval = io_channel_flush(fs->io);
	if (!retval)
		*ret_lblk = path->next_lblk++;
	return retval;
}

/*
 * The full interior block path->f[k] splits: its upper half moves to a
 * new block, which the parent f[k - 1] (with room) takes in after the
 * entry leading to f[k]. Written new block first, then the parent, then
 * the old block's shorter count: a kill between leaves both halves
 * reachable, the upper one twice.
 */
static errcode_t split_node(ext2_filsys fs, const struct e2fold_dir *d,
			    struct dx_path *path, int k, unsigned char *tmp)
{
	struct dx_frame *f = &path->f[k], *parent = &path->f[k - 1];
	unsigned char *e = f->buf + f->offset;
	unsigned int keep = f->count / 2, move = f->count - keep;
	__u32 hash2 = e2fold_dx_hash(e, keep);
	blk64_t newlblk = 0;
	errcode_t retval;

	retval = new_node(fs, d, path, tmp, e + E2FOLD_DX_ENTRY_SIZE * keep, move,
			  &newlblk);
	if (!retval)
		retval = insert_index(fs, d, parent, hash2, newlblk);
	if (!retval)
		retval = io_channel_flush(fs->io);
	if (retval)
		return retval;
	e2fold_dx_set_count(e, keep);
	return ext2fs_write_dir_block4(fs, f->pblk, f->buf, 0, d->ino);
}

/*
 * The full root gets a level: its entries move to a new interior block,
 * and the root, in one write, leads there alone.
 */
static errcode_t add_level(ext2_filsys fs, const struct e2fold_dir *d,
			   struct dx_path *path, unsigned char *tmp)
{
	struct dx_frame *root = &path->f[0];
	unsigned char *e = root->buf + root->offset;
	blk64_t newlblk = 0;
	errcode_t retval;

	retval = new_node(fs, d, path, tmp, e, root->count, &newlblk);
	if (retval)
		return retval;
	e2fold_dx_set_count(e, 1);
	e2fold_dx_put(e, 0, 0, (__u32)newlblk);
	root->buf[E2FOLD_DX_ROOT_LEVELS] = ++path->levels;
	return ext2fs_write_dir_block4(fs, root->pblk, root->buf, 0, d->ino);
}

/*
 * Room in the index block that leads to the leaf (path->f[n - 1]), made
 * one step at a time from the highest full block down, walking down
 * again after each step as the kernel does.
 */
static errcode_t make_index_room(ext2_filsys fs, const struct e2fold_dir *d,
				 __u32 hash, struct dx_path *path,
				 blk64_t *leaf)
{
	int max_levels = e2fold_dx_max_depth(fs);
	unsigned char *tmp = malloc(fs->blocksize);
	errcode_t retval = 0;

	if (!tmp)
		return EXT2_ET_NO_MEMORY;
	while (path->f[path->n - 1].count >= path->f[path->n - 1].limit) {
		int k = path->n - 1;

		while (k > 0 && path->f[k - 1].count >= path->f[k - 1].limit)
			k--;
		if (k > 0)
			retval = split_node(fs, d, path, k, tmp);
		else if (path->levels + 1 < max_levels)
			retval = add_level(fs, d, path, tmp);
		else
			retval = EXT2_ET_DIR_NO_SPACE;
		if (!retval)
			retval = descend(fs, d, hash, path, leaf);
		if (retval)
			break;
	}
	free(tmp);
	return retval;
}

static int cmp_map(const void *a, const void *b)
{
	const struct map_ent *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_off(const void *a, const void *b)
{
	const struct map_ent *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* dx_make_map: the live entries of the leaf in buf, with their hashes. */
static errcode_t make_map(ext2_filsys fs, const struct unicode_map *um,
			  const struct e2fold_dir *d,
			  const unsigned char *buf, struct map_ent *map,
			  unsigned int *ret_count)
{
	int version = e2fold_effective_hash_version(fs, d->dx_hash_version);
	unsigned int off = 0, end = e2fold_dirblock_end(fs), n = 0;

	while (off < end) {
		const struct ext2_dir_entry *de = (const void *)(buf + off);
		unsigned int rec_len;
		errcode_t retval;

		if (ext2fs_get_rec_len(fs, (struct ext2_dir_entry *)de, &rec_len) ||
		    rec_len < 8 || off + rec_len > end)
			return EXT2_ET_DIR_CORRUPTED;
		if (de->inode && ext2fs_dirent_name_len(de)) {
			retval = e2fold_casefold_dirhash(d->casefolded ? um : NULL,
					version, (const unsigned char *)de->name,
					ext2fs_dirent_name_len(de),
					fs->super->s_hash_seed, &map[n].hash, NULL);
			if (retval)
				return retval;
			map[n].off = off;
			map[n].size = rec_len;
			n++;
		}
		off += rec_len;
	}
	*ret_count = n;
	return 0;
}

/* Pack the entries map[0, n) of src into a fresh block dst. */
static void pack(ext2_filsys fs, const unsigned char *src,
		 const struct map_ent *map, unsigned int n, unsigned char *dst)
{
	unsigned int i, off = 0, last = 0;

	memset(dst, 0, fs->blocksize);
	for (i = 0; i < n; i++) {
		const struct ext2_dir_entry *de = (const void *)(src + map[i].off);
		unsigned int len = EXT2_DIR_REC_LEN(ext2fs_dirent_name_len(de));

		memcpy(dst + off, de, 8 + ext2fs_dirent_name_len(de));
		ext2fs_set_rec_len(fs, len, (struct ext2_dir_entry *)(dst + off));
		last = off;
		off += len;
	}
	if (n)
		e2fold_dirblock_finish(fs, dst, last);
	else
		e2fold_dirblock_finish(fs, dst, 0);
}

/* do_split's choice: the first entry (in hash order) that moves. */
static unsigned int split_point(const struct map_ent *map, unsigned int count,
				unsigned int blocksize)
{
	unsigned int size = 0, move = 0;
	int i;

	for (i = count - 1; i >= 0; i--) {
		/* Is more than half of this entry in the second half? */
		if (size + map[i].size / 2 > blocksize / 2)
			break;
		size += map[i].size;
		move++;
	}
	return i > 0 ? count - move : count / 2;
}

static errcode_t split(ext2_filsys fs, const struct unicode_map *um,
		       const struct e2fold_dir *d,
		       struct dx_frame *f, blk64_t leaf, blk64_t newlblk,
		       __u32 hash, const struct e2fold_new_name *nn)
{
	unsigned int bs = fs->blocksize, count, at;
	unsigned char *old = malloc(bs), *lo = malloc(bs), *hi = malloc(bs);
	struct map_ent *map = malloc((bs / 8 + 1) * sizeof(*map));
	blk64_t pblk;
	__u32 hash2;
	int continued;
	errcode_t retval;

	retval = EXT2_ET_NO_MEMORY;
	if (!old || !lo || !hi || !map)
		goto out;
	retval = e2fold_dirblock_read(fs, d->ino, leaf, old, &pblk);
	if (!retval)
		retval = make_map(fs, um, d, old, map, &count);
	if (retval)
		goto out;
	retval = EXT2_ET_DIR_NO_SPACE;
	if (count < 2)
		goto out;
	qsort(map, count, sizeof(*map), cmp_map);
	at = split_point(map, count, bs);
	hash2 = map[at].hash;
	continued = hash2 == map[at - 1].hash;
	pack(fs, old, map + at, count - at, hi);
	/* The entries that stay keep their order in the block. */
	qsort(map, at, sizeof(*map), cmp_off);
	pack(fs, old, map, at, lo);
	/*
	 * Three blocks change, in an order that a kill can leave entries
	 * twice (the same name for the same inode, which e2fold-fsck and
	 * e2fsck take out) but never without one: the new leaf and the index
	 * entry for it reach the disk before the old leaf gives its entries
	 * up. (doc/crash-safety.md)
	 */
	retval = e2fold_dirblock_new(fs, d->ino, newlblk, hi);
	if (!retval)
		retval = io_channel_flush(fs->io);
	if (!retval)
		retval = insert_index(fs, d, f, hash2 | continued, newlblk);
	if (!retval)
		retval = io_channel_flush(fs->io);
	if (!retval)
		retval = ext2fs_write_dir_block4(fs, pblk, lo, 0, d->ino);
	if (!retval)
		retval = e2fold_dirblock_insert(fs, d->ino, hash >= hash2 ? newlblk : leaf,
					 nn);
out:
	free(old);
	free(lo);
	free(hi);
	free(map);
	return retval;
}

/*
 * nn into the indexed directory d, as ext4_dx_add_entry does; with
 * always_split, its leaf is split even if it has room, as
 * make_indexed_dir splits the block it has just filled.
 */
static errcode_t dx_add(ext2_filsys fs, const struct unicode_map *um,
			const struct e2fold_dir *d,
			const struct e2fold_new_name *nn, int always_split,
			enum e2fold_add_how *ret_how)
{
	int version = e2fold_effective_hash_version(fs, d->dx_hash_version);
	struct dx_path path;
	ext2_dirhash_t hash;
	blk64_t leaf = 0;
	errcode_t retval;
	int i;

	retval = e2fold_casefold_dirhash(d->casefolded ? um : NULL, version,
					 nn->name, nn->len,
					 fs->super->s_hash_seed, &hash, NULL);
	if (retval)
		return retval;
	memset(&path, 0, sizeof(path));
	path.levels = d->dx_levels;
	path.next_lblk = d->nblocks;
	if (path.levels >= E2FOLD_DX_MAX_DEPTH)
		return EXT2_ET_DIR_CORRUPTED;
	for (i = 0; i < E2FOLD_DX_MAX_DEPTH; i++) {
		path.f[i].buf = malloc(fs->blocksize);
		if (!path.f[i].buf)
			retval = EXT2_ET_NO_MEMORY;
	}
	if (!retval)
		retval = descend(fs, d, hash, &path, &leaf);
	if (!retval && always_split) {
		retval = EXT2_ET_DIR_NO_SPACE;
	} else if (!retval) {
		*ret_how = E2FOLD_ADD_IN_PLACE;
		retval = e2fold_dirblock_insert(fs, d->ino, leaf, nn);
	}
	if (retval == EXT2_ET_DIR_NO_SPACE) {
		*ret_how = E2FOLD_ADD_SPLIT;
		retval = make_index_room(fs, d, hash, &path, &leaf);
		if (!retval)
			retval = split(fs, um, d, &path.f[path.n - 1], leaf,
				       path.next_lblk, hash, nn);
	}
	for (i = 0; i < E2FOLD_DX_MAX_DEPTH; i++)
		free(path.f[i].buf);
	return retval;
}

errcode_t e2fold_dx_add(ext2_filsys fs, const struct unicode_map *um,
			const struct e2fold_dir *d,
			const struct e2fold_new_name *nn,
			enum e2fold_add_how *ret_how)
{
	return dx_add(fs, um, d, nn, 0, ret_how);
}

/*
 * The entries of block 0 after ".." (at byte *ret_from) into blk1, the
 * last one stretched to the end with the tail; EXT2_ET_DIR_CORRUPTED if
 * "." and ".." are not where an index root needs them, or an entry is
 * malformed; EXT2_ET_DIR_NO_SPACE if nothing follows "..".
 */
static errcode_t move_out(ext2_filsys fs, const unsigned char *blk0,
			  unsigned char *blk1, unsigned int *ret_from)
{
	const struct ext2_dir_entry *dot = (const void *)blk0;
	const struct ext2_dir_entry *dotdot = (const void *)(blk0 + 12);
	unsigned int r0 = 0, r1 = 0, from, end = e2fold_dirblock_end(fs);
	unsigned int off = 0, last = 0;

	if (ext2fs_get_rec_len(fs, (struct ext2_dir_entry *)dot, &r0) ||
	    r0 != 12 || ext2fs_dirent_name_len(dot) != 1 ||
	    ext2fs_get_rec_len(fs, (struct ext2_dir_entry *)dotdot, &r1) ||
	    r1 < 12 || ext2fs_dirent_name_len(dotdot) != 2)
		return EXT2_ET_DIR_CORRUPTED;
	from = 12 + r1;
	if (from >= end)
		return EXT2_ET_DIR_NO_SPACE;
	memset(blk1, 0, fs->blocksize);
	memcpy(blk1, blk0 + from, end - from);
	while (off < end - from) {
		unsigned int rec_len = 0;

		if (ext2fs_get_rec_len(fs, (struct ext2_dir_entry *)(blk1 + off),
				       &rec_len) ||
		    rec_len < 8 || rec_len % 4 || off + rec_len > end - from)
			return EXT2_ET_DIR_CORRUPTED;
		last = off;
		off += rec_len;
	}
	e2fold_dirblock_finish(fs, blk1, last);
	*ret_from = from;
	return 0;
}

/* Block 0 in buf as the root of a new index leading to block 1 alone. */
static void make_root(ext2_filsys fs, unsigned char *buf, int hash_version)
{
	unsigned char *e = buf + E2FOLD_DX_ROOT_ENTRIES_OFFSET;

	/* "." stays; ".." spans the rest of the block. */
	ext2fs_set_rec_len(fs, fs->blocksize - 12,
			   (struct ext2_dir_entry *)(buf + 12));
	memset(buf + 24, 0, fs->blocksize - 24);
	buf[E2FOLD_DX_ROOT_HASH_VERSION] = hash_version;
	buf[E2FOLD_DX_ROOT_INFO_LENGTH] = E2FOLD_DX_ROOT_INFO_SIZE;
	e2fold_dx_set_limit(e, e2fold_dx_root_limit(fs));
	e2fold_dx_set_count(e, 1);
	e2fold_dx_put(e, 0, 0, 1);
}

errcode_t e2fold_dx_make_indexed(ext2_filsys fs, const struct unicode_map *um,
				 ext2_ino_t ino,
				 const struct e2fold_new_name *nn,
				 enum e2fold_add_how *ret_how)
{
	unsigned char *blk0 = malloc(fs->blocksize);
	unsigned char *blk1 = malloc(fs->blocksize);
	struct e2fold_dir *d = NULL;
	struct ext2_inode inode;
	unsigned int from;
	blk64_t pblk0;
	errcode_t retval = EXT2_ET_NO_MEMORY;

	if (!blk0 || !blk1)
		goto out;
	retval = e2fold_dirblock_read(fs, ino, 0, blk0, &pblk0);
	if (!retval)
		retval = move_out(fs, blk0, blk1, &from);
	if (retval)
		goto out;
	/*
	 * Block 1 first (a kill leaves its entries twice, the same names for
	 * the same inodes, which the fscks take out), then the root (a kill
	 * leaves a sound linear directory of two blocks), then the flag.
	 */
	retval = e2fold_dirblock_new(fs, ino, 1, blk1);
	if (!retval)
		retval = io_channel_flush(fs->io);
	if (retval)
		goto out;
	make_root(fs, blk0, e2fold_dir_hash_version(fs, NULL));
	retval = ext2fs_write_dir_block4(fs, pblk0, blk0, 0, ino);
	if (!retval)
		retval = io_channel_flush(fs->io);
	if (!retval)
		retval = ext2fs_read_inode(fs, ino, &inode);
	if (retval)
		goto out;
	inode.i_flags |= EXT2_INDEX_FL;
	retval = ext2fs_write_inode(fs, ino, &inode);
	if (!retval)
		retval = e2fold_dir_read_index(fs, ino, &d);
	if (!retval && d->dx_problem != E2FOLD_DX_OK)
		retval = EXT2_ET_DIR_CORRUPTED;
	if (!retval)
		retval = dx_add(fs, um, d, nn, 1, ret_how);
out:
	if (d)
		e2fold_dir_free(d);
	free(blk0);
	free(blk1);
	return retval;
}
