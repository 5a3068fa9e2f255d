/*
 * mount.c: the image opened for serving, and closed clean.
 *
 * e2fold-fuse serves what the kernel would mount, and nothing worse.
 * Refused before anything is mounted, with a message naming the image:
 * a mount point that is no directory, an image that cannot be opened
 * (missing, not ext2/3/4, features libext2fs cannot write), one mounted
 * elsewhere or held by another e2fold program (imagelock.h), one larger
 * than its device (truncated), one whose first data block is not where
 * its block size puts it (openfs.h), a casefold filesystem whose encoding is
 * unknown, and read-only, one whose journal needs recovery (replaying it
 * would write). Read-write, such a journal is first replayed by the
 * system e2fsck (-E journal_only), as the kernel replays it at mount. A
 * filesystem not cleanly unmounted, or with errors recorded, is served
 * read-only with a warning that names the command that checks it: its
 * bitmaps cannot be trusted to allocate from.
 *
 * Served read-write, the image is opened through the transaction layer
 * (txnio.h), and with an internal journal every change goes through it
 * (commit.c); a journal e2fold cannot write (external, or
 * with features journal.h lists) is left alone with a warning, and the
 * changes are written in place, as without a journal.
 *
 * As the kernel does, a read-write mount records the mount time, count
 * and place, and marks the filesystem so that a crash is seen: with a
 * journal, needs_recovery (set while the journal is open); without, the
 * superblock's valid state cleared, put back at unmount.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <et/com_err.h>

#include "e2fuse.h"
#include "imagelock.h"
#include "openfs.h"
#include "txnio.h"

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

/*
 * The system e2fsck replays the journal of image and does nothing else;
 * 0 when it did (its exit status 0 or 1).
 */
static int replay_journal(const char *image)
{
	pid_t pid;
	int wstatus;

	fprintf(stderr, "%s: %s: the journal needs recovery: replaying it "
		"with e2fsck -p -E journal_only\n", prog, image);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* e2fsck's report goes with ours, to stderr. */
		dup2(2, 1);
		execlp("e2fsck", "e2fsck", "-p", "-E", "journal_only", image,
		       (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &wstatus, 0) != pid || !WIFEXITED(wstatus) ||
	    WEXITSTATUS(wstatus) > 1) {
		fprintf(stderr, "%s: %s: e2fsck could not replay the journal: "
			"run e2fsck on it\n", prog, image);
		return -1;
	}
	return 0;
}

/* A read-only server never writes: it cannot replay a journal. */
static int refuse_journal(const char *image)
{
	fprintf(stderr, "%s: %s: the journal needs recovery, which would "
		"write to the image: serve it read-write (e2fold-fuse replays "
		"the journal first) or run e2fsck -E journal_only %s\n", prog,
		image, image);
	return -1;
}

/*
 * Not cleanly unmounted, or with errors recorded: its bitmaps may be
 * wrong, and a write that trusts them could hand one file's blocks to
 * another. Returns why, or NULL for a filesystem fit to be written.
 */
static const char *unfit_state(ext2_filsys fs)
{
	__u16 state = fs->super->s_state;

	if (state & EXT2_ERROR_FS)
		return "has errors recorded";
	if (!(state & EXT2_VALID_FS))
		return "was not cleanly unmounted";
	return NULL;
}

/* Served read-only until checked, with a word saying so. */
static void demote(struct e2fuse *srv, const char *why)
{
	fprintf(stderr, "%s: warning: %s %s: serving it read-only; run "
		"e2fold-fsck -f %s to check and repair it, then serve it "
		"again\n", prog, srv->opt.image, why, srv->opt.image);
	srv->opt.readonly = 1;
}

/* A mount point FUSE could mount on, but then serve nothing through. */
static int check_mountpoint(const char *mountpoint)
{
	struct stat st;

	if (stat(mountpoint, &st)) {
		fprintf(stderr, "%s: mount point %s: %s\n", prog, mountpoint,
			strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: mount point %s: not a directory\n", prog,
			mountpoint);
		return -1;
	}
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
	if (!srv->journaled)
		sb->s_state &= ~EXT2_VALID_FS;
	sb->s_mtime = e2fuse_now(srv);
	sb->s_mnt_count++;
	/* The kernel records the mount point's absolute path. */
	memset(sb->s_last_mounted, 0, sizeof(sb->s_last_mounted));
	strncpy((char *)sb->s_last_mounted, where ? where : srv->opt.mountpoint,
		sizeof(sb->s_last_mounted) - 1);
	free(where);
	ext2fs_mark_super_dirty(srv->fs);
	return srv->journaled ? e2fold_txn_commit(srv->fs) :
				ext2fs_flush(srv->fs);
}

/*
 * About to serve read-write: the journal of an image that has one is
 * opened (needs_recovery set on the image, as a kernel mount does), and
 * every change from now on goes through it.
 */
