/*
 * dirread.h: a directory read into memory: its entries with their places,
 * and, for an indexed directory, its hash tree.
 *
 * Blocks are read with libext2fs (checksums are not verified here: e2fsck
 * judges them); entries are walked with the checks every reader must make
 * (rec_len aligned, inside the block, large enough for the name). A block
 * that fails them is recorded as corrupt and its entries are not used.
 *
 * The hash tree is read as htree.h describes its format; a leaf's range
 * is [its index hash with bit 0 cleared, the next index hash).
 */
#ifndef E2FOLD_DIRREAD_H
#define E2FOLD_DIRREAD_H

#include <ext2fs/ext2fs.h>

#include "cfname.h"

/*
 * One per entry, so a million-entry directory holds a million: the
 * members are ordered so that the struct has no padding (48 bytes).
 */
struct e2fold_dirent {
	blk64_t lblk;			/* logical block of the directory */
	const unsigned char *name;	/* name_len bytes, not NUL-terminated */
	unsigned int offset;		/* byte offset in that block */
	unsigned int rec_len;
	ext2_ino_t ino;
	unsigned int name_len;
	int file_type;
	int has_stored_hash;		/* encrypted+casefolded entries */
	__u32 stored_hash, stored_minor;
};

/* One leaf of the hash tree and the hash range that leads to it. */
struct e2fold_dx_leaf {
	blk64_t lblk;
	__u64 lo;			/* inclusive, continuation bit cleared */
	__u64 hi;			/* exclusive (1 << 32 for the last) */
	int continued;			/* its index hash had bit 0 set */
};

/* What is wrong with a hash tree, in the order the checks run. */
enum e2fold_dx_problem {
	E2FOLD_DX_OK = 0,
	E2FOLD_DX_BAD_ROOT,		/* "." / ".." / info header malformed */
	E2FOLD_DX_BAD_HASH_VERSION,
	E2FOLD_DX_BAD_DEPTH,
	E2FOLD_DX_BAD_LIMIT,
	/*
	 * In a directory with stored hashes, an interior node with the limit
	 * e2fsprogs computes (see htree.h): Linux rejects it, but the
	 * tree is still read through it.
	 */
	E2FOLD_DX_FOREIGN_LIMIT,
	E2FOLD_DX_BAD_COUNT,
	E2FOLD_DX_UNORDERED,		/* index hashes not increasing */
	E2FOLD_DX_BAD_BLOCK,		/* points outside the directory or twice */
	E2FOLD_DX_UNREADABLE,
};

struct e2fold_dir {
	ext2_ino_t ino;
	struct ext2_inode_large inode;
	blk64_t nblocks;		/* logical blocks (i_size / blocksize) */
	int casefolded, encrypted, indexed;

	struct e2fold_dirent *ents;	/* live entries except "." and ".." */
	size_t nents;
	ext2_ino_t dot, dotdot;		/* inode numbers of "." and ".." (0 = none) */

	blk64_t *corrupt;		/* logical blocks that failed the walk */
	size_t ncorrupt;

	/*
	 * metadata_csum: index blocks whose checksum fails, and leaf blocks
	 * with no room for a checksum (a leaf whose checksum is merely
	 * wrong is e2fsck's to recompute).
	 */
	struct e2fold_badsum {
		blk64_t lblk;
		int index;		/* 1: an index block */
	} *badsum;
	size_t nbadsum;

	/* Indexed directories: */
	int dx_hash_version;		/* as stored in the root */
	int dx_levels;			/* indirect_levels */
	enum e2fold_dx_problem dx_problem;
	blk64_t dx_problem_block;
	struct e2fold_dx_node {		/* interior nodes (not the root) */
		blk64_t lblk;
		unsigned int limit, count;
	} *nodes;
	size_t nnodes;
	struct e2fold_dx_leaf *leaves;	/* sorted by lo */
	size_t nleaves;
	unsigned char *index_block;	/* 1 for each logical block in the index */
	size_t *leaf_of;		/* leaf index of each logical block, or -1 */

	unsigned char *names;		/* storage for the entries' names */
	size_t ents_cap, names_cap;	/* their allocated sizes */
};

/*
 * Does the directory keep each name's hash in its entry (encrypted and
 * casefolded, as the kernel's ext4_hash_in_dirent)?
 */
static inline int e2fold_dir_stored_hashes(const struct e2fold_dir *dir)
{
	return dir->encrypted && dir->casefolded;
}

/* Read directory ino. Returns 0 with *ret_dir to free with e2fold_dir_free. */
errcode_t e2fold_dir_read(ext2_filsys fs, ext2_ino_t ino,
			  struct e2fold_dir **ret_dir);
void e2fold_dir_free(struct e2fold_dir *dir);

/*
 * A large indexed directory, a few leaves at a time, in memory that does
 * not grow with it. e2fold_dir_read_index reads the inode, "." and ".."
 * and the hash tree, but no entries (EXT2_ET_INVALID_ARGUMENT if the
 * directory is not indexed, or inline). e2fold_dir_read_blocks then
 * replaces dir->ents with the entries of the n logical blocks lblks;
 * *ret_ok is 0 if one of them is missing, malformed or (metadata_csum)
 * lacks its checksum tail: read the whole directory to know more.
 */
errcode_t e2fold_dir_read_index(ext2_filsys fs, ext2_ino_t ino,
				struct e2fold_dir **ret_dir);
errcode_t e2fold_dir_read_blocks(ext2_filsys fs,
				 struct e2fold_dir *dir,
				 const blk64_t *lblks, size_t n,
				 int *ret_ok);

/* The leaf entry lblk belongs to, or NULL if lblk is not a leaf. */
const struct e2fold_dx_leaf *e2fold_dir_leaf_at(const struct e2fold_dir *dir,
						blk64_t lblk);

/* A short description of a hash tree problem. */
const char *e2fold_dx_problem_text(enum e2fold_dx_problem p);

#endif /* E2FOLD_DIRREAD_H */
