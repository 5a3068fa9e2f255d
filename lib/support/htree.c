/* htree.c: whole index blocks of the ext4 hash-tree format (htree.h). */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "htree.h"

void e2fold_dx_make_node(ext2_filsys fs, unsigned char *buf,
			 const unsigned char *entries, unsigned int count,
			 unsigned int limit)
{
	unsigned char *e = buf + E2FOLD_DX_NODE_ENTRIES_OFFSET;

	memset(buf, 0, fs->blocksize);
	ext2fs_set_rec_len(fs, fs->blocksize, (struct ext2_dir_entry *)buf);
	if (count)
		memcpy(e, entries, E2FOLD_DX_ENTRY_SIZE * count);
	e2fold_dx_set_limit(e, limit);
	e2fold_dx_set_count(e, count);
}

int e2fold_dx_is_node(ext2_filsys fs, const unsigned char *buf)
{
	struct ext2_dir_entry *de = (struct ext2_dir_entry *)buf;
	unsigned int rec_len = 0;

	return !ext2fs_get_rec_len(fs, de, &rec_len) &&
	       rec_len == fs->blocksize && de->inode == 0 &&
	       ext2fs_dirent_name_len(de) == 0;
}

int e2fold_dx_root_header_ok(const unsigned char *buf)
{
	/* "." is 12 bytes with a 1-byte name; ".." follows with a 2-byte one. */
	return e2fold_le16_at(buf + 4) == 12 && buf[6] == 1 && buf[12 + 6] == 2 &&
	       e2fold_le32_at(buf + E2FOLD_DX_ROOT_RESERVED_ZERO) == 0 &&
	       buf[E2FOLD_DX_ROOT_INFO_LENGTH] == E2FOLD_DX_ROOT_INFO_SIZE;
}

errcode_t e2fold_dx_node_set_limit(ext2_filsys fs, ext2_ino_t ino,
				   blk64_t lblk, unsigned int limit)
{
	unsigned int count, tail = e2fold_dx_tail_size(fs), csum_off;
	unsigned char *buf, *e;
	int was_valid = 1;
	blk64_t pblk = 0;
	errcode_t retval;

	if (E2FOLD_DX_NODE_ENTRIES_OFFSET + limit * E2FOLD_DX_ENTRY_SIZE +
	    tail > fs->blocksize)
		return EXT2_ET_DIR_CORRUPTED;
	retval = ext2fs_bmap2(fs, ino, NULL, NULL, 0, lblk, NULL, &pblk);
	if (retval)
		return retval;
	if (!pblk)
		return EXT2_ET_DIR_CORRUPTED;
	retval = ext2fs_get_mem(fs->blocksize, &buf);
	if (retval)
		return retval;
	retval = io_channel_read_blk64(fs->io, pblk, 1, buf);
	if (retval)
		goto out;
	e = buf + E2FOLD_DX_NODE_ENTRIES_OFFSET;
	count = e2fold_dx_count(e);
	if (!e2fold_dx_is_node(fs, buf) || count > limit) {
		retval = EXT2_ET_DIR_CORRUPTED;
		goto out;
	}
	if (tail)
		was_valid = ext2fs_dir_block_csum_verify(fs, ino,
					(struct ext2_dir_entry *)buf);
	/* Past the entries: the old tail goes, the new one is written. */
	memset(e + count * E2FOLD_DX_ENTRY_SIZE, 0, fs->blocksize -
	       E2FOLD_DX_NODE_ENTRIES_OFFSET - count * E2FOLD_DX_ENTRY_SIZE);
	e2fold_dx_set_limit(e, limit);
	if (tail) {
		retval = ext2fs_dir_block_csum_set(fs, ino,
					(struct ext2_dir_entry *)buf);
		if (retval)
			goto out;
		/* A checksum that failed before still fails. */
		csum_off = E2FOLD_DX_NODE_ENTRIES_OFFSET +
			   limit * E2FOLD_DX_ENTRY_SIZE +
			   offsetof(struct ext2_dx_tail, dt_checksum);
		if (!was_valid)
			buf[csum_off] ^= 1;
	}
	retval = io_channel_write_blk64(fs->io, pblk, 1, buf);
out:
	ext2fs_free_mem(&buf);
	return retval;
}
