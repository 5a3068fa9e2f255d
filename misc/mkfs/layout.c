/* layout.c: the empty filesystem, written in mke2fs's order. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <et/com_err.h>

#include "encoding.h"
#include "layout.h"
#include "mkfs.h"

#define DISCARD_STEP (2ULL << 30)	/* bytes discarded per call */
#define END_WIPE 65536			/* bytes zeroed at the end (MD RAID sb) */
#define LOST_FOUND_BYTES (16 * 1024)

static void progress(const struct mkfs_layout *l, const char *what)
{
	if (!l->quiet) {
		fputs(what, stdout);
		fflush(stdout);
	}
}

static void done(const struct mkfs_layout *l)
{
	if (!l->quiet)
		puts("done");
}

/*
 * Discard the whole target. When the device (or, for an image file, the
 * file system holding it) guarantees zeros afterwards, the inode tables
 * need not be written: returns 1 then.
 */
static int discard_all(ext2_filsys fs)
{
	blk64_t blocks = ext2fs_blocks_count(fs->super), cur = 0;
	blk64_t step = DISCARD_STEP / fs->blocksize;

	while (cur < blocks) {
		blk64_t n = blocks - cur < step ? blocks - cur : step;

		if (io_channel_discard(fs->io, cur, n))
			return 0;
		cur += n;
	}
	return io_channel_discard_zeroes_data(fs->io) ? 1 : 0;
}

/* Zero bytes 1024-4095: an old superblock there must not survive a crash. */
static errcode_t wipe_old_superblock(ext2_filsys fs)
{
	char buf[6 * 512];
	errcode_t retval;

	memset(buf, 0, sizeof(buf));
	io_channel_set_blksize(fs->io, 512);
	retval = io_channel_write_blk64(fs->io, 2, -(int)sizeof(buf), buf);
	io_channel_set_blksize(fs->io, fs->blocksize);
	return retval;
}

/*
 * Zero the first 1024 bytes (boot sector, partition table), unless they
 * hold a BSD disklabel (magic 0x82564557 at byte 64, either byte order),
 * which describes the disk rather than an old filesystem.
 */
static errcode_t wipe_boot_sectors(ext2_filsys fs)
{
	static const __u32 bsd_magic = 0x82564557, bsd_magic_swapped = 0x57455682;
	char buf[2 * 512];
	__u32 magic;
	errcode_t retval;

	io_channel_set_blksize(fs->io, 512);
	retval = io_channel_read_blk64(fs->io, 0, -512, buf);
	if (!retval) {
		memcpy(&magic, buf + 64, sizeof(magic));
		if (magic == bsd_magic || magic == bsd_magic_swapped) {
			io_channel_set_blksize(fs->io, fs->blocksize);
			return 0;
		}
		memset(buf, 0, sizeof(buf));
		retval = io_channel_write_blk64(fs->io, 0, -(int)sizeof(buf),
						buf);
	}
	io_channel_set_blksize(fs->io, fs->blocksize);
	if (retval)
		com_err(mkfs_prog, retval, "while erasing the boot sectors");
	return retval;
}

/* Zero the end, where MD RAID and others keep metadata of their own. */
static errcode_t wipe_end(ext2_filsys fs)
{
	blk64_t rsv = END_WIPE / fs->blocksize;
	blk64_t blocks = ext2fs_blocks_count(fs->super);
	blk64_t start = blocks & ~(rsv - 1), bad = 0;
	errcode_t retval;

	if (start > rsv)
		start -= rsv;
	if (start == 0)
		return 0;
	retval = ext2fs_zero_blocks2(fs, start, blocks - start, &bad, NULL);
	if (retval)
		com_err(mkfs_prog, retval, "while zeroing block %llu at the end "
			"of the filesystem", (unsigned long long)bad);
	return retval;
}

static void bb_out_of_range(ext2_filsys fs, blk_t blk)
{
	fprintf(stderr, "%s: bad block %u is outside the filesystem; "
		"ignored\n", mkfs_prog, blk);
}

