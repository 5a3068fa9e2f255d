/*
 * overlay_preload.c: part of the library e2fold-fsck preloads into the
 * system e2fsck (LD_PRELOAD; names_preload.c is the other part). When
 * e2fold-fsck lets e2fsck repair, and the environment below names the
 * two files, e2fsck's writes to the filesystem go to an overlay file
 * instead, and its reads of the filesystem see them, so that e2fsck
 * works exactly as on the device while the device stays as it was.
 * e2fold-fsck then applies the overlay through the filesystem's journal
 * (overlay.h), so that a kill or a power cut inside e2fsck costs nothing
 * and one inside the apply leaves the old or the new filesystem.
 *
 *   E2FOLD_OVERLAY_DEVICE=PATH  the filesystem (an image or a block device)
 *   E2FOLD_OVERLAY_FILE=PATH    the overlay: a sparse file, made here,
 *                               holding what e2fsck wrote at the same
 *                               offsets as on the device
 *
 * The overlay is kept in whole units of OVERLAY_UNIT bytes: a write that
 * covers part of a unit not yet there first copies the rest of the unit
 * from the device, so that a unit there holds the device's bytes but
 * for what e2fsck changed. When e2fsck exits (exit(3), not a signal),
 * PATH.map says which units are there: a line "e2fold-overlay UNIT
 * COUNT", then a bit per unit, COUNT bytes (written aside and renamed,
 * so that it is whole or absent). Without the map the overlay is not
 * applied: e2fsck did not finish.
 *
 * Descriptors e2fsck opens on the device are recognised by what they
 * are (the same file, or the same block device), however the path is
 * spelled. Their reads (read, pread and their 64-bit and fortified
 * names) are served from the device and patched from the overlay; their
 * writes (write, pwrite) go to the overlay, at the position the kernel
 * keeps for the descriptor; discards are refused (EOPNOTSUPP, which
 * libext2fs takes as "not supported"). An error of the overlay (a full
 * disk) is e2fsck's write error: e2fsck stops, the device untouched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* glibc's fortified entry points, which its headers do not declare. */
int __open64_2(const char *path, int flags);
int __open_2(const char *path, int flags);
ssize_t __pread64_chk(int fd, void *buf, size_t len, off64_t off,
		      size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t len, off_t off, size_t buflen);
ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen);

#define OVERLAY_UNIT 65536	/* the largest ext4 block: never split */
#define MAX_FDS 4096

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int ready;		/* the environment named both files */
static dev_t dev_id;		/* the device: file (st_dev, st_ino)... */
static ino_t dev_ino;
static dev_t dev_rdev;		/* ...or block device (st_rdev) */
static int dev_is_blk;
static int overlay_fd = -1;
static unsigned char is_device[MAX_FDS];
static unsigned char *present;	/* a bit per unit: in the overlay */
static size_t present_bytes;
static char *map_path;		/* E2FOLD_OVERLAY_FILE.map */

static ssize_t (*real_pread)(int, void *, size_t, off64_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off64_t);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_close)(int);
static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_fallocate)(int, int, off64_t, off64_t);

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

__attribute__((constructor)) static void init(void)
{
	const char *device = getenv("E2FOLD_OVERLAY_DEVICE");
	const char *file = getenv("E2FOLD_OVERLAY_FILE");
	struct stat st;

	real_pread = next("pread64");
	real_pwrite = next("pwrite64");
	real_read = next("read");
	real_write = next("write");
	real_open = next("open64");
	real_openat = next("openat64");
	real_close = next("close");
	real_ioctl = next("ioctl");
	real_fallocate = next("fallocate64");
	if (!device || !file || stat(device, &st))
		return;
	dev_is_blk = S_ISBLK(st.st_mode);
	dev_id = st.st_dev;
	dev_ino = st.st_ino;
	dev_rdev = st.st_rdev;
	map_path = malloc(strlen(file) + 5);
	if (!map_path)
		return;
	strcpy(map_path, file);
	strcat(map_path, ".map");
	unlink(map_path);
	overlay_fd = real_open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
			       0600);
	if (overlay_fd < 0)
		return;
	/* Not inherited: a program e2fsck starts is not e2fsck. */
	unsetenv("LD_PRELOAD");
	ready = 1;
}

