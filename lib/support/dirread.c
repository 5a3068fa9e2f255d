/* dirread.c: read a directory's entries and hash tree into memory. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dirblock.h"
#include "dirread.h"
#include "encoding.h"
#include "htree.h"
#include "le.h"


struct reader {
	ext2_filsys fs;
	struct e2fold_dir *dir;
	unsigned char *buf;
	unsigned char *no_tail;		/* per block: a leaf without a csum tail */
	size_t names_len, names_cap;
	size_t ents_cap;
	size_t leaves_cap;
};

static errcode_t grow(void **p, size_t *cap, size_t need, size_t elsize)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elsize);
	if (!q)
		return EXT2_ET_NO_MEMORY;
	*p = q;
	*cap = n;
	return 0;
}

static errcode_t read_block(struct reader *r, blk64_t lblk, int *ret_hole)
{
	struct e2fold_dir *dir = r->dir;
	blk64_t pblk = 0;
	errcode_t retval;

	*ret_hole = 0;
	retval = ext2fs_bmap2(r->fs, dir->ino, (struct ext2_inode *)&dir->inode,
			      NULL, 0, lblk, NULL, &pblk);
	if (retval)
		return retval;
	if (!pblk) {
		*ret_hole = 1;
		return 0;
	}
	return e2fold_dirblock_read_raw(r->fs, dir->ino, pblk, r->buf);
}

static errcode_t mark_corrupt(struct reader *r, blk64_t lblk)
{
	struct e2fold_dir *dir = r->dir;
	void *p = realloc(dir->corrupt, (dir->ncorrupt + 1) * sizeof(blk64_t));

	if (!p)
		return EXT2_ET_NO_MEMORY;
	dir->corrupt = p;
	dir->corrupt[dir->ncorrupt++] = lblk;
	return 0;
}

/* Record one live entry. Names are stored as offsets until the end. */
static errcode_t add_entry(struct reader *r, blk64_t lblk, unsigned int offset,
			   const struct ext2_dir_entry *de, unsigned int rec_len)
{
	struct e2fold_dir *dir = r->dir;
	unsigned int name_len = ext2fs_dirent_name_len(de);
	struct e2fold_dirent *e;
	errcode_t retval;

	retval = grow((void **)&dir->ents, &r->ents_cap, dir->nents + 1,
		      sizeof(*dir->ents));
	if (!retval)
		retval = grow((void **)&dir->names, &r->names_cap,
			      r->names_len + name_len + 1, 1);
	if (retval)
		return retval;
	e = &dir->ents[dir->nents++];
	memset(e, 0, sizeof(*e));
	e->lblk = lblk;
	e->offset = offset;
	e->rec_len = rec_len;
	e->ino = de->inode;
	e->name_len = name_len;
	e->file_type = ext2fs_dirent_file_type(de);
	e->name = (const unsigned char *)(uintptr_t)r->names_len;
	memcpy(dir->names + r->names_len, de->name, name_len);
	r->names_len += name_len;
	if (dir->encrypted && dir->casefolded) {
		unsigned int at = 8 + ((name_len + 3) & ~3u);
		const unsigned char *h = (const unsigned char *)de + at;

		if (at + 8 <= rec_len) {
			e->has_stored_hash = 1;
			e->stored_hash = h[0] | h[1] << 8 | h[2] << 16 |
					 (__u32)h[3] << 24;
			e->stored_minor = h[4] | h[5] << 8 | h[6] << 16 |
					  (__u32)h[7] << 24;
		}
	}
	return 0;
}

/*
 * Walk the entries in buf[start, end) (a block, or a part of an inline
 * directory); 1 if they are malformed.
 */
