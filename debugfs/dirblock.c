/*
 * dirblock.c: one directory block at a time: read and write it by its
 * logical number, put a new entry into its free space, append a block.
 *
 * Free space in a block is the slack after an entry's name (its rec_len
 * minus 8 + name_len rounded up to 4) or an unused entry (inode 0); with
 * metadata_csum the last 12 bytes are the checksum tail and never used.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "debugfs.h"

errcode_t dirblock_read(struct session *s, ext2_ino_t dir, blk64_t lblk,
			void *buf, blk64_t *ret_pblk)
{
	blk64_t pblk = 0;
	errcode_t retval;

	retval = ext2fs_bmap2(s->fs, dir, NULL, NULL, 0, lblk, NULL, &pblk);
	if (retval)
		return retval;
	if (!pblk)
		return EXT2_ET_DIR_CORRUPTED;
	retval = ext2fs_read_dir_block4(s->fs, pblk, buf, 0, dir);
	if (retval && retval != EXT2_ET_DIR_CSUM_INVALID)
		return retval;
	*ret_pblk = pblk;
	return 0;
}

unsigned int dirblock_end(ext2_filsys fs)
{
	if (ext2fs_has_feature_metadata_csum(fs->super))
		return fs->blocksize - sizeof(struct ext2_dir_entry_tail);
	return fs->blocksize;
}

void dirblock_put(ext2_filsys fs, void *at, const struct new_name *nn,
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

void dirblock_finish(ext2_filsys fs, void *buf, unsigned int last_off)
{
	unsigned char *b = buf;

	ext2fs_set_rec_len(fs, dirblock_end(fs) - last_off,
			   (struct ext2_dir_entry *)(b + last_off));
	if (dirblock_end(fs) < fs->blocksize)
		ext2fs_initialize_dirent_tail(fs, EXT2_DIRENT_TAIL(buf,
							fs->blocksize));
}

/* The offset of an entry with room for need more bytes, or -1. */
static long find_room(ext2_filsys fs, unsigned char *buf, unsigned int need,
		      unsigned int *ret_used)
{
	unsigned int off = 0, end = dirblock_end(fs);

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

errcode_t dirblock_insert(struct session *s, ext2_ino_t dir, blk64_t lblk,
			  const struct new_name *nn)
{
	ext2_filsys fs = s->fs;
	unsigned char *buf = malloc(fs->blocksize);
	unsigned int used = 0, rec_len;
	struct ext2_dir_entry *de;
	blk64_t pblk;
	errcode_t retval;
	long off;

	if (!buf)
		return EXT2_ET_NO_MEMORY;
	retval = dirblock_read(s, dir, lblk, buf, &pblk);
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
	dirblock_put(fs, de, nn, rec_len - used);
	retval = ext2fs_write_dir_block4(fs, pblk, buf, 0, dir);
out:
	free(buf);
	return retval;
}

errcode_t dirblock_new(struct session *s, ext2_ino_t dir, blk64_t lblk,
		       const void *buf)
{
	struct ext2_inode inode;
	blk64_t pblk = 0;
	errcode_t retval;

	retval = session_load_bitmaps(s);
	if (!retval)
		retval = ext2fs_bmap2(s->fs, dir, NULL, NULL, BMAP_ALLOC, lblk,
				      NULL, &pblk);
	if (!retval)
		retval = ext2fs_write_dir_block4(s->fs, pblk, (void *)buf, 0, dir);
	if (!retval)
		retval = ext2fs_read_inode(s->fs, dir, &inode);
	if (retval)
		return retval;
	if (EXT2_I_SIZE(&inode) < (lblk + 1) * s->fs->blocksize) {
		retval = ext2fs_inode_size_set(s->fs, &inode,
					       (lblk + 1) * s->fs->blocksize);
		if (!retval)
			retval = ext2fs_write_inode(s->fs, dir, &inode);
	}
	return retval;
}

errcode_t dirblock_append(struct session *s, ext2_ino_t dir, blk64_t lblk,
			  const struct new_name *nn)
{
	unsigned char *buf = calloc(1, s->fs->blocksize);
	errcode_t retval;

	if (!buf)
		return EXT2_ET_NO_MEMORY;
	dirblock_put(s->fs, buf, nn, EXT2_DIR_REC_LEN(nn->len));
	dirblock_finish(s->fs, buf, 0);
	retval = dirblock_new(s, dir, lblk, buf);
	free(buf);
	return retval;
}
