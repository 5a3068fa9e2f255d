/* dirwrite.c: lay a directory out in blocks and write it. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dirread.h"
#include "dirwrite.h"
#include "htree.h"
#include "encoding.h"

#define DOT_SIZE 12			/* "." and ".." entries, each */

struct blocklist {
	blk64_t *blk;
	size_t n, cap;
};

/* A block written out of place, and the checksum of what was written. */
struct written {
	blk64_t pblk;
	__u32 crc;
};

static errcode_t blocklist_add(struct blocklist *l, blk64_t blk)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		blk64_t *b = realloc(l->blk, cap * sizeof(*b));

		if (!b)
			return EXT2_ET_NO_MEMORY;
		l->blk = b;
		l->cap = cap;
	}
	l->blk[l->n++] = blk;
	return 0;
}

/* Mark the blocks free in the (in-memory) bitmap and group counts. */
static void blocklist_release(ext2_filsys fs, struct blocklist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		ext2fs_block_alloc_stats2(fs, l->blk[i], -1);
	l->n = 0;
}

struct writer {
	ext2_filsys fs;
	const struct e2fold_dir_layout *layout;
	struct e2fold_new_entry *ents;
	size_t n;
	unsigned int bs;
	unsigned int tail;		/* bytes reserved at a leaf's end */
	unsigned char *buf;
	blk64_t next_lblk;		/* next logical block to write */

	/*
	 * Out of place (doc/crash-safety.md): the inode as it will be after
	 * the commit, its block map built here while the disk keeps the old
	 * one; the data blocks taken so far (given back if the write fails
	 * before the commit) and the next block to try.
	 */
	int out_of_place;
	struct ext2_inode_large inode;
	struct blocklist fresh;
	struct written *written;	/* one per logical block */
	blk64_t goal;

	/* hash tree plan */
	size_t nleaves;
	size_t *leaf_first;		/* first entry of each leaf, + n at the end */
	__u32 *leaf_hash;		/* index hash of each leaf */
	size_t nnodes;
	unsigned int root_limit, node_limit;
};

static unsigned int rec_len_of(const struct writer *w,
			       const struct e2fold_new_entry *e)
{
	return ext2fs_dir_rec_len(e->name_len, w->layout->stored_hashes);
}

static errcode_t hash_entries(struct writer *w)
{
	const struct e2fold_dir_layout *l = w->layout;
	int version = e2fold_effective_hash_version(w->fs, l->hash_version);
	size_t i;

	if (l->stored_hashes || l->given_hashes)
		return 0;
	for (i = 0; i < w->n; i++) {
		errcode_t retval = e2fold_casefold_dirhash(l->um, version,
				w->ents[i].name, w->ents[i].name_len,
				w->fs->super->s_hash_seed, &w->ents[i].hash,
				&w->ents[i].minor_hash);

		if (retval)
			return retval;
	}
	return 0;
}

static int cmp_hash(const void *a, const void *b)
{
	const struct e2fold_new_entry *x = a, *y = b;
	unsigned int n = x->name_len < y->name_len ? x->name_len : y->name_len;
	int c;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->minor_hash != y->minor_hash)
		return x->minor_hash < y->minor_hash ? -1 : 1;
	c = memcmp(x->name, y->name, n);
	if (c)
		return c;
	return (int)x->name_len - (int)y->name_len;
}

/* Append one entry at *off of w->buf; returns the entry. */
static struct ext2_dir_entry *put_entry(struct writer *w, unsigned int *off,
					ext2_ino_t ino, const unsigned char *name,
					unsigned int name_len, int file_type,
					unsigned int rec_len)
{
	struct ext2_dir_entry *de = (struct ext2_dir_entry *)(w->buf + *off);

	de->inode = ino;
	ext2fs_dirent_set_name_len(de, name_len);
	ext2fs_dirent_set_file_type(de, ext2fs_has_feature_filetype(w->fs->super) ?
				    file_type : 0);
	memcpy(de->name, name, name_len);
	ext2fs_set_rec_len(w->fs, rec_len, de);
	*off += rec_len;
	return de;
}

