/* create.c: ext2fs_initialize() and the superblock fields around it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <et/com_err.h>

#include "create.h"
#include "mkfs.h"

/*
 * mke2fs marks a filesystem with any ext4-era feature as written to
 * (s_kbytes_written = 1) so that the kernel keeps counting from there.
 */
static int has_ext4_features(struct ext2_super_block *p)
{
	return ext2fs_has_feature_flex_bg(p) ||
	       ext2fs_has_feature_huge_file(p) ||
	       ext2fs_has_feature_gdt_csum(p) ||
	       ext2fs_has_feature_dir_nlink(p) ||
	       ext2fs_has_feature_metadata_csum(p) ||
	       ext2fs_has_feature_extra_isize(p);
}

static void set_identity(ext2_filsys fs, const struct mkfs_plan *plan)
{
	struct ext2_super_block *sb = fs->super;

	memcpy(sb->s_uuid, plan->uuid, sizeof(sb->s_uuid));
	if (ext2fs_has_feature_csum_seed(sb))
		sb->s_checksum_seed = ext2fs_crc32c_le(~0, sb->s_uuid,
						       sizeof(sb->s_uuid));
	/* Every checksum depends on the UUID: recompute the seed now. */
	ext2fs_init_csum_seed(fs);
	sb->s_def_hash_version = plan->def_hash_version;
	memcpy(sb->s_hash_seed, plan->hash_seed, sizeof(sb->s_hash_seed));
}

errcode_t mkfs_create(const char *device, const struct mkfs_plan *plan,
		      const char *label, io_manager io, int flags,
		      ext2_filsys *ret_fs)
{
	/* A copy: libext2fs's accessors take no const pointers. */
	struct ext2_super_block param = plan->param;
	ext2_filsys fs;
	struct ext2_super_block *sb;
	char *sparse_name = NULL;
	errcode_t retval;

	/* The sparse io manager takes "(FILE):BLOCKS:BLOCKSIZE" as its name. */
	if (io == sparse_io_manager) {
		retval = ext2fs_get_mem(strlen(device) + 48, &sparse_name);
		if (retval)
			return retval;
		sprintf(sparse_name, "(%s):%llu:%u", device,
			(unsigned long long)ext2fs_blocks_count(&param),
			EXT2_BLOCK_SIZE(&param));
	}
	retval = ext2fs_initialize(sparse_name ? sparse_name : device,
				   EXT2_FLAG_EXCLUSIVE | EXT2_FLAG_64BITS |
				   flags, &param, io, &fs);
	ext2fs_free_mem(&sparse_name);
	if (retval == EXT2_ET_TOOSMALL) {
		com_err(mkfs_prog, 0, "%s: %llu blocks of %u bytes are too few "
			"for the filesystem's own metadata; give a larger SIZE",
			device, (unsigned long long)ext2fs_blocks_count(&param),
			EXT2_BLOCK_SIZE(&param));
		return retval;
	}
	if (retval) {
		com_err(mkfs_prog, retval, "while setting up the superblock of %s",
			device);
		return retval;
	}
	/* -E offset=: every block from here on is that far into the device. */
	if (plan->offset) {
		char buf[40];

		snprintf(buf, sizeof(buf), "offset=%llu",
			 (unsigned long long)plan->offset);
		retval = io_channel_set_options(fs->io, buf);
		if (retval) {
			com_err(mkfs_prog, retval, "while setting %s", buf);
			ext2fs_free(fs);
			return retval;
		}
	}
	sb = fs->super;
	/* Inodes 1 to s_first_ino - 1 are reserved: there must be more. */
	if (sb->s_inodes_count <= EXT2_FIRST_INO(sb)) {
		com_err(mkfs_prog, 0, "%s: only %u inodes fit, fewer than the %u "
			"the filesystem reserves; give a larger SIZE or -N",
			device, sb->s_inodes_count, EXT2_FIRST_INO(sb));
		ext2fs_free(fs);
		return EXT2_ET_TOOSMALL;
	}
	if (has_ext4_features(&param))
		sb->s_kbytes_written = 1;
	set_identity(fs, plan);
	/* No periodic checks: mke2fs.conf's enable_periodic_fsck = 0. */
	sb->s_max_mnt_count = -1;
	/* ext2fs_initialize() always says Linux; mke2fs sets -o after it. */
	if (plan->creator_os >= 0)
		sb->s_creator_os = plan->creator_os;
	if (plan->last_mounted)
		strncpy((char *)sb->s_last_mounted, plan->last_mounted,
			sizeof(sb->s_last_mounted));
	if (label) {
		memset(sb->s_volume_name, 0, sizeof(sb->s_volume_name));
		strncpy((char *)sb->s_volume_name, label,
			sizeof(sb->s_volume_name));
	}
	if (ext2fs_has_feature_encrypt(sb)) {
		sb->s_encrypt_algos[0] = EXT4_ENCRYPTION_MODE_AES_256_XTS;
		sb->s_encrypt_algos[1] = EXT4_ENCRYPTION_MODE_AES_256_CTS;
	}
	if (ext2fs_has_feature_metadata_csum(sb))
		sb->s_checksum_type = EXT2_CRC32C_CHKSUM;
	*ret_fs = fs;
	return 0;
}
