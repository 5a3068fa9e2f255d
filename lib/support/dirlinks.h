/*
 * dirlinks.h: a directory's link count as ext4 keeps it. A directory is
 * linked by its entry in its parent, by its own ".", and by the ".." of
 * each subdirectory: 2 + subdirectories. Past EXT4_LINK_MAX (65,000) the
 * count no longer fits and is stored as 1, meaning "many", but only in an
 * indexed directory (dir_index feature and EXT2_INDEX_FL) of a filesystem
 * with dir_nlink; anywhere else the kernel refuses the subdirectory that
 * would go past 65,000 (mkdir, or a rename into it, fails with EMLINK).
 *
 * The kernel's steps (fs/ext4/namei.c; doc/kernel-facts.md, "Directory
 * link counts"): a new subdirectory adds one, and an indexed directory
 * whose count then exceeds 65,000, or is 2 (it was "many"), goes to 1;
 * a removed subdirectory takes one away only from a count above 2, so
 * "many" stays 1 until e2fsck counts again.
 */
#ifndef E2FOLD_DIRLINKS_H
#define E2FOLD_DIRLINKS_H

#include <ext2fs/ext2fs.h>

/* EXT4_LINK_MAX; libext2fs's EXT2_LINK_MAX has the same value. */
#define E2FOLD_LINK_MAX 65000

/*
 * Would one more subdirectory of dir go past what the kernel counts
 * (its EMLINK for mkdir and for a rename into dir)?
 */
int e2fold_dir_links_full(ext2_filsys fs, const struct ext2_inode *dir);

/* dir's count after a subdirectory is added (ext4_inc_count). */
void e2fold_dir_links_inc(ext2_filsys fs, struct ext2_inode *dir);

/* dir's count after a subdirectory is removed (ext4_dec_count). */
void e2fold_dir_links_dec(struct ext2_inode *dir);

/*
 * The count of a directory made with nsub subdirectories, as the kernel
 * leaves it after making them one by one (e2fold-mkfs), with indexed
 * saying whether the directory will be indexed; EXT2_ET_TOO_MANY_REFS
 * where the kernel would have refused one of them.
 */
errcode_t e2fold_dir_links_for(ext2_filsys fs, int indexed,
			       unsigned long nsub, __u16 *ret_links);

#endif /* E2FOLD_DIRLINKS_H */
