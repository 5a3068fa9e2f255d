/* overlay.c: applying e2fsck's repairs from its overlay (overlay.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "imagelock.h"
#include "openfs.h"
#include "overlay.h"
#include "overlay_store.h"
#include "tmpdir.h"

const char *fsck_overlay_library(void)
{
	const char *lib = getenv("E2FOLD_OVERLAY_LIB");

	if (!lib || !*lib)
		lib = E2FOLD_OVERLAY_INSTALLED;
	return access(lib, R_OK) ? NULL : lib;
}

/*
 * Where overlays are kept: $E2FOLD_STATE_DIR, else the installed state
 * directory; one per device, named after what it is (not its path), so
 * that the next run on the device finds one a crash left.
 */
static int overlay_dir(const char *device, char *dir, size_t size)
{
	const char *state = getenv("E2FOLD_STATE_DIR");
	struct stat st;

	if (!state || !*state)
		state = E2FOLD_STATE_INSTALLED;
	if (stat(device, &st))
		return -1;
	if (S_ISBLK(st.st_mode))
		snprintf(dir, size, "%s/fsck-overlay.b%llu", state,
			 (unsigned long long)st.st_rdev);
	else
		snprintf(dir, size, "%s/fsck-overlay.f%llu-%llu", state,
			 (unsigned long long)st.st_dev,
			 (unsigned long long)st.st_ino);
	return 0;
}

/* mkdir -p of dir's parent, for root only (0755), then dir (0700). */
static int make_dir(const char *dir)
{
	char path[sizeof(((struct fsck_overlay *)0)->dir)];
	char *slash;

	snprintf(path, sizeof(path), "%s", dir);
	for (slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		*slash = '/';
	}
	return mkdir(dir, 0700);
}

static void remove_files(const char *dir)
{
	static const char *const names[] = {
		"applying", "applying.new", "overlay.map.new", "overlay.map",
		"overlay",
	};
	char path[sizeof(((struct fsck_overlay *)0)->file) + 32];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

errcode_t fsck_overlay_create(struct fsck_overlay *ov, const char *device)
{
	ov->persistent = !overlay_dir(device, ov->dir, sizeof(ov->dir));
	if (ov->persistent) {
		remove_files(ov->dir);	/* nothing a resume would take */
		ov->persistent = !make_dir(ov->dir);
	}
	if (!ov->persistent) {
		/* Unresumable, but e2fsck still cannot hurt the device. */
		int err = e2fold_make_temp_dir(ov->dir, sizeof(ov->dir),
					       "e2fold-overlay");

		if (err)
			return err;
	}
	snprintf(ov->file, sizeof(ov->file), "%s/overlay", ov->dir);
	return 0;
}

int fsck_preload_environment(void)
{
	const char *lib = fsck_overlay_library();
	const char *old = getenv("LD_PRELOAD");
	char *preload;

	if (!lib)
		return -1;
	preload = malloc(strlen(lib) + (old ? strlen(old) : 0) + 2);
	if (!preload)
		return -1;
	sprintf(preload, "%s%s%s", lib, old && *old ? ":" : "",
		old && *old ? old : "");
	setenv("LD_PRELOAD", preload, 1);
	free(preload);
	return 0;
}

void fsck_overlay_environment(const struct fsck_overlay *ov,
			      const char *device)
{
	if (fsck_preload_environment())
		return;
	setenv("E2FOLD_OVERLAY_DEVICE", device, 1);
	setenv("E2FOLD_OVERLAY_FILE", ov->file, 1);
}

void fsck_overlay_remove(const struct fsck_overlay *ov)
{
	remove_files(ov->dir);
}

/* The map, or ENOENT when e2fsck did not finish (none was written). */
static errcode_t read_map(const struct fsck_overlay *ov,
			  struct overlay_map *map)
{
	char path[sizeof(ov->file) + 8];
	unsigned long long count;
	FILE *f;
	errcode_t retval = 0;

	memset(map, 0, sizeof(*map));
	snprintf(path, sizeof(path), "%s.map", ov->file);
	f = fopen(path, "rb");
	if (!f)
		return errno;
	if (fscanf(f, "e2fold-overlay %u %llu", &map->unit, &count) != 2 ||
	    fgetc(f) != '\n' || !map->unit || map->unit % 1024)
		retval = EXT2_ET_BAD_MAGIC;
	if (!retval && count) {
		map->bits = malloc(count);
		if (!map->bits)
			retval = EXT2_ET_NO_MEMORY;
		else if (fread(map->bits, 1, count, f) != count)
			retval = EXT2_ET_SHORT_READ;
		map->nbytes = count;
	}
	fclose(f);
	return retval;
}

int overlay_unit_present(const struct overlay_map *map, size_t u)
{
	return u / 8 < map->nbytes && (map->bits[u / 8] >> (u % 8) & 1);
}

errcode_t overlay_read_at(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n ? errno : EXT2_ET_SHORT_READ;
		done += n;
	}
	return 0;
}