static int walk_region(struct reader *r, const unsigned char *buf,
		       unsigned int start, unsigned int end, blk64_t lblk,
		       errcode_t *retval)
{
	unsigned int bs = end, offset = start;
	int index = 0;

	*retval = 0;
	while (offset < bs) {
		struct ext2_dir_entry *de = (struct ext2_dir_entry *)(buf + offset);
		unsigned int rec_len, name_len;

		if (offset + 8 > bs || ext2fs_get_rec_len(r->fs, de, &rec_len))
			return 1;
		name_len = ext2fs_dirent_name_len(de);
		/*
		 * An inode number past the inode table is no entry either:
		 * rebuilt as one, garbage would become a directory e2fsck
		 * reads (and clears) entry by entry.
		 */
		if (rec_len < 8 || rec_len % 4 || offset + rec_len > bs ||
		    (de->inode && 8 + name_len > rec_len) ||
		    de->inode > r->fs->super->s_inodes_count)
			return 1;
		if (de->inode) {
			int first = lblk == 0 && start == 0;
			int is_dot = first && index == 0 && name_len == 1 &&
				     de->name[0] == '.';
			int is_dotdot = first && index == 1 && name_len == 2 &&
					de->name[0] == '.' && de->name[1] == '.';

			if (is_dot)
				r->dir->dot = de->inode;
			else if (is_dotdot)
				r->dir->dotdot = de->inode;
			else if ((*retval = add_entry(r, lblk, offset, de, rec_len)))
				return 0;
		}
		offset += rec_len;
		index++;
	}
	return 0;
}

static int walk_block(struct reader *r, blk64_t lblk, errcode_t *retval)
{
	return walk_region(r, r->buf, 0, r->fs->blocksize, lblk, retval);
}

static errcode_t add_badsum(struct e2fold_dir *dir, blk64_t lblk, int index)
{
	void *p = realloc(dir->badsum, (dir->nbadsum + 1) * sizeof(*dir->badsum));

	if (!p)
		return EXT2_ET_NO_MEMORY;
	dir->badsum = p;
	dir->badsum[dir->nbadsum].lblk = lblk;
	dir->badsum[dir->nbadsum].index = index;
	dir->nbadsum++;
	return 0;
}

static int dx_fail(struct e2fold_dir *dir, enum e2fold_dx_problem p,
		   blk64_t lblk)
{
	/* The first problem is kept, unless a worse one follows a foreign limit. */
	if (!dir->dx_problem || (dir->dx_problem == E2FOLD_DX_FOREIGN_LIMIT &&
				 p != E2FOLD_DX_FOREIGN_LIMIT)) {
		dir->dx_problem = p;
		dir->dx_problem_block = lblk;
	}
	return -1;
}


/*
 * A node of a directory with stored hashes in the layout e2fsprogs
 * writes (one entry more than Linux allows): damage to the kernel, but
 * its entries are sound, so the tree below it is still read.
 */
static int foreign_limit(const struct reader *r, unsigned int offset,
			 unsigned int limit)
{
	return offset == E2FOLD_DX_NODE_ENTRIES_OFFSET &&
	       e2fold_dir_stored_hashes(r->dir) &&
	       limit == e2fold_dx_node_limit(r->fs, 0);
}

static errcode_t add_node(struct reader *r, blk64_t lblk, unsigned int limit,
			  unsigned int count)
{
	struct e2fold_dir *dir = r->dir;
	void *p = realloc(dir->nodes, (dir->nnodes + 1) * sizeof(*dir->nodes));

	if (!p)
		return EXT2_ET_NO_MEMORY;
	dir->nodes = p;
	dir->nodes[dir->nnodes].lblk = lblk;
	dir->nodes[dir->nnodes].limit = limit;
	dir->nodes[dir->nnodes].count = count;
	dir->nnodes++;
	return 0;
}

/*
 * Parse the dx block at lblk (its entries start at `offset`), whose range
 * is [lo, hi), `depth` levels above the leaves.
 */
