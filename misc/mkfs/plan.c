/* plan.c: options + profile + size -> the superblock template. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <e2p/e2p.h>
#include <et/com_err.h>

#include "hashalg.h"
#include "mkfs.h"
#include "plan.h"
#include "uuid.h"

#define MAX_32_NUM ((1ULL << 32) - 1)

/*
 * The features e2fold-mkfs can make itself: mke2fs's list without
 * journal_dev (an external journal is made on its own device) and quota
 * (its inodes need libquota, which the system libext2fs does not
 * export: run.c has the system tune2fs add them afterwards).
 */
static __u32 ok_features[3] = {
	[E2P_FEATURE_COMPAT] = EXT3_FEATURE_COMPAT_HAS_JOURNAL |
		EXT2_FEATURE_COMPAT_RESIZE_INODE |
		EXT2_FEATURE_COMPAT_DIR_INDEX |
		EXT2_FEATURE_COMPAT_EXT_ATTR |
		EXT4_FEATURE_COMPAT_SPARSE_SUPER2 |
		EXT4_FEATURE_COMPAT_FAST_COMMIT |
		EXT4_FEATURE_COMPAT_STABLE_INODES |
		EXT4_FEATURE_COMPAT_ORPHAN_FILE,
	[E2P_FEATURE_INCOMPAT] = EXT2_FEATURE_INCOMPAT_FILETYPE |
		EXT3_FEATURE_INCOMPAT_EXTENTS |
		EXT2_FEATURE_INCOMPAT_META_BG |
		EXT4_FEATURE_INCOMPAT_FLEX_BG |
		EXT4_FEATURE_INCOMPAT_EA_INODE |
		EXT4_FEATURE_INCOMPAT_MMP |
		EXT4_FEATURE_INCOMPAT_64BIT |
		EXT4_FEATURE_INCOMPAT_INLINE_DATA |
		EXT4_FEATURE_INCOMPAT_ENCRYPT |
		EXT4_FEATURE_INCOMPAT_CASEFOLD |
		EXT4_FEATURE_INCOMPAT_CSUM_SEED |
		EXT4_FEATURE_INCOMPAT_LARGEDIR,
	[E2P_FEATURE_RO_INCOMPAT] = EXT2_FEATURE_RO_COMPAT_LARGE_FILE |
		EXT4_FEATURE_RO_COMPAT_HUGE_FILE |
		EXT4_FEATURE_RO_COMPAT_DIR_NLINK |
		EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE |
		EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER |
		EXT4_FEATURE_RO_COMPAT_GDT_CSUM |
		EXT4_FEATURE_RO_COMPAT_BIGALLOC |
		EXT4_FEATURE_RO_COMPAT_METADATA_CSUM |
		EXT4_FEATURE_RO_COMPAT_PROJECT |
		EXT4_FEATURE_RO_COMPAT_VERITY,
};

static errcode_t invalid(const char *fmt, const char *arg)
{
	com_err(mkfs_prog, 0, fmt, arg);
	return EXT2_ET_INVALID_ARGUMENT;
}

