/*
 * fsops: run a list of file operations below a root directory and print
 * one result line per operation, so that two filesystems (e2fold-fuse on
 * the host, the Linux kernel in the test VM) can be given the same list
 * and their outputs compared line by line.
 *
 *   fsops ROOT [OPFILE]      (OPFILE, or standard input)
 *
 * An operation is one line, its words separated by single spaces:
 *   mkdir P | create P | open_excl P | unlink P | rmdir P | stat P |
 *   read P | listdir P | rename A B | link A B | symlink TARGET P |
 *   setcf P 0|1 | setfl P HEX | write P TEXT | same A B |
 *   mknod P fifo|sock|chr|blk MAJOR:MINOR | mode P | chmod P OCTAL |
 *   setacl P a|d ACL | getacl P a|d | rmacl P a|d
 * Paths are relative to ROOT. In paths and TEXT a byte that is not
 * printable ASCII, a space or a backslash is written \xHH, so that any
 * name (invalid UTF-8 too) fits on a line. Lines that are empty or start
 * with '#' are skipped.
 *
 * Each result line is the operation as read, " -> ", then "ok" with what
 * the operation shows that does not depend on inode numbers, or the
 * errno name (EEXIST, EINVAL, ...):
 *   stat     ok TYPE NLINK [SIZE for files, symlinks, FIFOs and
 *            sockets] [MAJOR:MINOR for devices] [cf for a directory
 *            with the casefold flag]; TYPE dir, file, symlink, fifo,
 *            sock, chr or blk
 *   read     ok TEXT (escaped)
 *   listdir  ok COUNT NAME... (escaped, sorted by bytes, without . and ..)
 *   same     ok same | ok different (do A and B lead to one inode?)
 *   mode     ok OCTAL (the permission bits)
 *   getacl   ok ACL
 * An ACL (a: system.posix_acl_access, d: system.posix_acl_default) is
 * written as its entries in order, separated by commas, each TAG:ID:PERM
 * with TAG u, g, m or o, ID empty but for named users and groups, PERM
 * an octal digit: u::6,u:65534:4,g::0,m::4,o::0. fsops runs with umask
 * 027 (mkdir asks for 0755, create for 0644).
 * create opens with O_CREAT (an existing file is opened, not refused);
 * open_excl adds O_EXCL. write replaces the file's contents. setcf sets
 * or clears the casefold flag with FS_IOC_SETFLAGS; setfl adds the flags
 * HEX (FS_*_FL, in hexadecimal) to those P has. mknod makes a special
 * file (MAJOR:MINOR is ignored for fifo and sock: write 0:0).
 *
 * It needs libc alone (tests/kernel/k_fuse_diff.sh builds it statically
 * for the VM, as vm.sh builds kcf). Exit status: 0 when every line was
 * run (whatever its result), 2 on a line that is not an operation.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/fs.h>

/* Relative, as the kernel test builds fsops alone: no include path. */
#include "../../lib/support/hex.h"

/* FS_CASEFOLD_FL is missing from older <linux/fs.h>; the value is ABI. */
#ifndef FS_CASEFOLD_FL
#define FS_CASEFOLD_FL 0x40000000
#endif

#define MAX_ARGS 3
/* The longest path or text a line may carry, decoded. */
#define MAX_BYTES 8192

struct op {
	const char *verb;
	int nargs;
	int (*run)(char **args);
};

/* The errno name of a failure (not its message: names are stable). */
static int failed(void)
{
	const char *name = strerrorname_np(errno);

	if (name)
		printf("%s\n", name);
	else
		printf("errno %d\n", errno);
	return 0;
}

/* The result of a call that returns 0 or -1 with errno. */
static int result(int ret)
{
	if (ret)
		return failed();
	puts("ok");
	return 0;
}

/* Print bytes escaped as an operation line writes them. */
static void put_escaped(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c > ' ' && c < 0x7f && c != '\\')
			putchar(c);
		else
			printf("\\x%02x", c);
	}
}

/*
 * Decode \xHH escapes in place; the rest is taken as it is. Returns the
 * decoded length, or -1 on a bad escape or a NUL byte (which no path can
 * hold).
 */
static long unescape(char *s)
{
	char *in = s, *out = s;
	int byte;

	while (*in) {
		if (*in != '\\') {
			*out++ = *in++;
			continue;
		}
		if (in[1] != 'x')
			return -1;
		byte = e2fold_hex_byte(in + 2);
		if (byte <= 0)
			return -1;
		*out++ = (char)byte;
		in += 4;
	}
	*out = 0;
	return out - s;
}

