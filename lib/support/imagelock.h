/*
 * imagelock.h: one writer at a time on an image. The kernel keeps a
 * mounted block device from being opened for writing elsewhere; an image
 * served by e2fold-fuse has no such guard, and libext2fs's mounted check
 * does not see a FUSE server (it compares device names in /proc/mounts).
 * So every e2fold tool that writes an image holds an advisory lock on it
 * (flock) until it exits: exclusive for writing, shared for e2fold-fuse
 * serving it read-only. Read-only tools take none, as e2fsprogs lets them
 * look at a mounted filesystem.
 *
 * A server unmounted with umount(8) may still be writing its last blocks
 * when umount returns; it releases the lock when it exits, so a tool
 * started at once waits for it (up to E2FOLD_LOCK_WAIT seconds) instead
 * of overlapping those writes.
 */
#ifndef E2FOLD_IMAGELOCK_H
#define E2FOLD_IMAGELOCK_H

#include <ext2fs/ext2fs.h>

/* Seconds; the environment variable of the same name overrides it. */
#define E2FOLD_LOCK_WAIT 10

/*
 * Lock device (exclusive or shared) for the rest of the process. Another
 * lock of the same image by this process is the same lock, made
 * exclusive if asked. Waits up to E2FOLD_LOCK_WAIT seconds for another
 * holder, saying so on stderr; then EBUSY. A device that cannot be opened
 * gives 0: opening it will report why.
 */
errcode_t e2fold_image_lock(const char *device, int exclusive);

#endif /* E2FOLD_IMAGELOCK_H */
