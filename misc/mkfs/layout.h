/*
 * layout.h: write the empty filesystem: group tables, inode tables, the
 * root directory, /lost+found, the reserved inodes, the resize inode and
 * the journal, in mke2fs's order, so that with the same options the
 * result is the same filesystem mke2fs makes.
 *
 * /lost+found is made as mke2fs makes it (mode 0700, grown to 16 KiB, or
 * 12 KiB with 1 KiB blocks, so that e2fsck need not allocate blocks to
 * reconnect files). When the root is casefolded, /lost+found is
 * casefolded too, as the kernel would make any subdirectory of a
 * casefolded directory; ext2fs_mkdir() does not inherit the flag itself.
 */
#ifndef MKFS_LAYOUT_H
#define MKFS_LAYOUT_H

#include <ext2fs/ext2fs.h>

#include "plan.h"

struct mkfs_layout {
	const struct mkfs_plan *plan;
	int target_has_data;	/* the target had a size: discard may zero it */
	int root_casefold;
	int quiet;
	ext2_ino_t lost_found;	/* set by mkfs_layout_write() */
	const char *bad_blocks_file;	/* -l; NULL: none */
	int check_blocks;		/* -c: 1, -cc: 2 */
	int super_only;			/* -S */
	ext2_badblocks_list bb_list;	/* read from it and badblocks */
};

/* Write everything an empty filesystem holds; fs is from mkfs_create(). */
errcode_t mkfs_layout_write(ext2_filsys fs, struct mkfs_layout *layout);

/*
 * Grow directory ino as mke2fs grows /lost+found, if it is smaller and
 * not indexed (e2fold_dir_write() shrinks a directory to its entries).
 */
errcode_t mkfs_grow_lost_found(ext2_filsys fs, ext2_ino_t ino);

#endif /* MKFS_LAYOUT_H */
