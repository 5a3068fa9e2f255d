/*
 * special.c: new entries that hold no file data: symbolic links and
 * device nodes, as debugfs's symlink and mknod make them.
 *
 *   symlink [-e] PATH TARGET
 *   mknod [-e] PATH p|c MAJOR MINOR|b MAJOR MINOR
 *
 * The new name goes the way mkdir's and write's go (addentry.c):
 * refused if it collides, after casefolding in a casefolded directory,
 * and placed where the kernel's hash leads. The inode is made by
 * newinode.c, which gives an extent tree only to what holds blocks: a
 * symbolic link's target longer than i_block gets one, a target that
 * fits is kept in i_block itself (a "fast" link, whose extent tree the
 * kernel drops too), and a device node or FIFO never has one.
 */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs.h"
#include "newinode.h"

/* The target in i_block, which then holds no extent tree. */
static errcode_t write_fast_link(struct session *s, ext2_ino_t ino,
				 const unsigned char *target, size_t len)
{
	struct ext2_inode inode;
	errcode_t retval = ext2fs_read_inode(s->fs, ino, &inode);

	if (retval)
		return retval;
	inode.i_flags &= ~EXT4_EXTENTS_FL;
	memset(inode.i_block, 0, sizeof(inode.i_block));
	memcpy(inode.i_block, target, len);
	inode.i_size = len;
	return ext2fs_write_inode(s->fs, ino, &inode);
}

/* The target in a block of its own (the size follows the write). */
static errcode_t write_slow_link(struct session *s, ext2_ino_t ino,
				 const unsigned char *target, size_t len)
{
	ext2_file_t file;
	unsigned int written = 0;
	errcode_t retval, close_retval;

	retval = ext2fs_file_open(s->fs, ino, EXT2_FILE_WRITE, &file);
	if (retval)
		return retval;
	retval = ext2fs_file_write(file, target, len, &written);
	if (!retval && written != len)
		retval = EXT2_ET_SHORT_WRITE;
	close_retval = ext2fs_file_close(file);
	return retval ? retval : close_retval;
}

static errcode_t make_symlink(struct session *s, const struct target *t,
			      const unsigned char *target, size_t len,
			      ext2_ino_t *ret_ino, enum e2fold_add_how *ret_how)
{
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t retval;

	retval = new_inode(s, t->dir, LINUX_S_IFLNK | 0777, 0, &ino);
	if (retval)
		return retval;
	if (len < sizeof(inode.i_block))
		retval = write_fast_link(s, ino, target, len);
	else
		retval = write_slow_link(s, ino, target, len);
	return link_new_inode(s, t, ino, EXT2_FT_SYMLINK, retval, ret_ino,
			      ret_how);
}

DEBUGFS_CMD(do_symlink)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct target *t = malloc(sizeof(*t));
	unsigned char *target = malloc(4096);
	enum e2fold_add_how how;
	ext2_ino_t ino;
	errcode_t retval;
	size_t len;
	int exact;

	if (!args || !t || !target)
		goto out;
	if (parse_exact_args(argc, args, 2, &exact)) {
		cmd_error(s, argv[0], 0, "usage: symlink [-e] PATH TARGET");
		goto out;
	}
	if (cmd_need_writable(s, argv[0]))
		goto out;
	/* The kernel's limit: the target and its NUL fit in one block. */
	if (arg_bytes(args[optind + 1], target, 4096, &len) || !len ||
	    len >= s->fs->blocksize || memchr(target, '\0', len)) {
		cmd_error(s, argv[0], 0, "a target must be 1 to %u bytes, "
			  "without NUL", s->fs->blocksize - 1);
		goto out;
	}
	if (target_resolve(s, argv[0], args[optind], exact, t))
		goto out;
	retval = make_symlink(s, t, target, len, &ino, &how);
	if (retval)
		cmd_error(s, argv[0], retval, "while creating %s",
			  esc(0, t->path, t->path_len));
	else
		target_report("symlink", t, ino, how);
