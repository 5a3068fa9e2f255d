/* source.c: pick the reader for -d, and name source files in messages. */
#include "config.h"

#include <limits.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <et/com_err.h>

#include "cfname.h"
#include "mkfs.h"
#include "source.h"

errcode_t mkfs_source_scan(const char *path, const char *target,
			   struct e2fold_progress *progress,
			   struct mkfs_source *src, struct mkfs_tree *tree)
{
	struct stat st;

	memset(src, 0, sizeof(*src));
	src->path = path;
	src->progress = progress;
	if (stat(target, &st) == 0 && S_ISREG(st.st_mode)) {
		src->skip_target = 1;
		src->target_dev = st.st_dev;
		src->target_ino = st.st_ino;
	}
	if (stat(path, &st) < 0) {
		errcode_t retval = errno;	/* com_err may change errno */

		com_err(mkfs_prog, retval, "while reading the source %s", path);
		return retval;
	}
	if (S_ISDIR(st.st_mode))
		return mkfs_dir_scan(src, tree);
	if (S_ISREG(st.st_mode)) {
		src->is_archive = 1;
		src->archive_size = st.st_size;
		return mkfs_archive_scan(src, tree);
	}
	com_err(mkfs_prog, 0, "%s: the source must be a directory or an "
		"archive file", path);
	return EXT2_ET_INVALID_ARGUMENT;
}

errcode_t mkfs_source_write_file(struct mkfs_source *src, ext2_filsys fs,
				 struct mkfs_node *node, ext2_ino_t ino)
{
	if (src->is_archive)
		return 0;
	return mkfs_dir_write_file(src, fs, node, ino);
}

errcode_t mkfs_source_finish(struct mkfs_source *src, ext2_filsys fs)
{
	if (!src->is_archive)
		return 0;
	return mkfs_archive_write_data(src, fs);
}

void mkfs_source_free(struct mkfs_source *src)
{
	free(src->entry_node);
	src->entry_node = NULL;
	src->nentries = 0;
}

static char *describe(const struct mkfs_source *src,
		      const struct mkfs_node *node, char *buf, size_t size,
		      int exact)
{
	size_t plen = strlen(src->path);
	char *raw;
	int len;

	/* A directory given as "src/" reads better without the slash. */
	while (!src->is_archive && plen > 1 && src->path[plen - 1] == '/')
		plen--;
	raw = malloc(plen + 2 + PATH_MAX);
	if (!raw) {
		snprintf(buf, size, "%s", src->path);
		return buf;
	}
	memcpy(raw, src->path, plen);
	raw[plen] = src->is_archive ? ':' : '/';
	len = mkfs_node_path(node, 0, raw + plen + 1, PATH_MAX);
	if (len < 0)
		len = 0;
	if (!node->parent)
		len = -1;	/* the root is the source itself */
	if (exact)
		e2fold_escape_name_exact((const unsigned char *)raw,
					 plen + 1 + len, buf, size);
	else
		e2fold_escape_name((const unsigned char *)raw, plen + 1 + len,
				   buf, size);
	free(raw);
	return buf;
}

char *mkfs_source_describe(const struct mkfs_source *src,
			   const struct mkfs_node *node, char *buf,
			   size_t size)
{
	return describe(src, node, buf, size, 0);
}

char *mkfs_source_describe_exact(const struct mkfs_source *src,
				 const struct mkfs_node *node, char *buf,
				 size_t size)
{
	return describe(src, node, buf, size, 1);
}