static int dx_parse(struct reader *r, blk64_t lblk, unsigned int offset,
		    __u64 lo, __u64 hi, int depth)
{
	struct e2fold_dir *dir = r->dir;
	unsigned char *block;
	unsigned int limit, count, i;
	int hole;
	errcode_t retval;

	if (lblk >= dir->nblocks || dir->index_block[lblk])
		return dx_fail(dir, E2FOLD_DX_BAD_BLOCK, lblk);
	dir->index_block[lblk] = 1;
	if (read_block(r, lblk, &hole) || hole)
		return dx_fail(dir, E2FOLD_DX_UNREADABLE, lblk);
	block = malloc(r->fs->blocksize);
	if (!block)
		return dx_fail(dir, E2FOLD_DX_UNREADABLE, lblk);
	memcpy(block, r->buf, r->fs->blocksize);
	if (ext2fs_has_feature_metadata_csum(r->fs->super) &&
	    !ext2fs_dir_block_csum_verify(r->fs, dir->ino,
					  (struct ext2_dir_entry *)block) &&
	    add_badsum(dir, lblk, 1)) {
		free(block);
		return dx_fail(dir, E2FOLD_DX_UNREADABLE, lblk);
	}
	limit = e2fold_dx_limit(block + offset);
	count = e2fold_dx_count(block + offset);
	if (foreign_limit(r, offset, limit)) {
		dx_fail(dir, E2FOLD_DX_FOREIGN_LIMIT, lblk);
	} else if (limit != e2fold_dx_limit_at(r->fs, offset,
					e2fold_dir_stored_hashes(dir))) {
		free(block);
		return dx_fail(dir, E2FOLD_DX_BAD_LIMIT, lblk);
	}
	if (count == 0 || count > limit) {
		free(block);
		return dx_fail(dir, E2FOLD_DX_BAD_COUNT, lblk);
	}
	if (offset == E2FOLD_DX_NODE_ENTRIES_OFFSET &&
	    add_node(r, lblk, limit, count)) {
		free(block);
		return dx_fail(dir, E2FOLD_DX_UNREADABLE, lblk);
	}
	for (i = 0; i < count; i++) {
		const unsigned char *e = block + offset;
		__u64 ehash = i ? e2fold_dx_hash(e, i) : lo;
		__u64 next = i + 1 < count ? e2fold_dx_hash(e, i + 1) : hi;
		blk64_t child = e2fold_dx_block(e, i);

		if ((i && ehash < lo) || next < ehash || next > hi) {
			free(block);
			return dx_fail(dir, E2FOLD_DX_UNORDERED, lblk);
		}
		if (depth > 0) {
			if (dx_parse(r, child, E2FOLD_DX_NODE_ENTRIES_OFFSET, ehash,
				     next, depth - 1)) {
				free(block);
				return -1;
			}
			continue;
		}
		if (child >= dir->nblocks || dir->index_block[child]) {
			free(block);
			return dx_fail(dir, E2FOLD_DX_BAD_BLOCK, lblk);
		}
		retval = grow((void **)&dir->leaves, &r->leaves_cap,
			      dir->nleaves + 1, sizeof(*dir->leaves));
		if (retval) {
			free(block);
			return dx_fail(dir, E2FOLD_DX_UNREADABLE, lblk);
		}
		dir->leaves[dir->nleaves].lblk = child;
		dir->leaves[dir->nleaves].lo = ehash & ~(__u64)1;
		dir->leaves[dir->nleaves].hi = next;
		dir->leaves[dir->nleaves].continued = (ehash & 1) != 0;
		dir->nleaves++;
	}
	free(block);
	return 0;
}

static void dx_read(struct reader *r)
{
	struct e2fold_dir *dir = r->dir;
	int hole;

	dir->index_block = calloc(dir->nblocks ? dir->nblocks : 1, 1);
	if (!dir->index_block || read_block(r, 0, &hole) || hole) {
		dx_fail(dir, E2FOLD_DX_UNREADABLE, 0);
		return;
	}
	if (!e2fold_dx_root_header_ok(r->buf)) {
		dx_fail(dir, E2FOLD_DX_BAD_ROOT, 0);
		return;
	}
	dir->dx_hash_version = r->buf[E2FOLD_DX_ROOT_HASH_VERSION];
	dir->dx_levels = r->buf[E2FOLD_DX_ROOT_LEVELS];
	if (dir->dx_hash_version > EXT2_HASH_TEA &&
	    !(dir->dx_hash_version == EXT2_HASH_SIPHASH && dir->encrypted)) {
		dx_fail(dir, E2FOLD_DX_BAD_HASH_VERSION, 0);
		return;
	}
	if (dir->dx_levels >= e2fold_dx_max_depth(r->fs)) {
		dx_fail(dir, E2FOLD_DX_BAD_DEPTH, 0);
		return;
	}
	dx_parse(r, 0, E2FOLD_DX_ROOT_ENTRIES_OFFSET, 0, (__u64)1 << 32,
		 dir->dx_levels);
}

/*
 * An inline directory keeps its parent's inode number in the first four
 * bytes of i_block, its first entries in the rest of i_block, and more in
 * the "system.data" extended attribute; no "." or ".." entries.
 */
