/*
 * summary.h: what was (or, with -n, would be) made, printed as mke2fs
 * prints it: size, UUID, where the backup superblocks are; plus the
 * filename encoding and what was copied from the source.
 */
#ifndef MKFS_SUMMARY_H
#define MKFS_SUMMARY_H

#include <stdio.h>

#include <ext2fs/ext2fs.h>

#include "populate.h"
#include "tree.h"

/* The filesystem laid out in fs (before or after writing). */
void mkfs_summary_fs(FILE *f, ext2_filsys fs, int noaction);

/* The source tree that -n would copy. */
void mkfs_summary_tree(FILE *f, struct mkfs_tree *tree);

/* What populating wrote. */
void mkfs_summary_populated(FILE *f, const struct mkfs_populate *p);

#endif /* MKFS_SUMMARY_H */
