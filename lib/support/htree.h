/*
 * htree.h: the ext4 hash-tree (dx) directory format. Every tool that reads
 * or writes an index block does it through the offsets, limits and field
 * accessors here, so that the format is stated once.
 *
 * Block 0, the root: "." (rec_len 12) and ".." (rec_len blocksize - 12),
 * as in any directory, so that a reader of linear directories sees an
 * empty block; at byte 24 the root info {le32 reserved_zero, u8
 * hash_version, u8 info_length = 8, u8 indirect_levels, u8 flags}; at byte
 * 32 the entries.
 *
 * An interior node: a fake entry (inode 0, name_len 0, rec_len the whole
 * block) hides it from linear readers; its entries start at byte 8.
 *
 * Entries: {le32 hash, le32 block} sorted by hash. The first entry's hash
 * slot holds {le16 limit, le16 count} instead; its hash is implicitly the
 * lowest of the block's range. Bit 0 of an entry's hash marks a leaf that
 * continues the previous leaf's last hash value. A leaf's range is [its
 * entry's hash with bit 0 cleared, the next entry's hash), bounded by the
 * ranges of the nodes above it. indirect_levels counts the interior levels
 * below the root: at most 1, or 2 with the largedir feature.
 *
 * With metadata_csum an 8-byte tail {le32 reserved, le32 checksum} follows
 * the last possible entry (entry number `limit`), not the end of the block.
 *
 * The limit is what the kernel checks on every lookup (a node whose limit
 * differs makes it warn, fall back to a linear scan and refuse creates).
 * The root's is computed from the sizes of "." and ".." alone. An interior
 * node's is computed from the size of an empty-named entry of *this*
 * directory, and in a directory that stores each name's hash in its entry
 * (encrypted and casefolded) that size includes the 8-byte hash: 16 bytes
 * instead of 8, one entry fewer (125 instead of 126 at 1 KiB with
 * metadata_csum, 509 instead of 510 at 4 KiB). The entries still start at
 * byte 8; the 8 bytes the smaller limit frees are simply unused.
 * e2fsprogs 1.47 expects the larger limit in every directory
 * (doc/encrypted-htree.md).
 */
#ifndef E2FOLD_HTREE_H
#define E2FOLD_HTREE_H

#include <ext2fs/ext2fs.h>

#include "le.h"

#define E2FOLD_DX_ROOT_INFO_OFFSET 24	/* after "." (12) and ".." (12) */
#define E2FOLD_DX_ROOT_ENTRIES_OFFSET 32	/* after the 8-byte root info */
#define E2FOLD_DX_NODE_ENTRIES_OFFSET 8	/* after the empty fake entry */
#define E2FOLD_DX_HASH_IN_ENTRY_SIZE 8	/* {le32 hash, le32 minor_hash} */
#define E2FOLD_DX_ENTRY_SIZE 8		/* {le32 hash, le32 block} */

/* Bytes of the root info, from the start of block 0. */
#define E2FOLD_DX_ROOT_RESERVED_ZERO (E2FOLD_DX_ROOT_INFO_OFFSET + 0)
#define E2FOLD_DX_ROOT_HASH_VERSION (E2FOLD_DX_ROOT_INFO_OFFSET + 4)
#define E2FOLD_DX_ROOT_INFO_LENGTH (E2FOLD_DX_ROOT_INFO_OFFSET + 5)
#define E2FOLD_DX_ROOT_LEVELS (E2FOLD_DX_ROOT_INFO_OFFSET + 6)
#define E2FOLD_DX_ROOT_INFO_SIZE 8

/* The deepest index: the root and one interior level, two with largedir. */
#define E2FOLD_DX_MAX_DEPTH 3

static inline unsigned int e2fold_dx_tail_size(ext2_filsys fs)
{
	return ext2fs_has_feature_metadata_csum(fs->super) ?
		sizeof(struct ext2_dx_tail) : 0;
}

/* Index blocks on the way from the root to a leaf, the root included. */
static inline int e2fold_dx_max_depth(ext2_filsys fs)
{
	return ext2fs_has_feature_largedir(fs->super) ? 3 : 2;
}

