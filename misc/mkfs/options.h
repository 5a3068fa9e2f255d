/*
 * options.h: the command line of e2fold-mkfs, parsed into a struct.
 *
 *   e2fold-mkfs [options] DEVICE|FILE [SIZE]
 *
 * Options are spelled as mke2fs spells them where mke2fs has them. The
 * parser checks syntax only; what the values mean for a filesystem of a
 * given size is decided in plan.c.
 */
#ifndef MKFS_OPTIONS_H
#define MKFS_OPTIONS_H

#include <sys/types.h>

#include <ext2fs/ext2fs.h>

#include "encoding.h"
#include "extopts.h"

/*
 * SIZE as given: a number with a k/M/G/T suffix is a size in bytes; a bare
 * number counts blocks of the -b size, or of 1 KiB without -b (as mke2fs).
 */
struct mkfs_size {
	unsigned long long value;
	int in_bytes;
};

struct mkfs_options {
	const char *device;
	int have_size;
	struct mkfs_size size;

	const char *fs_type;		/* -t; NULL means ext4 */
	unsigned int blocksize;		/* -b; 0: from the profile */
	unsigned int inode_size;	/* -I; 0: from the profile */
	unsigned int inode_ratio;	/* -i; 0: from the profile */
	unsigned long long num_inodes;	/* -N; 0: from the inode ratio */
	double reserved_ratio;		/* -m; negative: from the profile */
	const char *label;		/* -L */
	const char *uuid;		/* -U, as given */
	char *features;			/* every -O, joined with ',' */
	int force;			/* -F */
	int noaction;			/* -n */
	int quiet;			/* -q */
	const char *source;		/* -d */
	const char *report_path;	/* --report */
	int verbose;			/* -v: accepted; the output is the same */
	unsigned long long journal_mb;	/* -J size=; 0: from the size */
	unsigned int flex_bg_size;	/* -G; 0: from the profile */
	unsigned int blocks_per_group;	/* -g; 0: from the block size */
	unsigned int cluster_size;	/* -C; 0: from the profile */
	int creator_os;			/* -o; -1: Linux, as libext2fs sets */
	const char *last_mounted;	/* -M */
	int errors_behavior;		/* -e; 0: the default */
	const char *usage_types;	/* -T; NULL: from the size */
	int progress_fd;		/* --progress: -1 none, 0 a bar */
	const char *undo_file;		/* -z */
	const char *bad_blocks_file;	/* -l */
	int check_blocks;		/* -c: 1 read-only, -cc: 2 read-write */
	int super_only;			/* -S */
	int direct_io;			/* -D */

	/* -E */
	const struct e2fold_encoding *encoding;	/* encoding=; NULL if not given */
	int have_encoding_flags;
	__u16 encoding_flags;		/* encoding_flags= */
	int have_hash_seed;
	unsigned char hash_seed[16];	/* hash_seed= */
	int have_root_owner;
	uid_t root_uid;			/* root_owner=UID:GID */
	gid_t root_gid;
	int discard;			/* discard / nodiscard; default on */
	int lazy_itable_init;		/* -1: default */
	int lazy_journal_init;
	int test_fs;
	int have_resize;
	struct mkfs_size resize;	/* resize=: the most blocks to grow to */
	unsigned long long offset;	/* offset=: bytes before the filesystem */
	int casefold_root;
	int casefold_all;		/* casefold_dirs=all */
	char **casefold_dirs;		/* casefold_dirs=DIR:DIR... */
	size_t n_casefold_dirs, casefold_dirs_cap;
	enum e2fold_collisions collisions;
	unsigned int raid_stride;	/* stride= */
	unsigned int raid_stripe_width;	/* stripe_width= */
	int num_backup_sb;		/* num_backup_sb=; -1: two */
	unsigned int mmp_update_interval; /* seconds; 0: libext2fs's (5) */
	unsigned int desc_size;		/* desc_size=; 0: 64 with 64bit */
	int packed_meta_blocks;		/* tables and journal at the start */
	int assume_prezeroed;		/* assume_storage_prezeroed= */
	unsigned int quota_types;	/* quotatype=: MKFS_QUOTA_* bits */
	int android_sparse;		/* write an Android sparse image */
	struct mkfs_size orphan_file_size; /* orphan_file_size=; 0: default */
	int no_copy_xattrs;		/* -d copies no extended attributes */
};

/* The quota types -O quota makes inodes for (-E quotatype=). */
#define MKFS_QUOTA_USR	0x1
#define MKFS_QUOTA_GRP	0x2
#define MKFS_QUOTA_PRJ	0x4

/* The quota types: bit, name (as tune2fs -Q takes it), mke2fs's short name. */
struct mkfs_quota_type {
	unsigned int bit;
	const char *name, *short_name;
};
#define MKFS_NQUOTA_TYPES 3
extern const struct mkfs_quota_type mkfs_quota_types[MKFS_NQUOTA_TYPES];

/*
 * Parse argv into opt. Prints the reason and returns EXT2_ET_INVALID_ARGUMENT
 * on a usage error. -V and --help print and exit 0 here: they are the one
 * place where parsing ends the program.
 */
errcode_t mkfs_parse_options(int argc, char **argv, struct mkfs_options *opt);

void mkfs_free_options(struct mkfs_options *opt);

#endif /* MKFS_OPTIONS_H */