/* A name entry, with its stored hash where the directory keeps them. */
static struct ext2_dir_entry *put_name(struct writer *w, unsigned int *off,
				       const struct e2fold_new_entry *e)
{
	unsigned int at = *off;
	struct ext2_dir_entry *de = put_entry(w, off, e->ino, e->name,
					      e->name_len, e->file_type,
					      rec_len_of(w, e));

	if (w->layout->stored_hashes) {
		__u32 *h = (__u32 *)(w->buf + at + 8 +
				     ((e->name_len + 3) & ~3u));

		h[0] = ext2fs_cpu_to_le32(e->hash);
		h[1] = ext2fs_cpu_to_le32(e->minor_hash);
	}
	return de;
}

/* Stretch the last entry of a leaf to its end, and add the csum tail. */
static void finish_leaf(struct writer *w, struct ext2_dir_entry *last,
			unsigned int last_off)
{
	unsigned int end = w->bs - w->tail;

	if (last) {
		ext2fs_set_rec_len(w->fs, end - last_off, last);
	} else {
		/* An empty leaf is one unused entry. */
		struct ext2_dir_entry *de = (struct ext2_dir_entry *)w->buf;

		de->inode = 0;
		ext2fs_dirent_set_name_len(de, 0);
		ext2fs_set_rec_len(w->fs, end, de);
	}
	if (w->tail)
		ext2fs_initialize_dirent_tail(w->fs,
			EXT2_DIRENT_TAIL(w->buf, w->bs));
}

/*
 * While a directory is built out of place, libext2fs's block mapping
 * writes the inode after each change it makes to the map. Those writes
 * must not reach the disk, or the directory would switch to its new
 * blocks one at a time. The map lives in the writer's copy of the inode,
 * which libext2fs changes in place, so the hook need only swallow writes
 * of that inode; all others go on as before. (A hook gets no argument of
 * its own: the inode being built is kept here, one at a time.)
 */
static ext2_ino_t held_ino;
static errcode_t (*held_prev)(ext2_filsys fs, ext2_ino_t ino,
			      struct ext2_inode *inode);

static errcode_t hold_inode_write(ext2_filsys fs, ext2_ino_t ino,
				  struct ext2_inode *inode)
{
	if (ino == held_ino)
		return 0;
	if (held_prev)
		return held_prev(fs, ino, inode);
	return EXT2_ET_CALLBACK_NOTHANDLED;
}

static void hold_inode(ext2_filsys fs, ext2_ino_t ino)
{
	held_ino = ino;
	held_prev = fs->write_inode;
	fs->write_inode = hold_inode_write;
}

static void release_inode(ext2_filsys fs)
{
	fs->write_inode = held_prev;
	held_prev = NULL;
	held_ino = 0;
}

/*
 * A new block for the next logical block of the out-of-place map. The
 * data block is taken here (near the last, so that the map stays one
 * extent where the free space allows); libext2fs takes any extent tree
 * or indirect blocks the map needs, also fresh ones.
 */
static errcode_t map_fresh_block(struct writer *w, blk64_t *ret_pblk)
{
	struct ext2_inode *inode = (struct ext2_inode *)&w->inode;
	blk64_t pblk = 0;
	errcode_t retval;

	retval = ext2fs_new_block2(w->fs, w->goal, NULL, &pblk);
	if (retval)
		return retval;
	ext2fs_block_alloc_stats2(w->fs, pblk, +1);
	retval = blocklist_add(&w->fresh, pblk);
	if (retval) {
		ext2fs_block_alloc_stats2(w->fs, pblk, -1);
		return retval;
	}
	retval = ext2fs_bmap2(w->fs, w->layout->ino, inode, NULL,
			      BMAP_ALLOC | BMAP_SET, w->next_lblk, NULL, &pblk);
	if (retval)
		return retval;
	retval = ext2fs_iblk_add_blocks(w->fs, inode, 1);
	if (retval)
		return retval;
	w->goal = pblk + 1;
	*ret_pblk = pblk;
	return 0;
}

/*
 * What reached the disk is read back before the commit: the checksum of
 * each block as written (with its directory checksum, which
 * ext2fs_write_dir_block4 fills in the buffer).
 */
static errcode_t remember_written(struct writer *w, blk64_t pblk)
{
	struct written *wr = realloc(w->written, (w->next_lblk + 1) *
				     sizeof(*wr));

	if (!wr)
		return EXT2_ET_NO_MEMORY;
	w->written = wr;
	wr[w->next_lblk].pblk = pblk;
	wr[w->next_lblk].crc = ext2fs_crc32c_le(~0, w->buf, w->bs);
	return 0;
}

