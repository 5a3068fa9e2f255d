/*
 * scan.c: one pass over the inode table to find what the passes work on:
 * every directory (and whether it is casefolded), and the casefold flag
 * where it does not belong. Nothing is reported here: the passes decide.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "e2fsck.h"

static errcode_t push(void **array, size_t *n, size_t *cap, size_t elsize,
		      const void *item)
{
	errcode_t retval = e2fold_array_reserve(array, cap, *n + 1, elsize);

	if (retval)
		return retval;
	memcpy((char *)*array + *n * elsize, item, elsize);
	(*n)++;
	return 0;
}

errcode_t fsck_scan(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	ext2_inode_scan scan;
	struct ext2_inode_large inode;
	size_t cap_dirs = 0, cap_nondirs = 0;

	ctx->n_dirs = ctx->n_cf_dirs = ctx->n_cf_nondirs = 0;
	ext2_ino_t ino, total = fs->super->s_inodes_count;
	errcode_t retval;

	free(ctx->dirs);
	free(ctx->cf_nondirs);
	ctx->dirs = NULL;
	ctx->cf_nondirs = NULL;
	retval = ext2fs_open_inode_scan(fs, 0, &scan);
	if (retval)
		return retval;
	ext2fs_inode_scan_flags(scan, EXT2_SF_SKIP_MISSING_ITABLE, 0);
	for (;;) {
		retval = ext2fs_get_next_inode_full(scan, &ino,
						    (struct ext2_inode *)&inode,
						    sizeof(inode));
		/* Damaged inode tables and checksums are e2fsck's to judge. */
		if (retval == EXT2_ET_BAD_BLOCK_IN_INODE_TABLE ||
		    retval == EXT2_ET_INODE_CSUM_INVALID ||
		    retval == EXT2_ET_INODE_IS_GARBAGE)
			retval = 0;
		if (retval || !ino)
			break;
		if ((ino & 0xfff) == 0) {
			fsck_progress(ctx, 1, ino, total);
			if (fsck_cancelled(ctx))
				break;	/* nothing written yet: stop here */
		}
		if (!inode.i_links_count || !inode.i_mode)
			continue;
		if (ino < EXT2_FIRST_INODE(fs->super) && ino != EXT2_ROOT_INO)
			continue;
		if (LINUX_S_ISDIR(inode.i_mode)) {
			struct scanned_dir d = {
				.ino = ino,
				.casefolded = !!(inode.i_flags & EXT4_CASEFOLD_FL),
				.encrypted = !!(inode.i_flags & EXT4_ENCRYPT_FL),
				.indexed = !!(inode.i_flags & EXT2_INDEX_FL),
			};

			ctx->n_cf_dirs += d.casefolded;
			retval = push((void **)&ctx->dirs, &ctx->n_dirs,
				      &cap_dirs, sizeof(d), &d);
		} else if (inode.i_flags & EXT4_CASEFOLD_FL) {
			retval = push((void **)&ctx->cf_nondirs,
				      &ctx->n_cf_nondirs, &cap_nondirs,
				      sizeof(ino), &ino);
		}
		if (retval)
			break;
	}
	fsck_progress(ctx, 1, total, total);
	ext2fs_close_inode_scan(scan);
	return retval;
}
