/*
 * relink.c: taking the second of two entries with one encrypted name out
 * of its directory, without losing the file it names.
 *
 * In an encrypted directory names are ciphertext: without the key no new
 * name can be made, so a duplicate cannot be renamed as pass 2 renames
 * others. A byte-identical ciphertext is the same plaintext name, and the
 * kernel's lookup returns only the first of the pair it meets (see
 * doc/encrypted-htree.md), so the second entry is unreachable by name.
 * When both lead to the same inode, the second entry is only removed.
 * When they lead to different inodes, the second inode is first linked
 * into /lost+found as "#INO", the name e2fsck gives the inodes it
 * reconnects there, then its entry is removed: no file is lost, and the
 * owner, with the key, can move it back under a name of their choice.
 *
 * Link counts stay right at every step that completes, and no kill
 * leaves an inode with more names than links: its count goes up (and
 * reaches the disk) before the new entry is written, and comes down
 * only after the rewritten directory without the old entry is committed
 * (rehash.c). A run killed after the link but before that commit leaves
 * "#INO" in /lost+found already naming the inode; the next run finds it
 * there and does not link it twice.
 * e2fsck has run before pass 2 and counted both entries of a pair, so a
 * removed entry's reference is in the count; without e2fsck the count
 * may not have included it, so it is never taken below what any inode
 * still named needs (1; 2 for a directory).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "e2fsck.h"

errcode_t fsck_find_lost_found(struct fsck_ctx *ctx, ext2_ino_t *ret_ino,
			       const char **ret_why)
{
	ext2_filsys fs = ctx->fs;
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t retval;

	*ret_ino = 0;
	retval = ext2fs_lookup(fs, EXT2_ROOT_INO, "lost+found", 10, NULL, &ino);
	if (retval) {
		*ret_why = "there is none";
		return 0;
	}
	retval = ext2fs_read_inode(fs, ino, &inode);
	if (retval)
		return retval;
	/* As e2fsck: an encrypted lost+found could take no plaintext name. */
	if (!LINUX_S_ISDIR(inode.i_mode))
		*ret_why = "it is not a directory";
	else if (inode.i_flags & EXT4_ENCRYPT_FL)
		*ret_why = "it is encrypted";
	else
		*ret_ino = ino;
	return 0;
}

static errcode_t add_links(ext2_filsys fs, ext2_ino_t ino, int delta)
{
	struct ext2_inode inode;
	errcode_t retval;
	int floor;

	retval = ext2fs_read_inode(fs, ino, &inode);
	if (retval)
		return retval;
	floor = LINUX_S_ISDIR(inode.i_mode) ? 2 : 1;
	if (delta < 0 && inode.i_links_count < floor - delta)
		return 0;
	inode.i_links_count += delta;
	return ext2fs_write_inode(fs, ino, &inode);
}

struct dotdot {
	ext2_ino_t parent;
	int done;
};

static int set_dotdot(struct ext2_dir_entry *dirent, int offset, int blocksize,
		      char *buf, void *arg)
{
	struct dotdot *dd = arg;

	(void)offset;
	(void)blocksize;
	(void)buf;
	if (ext2fs_dirent_name_len(dirent) != 2 ||
	    memcmp(dirent->name, "..", 2))
		return 0;
	dirent->inode = dd->parent;
	dd->done = 1;
	return DIRENT_CHANGED | DIRENT_ABORT;
}

/* Is name in /lost+found already a link to ino (an interrupted run's)? */
static int linked_before(ext2_filsys fs, ext2_ino_t lost_found,
			 const char *name, ext2_ino_t ino)
{
	ext2_ino_t found = 0;

	return !ext2fs_lookup(fs, lost_found, name, strlen(name), NULL,
			      &found) && found == ino;
}

/* The entry "#INO" in /lost+found, its directory grown if need be. */
static errcode_t link_name(ext2_filsys fs, ext2_ino_t lost_found,
			   const char *name, ext2_ino_t ino, int file_type)
{
	errcode_t retval = ext2fs_link(fs, lost_found, name, ino, file_type);

	if (retval == EXT2_ET_DIR_NO_SPACE) {
		retval = ext2fs_expand_dir(fs, lost_found);
		if (!retval)
			retval = ext2fs_link(fs, lost_found, name, ino,
					     file_type);
	}
	return retval;
}

errcode_t fsck_relink(struct fsck_ctx *ctx, ext2_ino_t lost_found,
		      ext2_ino_t ino, int file_type)
{
	ext2_filsys fs = ctx->fs;
	struct dotdot dd = { .parent = lost_found };
	char name[16];
	errcode_t retval;

	snprintf(name, sizeof(name), "#%u", ino);
	if (!fs->block_map) {
		retval = ext2fs_read_bitmaps(fs);
		if (retval)
			return retval;
	}
	if (linked_before(fs, lost_found, name, ino))
		return 0;
	ctx->changed = 1;
	/* The count first, on disk before the name (see the top). */
	retval = add_links(fs, ino, 1);
	if (!retval)
		retval = io_channel_flush(fs->io);
	if (!retval)
		retval = link_name(fs, lost_found, name, ino, file_type);
	if (!retval)
		retval = io_channel_flush(fs->io);
	if (retval || file_type != EXT2_FT_DIR)
		return retval;
	/* A directory's ".." follows it; its old parent loses the link. */
	retval = add_links(fs, lost_found, 1);
	if (!retval)
		retval = io_channel_flush(fs->io);
	if (!retval)
		retval = ext2fs_dir_iterate(fs, ino, DIRENT_FLAG_INCLUDE_EMPTY,
					    NULL, set_dotdot, &dd);
	if (!retval && !dd.done)
		retval = EXT2_ET_DIR_CORRUPTED;
	return retval;
}

errcode_t fsck_drop_reference(struct fsck_ctx *ctx, ext2_ino_t dir,
			      const struct entry_drop *drop)
{
	errcode_t retval = add_links(ctx->fs, drop->ino, -1);

	if (!retval && drop->relinked && drop->file_type == EXT2_FT_DIR)
		retval = add_links(ctx->fs, dir, -1);
	return retval;
}
