/*
 * diredit.h: edit a directory as ext4 does (fs/ext4/namei.c). Every tool
 * that changes a directory's entries goes through this layer, so that a
 * name lands where the kernel would put it, a directory written anew gets
 * the hash version the kernel would give it, and a parent's link count
 * follows the kernel's rule (dirlinks.h):
 *   diradd.c    a new name: in place, in a new block, or a rewrite
 *   dxinsert.c  a new name in an indexed directory (leaf and index splits)
 *   diredit.c   removing a name, the layout of a rewrite, a new directory
 * Whole directories are written by dirwrite.c, single blocks edited by
 * dirblock.c (dirblock.h), index blocks laid out by htree.h.
 *
 * Times are the caller's. Every function that allocates blocks needs the
 * filesystem's bitmaps loaded (ext2fs_read_bitmaps) beforehand.
 */
#ifndef E2FOLD_DIREDIT_H
#define E2FOLD_DIREDIT_H

#include <ext2fs/ext2fs.h>

#include "dirblock.h"
#include "dirread.h"
#include "dirwrite.h"
#include "unicode.h"

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
 * splitting that leaf, and full index blocks on the way, as the kernel
 * does (e2fold_dx_add); a linear one into the first block with room, else
 * a new block, or, for a full one-block directory, an index made as the
 * kernel makes it (e2fold_dx_make_indexed). Where the kernel would move an
 * inline directory into blocks, and where an index is damaged or can
 * grow no further, the whole directory is rewritten with
 * e2fold_dir_write, which gives the same lookups. Only an indexed directory's index and the
 * blocks it changes are read, unless it is rewritten. Link counts are the
 * caller's. An encrypted directory gives EXT2_ET_UNIMPLEMENTED (a name
 * cannot be hashed without the key), one that would be rewritten but has
 * malformed blocks EXT2_ET_DIR_CORRUPTED.
 */
errcode_t e2fold_dir_add(ext2_filsys fs, const struct unicode_map *um,
			 ext2_ino_t ino, const struct e2fold_new_name *nn,
			 enum e2fold_add_how *ret_how);

/*
 * The same, with directory ino's index as e2fold_dir_read_index read it
 * (NULL: read here) and nothing written since: a caller that has just
 * looked the name up spares the second read.
 */
errcode_t e2fold_dir_add_read(ext2_filsys fs, const struct unicode_map *um,
			      ext2_ino_t ino, const struct e2fold_dir *index,
			      const struct e2fold_new_name *nn,
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
 * The full one-block directory ino becomes indexed as make_indexed_dir
 * makes it when nn does not fit: the entries after ".." move to a new
 * block 1, block 0 becomes the root leading there, and block 1 is split
 * as a full leaf, nn going into the half its hash belongs to. So the
 * directory has the kernel's two leaves, and every later split falls
 * where the kernel's would. EXT2_ET_DIR_CORRUPTED, nothing written, when
 * "." and ".." are not where a root needs them.
 */
errcode_t e2fold_dx_make_indexed(ext2_filsys fs, const struct unicode_map *um,
				 ext2_ino_t ino,
				 const struct e2fold_new_name *nn,
				 enum e2fold_add_how *ret_how);

/* ---- diredit.c ---- */

/*
 * The hash version the kernel gives directory d (NULL: a new one) when it
 * is indexed anew: SipHash where entries store their hashes; a sound
 * index keeps its own version (the kernel never changes it); otherwise
 * the superblock's default, or half_md4 if that is no valid default (as
 * e2fsck chooses). One rule for every rewrite.
 */
int e2fold_dir_hash_version(ext2_filsys fs, const struct e2fold_dir *d);

/*
 * The layout that rewrites directory d as it is: its inode, its parent
 * (itself if it has none), um if it is casefolded, the hash version above,
 * its stored hashes kept. Callers add what their rewrite changes.
 */
void e2fold_dir_layout_of(ext2_filsys fs, const struct unicode_map *um,
			  const struct e2fold_dir *d,
			  struct e2fold_dir_layout *ret_layout);

/*
 * Remove the entry at byte offset of logical block lblk of directory ino,
 * as ext4_delete_entry does (dirblock.h); an inline directory, which has
 * no blocks to edit, is rewritten without it (into blocks, as the kernel
 * does once it outgrows the inode). Link counts are the caller's.
 */
errcode_t e2fold_dir_remove(ext2_filsys fs, const struct unicode_map *um,
			    ext2_ino_t ino, blk64_t lblk, unsigned int offset);

/*
 * mkdir, as ext4_mkdir does it: nn->ino, a new directory inode of
 * directory parent (allocated, its mode, owner and inherited flags set),
 * gets "." and ".." (hashed as a casefolded one if its inode says so),
 * then its name nn in parent, then the parent counts its "..". The order
 * keeps a crash harmless: before the name, an unreachable inode e2fsck
 * frees; after it, a parent count one low that e2fsck corrects. Fails
 * with EXT2_ET_TOO_MANY_REFS, changing nothing, where the kernel says
 * EMLINK; if the name cannot be added the parent is left as it was and
 * the new inode is the caller's to free.
 */
errcode_t e2fold_dir_mkdir(ext2_filsys fs, const struct unicode_map *um,
			   ext2_ino_t parent, const struct e2fold_new_name *nn,
			   enum e2fold_add_how *ret_how);

#endif /* E2FOLD_DIREDIT_H */