static errcode_t write_block(struct writer *w)
{
	blk64_t pblk = 0;
	errcode_t retval;

	if (w->out_of_place)
		retval = map_fresh_block(w, &pblk);
	else
		retval = ext2fs_bmap2(w->fs, w->layout->ino, NULL, NULL,
				      BMAP_ALLOC, w->next_lblk, NULL, &pblk);
	if (retval)
		return retval;
	retval = ext2fs_write_dir_block4(w->fs, pblk, w->buf, 0,
					 w->layout->ino);
	if (retval)
		return retval;
	if (w->out_of_place) {
		retval = remember_written(w, pblk);
		if (retval)
			return retval;
	}
	w->next_lblk++;
	return 0;
}

/* Linear directory: "." and ".." then entries, in the given order. */
static errcode_t write_linear(struct writer *w)
{
	unsigned int off = 0, last_off = 0;
	struct ext2_dir_entry *last;
	size_t i;
	errcode_t retval;

	memset(w->buf, 0, w->bs);
	put_entry(w, &off, w->layout->ino, (const unsigned char *)".", 1,
		  EXT2_FT_DIR, DOT_SIZE);
	last_off = off;
	last = put_entry(w, &off, w->layout->parent,
			 (const unsigned char *)"..", 2, EXT2_FT_DIR, DOT_SIZE);
	for (i = 0; i < w->n; i++) {
		unsigned int rl = rec_len_of(w, &w->ents[i]);

		if (off + rl > w->bs - w->tail) {
			finish_leaf(w, last, last_off);
			retval = write_block(w);
			if (retval)
				return retval;
			memset(w->buf, 0, w->bs);
			off = 0;
		}
		last_off = off;
		last = put_name(w, &off, &w->ents[i]);
	}
	finish_leaf(w, last, last_off);
	return write_block(w);
}

/* Cut the sorted entries into leaves. */
static errcode_t plan_leaves(struct writer *w)
{
	unsigned int cap = w->bs - w->tail, used = cap;
	size_t i;

	w->leaf_first = malloc((w->n + 2) * sizeof(*w->leaf_first));
	w->leaf_hash = malloc((w->n + 1) * sizeof(*w->leaf_hash));
	if (!w->leaf_first || !w->leaf_hash)
		return EXT2_ET_NO_MEMORY;
	w->nleaves = 0;
	for (i = 0; i < w->n; i++) {
		unsigned int rl = rec_len_of(w, &w->ents[i]);

		if (used + rl > cap) {
			__u32 h = w->ents[i].hash;

			/* A hash split between leaves marks the second one. */
			if (i > 0 && w->ents[i - 1].hash == h)
				h |= 1;
			w->leaf_first[w->nleaves] = i;
			w->leaf_hash[w->nleaves] = w->nleaves ? h : 0;
			w->nleaves++;
			used = 0;
		}
		used += rl;
	}
	w->leaf_first[w->nleaves] = w->n;
	return 0;
}

/* Leaves start after the root and the index nodes. */
static blk64_t leaf_lblk(const struct writer *w, size_t leaf)
{
	return 1 + w->nnodes + leaf;
}

static errcode_t write_root(struct writer *w)
{
	unsigned int off = 0;
	unsigned char *entries = w->buf + E2FOLD_DX_ROOT_ENTRIES_OFFSET;
	size_t i, count = w->nnodes ? w->nnodes : w->nleaves;

	memset(w->buf, 0, w->bs);
	put_entry(w, &off, w->layout->ino, (const unsigned char *)".", 1,
		  EXT2_FT_DIR, DOT_SIZE);
	put_entry(w, &off, w->layout->parent, (const unsigned char *)"..", 2,
		  EXT2_FT_DIR, w->bs - DOT_SIZE);
	w->buf[E2FOLD_DX_ROOT_HASH_VERSION] = w->layout->hash_version;
	w->buf[E2FOLD_DX_ROOT_INFO_LENGTH] = E2FOLD_DX_ROOT_INFO_SIZE;
	w->buf[E2FOLD_DX_ROOT_LEVELS] = w->nnodes ? 1 : 0;
	for (i = 0; i < count; i++) {
		if (w->nnodes)
			e2fold_dx_put(entries, i,
				      w->leaf_hash[i * w->node_limit], 1 + i);
		else
			e2fold_dx_put(entries, i, w->leaf_hash[i],
				      leaf_lblk(w, i));
	}
	e2fold_dx_set_limit(entries, w->root_limit);
	e2fold_dx_set_count(entries, count);
	return write_block(w);
}

