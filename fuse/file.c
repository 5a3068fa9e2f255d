/*
 * file.c: regular files' contents (open, read, write, flush, fsync,
 * release), symbolic links' targets and the filesystem's counts.
 *
 * Contents go through libext2fs's file API, with an ext2_file_t opened
 * for each read or write request and closed after it. A handle kept
 * across requests would keep its own copy of the inode and of one data
 * block: two open descriptors of one file (or a truncate through a
 * path) would then overwrite each other's block map with a stale copy.
 * Open and release keep nothing: an open file's inode lives as long as
 * the kernel holds it (refs.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "e2fuse.h"
#include "txnio.h"

/*
 * ext2fs_file_open2, refusing an inline-data inode whose size says more
 * than its inline data holds: libext2fs (1.47.4 at least) copies the
 * size's worth out of the inode's few bytes, reading far past them. ext4
 * calls such an inode corrupt.
 */
errcode_t e2fuse_file_open(struct e2fuse *srv, ext2_ino_t ino, int flags,
			   ext2_file_t *ret)
{
	struct ext2_inode_large inode;
	size_t inline_size = 0;
	errcode_t retval = e2fuse_read_inode(srv, ino, &inode);

	if (!retval && (inode.i_flags & EXT4_INLINE_DATA_FL)) {
		retval = ext2fs_inline_data_size(srv->fs, ino, &inline_size);
		if (!retval && EXT2_I_SIZE(&inode) > inline_size)
			retval = EXT2_ET_INODE_IS_GARBAGE;
	}
	if (!retval)
		retval = ext2fs_file_open2(srv->fs, ino,
					   (struct ext2_inode *)&inode, flags,
					   ret);
	return retval;
}

/*
 * open(O_TRUNC): size 0, and mtime and ctime now, as the VFS asks of
 * ext4 (do_truncate with ATTR_MTIME | ATTR_CTIME), even when the file
 * was empty already.
 */
static errcode_t truncate_to_zero(struct e2fuse *srv, ext2_ino_t ino)
{
	struct ext2_inode_large inode;
	ext2_file_t file;
	errcode_t retval, close_retval;

	retval = e2fuse_file_open(srv, ino, EXT2_FILE_WRITE, &file);
	if (retval)
		return retval;
	retval = ext2fs_file_set_size2(file, 0);
	close_retval = ext2fs_file_close(file);
	if (!retval)
		retval = close_retval;
	if (!retval)
		retval = e2fuse_read_inode(srv, ino, &inode);
	if (retval)
		return retval;
	e2fuse_set_times(srv, &inode, E2FUSE_MTIME | E2FUSE_CTIME, NULL);
	return e2fuse_write_inode(srv, ino, &inode);
}

void e2fuse_open_file(fuse_req_t req, fuse_ino_t node,
		      struct fuse_file_info *fi)
{
	struct e2fuse *srv = e2fuse_of(req);
	ext2_ino_t ino = e2fuse_ino(node);
	int writing = (fi->flags & O_ACCMODE) != O_RDONLY;
	struct ext2_inode_large inode;
	errcode_t retval;

	if (writing && !e2fuse_may_write(srv)) {
		fuse_reply_err(req, EROFS);
		return;
	}
	retval = e2fuse_read_inode(srv, ino, &inode);
	if (!retval && LINUX_S_ISDIR(inode.i_mode))
		retval = EISDIR;
	if (!retval && writing && (fi->flags & O_TRUNC))
		retval = truncate_to_zero(srv, ino);
	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	fi->fh = 0;
	fi->keep_cache = e2fuse_keep_cache(srv);
	fuse_reply_open(req, fi);
}

int e2fuse_keep_cache(const struct e2fuse *srv)
{
	/*
	 * The kernel's page cache of a file stays valid across opens: its
	 * contents change only through this kernel's own writes,
	 * truncations and fallocates, which keep that cache right. But a
	 * read the page cache answers never reaches the server, which keeps
	 * atime: so only where reads write no atime, or where the cache
	 * holds written pages the image has not seen yet (writeback_cache:
	 * dropping it at each open would write them first).
	 */
	return srv->opt.readonly || srv->opt.atime == E2FUSE_NOATIME ||
	       srv->opt.writeback_cache;
}