static int op_mkdir(char **a)
{
	return result(mkdir(a[0], 0755));
}

static int open_and_close(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		return failed();
	close(fd);
	puts("ok");
	return 0;
}

static int op_create(char **a)
{
	return open_and_close(a[0], O_WRONLY | O_CREAT);
}

static int op_open_excl(char **a)
{
	return open_and_close(a[0], O_WRONLY | O_CREAT | O_EXCL);
}

static int op_unlink(char **a)
{
	return result(unlink(a[0]));
}

static int op_rmdir(char **a)
{
	return result(rmdir(a[0]));
}

static int op_rename(char **a)
{
	return result(rename(a[0], a[1]));
}

static int op_link(char **a)
{
	return result(link(a[0], a[1]));
}

static int op_symlink(char **a)
{
	return result(symlink(a[0], a[1]));
}

static const char *type_name(mode_t mode)
{
	if (S_ISDIR(mode))
		return "dir";
	if (S_ISREG(mode))
		return "file";
	if (S_ISLNK(mode))
		return "symlink";
	if (S_ISFIFO(mode))
		return "fifo";
	if (S_ISSOCK(mode))
		return "sock";
	if (S_ISCHR(mode))
		return "chr";
	if (S_ISBLK(mode))
		return "blk";
	return "other";
}

static int op_mknod(char **a)
{
	static const struct { const char *name; mode_t type; } types[] = {
		{ "fifo", S_IFIFO }, { "sock", S_IFSOCK },
		{ "chr", S_IFCHR }, { "blk", S_IFBLK },
	};
	unsigned int maj, min;
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(a[1], types[i].name))
			break;
	if (i == sizeof(types) / sizeof(types[0]) ||
	    sscanf(a[2], "%u:%u", &maj, &min) != 2) {
		fprintf(stderr, "fsops: mknod wants fifo, sock, chr or blk and MAJOR:MINOR, not \"%s %s\"\n",
			a[1], a[2]);
		return 2;
	}
	return result(mknod(a[0], types[i].type | 0644, makedev(maj, min)));
}

/* The casefold flag of a directory; -1 (errno set) if it cannot be read. */
static int casefold_flag(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	int flags, ret;

	if (fd < 0)
		return -1;
	ret = ioctl(fd, FS_IOC_GETFLAGS, &flags);
	close(fd);
	if (ret < 0)
		return -1;
	return (flags & FS_CASEFOLD_FL) != 0;
}

/*
 * A directory's size is left out: it counts blocks, and how many a
 * directory took is the allocator's business, not the names'.
 */
static int op_stat(char **a)
{
	struct stat st;
	int cf = 0;

	if (lstat(a[0], &st))
		return failed();
	if (S_ISDIR(st.st_mode)) {
		cf = casefold_flag(a[0]);
		if (cf < 0)
			return failed();
	}
	printf("ok %s %lu", type_name(st.st_mode), (unsigned long)st.st_nlink);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		printf(" %u:%u", major(st.st_rdev), minor(st.st_rdev));
	else if (!S_ISDIR(st.st_mode))
		printf(" %lld", (long long)st.st_size);
	puts(cf ? " cf" : "");
	return 0;
}

static int op_same(char **a)
{
	struct stat s1, s2;

	if (lstat(a[0], &s1) || lstat(a[1], &s2))
		return failed();
	puts(s1.st_ino == s2.st_ino && s1.st_dev == s2.st_dev ?
	     "ok same" : "ok different");
	return 0;
}

/* Set the flags set and clear those in clear of path; print the result. */
static int change_flags(const char *path, int set, int clear)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK), flags;

	if (fd < 0)
		return failed();
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		goto fail;
	flags = (flags | set) & ~clear;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)
		goto fail;
	close(fd);
	puts("ok");
	return 0;
fail:
	failed();
	close(fd);
	return 0;
}

static int op_setcf(char **a)
{
	if (strcmp(a[1], "0") && strcmp(a[1], "1")) {
		fprintf(stderr, "fsops: setcf wants 0 or 1, not \"%s\"\n", a[1]);
		return 2;
	}
	if (a[1][0] == '1')
		return change_flags(a[0], FS_CASEFOLD_FL, 0);
	return change_flags(a[0], 0, FS_CASEFOLD_FL);
}