static int on_device(int fd)
{
	return ready && fd >= 0 && fd < MAX_FDS && is_device[fd];
}

/* A descriptor just opened: is it the device? */
static void note_open(int fd)
{
	struct stat st;

	if (!ready || fd < 0 || fd >= MAX_FDS || fstat(fd, &st))
		return;
	is_device[fd] = dev_is_blk ? S_ISBLK(st.st_mode) &&
				     st.st_rdev == dev_rdev :
				     S_ISREG(st.st_mode) &&
				     st.st_dev == dev_id && st.st_ino == dev_ino;
}

static int unit_present(uint64_t u)
{
	return u / 8 < present_bytes && (present[u / 8] >> (u % 8) & 1);
}

static int mark_present(uint64_t u)
{
	if (u / 8 >= present_bytes) {
		size_t n = present_bytes ? present_bytes : 4096;
		unsigned char *p;

		while (u / 8 >= n)
			n *= 2;
		p = realloc(present, n);
		if (!p)
			return -1;
		memset(p + present_bytes, 0, n - present_bytes);
		present = p;
		present_bytes = n;
	}
	present[u / 8] |= 1 << (u % 8);
	return 0;
}

/* Read exactly len bytes at off from fd, or to its end (zeros after). */
static int read_full(int fd, unsigned char *buf, size_t len, off64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = real_pread(fd, buf + done, len - done, off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += n;
	}
	memset(buf + done, 0, len - done);
	return 0;
}

static int write_full(int fd, const unsigned char *buf, size_t len, off64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = real_pwrite(fd, buf + done, len - done, off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

/* At exit: the map of the units written, whole or not at all. */
__attribute__((destructor)) static void write_map(void)
{
	char head[64], *tmp;
	size_t used = present_bytes;
	int fd, ok;

	if (!ready || !map_path)
		return;
	while (used && !present[used - 1])
		used--;
	tmp = malloc(strlen(map_path) + 5);
	if (!tmp)
		return;
	strcpy(tmp, map_path);
	strcat(tmp, ".new");
	fd = real_open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		free(tmp);
		return;
	}
	snprintf(head, sizeof(head), "e2fold-overlay %d %zu\n", OVERLAY_UNIT,
		 used);
	ok = write_full(fd, (const unsigned char *)head, strlen(head), 0) == 0 &&
	     (!used || write_full(fd, present, used, strlen(head)) == 0) &&
	     fsync(overlay_fd) == 0 && fsync(fd) == 0;
	real_close(fd);
	if (!ok || rename(tmp, map_path))
		unlink(tmp);
	free(tmp);
}

/* The device's bytes of [off, off + got), patched from the overlay. */
static int patch(unsigned char *buf, size_t got, off64_t off)
{
	uint64_t u, first = off / OVERLAY_UNIT;
	uint64_t last = got ? (off + got - 1) / OVERLAY_UNIT : first;

	for (u = first; got && u <= last; u++) {
		off64_t start = (off64_t)u * OVERLAY_UNIT;
		off64_t from = start > off ? start : off;
		off64_t to = start + OVERLAY_UNIT < off + (off64_t)got ?
			   start + OVERLAY_UNIT : off + (off64_t)got;

		if (unit_present(u) &&
		    read_full(overlay_fd, buf + (from - off), to - from, from))
			return -1;
	}
	return 0;
}

static ssize_t overlay_pread(int fd, void *buf, size_t len, off64_t off)
{
	ssize_t n = real_pread(fd, buf, len, off);

	if (n <= 0)
		return n;
	pthread_mutex_lock(&lock);
	if (patch(buf, n, off))
		n = -1;
	pthread_mutex_unlock(&lock);
	return n;
}

static ssize_t overlay_pwrite(int fd, const void *buf, size_t len, off64_t off)
{
	static unsigned char unit[OVERLAY_UNIT];
	uint64_t u, first = off / OVERLAY_UNIT;
	uint64_t last = len ? (off + len - 1) / OVERLAY_UNIT : first;
	ssize_t ret = len;

	if (off < 0) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&lock);
	for (u = first; len && u <= last; u++) {
		off64_t start = (off64_t)u * OVERLAY_UNIT;

		if (unit_present(u))
			continue;
		/* Not covered whole: the rest comes from the device. */
		if ((start < off || start + OVERLAY_UNIT > off + (off64_t)len) &&
		    (read_full(fd, unit, OVERLAY_UNIT, start) ||
		     write_full(overlay_fd, unit, OVERLAY_UNIT, start))) {
			ret = -1;
			break;
		}
		if (mark_present(u)) {
			errno = ENOMEM;
			ret = -1;
			break;
		}
	}
	if (ret >= 0 && write_full(overlay_fd, buf, len, off))
		ret = -1;
	pthread_mutex_unlock(&lock);
	return ret;
}

