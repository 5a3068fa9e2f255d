/*
 * pass1.c: the casefold flag on inodes. The kernel ignores it on
 * non-directories but refuses a casefolded directory on a filesystem
 * without the feature; and it cannot use the index of an encrypted
 * casefolded directory whose root does not say SipHash (pass 2 rebuilds
 * that index from the stored hashes).
 */
#include "config.h"

#include <stdlib.h>

#include <et/com_err.h>

#include "dirread.h"
#include "dirwrite.h"
#include "e2fsck.h"
#include "problem.h"
#include "fsck_report.h"

static const char *file_type_name(__u16 mode)
{
	if (LINUX_S_ISREG(mode))
		return "regular file";
	if (LINUX_S_ISLNK(mode))
		return "symbolic link";
	if (LINUX_S_ISCHR(mode))
		return "character device";
	if (LINUX_S_ISBLK(mode))
		return "block device";
	if (LINUX_S_ISFIFO(mode))
		return "fifo";
	if (LINUX_S_ISSOCK(mode))
		return "socket";
	return "unknown type";
}

/* Clear flag bits on an inode; 0 or an error. */
static errcode_t clear_inode_flags(struct fsck_ctx *ctx, ext2_ino_t ino,
				   __u32 flags, const char *what)
{
	struct ext2_inode_large inode;
	errcode_t retval;

	retval = ext2fs_read_inode_full(ctx->fs, ino, (struct ext2_inode *)&inode,
					sizeof(inode));
	if (retval)
		return retval;
	report_flag(ctx->report, ctx, what, ino, inode.i_flags,
		    inode.i_flags & ~flags);
	inode.i_flags &= ~flags;
	retval = ext2fs_write_inode_full(ctx->fs, ino, (struct ext2_inode *)&inode,
					 sizeof(inode));
	if (!retval)
		ctx->changed = 1;
	return retval;
}

/* The hash version in an indexed directory's root, or -1. */
static int root_hash_version(ext2_filsys fs, ext2_ino_t ino)
{
	struct e2fold_dir *dir;
	int version = -1;

	if (e2fold_dir_read(fs, ino, &dir))
		return -1;
	if (dir->dx_problem != E2FOLD_DX_UNREADABLE &&
	    dir->dx_problem != E2FOLD_DX_BAD_ROOT)
		version = dir->dx_hash_version;
	e2fold_dir_free(dir);
	return version;
}

/* Has a directory that is not inline a "system.data" attribute? */
static int inline_leftover(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_xattr_handle *h;
	struct ext2_inode inode;
	void *value = NULL;
	size_t len = 0;
	int found = 0;

	if (ext2fs_read_inode(fs, ino, &inode) ||
	    (inode.i_flags & EXT4_INLINE_DATA_FL) ||
	    ext2fs_xattrs_open(fs, ino, &h))
		return 0;
	if (!ext2fs_xattrs_read(h) &&
	    !ext2fs_xattr_get(h, "system.data", &value, &len)) {
		found = 1;
		ext2fs_free_mem(&value);
	}
	ext2fs_xattrs_close(&h);
	return found;
}

/*
 * What a run killed while it moved a directory out of inline data leaves
 * (e2fold_dir_drop_inline_attr in dirwrite.h): finish the move.
 */
static errcode_t check_inline_leftovers(struct fsck_ctx *ctx)
{
	struct problem_context pctx = { 0 };
	errcode_t retval = 0;
	size_t i;

	if (!ext2fs_has_feature_inline_data(ctx->fs->super))
		return 0;
	for (i = 0; i < ctx->n_dirs && !retval; i++) {
		pctx.ino = ctx->dirs[i].ino;
		if (!inline_leftover(ctx->fs, pctx.ino) ||
		    !fix_problem(ctx, PR_1_INLINE_LEFTOVER, &pctx))
			continue;
		retval = e2fold_dir_drop_inline_attr(ctx->fs, pctx.ino);
		if (!retval)
			ctx->changed = 1;
	}
	return retval;
}

errcode_t fsck_pass1(struct fsck_ctx *ctx)
{
	ext2_filsys fs = ctx->fs;
	struct problem_context pctx = { 0 };
	errcode_t retval = 0;
	size_t i;

	retval = check_inline_leftovers(ctx);
	for (i = 0; i < ctx->n_cf_nondirs && !retval; i++) {
		struct ext2_inode inode;

		pctx.ino = ctx->cf_nondirs[i];
		/* The scan read it a moment ago: failing now is an I/O error,
		 * not a reason to drop the finding silently. */
		retval = ext2fs_read_inode(fs, pctx.ino, &inode);
		if (retval) {
			com_err(ctx->prog, retval, "while reading inode %u",
				pctx.ino);
			break;
		}
		pctx.str = file_type_name(inode.i_mode);
		if (fix_problem(ctx, PR_1_CASEFOLD_NONDIR, &pctx))
			retval = clear_inode_flags(ctx, pctx.ino,
						   EXT4_CASEFOLD_FL,
						   "clear_casefold_flag");
	}
	pctx.str = NULL;
	for (i = 0; i < ctx->n_dirs && !retval; i++) {
		struct scanned_dir *d = &ctx->dirs[i];

		if (!d->casefolded)
			continue;
		pctx.ino = d->ino;
		if (!ext2fs_has_feature_casefold(fs->super)) {
			/* Pass 0's missing feature, declined: said there. */
			if (ctx->feature_missing ||
			    !fix_problem(ctx, PR_1_CASEFOLD_NO_FEATURE, &pctx)) {
				d->skip = 1;	/* cannot be checked either */
				continue;
			}
			retval = clear_inode_flags(ctx, d->ino, EXT4_CASEFOLD_FL,
						   "clear_casefold_flag");
			/* Its index was hashed casefolded: pass 2 rehashes it. */
			d->casefolded = 0;
			ctx->n_cf_dirs--;
			continue;
		}
		if (d->encrypted && d->indexed) {
			int version = root_hash_version(fs, d->ino);

			if (version >= 0 && version != EXT2_HASH_SIPHASH) {
				pctx.num = version;
				if (fix_problem(ctx, PR_1_ENCRYPT_HASH_VERSION,
						&pctx))
					d->rebuild = 1;
			}
		}
	}
	return retval;
}