static errcode_t write_node(struct writer *w, size_t node)
{
	unsigned char *entries = w->buf + E2FOLD_DX_NODE_ENTRIES_OFFSET;
	size_t first = node * w->node_limit, i, count;

	count = w->nleaves - first < w->node_limit ? w->nleaves - first :
		w->node_limit;
	e2fold_dx_make_node(w->fs, w->buf, NULL, 0, w->node_limit);
	for (i = 0; i < count; i++)
		e2fold_dx_put(entries, i, w->leaf_hash[first + i],
			      leaf_lblk(w, first + i));
	e2fold_dx_set_count(entries, count);
	return write_block(w);
}

static errcode_t write_leaf(struct writer *w, size_t leaf)
{
	unsigned int off = 0, last_off = 0;
	struct ext2_dir_entry *last = NULL;
	size_t i;

	memset(w->buf, 0, w->bs);
	for (i = w->leaf_first[leaf]; i < w->leaf_first[leaf + 1]; i++) {
		last_off = off;
		last = put_name(w, &off, &w->ents[i]);
	}
	finish_leaf(w, last, last_off);
	return write_block(w);
}

static errcode_t write_htree(struct writer *w)
{
	errcode_t retval;
	size_t i;

	qsort(w->ents, w->n, sizeof(*w->ents), cmp_hash);
	retval = plan_leaves(w);
	if (retval)
		return retval;
	w->root_limit = e2fold_dx_root_limit(w->fs);
	w->node_limit = e2fold_dx_node_limit(w->fs, w->layout->stored_hashes);
	w->nnodes = 0;
	if (w->nleaves > w->root_limit) {
		w->nnodes = (w->nleaves + w->node_limit - 1) / w->node_limit;
		/* Two levels of index need largedir; so many names are rare. */
		if (w->nnodes > w->root_limit)
			return EXT2_ET_DIR_NO_SPACE;
	}
	retval = write_root(w);
	for (i = 0; !retval && i < w->nnodes; i++)
		retval = write_node(w, i);
	for (i = 0; !retval && i < w->nleaves; i++)
		retval = write_leaf(w, i);
	return retval;
}

/* Do the entries fit one block after "." and ".."? */
static int fits_one_block(const struct writer *w)
{
	unsigned int used = 2 * DOT_SIZE;
	size_t i;

	for (i = 0; i < w->n; i++) {
		used += rec_len_of(w, &w->ents[i]);
		if (used > w->bs - w->tail)
			return 0;
	}
	return 1;
}

/* The inode fields that go with the contents just written. */
static errcode_t set_size_and_flags(struct writer *w, struct ext2_inode *inode,
				    int indexed)
{
	errcode_t retval;

	retval = ext2fs_inode_size_set(w->fs, inode,
				       (__u64)w->next_lblk * w->bs);
	if (retval)
		return retval;
	if (indexed)
		inode->i_flags |= EXT2_INDEX_FL;
	else
		inode->i_flags &= ~EXT2_INDEX_FL;
	inode->i_flags = (inode->i_flags | w->layout->set_flags) &
			 ~w->layout->clear_flags;
	return 0;
}

/* Hash, plan and write every block of the new contents. */
static errcode_t write_contents(struct writer *w, int *ret_indexed)
{
	errcode_t retval = hash_entries(w);

	if (retval)
		return retval;
	*ret_indexed = ext2fs_has_feature_dir_index(w->fs->super) &&
		       !fits_one_block(w);
	return *ret_indexed ? write_htree(w) : write_linear(w);
}

/* In place: free what lies beyond the new end; set size and flags. */
static errcode_t finish_inode(struct writer *w, int indexed)
{
	struct ext2_inode_large inode;
	ext2_ino_t ino = w->layout->ino;
	errcode_t retval;

	retval = ext2fs_punch(w->fs, ino, NULL, NULL, w->next_lblk, ~0ULL);
	if (retval)
		return retval;
	retval = ext2fs_read_inode_full(w->fs, ino, (struct ext2_inode *)&inode,
					sizeof(inode));
	if (retval)
		return retval;
	retval = set_size_and_flags(w, (struct ext2_inode *)&inode, indexed);
	if (retval)
		return retval;
	return ext2fs_write_inode_full(w->fs, ino, (struct ext2_inode *)&inode,
				       sizeof(inode));
}

/*
 * An inline directory (its entries in i_block and "system.data") becomes
 * an ordinary one before it is written: drop the inline data and give the
 * inode an empty block map, as the kernel does when one outgrows its inode.
 */
