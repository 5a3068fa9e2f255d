/*
 * handles: file handles through a mount, as an NFS server uses them.
 *
 *   handles save PATH FILE     name_to_handle_at(PATH) into FILE
 *   handles open DIR FILE      open_by_handle_at(the mount of DIR, FILE)
 *                              and print the file's first line, or the
 *                              errno's name (ESTALE, ...)
 *
 * Exit status 0 when the call succeeded, 1 when it failed, 2 on misuse.
 * open_by_handle_at needs CAP_DAC_READ_SEARCH (root).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_HANDLE 128

static int save(const char *path, const char *file)
{
	struct file_handle *h = malloc(sizeof(*h) + MAX_HANDLE);
	int mount_id, status = 0;
	FILE *f;

	if (!h)
		return 2;
	h->handle_bytes = MAX_HANDLE;
	if (name_to_handle_at(AT_FDCWD, path, h, &mount_id, 0)) {
		printf("%s\n", strerror(errno));
		free(h);
		return 1;
	}
	f = fopen(file, "wb");
	if (!f || fwrite(h, sizeof(*h) + h->handle_bytes, 1, f) != 1)
		status = 2;
	if (f && fclose(f))
		status = 2;
	free(h);
	return status;
}

/* The handle in file, opened through the mount of dir: its first line. */
static int open_handle(const char *dir, const char *file)
{
	struct file_handle *h = malloc(sizeof(*h) + MAX_HANDLE);
	FILE *f = fopen(file, "rb");
	int mfd = open(dir, O_RDONLY | O_DIRECTORY), fd = -1, status = 2;
	char line[256];
	ssize_t n;

	if (!h || !f || mfd < 0 ||
	    fread(h, 1, sizeof(*h) + MAX_HANDLE, f) < sizeof(*h))
		goto out;
	fd = open_by_handle_at(mfd, h, O_RDONLY);
	if (fd < 0) {
		printf("%s\n", errno == ESTALE ? "ESTALE" : strerror(errno));
		status = 1;
		goto out;
	}
	n = read(fd, line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	printf("%s\n", line);
	status = 0;
out:
	if (fd >= 0)
		close(fd);
	if (mfd >= 0)
		close(mfd);
	if (f)
		fclose(f);
	free(h);
	return status;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "save"))
		return save(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "open"))
		return open_handle(argv[2], argv[3]);
	fprintf(stderr, "usage: handles save PATH FILE | open DIR FILE\n");
	return 2;
}