static int op_setfl(char **a)
{
	char *end;
	unsigned long add = strtoul(a[1], &end, 16);

	if (!*a[1] || *end) {
		fprintf(stderr, "fsops: setfl wants flags in hexadecimal, not \"%s\"\n", a[1]);
		return 2;
	}
	return change_flags(a[0], (int)add, 0);
}

static int op_write(char **a)
{
	size_t len = strlen(a[1]);
	int fd = open(a[0], O_WRONLY | O_TRUNC);

	if (fd < 0)
		return failed();
	if (write(fd, a[1], len) != (ssize_t)len) {
		failed();
		close(fd);
		return 0;
	}
	if (close(fd))
		return failed();
	puts("ok");
	return 0;
}

static int op_read(char **a)
{
	static char buf[MAX_BYTES];
	int fd = open(a[0], O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return failed();
	n = read(fd, buf, sizeof(buf));
	if (n < 0) {
		failed();
		close(fd);
		return 0;
	}
	close(fd);
	printf("ok ");
	put_escaped(buf, (size_t)n);
	putchar('\n');
	return 0;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int op_listdir(char **a)
{
	DIR *dir = opendir(a[0]);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;

	if (!dir)
		return failed();
	errno = 0;
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names) {
				perror("fsops");
				exit(2);
			}
		}
		names[n] = strdup(de->d_name);
		if (!names[n++]) {
			perror("fsops");
			exit(2);
		}
	}
	if (errno) {
		failed();
	} else {
		/* An empty directory has no array at all: qsort wants one. */
		if (n)
			qsort(names, n, sizeof(*names), compare_names);
		printf("ok %zu", n);
		for (i = 0; i < n; i++) {
			putchar(' ');
			put_escaped(names[i], strlen(names[i]));
		}
		putchar('\n');
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(dir);
	return 0;
}

static int op_mode(char **a)
{
	struct stat st;

	if (lstat(a[0], &st))
		return failed();
	printf("ok %o\n", (unsigned int)(st.st_mode & 07777));
	return 0;
}

static int op_chmod(char **a)
{
	return result(chmod(a[0], (mode_t)strtoul(a[1], NULL, 8)));
}

/* The xattr layout of an ACL (<linux/posix_acl_xattr.h>), little-endian. */
#define ACL_XATTR_VERSION 2
static const struct { char name; unsigned int tag, named; } acl_tags[] = {
	{ 'u', 0x01, 0 }, { 'u', 0x02, 1 }, { 'g', 0x04, 0 },
	{ 'g', 0x08, 1 }, { 'm', 0x10, 0 }, { 'o', 0x20, 0 },
};

static const char *acl_name(const char *which)
{
	return !strcmp(which, "d") ? "system.posix_acl_default" :
				     "system.posix_acl_access";
}

static void put32(unsigned char *p, unsigned long v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = (v >> 24) & 0xff;
}

static unsigned long get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | (unsigned long)p[2] << 16 |
	       (unsigned long)p[3] << 24;
}

static int op_setacl(char **a)
{
	unsigned char buf[4 + 8 * 64];
	size_t len = 4, i;
	char *text = a[2], *entry, *save = NULL;

	put32(buf, ACL_XATTR_VERSION);
	for (entry = strtok_r(text, ",", &save); entry && len < sizeof(buf);
	     entry = strtok_r(NULL, ",", &save), len += 8) {
		char *id = entry + 2, *colon = strchr(id, ':');
		int named = colon && colon > id;
		unsigned int tag = 0;

		for (i = 0; i < sizeof(acl_tags) / sizeof(acl_tags[0]); i++)
			if (acl_tags[i].name == entry[0] &&
			    acl_tags[i].named == (unsigned int)named)
				tag = acl_tags[i].tag;
		if (!colon || entry[1] != ':')
			return errno = EINVAL, failed();
		buf[len] = tag;
		buf[len + 1] = 0;
		buf[len + 2] = (unsigned char)strtoul(colon + 1, NULL, 8);
		buf[len + 3] = 0;
		put32(buf + len + 4, named ? strtoul(id, NULL, 10) :
					     0xffffffffUL);
	}
	return result(lsetxattr(a[0], acl_name(a[1]), buf, len, 0));
}

