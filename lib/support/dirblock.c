/*
 * dirblock.c: one directory block at a time: read and write it by its
 * logical number, put a new entry into its free space, append a block,
 * take an entry out, point an entry elsewhere (dirblock.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dirblock.h"

errcode_t e2fold_dirblock_read_raw(ext2_filsys fs, ext2_ino_t dir,
				   blk64_t pblk, void *buf)
{
	int ignoring = fs->flags & EXT2_FLAG_IGNORE_CSUM_ERRORS;
	errcode_t retval;

	fs->flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
	retval = ext2fs_read_dir_block4(fs, pblk, buf, 0, dir);
	if (!ignoring)
		fs->flags &= ~EXT2_FLAG_IGNORE_CSUM_ERRORS;
	return retval;
}

errcode_t e2fold_dirblock_read(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
			void *buf, blk64_t *ret_pblk)
{
	blk64_t pblk = 0;
	errcode_t retval;

	retval = ext2fs_bmap2(fs, dir, NULL, NULL, 0, lblk, NULL, &pblk);
	if (retval)
		return retval;
	if (!pblk)
		return EXT2_ET_DIR_CORRUPTED;
	retval = e2fold_dirblock_read_raw(fs, dir, pblk, buf);
	if (retval)
		return retval;
	*ret_pblk = pblk;
	return 0;
}

unsigned int e2fold_dirblock_end(ext2_filsys fs)
{
	if (ext2fs_has_feature_metadata_csum(fs->super))
		return fs->blocksize - sizeof(struct ext2_dir_entry_tail);
	return fs->blocksize;
}

void e2fold_dirblock_put(ext2_filsys fs, void *at, const struct e2fold_new_name *nn,
		  unsigned int rec_len)
{
	struct ext2_dir_entry *de = at;

	de->inode = nn->ino;
	ext2fs_dirent_set_name_len(de, nn->len);
	ext2fs_dirent_set_file_type(de, ext2fs_has_feature_filetype(fs->super) ?
				    nn->file_type : 0);
	memcpy(de->name, nn->name, nn->len);
	ext2fs_set_rec_len(fs, rec_len, de);
}

void e2fold_dirblock_finish(ext2_filsys fs, void *buf, unsigned int last_off)
{
	unsigned char *b = buf;

	ext2fs_set_rec_len(fs, e2fold_dirblock_end(fs) - last_off,
			   (struct ext2_dir_entry *)(b + last_off));
	if (e2fold_dirblock_end(fs) < fs->blocksize)
		ext2fs_initialize_dirent_tail(fs, EXT2_DIRENT_TAIL(buf,
							fs->blocksize));
}

/* The offset of an entry with room for need more bytes, or -1. */
static long find_room(ext2_filsys fs, unsigned char *buf, unsigned int need,
		      unsigned int *ret_used)
{
	unsigned int off = 0, end = e2fold_dirblock_end(fs);

	while (off < end) {
		struct ext2_dir_entry *de = (struct ext2_dir_entry *)(buf + off);
		unsigned int rec_len, used;

		if (ext2fs_get_rec_len(fs, de, &rec_len) || rec_len < 8 ||
		    off + rec_len > end)
			return -1;
		used = de->inode ? EXT2_DIR_REC_LEN(ext2fs_dirent_name_len(de)) : 0;
		if (rec_len >= used + need) {
			*ret_used = used;
			return off;
		}
		off += rec_len;
	}
	return -1;
}

errcode_t e2fold_dirblock_insert(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
			  const struct e2fold_new_name *nn)
{
	unsigned char *buf = malloc(fs->blocksize);
	unsigned int used = 0, rec_len;
	struct ext2_dir_entry *de;
	blk64_t pblk;
	errcode_t retval;
	long off;

	if (!buf)
		return EXT2_ET_NO_MEMORY;
	retval = e2fold_dirblock_read(fs, dir, lblk, buf, &pblk);
	if (retval)
		goto out;
	off = find_room(fs, buf, EXT2_DIR_REC_LEN(nn->len), &used);
	if (off < 0) {
		retval = EXT2_ET_DIR_NO_SPACE;
		goto out;
	}
	de = (struct ext2_dir_entry *)(buf + off);
	ext2fs_get_rec_len(fs, de, &rec_len);
	if (used) {
		ext2fs_set_rec_len(fs, used, de);
		de = (struct ext2_dir_entry *)(buf + off + used);
	}
	e2fold_dirblock_put(fs, de, nn, rec_len - used);
	retval = ext2fs_write_dir_block4(fs, pblk, buf, 0, dir);
out:
	free(buf);
	return retval;
}