static int open_mode(int flags, va_list ap)
{
	return flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, int) : 0;
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	int fd, mode;

	if (!real_open)
		init();
	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	fd = real_open(path, flags, mode);
	note_open(fd);
	return fd;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	return open64(path, flags, mode);
}

int __open64_2(const char *path, int flags)
{
	return open64(path, flags);
}

int __open_2(const char *path, int flags)
{
	return open64(path, flags);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	int fd, mode;

	if (!real_openat)
		init();
	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	fd = real_openat(dirfd, path, flags, mode);
	note_open(fd);
	return fd;
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	return openat64(dirfd, path, flags, mode);
}

int close(int fd)
{
	if (!real_close)
		init();
	if (fd >= 0 && fd < MAX_FDS)
		is_device[fd] = 0;
	return real_close(fd);
}

ssize_t pread64(int fd, void *buf, size_t len, off64_t off)
{
	if (!real_pread)
		init();
	return on_device(fd) ? overlay_pread(fd, buf, len, off) :
			       real_pread(fd, buf, len, off);
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	return pread64(fd, buf, len, off);
}

ssize_t __pread64_chk(int fd, void *buf, size_t len, off64_t off,
		      size_t buflen)
{
	if (len > buflen)
		abort();
	return pread64(fd, buf, len, off);
}

ssize_t __pread_chk(int fd, void *buf, size_t len, off_t off, size_t buflen)
{
	return __pread64_chk(fd, buf, len, off, buflen);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off64_t off)
{
	if (!real_pwrite)
		init();
	return on_device(fd) ? overlay_pwrite(fd, buf, len, off) :
			       real_pwrite(fd, buf, len, off);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite64(fd, buf, len, off);
}

/* read and write at the descriptor's position, which the kernel keeps. */
ssize_t read(int fd, void *buf, size_t len)
{
	off64_t pos;
	ssize_t n;

	if (!real_read)
		init();
	if (!on_device(fd))
		return real_read(fd, buf, len);
	pos = lseek64(fd, 0, SEEK_CUR);
	if (pos < 0)
		return -1;
	n = overlay_pread(fd, buf, len, pos);
	if (n > 0 && lseek64(fd, pos + n, SEEK_SET) < 0)
		return -1;
	return n;
}

ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen)
{
	if (len > buflen)
		abort();
	return read(fd, buf, len);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	off64_t pos;
	ssize_t n;

	if (!real_write)
		init();
	if (!on_device(fd))
		return real_write(fd, buf, len);
	pos = lseek64(fd, 0, SEEK_CUR);
	if (pos < 0)
		return -1;
	n = overlay_pwrite(fd, buf, len, pos);
	if (n > 0 && lseek64(fd, pos + n, SEEK_SET) < 0)
		return -1;
	return n;
}

/* Discarding or zeroing the device would change it behind the overlay. */
int fallocate64(int fd, int mode, off64_t off, off64_t len)
{
	if (!real_fallocate)
		init();
	if (on_device(fd)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return real_fallocate(fd, mode, off, len);
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
	return fallocate64(fd, mode, off, len);
}

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	if (!real_ioctl)
		init();
	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (on_device(fd) && (request == BLKDISCARD ||
			      request == BLKZEROOUT ||
			      request == BLKSECDISCARD)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return real_ioctl(fd, request, arg);
}
