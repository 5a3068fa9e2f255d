/*
 * space.c: enough free blocks before any directory is rewritten.
 *
 * e2fold_dir_write allocates blocks as it writes; a filesystem that runs
 * out part way leaves the directory it was writing broken. So the
 * rewrites of a step are sized before the first one, with an upper bound
 * of the layout dirwrite.h describes:
 *   - one block if ".", ".." and the entries fit in it;
 *   - otherwise blocks filled in order: a block is closed only when the
 *     next entry does not fit, so it holds more than cap - max_rec_len
 *     bytes, and S bytes of entries need at most
 *     S / (cap - max_rec_len + 1) + 1 blocks (cap: the block less the
 *     checksum tail);
 *   - indexed: a root, and index nodes when the leaves outnumber the
 *     root's entries;
 *   - and room for the block map or extent tree to grow.
 * A directory needs what the bound exceeds its present size by.
 */
#include "config.h"

#include "dirread.h"
#include "htree.h"
#include "renameplan.h"
#include "tune.h"

/* The block map or extent tree of a directory of this many blocks. */
static blk64_t map_blocks(ext2_filsys fs, blk64_t blocks)
{
	/* Up to four extents live in the inode; then a block per ~bs/16. */
	return blocks > 4 ? 2 + blocks / (fs->blocksize / 16) : 0;
}

blk64_t tune_rewrite_blocks(ext2_filsys fs, const struct e2fold_dir *dir,
			    const struct e2fold_rename_plan *plans,
			    size_t nplans)
{
	unsigned int cap = fs->blocksize, max_rl = 0;
	int stored = dir->encrypted && dir->casefolded;
	blk64_t bytes = 0, blocks, leaves, nodes = 0;
	size_t i;

	if (ext2fs_has_feature_metadata_csum(fs->super))
		cap -= sizeof(struct ext2_dir_entry_tail);
	for (i = 0; i < dir->nents; i++) {
		unsigned int rl = ext2fs_dir_rec_len(dir->ents[i].name_len,
						     stored);

		bytes += rl;
		if (rl > max_rl)
			max_rl = rl;
	}
	/* A renamed entry takes its new name's room instead. */
	for (i = 0; i < nplans; i++) {
		unsigned int rl = ext2fs_dir_rec_len(plans[i].len, stored);

		bytes -= ext2fs_dir_rec_len(dir->ents[plans[i].index].name_len,
					    stored);
		bytes += rl;
		if (rl > max_rl)
			max_rl = rl;
	}
	if (2 * EXT2_DIR_REC_LEN(2) + bytes <= cap)
		return 1;
	leaves = bytes / (cap - max_rl + 1) + 1;
	if (!ext2fs_has_feature_dir_index(fs->super))
		blocks = leaves + 1;	/* "." and ".." take room too */
	else {
		blk64_t node_limit = e2fold_dx_node_limit(fs, stored);

		if (leaves > e2fold_dx_root_limit(fs))
			nodes = (leaves + node_limit - 1) / node_limit;
		blocks = 1 + nodes + leaves;
	}
	return blocks + map_blocks(fs, blocks);
}

int tune_check_space(struct tune_ctx *ctx, blk64_t need, const char *what)
{
	blk64_t free_blocks = ext2fs_free_blocks_count(ctx->fs->super);

	if (need <= free_blocks)
		return TUNE_OK;
	printf("Not enough free space to %s: the rewritten directories may "
	       "need up to %llu more blocks, and %llu are free.\n", what,
	       (unsigned long long)need, (unsigned long long)free_blocks);
	return TUNE_REFUSED;
}
