/*
 * rdump.c: rdump, whole trees copied out to the native filesystem, as
 * debugfs's rdump copies them.
 *
 *   rdump [-e] [-p] PATH... DEST
 *
 * Each PATH (a directory, or a single file) lands in DEST, an existing
 * native directory, under its last component: directories are made and
 * filled, regular files copied, symbolic links made with their targets;
 * devices, FIFOs and sockets are left out, as debugfs leaves them out.
 * Every copy keeps its inode's owner (where this process may set it),
 * permissions and times, as dump -p does; debugfs's rdump always keeps
 * them, so -p changes nothing and is taken for the sake of habit.
 *
 * Names are written as the entries store them, byte for byte: a
 * casefolded directory's "README" and "readme", if both are there, are
 * two files on a case-sensitive native filesystem.
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

static void dump_tree(struct session *s, ext2_ino_t ino, const char *name,
		      const char *root);

/* The target of symbolic link ino, NUL-terminated in *ret_target; free it. */
static errcode_t read_link(struct session *s, ext2_ino_t ino,
			   struct ext2_inode *inode, char **ret_target)
{
	unsigned int size = EXT2_I_SIZE(inode), got = 0;
	ext2_file_t file;
	char *buf = calloc(1, size + 1);
	errcode_t retval;

	if (!buf)
		return EXT2_ET_NO_MEMORY;
	if (ext2fs_is_fast_symlink(inode)) {
		memcpy(buf, inode->i_block,
		       size < sizeof(inode->i_block) ? size : sizeof(inode->i_block));
		*ret_target = buf;
		return 0;
	}
	retval = ext2fs_file_open(s->fs, ino, 0, &file);
	if (!retval) {
		retval = ext2fs_file_read(file, buf, size, &got);
		ext2fs_file_close(file);
	}
	if (retval) {
		free(buf);
		return retval;
	}
	buf[got] = '\0';
	*ret_target = buf;
	return 0;
}

static void dump_link(struct session *s, ext2_ino_t ino,
		      struct ext2_inode *inode, const char *out)
{
	char *target;
	errcode_t retval = read_link(s, ino, inode, &target);

	if (retval) {
		cmd_error(s, "rdump", retval, "while reading symlink %u", ino);
		return;
	}
	if (symlink(target, out))
		cmd_error(s, "rdump", errno, "while creating symlink %s", out);
	free(target);
}

static void dump_file(struct session *s, ext2_ino_t ino,
		      const struct ext2_inode *inode, const char *out)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	errcode_t retval;

	if (fd < 0) {
		cmd_error(s, "rdump", errno, "while creating %s", out);
		return;
	}
	retval = copy_out(s, ino, fd);
	if (!retval)
		retval = preserve_attrs(fd, inode);
	if (close(fd) && !retval)
		retval = errno;
	if (retval)
		cmd_error(s, "rdump", retval, "while writing %s", out);
}

/* A name an entry stores, as a native file name, or NULL if it cannot be. */
static char *native_name(struct session *s, const struct e2fold_dirent *e)
{
	char *name;

	if (memchr(e->name, '/', e->name_len) ||
	    memchr(e->name, '\0', e->name_len)) {
		cmd_error(s, "rdump", 0, "inode %u: skipped \"%s\": a name "
			  "holding '/' or NUL", e->ino,
			  esc(0, e->name, e->name_len));
		return NULL;
	}
	name = malloc(e->name_len + 1);
	if (name) {
		memcpy(name, e->name, e->name_len);
		name[e->name_len] = '\0';
	}
	return name;
}

/*
 * Made 0700 so that it can be filled, given its inode's permissions
 * once it has been (as debugfs does).
 */
static void dump_dir(struct session *s, ext2_ino_t ino,
		     const struct ext2_inode *inode, const char *out,
		     int make)
{
	struct e2fold_dir *d;
	errcode_t retval;
	size_t i;
	int fd;

	if (make && mkdir(out, 0700)) {
		cmd_error(s, "rdump", errno, "while making directory %s", out);
		return;
	}
	retval = e2fold_dir_read(s->fs, ino, &d);
	if (retval) {
		cmd_error(s, "rdump", retval, "while reading inode %u", ino);
		return;
	}
	for (i = 0; i < d->nents; i++) {
		char *name = native_name(s, &d->ents[i]);

		if (name)
			dump_tree(s, d->ents[i].ino, name, out);
		free(name);
	}
	if (d->ncorrupt)
		cmd_error(s, "rdump", 0, "inode %u: %zu malformed block(s) "
			  "left out", ino, d->ncorrupt);
	e2fold_dir_free(d);
	fd = open(out, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || preserve_attrs(fd, inode))
		cmd_error(s, "rdump", errno, "while setting the attributes "
			  "of %s", out);
	if (fd >= 0)
		close(fd);
}

/* ino, called name, into the native directory root. */
static void dump_tree(struct session *s, ext2_ino_t ino, const char *name,
		      const char *root)
{
	struct ext2_inode inode;
	errcode_t retval;
	char *out;

	retval = ext2fs_read_inode(s->fs, ino, &inode);
	if (retval) {
		cmd_error(s, "rdump", retval, "while reading inode %u", ino);
		return;
	}
	out = malloc(strlen(root) + strlen(name) + 2);
	if (!out)
		return;
	if (*name)
		sprintf(out, "%s/%s", root, name);
	else
		strcpy(out, root);
	if (LINUX_S_ISLNK(inode.i_mode))
		dump_link(s, ino, &inode, out);
	else if (LINUX_S_ISREG(inode.i_mode))
		dump_file(s, ino, &inode, out);
	else if (LINUX_S_ISDIR(inode.i_mode))
		dump_dir(s, ino, &inode, out, *name != '\0');
	free(out);
}

/* The last component of a path argument ("" for "/"), unescaped. */
static char *last_component(const char *arg)
{
	unsigned char buf[4096];
	size_t len;
	char *name;
	const unsigned char *p;

	if (arg_bytes(arg, buf, sizeof(buf) - 1, &len))
		return NULL;
	while (len > 1 && buf[len - 1] == '/')
		len--;
	p = memrchr(buf, '/', len);
	p = p ? p + 1 : buf;
	len -= p - buf;
	name = malloc(len + 1);
	if (name) {
		memcpy(name, p, len);
		name[len] = '\0';
	}
	return name;
}

DEBUGFS_CMD(do_rdump)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	const char *dest;
	struct stat st = { 0 };
	ext2_ino_t ino;
	int exact = 0, err, c, i;

	if (!args)
		return;
	while ((c = getopt(argc, args, "ep")) != -1) {
		if (c == 'e')
			exact = 1;
		else if (c != 'p')
			optind = argc;
	}
	if (argc - optind < 2) {
		cmd_error(s, argv[0], 0, "usage: rdump [-e] [-p] PATH... DEST");
		goto out;
	}
	dest = args[argc - 1];
	err = stat(dest, &st) ? errno : 0;
	if (err || !S_ISDIR(st.st_mode)) {
		cmd_error(s, argv[0], err, err ? "while looking at %s" :
			  "%s is not a directory", dest);
		goto out;
	}
	for (i = optind; i < argc - 1; i++) {
		char *name;

		if (path_arg(s, argv[0], args[i], exact ? PATH_EXACT : 0, &ino))
			continue;
		name = last_component(args[i]);
		if (name)
			dump_tree(s, ino, name, dest);
		free(name);
	}
out:
	free(args);
}
