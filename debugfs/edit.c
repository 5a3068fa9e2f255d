/*
 * edit.c: commands that change names and directories.
 *
 *   mkdir [-e] PATH              a new directory; it inherits the parent's
 *                                casefold flag, as the kernel's do
 *   write [-e] SRCFILE PATH      a new regular file with SRCFILE's contents
 *   chattr [-e] +F|-F PATH       set or clear the casefold flag of an
 *                                empty directory
 *
 * The parent directory is found as any path is (casefolded lookups); the
 * new name is kept byte for byte, checked for collisions (addentry.c) and
 * placed with the kernel's hash.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debugfs.h"
#include "dirlinks.h"
#include "txnio.h"

static errcode_t make_directory(struct session *s, const struct target *t,
				ext2_ino_t *ret_ino, enum e2fold_add_how *ret_how)
{
	struct ext2_inode parent;
	ext2_ino_t ino;
	errcode_t retval;

	retval = ext2fs_read_inode(s->fs, t->dir, &parent);
	if (retval)
		return retval;
	if (e2fold_dir_links_full(s->fs, &parent))
		return EXT2_ET_TOO_MANY_REFS;
	retval = new_inode(s, t->dir, LINUX_S_IFDIR | 0755,
			   parent.i_flags & EXT4_CASEFOLD_FL, &ino);
	if (retval)
		return retval;
	return link_new_inode(s, t, ino, EXT2_FT_DIR, 0, ret_ino, ret_how);
}

DEBUGFS_CMD(do_mkdir)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct target *t = malloc(sizeof(*t));
	ext2_ino_t ino;
	errcode_t retval;
	enum e2fold_add_how how;
	int exact;

	if (!args || !t)
		goto out;
	if (parse_exact_args(argc, args, 1, &exact))
		goto usage;
	if (cmd_need_writable(s, argv[0]) ||
	    target_resolve(s, argv[0], args[optind], exact, t))
		goto out;
	retval = make_directory(s, t, &ino, &how);
	if (retval)
		cmd_error(s, argv[0], retval, "while creating %s",
			  esc(0, t->path, t->path_len));
	else
		target_report("mkdir", t, ino, how);
	goto out;
usage:
	cmd_error(s, argv[0], 0, "usage: mkdir [-e] PATH");
out:
	cmd_commit(s, argv[0]);
	free(t);
	free(args);
}

/*
 * Read a block's worth of fd into buf (zeros after its end); *ret_n is
 * 0 at the end of the file.
 */
