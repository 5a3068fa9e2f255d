/*
 * killwrite.c: an LD_PRELOAD library that kills its process with SIGKILL
 * just before its Nth write to a file (E2FOLD_KILL_AT=N), the way a power
 * cut or kill -9 stops a repair, but at a point that is the same on every
 * run. The write itself does not happen.
 *
 * Counted: pwrite, pwrite64, write and writev on descriptors above 2 that
 * are regular files or block devices (the image and the undo files; not
 * the terminal, nor the pipes to e2fsck). Only the process started with
 * the variable counts: the library removes it at load, so the e2fsck
 * that e2fold-fsck runs is not killed.
 * E2FOLD_KILL_COUNT=FILE writes the count to FILE at exit instead, to
 * learn how many points there are.
 *
 * E2FOLD_KILL_TREE=FILE counts the writes of the whole process tree
 * instead (e2fold-fsck and the e2fsck it runs), in FILE, which must
 * exist and start empty or at 0; at the Nth the whole process group gets
 * SIGKILL, as when the power goes (run it under setsid). Without
 * E2FOLD_KILL_AT it only counts: FILE ends with the number of points.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long kill_at = -1;	/* -1: never */
static long writes;
static char *count_file;
static const char *tree_file;	/* E2FOLD_KILL_TREE */

static void report_count(void)
{
	FILE *f = fopen(count_file, "w");

	if (f) {
		fprintf(f, "%ld\n", writes);
		fclose(f);
	}
}

__attribute__((constructor)) static void init(void)
{
	const char *at = getenv("E2FOLD_KILL_AT");
	const char *count = getenv("E2FOLD_KILL_COUNT");

	if (at)
		kill_at = atol(at);
	tree_file = getenv("E2FOLD_KILL_TREE");
	if (tree_file)
		return;		/* the children count too: keep it all */
	if (count) {
		count_file = realpath(count, NULL);
		if (!count_file) {
			/* Not there yet: create it, then resolve. */
			close(open(count, O_WRONLY | O_CREAT, 0644));
			count_file = realpath(count, NULL);
		}
		if (count_file)
			atexit(report_count);
	}
	unsetenv("E2FOLD_KILL_AT");
	unsetenv("E2FOLD_KILL_COUNT");
}

/* One more write of the tree, counted in tree_file under a lock. */
static long tree_count(void)
{
	char buf[32] = "";
	long n;
	int fd = open(tree_file, O_RDWR);

	if (fd < 0)
		return 0;
	flock(fd, LOCK_EX);
	n = read(fd, buf, sizeof(buf) - 1) > 0 ? atol(buf) + 1 : 1;
	snprintf(buf, sizeof(buf), "%ld\n", n);
	if (ftruncate(fd, 0) || pwrite(fd, buf, strlen(buf), 0) < 0)
		n = 0;
	close(fd);		/* drops the lock */
	return n;
}

static void before_write(int fd)
{
	struct stat st;

	if (fd <= 2 || fstat(fd, &st) ||
	    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		return;
	if (tree_file) {
		static int counting;	/* tree_count's own write */
		long n;

		if (counting)
			return;
		counting = 1;
		n = tree_count();
		counting = 0;
		if (n == kill_at)
			kill(0, SIGKILL);
		return;
	}
	if (++writes == kill_at)
		raise(SIGKILL);
}

typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*pwrite64_fn)(int, const void *, size_t, off64_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	static pwrite_fn real;

	if (!real)
		real = (pwrite_fn)dlsym(RTLD_NEXT, "pwrite");
	before_write(fd);
	return real(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	static pwrite64_fn real;

	if (!real)
		real = (pwrite64_fn)dlsym(RTLD_NEXT, "pwrite64");
	before_write(fd);
	return real(fd, buf, n, off);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static write_fn real;

	if (!real)
		real = (write_fn)dlsym(RTLD_NEXT, "write");
	before_write(fd);
	return real(fd, buf, n);
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
	static writev_fn real;

	if (!real)
		real = (writev_fn)dlsym(RTLD_NEXT, "writev");
	before_write(fd);
	return real(fd, iov, n);
}