static errcode_t read_inline(struct reader *r)
{
	struct e2fold_dir *dir = r->dir;
	size_t size = 0;
	unsigned char *buf;
	unsigned int iblock = EXT4_MIN_INLINE_DATA_SIZE;
	errcode_t retval;

	/*
	 * Without the feature the flag is damage, i_block no directory: e2fsck
	 * clears such an inode. Its bytes are not entries to rebuild from.
	 */
	if (!ext2fs_has_feature_inline_data(r->fs->super))
		return mark_corrupt(r, 0);
	retval = ext2fs_inline_data_size(r->fs, dir->ino, &size);
	if (retval)
		return retval;
	buf = calloc(1, size > iblock ? size : iblock);
	if (!buf)
		return EXT2_ET_NO_MEMORY;
	retval = ext2fs_inline_data_get(r->fs, dir->ino,
					(struct ext2_inode *)&dir->inode, buf,
					&size);
	if (!retval && size >= 4) {
		dir->dot = dir->ino;
		dir->dotdot = e2fold_le32_at(buf);
		if (dir->dotdot > r->fs->super->s_inodes_count) {
			dir->dotdot = 0;	/* no parent: cannot rebuild */
			retval = mark_corrupt(r, 0);
			goto out;
		}
		if (walk_region(r, buf, 4, size < iblock ? size : iblock, 0,
				&retval) && !retval)
			retval = mark_corrupt(r, 0);
		if (!retval && size > iblock &&
		    walk_region(r, buf, iblock, size, 0, &retval) && !retval)
			retval = mark_corrupt(r, 0);
	}
out:
	free(buf);
	return retval;
}

static int cmp_leaf(const void *a, const void *b)
{
	const struct e2fold_dx_leaf *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int leaves_sorted(const struct e2fold_dir *dir)
{
	size_t i;

	for (i = 1; i < dir->nleaves; i++)
		if (cmp_leaf(&dir->leaves[i - 1], &dir->leaves[i]) > 0)
			return 0;
	return 1;
}

/* Above this many blocks, a directory's claimed size is checked against its map. */
#define DIR_MAP_WALK 1024

/* The highest logical block a directory's block map holds. */
struct last_mapped {
	blk64_t end;		/* last mapped logical block + 1 */
};

static int note_mapped(ext2_filsys fs EXT2FS_ATTR((unused)),
		       blk64_t *blocknr EXT2FS_ATTR((unused)),
		       e2_blkcnt_t blockcnt,
		       blk64_t ref_blk EXT2FS_ATTR((unused)),
		       int ref_offset EXT2FS_ATTR((unused)), void *priv)
{
	struct last_mapped *lm = priv;

	if (blockcnt >= 0 && (blk64_t)blockcnt + 1 > lm->end)
		lm->end = blockcnt + 1;
	return 0;
}

/*
 * The logical blocks to read: i_size says how many, but a damaged (or
 * hostile) i_size can say billions, and so can i_blocks: arrays of that
 * size, and a loop over holes, would take seconds to minutes for one
 * lookup. A directory has no holes, so its blocks are bounded by what it
 * has allocated, by the filesystem, and, past DIR_MAP_WALK blocks, by what
 * its block map holds: walking the map reads its extent tree, which a
 * small directory is spared (what its claims can cost is small anyway).
 * Blocks past that are e2fsck's to judge, as i_size is.
 */
static blk64_t dir_blocks(ext2_filsys fs, ext2_ino_t ino,
			  struct ext2_inode_large *inode)
{
	blk64_t n = EXT2_I_SIZE(inode) / fs->blocksize;
	blk64_t allocated = ext2fs_get_stat_i_blocks(fs,
				(struct ext2_inode *)inode) /
			    (fs->blocksize / 512);
	struct last_mapped lm = { 0 };

	if (n > allocated)
		n = allocated;
	if (n > ext2fs_blocks_count(fs->super))
		n = ext2fs_blocks_count(fs->super);
	if (n > DIR_MAP_WALK && !(inode->i_flags & EXT4_INLINE_DATA_FL) &&
	    !ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY |
				   BLOCK_FLAG_DATA_ONLY, NULL, note_mapped,
				   &lm) &&
	    n > lm.end)
		n = lm.end;
	return n;
}

