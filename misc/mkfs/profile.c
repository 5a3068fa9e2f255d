/*
 * profile.c: mke2fs.conf, read as mke2fs reads it (MKE2FS_CONFIG, else
 * /etc/mke2fs.conf), with Debian 12's file built in for a machine that
 * has none (or a file that defines no filesystem type).
 *
 * The part of the format mke2fs's defaults use: "[defaults]" and
 * "[fs_types]" sections, "key = value" relations, in [fs_types] one
 * "name = { ... }" subsection per type; '#' and ';' start comments. Of
 * the keys, those that decide what e2fold-mkfs makes are read:
 * base_features, features, default_mntopts, blocksize, inode_size,
 * inode_ratio, reserved_ratio, flex_bg_size, hash_alg, cluster_size,
 * encoding. Other keys and sections ([options], per-type
 * enable_periodic_fsck, hugefiles...) are ignored.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <et/com_err.h>

#include "mkfs.h"
#include "profile.h"

#define MAX_SECTIONS 64

/* One [fs_types] subsection; 0 and NULL mean "not set here". */
struct section {
	const char *name;
	const char *features;
	int blocksize;
	unsigned int inode_ratio;
	unsigned int inode_size;
	int has_reserved_ratio;
	double reserved_ratio;
	unsigned int flex_bg_size;
	unsigned int cluster_size;
	const char *hash_alg;
};

static const struct section builtin_sections[] = {
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
static const struct mkfs_profile builtin_defaults = {
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

/*
 * The profile in force, read once per process (kept for its lifetime:
 * the strings point into it).
 */
static struct {
	int loaded;
	const struct section *sections;
	size_t nsections;
	struct mkfs_profile defaults;
	struct section file_sections[MAX_SECTIONS];
} prof;

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	if (end - s >= 2 && *s == '"' && end[-1] == '"') {
		end[-1] = '\0';
		s++;
	}
	return s;
}

/* A key of [defaults] or of a type's subsection (sec NULL: [defaults]). */
static void set_key(struct section *sec, const char *key, char *value)
{
	struct mkfs_profile *d = &prof.defaults;
	char *copy = strdup(value);
	long n = strtol(value, NULL, 0);

	if (!copy)
		return;
	if (!strcmp(key, "features") && sec)
		sec->features = copy;
	else if (!strcmp(key, "base_features") && !sec)
		d->base_features = copy;
	else if (!strcmp(key, "default_mntopts") && !sec)
		d->default_mntopts = copy;
	else if (!strcmp(key, "encoding") && !sec)
		d->encoding = copy;
	else if (!strcmp(key, "hash_alg"))
		*(sec ? &sec->hash_alg : &d->hash_alg) = copy;
	else {
		free(copy);
		if (!strcmp(key, "blocksize"))
			*(sec ? &sec->blocksize : &d->blocksize) = n;
		else if (!strcmp(key, "inode_ratio"))
			*(sec ? &sec->inode_ratio : &d->inode_ratio) = n;
		else if (!strcmp(key, "inode_size"))
			*(sec ? &sec->inode_size : &d->inode_size) = n;
		else if (!strcmp(key, "flex_bg_size"))
			*(sec ? &sec->flex_bg_size : &d->flex_bg_size) = n;
		else if (!strcmp(key, "cluster_size"))
			*(sec ? &sec->cluster_size : &d->cluster_size) = n;
		else if (!strcmp(key, "reserved_ratio") && sec) {
			sec->reserved_ratio = strtod(value, NULL);
			sec->has_reserved_ratio = 1;
		} else if (!strcmp(key, "reserved_ratio"))
			d->reserved_ratio = strtod(value, NULL);
	}
}

/* One line of the file, in the state the lines before left. */
static void read_line(char *line, char *section, size_t size,
		      struct section **sub)
{
	char *s = trim(line), *eq;

	if (!*s || *s == '#' || *s == ';')
		return;
	if (*s == '[') {
		snprintf(section, size, "%.*s", (int)strcspn(s + 1, "]"), s + 1);
		*sub = NULL;
		return;
	}
	if (*s == '}') {
		*sub = NULL;
		return;
	}
	eq = strchr(s, '=');
	if (!eq)
		return;
	*eq = '\0';
	s = trim(s);
	eq = trim(eq + 1);
	if (!strcmp(section, "fs_types") && !strcmp(eq, "{")) {
		if (prof.nsections < MAX_SECTIONS && (*sub =
		    &prof.file_sections[prof.nsections])->name == NULL &&
		    ((*sub)->name = strdup(s)))
			prof.nsections++;
		else
			*sub = NULL;
		return;
	}
	if (!strcmp(section, "fs_types") && *sub)
		set_key(*sub, s, eq);
	else if (!strcmp(section, "defaults"))
		set_key(NULL, s, eq);
}

static void load_profile(void)
{
	const char *path = getenv("MKE2FS_CONFIG");
	char line[1024], section[64] = "";
	struct section *sub = NULL;
	FILE *f;

	prof.loaded = 1;
	prof.defaults = builtin_defaults;
	prof.sections = builtin_sections;
	prof.nsections = sizeof(builtin_sections) / sizeof(builtin_sections[0]);
	f = fopen(path && *path ? path : "/etc/mke2fs.conf", "r");
	if (!f)
		return;
	prof.sections = prof.file_sections;
	prof.nsections = 0;
	while (fgets(line, sizeof(line), f))
		read_line(line, section, sizeof(section), &sub);
	fclose(f);
	/* A file that defines no type (empty, /dev/null): the built-in ones. */
	if (!prof.nsections) {
		prof.sections = builtin_sections;
		prof.nsections = sizeof(builtin_sections) /
			sizeof(builtin_sections[0]);
	}
}

static const struct section *find_section(const char *name)
{
	size_t i;

	for (i = 0; i < prof.nsections; i++)
		if (!strcmp(prof.sections[i].name, name))
			return &prof.sections[i];
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
	if (s->inode_size)
		p->inode_size = s->inode_size;
	if (s->has_reserved_ratio)
		p->reserved_ratio = s->reserved_ratio;
	if (s->flex_bg_size)
		p->flex_bg_size = s->flex_bg_size;
	if (s->cluster_size)
		p->cluster_size = s->cluster_size;
	if (s->hash_alg)
		p->hash_alg = s->hash_alg;
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

		for (i = 0; i < prof.nsections; i++)
			if (strlen(prof.sections[i].name) == len &&
			    !strncmp(prof.sections[i].name, t, len))
				sec = &prof.sections[i];
		if (sec)
			apply_section(p, sec);
		else if (len)
			fprintf(stderr, "%s: warning: the usage type '%.*s' is "
				"not defined in mke2fs.conf; ignored\n",
				mkfs_prog, (int)len, t);
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

	if (!prof.loaded)
		load_profile();
	if (!fs_type)
		fs_type = "ext4";
	ext = find_section(fs_type);
	/* ext2 needs no section of its own: the defaults are ext2. */
	if (!ext && strcmp(fs_type, "ext2")) {
		com_err(mkfs_prog, 0,
			"unknown filesystem type '%s' (known: ext2, ext3, ext4)",
			fs_type);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	*ret = prof.defaults;
	ret->ntypes = 0;
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
