/*
 * fallocate.c: fallocate(2) as ext4_fallocate answers it, for the modes
 * programs use: 0 reserves the range's blocks (unwritten extents, which
 * read as zeros) and grows the size to cover it; FALLOC_FL_KEEP_SIZE
 * reserves without growing it; FALLOC_FL_PUNCH_HOLE (always with
 * KEEP_SIZE, the VFS sees to it) frees the range's whole blocks and
 * zeroes the parts of blocks at its ends; FALLOC_FL_ZERO_RANGE, as
 * ext4_zero_range, makes the range read as zeros with its blocks still
 * reserved: a hole punched, then unwritten extents over it, the size
 * grown unless KEEP_SIZE. COLLAPSE_RANGE and INSERT_RANGE answer
 * EOPNOTSUPP (e2fold-fuse(1), the differences from Linux), as ext4
 * answers every mode for a file without extents. The VFS has already
 * refused directories and special files.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdlib.h>

#include "e2fuse.h"

/* Zeroes over [from, to) of the file, inside its size only. */
static errcode_t zero_range(struct e2fuse *srv, ext2_ino_t ino, __u64 from,
			    __u64 to)
{
	ext2_file_t file;
	errcode_t retval, close_retval;
	__u64 size = 0;
	unsigned int done = 0;
	char *zeros;

	retval = e2fuse_file_open(srv, ino, EXT2_FILE_WRITE, &file);
	if (retval)
		return retval;
	retval = ext2fs_file_get_lsize(file, &size);
	if (to > size)
		to = size;
	zeros = calloc(1, srv->fs->blocksize);
	if (!zeros)
		retval = EXT2_ET_NO_MEMORY;
	if (!retval && from < to) {
		retval = ext2fs_file_llseek(file, from, EXT2_SEEK_SET, NULL);
		if (!retval)
			retval = ext2fs_file_write(file, zeros, to - from, &done);
	}
	free(zeros);
	close_retval = ext2fs_file_close(file);
	return retval ? retval : close_retval;
}

/* The whole blocks of [off, end) freed, the partial ones zeroed. */
static errcode_t punch(struct e2fuse *srv, ext2_ino_t ino, __u64 off,
		       __u64 end)
{
	__u64 bs = srv->fs->blocksize;
	__u64 first = (off + bs - 1) / bs, last = end / bs;
	errcode_t retval;

	/* The head and the tail, or the range within one block. */
	retval = zero_range(srv, ino, off, first * bs < end ? first * bs : end);
	if (!retval && last >= first && last * bs > off)
		retval = zero_range(srv, ino, last * bs, end);
	if (!retval && last > first)
		retval = ext2fs_punch(srv->fs, ino, NULL, NULL, first, last - 1);
	return retval;
}

/* The range's blocks reserved; the size grown unless keep_size. */
static errcode_t reserve(struct e2fuse *srv, ext2_ino_t ino, __u64 off,
			 __u64 end, int keep_size)
{
	__u64 bs = srv->fs->blocksize;
	struct ext2_inode_large inode;
	errcode_t retval;

	retval = e2fuse_read_inode(srv, ino, &inode);
	if (retval)
		return retval;
	retval = ext2fs_fallocate(srv->fs, EXT2_FALLOCATE_FORCE_UNINIT, ino,
				  (struct ext2_inode *)&inode, ~0ULL, off / bs,
				  (end + bs - 1) / bs - off / bs);
	if (retval)
		return retval;
	retval = e2fuse_read_inode(srv, ino, &inode);
	if (!retval && !keep_size && EXT2_I_SIZE(&inode) < end) {
		retval = ext2fs_inode_size_set(srv->fs,
					       (struct ext2_inode *)&inode, end);
		if (!retval)
			retval = e2fuse_write_inode(srv, ino, &inode);
	}
	return retval;
}

void e2fuse_fallocate(fuse_req_t req, fuse_ino_t node, int mode, off_t off,
		      off_t len, struct fuse_file_info *fi EXT2FS_ATTR((unused)))
{
	struct e2fuse *srv = e2fuse_of(req);
	ext2_ino_t ino = e2fuse_ino(node);
	struct ext2_inode_large inode;
	errcode_t retval;

	int known = FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE |
		    FALLOC_FL_ZERO_RANGE;

	if (!e2fuse_writable(req))
		return;
	if ((mode & ~known) || off < 0 || len <= 0 ||
	    ((mode & FALLOC_FL_PUNCH_HOLE) && (mode & FALLOC_FL_ZERO_RANGE))) {
		fuse_reply_err(req, (mode & ~known) ? EOPNOTSUPP : EINVAL);
		return;
	}
	retval = e2fuse_read_inode(srv, ino, &inode);
	if (!retval && !(inode.i_flags & EXT4_EXTENTS_FL)) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	if (!retval && (mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)))
		retval = punch(srv, ino, off, (__u64)off + len);
	if (!retval && !(mode & FALLOC_FL_PUNCH_HOLE))
		retval = reserve(srv, ino, off, (__u64)off + len,
				 mode & FALLOC_FL_KEEP_SIZE);
	if (!retval)
		retval = e2fuse_read_inode(srv, ino, &inode);
	if (!retval) {
		e2fuse_set_times(srv, &inode, E2FUSE_MTIME | E2FUSE_CTIME, NULL);
		retval = e2fuse_write_inode(srv, ino, &inode);
	}
	fuse_reply_err(req, e2fuse_errno(retval));
}
