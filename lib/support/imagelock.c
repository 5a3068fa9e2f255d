/* imagelock.c: one writer at a time on an image (imagelock.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "imagelock.h"

/* The images this process holds, by device and inode number. */
#define MAX_HELD 8
static struct held {
	dev_t dev;
	ino_t ino;
	int fd;
	int exclusive;
} held[MAX_HELD];
static int nheld;

static struct held *find_held(const struct stat *st)
{
	int i;

	for (i = 0; i < nheld; i++)
		if (held[i].dev == st->st_dev && held[i].ino == st->st_ino)
			return &held[i];
	return NULL;
}

/* The wait, in seconds: E2FOLD_LOCK_WAIT, or the environment's (tests). */
static int wait_seconds(void)
{
	const char *env = getenv("E2FOLD_LOCK_WAIT");

	return env && *env >= '0' && *env <= '9' ? atoi(env) : E2FOLD_LOCK_WAIT;
}

/* flock(fd, op | LOCK_NB) until it succeeds or the wait is over. */
static int lock_waiting(int fd, int op, const char *device)
{
	int waited, seconds = wait_seconds();

	if (!flock(fd, op | LOCK_NB))
		return 0;
	if (errno != EWOULDBLOCK)
		return -1;
	fprintf(stderr, "%s: %s is in use by another program (an e2fold-fuse "
		"serving it?): waiting up to %d seconds for it\n",
		program_invocation_short_name, device, seconds);
	for (waited = 0; waited < 10 * seconds; waited++) {
		usleep(100000);
		if (!flock(fd, op | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK)
			return -1;
	}
	errno = EBUSY;
	return -1;
}

errcode_t e2fold_image_lock(const char *device, int exclusive)
{
	int op = exclusive ? LOCK_EX : LOCK_SH;
	struct stat st;
	struct held *h;
	int fd;

	fd = open(device, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	h = find_held(&st);
	if (h) {
		close(fd);
		if (h->exclusive || !exclusive)
			return 0;
		if (lock_waiting(h->fd, op, device))
			return errno;
		h->exclusive = 1;
		return 0;
	}
	if (nheld == MAX_HELD || lock_waiting(fd, op, device)) {
		errcode_t retval = nheld == MAX_HELD ? EXT2_ET_NO_MEMORY : errno;

		close(fd);
		return retval;
	}
	held[nheld].dev = st.st_dev;
	held[nheld].ino = st.st_ino;
	held[nheld].fd = fd;
	held[nheld].exclusive = exclusive;
	nheld++;
	return 0;
}
