/*
 * path.c: paths resolved the way the kernel resolves them, and the
 * commands that move around (cd, pwd).
 *
 * Each component is looked up with e2fold_lookup: inside a casefolded
 * directory "readme" reaches README; -e (exact) compares bytes. "." and
 * ".." are answered by the directory's own entries, as the VFS answers
 * them before ext4 is asked. Symbolic links are followed in every
 * component but the last (there only when asked: stat shows the link
 * itself, cat what it points to), at most MAX_SYMLINKS deep.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs.h"
#include "lookup.h"

#define MAX_SYMLINKS 8
#define MAX_DEPTH 4096		/* directories walked up by path_of_dir */

/* The target of a symbolic link, NUL-terminated in buf (PATH_MAX). */
static errcode_t read_symlink(struct session *s, ext2_ino_t ino,
			      struct ext2_inode *inode, char *buf,
			      size_t size, size_t *ret_len)
{
	ext2_file_t file;
	unsigned int got = 0;
	errcode_t retval;
	__u64 len = EXT2_I_SIZE(inode);

	if (len >= size)
		return EXT2_ET_INVALID_ARGUMENT;
	if (ext2fs_is_fast_symlink(inode)) {
		memcpy(buf, (char *)inode->i_block, len);
		buf[len] = '\0';
		*ret_len = len;
		return 0;
	}
	retval = ext2fs_file_open2(s->fs, ino, inode, 0, &file);
	if (retval)
		return retval;
	retval = ext2fs_file_read(file, buf, len, &got);
	ext2fs_file_close(file);
	if (retval)
		return retval;
	buf[got] = '\0';
	*ret_len = got;
	return 0;
}

/* The entry named name/len in directory dir. */
int path_single_arg(struct session *s, int argc, cmd_argv_t argv,
		    const char *usage, int flags, ext2_ino_t *ret_ino)
{
	char **args = args_begin(argc, argv);
	int exact, r = -1;

	if (!args)
		return -1;
	if (parse_exact_args(argc, args, 1, &exact))
		cmd_error(s, argv[0], 0, "usage: %s", usage);
	else
		r = path_arg(s, argv[0], args[optind],
			     flags | (exact ? PATH_EXACT : 0), ret_ino);
	free(args);
	return r;
}

errcode_t path_lookup_entry(struct session *s, ext2_ino_t dir,
			    const unsigned char *name, unsigned int len,
			    int exact, struct e2fold_dirent *ret)
{
	struct e2fold_dir *d;
	struct e2fold_lookup *lk;
	errcode_t retval;

	retval = e2fold_dir_read(s->fs, dir, &d);
	if (retval)
		return retval;
	lk = malloc(sizeof(*lk));
	if (!lk) {
		e2fold_dir_free(d);
		return EXT2_ET_NO_MEMORY;
	}
	retval = e2fold_lookup(s->fs, s->um, d, name, len,
			       exact ? E2FOLD_LOOKUP_FL_EXACT : 0, lk);
	if (!retval && lk->strict_refused)
		retval = EINVAL;
	else if (!retval && !lk->found)
		retval = EXT2_ET_FILE_NOT_FOUND;
	else if (!retval) {
		*ret = *lk->found;
		ret->name = NULL;	/* it lives in d, freed below */
	}
	free(lk);
	e2fold_dir_free(d);
	return retval;
}

static errcode_t lookup_component(struct session *s, ext2_ino_t dir,
				  const unsigned char *name, unsigned int len,
				  int exact, ext2_ino_t *ret_ino)
{
	struct e2fold_dirent found;
	struct e2fold_dir *d;
	errcode_t retval;

	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.')) {
		retval = e2fold_dir_read(s->fs, dir, &d);
		if (retval)
			return retval;
		*ret_ino = len == 1 || dir == EXT2_ROOT_INO || !d->dotdot ?
			dir : d->dotdot;
		e2fold_dir_free(d);
		return 0;
	}
	retval = path_lookup_entry(s, dir, name, len, exact, &found);
	if (!retval)
		*ret_ino = found.ino;
	return retval;
}

