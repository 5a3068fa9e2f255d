/*
 * dirblock.h: one directory block at a time, as the kernel edits it.
 *
 * Free space in a block is the slack after an entry's name (its rec_len
 * minus 8 + name_len rounded up to 4) or an unused entry (inode 0); with
 * metadata_csum the last 12 bytes are the checksum tail and never used.
 */
#ifndef E2FOLD_DIRBLOCK_H
#define E2FOLD_DIRBLOCK_H

#include <ext2fs/ext2fs.h>

/* An entry to add. */
struct e2fold_new_name {
	const unsigned char *name;
	unsigned int len;
	ext2_ino_t ino;
	int file_type;		/* EXT2_FT_* */
};

/*
 * Physical block pblk of directory dir into buf, its checksum not
 * verified: callers judge it where it matters (an index block's, in
 * dirread.c) and otherwise use the bytes as they are, a bad checksum
 * being e2fsck's to report. libext2fs would verify it, for nothing, at
 * the cost of a CRC per block read.
 */
errcode_t e2fold_dirblock_read_raw(ext2_filsys fs, ext2_ino_t dir,
				   blk64_t pblk, void *buf);

/* Logical block lblk of directory dir into buf (a bad checksum is read). */
errcode_t e2fold_dirblock_read(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
			       void *buf, blk64_t *ret_pblk);

/* Where a block's entries end: before the checksum tail, if any. */
unsigned int e2fold_dirblock_end(ext2_filsys fs);

/* Write entry nn at `at` with rec_len. */
void e2fold_dirblock_put(ext2_filsys fs, void *at,
			 const struct e2fold_new_name *nn, unsigned int rec_len);

/* Stretch the entry at last_off to the end; add the checksum tail. */
void e2fold_dirblock_finish(ext2_filsys fs, void *buf, unsigned int last_off);

/* nn into free space of block lblk; EXT2_ET_DIR_NO_SPACE if none. */
errcode_t e2fold_dirblock_insert(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
				 const struct e2fold_new_name *nn);

/*
 * Write buf as a new block lblk of dir, growing its size;
 * EXT2_ET_DIR_CORRUPTED if dir's map already holds a block there.
 */
errcode_t e2fold_dirblock_new(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
			      const void *buf);

/* A new block lblk holding only nn. */
errcode_t e2fold_dirblock_append(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
				 const struct e2fold_new_name *nn);

/*
 * Remove the entry at byte offset of block lblk, as ext4_delete_entry
 * does: the entry before it in the block takes its space, or, first in
 * its block, it keeps its rec_len with inode 0. EXT2_ET_DIR_CORRUPTED if
 * no entry starts at offset.
 */
errcode_t e2fold_dirblock_remove(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
				 unsigned int offset);

/*
 * Point the entry at byte offset of block lblk to ino with file_type
 * (a rename over an existing name, a moved directory's ".."); the name
 * stays as stored.
 */
errcode_t e2fold_dirblock_set_ino(ext2_filsys fs, ext2_ino_t dir, blk64_t lblk,
				  unsigned int offset, ext2_ino_t ino,
				  int file_type);

#endif /* E2FOLD_DIRBLOCK_H */
