/*
 * links.c: commands that add and remove links, as debugfs has them.
 *
 *   unlink [-e] PATH        remove the entry; the inode's link count
 *                           is not changed (debugfs's unlink)
 *   rm [-e] PATH            remove the entry and drop a link; an inode
 *                           left without links is freed, blocks and all
 *                           (the unlink system call; not for directories)
 *   rmdir [-e] PATH         remove an empty directory: its entry, its
 *                           inode and blocks, and the parent's count of
 *                           its ".." (dirlinks.h's rule)
 *   ln [-e] SRC DEST        a new entry DEST for SRC's inode, its link
 *                           count not changed (debugfs's ln); DEST an
 *                           existing directory: SRC's name inside it
 *
 * PATH and SRC are found as every path is (casefolded lookups; with -e
 * byte for byte), so "rm README" removes "readme" in a casefolded
 * directory, as the kernel would. The entry goes through lib/support:
 * removed in its block as ext4_delete_entry removes it, or added where
 * the kernel would place it, after the same collision check as mkdir.
 * Each command is one transaction (cmd_commit), as every editing one.
 */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs.h"
#include "dirlinks.h"
#include "newinode.h"

/* The entry a path's last component names. */
struct entry_at {
	unsigned char path[4096];
	size_t path_len;
	ext2_ino_t dir;
	blk64_t lblk;
	unsigned int offset;
	ext2_ino_t ino;
};

/* Find the entry arg names; reports failures. */
static int find_entry(struct session *s, const char *cmd, const char *arg,
		      int exact, struct entry_at *e)
{
	struct e2fold_dirent found;
	const unsigned char *name;
	unsigned int len;
	errcode_t retval;

	if (arg_bytes(arg, e->path, sizeof(e->path), &e->path_len)) {
		cmd_error(s, cmd, 0, "path too long");
		return -1;
	}
	name = e->path + e->path_len;
	while (name > e->path && name[-1] != '/')
		name--;
	len = e->path + e->path_len - name;
	if (!len || (len == 1 && name[0] == '.') ||
	    (len == 2 && !memcmp(name, "..", 2))) {
		cmd_error(s, cmd, 0, "%s: not an entry that can be removed",
			  esc(0, e->path, e->path_len));
		return -1;
	}
	retval = path_resolve_parent(s, e->path, e->path_len, exact, &e->dir,
				     &name, &len);
	if (!retval)
		retval = path_lookup_entry(s, e->dir, name, len, exact, &found);
	if (!retval) {
		e->lblk = found.lblk;
		e->offset = found.offset;
		e->ino = found.ino;
	}
	if (retval) {
		cmd_error(s, cmd, retval, "while looking up %s",
			  esc(0, e->path, e->path_len));
		return -1;
	}
	return 0;
}

static errcode_t touch_inode(struct session *s, ext2_ino_t ino, int mtime)
{
	struct ext2_inode inode;
	errcode_t retval = ext2fs_read_inode(s->fs, ino, &inode);

	if (retval)
		return retval;
	inode.i_ctime = session_now(s);
	if (mtime)
		inode.i_mtime = inode.i_ctime;
	return ext2fs_write_inode(s->fs, ino, &inode);
}

static errcode_t remove_entry(struct session *s, const struct entry_at *e)
{
	errcode_t retval = session_load_bitmaps(s);

	if (!retval)
		retval = e2fold_dir_remove(s->fs, s->um, e->dir, e->lblk,
					   e->offset);
	if (!retval)
		retval = touch_inode(s, e->dir, 1);
	return retval;
}