static int op_getacl(char **a)
{
	unsigned char buf[4 + 8 * 64];
	ssize_t len = lgetxattr(a[0], acl_name(a[1]), buf, sizeof(buf));
	ssize_t off;
	size_t i;

	if (len < 0)
		return failed();
	printf("ok ");
	for (off = 4; off + 8 <= len; off += 8) {
		unsigned int tag = buf[off] | buf[off + 1] << 8;
		char name = '?';
		int named = 0;

		for (i = 0; i < sizeof(acl_tags) / sizeof(acl_tags[0]); i++)
			if (acl_tags[i].tag == tag) {
				name = acl_tags[i].name;
				named = acl_tags[i].named;
			}
		printf("%s%c:", off > 4 ? "," : "", name);
		if (named)
			printf("%lu", get32(buf + off + 4));
		printf(":%o", buf[off + 2] | buf[off + 3] << 8);
	}
	putchar('\n');
	return 0;
}

static int op_rmacl(char **a)
{
	return result(lremovexattr(a[0], acl_name(a[1])));
}

static const struct op ops[] = {
	{ "mkdir", 1, op_mkdir },
	{ "create", 1, op_create },
	{ "open_excl", 1, op_open_excl },
	{ "unlink", 1, op_unlink },
	{ "rmdir", 1, op_rmdir },
	{ "stat", 1, op_stat },
	{ "read", 1, op_read },
	{ "listdir", 1, op_listdir },
	{ "rename", 2, op_rename },
	{ "link", 2, op_link },
	{ "symlink", 2, op_symlink },
	{ "setcf", 2, op_setcf },
	{ "setfl", 2, op_setfl },
	{ "mknod", 3, op_mknod },
	{ "write", 2, op_write },
	{ "same", 2, op_same },
	{ "mode", 1, op_mode },
	{ "chmod", 2, op_chmod },
	{ "setacl", 3, op_setacl },
	{ "getacl", 2, op_getacl },
	{ "rmacl", 2, op_rmacl },
};

/* Split line into verb and arguments, decoded; the op, or NULL. */
static const struct op *parse(char *line, char **args, const char *where)
{
	char *verb = strtok(line, " ");
	size_t i;
	int n = 0;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (verb && !strcmp(verb, ops[i].verb))
			break;
	if (i == sizeof(ops) / sizeof(ops[0])) {
		fprintf(stderr, "fsops: %s: unknown operation \"%s\"\n", where,
			verb ? verb : "");
		return NULL;
	}
	while (n < MAX_ARGS && (args[n] = strtok(NULL, " ")))
		if (unescape(args[n++]) < 0) {
			fprintf(stderr, "fsops: %s: bad \\x escape or NUL in \"%s\"\n",
				where, args[n - 1]);
			return NULL;
		}
	if (n != ops[i].nargs) {
		fprintf(stderr, "fsops: %s: %s takes %d argument(s), not %d\n",
			where, verb, ops[i].nargs, n);
		return NULL;
	}
	return &ops[i];
}

static int run_file(FILE *in, const char *name)
{
	static char line[4 * MAX_BYTES], copy[4 * MAX_BYTES];
	char *args[MAX_ARGS + 1];
	char where[300];
	unsigned long lineno = 0;

	while (fgets(line, sizeof(line), in)) {
		const struct op *op;
		size_t len = strlen(line);

		lineno++;
		snprintf(where, sizeof(where), "%s:%lu", name, lineno);
		if (len && line[len - 1] == '\n')
			line[--len] = 0;
		else if (!feof(in)) {
			fprintf(stderr, "fsops: %s: line too long\n", where);
			return 2;
		}
		if (!len || line[0] == '#')
			continue;
		memcpy(copy, line, len + 1);
		op = parse(line, args, where);
		if (!op)
			return 2;
		printf("%s -> ", copy);
		if (op->run(args))
			return 2;
		/* The output must be complete if the filesystem hangs. */
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	FILE *in = stdin;
	const char *name = "stdin";
	int status;

	if (argc < 2 || argc > 3) {
		fputs("usage: fsops ROOT [OPFILE]\n", stderr);
		return 2;
	}
	if (argc == 3) {
		name = argv[2];
		in = fopen(name, "r");
		if (!in) {
			fprintf(stderr, "fsops: cannot open %s: %s\n", name,
				strerror(errno));
			return 2;
		}
	}
	if (chdir(argv[1])) {
		fprintf(stderr, "fsops: cannot enter %s: %s\n", argv[1],
			strerror(errno));
		return 2;
	}
	umask(027);
	status = run_file(in, name);
	if (in != stdin)
		fclose(in);
	return status;
}
