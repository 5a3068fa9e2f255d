/*
 * dirwrite.h: write a directory's complete contents, linear or as a hash
 * tree whose hashes are the kernel's (casefolded names hashed over their
 * casefolded bytes, raw bytes where folding fails, the kernel's hash
 * adjustment). e2fold-mkfs builds directories with it, e2fold-fsck
 * rebuilds damaged ones and e2fold-tune converts them.
 *
 * Layout, as e2fsck -D makes it: everything in one linear block if it
 * fits there (or the filesystem lacks dir_index); otherwise a root block,
 * index nodes if the leaves do not fit the root, and leaves filled in hash
 * order. Entries of equal hash never straddle leaves unless the next leaf
 * is marked as continuing that hash (bit 0 of its index hash), as the
 * kernel expects. With metadata_csum every block gets its tail and
 * checksum (libext2fs computes them as it writes).
 */
#ifndef E2FOLD_DIRWRITE_H
#define E2FOLD_DIRWRITE_H

#include <ext2fs/ext2fs.h>

#include "unicode.h"

struct e2fold_new_entry {
	const unsigned char *name;
	unsigned int name_len;
	ext2_ino_t ino;
	int file_type;		/* EXT2_FT_* */
	/* Set by e2fold_dir_write(): */
	ext2_dirhash_t hash, minor_hash;
};

struct e2fold_dir_layout {
	ext2_ino_t ino;		/* the directory, already allocated */
	ext2_ino_t parent;	/* its ".." */
	/* Casefolded directories: the filesystem's encoding; NULL otherwise. */
	const struct unicode_map *um;
	int hash_version;	/* stored in the root; usually s_def_hash_version */
	/*
	 * Encrypted casefolded directories: the entries' hash and minor_hash
	 * are given (as stored on disk; they cannot be computed without the
	 * key) and written after each name, as the kernel stores them.
	 */
	int stored_hashes;
	/*
	 * The entries' hash and minor_hash are given and used to place them,
	 * but not stored (tests craft misplaced entries this way).
	 */
	int given_hashes;
	/*
	 * Inode flags to set and to clear in the inode write that commits
	 * the new contents (e2fold-tune's conversions: the casefold flag and
	 * the hashes it implies change together).
	 */
	__u32 set_flags, clear_flags;
	/*
	 * Rewrite the directory's blocks in place, in no particular order:
	 * only for tools that build an image from nothing (e2fold-mkfs, the
	 * test crafter), whose killed runs leave nothing to recover.
	 */
	int in_place;
};

/*
 * Replace the contents of the directory with ".", ".." and the n entries
 * (their order does not matter); its size, EXT2_INDEX_FL and the block
 * bitmap are updated (the bitmaps must be loaded). An encrypted
 * casefolded directory can only be rewritten with its stored hashes
 * (stored_hashes); otherwise EXT2_ET_UNIMPLEMENTED. (An encrypted
 * directory that is not casefolded hashes its ciphertext names like any
 * others.)
 *
 * The rewrite is atomic on disk (doc/crash-safety.md): the new contents
 * (blocks, index, checksums, and any extent tree or indirect blocks) go to
 * newly allocated blocks while the inode on disk still maps the old ones;
 * the I/O channel is flushed; one inode write switches the directory to
 * the new blocks (and out of inline data); the channel is flushed again;
 * only then are the old blocks freed (in the bitmap, written at close).
 * Killed before the inode write, the disk holds the old directory and
 * unreferenced blocks its bitmap does not mark; after it, the new one,
 * with bitmaps that e2fsck corrects. On an error before the commit the
 * new blocks are given back and the old directory stays.
 */
struct e2fold_dir;
/*
 * The entries of a directory read with e2fold_dir_read, as entries to
 * write back (names pointing into dir, stored hashes kept), with room for
 * `spare` more; free() *ret_ents.
 */
errcode_t e2fold_dir_entries(const struct e2fold_dir *dir,
			     size_t spare,
			     struct e2fold_new_entry **ret_ents);

errcode_t e2fold_dir_write(ext2_filsys fs,
			   const struct e2fold_dir_layout *layout,
			   struct e2fold_new_entry *entries,
			   size_t n);

/*
 * Remove the "system.data" attribute of a directory. One that was inline
 * keeps its old entries there until e2fold_dir_write drops it, just after
 * the commit; a kill in between leaves an attribute that nothing reads
 * (the inode no longer has the inline flag), which e2fold-fsck removes.
 */
E2FOLD_API errcode_t e2fold_dir_drop_inline_attr(ext2_filsys fs,
						 ext2_ino_t ino);

#endif /* E2FOLD_DIRWRITE_H */
