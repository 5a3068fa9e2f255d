/*
 * plan.h: the filesystem to make, decided from the options, the profile
 * and the target's size before anything is written: the superblock
 * template that ext2fs_initialize() takes, and the few choices mke2fs
 * makes outside the superblock (lazy inode table and journal
 * initialization, discard, the directory hash).
 *
 * The decisions are mke2fs's (1.47.0), so that the same options give the
 * same filesystem: block size and inode ratio from the profile, feature
 * edits in the order base_features, the type's features, -O; the size
 * rounded down to a page multiple when it comes from the device; 64bit
 * filesystems over 2^32 blocks lose resize_inode; inode count from the
 * ratio, capped at 2^32 - 1.
 */
#ifndef MKFS_PLAN_H
#define MKFS_PLAN_H

#include <ext2fs/ext2fs.h>

#include "options.h"
#include "profile.h"
#include "target.h"

/* The encoding flags of a casefold filesystem without -E encoding_flags=. */
#define E2FOLD_MKFS_DEFAULT_ENCODING_FLAGS E2FOLD_ENC_NO_COMPAT_FALLBACK_FL

struct mkfs_plan {
	struct ext2_super_block param;	/* for ext2fs_initialize() */
	struct mkfs_profile profile;
	__u64 bytes;			/* size of the filesystem */
	__u64 offset;			/* -E offset=: where it starts */
	int lazy_itable_init;
	int journal_flags;		/* EXT2_MKJOURNAL_* */
	int discard;
	int def_hash_version;
	unsigned char uuid[16];
	unsigned char hash_seed[16];
	uid_t root_uid;
	gid_t root_gid;
	unsigned long long journal_mb;	/* 0: libext2fs's size for the fs */
	int creator_os;			/* -1: libext2fs's (Linux) */
	const char *last_mounted;	/* NULL: none */
	/* -O quota: the types tune2fs -Q makes inodes for; "" without */
	char quota_types[32];
	int packed_meta_blocks;		/* tables, then the journal, first */
	int itable_zeroed;		/* assume_storage_prezeroed: no wipe */
	blk64_t orphan_file_blocks;	/* 0: libext2fs's default */
	int android_sparse;		/* through the sparse io manager */
};

/*
 * Decide the filesystem for opt on target. Prints the reason and returns
 * EXT2_ET_INVALID_ARGUMENT when the options or the size do not make a
 * filesystem (too small, too large for the block size, contradictory
 * features...).
 */
errcode_t mkfs_plan_make(const struct mkfs_options *opt,
			 const struct mkfs_target *target,
			 struct mkfs_plan *plan);

#endif /* MKFS_PLAN_H */