/* Mark (or unmark) every block of the bad blocks list in the bitmap. */
static errcode_t mark_bad_blocks(ext2_filsys fs, ext2_badblocks_list bb,
				 int mark)
{
	ext2_badblocks_iterate it;
	blk_t blk;
	errcode_t retval;

	if (!bb)
		return 0;
	retval = ext2fs_badblocks_list_iterate_begin(bb, &it);
	if (retval)
		return retval;
	while (ext2fs_badblocks_list_iterate(it, &blk)) {
		if (mark)
			ext2fs_mark_block_bitmap2(fs->block_map, blk);
		else
			ext2fs_unmark_block_bitmap2(fs->block_map, blk);
	}
	ext2fs_badblocks_list_iterate_end(it);
	return 0;
}

/*
 * -c: badblocks -b BLOCKSIZE -X [-s] [-w] DEVICE LAST, as mke2fs runs it
 * (-X: the mount check is ours), its output read as a -l list.
 */
static errcode_t run_badblocks(ext2_filsys fs, struct mkfs_layout *l)
{
	char bs[16], last[32];
	const char *argv[10];
	int n = 0, fds[2], status;
	pid_t pid;
	FILE *f;
	errcode_t retval;

	snprintf(bs, sizeof(bs), "%u", fs->blocksize);
	snprintf(last, sizeof(last), "%llu",
		 (unsigned long long)ext2fs_blocks_count(fs->super) - 1);
	argv[n++] = "badblocks";
	argv[n++] = "-b";
	argv[n++] = bs;
	argv[n++] = "-X";
	if (!l->quiet)
		argv[n++] = "-s";
	if (l->check_blocks > 1)
		argv[n++] = "-w";
	argv[n++] = fs->device_name;
	argv[n++] = last;
	argv[n] = NULL;
	if (pipe(fds) < 0) {
		retval = errno;
		com_err(mkfs_prog, retval, "while running badblocks");
		return retval;
	}
	pid = fork();
	if (pid < 0) {
		retval = errno;
		close(fds[0]);
		close(fds[1]);
		com_err(mkfs_prog, retval, "while running badblocks");
		return retval;
	}
	if (!pid) {
		close(fds[0]);
		if (dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(127);
		close(fds[1]);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "%s: cannot run badblocks: %s\n", mkfs_prog,
			strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (!f) {
		retval = errno;
		close(fds[0]);
		waitpid(pid, &status, 0);
		com_err(mkfs_prog, retval, "while reading badblocks' output");
		return retval;
	}
	retval = ext2fs_read_bb_FILE(fs, f, &l->bb_list, bb_out_of_range);
	fclose(f);
	if (waitpid(pid, &status, 0) < 0 && !retval)
		retval = errno;
	if (retval) {
		com_err(mkfs_prog, retval, "while reading badblocks' list");
		return retval;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		com_err(mkfs_prog, 0, "badblocks on %s failed (status %d)",
			fs->device_name, WIFEXITED(status) ?
			WEXITSTATUS(status) : -1);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	return 0;
}

/*
 * -l: read the list. The primary superblock and descriptors must be good
 * (nothing could be made); a bad backup is warned of, as mke2fs does.
 */
static errcode_t read_bad_blocks(ext2_filsys fs, struct mkfs_layout *l)
{
	FILE *f;
	errcode_t retval;
	blk64_t first = fs->super->s_first_data_block, last, b;
	dgrp_t g;
	unsigned long j;

	if (!l->bad_blocks_file && !l->check_blocks)
		return 0;
	if (!l->bad_blocks_file)
		goto check;
	f = fopen(l->bad_blocks_file, "r");
	if (!f) {
		retval = errno;
		com_err(mkfs_prog, retval, "while opening the bad blocks list "
			"%s", l->bad_blocks_file);
		return retval;
	}
	retval = ext2fs_read_bb_FILE(fs, f, &l->bb_list, bb_out_of_range);
	fclose(f);
	if (retval) {
		com_err(mkfs_prog, retval, "while reading the bad blocks list "
			"%s", l->bad_blocks_file);
		return retval;
	}
check:
	if (l->check_blocks) {
		retval = run_badblocks(fs, l);
		if (retval)
			return retval;
	}
	if (!l->bb_list)
		return 0;
	last = first + 1 + fs->desc_blocks;
	for (b = first; b <= last; b++) {
		if (ext2fs_badblocks_list_test(l->bb_list, b)) {
			com_err(mkfs_prog, 0, "block %llu is bad (%s), in the "
				"primary superblock and group descriptors: "
				"blocks %llu to %llu must be good to make a "
				"filesystem", (unsigned long long)b,
				l->bad_blocks_file && !l->check_blocks ?
				l->bad_blocks_file : "-l or -c",
				(unsigned long long)first,
				(unsigned long long)last);
			return EXT2_ET_INVALID_ARGUMENT;
		}
	}
	for (g = 1; g < fs->group_desc_count; g++) {
		b = ext2fs_group_first_block2(fs, g);
		for (j = 0; j <= fs->desc_blocks; j++) {
			if (!ext2fs_bg_has_super(fs, g) ||
			    !ext2fs_badblocks_list_test(l->bb_list, b + j))
				continue;
			fprintf(stderr, "%s: warning: the backup superblock "
				"and descriptors at block %llu have bad "
				"blocks\n", mkfs_prog, (unsigned long long)b);
			break;
		}
	}
	return mark_bad_blocks(fs, l->bb_list, 1);
}

/* The next free block from *goal on, taken; *goal is left on it. */
static errcode_t take_block(ext2_filsys fs, blk64_t *goal)
{
	errcode_t retval = ext2fs_new_block2(fs, *goal, NULL, goal);

	if (!retval)
		ext2fs_block_alloc_stats2(fs, *goal, +1);
	return retval;
}

/*
 * -E packed_meta_blocks with flex_bg: every block bitmap, then every
 * inode bitmap, then every inode table, one after the other from the
 * start of the filesystem (after the superblocks and descriptors), as
 * mke2fs packs them, so that the metadata is in one place (on flash,
 * for instance) and the rest holds data only.
 */
static errcode_t allocate_packed_tables(ext2_filsys fs)
{
	blk64_t goal = fs->super->s_first_data_block;
	blk64_t last = ext2fs_blocks_count(fs->super) - 1;
	errcode_t retval = 0;
	dgrp_t g;

	for (g = 0; !retval && g < fs->group_desc_count; g++) {
		retval = take_block(fs, &goal);
		if (!retval)
			ext2fs_block_bitmap_loc_set(fs, g, goal);
	}
	for (g = 0; !retval && g < fs->group_desc_count; g++) {
		retval = take_block(fs, &goal);
		if (!retval)
			ext2fs_inode_bitmap_loc_set(fs, g, goal);
	}
	for (g = 0; !retval && g < fs->group_desc_count; g++) {
		retval = ext2fs_get_free_blocks2(fs, goal, last,
						 fs->inode_blocks_per_group,
						 fs->block_map, &goal);
		if (retval)
			break;
		ext2fs_block_alloc_stats_range(fs, goal,
					       fs->inode_blocks_per_group, +1);
		ext2fs_inode_table_loc_set(fs, g, goal);
		ext2fs_group_desc_csum_set(fs, g);
	}
	return retval;
}

static errcode_t allocate_tables(ext2_filsys fs, const struct mkfs_layout *l,
				 blk64_t *ret_overhead)
{
	errcode_t retval;

	progress(l, "Allocating group tables: ");
	if (l->plan->packed_meta_blocks &&
	    ext2fs_has_feature_flex_bg(fs->super))
		retval = allocate_packed_tables(fs);
	else
		retval = ext2fs_allocate_tables(fs);
	/* Bad blocks are no overhead: out of the bitmap while counting. */
	if (!retval)
		retval = mark_bad_blocks(fs, l->bb_list, 0);
	if (!retval)
		retval = ext2fs_convert_subcluster_bitmap(fs, &fs->block_map);
	if (!retval)
		retval = ext2fs_count_used_clusters(fs,
				fs->super->s_first_data_block,
				ext2fs_blocks_count(fs->super) - 1,
				ret_overhead);
	if (!retval)
		retval = mark_bad_blocks(fs, l->bb_list, 1);
	if (retval) {
		com_err(mkfs_prog, retval, "while allocating group tables");
		return retval;
	}
	done(l);
	return 0;
}

/*
 * Inode tables: with lazy init only the part in use is zeroed (the kernel
 * zeroes the rest); after a zeroing discard nothing is, and every group
 * is marked zeroed.
 */
static errcode_t write_inode_tables(ext2_filsys fs, int lazy, int zeroed,
				    const struct mkfs_layout *l)
{
	unsigned int isize = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *zero;
	errcode_t retval;
	ext2_ino_t ino;
	dgrp_t g;

	progress(l, "Writing inode tables: ");
	for (g = 0; g < fs->group_desc_count; g++) {
		blk64_t blk = ext2fs_inode_table_loc(fs, g);
		int num = fs->inode_blocks_per_group;

		if (lazy)
			num = ext2fs_div_ceil((fs->super->s_inodes_per_group -
					       ext2fs_bg_itable_unused(fs, g)) *
					      isize, fs->blocksize);
		if (!lazy || zeroed) {
			ext2fs_bg_flags_set(fs, g, EXT2_BG_INODE_ZEROED);
			ext2fs_group_desc_csum_set(fs, g);
		}
		if (!zeroed && num) {
			retval = ext2fs_zero_blocks2(fs, blk, num, &blk, &num);
			if (retval) {
				com_err(mkfs_prog, retval, "while writing %d "
					"inode table blocks at %llu", num,
					(unsigned long long)blk);
				return retval;
			}
		}
	}
	/* Reserved inodes are never written otherwise: give them checksums. */
	if (ext2fs_has_feature_metadata_csum(fs->super)) {
		retval = ext2fs_get_memzero(isize, &zero);
		if (retval)
			return retval;
		for (ino = 1; ino < EXT2_FIRST_INO(fs->super) && !retval; ino++)
			retval = ext2fs_write_inode_full(fs, ino,
					(struct ext2_inode *)zero, isize);
		ext2fs_free_mem(&zero);
		if (retval) {
			com_err(mkfs_prog, retval, "while writing reserved inodes");
			return retval;
		}
	}
	done(l);
	return 0;
}

static errcode_t set_casefold_flag(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_inode inode;
	errcode_t retval = ext2fs_read_inode(fs, ino, &inode);

	if (retval)
		return retval;
	inode.i_flags |= EXT4_CASEFOLD_FL;
	return ext2fs_write_inode(fs, ino, &inode);
}

static errcode_t create_root(ext2_filsys fs, const struct mkfs_layout *l)
{
	const struct mkfs_plan *plan = l->plan;
	struct ext2_inode inode;
	errcode_t retval;

	retval = ext2fs_mkdir(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, 0);
	if (!retval && (plan->root_uid || plan->root_gid)) {
		retval = ext2fs_read_inode(fs, EXT2_ROOT_INO, &inode);
		if (!retval) {
			inode.i_uid = plan->root_uid;
			ext2fs_set_i_uid_high(inode, plan->root_uid >> 16);
			inode.i_gid = plan->root_gid;
			ext2fs_set_i_gid_high(inode, plan->root_gid >> 16);
			retval = ext2fs_write_new_inode(fs, EXT2_ROOT_INO, &inode);
		}
	}
	if (!retval && l->root_casefold)
		retval = set_casefold_flag(fs, EXT2_ROOT_INO);
	if (retval)
		com_err(mkfs_prog, retval, "while creating the root directory");
	return retval;
}

errcode_t mkfs_grow_lost_found(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_inode inode;
	unsigned int size = 0;
	errcode_t retval;
	int i;

	retval = ext2fs_read_inode(fs, ino, &inode);
	if (retval || (inode.i_flags & EXT2_INDEX_FL))
		return retval;
	/* At least two blocks, so that large empty blocks get tested. */
	for (i = 1; i < EXT2_NDIR_BLOCKS; i++) {
		size += fs->blocksize;
		if (size >= LOST_FOUND_BYTES && size >= 2 * fs->blocksize)
			break;
		if (size < inode.i_size)
			continue;
		retval = ext2fs_expand_dir(fs, ino);
		if (retval)
			return retval;
	}
	return 0;
}

static errcode_t create_lost_found(ext2_filsys fs, struct mkfs_layout *l)
{
	static const char name[] = "lost+found";
	errcode_t retval;

	fs->umask = 077;
	retval = ext2fs_mkdir(fs, EXT2_ROOT_INO, 0, name);
	fs->umask = 022;
	if (!retval)
		retval = ext2fs_lookup(fs, EXT2_ROOT_INO, name, sizeof(name) - 1,
				       0, &l->lost_found);
	if (!retval && l->root_casefold)
		retval = set_casefold_flag(fs, l->lost_found);
	if (!retval)
		retval = mkfs_grow_lost_found(fs, l->lost_found);
	if (retval)
		com_err(mkfs_prog, retval, "while creating /lost+found");
	return retval;
}

/* Inodes 3 to s_first_ino - 1 are reserved; 1 lists the bad blocks (-l). */
static errcode_t reserve_inodes(ext2_filsys fs, ext2_badblocks_list bb)
{
	errcode_t retval;
	ext2_ino_t ino;

	for (ino = EXT2_ROOT_INO + 1; ino < EXT2_FIRST_INODE(fs->super); ino++)
		ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	ext2fs_mark_ib_dirty(fs);
	ext2fs_mark_inode_bitmap2(fs->inode_map, EXT2_BAD_INO);
	ext2fs_inode_alloc_stats2(fs, EXT2_BAD_INO, +1, 0);
	retval = ext2fs_update_bb_inode(fs, bb);
	if (!retval && ext2fs_has_feature_resize_inode(fs->super))
		retval = ext2fs_create_resize_inode(fs);
	if (retval)
		com_err(mkfs_prog, retval, "while setting up the reserved inodes");
	return retval;
}

/*
 * -J size=MiB, with mke2fs's bounds: the journal and its fast-commit
 * area (sized by libext2fs, kept only with the fast_commit feature)
 * between 1024 and 10,240,000 blocks, and at most half the free blocks.
 */
static errcode_t journal_size(ext2_filsys fs, unsigned long long mb,
			      struct ext2fs_journal_params *jparams)
{
	unsigned long long blocks = mb * 1024 / (fs->blocksize / 1024);
	unsigned long long total;

	if (!ext2fs_has_feature_fast_commit(fs->super))
		jparams->num_fc_blocks = 0;
	total = blocks + jparams->num_fc_blocks;
	if (total < 1024 || total > 10240000) {
		com_err(mkfs_prog, 0, "a journal of %llu blocks: it must have "
			"1024 to 10240000", total);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	if (total > ext2fs_free_blocks_count(fs->super) / 2) {
		com_err(mkfs_prog, 0, "a journal of %llu MiB is too big for "
			"the filesystem", mb);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	jparams->num_journal_blocks = blocks;
	return 0;
}

/*
 * The journal's size is fixed by the filesystem's size (or -J size=). A filesystem too
 * small for one gets none, as mke2fs does. Returns the blocks used.
 */
static errcode_t create_journal(ext2_filsys fs, const struct mkfs_layout *l,
				blk64_t *ret_blocks)
{
	struct ext2fs_journal_params jparams;
	char what[64];
	errcode_t retval;

	*ret_blocks = 0;
	if (!ext2fs_has_feature_journal(fs->super))
		return 0;
	if (ext2fs_get_journal_params(&jparams, fs) ||
	    !jparams.num_journal_blocks) {
		fprintf(stderr, "%s: filesystem too small for a journal; "
			"making it without one\n", mkfs_prog);
		ext2fs_clear_feature_journal(fs->super);
		ext2fs_clear_feature_orphan_file(fs->super);
		return 0;
	}
	if (l->plan->journal_mb) {
		retval = journal_size(fs, l->plan->journal_mb, &jparams);
		if (retval)
			return retval;
	}
	snprintf(what, sizeof(what), "Creating journal (%u blocks): ",
		 jparams.num_journal_blocks + jparams.num_fc_blocks);
	progress(l, what);
	/* Packed metadata: the journal follows it, from the start. */
	retval = ext2fs_add_journal_inode3(fs, &jparams,
					   l->plan->packed_meta_blocks ?
					   fs->super->s_first_data_block :
					   ~0ULL, l->plan->journal_flags);
	if (retval) {
		com_err(mkfs_prog, retval, "while creating the journal");
		return retval;
	}
	done(l);
	*ret_blocks = EXT2FS_NUM_B2C(fs, jparams.num_journal_blocks +
				     jparams.num_fc_blocks);
	return 0;
}

/*
 * With bigalloc the allocation statistics counted blocks where the group
 * descriptors count clusters: count the free clusters again from the
 * bitmap (the superblock's free count stays in blocks).
 */
static void recount_free_clusters(ext2_filsys fs)
{
	blk64_t total = 0;
	dgrp_t g;

	for (g = 0; g < fs->group_desc_count; g++) {
		blk64_t blk = ext2fs_group_first_block2(fs, g);
		blk64_t last = ext2fs_group_last_block2(fs, g), next;
		__u32 free = 0;

		while (blk <= last &&
		       !ext2fs_find_first_zero_block_bitmap2(fs->block_map, blk,
							    last, &next)) {
			blk = next;
			if (ext2fs_find_first_set_block_bitmap2(fs->block_map,
								blk, last,
								&next))
				next = last + 1;
			free += EXT2FS_NUM_B2C(fs, next - blk);
			total += next - blk;
			blk = next;
		}
		ext2fs_bg_free_blocks_count_set(fs, g, free);
		ext2fs_group_desc_csum_set(fs, g);
	}
	ext2fs_free_blocks_count_set(fs->super, total);
}

/*
 * -S: the descriptors must point where the tables were put, so place
 * them again; write nothing else. Every inode may hold data e2fsck can
 * recover: none is counted unused, and the filesystem needs a check.
 */
static errcode_t super_only(ext2_filsys fs, const struct mkfs_layout *l)
{
	blk64_t overhead;
	errcode_t retval;
	dgrp_t g;

	retval = allocate_tables(fs, l, &overhead);
	if (retval)
		return retval;
	fs->super->s_state |= EXT2_ERROR_FS;
	fs->flags &= ~(EXT2_FLAG_IB_DIRTY | EXT2_FLAG_BB_DIRTY);
	if (ext2fs_has_group_desc_csum(fs)) {
		for (g = 0; g < fs->group_desc_count; g++) {
			ext2fs_bg_itable_unused_set(fs, g, 0);
			ext2fs_group_desc_csum_set(fs, g);
		}
	}
	if (ext2fs_has_feature_journal(fs->super))
		fs->super->s_journal_inum = EXT2_JOURNAL_INO;
	return 0;
}

errcode_t mkfs_layout_write(ext2_filsys fs, struct mkfs_layout *l)
{
	int lazy = l->plan->lazy_itable_init, zeroed = 0;
	blk64_t overhead = 0, journal = 0;
	errcode_t retval;

	if (l->super_only)
		return super_only(fs, l);

	if ((l->plan->discard && l->target_has_data && discard_all(fs)) ||
	    l->plan->itable_zeroed) {
		lazy = 1;
		zeroed = 1;
	}
	retval = wipe_old_superblock(fs);
	if (retval) {
		com_err(mkfs_prog, retval, "while erasing the old superblock");
		return retval;
	}
	retval = read_bad_blocks(fs, l);
	if (!retval)
		retval = allocate_tables(fs, l, &overhead);
	if (!retval)
		retval = wipe_boot_sectors(fs);
	if (!retval)
		retval = wipe_end(fs);
	if (!retval)
		retval = write_inode_tables(fs, lazy, zeroed, l);
	if (!retval)
		retval = create_root(fs, l);
	if (!retval)
		retval = create_lost_found(fs, l);
	if (!retval)
		retval = reserve_inodes(fs, l->bb_list);
	if (l->bb_list) {
		ext2fs_badblocks_list_free(l->bb_list);
		l->bb_list = NULL;
	}
	if (!retval)
		retval = create_journal(fs, l, &journal);
	if (!retval && ext2fs_has_feature_mmp(fs->super)) {
		retval = ext2fs_mmp_init(fs);
		if (retval)
			com_err(mkfs_prog, retval, "while enabling multiple mount "
				"protection");
		else if (!l->quiet)
			printf("Multiple mount protection is enabled with "
			       "update interval %d seconds.\n",
			       fs->super->s_mmp_update_interval);
	}
	if (retval)
		return retval;
	fs->super->s_overhead_clusters = overhead + journal +
		fs->super->s_first_data_block;
	/* Bad blocks are in the bitmap only: count the free blocks again. */
	if (ext2fs_has_feature_bigalloc(fs->super) || l->bad_blocks_file ||
	    l->check_blocks)
		recount_free_clusters(fs);
	/* The orphan file comes last, as mke2fs makes it. */
	if (ext2fs_has_feature_orphan_file(fs->super)) {
		e2_blkcnt_t blocks = l->plan->orphan_file_blocks;

		if (!blocks)
			blocks = ext2fs_default_orphan_file_blocks(fs);
		retval = ext2fs_create_orphan_file(fs, blocks);
		if (retval)
			com_err(mkfs_prog, retval, "while creating the orphan "
				"file");
	}
	return retval;
}
