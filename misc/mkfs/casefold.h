/*
 * casefold.h: which directories of the image are casefolded.
 *
 * A directory is casefolded when -E casefold_dirs=all is given, when
 * casefold_dirs lists it (a path inside SOURCE), when the source
 * directory has the casefold attribute, or when it is the root and
 * -E casefold_root is given; and, as in the kernel, when its parent is:
 * a subdirectory inherits the flag. /lost+found follows the root.
 */
#ifndef MKFS_CASEFOLD_H
#define MKFS_CASEFOLD_H

#include <ext2fs/ext2fs.h>

#include "options.h"
#include "source.h"
#include "tree.h"

/*
 * Set node->casefold on every directory of tree. have_feature says the
 * filesystem has the casefold feature; without it any casefolded
 * directory is an error. src (may be NULL without -d) names source paths.
 * Returns 0, or EXT2_ET_INVALID_ARGUMENT after saying why; *ret_count is
 * the number of casefolded directories.
 */
errcode_t mkfs_mark_casefold(struct mkfs_tree *tree,
			     const struct mkfs_options *opt,
			     const struct mkfs_source *src, int have_feature,
			     size_t *ret_count);

#endif /* MKFS_CASEFOLD_H */
