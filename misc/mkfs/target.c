/* target.c: refuse unsafe targets; create a missing image file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include <blkid/blkid.h>
#include <et/com_err.h>

#include "imagelock.h"
#include "mkfs.h"
#include "target.h"

static errcode_t refuse(const char *name, const char *why)
{
	com_err(mkfs_prog, 0, "%s: %s", name, why);
	return EXT2_ET_INVALID_ARGUMENT;
}

static errcode_t check_not_mounted(const char *name)
{
	int flags = 0;
	errcode_t retval = ext2fs_check_if_mounted(name, &flags);

	if (retval) {
		com_err(mkfs_prog, retval, "while checking whether %s is mounted",
			name);
		return retval;
	}
	if (flags & EXT2_MF_MOUNTED)
		return refuse(name, "is mounted; will not make a filesystem here");
	if (flags & EXT2_MF_BUSY)
		return refuse(name, "is in use by the system; will not make a "
			      "filesystem here");
	return 0;
}

/*
 * What libblkid recognizes on name: a filesystem (or RAID member, swap...)
 * or a partition table. 0 and *found set; the strings are copied to buf.
 */
static errcode_t probe(const char *name, int *found, char *buf, size_t size)
{
	blkid_probe pr = blkid_new_probe_from_filename(name);
	const char *value = NULL, *kind = "a filesystem";
	int rc;

	*found = 0;
	if (!pr)
		return errno ? errno : EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &value, NULL) &&
		    !blkid_probe_lookup_value(pr, "PTTYPE", &value, NULL))
			kind = "a partition table";
		snprintf(buf, size, "already holds %s (%s)", kind,
			 value ? value : "unknown type");
		*found = 1;
	} else if (rc == -2) {
		snprintf(buf, size, "already holds signatures of more than "
			 "one filesystem");
		*found = 1;
	}
	blkid_free_probe(pr);
	return 0;
}

/*
 * Size, sector size and read-only state of a block device. A read-only
 * device may still be opened for writing; only the ioctl tells.
 */
static errcode_t device_info(const char *name, struct mkfs_target *t,
			     int *ret_readonly)
{
	int fd = open(name, O_RDONLY);
	unsigned long long bytes = 0;
	int sector = 0, ro = 0;

	if (fd < 0)
		return errno;
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0) {
		int err = errno;

		close(fd);
		return err;
	}
	if (ioctl(fd, BLKSSZGET, &sector) < 0)
		sector = 0;
	if (ioctl(fd, BLKROGET, &ro) < 0)
		ro = 0;
	close(fd);
	t->size_bytes = bytes;
	t->sector_size = sector > 0 ? sector : 0;
	*ret_readonly = ro;
	return 0;
}

errcode_t mkfs_target_inspect(const char *name, int force,
			      struct mkfs_target *t)
{
	struct stat st;
	char what[128];
	errcode_t retval;
	int found, fd, readonly = 0;

	memset(t, 0, sizeof(*t));
	t->name = name;
	if (stat(name, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		com_err(mkfs_prog, errno, "while looking at %s", name);
		return errno;
	}
	t->exists = 1;
	if (S_ISBLK(st.st_mode)) {
		t->is_blockdev = 1;
	} else if (S_ISREG(st.st_mode)) {
		t->size_bytes = st.st_size;
	} else {
		return refuse(name, "not a block device or a regular file");
	}
	retval = check_not_mounted(name);
	if (retval)
		return retval;
	/* Another e2fold program serving or changing it (imagelock.h). */
	retval = e2fold_image_lock(name, 1);
	if (retval) {
		com_err(mkfs_prog, retval, "while locking %s", name);
		return retval;
	}
	/* Open for writing without writing, so that -n fails as the real run would. */
	fd = open(name, O_WRONLY);
	if (fd < 0) {
		com_err(mkfs_prog, errno, "while opening %s for writing", name);
		return errno;
	}
	close(fd);
	if (t->is_blockdev) {
		retval = device_info(name, t, &readonly);
		if (retval) {
			com_err(mkfs_prog, retval, "while reading the size of %s",
				name);
			return retval;
		}
		if (readonly)
			return refuse(name, "is a read-only device");
	}
	if (force || t->size_bytes == 0)
		return 0;
	retval = probe(name, &found, what, sizeof(what));
	if (retval) {
		com_err(mkfs_prog, retval, "while probing %s for filesystems",
			name);
		return retval;
	}
	if (found) {
		com_err(mkfs_prog, 0, "%s %s; use -F to overwrite it", name, what);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	return 0;
}

errcode_t mkfs_target_create(struct mkfs_target *t, __u64 bytes)
{
	int fd = open(t->name, O_WRONLY | O_CREAT | O_EXCL, 0666);
	errcode_t retval;

	if (fd < 0) {
		retval = errno;
		com_err(mkfs_prog, retval, "while creating %s", t->name);
		return retval;
	}
	t->created = 1;
	if (ftruncate(fd, bytes) < 0) {
		retval = errno;
		com_err(mkfs_prog, retval, "while making %s %llu bytes long%s",
			t->name, (unsigned long long)bytes, retval == EFBIG ?
			" (too large for the filesystem that holds it)" : "");
		close(fd);
		mkfs_target_discard_created(t);
		return retval;
	}
	if (close(fd) < 0) {
		retval = errno;
		com_err(mkfs_prog, retval, "while creating %s", t->name);
		mkfs_target_discard_created(t);
		return retval;
	}
	t->exists = 1;
	t->size_bytes = bytes;
	return 0;
}

void mkfs_target_discard_created(struct mkfs_target *t)
{
	if (t->created) {
		unlink(t->name);
		t->created = 0;
		t->exists = 0;
	}
}