/* Read the inode of directory ino into a new dir; 0 or an error. */
static errcode_t open_dir(struct reader *r, ext2_ino_t ino)
{
	struct e2fold_dir *dir = calloc(1, sizeof(*dir));
	errcode_t retval;

	if (!dir)
		return EXT2_ET_NO_MEMORY;
	r->dir = dir;
	dir->ino = ino;
	retval = ext2fs_read_inode_full(r->fs, ino,
					(struct ext2_inode *)&dir->inode,
					sizeof(dir->inode));
	if (retval)
		return retval;
	if (!LINUX_S_ISDIR(dir->inode.i_mode))
		return EXT2_ET_NO_DIRECTORY;
	dir->casefolded = !!(dir->inode.i_flags & EXT4_CASEFOLD_FL);
	dir->encrypted = !!(dir->inode.i_flags & EXT4_ENCRYPT_FL);
	/*
	 * The kernel reads an inline directory as inline before it looks at
	 * an index: with both flags (damage), there is no index to use.
	 */
	dir->indexed = (dir->inode.i_flags & EXT2_INDEX_FL) &&
		       !(dir->inode.i_flags & EXT4_INLINE_DATA_FL);
	dir->nblocks = dir_blocks(r->fs, ino, &dir->inode);
	r->buf = malloc(r->fs->blocksize);
	return r->buf ? 0 : EXT2_ET_NO_MEMORY;
}

/* Names were stored as offsets while their buffer grew: make pointers. */
static void resolve_names(struct e2fold_dir *dir)
{
	size_t i;

	for (i = 0; i < dir->nents; i++)
		dir->ents[i].name = dir->names + (uintptr_t)dir->ents[i].name;
}

/* The hash tree of an indexed directory, its leaves sorted, leaf_of. */
static errcode_t read_index(struct reader *r)
{
	struct e2fold_dir *dir = r->dir;
	blk64_t lblk;
	size_t i;

	dx_read(r);
	/*
	 * The index lists its leaves in hash order, so they come sorted
	 * unless it is damaged: a sort of 2,000 leaves was a fifth of a
	 * lookup in a directory of 100,000 names.
	 */
	if (!leaves_sorted(dir))
		qsort(dir->leaves, dir->nleaves, sizeof(*dir->leaves),
		      cmp_leaf);
	dir->leaf_of = malloc((dir->nblocks ? dir->nblocks : 1) *
			      sizeof(*dir->leaf_of));
	if (!dir->leaf_of)
		return EXT2_ET_NO_MEMORY;
	for (lblk = 0; lblk < dir->nblocks; lblk++)
		dir->leaf_of[lblk] = (size_t)-1;
	for (i = 0; i < dir->nleaves; i++)
		dir->leaf_of[dir->leaves[i].lblk] = i;
	return 0;
}

errcode_t e2fold_dir_read(ext2_filsys fs, ext2_ino_t ino,
			  struct e2fold_dir **ret_dir)
{
	struct reader r = { .fs = fs };
	struct e2fold_dir *dir;
	errcode_t retval;
	blk64_t lblk;

	retval = open_dir(&r, ino);
	dir = r.dir;
	if (retval)
		goto fail;
	if (dir->inode.i_flags & EXT4_INLINE_DATA_FL) {
		retval = read_inline(&r);
		if (retval)
			goto fail;
		resolve_names(dir);
		goto done;
	}
	r.no_tail = calloc(dir->nblocks ? dir->nblocks : 1, 1);
	if (!r.no_tail) {
		retval = EXT2_ET_NO_MEMORY;
		goto fail;
	}
	for (lblk = 0; lblk < dir->nblocks; lblk++) {
		int hole;

		retval = read_block(&r, lblk, &hole);
		if (retval || hole || walk_block(&r, lblk, &retval)) {
			if (retval == EXT2_ET_NO_MEMORY)
				goto fail;
			retval = mark_corrupt(&r, lblk);
		} else if (ext2fs_has_feature_metadata_csum(fs->super)) {
			r.no_tail[lblk] = !ext2fs_dirent_has_tail(fs,
					(struct ext2_dir_entry *)r.buf);
		}
		if (retval)
			goto fail;
	}
	resolve_names(dir);
	if (dir->indexed) {
		retval = read_index(&r);
		if (retval)
			goto fail;
	}
	/* Index blocks have no tail by design; every other block needs one. */
	for (lblk = 0; r.no_tail && lblk < dir->nblocks; lblk++) {
		if (!r.no_tail[lblk] ||
		    (dir->index_block && dir->index_block[lblk]))
			continue;
		retval = add_badsum(dir, lblk, 0);
		if (retval)
			goto fail;
	}
done:
	free(r.buf);
	free(r.no_tail);
	*ret_dir = dir;
	return 0;
fail:
	free(r.buf);
	free(r.no_tail);
	e2fold_dir_free(dir);
	return retval;
}

