/*
 * overlay.h: the system e2fsck repairs into an overlay, and e2fold-fsck
 * applies what it wrote to the device through the filesystem's journal
 * (doc/crash-safety.md, "e2fsck's repairs").
 *
 * e2fsck runs with the preload library (overlay_preload.c), which keeps
 * its writes in an overlay file and shows them to its reads: the device
 * is untouched while e2fsck works, so a kill or a power cut inside
 * e2fsck loses nothing. Then fsck_overlay_apply writes the blocks e2fsck
 * changed:
 *   - through the journal e2fold writes (journal.h), as transactions,
 *     when the filesystem has one and e2fsck did not change the journal
 *     itself: a crash leaves the old filesystem or, once the journal is
 *     replayed, the repaired one;
 *   - else in place (overlay_inplace.c), the journal's superblock and
 *     the filesystem's primary superblock last, each step flushed, after
 *     a list of what it writes: a crash leaves a filesystem that opens,
 *     and the next run of e2fold-fsck finishes the apply first
 *     (fsck_overlay_resume).
 */
#ifndef E2FOLD_OVERLAY_H
#define E2FOLD_OVERLAY_H

#include <ext2fs/ext2fs.h>

/* One overlay: its directory and file. */
struct fsck_overlay {
	char dir[4096];
	char file[4128];
	int persistent;	/* in the state directory, where a resume finds it */
};

/* How fsck_overlay_apply wrote. */
enum fsck_overlay_how {
	FSCK_OVERLAY_NOTHING,	/* e2fsck changed no block */
	FSCK_OVERLAY_JOURNALED,	/* as N transactions */
	FSCK_OVERLAY_IN_PLACE,	/* without the journal */
};

/*
 * The preload library: $E2FOLD_OVERLAY_LIB, else where it is installed;
 * NULL if it is not there (e2fsck then writes the device itself).
 */
const char *fsck_overlay_library(void);

/*
 * A directory for device's overlay: in $E2FOLD_STATE_DIR, else the
 * installed state directory (/var/lib/e2fold), named after the device
 * (what it is, not its path), so that the next run finds what a crash
 * left; where it cannot be made, a temporary one (then a crash in the
 * apply in place cannot be resumed). errno on failure.
 */
errcode_t fsck_overlay_create(struct fsck_overlay *ov, const char *device);

/*
 * In the child that becomes e2fsck: the preload library in LD_PRELOAD
 * (before what it held), for the name comparisons e2fsck gets wrong
 * (names_preload.c); -1 if the library is not there.
 */
int fsck_preload_environment(void);

/*
 * The same, and the environment that makes e2fsck write into ov instead
 * of device.
 */
void fsck_overlay_environment(const struct fsck_overlay *ov,
			      const char *device);

/*
 * Apply what e2fsck wrote into ov to device, as said above, every block
 * saved first into undo_file if not NULL (openfs.h: written through, so
 * that e2undo gives the device back also after a kill); *ret_how and
 * *ret_transactions say how. Returns an errcode_t; on error the device
 * holds some of the changes (in place) or none (journaled).
 */
errcode_t fsck_overlay_apply(const struct fsck_overlay *ov,
			     const char *device, const char *undo_file,
			     enum fsck_overlay_how *ret_how,
			     unsigned int *ret_transactions);

/* Remove ov's files and directory. */
void fsck_overlay_remove(const struct fsck_overlay *ov);

/* What fsck_overlay_resume found. */
enum fsck_overlay_resumed {
	FSCK_RESUMED_NONE,	/* no apply was cut short */
	FSCK_RESUMED_FINISHED,	/* one was, and it is finished now */
	FSCK_RESUMED_PENDING,	/* one was; not may_write: left as it is */
	FSCK_RESUMED_STALE,	/* one was, but the device changed since:
				 * dropped, nothing written */
};

/*
 * Before a run: finish an apply in place that a crash cut short on
 * device (with may_write; through undo_file if not NULL), or say that
 * one is pending. The image lock is taken first. Returns an errcode_t.
 */
errcode_t fsck_overlay_resume(const char *device, int may_write,
			      const char *undo_file,
			      enum fsck_overlay_resumed *ret);

#endif /* E2FOLD_OVERLAY_H */
