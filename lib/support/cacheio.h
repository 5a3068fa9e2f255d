/*
 * cacheio.h: an I/O manager that keeps the blocks read last in memory,
 * for a long-lived user that reads the same metadata blocks again and
 * again (e2fold-fuse: an inode table block holds 16 to 32 inodes, and a
 * listing with attributes reads them in hash order, one block read per
 * inode; libext2fs's own block cache holds 8).
 *
 * Single-block reads are kept, up to E2FOLD_CACHE_BYTES of blocks; a
 * clock gives back first those not read again since it last passed
 * them. Writes pass straight through, and a kept copy of a block
 * written is replaced by what was written only once the write
 * succeeded; a write that failed, and every byte-ranged write, discard
 * or zeroout, drops the copies of the blocks it touches, so that a read
 * never answers what the layer below does not hold. Nothing is written
 * later than asked, so what a crash leaves is what it leaves without
 * the layer.
 *
 * Not thread-safe: as libext2fs, one user at a time.
 */
#ifndef E2FOLD_CACHEIO_H
#define E2FOLD_CACHEIO_H

#include <ext2fs/ext2fs.h>

#define E2FOLD_CACHE_BYTES (32u << 20)

/*
 * The caching manager over inner; as e2fold_sync_io_manager, the last
 * inner given is the one every channel opened through it afterwards uses.
 */
io_manager e2fold_cache_io_manager(io_manager inner);

#endif /* E2FOLD_CACHEIO_H */
