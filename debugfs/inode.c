/*
 * inode.c: commands on one inode reached by a path: stat, cat, dump.
 *
 *   stat [-e] PATH
 *   cat [-e] PATH
 *   dump [-e] PATH OUTFILE
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <e2p/e2p.h>

#include "debugfs.h"

static void print_times(const struct ext2_inode_large *inode, int large)
{
	char buf[32];

	printf("ctime: %s\n", format_time(inode->i_ctime, buf, sizeof(buf)));
	printf("atime: %s\n", format_time(inode->i_atime, buf, sizeof(buf)));
	printf("mtime: %s\n", format_time(inode->i_mtime, buf, sizeof(buf)));
	if (large && inode->i_extra_isize >= 24)
		printf("crtime: %s\n", format_time(inode->i_crtime, buf,
						   sizeof(buf)));
}

static void print_directory(struct session *s, ext2_ino_t ino)
{
	struct dir_view v;

	if (dir_view_open(s, ino, &v))
		return;
	printf("Directory: ");
	dir_view_describe(s, &v, stdout);
	if (v.dir->indexed && v.dir->dx_problem != E2FOLD_DX_OK)
		printf("Index problem: %s (block %llu)\n",
		       e2fold_dx_problem_text(v.dir->dx_problem),
		       (unsigned long long)v.dir->dx_problem_block);
	dir_view_close(&v);
}

static void print_inode(struct session *s, ext2_ino_t ino)
{
	struct ext2_inode_large inode;
	int large = EXT2_INODE_SIZE(s->fs->super) > EXT2_GOOD_OLD_INODE_SIZE;
	errcode_t retval;

	memset(&inode, 0, sizeof(inode));
	retval = ext2fs_read_inode_full(s->fs, ino, (struct ext2_inode *)&inode,
					sizeof(inode));
	if (retval) {
		cmd_error(s, "stat", retval, "while reading inode %u", ino);
		return;
	}
	printf("Inode: %u   Type: %s   Mode: %04o   Flags: 0x%x\n", ino,
	       mode_type_name(inode.i_mode), inode.i_mode & 07777,
	       inode.i_flags);
	if (inode.i_flags) {
		printf("Flag names: ");
		print_flags(stdout, inode.i_flags, PFOPT_LONG);
		putchar('\n');
	}
	printf("Links: %u   UID: %u   GID: %u   Size: %llu\n",
	       inode.i_links_count, inode_uid(inode), inode_gid(inode),
	       (unsigned long long)EXT2_I_SIZE(&inode));
	printf("Blockcount: %llu\n", (unsigned long long)
	       ext2fs_get_stat_i_blocks(s->fs, (struct ext2_inode *)&inode));
	print_times(&inode, large);
	if ((inode.i_flags & EXT4_CASEFOLD_FL) && !LINUX_S_ISDIR(inode.i_mode))
		printf("Note: the casefold flag is set on a non-directory; "
		       "the kernel ignores it\n");
	if ((inode.i_flags & EXT4_CASEFOLD_FL) &&
	    !ext2fs_has_feature_casefold(s->fs->super))
		printf("Note: the casefold flag without the casefold feature: "
		       "the kernel refuses this inode\n");
	if (LINUX_S_ISDIR(inode.i_mode))
		print_directory(s, ino);
}

DEBUGFS_CMD(do_stat)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	ext2_ino_t ino;
	int exact;

	if (!args)
		return;
	if (parse_exact_args(argc, args, 1, &exact))
		cmd_error(s, argv[0], 0, "usage: stat [-e] PATH");
	else if (!path_arg(s, argv[0], args[optind],
				 exact ? PATH_EXACT : 0, &ino))
		print_inode(s, ino);
	free(args);
}

errcode_t copy_out(struct session *s, ext2_ino_t ino, int fd)
{
	ext2_file_t file;
	char *buf = malloc(65536);
	errcode_t retval, close_retval;

	if (!buf)
		return EXT2_ET_NO_MEMORY;
	retval = ext2fs_file_open(s->fs, ino, 0, &file);
	if (retval) {
		free(buf);
		return retval;
	}
	for (;;) {
		unsigned int got = 0;
		ssize_t done = 0;

		retval = ext2fs_file_read(file, buf, 65536, &got);
		if (retval || got == 0)
			break;
		while (done < (ssize_t)got) {
			ssize_t n = write(fd, buf + done, got - done);

			if (n < 0) {
				retval = errno;
				break;
			}
			done += n;
		}
		if (retval)
			break;
	}
	close_retval = ext2fs_file_close(file);
	free(buf);
	return retval ? retval : close_retval;
}

static int need_regular(struct session *s, const char *cmd, ext2_ino_t ino)
{
	struct ext2_inode inode;
	errcode_t retval = ext2fs_read_inode(s->fs, ino, &inode);

	if (retval) {
		cmd_error(s, cmd, retval, "while reading inode %u", ino);
		return -1;
	}
	if (LINUX_S_ISDIR(inode.i_mode)) {
		cmd_error(s, cmd, 0, "inode %u is a directory", ino);
		return -1;
	}
	return 0;
}

DEBUGFS_CMD(do_cat)
{
	struct session *s = infop;
	ext2_ino_t ino;
	errcode_t retval;

	if (path_single_arg(s, argc, argv, "cat [-e] PATH", PATH_FOLLOW, &ino) ||
	    need_regular(s, argv[0], ino))
		return;
	fflush(stdout);
	retval = copy_out(s, ino, STDOUT_FILENO);
	if (retval)
		cmd_error(s, argv[0], retval, "while reading inode %u", ino);
}

errcode_t preserve_attrs(int fd, const struct ext2_inode *inode)
{
	struct timespec times[2] = {
		{ .tv_sec = inode->i_atime },
		{ .tv_sec = inode->i_mtime },
	};

	if (fchown(fd, inode_uid(*inode), inode_gid(*inode)) && errno != EPERM)
		return errno;
	if (fchmod(fd, inode->i_mode & 07777) || futimens(fd, times))
		return errno;
	return 0;
}

DEBUGFS_CMD(do_dump)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t retval;
	int exact = 0, keep = 0, fd, c;

	if (!args)
		return;
	while ((c = getopt(argc, args, "ep")) != -1) {
		if (c == 'e')
			exact = 1;
		else if (c == 'p')
			keep = 1;
		else
			optind = argc;
	}
	if (optind != argc - 2) {
		cmd_error(s, argv[0], 0, "usage: dump [-e] [-p] PATH OUTFILE");
		goto out;
	}
	if (path_arg(s, argv[0], args[optind],
		     PATH_FOLLOW | (exact ? PATH_EXACT : 0), &ino) ||
	    need_regular(s, argv[0], ino))
		goto out;
	retval = ext2fs_read_inode(s->fs, ino, &inode);
	if (retval) {
		cmd_error(s, argv[0], retval, "while reading inode %u", ino);
		goto out;
	}
	fd = open(args[optind + 1], O_WRONLY | O_CREAT | O_TRUNC,
		  inode.i_mode & 0777);
	if (fd < 0) {
		cmd_error(s, argv[0], errno, "while creating %s",
			  esc(0, (unsigned char *)args[optind + 1],
			      strlen(args[optind + 1])));
		goto out;
	}
	retval = copy_out(s, ino, fd);
	if (!retval && keep)
		retval = preserve_attrs(fd, &inode);
	if (close(fd) && !retval)
		retval = errno;
	if (retval)
		cmd_error(s, argv[0], retval, "while writing %s",
			  esc(0, (unsigned char *)args[optind + 1],
			      strlen(args[optind + 1])));
out:
	free(args);
}