static void begin_journal(struct e2fuse *srv)
{
	errcode_t unjournaled;

	if (!ext2fs_has_feature_journal(srv->fs->super))
		return;
	unjournaled = e2fold_txn_begin(srv->fs);
	if (unjournaled)
		com_err(prog, unjournaled, "warning: %s: changes are not "
			"journaled, written in place (a crash leaves what "
			"e2fsck repairs)", srv->opt.image);
	srv->journaled = !unjournaled;
}

/*
 * Open the image for serving, the journal replayed if it must be. It is
 * looked at read-only first: an image that will be served read-only
 * (asked so, or unfit to be written) is never opened for writing, since
 * a read-write open may write (libext2fs starts multiple-mount
 * protection on open and flushes a superblock it fixed on close).
 */
static int open_image(struct e2fuse *srv)
{
	const char *image = srv->opt.image;
	const char *why;
	errcode_t retval;
	int replayed = 0, writing = 0;

	for (;;) {
		/*
		 * Looked at read-only; then read-write, through the layer
		 * that journals (begin_journal).
		 */
		retval = e2fold_open_fs_served(image, writing ? EXT2_FLAG_RW :
						      0, &srv->fs);
		if (retval) {
			com_err(prog, retval, "while opening %s", image);
			return -1;
		}
		if (ext2fs_has_feature_journal_needs_recovery(srv->fs->super)) {
			ext2fs_close_free(&srv->fs);
			if (srv->opt.readonly)
				return refuse_journal(image);
			if (replayed || replay_journal(image))
				return -1;
			replayed = 1;
			writing = 0;
			continue;
		}
		why = srv->opt.readonly ? NULL : unfit_state(srv->fs);
		if (why && writing) {
			/* Changed since it was looked at: look again. */
			ext2fs_close_free(&srv->fs);
			writing = 0;
			continue;
		}
		if (why)
			demote(srv, why);
		if (srv->opt.readonly || writing)
			return 0;
		ext2fs_close_free(&srv->fs);
		writing = 1;
	}
}

int e2fuse_open(struct e2fuse *srv)
{
	const char *image = srv->opt.image;
	struct stat st;
	errcode_t retval;

	if (check_mountpoint(srv->opt.mountpoint))
		return -1;
	if (stat(image, &st)) {
		fprintf(stderr, "%s: %s: %s\n", prog, image, strerror(errno));
		return -1;
	}
	if (refuse_mounted(image))
		return -1;
	/* Read-only, no e2fold program may write it while it is served. */
	if (srv->opt.readonly) {
		retval = e2fold_image_lock(image, 0);
		if (retval) {
			com_err(prog, retval, "while locking %s", image);
			return -1;
		}
	}
	if (open_image(srv))
		return -1;
	if (e2fold_fs_truncated(prog, srv->fs, image) ||
	    e2fold_fs_geometry_bad(prog, srv->fs, image) || load_encoding(srv))
		goto fail;
	if (!srv->opt.readonly) {
		begin_journal(srv);
		retval = mark_mounted(srv);
		if (!retval && srv->fs->super->s_last_orphan) {
			retval = e2fuse_orphan_cleanup(srv);
			if (!retval)
				retval = e2fuse_commit(srv);
		}
		if (retval) {
			com_err(prog, retval, "while marking %s mounted", image);
			goto fail;
		}
	}
	return 0;
fail:
	if (srv->fs)
		ext2fs_close_free(&srv->fs);
	/* A refusal after the encoding was loaded leaves nothing behind. */
	utf8_unload(srv->um);
	srv->um = NULL;
	return -1;
}

errcode_t e2fuse_close(struct e2fuse *srv)
{
	errcode_t retval;

	if (!srv->fs)
		return 0;
	e2fuse_free_orphans(srv);
	e2fuse_index_free(srv);
	if (!srv->opt.readonly && srv->failed) {
		/*
		 * Corruption met keeps the filesystem marked for a check;
		 * with a journal, the superblock alone is written (the
		 * transaction was abandoned, errors.c).
		 */
		srv->fs->super->s_state = (srv->fs->super->s_state &
					   ~EXT2_VALID_FS) | EXT2_ERROR_FS;
		if (srv->journaled)
			srv->fs->flags |= EXT2_FLAG_SUPER_ONLY |
					  EXT2_FLAG_MASTER_SB_ONLY;
		ext2fs_mark_super_dirty(srv->fs);
	} else if (!srv->opt.readonly && !srv->journaled) {
		srv->fs->super->s_state = srv->clean_state;
		ext2fs_mark_super_dirty(srv->fs);
	}
	/* The last transaction, then the journal closed (txnio.h). */
	retval = srv->journaled ? e2fold_txn_close(&srv->fs) :
				  ext2fs_close_free(&srv->fs);
	if (retval)
		com_err(prog, retval, "while closing %s", srv->opt.image);
	utf8_unload(srv->um);
	srv->um = NULL;
	return retval;
}
