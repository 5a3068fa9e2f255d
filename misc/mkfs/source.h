/*
 * source.h: where -d takes the files from: a directory tree, or an
 * archive (any format libarchive reads, plain or compressed).
 *
 * Reading happens in two steps, so that nothing is written before the
 * whole source is known and checked: scan() builds the tree with every
 * name and all metadata; later, once the inodes exist, the file data are
 * copied: from a directory file by file as each inode is made
 * (write_file), from an archive in a second pass over it (finish),
 * because an archive can be read only in order.
 */
#ifndef MKFS_SOURCE_H
#define MKFS_SOURCE_H

#include <ext2fs/ext2fs.h>

#include "progress.h"
#include "tree.h"

#define MKFS_MAX_DEPTH 2048	/* directories deeper than PATH_MAX allows */

struct mkfs_source {
	const char *path;		/* as given to -d */
	int is_archive;
	/* The target, if it is a file inside the source: never copied. */
	int skip_target;
	dev_t target_dev;
	ino_t target_ino;
	/* archives: the node whose data each entry holds, by entry number */
	struct mkfs_node **entry_node;
	size_t nentries;
	/* --progress (NULL: none); archives: its size, for the steps */
	struct e2fold_progress *progress;
	unsigned long long archive_size;
};

/*
 * Read the source at path into tree. target is the device or image
 * file, which is left out should it lie inside the source. Prints the
 * reason (with the path) and returns non-zero if the source cannot be
 * read completely.
 */
errcode_t mkfs_source_scan(const char *path, const char *target,
			   struct e2fold_progress *progress,
			   struct mkfs_source *src, struct mkfs_tree *tree);

/* Copy the data of regular file node into inode ino (directories only). */
errcode_t mkfs_source_write_file(struct mkfs_source *src, ext2_filsys fs,
				 struct mkfs_node *node, ext2_ino_t ino);

/* Copy what write_file could not (archives: every file's data). */
errcode_t mkfs_source_finish(struct mkfs_source *src, ext2_filsys fs);

void mkfs_source_free(struct mkfs_source *src);

/*
 * How messages name a node of the source: "SOURCE/path" for a directory,
 * "ARCHIVE:path" for an archive, escaped for a terminal. Returns buf.
 */
char *mkfs_source_describe(const struct mkfs_source *src,
			   const struct mkfs_node *node, char *buf,
			   size_t size);
/* The same, escaped exactly: for names that print alike (cfname.h). */
char *mkfs_source_describe_exact(const struct mkfs_source *src,
				 const struct mkfs_node *node, char *buf,
				 size_t size);

/* The directory and archive readers behind the functions above. */
errcode_t mkfs_dir_scan(struct mkfs_source *src, struct mkfs_tree *tree);
errcode_t mkfs_dir_write_file(struct mkfs_source *src, ext2_filsys fs,
			      struct mkfs_node *node, ext2_ino_t ino);
errcode_t mkfs_archive_scan(struct mkfs_source *src, struct mkfs_tree *tree);
errcode_t mkfs_archive_write_data(struct mkfs_source *src, ext2_filsys fs);

#endif /* MKFS_SOURCE_H */