static errcode_t walk(struct session *s, ext2_ino_t start,
		      const unsigned char *path, size_t len, int exact,
		      int follow, int links, ext2_ino_t *ret_ino)
{
	ext2_ino_t cur = len && path[0] == '/' ? EXT2_ROOT_INO : start;
	size_t i = 0;

	while (i < len) {
		const unsigned char *name;
		struct ext2_inode inode;
		ext2_ino_t next;
		size_t n;
		errcode_t retval;

		while (i < len && path[i] == '/')
			i++;
		if (i == len)
			break;
		name = path + i;
		for (n = 0; i + n < len && path[i + n] != '/'; n++)
			;
		i += n;
		if (n > E2FOLD_NAME_MAX)
			return ENAMETOOLONG;
		retval = lookup_component(s, cur, name, n, exact, &next);
		if (retval)
			return retval;
		while (i < len && path[i] == '/')
			i++;
		if (i < len || follow) {
			retval = ext2fs_read_inode(s->fs, next, &inode);
			if (retval)
				return retval;
			if (LINUX_S_ISLNK(inode.i_mode)) {
				char target[4096];
				size_t tlen;

				if (links >= MAX_SYMLINKS)
					return EXT2_ET_SYMLINK_LOOP;
				retval = read_symlink(s, next, &inode, target,
						      sizeof(target), &tlen);
				if (!retval)
					retval = walk(s, cur,
						      (unsigned char *)target,
						      tlen, exact, 1, links + 1,
						      &next);
				if (retval)
					return retval;
			}
		}
		cur = next;
	}
	*ret_ino = cur;
	return 0;
}

/*
 * "<N>": inode N, as debugfs reads a whole argument in angle brackets
 * (N in decimal, or in hex or octal with 0x or 0; 1 to s_inodes_count).
 * 0 if path is one, -1 if it is not.
 */
static int inode_number(struct session *s, const unsigned char *path,
			size_t len, ext2_ino_t *ret_ino)
{
	unsigned long long ino;
	char num[24], *end;

	if (len < 3 || path[0] != '<' || path[len - 1] != '>' ||
	    len - 2 >= sizeof(num) || path[1] == '-' || path[1] == '+')
		return -1;
	memcpy(num, path + 1, len - 2);
	num[len - 2] = '\0';
	errno = 0;
	ino = strtoull(num, &end, 0);
	if (errno || end == num || *end || !ino ||
	    ino > s->fs->super->s_inodes_count)
		return -1;
	*ret_ino = ino;
	return 0;
}

errcode_t path_resolve(struct session *s, const unsigned char *path,
		       size_t len, int flags, ext2_ino_t *ret_ino)
{
	if (!inode_number(s, path, len, ret_ino))
		return 0;
	return walk(s, s->cwd, path, len, flags & PATH_EXACT,
		    flags & PATH_FOLLOW, 0, ret_ino);
}

