/*
 * errors.c: corruption met while serving, handled as ext4 mounted with
 * errors=remount-ro handles it (ext4_handle_error): a log line naming the
 * inode, the superblock's error fields (state, count, first and last
 * error: time, inode, function, error code), which e2fsck and dumpe2fs
 * read, written at once, and no write after it: every request that would
 * write answers EROFS from then on. With a journal, the open transaction
 * is abandoned, as jbd2 aborts its journal: what the requests since the
 * last commit changed never reaches the image (the kernel loses them the
 * same way), and the image stays as the last commit left it, with the
 * error recorded. Without one, what earlier requests left in memory
 * (bitmaps, counts) is still written at unmount. Either way the
 * filesystem stays marked as having errors, so that the next mount
 * serves it read-only until it is checked (mount.c).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <et/com_err.h>

#include "e2fuse.h"
#include "txnio.h"

int e2fuse_is_corruption(errcode_t retval)
{
	switch (retval) {
	case EXT2_ET_DIR_CORRUPTED:
	case EXT2_ET_DIR_CSUM_INVALID:
	case EXT2_ET_INODE_CSUM_INVALID:
	case EXT2_ET_INODE_IS_GARBAGE:
	case EXT2_ET_EXTENT_HEADER_BAD:
	case EXT2_ET_EXTENT_INDEX_BAD:
	case EXT2_ET_EXTENT_LEAF_BAD:
	case EXT2_ET_EXTENT_CSUM_INVALID:
	case EXT2_ET_BAD_BLOCK_NUM:
	case EXT2_ET_BAD_IND_BLOCK:
	case EXT2_ET_BAD_DIND_BLOCK:
	case EXT2_ET_BAD_TIND_BLOCK:
	case EXT2_ET_EXT_ATTR_CSUM_INVALID:
	case EXT2_ET_BAD_EA_HEADER:
	case EXT2_ET_INLINE_DATA_NO_SPACE:
		return 1;
	}
	return 0;
}

/* The kernel's codes: a checksum that fails, or a structure that does. */
static int corruption_errno(errcode_t retval)
{
	switch (retval) {
	case EXT2_ET_DIR_CSUM_INVALID:
	case EXT2_ET_INODE_CSUM_INVALID:
	case EXT2_ET_EXTENT_CSUM_INVALID:
	case EXT2_ET_EXT_ATTR_CSUM_INVALID:
		return EBADMSG;		/* EFSBADCRC */
	}
	return EUCLEAN;			/* EFSCORRUPTED */
}

/* Both error records, as ext4's __save_error_info fills them. */
static void save_error(struct ext2_super_block *sb, ext2_ino_t ino,
		       const char *func, errcode_t retval, __u32 now)
{
	int code = corruption_errno(retval);

	sb->s_state |= EXT2_ERROR_FS;
	if (!sb->s_error_count) {
		sb->s_first_error_time = now;
		sb->s_first_error_ino = ino;
		sb->s_first_error_block = 0;
		sb->s_first_error_line = 0;
		sb->s_first_error_errcode = code;
		memset(sb->s_first_error_func, 0, sizeof(sb->s_first_error_func));
		strncpy((char *)sb->s_first_error_func, func,
			sizeof(sb->s_first_error_func));
	}
	sb->s_error_count++;
	sb->s_last_error_time = now;
	sb->s_last_error_ino = ino;
	sb->s_last_error_block = 0;
	sb->s_last_error_line = 0;
	sb->s_last_error_errcode = code;
	memset(sb->s_last_error_func, 0, sizeof(sb->s_last_error_func));
	strncpy((char *)sb->s_last_error_func, func,
		sizeof(sb->s_last_error_func));
}

int e2fuse_corrupt(struct e2fuse *srv, ext2_ino_t ino, const char *func,
		   errcode_t retval)
{
	ext2_filsys fs = srv->fs;

	com_err("e2fold-fuse", retval, "%s: inode %u (%s): corruption met; "
		"no more writes until e2fold-fsck -f %s repairs it",
		srv->opt.image, ino, func, srv->opt.image);
	if (srv->opt.readonly || srv->failed)
		return corruption_errno(retval);
	srv->failed = 1;
	save_error(fs->super, ino, func, retval, e2fuse_now(srv));
	/*
	 * The superblock alone, now (with a journal, the primary alone: the
	 * rest of the transaction is abandoned).
	 */
	if (srv->journaled)
		e2fold_txn_abort(fs);
	fs->flags |= EXT2_FLAG_SUPER_ONLY |
		     (srv->journaled ? EXT2_FLAG_MASTER_SB_ONLY : 0);
	ext2fs_mark_super_dirty(fs);
	if (ext2fs_flush(fs))
		com_err("e2fold-fuse", 0, "%s: could not record the error in "
			"the superblock", srv->opt.image);
	fs->flags &= ~(EXT2_FLAG_SUPER_ONLY | EXT2_FLAG_MASTER_SB_ONLY);
	return corruption_errno(retval);
}
