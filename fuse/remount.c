/*
 * remount.c: `mount -o remount,ro DIR` (or rw) on an e2fold-fuse mount.
 * mount(8) hands a remount of a FUSE filesystem to mount.fuse3, which
 * runs the program the type names (fuse.e2fold-fuse) with "remount" in
 * its options: that must change the mount it names, not start a second
 * server (which the image lock would refuse). The kernel's FUSE accepts
 * a remount that only switches read-only on or off, and then refuses
 * writes itself. The server keeps what it was started with: one started
 * read-only (asked, or for an unclean filesystem) still answers EROFS
 * after a remount,rw; mount it again to write.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>

#include "e2fuse.h"

static const char *prog = "e2fold-fuse";

/* The mount flags a statvfs reports, as mount(2) takes them. */
static unsigned long mount_flags(const struct statvfs *st)
{
	static const struct {
		unsigned long st, ms;
	} map[] = {
		{ ST_RDONLY, MS_RDONLY }, { ST_NOSUID, MS_NOSUID },
		{ ST_NODEV, MS_NODEV }, { ST_NOEXEC, MS_NOEXEC },
		{ ST_SYNCHRONOUS, MS_SYNCHRONOUS }, { ST_NOATIME, MS_NOATIME },
		{ ST_NODIRATIME, MS_NODIRATIME }, { ST_RELATIME, MS_RELATIME },
	};
	unsigned long flags = 0;
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (st->f_flag & map[i].st)
			flags |= map[i].ms;
	return flags;
}

int e2fuse_remount(const struct e2fuse_options *opt)
{
	struct statvfs st;
	unsigned long flags;

	if (statvfs(opt->mountpoint, &st)) {
		fprintf(stderr, "%s: remount: %s: %s\n", prog, opt->mountpoint,
			strerror(errno));
		return 1;
	}
	flags = mount_flags(&st) & ~MS_RDONLY;
	if (opt->readonly)
		flags |= MS_RDONLY;
	if (mount(NULL, opt->mountpoint, NULL, MS_REMOUNT | flags, NULL)) {
		fprintf(stderr, "%s: remount: %s: %s\n", prog, opt->mountpoint,
			strerror(errno));
		return 1;
	}
	return 0;
}