errcode_t path_resolve_parent(struct session *s, const unsigned char *path,
			      size_t len, int exact, ext2_ino_t *ret_dir,
			      const unsigned char **ret_name,
			      unsigned int *ret_name_len)
{
	size_t end = len, start;

	while (end > 1 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (start == end)
		return EXT2_ET_INVALID_ARGUMENT;
	if (end - start > E2FOLD_NAME_MAX)
		return ENAMETOOLONG;
	*ret_name = path + start;
	*ret_name_len = end - start;
	if ((end - start == 1 && path[start] == '.') ||
	    (end - start == 2 && path[start] == '.' && path[start + 1] == '.'))
		return EXT2_ET_DIR_EXISTS;
	/* "name": the current directory; "/name": the root; "a/b/name": a/b. */
	return walk(s, s->cwd, path, start, exact, 1, 0, ret_dir);
}

int path_arg(struct session *s, const char *cmd, const char *arg, int flags,
	     ext2_ino_t *ret_ino)
{
	unsigned char path[4096];
	size_t len;
	errcode_t retval;

	if (arg_bytes(arg, path, sizeof(path), &len)) {
		cmd_error(s, cmd, 0, "path too long");
		return -1;
	}
	retval = path_resolve(s, path, len, flags, ret_ino);
	if (retval) {
		cmd_error(s, cmd, retval, "while resolving %s",
			  esc(0, path, len));
		return -1;
	}
	return 0;
}

/* The name under which dir holds child (its first entry for it). */
static errcode_t name_in_parent(struct session *s, ext2_ino_t parent,
				ext2_ino_t child, char **ret_name)
{
	struct e2fold_dir *d;
	errcode_t retval;
	size_t i;

	retval = e2fold_dir_read(s->fs, parent, &d);
	if (retval)
		return retval;
	retval = EXT2_ET_FILE_NOT_FOUND;
	for (i = 0; i < d->nents; i++) {
		if (d->ents[i].ino != child)
			continue;
		*ret_name = strdup(esc(1, d->ents[i].name, d->ents[i].name_len));
		retval = *ret_name ? 0 : EXT2_ET_NO_MEMORY;
		break;
	}
	e2fold_dir_free(d);
	return retval;
}

/* Prepend "/" and name to *path. */
static errcode_t prepend(char **path, const char *name)
{
	size_t n = strlen(name), m = strlen(*path);
	char *p = malloc(n + m + 2);

	if (!p)
		return EXT2_ET_NO_MEMORY;
	p[0] = '/';
	memcpy(p + 1, name, n);
	memcpy(p + 1 + n, *path, m + 1);
	free(*path);
	*path = p;
	return 0;
}

errcode_t path_of_dir(struct session *s, ext2_ino_t ino, char **ret_path)
{
	char *path = strdup("");
	errcode_t retval = 0;
	int depth;

	if (!path)
		return EXT2_ET_NO_MEMORY;
	for (depth = 0; ino != EXT2_ROOT_INO && depth < MAX_DEPTH; depth++) {
		struct e2fold_dir *d;
		ext2_ino_t parent;
		char *name;

		retval = e2fold_dir_read(s->fs, ino, &d);
		if (retval)
			break;
		parent = d->dotdot;
		e2fold_dir_free(d);
		if (!parent || parent == ino) {
			retval = EXT2_ET_FILE_NOT_FOUND;
			break;
		}
		retval = name_in_parent(s, parent, ino, &name);
		if (retval)
			break;
		retval = prepend(&path, name);
		free(name);
		if (retval)
			break;
		ino = parent;
	}
	if (!retval && ino != EXT2_ROOT_INO)
		retval = EXT2_ET_SYMLINK_LOOP;
	if (retval) {
		free(path);
		return retval;
	}
	if (!*path) {
		free(path);
		path = strdup("/");
		if (!path)
			return EXT2_ET_NO_MEMORY;
	}
	*ret_path = path;
	return 0;
}

DEBUGFS_CMD(do_cd)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	ext2_ino_t ino;
	int exact;

	if (!args)
		return;
	if (parse_exact_args(argc, args, 1, &exact))
		goto usage;
	if (path_arg(s, argv[0], args[optind],
		     PATH_FOLLOW | (exact ? PATH_EXACT : 0), &ino))
		goto out;
	if (ext2fs_check_directory(s->fs, ino)) {
		cmd_error(s, argv[0], 0, "%s: not a directory",
			  esc(0, (unsigned char *)args[optind],
			      strlen(args[optind])));
		goto out;
	}
	s->cwd = ino;
	goto out;
usage:
	cmd_error(s, argv[0], 0, "usage: cd [-e] PATH");
out:
	free(args);
}

DEBUGFS_CMD(do_pwd)
{
	struct session *s = infop;
	char *path;
	errcode_t retval;

	if (argc != 1) {
		cmd_error(s, argv[0], 0, "usage: pwd");
		return;
	}
	retval = path_of_dir(s, s->cwd, &path);
	if (retval) {
		cmd_error(s, argv[0], retval, "while finding the path of inode %u",
			  s->cwd);
		return;
	}
	printf("%s (inode %u)\n", path, s->cwd);
	free(path);
}
