/*
 * dxgeometry.h: where an htree index block keeps its entries, and how many
 * it may hold, as the Linux kernel computes them.
 *
 * An index block starts with a fake directory entry that hides it from
 * readers of linear directories: the root with "." (12 bytes), ".." and
 * the 8-byte root info, so its entries start at byte 32; an interior node
 * with one empty entry covering the block, so its entries start at byte 8.
 * With metadata_csum an 8-byte tail follows the last possible entry
 * (entry number `limit`), not the end of the block.
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
 * e2fsprogs 1.47 expects the larger limit in every directory.
 */
#ifndef E2FOLD_DXGEOMETRY_H
#define E2FOLD_DXGEOMETRY_H

#include <ext2fs/ext2fs.h>

#define DX_ROOT_INFO_OFFSET 24		/* after "." (12) and ".." (12) */
#define DX_ROOT_ENTRIES_OFFSET 32	/* after the 8-byte root info */
#define DX_NODE_ENTRIES_OFFSET 8	/* after the empty fake entry */
#define DX_HASH_IN_ENTRY_SIZE 8		/* {le32 hash, le32 minor_hash} */

static inline unsigned int e2fold_dx_tail_size(ext2_filsys fs)
{
	return ext2fs_has_feature_metadata_csum(fs->super) ?
		sizeof(struct ext2_dx_tail) : 0;
}

/* Entries the root block holds. */
static inline unsigned int e2fold_dx_root_limit(ext2_filsys fs)
{
	return (fs->blocksize - DX_ROOT_ENTRIES_OFFSET -
		e2fold_dx_tail_size(fs)) / sizeof(struct ext2_dx_entry);
}

/*
 * Entries an interior node holds; stored_hashes: the directory keeps
 * hashes in its entries (encrypted and casefolded).
 */
static inline unsigned int e2fold_dx_node_limit(ext2_filsys fs,
						int stored_hashes)
{
	unsigned int header = DX_NODE_ENTRIES_OFFSET +
		(stored_hashes ? DX_HASH_IN_ENTRY_SIZE : 0);

	return (fs->blocksize - header - e2fold_dx_tail_size(fs)) /
		sizeof(struct ext2_dx_entry);
}

#endif
