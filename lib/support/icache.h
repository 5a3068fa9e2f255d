/*
 * icache.h: a guard against libext2fs 1.47.0's inode cache.
 *
 * ext2fs_read_inode2() reads an inode into the next slot of its cache and,
 * when the inode's checksum fails, leaves that slot labelled with the
 * inode it held before: a later read of that inode returns the damaged
 * one's bytes (silently under EXT2_FLAG_IGNORE_CSUM_ERRORS; e2fold-debugfs
 * listed another directory's entries for the root, found by
 * fuzz_debugfs). The guard empties the cache before every read that
 * libext2fs lets a hook see, so inodes come from the I/O channel's block
 * cache instead.
 *
 * libext2fs calls the hook for reads of the 128-byte inode only; a read
 * of the full inode is exposed only when it directly follows a damaged
 * inode's read with no small read between.
 */
#ifndef E2FOLD_ICACHE_H
#define E2FOLD_ICACHE_H

#include <ext2fs/ext2fs.h>

void e2fold_guard_inode_cache(ext2_filsys fs);

#endif /* E2FOLD_ICACHE_H */