errcode_t e2fold_dir_read_index(ext2_filsys fs, ext2_ino_t ino,
				struct e2fold_dir **ret_dir)
{
	struct reader r = { .fs = fs };
	errcode_t retval;
	int hole;

	retval = open_dir(&r, ino);
	if (!retval && (!r.dir->indexed ||
			(r.dir->inode.i_flags & EXT4_INLINE_DATA_FL)))
		retval = EXT2_ET_INVALID_ARGUMENT;
	/* "." and "..", before the root's index. */
	if (!retval && !read_block(&r, 0, &hole) && !hole &&
	    walk_block(&r, 0, &retval) && !retval)
		retval = mark_corrupt(&r, 0);
	if (!retval && r.dir->nents)	/* entries in the root: not an index */
		retval = mark_corrupt(&r, 0);
	r.dir->nents = 0;
	if (!retval)
		retval = read_index(&r);
	free(r.buf);
	if (retval) {
		e2fold_dir_free(r.dir);
		return retval;
	}
	*ret_dir = r.dir;
	return 0;
}

errcode_t e2fold_dir_read_blocks(ext2_filsys fs, struct e2fold_dir *dir,
				 const blk64_t *lblks, size_t n, int *ret_ok)
{
	struct reader r = { .fs = fs, .dir = dir };
	errcode_t retval = 0;
	size_t i;

	*ret_ok = 1;
	dir->nents = 0;
	r.buf = malloc(fs->blocksize);
	if (!r.buf)
		return EXT2_ET_NO_MEMORY;
	/* Keep the arrays from the last call; add_entry grows them. */
	r.ents_cap = dir->ents_cap;
	r.names_cap = dir->names_cap;
	for (i = 0; i < n && *ret_ok && !retval; i++) {
		int hole;

		if (lblks[i] >= dir->nblocks ||
		    read_block(&r, lblks[i], &hole) || hole ||
		    walk_block(&r, lblks[i], &retval) ||
		    (ext2fs_has_feature_metadata_csum(fs->super) &&
		     !ext2fs_dirent_has_tail(fs, (struct ext2_dir_entry *)r.buf)))
			*ret_ok = 0;
	}
	dir->ents_cap = r.ents_cap;
	dir->names_cap = r.names_cap;
	free(r.buf);
	resolve_names(dir);
	return retval;
}

void e2fold_dir_free(struct e2fold_dir *dir)
{
	if (!dir)
		return;
	free(dir->ents);
	free(dir->names);
	free(dir->corrupt);
	free(dir->leaves);
	free(dir->index_block);
	free(dir->leaf_of);
	free(dir->badsum);
	free(dir->nodes);
	free(dir);
}

const struct e2fold_dx_leaf *e2fold_dir_leaf_at(const struct e2fold_dir *dir,
						blk64_t lblk)
{
	if (!dir->leaf_of || lblk >= dir->nblocks ||
	    dir->leaf_of[lblk] == (size_t)-1)
		return NULL;
	return &dir->leaves[dir->leaf_of[lblk]];
}

const char *e2fold_dx_problem_text(enum e2fold_dx_problem p)
{
	switch (p) {
	case E2FOLD_DX_OK:
		return "no problem";
	case E2FOLD_DX_BAD_ROOT:
		return "malformed root block";
	case E2FOLD_DX_BAD_HASH_VERSION:
		return "unknown hash version";
	case E2FOLD_DX_BAD_DEPTH:
		return "too many levels";
	case E2FOLD_DX_BAD_LIMIT:
		return "wrong entry limit";
	case E2FOLD_DX_FOREIGN_LIMIT:
		return "e2fsprogs' entry limit, one more than Linux's";
	case E2FOLD_DX_BAD_COUNT:
		return "bad entry count";
	case E2FOLD_DX_UNORDERED:
		return "hashes out of order";
	case E2FOLD_DX_BAD_BLOCK:
		return "bad block reference";
	case E2FOLD_DX_UNREADABLE:
		return "unreadable block";
	}
	return "unknown problem";
}
