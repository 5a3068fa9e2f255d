/*
 * mount.c: the image opened for serving, and closed clean.
 *
 * Refused before anything is mounted, with a message naming the image:
 * an image that cannot be opened (missing, not ext2/3/4, features
 * libext2fs cannot write), one mounted elsewhere, a casefold filesystem
 * whose encoding is unknown, and for writing one whose journal needs
 * recovery (e2fold-fuse does not replay journals; read-only it is
 * served as of its last checkpoint, with a warning). Writes do not go
 * through the journal.
 *
 * As the kernel does, a read-write mount clears the superblock's valid
 * state (so that a crash leaves a filesystem e2fsck checks) and records
 * the mount time and count; unmounting puts the state back.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <et/com_err.h>

#include "e2fuse.h"
#include "openfs.h"

static const char *prog = "e2fold-fuse";

static int refuse_mounted(const char *image)
{
	int mount_flags = 0;
	errcode_t retval = ext2fs_check_if_mounted(image, &mount_flags);

	if (retval) {
		com_err(prog, retval, "while checking whether %s is mounted",
			image);
		return -1;
	}
	if (mount_flags & EXT2_MF_MOUNTED) {
		fprintf(stderr, "%s: %s is mounted: refusing to serve it "
			"twice\n", prog, image);
		return -1;
	}
	return 0;
}

static int load_encoding(struct e2fuse *srv)
{
	struct ext2_super_block *sb = srv->fs->super;

	if (!ext2fs_has_feature_casefold(sb))
		return 0;
	srv->enc = e2fold_encoding_by_magic(sb->s_encoding);
	if (!srv->enc) {
		fprintf(stderr, "%s: %s: unknown encoding %u: cannot compare "
			"names as the kernel would\n", prog, srv->opt.image,
			sb->s_encoding);
		return -1;
	}
	srv->um = e2fold_load_encoding(srv->enc);
	if (!srv->um) {
		fprintf(stderr, "%s: %s: cannot load encoding %s: %s\n", prog,
			srv->opt.image, srv->enc->name, strerror(errno));
		return -1;
	}
	return 0;
}

static int check_journal(struct e2fuse *srv)
{
	if (!ext2fs_has_feature_journal_needs_recovery(srv->fs->super))
		return 0;
	if (!srv->opt.readonly) {
		fprintf(stderr, "%s: %s: the journal needs recovery, which "
			"e2fold-fuse does not do: run e2fsck on it first (or "
			"serve it with -o ro)\n", prog, srv->opt.image);
		return -1;
	}
	fprintf(stderr, "%s: warning: %s: the journal needs recovery: served "
		"read-only without it, the view may be stale\n", prog,
		srv->opt.image);
	return 0;
}

/* Mounted read-write: not clean until unmounted, as the kernel marks it. */
static errcode_t mark_mounted(struct e2fuse *srv)
{
	struct ext2_super_block *sb = srv->fs->super;
	char *where = realpath(srv->opt.mountpoint, NULL);
	errcode_t retval;

	retval = ext2fs_read_bitmaps(srv->fs);
	if (retval) {
		free(where);
		return retval;
	}
	srv->clean_state = sb->s_state;
	sb->s_state &= ~EXT2_VALID_FS;
	sb->s_mtime = e2fuse_now(srv);
	sb->s_mnt_count++;
	/* The kernel records the mount point's absolute path. */
	memset(sb->s_last_mounted, 0, sizeof(sb->s_last_mounted));
	strncpy((char *)sb->s_last_mounted, where ? where : srv->opt.mountpoint,
		sizeof(sb->s_last_mounted) - 1);
	free(where);
	ext2fs_mark_super_dirty(srv->fs);
	return ext2fs_flush(srv->fs);
}

int e2fuse_open(struct e2fuse *srv)
{
	const char *image = srv->opt.image;
	int flags = srv->opt.readonly ? 0 : EXT2_FLAG_RW;
	struct stat st;
	errcode_t retval;

	if (stat(image, &st)) {
		fprintf(stderr, "%s: %s: %s\n", prog, image, strerror(errno));
		return -1;
	}
	if (refuse_mounted(image))
		return -1;
	retval = e2fold_open_fs(image, flags, NULL, &srv->fs);
	if (retval) {
		com_err(prog, retval, "while opening %s", image);
		return -1;
	}
	if (load_encoding(srv) || check_journal(srv))
		goto fail;
	if (!srv->opt.readonly) {
		retval = mark_mounted(srv);
		if (retval) {
			com_err(prog, retval, "while marking %s mounted", image);
			goto fail;
		}
	}
	return 0;
fail:
	ext2fs_close_free(&srv->fs);
	return -1;
}

errcode_t e2fuse_close(struct e2fuse *srv)
{
	errcode_t retval;

	if (!srv->fs)
		return 0;
	e2fuse_free_orphans(srv);
	if (!srv->opt.readonly) {
		srv->fs->super->s_state = srv->clean_state;
		ext2fs_mark_super_dirty(srv->fs);
	}
	retval = ext2fs_close_free(&srv->fs);
	if (retval)
		com_err(prog, retval, "while closing %s", srv->opt.image);
	utf8_unload(srv->um);
	srv->um = NULL;
	return retval;
}
