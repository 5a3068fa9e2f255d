/*
 * populate.h: write the (checked, possibly renamed) source tree into the
 * new filesystem.
 *
 * Each directory is written once, by e2fold_dir_write(), after all of its
 * children have inodes: its entry list is complete, and large directories
 * get a hash tree whose hashes are the kernel's (casefolded names hashed
 * over their casefolded bytes, invalid ones over their raw bytes).
 * Inodes are allocated in tree order (a directory, then its entries in
 * sorted order), so the same source gives the same image.
 */
#ifndef MKFS_POPULATE_H
#define MKFS_POPULATE_H

#include <ext2fs/ext2fs.h>

#include "progress.h"
#include "source.h"
#include "tree.h"
#include "unicode.h"

struct mkfs_populate {
	ext2_filsys fs;
	struct mkfs_source *src;
	const struct unicode_map *um;	/* the encoding; NULL without casefold */
	ext2_ino_t lost_found;
	int keep_root_owner;		/* -E root_owner given */
	int no_xattrs;			/* -E no_copy_xattrs */
	uid_t root_uid;
	gid_t root_gid;
	struct mkfs_tally counts;	/* what was written, for the summary */
	struct e2fold_progress *progress;	/* NULL: none */
	size_t made, total;		/* inodes, for the progress */
};

/* Write tree (its root is the filesystem's root) into p->fs. */
errcode_t mkfs_populate(struct mkfs_populate *p, struct mkfs_tree *tree);

#endif /* MKFS_POPULATE_H */