static errcode_t leave_inline(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_inode inode;
	errcode_t retval;

	retval = e2fold_dir_drop_inline_attr(fs, ino);
	if (retval)
		return retval;
	retval = ext2fs_read_inode(fs, ino, &inode);
	if (retval)
		return retval;
	inode.i_flags &= ~EXT4_INLINE_DATA_FL;
	memset(inode.i_block, 0, sizeof(inode.i_block));
	inode.i_size = 0;
	if (ext2fs_has_feature_extents(fs->super)) {
		ext2_extent_handle_t handle;

		inode.i_flags &= ~EXT4_EXTENTS_FL;
		retval = ext2fs_extent_open2(fs, ino, &inode, &handle);
		if (retval)
			return retval;
		ext2fs_extent_free(handle);
	}
	return ext2fs_write_inode(fs, ino, &inode);
}

static errcode_t write_in_place(struct writer *w,
			       const struct ext2_inode *inode)
{
	errcode_t retval;
	int indexed;

	if (inode->i_flags & EXT4_INLINE_DATA_FL) {
		retval = leave_inline(w->fs, w->layout->ino);
		if (retval)
			return retval;
	}
	retval = write_contents(w, &indexed);
	if (retval)
		return retval;
	return finish_inode(w, indexed);
}

struct old_blocks {
	struct blocklist *list;
	errcode_t retval;
};

static int add_old_block(ext2_filsys fs, blk64_t *blocknr,
			 e2_blkcnt_t blockcnt, blk64_t ref_blk, int ref_offset,
			 void *priv)
{
	struct old_blocks *ob = priv;

	(void)fs;
	(void)blockcnt;
	(void)ref_blk;
	(void)ref_offset;
	ob->retval = blocklist_add(ob->list, *blocknr);
	return ob->retval ? BLOCK_ABORT : 0;
}

/*
 * Every block the directory holds now, its data and its map's own (extent
 * tree or indirect blocks), to be freed once the new map is committed.
 */
static errcode_t list_old_blocks(ext2_filsys fs, ext2_ino_t ino,
				 const struct ext2_inode *inode,
				 struct blocklist *list)
{
	struct old_blocks ob = { .list = list };
	errcode_t retval;

	if (inode->i_flags & EXT4_INLINE_DATA_FL)
		return 0;
	retval = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
				       add_old_block, &ob);
	return retval ? retval : ob.retval;
}

/*
 * The writer's inode starts as the directory's with an empty block map
 * (extents where the filesystem has them) and no inline data; i_blocks
 * keeps only an extended attribute block's share.
 */
static errcode_t start_new_map(struct writer *w)
{
	struct ext2_inode *inode = (struct ext2_inode *)&w->inode;
	struct ext3_extent_header *eh = (struct ext3_extent_header *)
					inode->i_block;

	memset(inode->i_block, 0, sizeof(inode->i_block));
	inode->i_flags &= ~(EXT4_INLINE_DATA_FL | EXT4_EXTENTS_FL);
	if (ext2fs_has_feature_extents(w->fs->super)) {
		eh->eh_magic = ext2fs_cpu_to_le16(EXT3_EXT_MAGIC);
		eh->eh_max = ext2fs_cpu_to_le16((sizeof(inode->i_block) -
						 sizeof(*eh)) /
						sizeof(struct ext3_extent));
		inode->i_flags |= EXT4_EXTENTS_FL;
	}
	return ext2fs_iblk_set(w->fs, inode,
			       ext2fs_file_acl_block(w->fs, inode) ? 1 : 0);
}

/*
 * Every new block, read back after the flush, must hold what was
 * written: a write the device dropped is caught while the old directory
 * is still the one on disk. EIO if one differs.
 */
static errcode_t read_back(struct writer *w)
{
	errcode_t retval;
	blk64_t i;

	for (i = 0; i < w->next_lblk; i++) {
		retval = io_channel_read_blk64(w->fs->io, w->written[i].pblk,
					       1, w->buf);
		if (retval)
			return retval;
		if (ext2fs_crc32c_le(~0, w->buf, w->bs) != w->written[i].crc)
			return EIO;
	}
	return 0;
}

/*
 * The commit: the new blocks reach the disk, then the inode that maps
 * them, in one write; only then may the old blocks be reused, so the
 * inode must be on disk before anything else is written.
 */
