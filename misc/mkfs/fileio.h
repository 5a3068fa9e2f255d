/*
 * fileio.h: put a file's bytes into an inode already written (with its
 * extent header), through libext2fs's file API. Holes in the source stay
 * holes: only the ranges that hold data are written, and blocks of
 * zeros are not written either (as mke2fs -d does), so a file stored
 * with its holes filled in (an archive made without --sparse) is sparse
 * again in the image.
 */
#ifndef MKFS_FILEIO_H
#define MKFS_FILEIO_H

#include <ext2fs/ext2fs.h>

/* Copy size bytes of the open file fd, skipping its holes. */
errcode_t mkfs_copy_fd(ext2_filsys fs, ext2_ino_t ino, int fd, __u64 size);

/* Writing piece by piece, at given offsets (archives). */
errcode_t mkfs_file_open(ext2_filsys fs, ext2_ino_t ino, ext2_file_t *ret);
errcode_t mkfs_file_pwrite(ext2_file_t file, __u64 offset, const void *buf,
			   size_t len);
/* Set the final size (past a trailing hole) and close. */
errcode_t mkfs_file_close(ext2_file_t file, __u64 size);

#endif /* MKFS_FILEIO_H */