/* Entries the root block holds. */
static inline unsigned int e2fold_dx_root_limit(ext2_filsys fs)
{
	return (fs->blocksize - E2FOLD_DX_ROOT_ENTRIES_OFFSET -
		e2fold_dx_tail_size(fs)) / E2FOLD_DX_ENTRY_SIZE;
}

/*
 * Entries an interior node holds; stored_hashes: the directory keeps
 * hashes in its entries (encrypted and casefolded).
 */
static inline unsigned int e2fold_dx_node_limit(ext2_filsys fs,
						int stored_hashes)
{
	unsigned int header = E2FOLD_DX_NODE_ENTRIES_OFFSET +
		(stored_hashes ? E2FOLD_DX_HASH_IN_ENTRY_SIZE : 0);

	return (fs->blocksize - header - e2fold_dx_tail_size(fs)) /
		E2FOLD_DX_ENTRY_SIZE;
}

/* The limit of the index block whose entries start at offset. */
static inline unsigned int e2fold_dx_limit_at(ext2_filsys fs,
					      unsigned int offset,
					      int stored_hashes)
{
	return offset == E2FOLD_DX_ROOT_ENTRIES_OFFSET ?
		e2fold_dx_root_limit(fs) :
		e2fold_dx_node_limit(fs, stored_hashes);
}

/* ---- an index block's entries; e points at the first one ---- */

static inline unsigned int e2fold_dx_limit(const unsigned char *e)
{
	return e2fold_le16_at(e);
}

static inline unsigned int e2fold_dx_count(const unsigned char *e)
{
	return e2fold_le16_at(e + 2);
}

static inline void e2fold_dx_set_count(unsigned char *e, unsigned int count)
{
	e2fold_put_le16(e + 2, count);
}

static inline void e2fold_dx_set_limit(unsigned char *e, unsigned int limit)
{
	e2fold_put_le16(e, limit);
}

/* Entry i's hash as stored (i > 0; entry 0's slot is count and limit). */
static inline __u32 e2fold_dx_hash(const unsigned char *e, unsigned int i)
{
	return e2fold_le32_at(e + E2FOLD_DX_ENTRY_SIZE * i);
}

/* The logical block entry i leads to. */
static inline __u32 e2fold_dx_block(const unsigned char *e, unsigned int i)
{
	return e2fold_le32_at(e + E2FOLD_DX_ENTRY_SIZE * i + 4);
}

/* Entry i leads to block for hash; entry 0 keeps its count and limit. */
static inline void e2fold_dx_put(unsigned char *e, unsigned int i, __u32 hash,
				 __u32 block)
{
	if (i)
		e2fold_put_le32(e + E2FOLD_DX_ENTRY_SIZE * i, hash);
	e2fold_put_le32(e + E2FOLD_DX_ENTRY_SIZE * i + 4, block);
}

/* ---- whole blocks (htree.c) ---- */

/*
 * A fresh interior node in buf (blocksize bytes): the fake entry, then
 * count entries copied from entries (entry 0's hash slot is overwritten),
 * count and limit. The checksum tail is libext2fs's to add on write.
 */
void e2fold_dx_make_node(ext2_filsys fs, unsigned char *buf,
			 const unsigned char *entries, unsigned int count,
			 unsigned int limit);

/* Does buf start with an interior node's fake entry? */
int e2fold_dx_is_node(ext2_filsys fs, const unsigned char *buf);

/*
 * Is block 0 in buf a sound root header: "." and ".." where they belong,
 * reserved_zero 0 and info_length 8? (The hash version and the depth are
 * the caller's to judge.)
 */
int e2fold_dx_root_header_ok(const unsigned char *buf);

/*
 * Give the interior index node at logical block lblk of directory ino
 * room for `limit` entries: the limit field, and with metadata_csum the
 * tail that follows the last possible entry, are rewritten; the entries
 * stay. The checksum is recomputed, and still fails if it failed before,
 * so that what a checker would find stays the same. EXT2_ET_DIR_CORRUPTED
 * if the block is no interior node or holds more than `limit` entries.
 * (For Linux's and e2fsprogs' limits in directories with stored hashes,
 * see the top of this file.)
 */
errcode_t e2fold_dx_node_set_limit(ext2_filsys fs, ext2_ino_t ino,
				   blk64_t lblk, unsigned int limit);

#endif /* E2FOLD_HTREE_H */