static errcode_t commit(struct writer *w, int indexed)
{
	struct ext2_inode *inode = (struct ext2_inode *)&w->inode;
	errcode_t retval;

	retval = set_size_and_flags(w, inode, indexed);
	if (!retval)
		retval = io_channel_flush(w->fs->io);
	if (!retval)
		retval = read_back(w);
	if (!retval)
		retval = ext2fs_write_inode_full(w->fs, w->layout->ino, inode,
						 sizeof(w->inode));
	if (!retval)
		retval = io_channel_flush(w->fs->io);
	return retval;
}

errcode_t e2fold_dir_drop_inline_attr(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_xattr_handle *h;
	errcode_t retval;

	retval = ext2fs_xattrs_open(fs, ino, &h);
	if (retval)
		return retval;
	retval = ext2fs_xattrs_read(h);
	if (!retval)
		retval = ext2fs_xattr_remove(h, "system.data");
	if (!retval)
		return ext2fs_xattrs_close(&h);
	ext2fs_xattrs_close(&h);
	return retval;
}

/* Out of place, as dirwrite.h describes. */
static errcode_t write_out_of_place(struct writer *w)
{
	ext2_filsys fs = w->fs;
	ext2_ino_t ino = w->layout->ino;
	struct blocklist old = { 0 };
	int indexed, was_inline;
	errcode_t retval;

	retval = ext2fs_read_inode_full(fs, ino, (struct ext2_inode *)&w->inode,
					sizeof(w->inode));
	if (retval)
		return retval;
	was_inline = !!(w->inode.i_flags & EXT4_INLINE_DATA_FL);
	retval = list_old_blocks(fs, ino, (struct ext2_inode *)&w->inode, &old);
	if (!retval)
		retval = start_new_map(w);
	if (retval)
		goto out;
	w->out_of_place = 1;
	w->goal = ext2fs_find_inode_goal(fs, ino, NULL, 0);
	hold_inode(fs, ino);
	retval = write_contents(w, &indexed);
	release_inode(fs);
	if (!retval)
		retval = commit(w, indexed);
	if (retval) {
		/* Not committed (or not known to be): the old blocks stay. */
		blocklist_release(fs, &w->fresh);
		goto out;
	}
	blocklist_release(fs, &old);
	if (was_inline)
		retval = e2fold_dir_drop_inline_attr(fs, ino);
out:
	free(old.blk);
	return retval;
}

errcode_t e2fold_dir_entries(const struct e2fold_dir *dir, size_t spare,
			     struct e2fold_new_entry **ret_ents)
{
	struct e2fold_new_entry *ents;
	size_t i;

	*ret_ents = ents = calloc(dir->nents + spare + 1, sizeof(*ents));
	if (!ents)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < dir->nents; i++) {
		const struct e2fold_dirent *e = &dir->ents[i];

		ents[i].name = e->name;
		ents[i].name_len = e->name_len;
		ents[i].ino = e->ino;
		ents[i].file_type = e->file_type;
		ents[i].hash = e->stored_hash;
		ents[i].minor_hash = e->stored_minor;
	}
	return 0;
}

errcode_t e2fold_dir_write(ext2_filsys fs,
			   const struct e2fold_dir_layout *layout,
			   struct e2fold_new_entry *entries, size_t n)
{
	struct writer w = {
		.fs = fs, .layout = layout, .ents = entries, .n = n,
		.bs = fs->blocksize,
	};
	struct ext2_inode inode;
	errcode_t retval;
	__u32 flags;

	retval = ext2fs_read_inode(fs, layout->ino, &inode);
	if (retval)
		return retval;
	/* Ciphertext names hash with SipHash under a key we do not have. */
	flags = (inode.i_flags | layout->set_flags) & ~layout->clear_flags;
	if ((flags & EXT4_ENCRYPT_FL) && (flags & EXT4_CASEFOLD_FL) &&
	    !layout->stored_hashes)
		return EXT2_ET_UNIMPLEMENTED;
	if (ext2fs_has_feature_metadata_csum(fs->super))
		w.tail = sizeof(struct ext2_dir_entry_tail);
	w.buf = malloc(w.bs);
	if (!w.buf)
		return EXT2_ET_NO_MEMORY;
	if (layout->in_place)
		retval = write_in_place(&w, &inode);
	else
		retval = write_out_of_place(&w);
	free(w.buf);
	free(w.fresh.blk);
	free(w.written);
	free(w.leaf_first);
	free(w.leaf_hash);
	return retval;
}