/* One link fewer; the last one frees the inode and its blocks. */
static errcode_t drop_link(struct session *s, ext2_ino_t ino, int *ret_freed)
{
	struct ext2_inode inode;
	errcode_t retval = ext2fs_read_inode(s->fs, ino, &inode);

	*ret_freed = 0;
	if (retval)
		return retval;
	/* Another name's rm freed it already (ln does not count links). */
	if (!ext2fs_test_inode_bitmap2(s->fs->inode_map, ino))
		return 0;
	if (inode.i_links_count > 1) {
		inode.i_links_count--;
		inode.i_ctime = session_now(s);
		return ext2fs_write_inode(s->fs, ino, &inode);
	}
	*ret_freed = 1;
	return e2fold_free_inode(s->fs, ino, session_now(s));
}

static void unlink_or_rm(struct session *s, int argc, cmd_argv_t argv,
			 int rm)
{
	char **args = args_begin(argc, argv);
	struct entry_at *e = malloc(sizeof(*e));
	struct ext2_inode inode;
	errcode_t retval;
	int exact, freed = 0;

	if (!args || !e)
		goto out;
	if (parse_exact_args(argc, args, 1, &exact)) {
		cmd_error(s, argv[0], 0, "usage: %s [-e] PATH", argv[0]);
		goto out;
	}
	if (cmd_need_writable(s, argv[0]) ||
	    find_entry(s, argv[0], args[optind], exact, e))
		goto out;
	retval = ext2fs_read_inode(s->fs, e->ino, &inode);
	if (!retval && rm && LINUX_S_ISDIR(inode.i_mode)) {
		cmd_error(s, argv[0], 0, "%s is a directory (unlink removes "
			  "its entry alone)", esc(0, e->path, e->path_len));
		goto out;
	}
	if (!retval)
		retval = remove_entry(s, e);
	if (!retval && rm)
		retval = drop_link(s, e->ino, &freed);
	if (retval) {
		cmd_error(s, argv[0], retval, "while removing %s",
			  esc(0, e->path, e->path_len));
		goto out;
	}
	printf("%s: removed %s (inode %u)%s\n", argv[0],
	       esc(0, e->path, e->path_len), e->ino,
	       freed ? ", its last link: inode freed" : "");
out:
	cmd_commit(s, argv[0]);
	free(e);
	free(args);
}

DEBUGFS_CMD(do_unlink)
{
	unlink_or_rm(infop, argc, argv, 0);
}

DEBUGFS_CMD(do_rm)
{
	unlink_or_rm(infop, argc, argv, 1);
}

/* Is directory ino empty (nothing but "." and "..")? Reports if not. */
static int need_empty(struct session *s, const char *cmd,
		      const struct entry_at *e)
{
	struct e2fold_dir *d;
	errcode_t retval = e2fold_dir_read(s->fs, e->ino, &d);
	int r = 0;

	if (retval) {
		cmd_error(s, cmd, retval, "while reading inode %u", e->ino);
		return -1;
	}
	if (d->nents || d->ncorrupt) {
		cmd_error(s, cmd, 0, "%s is not empty (ENOTEMPTY)",
			  esc(0, e->path, e->path_len));
		r = -1;
	}
	e2fold_dir_free(d);
	return r;
}

/* The parent's count after losing a subdirectory (ext4_dec_count). */
static errcode_t drop_parent_link(struct session *s, ext2_ino_t dir)
{
	struct ext2_inode inode;
	errcode_t retval = ext2fs_read_inode(s->fs, dir, &inode);

	if (retval)
		return retval;
	e2fold_dir_links_dec(&inode);
	return ext2fs_write_inode(s->fs, dir, &inode);
}

/*
 * As ext4_rmdir: the entry goes first, then the directory's inode, then
 * the parent's count; a crash in between leaves an unreachable inode or
 * a count one high, both of which e2fsck corrects.
 */
