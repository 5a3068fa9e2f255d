/*
 * dirinsert.h: a new entry in a directory, placed where the Linux kernel
 * would place it, and the block-level edits that adding, removing and
 * retargeting an entry need. e2fold-debugfs and e2fold-fuse share them.
 *
 * Free space in a block is the slack after an entry's name (its rec_len
 * minus 8 + name_len rounded up to 4) or an unused entry (inode 0); with
 * metadata_csum the last 12 bytes are the checksum tail and never used.
 * Every function that allocates blocks needs the filesystem's bitmaps
 * loaded (ext2fs_read_bitmaps) beforehand.
 */
#ifndef E2FOLD_DIRINSERT_H
#define E2FOLD_DIRINSERT_H

#include <ext2fs/ext2fs.h>

#include "dirread.h"
#include "unicode.h"

/* An entry to add. */
struct e2fold_new_name {
	const unsigned char *name;
	unsigned int len;
	ext2_ino_t ino;
	int file_type;		/* EXT2_FT_* */
};

/* How e2fold_dir_add placed a name. */
enum e2fold_add_how {
	E2FOLD_ADD_IN_PLACE,	/* into free space of a block */
	E2FOLD_ADD_NEW_BLOCK,	/* a new block at the end (linear) */
	E2FOLD_ADD_SPLIT,	/* its leaf was split */
	E2FOLD_ADD_REWRITTEN,	/* the whole directory was rewritten */
};

/*
 * Add nn to directory ino where the kernel would put it; um is the
 * filesystem's encoding (used only if the directory is casefolded). No
 * check is made that the name is new: callers look it up first. An
 * indexed directory takes the name into the leaf its hash leads to,
 * splitting that leaf when full; a linear one into the first block with
 * room, else a new block. Where the kernel would split an index block,
 * add an index level, index a one-block directory or move an inline one
 * into blocks, the whole directory is rewritten with e2fold_dir_write
 * instead, which gives the same lookups. Only an indexed directory's
 * index and the blocks it changes are read, unless it is rewritten.
 * Times and link counts are the caller's. An encrypted directory gives
 * EXT2_ET_UNIMPLEMENTED (a name cannot be hashed without the key), one
 * that would be rewritten but has malformed blocks EXT2_ET_DIR_CORRUPTED.
 */
errcode_t e2fold_dir_add(ext2_filsys fs, const struct unicode_map *um,
			 ext2_ino_t ino, const struct e2fold_new_name *nn,
			 enum e2fold_add_how *ret_how);

/*
 * nn into an indexed directory d with a sound index (d read with
 * e2fold_dir_read or e2fold_dir_read_index), as ext4_dx_add_entry does:
 * its leaf, split if full, after splitting full index blocks or giving
 * a full root a level. EXT2_ET_DIR_NO_SPACE only when the index can
 * grow no further (a full root at the deepest level allowed).
 */
errcode_t e2fold_dx_add(ext2_filsys fs, const struct unicode_map *um,
			const struct e2fold_dir *d,
			const struct e2fold_new_name *nn,
			enum e2fold_add_how *ret_how);

/*
 * Remove the entry at byte offset of logical block lblk (as e2fold_dir_read
 * reports it) from directory dir, as the kernel's unlink does: in its
 * block (e2fold_dirblock_remove); an inline directory, which has no
 * blocks to edit, is rewritten without it. um is the filesystem's
 * encoding. Times and link counts are the caller's.
 */
errcode_t e2fold_dir_remove(ext2_filsys fs, const struct unicode_map *um,
			    ext2_ino_t dir, blk64_t lblk, unsigned int offset);

/* ---- dirblock.c: one directory block at a time ---- */

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

/* Write buf as a new block lblk of dir, growing its size. */
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

#endif /* E2FOLD_DIRINSERT_H */