out:
	cmd_commit(s, argv[0]);
	free(target);
	free(t);
	free(args);
}

/*
 * The device number in i_block, as the kernel keeps it: the old 16-bit
 * form in i_block[0] when major and minor both fit in a byte, else the
 * new form (minor's low byte, major, minor's high bits) in i_block[1].
 */
static void set_device(struct ext2_inode *inode, unsigned long major,
		       unsigned long minor)
{
	memset(inode->i_block, 0, sizeof(inode->i_block));
	if (major < 256 && minor < 256)
		inode->i_block[0] = ext2fs_cpu_to_le32(major << 8 | minor);
	else
		inode->i_block[1] = ext2fs_cpu_to_le32((minor & 0xff) |
						       (major << 8) |
						       ((minor & ~0xffUL) << 12));
}

/* mknod's operands after PATH: the mode, and the device for c and b. */
static int parse_node(int n, char **ops, __u16 *ret_mode,
		      unsigned long *ret_major, unsigned long *ret_minor)
{
	char *end1 = NULL, *end2 = NULL;

	if (n < 1 || ops[0][0] == '\0' || ops[0][1] != '\0')
		return -1;
	*ret_major = *ret_minor = 0;
	switch (ops[0][0]) {
	case 'p':
		*ret_mode = LINUX_S_IFIFO;
		return n == 1 ? 0 : -1;
	case 'c':
		*ret_mode = LINUX_S_IFCHR;
		break;
	case 'b':
		*ret_mode = LINUX_S_IFBLK;
		break;
	default:
		return -1;
	}
	if (n != 3)
		return -1;
	*ret_major = strtoul(ops[1], &end1, 0);
	*ret_minor = strtoul(ops[2], &end2, 0);
	/* debugfs's bounds: 16 bits each. */
	if (!*ops[1] || *end1 || !*ops[2] || *end2 || *ret_major > 65535 ||
	    *ret_minor > 65535)
		return -1;
	return 0;
}

static errcode_t make_node(struct session *s, const struct target *t,
			   __u16 mode, unsigned long major,
			   unsigned long minor, ext2_ino_t *ret_ino,
			   enum e2fold_add_how *ret_how)
{
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t retval;

	retval = new_inode(s, t->dir, mode, 0, &ino);
	if (retval)
		return retval;
	retval = ext2fs_read_inode(s->fs, ino, &inode);
	if (!retval && !LINUX_S_ISFIFO(mode)) {
		set_device(&inode, major, minor);
		retval = ext2fs_write_inode(s->fs, ino, &inode);
	}
	return link_new_inode(s, t, ino, e2fold_file_type(mode), retval,
			      ret_ino, ret_how);
}

DEBUGFS_CMD(do_mknod)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct target *t = malloc(sizeof(*t));
	unsigned long major, minor;
	enum e2fold_add_how how;
	ext2_ino_t ino;
	errcode_t retval;
	__u16 mode;
	int exact = 0, c;

	if (!args || !t)
		goto out;
	while ((c = getopt(argc, args, "e")) != -1) {
		if (c == 'e')
			exact = 1;
		else
			optind = argc;
	}
	/* As debugfs: no permission bits (sif sets them). */
	if (argc - optind < 2 ||
	    parse_node(argc - optind - 1, args + optind + 1, &mode, &major,
		       &minor)) {
		cmd_error(s, argv[0], 0, "usage: mknod [-e] PATH "
			  "p|c MAJOR MINOR|b MAJOR MINOR");
		goto out;
	}
	if (cmd_need_writable(s, argv[0]) ||
	    target_resolve(s, argv[0], args[optind], exact, t))
		goto out;
	retval = make_node(s, t, mode, major, minor, &ino, &how);
	if (retval)
		cmd_error(s, argv[0], retval, "while creating %s",
			  esc(0, t->path, t->path_len));
	else
		target_report("mknod", t, ino, how);
out:
	cmd_commit(s, argv[0]);
	free(t);
	free(args);
}