errcode_t e2fold_dirblock_new(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
		       const void *buf)
{
	struct ext2_inode inode;
	blk64_t pblk = 0;
	errcode_t retval;

	/*
	 * A block past the directory's end that its map already holds: a
	 * damaged map (a block-mapped inode's i_block can name any number,
	 * past the filesystem's end or another file's block). Writing there
	 * would lose the name, or overwrite what the block holds; the kernel's
	 * ext4_append refuses it ("Logical block already allocated").
	 */
	retval = ext2fs_bmap2(fs, dir, NULL, NULL, 0, lblk, NULL, &pblk);
	if (!retval && pblk)
		retval = EXT2_ET_DIR_CORRUPTED;
	if (!retval)
		retval = ext2fs_bmap2(fs, dir, NULL, NULL, BMAP_ALLOC, lblk,
				      NULL, &pblk);
	if (!retval)
		retval = ext2fs_write_dir_block4(fs, pblk, (void *)buf, 0, dir);
	if (!retval)
		retval = ext2fs_read_inode(fs, dir, &inode);
	if (retval)
		return retval;
	if (EXT2_I_SIZE(&inode) < (lblk + 1) * fs->blocksize) {
		retval = ext2fs_inode_size_set(fs, &inode,
					       (lblk + 1) * fs->blocksize);
		if (!retval)
			retval = ext2fs_write_inode(fs, dir, &inode);
	}
	return retval;
}

errcode_t e2fold_dirblock_append(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
			  const struct e2fold_new_name *nn)
{
	unsigned char *buf = calloc(1, fs->blocksize);
	errcode_t retval;

	if (!buf)
		return EXT2_ET_NO_MEMORY;
	e2fold_dirblock_put(fs, buf, nn, EXT2_DIR_REC_LEN(nn->len));
	e2fold_dirblock_finish(fs, buf, 0);
	retval = e2fold_dirblock_new(fs, dir, lblk, buf);
	free(buf);
	return retval;
}

/*
 * The offset of the entry before the one at offset in the block (-1 if
 * it is the first), or -2 if no entry starts at offset.
 */
static long entry_before(ext2_filsys fs, unsigned char *buf,
			 unsigned int offset)
{
	unsigned int off = 0, end = e2fold_dirblock_end(fs);
	long prev = -1;

	while (off < end) {
		unsigned int rec_len;

		if (off == offset)
			return prev;
		if (ext2fs_get_rec_len(fs, (struct ext2_dir_entry *)(buf + off),
				       &rec_len) || rec_len < 8 ||
		    off + rec_len > end)
			return -2;
		prev = off;
		off += rec_len;
	}
	return -2;
}

errcode_t e2fold_dirblock_remove(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
				 unsigned int offset)
{
	unsigned char *buf = malloc(fs->blocksize);
	struct ext2_dir_entry *de, *prev_de;
	unsigned int rec_len, prev_len;
	blk64_t pblk;
	errcode_t retval;
	long prev;

	if (!buf)
		return EXT2_ET_NO_MEMORY;
	retval = e2fold_dirblock_read(fs, dir, lblk, buf, &pblk);
	if (retval)
		goto out;
	prev = entry_before(fs, buf, offset);
	retval = EXT2_ET_DIR_CORRUPTED;
	if (prev == -2)
		goto out;
	de = (struct ext2_dir_entry *)(buf + offset);
	if (prev < 0) {
		de->inode = 0;
	} else {
		prev_de = (struct ext2_dir_entry *)(buf + prev);
		if (ext2fs_get_rec_len(fs, prev_de, &prev_len) ||
		    ext2fs_get_rec_len(fs, de, &rec_len))
			goto out;
		ext2fs_set_rec_len(fs, prev_len + rec_len, prev_de);
	}
	retval = ext2fs_write_dir_block4(fs, pblk, buf, 0, dir);
out:
	free(buf);
	return retval;
}

errcode_t e2fold_dirblock_set_ino(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
				  unsigned int offset, ext2_ino_t ino,
				  int file_type)
{
	unsigned char *buf = malloc(fs->blocksize);
	struct ext2_dir_entry *de;
	blk64_t pblk;
	errcode_t retval;

	if (!buf)
		return EXT2_ET_NO_MEMORY;
	retval = e2fold_dirblock_read(fs, dir, lblk, buf, &pblk);
	if (retval)
		goto out;
	retval = EXT2_ET_DIR_CORRUPTED;
	if (entry_before(fs, buf, offset) == -2)
		goto out;
	de = (struct ext2_dir_entry *)(buf + offset);
	de->inode = ino;
	if (ext2fs_has_feature_filetype(fs->super))
		ext2fs_dirent_set_file_type(de, file_type);
	retval = ext2fs_write_dir_block4(fs, pblk, buf, 0, dir);
out:
	free(buf);
	return retval;
}