void e2fuse_read(fuse_req_t req, fuse_ino_t node, size_t size, off_t off,
		 struct fuse_file_info *fi EXT2FS_ATTR((unused)))
{
	struct e2fuse *srv = e2fuse_of(req);
	char *buf = malloc(size ? size : 1);
	unsigned int got = 0;
	ext2_file_t file;
	errcode_t retval, close_retval;

	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	retval = e2fuse_file_open(srv, e2fuse_ino(node), 0, &file);
	if (!retval) {
		retval = ext2fs_file_llseek(file, off, EXT2_SEEK_SET, NULL);
		if (!retval)
			retval = ext2fs_file_read(file, buf, size, &got);
		close_retval = ext2fs_file_close(file);
		if (!retval)
			retval = close_retval;
	}
	if (e2fuse_is_corruption(retval))
		fuse_reply_err(req, e2fuse_corrupt(srv, e2fuse_ino(node), "read",
						   retval));
	else if (retval)
		fuse_reply_err(req, e2fuse_errno(retval));
	else
		fuse_reply_buf(req, buf, got);
	if (!retval)
		e2fuse_accessed(srv, e2fuse_ino(node));
	free(buf);
}

/*
 * With a journal, the blocks of [off, off + len) of a file hold data,
 * which libext2fs wrote like any block: they go in place now, before
 * the commit that makes them reachable (ordered mode, as ext4's
 * default), instead of twice through the journal (txnio.h). A block the
 * file got in this request was free on disk (txnio.h holds freed
 * blocks back until the commit). Inline data lives in the inode,
 * metadata, and stays in the transaction.
 */
static errcode_t data_in_place(struct e2fuse *srv, ext2_ino_t ino, off_t off,
			       size_t len)
{
	ext2_filsys fs = srv->fs;
	struct ext2_inode_large inode;
	blk64_t lblk, last = (off + len - 1) / fs->blocksize;
	blk64_t run = 0, nrun = 0;
	errcode_t retval = e2fuse_read_inode(srv, ino, &inode);

	if (retval || (inode.i_flags & EXT4_INLINE_DATA_FL))
		return retval;
	for (lblk = off / fs->blocksize; lblk <= last; lblk++) {
		blk64_t pblk = 0;

		retval = ext2fs_bmap2(fs, ino, EXT2_INODE(&inode), NULL, 0,
				      lblk, NULL, &pblk);
		if (retval)
			return retval;
		if (nrun && pblk == run + nrun) {
			nrun++;
			continue;
		}
		if (nrun)
			retval = e2fold_txn_write_data(fs, run, nrun);
		if (retval)
			return retval;
		run = pblk;
		nrun = pblk != 0;
	}
	return nrun ? e2fold_txn_write_data(fs, run, nrun) : 0;
}

/* size bytes at off into the file; *ret_done says how many went. */
static errcode_t write_at(struct e2fuse *srv, ext2_ino_t ino, const char *buf,
			  size_t size, off_t off, unsigned int *ret_done)
{
	ext2_file_t file;
	errcode_t retval, close_retval;
	__u64 end = 0;

	retval = e2fuse_file_open(srv, ino, EXT2_FILE_WRITE, &file);
	if (retval)
		return retval;
	retval = ext2fs_file_llseek(file, off, EXT2_SEEK_SET, NULL);
	if (!retval)
		retval = ext2fs_file_write(file, buf, size, ret_done);
	if (!retval)
		retval = ext2fs_file_get_lsize(file, &end);
	if (!retval && (__u64)off + *ret_done > end)
		retval = ext2fs_file_set_size2(file, off + *ret_done);
	/* Closing writes the data block it holds and the inode. */
	close_retval = ext2fs_file_close(file);
	retval = retval ? retval : close_retval;
	if (!retval && srv->journaled && *ret_done)
		retval = data_in_place(srv, ino, off, *ret_done);
	return retval;
}

/*
 * After a write: mtime and ctime now. Setuid and setgid are the kernel's
 * to clear: before a write it sends a setattr that drops them, unless
 * the writer has CAP_FSETID (file_remove_privs), as for ext4.
 */
static errcode_t after_write(struct e2fuse *srv, ext2_ino_t ino)
{
	struct ext2_inode_large inode;
	errcode_t retval = e2fuse_read_inode(srv, ino, &inode);

	if (retval)
		return retval;
	e2fuse_set_times(srv, &inode, E2FUSE_MTIME | E2FUSE_CTIME, NULL);
	return e2fuse_write_inode(srv, ino, &inode);
}

