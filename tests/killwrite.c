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
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long kill_at = -1;	/* -1: never */
static long writes;
static char *count_file;

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

static void before_write(int fd)
{
	struct stat st;

	if (fd <= 2 || fstat(fd, &st) ||
	    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		return;
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