static int log2_of(unsigned long long v)
{
	int n = 0;

	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

static unsigned int page_size(void)
{
	long v = sysconf(_SC_PAGESIZE);

	return v > 0 ? (unsigned int)v : 4096;
}

/*
 * The size in units of unit bytes (the -b size, or 1 KiB without -b, as
 * mke2fs counts until the block size is known).
 */
static errcode_t size_in_units(const struct mkfs_options *opt,
			       const struct mkfs_target *target,
			       unsigned int unit, blk64_t *ret)
{
	blk64_t count, page_units;

	if (opt->have_size) {
		count = opt->size.in_bytes ? opt->size.value / unit :
			opt->size.value;
		if (!count)
			return invalid("%s", "SIZE is smaller than one block");
		if (target->is_blockdev && !opt->force &&
		    count > target->size_bytes / unit) {
			com_err(mkfs_prog, 0, "%s: the size given is larger than "
				"the device (%llu bytes); use -F to force",
				target->name,
				(unsigned long long)target->size_bytes);
			return EXT2_ET_INVALID_ARGUMENT;
		}
		*ret = count;
		return 0;
	}
	if (!target->exists)
		return invalid("%s does not exist; give a SIZE to create it",
			       target->name);
	/* With -E offset= and no SIZE, what follows the offset, as mke2fs. */
	if (opt->offset >= target->size_bytes) {
		com_err(mkfs_prog, 0, "%s: offset %llu is past its end",
			target->name, opt->offset);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	count = (target->size_bytes - opt->offset) / unit;
	/* A device's size is used in whole pages, as mke2fs does. */
	page_units = page_size() > unit ? page_size() / unit : 1;
	count &= ~(page_units - 1);
	if (!count)
		return invalid("%s is empty; give a SIZE", target->name);
	*ret = count;
	return 0;
}

static errcode_t edit_features(const char *list, struct ext2_super_block *p)
{
	int type_err = 0;
	unsigned int mask_err = 0;

	if (!list || !*list)
		return 0;
	if (!e2p_edit_feature2(list, &p->s_feature_compat, ok_features, NULL,
			       &type_err, &mask_err))
		return 0;
	if (!mask_err)
		return invalid("unknown feature in '%s'", list);
	com_err(mkfs_prog, 0, "feature '%s' %s", e2p_feature2string(
			type_err & E2P_FEATURE_TYPE_MASK, mask_err),
		(type_err & E2P_FEATURE_NEGATE_FLAG) ?
		"cannot be cleared here" :
		"is not supported by e2fold-mkfs");
	return EXT2_ET_INVALID_ARGUMENT;
}

/*
 * quota comes out of a feature list (a profile's or -O's; *want_quota
 * becomes 1 for quota, 0 for ^quota, and is left alone if the list
 * names neither), for the system tune2fs to add once the filesystem is
 * written (its inodes need libquota). The rest goes back in *ret_rest
 * (free it).
 */
static errcode_t take_quota(const char *list, int *want_quota,
			    char **ret_rest)
{
	char *copy, *rest, *tok, *save = NULL;

	*ret_rest = NULL;
	if (!list)
		return 0;
	copy = strdup(list);
	rest = calloc(1, strlen(list) + 1);
	if (!copy || !rest) {
		free(copy);
		free(rest);
		return EXT2_ET_NO_MEMORY;
	}
	for (tok = strtok_r(copy, ", \t", &save); tok;
	     tok = strtok_r(NULL, ", \t", &save)) {
		if (!strcmp(tok, "quota") || !strcmp(tok, "^quota")) {
			*want_quota = *tok != '^';
			continue;
		}
		if (*rest)
			strcat(rest, ",");
		strcat(rest, tok);
	}
	free(copy);
	*ret_rest = rest;
	return 0;
}

/*
 * -E quotatype=: prjquota sets the project feature, and the project
 * feature adds prjquota, as in mke2fs. With -O quota the types go to
 * tune2fs -Q; a quota feature with no type needs no inode, and is set
 * here.
 */
static void plan_quota(const struct mkfs_options *opt, int want_quota,
		       struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	unsigned int bits = opt->quota_types;
	size_t i, used = 0;

	if (bits & MKFS_QUOTA_PRJ)
		ext2fs_set_feature_project(p);
	if (ext2fs_has_feature_project(p))
		bits |= MKFS_QUOTA_PRJ;
	if (!want_quota)
		return;
	if (!bits)
		ext2fs_set_feature_quota(p);
	for (i = 0; i < MKFS_NQUOTA_TYPES; i++)
		if (bits & mkfs_quota_types[i].bit)
			used += snprintf(plan->quota_types + used,
					 sizeof(plan->quota_types) - used,
					 "%s%s", used ? "," : "",
					 mkfs_quota_types[i].name);
}

/* list applied to p, its quota or ^quota into *want_quota (take_quota). */
static errcode_t edit_features_but_quota(const char *list,
					 struct ext2_super_block *p,
					 int *want_quota)
{
	char *rest;
	errcode_t retval = take_quota(list, want_quota, &rest);

	if (!retval)
		retval = edit_features(rest, p);
	free(rest);
	return retval;
}

static errcode_t plan_features(const struct mkfs_options *opt,
			       struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	errcode_t retval;
	int default_csum_seed, want_quota = 0;
	size_t i;

	retval = edit_features_but_quota(plan->profile.base_features, p,
					 &want_quota);
	for (i = 0; !retval && i < plan->profile.ntypes; i++)
		retval = edit_features_but_quota(plan->profile.features[i], p,
						 &want_quota);
	default_csum_seed = ext2fs_has_feature_csum_seed(p);
	if (!retval)
		retval = edit_features_but_quota(opt->features, p,
						 &want_quota);
	if (retval)
		return retval;
	plan_quota(opt, want_quota, plan);
	/*
	 * The orphan file lives in the journal's transactions: without a
	 * journal mke2fs drops the feature without a word (Debian 13's
	 * mke2fs.conf asks for it in every ext4), and so does e2fold-mkfs.
	 */
	if (ext2fs_has_feature_orphan_file(p) && !ext2fs_has_feature_journal(p))
		ext2fs_clear_feature_orphan_file(p);
	/*
	 * The same for a metadata_csum_seed the profile asked for (Debian
	 * 13's does) once -O ^metadata_csum took metadata_csum away; asked
	 * for by the user, it is refused below.
	 */
	if (default_csum_seed && !ext2fs_has_feature_metadata_csum(p))
		ext2fs_clear_feature_csum_seed(p);
	if (e2p_edit_mntopts(plan->profile.default_mntopts,
			     &p->s_default_mount_opts, ~0U))
		return invalid("bad default mount options '%s'",
			       plan->profile.default_mntopts);
	if (ext2fs_has_feature_64bit(p) && !ext2fs_has_feature_extents(p))
		return invalid("%s", "64bit needs the extent feature "
			       "(add -O extent)");
	if (ext2fs_has_feature_meta_bg(p) && ext2fs_has_feature_resize_inode(p))
		return invalid("%s", "resize_inode and meta_bg cannot both be set");
	if (ext2fs_has_feature_resize_inode(p) &&
	    !ext2fs_has_feature_sparse_super(p))
		return invalid("%s", "resize_inode needs sparse_super");
	if (ext2fs_has_feature_bigalloc(p) && !ext2fs_has_feature_extents(p))
		return invalid("%s", "bigalloc needs the extent feature");
	if (ext2fs_has_feature_csum_seed(p) &&
	    !ext2fs_has_feature_metadata_csum(p))
		return invalid("%s", "metadata_csum_seed needs metadata_csum");
	/* metadata_csum supersedes uninit_bg, as in mke2fs. */
	if (ext2fs_has_feature_metadata_csum(p))
		ext2fs_clear_feature_gdt_csum(p);
	return 0;
}

/* The block size, and the size converted from 1 KiB units to it. */
static errcode_t plan_blocksize(const struct mkfs_options *opt,
				const struct mkfs_target *target,
				struct mkfs_plan *plan, blk64_t *count)
{
	unsigned int bs = opt->blocksize;

	if (!bs) {
		int want = plan->profile.blocksize;

		bs = want == -1 ? page_size() : (unsigned int)want;
		if (target->sector_size > bs)
			bs = target->sector_size;
		*count /= bs / 1024;
	} else if (target->sector_size > bs) {
		com_err(mkfs_prog, 0, "block size %u is smaller than the "
			"sector size %u of %s", bs, target->sector_size,
			target->name);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	if (bs > page_size() && !opt->force) {
		com_err(mkfs_prog, 0, "%u-byte blocks are larger than the page "
			"size (%u): Linux cannot mount this filesystem; use -F "
			"to make it anyway", bs, page_size());
		return EXT2_ET_INVALID_ARGUMENT;
	}
	plan->param.s_log_block_size = log2_of(bs >> EXT2_MIN_BLOCK_LOG_SIZE);
	return 0;
}

/* Block numbers must fit the filesystem's fields and group count. */
static errcode_t plan_block_count(struct mkfs_plan *plan, blk64_t count)
{
	struct ext2_super_block *p = &plan->param;
	unsigned int bs = EXT2_BLOCK_SIZE(p);

	if (count > MAX_32_NUM) {
		if (!ext2fs_has_feature_64bit(p)) {
			com_err(mkfs_prog, 0, "%llu blocks of %u bytes do not fit "
				"32-bit block numbers: enable 64bit or use "
				"larger blocks", (unsigned long long)count, bs);
			return EXT2_ET_INVALID_ARGUMENT;
		}
		/* The resize inode maps blocks with 32-bit numbers. */
		ext2fs_clear_feature_resize_inode(p);
	}
	if (count > (1ULL << (EXT2_BLOCK_SIZE_BITS(p) + 3 + 32)) - 1) {
		com_err(mkfs_prog, 0, "%llu blocks of %u bytes are too many: "
			"the group count would not fit 32 bits",
			(unsigned long long)count, bs);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	ext2fs_blocks_count_set(p, count);
	plan->bytes = (__u64)count * bs;
	if (ext2fs_has_feature_64bit(p))
		p->s_desc_size = EXT2_MIN_DESC_SIZE_64BIT;
	return 0;
}

/* -E desc_size=: larger 64bit group descriptors, at most a block. */
static errcode_t plan_desc_size(const struct mkfs_options *opt,
				struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;

	if (!opt->desc_size)
		return 0;
	if (!ext2fs_has_feature_64bit(p))
		return invalid("%s", "desc_size needs the 64bit feature "
			       "(-O 64bit)");
	if (opt->desc_size > (unsigned int)EXT2_BLOCK_SIZE(p))
		return invalid("%s", "desc_size is larger than a block");
	p->s_desc_size = opt->desc_size;
	return 0;
}

/*
 * -O casefold takes the profile's encoding (utf8); -E encoding= names one
 * and implies the feature. -E encoding_flags= sets the flags (they need
 * the feature); without it a casefold filesystem gets no_compat_fallback.
 * That flag is safe here because e2fold-mkfs writes every casefolded
 * directory itself, each entry in the block its hash leads to, and it
 * spares kernels from 6.12 on a linear scan of the whole directory
 * after every hashed miss, which is every create of a new name
 * (doc/kernel-facts.md, "The compat fallback"). Linux 6.1 ignores it.
 */
static errcode_t plan_encoding(const struct mkfs_options *opt,
			       struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	const struct e2fold_encoding *enc = opt->encoding;

	if (enc)
		ext2fs_set_feature_casefold(p);
	if (!ext2fs_has_feature_casefold(p)) {
		if (opt->have_encoding_flags)
			return invalid("%s", "encoding_flags needs the casefold "
				       "feature (-O casefold or -E encoding=utf8)");
		return 0;
	}
	if (!enc)
		enc = e2fold_encoding_by_name(plan->profile.encoding);
	p->s_encoding = enc->magic;
	p->s_encoding_flags = opt->have_encoding_flags ? opt->encoding_flags :
			      E2FOLD_MKFS_DEFAULT_ENCODING_FLAGS;
	return 0;
}

static errcode_t plan_cluster_and_flex(const struct mkfs_options *opt,
				       struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	unsigned int bs = EXT2_BLOCK_SIZE(p);

	if (opt->cluster_size && !ext2fs_has_feature_bigalloc(p))
		return invalid("%s", "a cluster size (-C) needs the bigalloc "
			       "feature");
	if (opt->flex_bg_size && !ext2fs_has_feature_flex_bg(p))
		return invalid("%s", "a flex_bg size (-G) needs the flex_bg "
			       "feature");
	if (ext2fs_has_feature_bigalloc(p)) {
		unsigned int cs = opt->cluster_size ? opt->cluster_size :
			plan->profile.cluster_size ?
			plan->profile.cluster_size : bs * 16;

		if (cs < bs)
			return invalid("%s", "the cluster size (-C) is smaller "
				       "than the block size");
		p->s_log_cluster_size = log2_of(cs >> EXT2_MIN_CLUSTER_LOG_SIZE);
	} else {
		p->s_log_cluster_size = p->s_log_block_size;
	}
	if (ext2fs_has_feature_flex_bg(p))
		p->s_log_groups_per_flex = log2_of(opt->flex_bg_size ?
			opt->flex_bg_size : plan->profile.flex_bg_size);
	if (opt->blocks_per_group) {
		if (opt->blocks_per_group > EXT2_MAX_BLOCKS_PER_GROUP(p))
			return invalid("%s", "blocks per group (-g) out of "
				       "range for the block size");
		p->s_blocks_per_group = opt->blocks_per_group;
	}
	return 0;
}

static errcode_t plan_inodes(const struct mkfs_options *opt,
			     struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	unsigned int bs = EXT2_BLOCK_SIZE(p);
	unsigned int isize = opt->inode_size ? opt->inode_size :
		plan->profile.inode_size;
	unsigned long long ratio = opt->inode_ratio, n = opt->num_inodes;
	char buf[64];

	/* A project ID lives in the large inode: 256 bytes unless -I says. */
	if (ext2fs_has_feature_project(p) && !opt->inode_size &&
	    isize < 2 * EXT2_GOOD_OLD_INODE_SIZE)
		isize = 2 * EXT2_GOOD_OLD_INODE_SIZE;
	if (ext2fs_has_feature_project(p) && isize == EXT2_GOOD_OLD_INODE_SIZE)
		return invalid("%s", "128-byte inodes are too small for "
			       "project quota");

	if (isize < EXT2_GOOD_OLD_INODE_SIZE || isize > bs ||
	    (isize & (isize - 1))) {
		com_err(mkfs_prog, 0, "invalid inode size %u (a power of 2 "
			"from %d to the block size %u)", isize,
			EXT2_GOOD_OLD_INODE_SIZE, bs);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	if (ext2fs_has_feature_inline_data(p) &&
	    isize == EXT2_GOOD_OLD_INODE_SIZE)
		return invalid("%s", "128-byte inodes are too small for "
			       "inline_data");
	p->s_inode_size = isize;
	if (!ratio) {
		ratio = plan->profile.inode_ratio;
		if (ratio < bs)
			ratio = bs;
		if (ratio < (unsigned int)EXT2_CLUSTER_SIZE(p))
			ratio = (unsigned int)EXT2_CLUSTER_SIZE(p);
	}
	if (!n) {
		n = ext2fs_blocks_count(p) * bs / ratio;
		if (n > MAX_32_NUM && ext2fs_has_feature_64bit(p))
			n = MAX_32_NUM;
	}
	if (n > MAX_32_NUM) {
		snprintf(buf, sizeof(buf), "%llu", n);
		return invalid("too many inodes (%s): at most 2^32 - 1; raise "
			       "the inode ratio (-i) or lower -N", buf);
	}
	p->s_inodes_count = n;
	if ((unsigned long long)n * isize >= ext2fs_blocks_count(p) * bs) {
		com_err(mkfs_prog, 0, "%llu inodes of %u bytes do not fit a "
			"filesystem of %llu blocks; raise the inode ratio (-i) "
			"or lower the inode count (-N)", n, isize,
			(unsigned long long)ext2fs_blocks_count(p));
		return EXT2_ET_INVALID_ARGUMENT;
	}
	return 0;
}

static errcode_t plan_identity(const struct mkfs_options *opt,
			       struct mkfs_plan *plan)
{
	errcode_t retval = 0;
	int hash;

	if (!opt->uuid || !strcasecmp(opt->uuid, "random") ||
	    !strcasecmp(opt->uuid, "time"))
		retval = mkfs_uuid_random(plan->uuid);
	else if (!strcasecmp(opt->uuid, "clear") ||
		 !strcasecmp(opt->uuid, "null"))
		memset(plan->uuid, 0, sizeof(plan->uuid));
	else
		retval = mkfs_uuid_parse(opt->uuid, plan->uuid);
	if (!retval && opt->have_hash_seed)
		memcpy(plan->hash_seed, opt->hash_seed, sizeof(plan->hash_seed));
	else if (!retval)
		retval = mkfs_uuid_random(plan->hash_seed);
	if (retval) {
		com_err(mkfs_prog, retval, "while making a UUID");
		return retval;
	}
	/*
	 * s_def_hash_version holds legacy, half_md4 or tea; the superblock's
	 * flag says whether they are signed. As in mke2fs, a hash_alg that
	 * cannot be used leaves half_md4.
	 */
	if (e2fold_hash_alg_parse(plan->profile.hash_alg, &hash, NULL) ||
	    hash > EXT2_HASH_TEA)
		hash = EXT2_HASH_HALF_MD4;
	plan->def_hash_version = hash;
	if (opt->have_root_owner) {
		plan->root_uid = opt->root_uid;
		plan->root_gid = opt->root_gid;
	}
	return 0;
}

/*
 * -E resize=N: enough reserved GDT blocks for the descriptors of N
 * blocks, less those the filesystem has already, at most one block of
 * addresses; the resize inode carries them. Counted as mke2fs does.
 */
static errcode_t plan_resize(const struct mkfs_options *opt,
			     struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	unsigned int bs = EXT2_BLOCK_SIZE(p);
	unsigned long long bpg = opt->blocks_per_group ?
		opt->blocks_per_group : bs * 8ULL;
	unsigned long long max, groups, want;
	unsigned int per_block = EXT2_DESC_PER_BLOCK(p);
	long long rsv;

	if (!opt->have_resize)
		return 0;
	max = opt->resize.in_bytes ? opt->resize.value / bs : opt->resize.value;
	if (max <= ext2fs_blocks_count(p)) {
		com_err(mkfs_prog, 0, "resize=%llu blocks: the maximum must be "
			"larger than the filesystem (%llu blocks)", max,
			(unsigned long long)ext2fs_blocks_count(p));
		return EXT2_ET_INVALID_ARGUMENT;
	}
	groups = (ext2fs_blocks_count(p) + bpg - 1) / bpg;
	want = (max + bpg - 1) / bpg;
	rsv = (long long)((want + per_block - 1) / per_block) -
		(long long)((groups + per_block - 1) / per_block);
	if (rsv > (long long)EXT2_ADDR_PER_BLOCK(p))
		rsv = EXT2_ADDR_PER_BLOCK(p);
	if (rsv > 0) {
		ext2fs_set_feature_resize_inode(p);
		p->s_reserved_gdt_blocks = rsv;
	}
	return 0;
}

/*
 * -E orphan_file_size=: blocks, or bytes with a suffix; kept for
 * layout.c, which makes the orphan file (mke2fs ignores the size
 * without the feature, and so does e2fold-mkfs).
 */
static errcode_t plan_orphan_file(const struct mkfs_options *opt,
				  struct mkfs_plan *plan)
{
	const struct mkfs_size *size = &opt->orphan_file_size;
	unsigned int bs = EXT2_BLOCK_SIZE(&plan->param);

	if (!size->value)
		return 0;
	plan->orphan_file_blocks = size->in_bytes ? size->value / bs :
		size->value;
	if (!plan->orphan_file_blocks)
		return invalid("%s", "orphan_file_size is smaller than a block");
	if (plan->orphan_file_blocks >= ext2fs_blocks_count(&plan->param) / 2)
		return invalid("%s", "orphan_file_size is more than half the "
			       "filesystem");
	return 0;
}

/*
 * -E android_sparse: the system libext2fs has the sparse io manager
 * only when it was built with libsparse; without, its open fails with
 * EXT2_ET_UNIMPLEMENTED whatever the name (with, an empty name is
 * refused as a bad one), so the lack is found before anything is
 * written. mke2fs fails later with the same error.
 */
static errcode_t plan_android_sparse(const struct mkfs_options *opt,
				     struct mkfs_plan *plan)
{
	io_channel channel = NULL;
	errcode_t retval;

	if (!opt->android_sparse)
		return 0;
	retval = sparse_io_manager->open("", IO_FLAG_RW, &channel);
	if (retval == EXT2_ET_UNIMPLEMENTED) {
		com_err(mkfs_prog, retval, "while setting up an Android sparse "
			"image (-E android_sparse): the system libext2fs was "
			"built without libsparse");
		return retval;
	}
	if (!retval)
		io_channel_close(channel);
	plan->android_sparse = 1;
	return 0;
}

errcode_t mkfs_plan_make(const struct mkfs_options *opt,
			 const struct mkfs_target *target,
			 struct mkfs_plan *plan)
{
	struct ext2_super_block *p = &plan->param;
	unsigned int unit = opt->blocksize ? opt->blocksize : 1024;
	double ratio;
	blk64_t count;
	errcode_t retval;

	memset(plan, 0, sizeof(*plan));
	p->s_rev_level = EXT2_DYNAMIC_REV;
	retval = size_in_units(opt, target, unit, &count);
	if (retval)
		return retval;
	retval = mkfs_profile_get(opt->fs_type, opt->usage_types, count, unit,
				  &plan->profile);
	if (!retval)
		retval = plan_features(opt, plan);
	if (!retval)
		retval = plan_blocksize(opt, target, plan, &count);
	if (!retval)
		retval = plan_block_count(plan, count);
	if (!retval)
		retval = plan_desc_size(opt, plan);
	if (!retval)
		retval = plan_encoding(opt, plan);
	if (!retval)
		retval = plan_cluster_and_flex(opt, plan);
	if (!retval)
		retval = plan_inodes(opt, plan);
	if (!retval)
		retval = plan_identity(opt, plan);
	if (!retval)
		retval = plan_resize(opt, plan);
	if (!retval)
		retval = plan_orphan_file(opt, plan);
	if (!retval)
		retval = plan_android_sparse(opt, plan);
	if (retval)
		return retval;
	ratio = opt->reserved_ratio >= 0 ? opt->reserved_ratio :
		plan->profile.reserved_ratio;
	ext2fs_r_blocks_count_set(p, ratio * ext2fs_blocks_count(p) / 100.0);
	if (opt->test_fs)
		p->s_flags |= EXT2_FLAGS_TEST_FILESYS;
	/*
	 * sparse_super2 keeps two backups, group 1 and the last group, or
	 * fewer with num_backup_sb.
	 */
	if (ext2fs_has_feature_sparse_super2(p)) {
		int n = opt->num_backup_sb >= 0 ? opt->num_backup_sb : 2;

		p->s_backup_bgs[0] = n >= 1 ? 1 : 0;
		p->s_backup_bgs[1] = n >= 2 ? ~0U : 0;
	} else if (opt->num_backup_sb >= 0) {
		return invalid("%s", "num_backup_sb needs the sparse_super2 "
			       "feature");
	}
	p->s_raid_stride = opt->raid_stride;
	p->s_raid_stripe_width = opt->raid_stripe_width;
	p->s_errors = opt->errors_behavior;
	plan->journal_mb = opt->journal_mb;
	plan->creator_os = opt->creator_os;
	plan->last_mounted = opt->last_mounted;
	/* Every kernel e2fold targets zeroes inode tables lazily. */
	plan->lazy_itable_init = opt->lazy_itable_init >= 0 ?
		opt->lazy_itable_init : 1;
	plan->journal_flags = EXT2_MKJOURNAL_NO_MNT_CHECK |
		(opt->lazy_journal_init ? EXT2_MKJOURNAL_LAZYINIT : 0);
	plan->discard = opt->discard;
	plan->offset = opt->offset;
	p->s_mmp_update_interval = opt->mmp_update_interval;
	plan->packed_meta_blocks = opt->packed_meta_blocks;
	/* Storage known to read back zeros: nothing needs wiping. */
	if (opt->assume_prezeroed) {
		plan->lazy_itable_init = 1;
		plan->itable_zeroed = 1;
		plan->journal_flags |= EXT2_MKJOURNAL_LAZYINIT;
	}
	return 0;
}