/*
 * Apply, the device opened once for writing (an undo file must be made
 * once): through the journal if it can take it, else in place; in place
 * through a bare channel if libext2fs cannot open the device (a primary
 * superblock e2fsck replaced from a backup).
 */
static errcode_t apply(const struct fsck_overlay *ov,
		       const struct overlay_map *map, int ofd,
		       const char *device, const char *undo_file,
		       enum fsck_overlay_how *ret_how,
		       unsigned int *ret_transactions)
{
	io_manager manager;
	io_channel io = NULL;
	ext2_filsys fs = NULL;
	errcode_t retval;

	if (!e2fold_open_fs(device, EXT2_FLAG_RW, undo_file, &fs)) {
		if (overlay_apply_journaled(fs, map, ofd, &retval,
					    ret_transactions)) {
			*ret_how = *ret_transactions ? FSCK_OVERLAY_JOURNALED :
						      FSCK_OVERLAY_NOTHING;
		} else {
			*ret_how = FSCK_OVERLAY_IN_PLACE;
			retval = overlay_apply_in_place(fs->io, fs, map, ofd,
							device, ov->dir);
		}
		/* Freed, not closed: the superblock in memory is the old one. */
		ext2fs_free(fs);
		return retval;
	}
	*ret_how = FSCK_OVERLAY_IN_PLACE;
	retval = e2fold_writing_io_manager(undo_file, &manager);
	if (!retval)
		retval = manager->open(device, IO_FLAG_RW, &io);
	if (!retval)
		retval = overlay_apply_in_place(io, NULL, map, ofd, device,
						ov->dir);
	if (io) {
		errcode_t r = io_channel_close(io);

		retval = retval ? retval : r;
	}
	return retval;
}

errcode_t fsck_overlay_apply(const struct fsck_overlay *ov,
			     const char *device, const char *undo_file,
			     enum fsck_overlay_how *ret_how,
			     unsigned int *ret_transactions)
{
	struct overlay_map map;
	errcode_t retval;
	int ofd, any = 0;

	*ret_how = FSCK_OVERLAY_NOTHING;
	*ret_transactions = 0;
	retval = read_map(ov, &map);
	if (retval)
		return retval == ENOENT ? 0 : retval;
	for (size_t i = 0; i < map.nbytes; i++)
		any |= map.bits[i];
	ofd = any ? open(ov->file, O_RDONLY | O_CLOEXEC) : -1;
	if (any && ofd < 0)
		retval = errno;
	if (!retval && any)
		retval = apply(ov, &map, ofd, device, undo_file, ret_how,
			       ret_transactions);
	if (ofd >= 0)
		close(ofd);
	free(map.bits);
	return retval;
}

static int applying_exists(const char *dir)
{
	char path[sizeof(((struct fsck_overlay *)0)->dir) + 16];

	snprintf(path, sizeof(path), "%s/applying", dir);
	return !access(path, F_OK);
}

errcode_t fsck_overlay_resume(const char *device, int may_write,
			      const char *undo_file,
			      enum fsck_overlay_resumed *ret)
{
	struct fsck_overlay ov;
	struct stat st;
	io_manager manager;
	io_channel io = NULL;
	errcode_t retval;
	int ofd, found = 0;

	*ret = FSCK_RESUMED_NONE;
	if (overlay_dir(device, ov.dir, sizeof(ov.dir)) ||
	    stat(ov.dir, &st))
		return 0;
	snprintf(ov.file, sizeof(ov.file), "%s/overlay", ov.dir);
	found = applying_exists(ov.dir);
	if (!found) {
		/* Cut short before it wrote the device: nothing to finish. */
		if (may_write)
			remove_files(ov.dir);
		return 0;
	}
	if (!may_write) {
		*ret = FSCK_RESUMED_PENDING;
		return 0;
	}
	ofd = open(ov.file, O_RDONLY | O_CLOEXEC);
	if (ofd < 0)
		return errno;
	retval = e2fold_image_lock(device, 1);
	if (!retval)
		retval = e2fold_writing_io_manager(undo_file, &manager);
	if (!retval)
		retval = manager->open(device, IO_FLAG_RW, &io);
	if (!retval)
		retval = overlay_resume_in_place(io, ofd, ov.dir, &found);
	if (io) {
		errcode_t r = io_channel_close(io);

		retval = retval ? retval : r;
	}
	close(ofd);
	if (retval == EXT2_ET_BAD_MAGIC) {
		*ret = FSCK_RESUMED_STALE;
		retval = 0;
	} else if (!retval) {
		*ret = FSCK_RESUMED_FINISHED;
	}
	if (!retval)
		remove_files(ov.dir);
	return retval;
}
