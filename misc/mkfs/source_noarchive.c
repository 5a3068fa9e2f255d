/*
 * source_noarchive.c: the archive reader of an e2fold-mkfs built without
 * libarchive (configure --without-libarchive), in place of
 * source_archive.c: a file given to -d is refused, with the reason, before
 * anything is written. Directory sources are read as always.
 */
#include "config.h"

#include <et/com_err.h>

#include "mkfs.h"
#include "source.h"

errcode_t mkfs_archive_scan(struct mkfs_source *src, struct mkfs_tree *tree)
{
	com_err(mkfs_prog, 0, "%s: archives are not supported in this build "
		"of e2fold-mkfs (configured --without-libarchive); give a "
		"directory", src->path);
	return EXT2_ET_UNIMPLEMENTED;
}

/* Never reached: no archive source is ever scanned. */
errcode_t mkfs_archive_write_data(struct mkfs_source *src, ext2_filsys fs)
{
	return EXT2_ET_UNIMPLEMENTED;
}