static errcode_t read_block(int fd, unsigned char *buf, unsigned int size,
			    size_t *ret_n)
{
	size_t got = 0;
	ssize_t n;

	while (got < size && (n = read(fd, buf + got, size - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		got += n;
	}
	memset(buf + got, 0, size - got);
	*ret_n = got;
	return 0;
}

/*
 * On a journaled filesystem the contents are file data, not metadata:
 * the blocks are allocated (initialized, not zeroed) in the command's
 * transaction, the contents written to them at once (ordered, txnio.h),
 * and the size set, so that the transaction holds the metadata only and
 * a large file never outgrows the journal. size is the file's.
 */
static errcode_t copy_in_ordered(struct session *s, ext2_ino_t ino, int fd,
				 off_t size)
{
	ext2_filsys fs = s->fs;
	blk64_t nblocks = (size + fs->blocksize - 1) / fs->blocksize, lblk;
	struct ext2_inode inode;
	unsigned char *buf;
	errcode_t retval;
	size_t n = 1;

	retval = ext2fs_read_inode(fs, ino, &inode);
	if (!retval && nblocks)
		retval = ext2fs_fallocate(fs, EXT2_FALLOCATE_FORCE_INIT, ino,
					  &inode, ~0ULL, 0, nblocks);
	if (retval)
		return retval;
	retval = ext2fs_get_mem(fs->blocksize, &buf);
	if (retval)
		return retval;
	for (lblk = 0; lblk < nblocks && n && !retval; lblk++) {
		blk64_t pblk = 0;

		retval = read_block(fd, buf, fs->blocksize, &n);
		if (!retval && n)
			retval = ext2fs_bmap2(fs, ino, &inode, NULL, 0, lblk,
					      NULL, &pblk);
		if (retval || !n)
			break;
		e2fold_txn_data(fs, 1);
		retval = io_channel_write_blk64(fs->io, pblk, 1, buf);
		e2fold_txn_data(fs, 0);
	}
	ext2fs_free_mem(&buf);
	if (!retval)
		retval = ext2fs_inode_size_set(fs, &inode, size);
	if (!retval)
		retval = ext2fs_write_inode(fs, ino, &inode);
	return retval;
}

/* Copy the native file fd into inode ino. */
static errcode_t copy_in(struct session *s, ext2_ino_t ino, int fd)
{
	ext2_file_t file;
	char *buf = malloc(65536);
	errcode_t retval, close_retval;
	ssize_t n;

	if (!buf)
		return EXT2_ET_NO_MEMORY;
	retval = ext2fs_file_open(s->fs, ino, EXT2_FILE_WRITE, &file);
	if (retval) {
		free(buf);
		return retval;
	}
	while ((n = read(fd, buf, 65536)) > 0) {
		unsigned int written = 0;

		retval = ext2fs_file_write(file, buf, n, &written);
		if (!retval && written != (unsigned int)n)
			retval = EXT2_ET_SHORT_WRITE;
		if (retval)
			break;
	}
	if (n < 0 && !retval)
		retval = errno;
	close_retval = ext2fs_file_close(file);
	free(buf);
	return retval ? retval : close_retval;
}

static errcode_t make_file(struct session *s, const struct target *t, int fd,
			   mode_t perm, off_t size, ext2_ino_t *ret_ino,
			   enum e2fold_add_how *ret_how)
{
	ext2_ino_t ino;
	errcode_t retval;

	retval = new_inode(s, t->dir, LINUX_S_IFREG | (perm & 07777), 0, &ino);
	if (retval)
		return retval;
	if (e2fold_txn_active(s->fs) &&
	    !ext2fs_has_feature_inline_data(s->fs->super))
		retval = copy_in_ordered(s, ino, fd, size);
	else
		retval = copy_in(s, ino, fd);
	return link_new_inode(s, t, ino, EXT2_FT_REG_FILE, retval, ret_ino,
			      ret_how);
}

DEBUGFS_CMD(do_write)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct target *t = malloc(sizeof(*t));
	struct stat st;
	ext2_ino_t ino;
	errcode_t retval;
	enum e2fold_add_how how;
	int exact, fd = -1;

	if (!args || !t)
		goto out;
	if (parse_exact_args(argc, args, 2, &exact))
		goto usage;
	if (cmd_need_writable(s, argv[0]))
		goto out;
	fd = open(args[optind], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		cmd_error(s, argv[0], fd < 0 ? errno : 0, "%s: %s",
			  esc(0, (unsigned char *)args[optind],
			      strlen(args[optind])),
			  fd < 0 ? "cannot open" : "not a regular file");
		goto out;
	}
	if (target_resolve(s, argv[0], args[optind + 1], exact, t))
		goto out;
	retval = make_file(s, t, fd, st.st_mode, st.st_size, &ino, &how);
	if (retval)
		cmd_error(s, argv[0], retval, "while creating %s",
			  esc(0, t->path, t->path_len));
	else
		target_report("write", t, ino, how);
	goto out;
usage:
	cmd_error(s, argv[0], 0, "usage: write [-e] SRCFILE PATH");
out:
	cmd_commit(s, argv[0]);
	if (fd >= 0)
		close(fd);
	free(t);
	free(args);
}

/*
 * The kernel's rule (ext4_ioctl_setflags): the casefold flag changes only
 * with the feature, on a directory, and only while it is empty.
 */
static int check_casefold_change(struct session *s, const char *cmd,
				 ext2_ino_t ino, const struct ext2_inode *inode)
{
	struct e2fold_dir *d;
	errcode_t retval;
	int r = 0;

	if (!ext2fs_has_feature_casefold(s->fs->super)) {
		cmd_error(s, cmd, 0, "the filesystem has no casefold feature "
			  "(EOPNOTSUPP)");
		return -1;
	}
	if (!LINUX_S_ISDIR(inode->i_mode)) {
		cmd_error(s, cmd, 0, "inode %u is not a directory (ENOTDIR)",
			  ino);
		return -1;
	}
	retval = e2fold_dir_read(s->fs, ino, &d);
	if (retval) {
		cmd_error(s, cmd, retval, "while reading inode %u", ino);
		return -1;
	}
	if (d->nents || d->ncorrupt) {
		cmd_error(s, cmd, 0, "inode %u is not empty (%zu entr%s): the "
			  "kernel changes the casefold flag only on an empty "
			  "directory (ENOTEMPTY); convert a populated one with "
			  "e2fold-tune", ino, d->nents,
			  d->nents == 1 ? "y" : "ies");
		r = -1;
	}
	e2fold_dir_free(d);
	return r;
}

DEBUGFS_CMD(do_chattr)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct ext2_inode inode;
	const char *change = NULL, *path = NULL;
	ext2_ino_t ino;
	errcode_t retval;
	__u32 old;
	int i, exact = 0, extra = 0;

	if (!args)
		return;
	/* Not getopt: "-F" is an operand here, as in chattr(1). */
	for (i = 1; i < argc; i++) {
		if (!strcmp(args[i], "-e"))
			exact = 1;
		else if (!change && (!strcmp(args[i], "+F") || !strcmp(args[i], "-F")))
			change = args[i];
		else if (!path)
			path = args[i];
		else
			extra = 1;
	}
	if (!change || !path || extra) {
		cmd_error(s, argv[0], 0, "usage: chattr [-e] +F|-F PATH");
		goto out;
	}
	if (cmd_need_writable(s, argv[0]) ||
	    path_arg(s, argv[0], path,
		     PATH_FOLLOW | (exact ? PATH_EXACT : 0), &ino))
		goto out;
	retval = ext2fs_read_inode(s->fs, ino, &inode);
	if (retval) {
		cmd_error(s, argv[0], retval, "while reading inode %u", ino);
		goto out;
	}
	old = inode.i_flags;
	if (change[0] == '+')
		inode.i_flags |= EXT4_CASEFOLD_FL;
	else
		inode.i_flags &= ~EXT4_CASEFOLD_FL;
	if (inode.i_flags == old) {
		printf("chattr: inode %u unchanged (flags 0x%x)\n", ino, old);
		goto out;
	}
	if (check_casefold_change(s, argv[0], ino, &inode))
		goto out;
	inode.i_ctime = session_now(s);
	retval = ext2fs_write_inode(s->fs, ino, &inode);
	if (retval)
		cmd_error(s, argv[0], retval, "while writing inode %u", ino);
	else
		printf("chattr: inode %u flags 0x%x -> 0x%x\n", ino, old,
		       inode.i_flags);
out:
	cmd_commit(s, argv[0]);
	free(args);
}
