/* profile.c: Debian 12's mke2fs.conf as a table. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <et/com_err.h>

#include "mkfs.h"
#include "profile.h"

/* One [fs_types] section; 0 and NULL mean "not set here". */
struct section {
	const char *name;
	const char *features;
	int blocksize;
	unsigned int inode_ratio;
};

static const struct section sections[] = {
	{ .name = "ext3", .features = "has_journal" },
	{ .name = "ext4", .features = "has_journal,extent,huge_file,flex_bg,"
		"metadata_csum,64bit,dir_nlink,extra_isize" },
	{ .name = "small", .blocksize = 1024, .inode_ratio = 4096 },
	{ .name = "floppy", .blocksize = 1024, .inode_ratio = 8192 },
	{ .name = "big", .inode_ratio = 32768 },
	{ .name = "huge", .inode_ratio = 65536 },
	{ .name = "news", .inode_ratio = 4096 },
	{ .name = "largefile", .blocksize = -1, .inode_ratio = 1048576 },
	{ .name = "largefile4", .blocksize = -1, .inode_ratio = 4194304 },
};

/* [defaults], and the built-in values mke2fs uses where it has none. */
static const struct mkfs_profile defaults = {
	.base_features = "sparse_super,large_file,filetype,resize_inode,"
		"dir_index,ext_attr",
	.default_mntopts = "acl,user_xattr",
	.blocksize = 4096,
	.inode_size = 256,
	.inode_ratio = 16384,
	.reserved_ratio = 5.0,
	.flex_bg_size = 16,
	.hash_alg = "half_md4",
	.encoding = "utf8",
};

static const struct section *find_section(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (!strcmp(sections[i].name, name))
			return &sections[i];
	return NULL;
}

/* mke2fs's size classes, by the size in MiB. */
static const char *size_type(blk64_t blocks, unsigned int blocksize)
{
	unsigned long long meg = (1024 * 1024) / blocksize;

	if (blocks < 3 * meg)
		return "floppy";
	if (blocks < 512 * meg)
		return "small";
	if (blocks < 4ULL * 1024 * 1024 * meg)
		return "default";
	if (blocks < 16ULL * 1024 * 1024 * meg)
		return "big";
	return "huge";
}

static void apply_section(struct mkfs_profile *p, const struct section *s)
{
	if (p->ntypes == MKFS_PROFILE_MAX_TYPES)
		return;
	p->types[p->ntypes] = s->name;
	p->features[p->ntypes] = s->features;
	p->ntypes++;
	if (s->blocksize)
		p->blocksize = s->blocksize;
	if (s->inode_ratio)
		p->inode_ratio = s->inode_ratio;
}

/*
 * -T's comma-separated usage types, each a section, in order; a type
 * that has none is named and skipped, as mke2fs does.
 */
static void apply_usage_types(struct mkfs_profile *p, const char *types)
{
	const char *t = types;

	while (*t) {
		size_t len = strcspn(t, ",");
		const struct section *sec = NULL;
		size_t i;

		for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
			if (strlen(sections[i].name) == len &&
			    !strncmp(sections[i].name, t, len))
				sec = &sections[i];
		if (sec)
			apply_section(p, sec);
		else if (len)
			fprintf(stderr, "%s: warning: the usage type '%.*s' is "
				"not defined; ignored\n", mkfs_prog, (int)len, t);
		t += len;
		if (*t)
			t++;
	}
}

errcode_t mkfs_profile_get(const char *fs_type, const char *usage_types,
			   blk64_t size_blocks, unsigned int blocksize,
			   struct mkfs_profile *ret)
{
	const struct section *ext, *sized;

	if (!fs_type)
		fs_type = "ext4";
	ext = find_section(fs_type);
	/* ext2 has no section of its own: the defaults are ext2. */
	if (!ext && strcmp(fs_type, "ext2")) {
		com_err(mkfs_prog, 0,
			"unknown filesystem type '%s' (known: ext2, ext3, ext4)",
			fs_type);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	*ret = defaults;
	if (ext)
		apply_section(ret, ext);
	if (usage_types) {
		apply_usage_types(ret, usage_types);
		return 0;
	}
	/* "default" names no section: [defaults] applies as it is. */
	sized = find_section(size_type(size_blocks, blocksize));
	if (sized)
		apply_section(ret, sized);
	return 0;
}