void e2fuse_write(fuse_req_t req, fuse_ino_t node, const char *buf,
		  size_t size, off_t off,
		  struct fuse_file_info *fi EXT2FS_ATTR((unused)))
{
	struct e2fuse *srv = e2fuse_of(req);
	ext2_ino_t ino = e2fuse_ino(node);
	unsigned int done = 0;
	errcode_t retval;

	if (!e2fuse_writable(req))
		return;
	retval = write_at(srv, ino, buf, size, off, &done);
	if (!retval)
		retval = after_write(srv, ino);
	if (e2fuse_is_corruption(retval))
		fuse_reply_err(req, e2fuse_corrupt(srv, ino, "write", retval));
	else if (retval)
		fuse_reply_err(req, e2fuse_errno(retval));
	else
		fuse_reply_write(req, done);
}

void e2fuse_flush(fuse_req_t req, fuse_ino_t node EXT2FS_ATTR((unused)),
		  struct fuse_file_info *fi EXT2FS_ATTR((unused)))
{
	struct e2fuse *srv = e2fuse_of(req);
	errcode_t retval = 0;

	/*
	 * Without a journal, each close writes what libext2fs holds in
	 * memory (bitmaps, group counts, cached blocks), so that a server
	 * killed later leaves the closed files whole; without a sync,
	 * which is fsync's. With one, a close writes nothing: the commits
	 * do (commit.c), as for ext4.
	 */
	if (srv->opt.readonly || srv->journaled) {
		/*
		 * Nothing to do, ever: ENOSYS tells the kernel to send no more
		 * flushes on this mount, a round trip saved on every close.
		 */
		fuse_reply_err(req, ENOSYS);
		return;
	}
	retval = ext2fs_flush2(srv->fs, EXT2_FLAG_FLUSH_NO_SYNC);
	fuse_reply_err(req, e2fuse_errno(retval));
}

/* fsync and fsyncdir: everything so far is made durable (commit.c). */
void e2fuse_fsync(fuse_req_t req, fuse_ino_t node EXT2FS_ATTR((unused)),
		  int datasync EXT2FS_ATTR((unused)),
		  struct fuse_file_info *fi EXT2FS_ATTR((unused)))
{
	fuse_reply_err(req, e2fuse_errno(e2fuse_commit(e2fuse_of(req))));
}

void e2fuse_readlink(fuse_req_t req, fuse_ino_t node)
{
	struct e2fuse *srv = e2fuse_of(req);
	ext2_ino_t ino = e2fuse_ino(node);
	struct ext2_inode_large inode;
	unsigned int got = 0;
	ext2_file_t file;
	char *buf;
	errcode_t retval = e2fuse_read_inode(srv, ino, &inode);

	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	if (!LINUX_S_ISLNK(inode.i_mode)) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	buf = calloc(1, srv->fs->blocksize + 1);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (ext2fs_is_fast_symlink((struct ext2_inode *)&inode)) {
		memcpy(buf, inode.i_block, sizeof(inode.i_block));
	} else {
		/* Slow and inline-data links alike are read as a file. */
		retval = e2fuse_file_open(srv, ino, 0, &file);
		if (!retval) {
			retval = ext2fs_file_read(file, buf,
						  srv->fs->blocksize, &got);
			ext2fs_file_close(file);
		}
	}
	if (retval)
		fuse_reply_err(req, e2fuse_errno(retval));
	else
		fuse_reply_readlink(req, buf);
	if (!retval)
		e2fuse_accessed(srv, ino);
	free(buf);
}

void e2fuse_statfs(fuse_req_t req, fuse_ino_t node EXT2FS_ATTR((unused)))
{
	struct e2fuse *srv = e2fuse_of(req);
	struct ext2_super_block *sb = srv->fs->super;
	struct statvfs st;
	blk64_t free_blocks = ext2fs_free_blocks_count(sb);
	blk64_t reserved = ext2fs_r_blocks_count(sb);

	memset(&st, 0, sizeof(st));
	st.f_bsize = st.f_frsize = srv->fs->blocksize;
	st.f_blocks = ext2fs_blocks_count(sb);
	st.f_bfree = free_blocks;
	st.f_bavail = free_blocks > reserved ? free_blocks - reserved : 0;
	st.f_files = sb->s_inodes_count;
	st.f_ffree = st.f_favail = sb->s_free_inodes_count;
	st.f_fsid = sb->s_uuid[0] | sb->s_uuid[1] << 8 |
		    sb->s_uuid[2] << 16 | (unsigned long)sb->s_uuid[3] << 24;
	st.f_namemax = EXT2_NAME_LEN;
	fuse_reply_statfs(req, &st);
}