DEBUGFS_CMD(do_rmdir)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct entry_at *e = malloc(sizeof(*e));
	struct ext2_inode inode;
	errcode_t retval;
	int exact;

	if (!args || !e)
		goto out;
	if (parse_exact_args(argc, args, 1, &exact)) {
		cmd_error(s, argv[0], 0, "usage: rmdir [-e] PATH");
		goto out;
	}
	if (cmd_need_writable(s, argv[0]) ||
	    find_entry(s, argv[0], args[optind], exact, e))
		goto out;
	retval = ext2fs_read_inode(s->fs, e->ino, &inode);
	if (!retval && !LINUX_S_ISDIR(inode.i_mode)) {
		cmd_error(s, argv[0], 0, "%s is not a directory (ENOTDIR)",
			  esc(0, e->path, e->path_len));
		goto out;
	}
	if (!retval && need_empty(s, argv[0], e))
		goto out;
	if (!retval)
		retval = remove_entry(s, e);
	if (!retval)
		retval = e2fold_free_inode(s->fs, e->ino, session_now(s));
	if (!retval)
		retval = drop_parent_link(s, e->dir);
	if (retval) {
		cmd_error(s, argv[0], retval, "while removing %s",
			  esc(0, e->path, e->path_len));
		goto out;
	}
	printf("rmdir: removed %s (inode %u)\n", esc(0, e->path, e->path_len),
	       e->ino);
out:
	cmd_commit(s, argv[0]);
	free(e);
	free(args);
}

/*
 * DEST as ln takes it: an existing directory receives SRC's last
 * component; anything else is the new entry's path.
 */
static int link_target(struct session *s, const char *cmd, const char *src,
		       const char *dest, int exact, unsigned char *path,
		       size_t cap, size_t *ret_len)
{
	size_t len, slen;
	const char *base = strrchr(src, '/');
	ext2_ino_t ino;

	if (arg_bytes(dest, path, cap, &len)) {
		cmd_error(s, cmd, 0, "path too long");
		return -1;
	}
	if (!path_resolve(s, path, len, exact ? PATH_EXACT : 0, &ino) &&
	    !ext2fs_check_directory(s->fs, ino)) {
		base = base ? base + 1 : src;
		slen = strlen(base);
		if (len + 1 + slen >= cap) {
			cmd_error(s, cmd, 0, "path too long");
			return -1;
		}
		path[len++] = '/';
		if (arg_bytes(base, path + len, cap - len, &slen))
			return -1;
		len += slen;
	}
	*ret_len = len;
	return 0;
}

DEBUGFS_CMD(do_ln)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	unsigned char *path = malloc(4096);
	const unsigned char *name;
	unsigned int name_len;
	struct ext2_inode inode;
	enum e2fold_add_how how;
	ext2_ino_t ino, dir;
	errcode_t retval;
	size_t len;
	int exact;

	if (!args || !path)
		goto out;
	if (parse_exact_args(argc, args, 2, &exact)) {
		cmd_error(s, argv[0], 0, "usage: ln [-e] SRC DEST");
		goto out;
	}
	if (cmd_need_writable(s, argv[0]) ||
	    path_arg(s, argv[0], args[optind], exact ? PATH_EXACT : 0, &ino) ||
	    link_target(s, argv[0], args[optind], args[optind + 1], exact,
			path, 4096, &len))
		goto out;
	retval = path_resolve_parent(s, path, len, exact, &dir, &name,
				     &name_len);
	if (retval) {
		cmd_error(s, argv[0], retval, "while resolving %s",
			  esc(0, path, len));
		goto out;
	}
	if (check_new_name(s, argv[0], dir, name, name_len))
		goto out;
	retval = ext2fs_read_inode(s->fs, ino, &inode);
	if (!retval)
		retval = add_entry(s, dir, name, name_len, ino,
				   e2fold_file_type(inode.i_mode), &how);
	if (retval) {
		cmd_error(s, argv[0], retval, "while linking %s",
			  esc(0, path, len));
		goto out;
	}
	printf("ln: %s -> inode %u (its link count is left as it was)\n",
	       esc(0, path, len), ino);
out:
	cmd_commit(s, argv[0]);
	free(path);
	free(args);
}
