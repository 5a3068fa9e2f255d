/* fileio.c: file data into inodes, holes preserved. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "fileio.h"

#define COPY_BUF (1024 * 1024)

/* One buffer for every file: most files are small and many. */
static char *copy_buf;

errcode_t mkfs_file_open(ext2_filsys fs, ext2_ino_t ino, ext2_file_t *ret)
{
	return ext2fs_file_open(fs, ino, EXT2_FILE_WRITE, ret);
}

static int all_zero(const char *p, size_t len)
{
	while (len && !*p) {
		p++;
		len--;
	}
	return len == 0;
}

/* Write len bytes at offset, in one piece. */
static errcode_t write_piece(ext2_file_t file, __u64 offset, const char *p,
			     size_t len)
{
	errcode_t retval = ext2fs_file_llseek(file, offset, EXT2_SEEK_SET,
					      NULL);

	while (!retval && len) {
		unsigned int done = 0;
		unsigned int n = len > COPY_BUF ? COPY_BUF : (unsigned int)len;

		retval = ext2fs_file_write(file, p, n, &done);
		if (!retval && !done)
			retval = EXT2_ET_SHORT_WRITE;
		p += done;
		len -= done;
	}
	return retval;
}

/* Cut at block boundaries; write runs of blocks that are not all zeros. */
errcode_t mkfs_file_pwrite(ext2_file_t file, __u64 offset, const void *buf,
			   size_t len)
{
	unsigned int bs = ext2fs_file_get_fs(file)->blocksize;
	const char *p = buf, *run = NULL;
	__u64 run_off = 0;
	errcode_t retval;

	while (len) {
		size_t piece = bs - offset % bs;

		if (piece > len)
			piece = len;
		if (all_zero(p, piece)) {
			if (run) {
				retval = write_piece(file, run_off, run,
						     p - run);
				if (retval)
					return retval;
				run = NULL;
			}
		} else if (!run) {
			run = p;
			run_off = offset;
		}
		p += piece;
		offset += piece;
		len -= piece;
	}
	return run ? write_piece(file, run_off, run, p - run) : 0;
}

errcode_t mkfs_file_close(ext2_file_t file, __u64 size)
{
	errcode_t retval = ext2fs_file_set_size2(file, size);
	errcode_t closed = ext2fs_file_close(file);

	return retval ? retval : closed;
}

/* Copy [start, end) of fd into file. */
static errcode_t copy_range(int fd, ext2_file_t file, char *buf, off_t start,
			    off_t end)
{
	while (start < end) {
		size_t want = end - start > COPY_BUF ? COPY_BUF :
			(size_t)(end - start);
		ssize_t n = pread(fd, buf, want, start);
		errcode_t retval;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (n == 0)
			return 0;	/* the file shrank: keep what is there */
		retval = mkfs_file_pwrite(file, start, buf, n);
		if (retval)
			return retval;
		start += n;
	}
	return 0;
}

/*
 * Walk the data ranges with SEEK_DATA/SEEK_HOLE; a file system without
 * them reports the whole file as data.
 */
static errcode_t copy_data(int fd, ext2_file_t file, char *buf, off_t size)
{
	off_t pos = 0;

	while (pos < size) {
		off_t data = lseek(fd, pos, SEEK_DATA), hole;
		errcode_t retval;

		if (data < 0) {
			if (errno == ENXIO)
				return 0;	/* only a hole is left */
			return copy_range(fd, file, buf, pos, size);
		}
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0 || hole > size)
			hole = size;
		retval = copy_range(fd, file, buf, data, hole);
		if (retval)
			return retval;
		pos = hole;
	}
	return 0;
}

errcode_t mkfs_copy_fd(ext2_filsys fs, ext2_ino_t ino, int fd, __u64 size)
{
	ext2_file_t file;
	errcode_t retval;

	if (!size)
		return 0;
	if (!copy_buf) {
		copy_buf = malloc(COPY_BUF);
		if (!copy_buf)
			return EXT2_ET_NO_MEMORY;
	}
	retval = mkfs_file_open(fs, ino, &file);
	if (retval)
		return retval;
	retval = copy_data(fd, file, copy_buf, (off_t)size);
	if (retval) {
		ext2fs_file_close(file);
		return retval;
	}
	return mkfs_file_close(file, size);
}
