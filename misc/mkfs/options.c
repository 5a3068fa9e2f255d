/* options.c: the command line of e2fold-mkfs into struct mkfs_options. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>

#include <e2p/e2p.h>

#include "array.h"
#include "mkfs.h"
#include "options.h"
#include "progress.h"
#include "uuid.h"
#include "version.h"

#define LABEL_MAX 16		/* s_volume_name */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [options] DEVICE|FILE [SIZE]\n"
		"  -t TYPE       ext4 (default), ext3 or ext2\n"
		"  -b SIZE       block size in bytes\n"
		"  -I SIZE       inode size in bytes\n"
		"  -i BYTES      bytes per inode\n"
		"  -N COUNT      number of inodes\n"
		"  -m PERCENT    blocks reserved for the super user\n"
		"  -L LABEL      volume label\n"
		"  -U UUID       filesystem UUID (or clear, random, time)\n"
		"  -O FEATURES   features to set, ^feature to clear\n"
		"  -j            add a journal (-O has_journal)\n"
		"  -J size=MiB   a journal of this size\n"
		"  -T TYPES      usage types (news, largefile, largefile4, small,\n"
		"                floppy, big, huge) instead of the size's\n"
		"  -G COUNT      groups per flex_bg\n"
		"  -g COUNT      blocks per group\n"
		"  -C SIZE       cluster size (with -O bigalloc)\n"
		"  -r 1          revision 1 (the only one made here)\n"
		"  -o OS         creator OS (Linux, FreeBSD, Lites)\n"
		"  -M DIR        last mounted directory\n"
		"  -e BEHAVIOR   on errors: continue, remount-ro or panic\n"
		"  -z FILE       save every block overwritten into FILE first\n"
		"                (e2undo FILE DEVICE restores them); no discard\n"
		"  -c            check the device with badblocks(8) first (-cc:\n"
		"                its destructive read-write test); as -l\n"
		"  -l FILE       mark the blocks FILE lists (one number a line,\n"
		"                as badblocks prints them) bad\n"
		"  -S            write the superblock and group descriptors only,\n"
		"                to recover a filesystem whose ones are lost\n"
		"                (then run e2fsck); the same options as at first\n"
		"  -D            direct I/O (O_DIRECT) to the device\n"
		"  -K            keep the device's blocks: no discard\n"
		"                (-E nodiscard)\n"
		"  -E OPTIONS    extended options, comma-separated:\n"
		"                  encoding=utf8, encoding_flags=FLAG[-FLAG]|none\n"
		"                    (strict, no_compat_fallback; default:\n"
		"                    no_compat_fallback),\n"
		"                  casefold_root, casefold_dirs=all|DIR[:DIR...],\n"
		"                  collisions=stop|rename, hash_seed=UUID,\n"
		"                  root_owner[=UID:GID] (alone: yours), discard,\n"
		"                  nodiscard,\n"
		"                  lazy_itable_init=0|1, lazy_journal_init=0|1, test_fs,\n"
		"                  stride=N, stripe_width=N, num_backup_sb=0|1|2,\n"
		"                  offset=BYTES (where the filesystem starts),\n"
		"                  resize=BLOCKS (room to grow online to),\n"
		"                  mmp_update_interval=SECONDS (with -O mmp),\n"
		"                  desc_size=BYTES (with -O 64bit),\n"
		"                  packed_meta_blocks=0|1 (tables and journal\n"
		"                    at the start), assume_storage_prezeroed=0|1,\n"
		"                  quotatype=usrquota:grpquota:prjquota (the\n"
		"                    quota inodes of -O quota), android_sparse,\n"
		"                  orphan_file_size=BLOCKS (with -O orphan_file),\n"
		"                  no_copy_xattrs (-d copies no extended\n"
		"                    attributes)\n"
		"  -d SOURCE     populate from a directory or an archive\n"
		"  --report FILE write a JSON report of the source check\n"
		"  --progress FD progress of populating, as e2fsck -C shows it:\n"
		"                numbers on descriptor FD, or a bar for 0\n"
		"  -F            overwrite an existing filesystem or partition table\n"
		"  -n            show what would be made; write nothing\n"
		"  -q            quiet\n"
		"  -v            accepted for mke2fs's sake (the same output)\n"
		"  -V            print the version\n"
		"  -h, --help    print this help\n"
		"SIZE takes a k, M, G or T suffix; without one it counts blocks.\n",
		mkfs_prog);
}

static errcode_t bad_value(const char *what, const char *value)
{
	com_err(mkfs_prog, 0, "invalid %s '%s'", what, value);
	return EXT2_ET_INVALID_ARGUMENT;
}

/* strtoull in any base, the whole string; -1 if it is not a number. */
static int parse_ull(const char *s, unsigned long long *ret)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*ret = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	return 0;
}

/* The shift of a size suffix: k=10, M=20, G=30, T=40, s=9 (sectors). */
static int suffix_shift(char c)
{
	switch (c) {
	case 's':
		return 9;
	case 'k': case 'K':
		return 10;
	case 'm': case 'M':
		return 20;
	case 'g': case 'G':
		return 30;
	case 't': case 'T':
		return 40;
	}
	return -1;
}

/* "123", "64G", "0x1000k". 0 or -1 (malformed or overflowing). */
static int parse_size(const char *s, struct mkfs_size *ret)
{
	char *end;
	unsigned long long v;
	int shift;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	if (!*end) {
		ret->value = v;
		ret->in_bytes = 0;
		return 0;
	}
	shift = suffix_shift(*end);
	if (shift < 0 || end[1])
		return -1;
	if (v > (~0ULL >> shift))
		return -1;
	ret->value = v << shift;
	ret->in_bytes = 1;
	return 0;
}

/* A byte count such as -b and -i take: "4096" or "4k". */
static int parse_bytes(const char *s, unsigned long long *ret)
{
	struct mkfs_size size;

	if (parse_size(s, &size))
		return -1;
	*ret = size.value;
	return 0;
}

static int is_power_of_two(unsigned long long v)
{
	return v && !(v & (v - 1));
}

/* Keep at most LABEL_MAX bytes, cutting before a UTF-8 character, not in it. */
static const char *fit_label(const char *label, char *buf)
{
	size_t len = strlen(label);

	if (len <= LABEL_MAX)
		return label;
	len = LABEL_MAX;
	while (len > 0 && ((unsigned char)label[len] & 0xC0) == 0x80)
		len--;
	memcpy(buf, label, len);
	buf[len] = '\0';
	fprintf(stderr, "%s: warning: label too long; truncated to '%s'\n",
		mkfs_prog, buf);
	return buf;
}

static errcode_t append_features(struct mkfs_options *opt, const char *arg)
{
	size_t old = opt->features ? strlen(opt->features) : 0;
	char *list = realloc(opt->features, old + strlen(arg) + 2);

	if (!list)
		return EXT2_ET_NO_MEMORY;
	if (old)
		list[old++] = ',';
	strcpy(list + old, arg);
	opt->features = list;
	return 0;
}

/* ------------------------------------------------------------------ */
/* -E: one handler per extended option.                                 */

typedef errcode_t (*ext_fn)(struct mkfs_options *opt, const char *arg);

static errcode_t ext_encoding(struct mkfs_options *opt, const char *arg)
{
	opt->encoding = e2fold_encoding_by_name(arg);
	if (!opt->encoding) {
		com_err(mkfs_prog, 0,
			"unknown encoding '%s' (known: utf8, utf8-12.1)", arg);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	return 0;
}

static errcode_t ext_encoding_flags(struct mkfs_options *opt, const char *arg)
{
	if (e2fold_encoding_flags_arg(mkfs_prog, arg, &opt->encoding_flags,
				      NULL))
		return EXT2_ET_INVALID_ARGUMENT;
	opt->have_encoding_flags = 1;
	return 0;
}

static errcode_t ext_hash_seed(struct mkfs_options *opt, const char *arg)
{
	if (mkfs_uuid_parse(arg, opt->hash_seed))
		return bad_value("hash_seed (not a UUID)", arg);
	opt->have_hash_seed = 1;
	return 0;
}

/* root_owner=UID:GID; root_owner alone is the caller's, as in mke2fs. */
static errcode_t ext_root_owner(struct mkfs_options *opt, const char *arg)
{
	unsigned long long uid, gid;
	const char *colon;
	char uidbuf[32];

	if (!arg) {
		opt->root_uid = getuid();
		opt->root_gid = getgid();
		opt->have_root_owner = 1;
		return 0;
	}
	colon = strchr(arg, ':');
	if (!colon || (size_t)(colon - arg) >= sizeof(uidbuf))
		return bad_value("root_owner (want UID:GID)", arg);
	memcpy(uidbuf, arg, colon - arg);
	uidbuf[colon - arg] = '\0';
	if (parse_ull(uidbuf, &uid) || parse_ull(colon + 1, &gid) ||
	    uid > 0xFFFFFFFFULL || gid > 0xFFFFFFFFULL)
		return bad_value("root_owner (want UID:GID)", arg);
	opt->root_uid = uid;
	opt->root_gid = gid;
	opt->have_root_owner = 1;
	return 0;
}

static errcode_t ext_discard(struct mkfs_options *opt, const char *arg)
{
	opt->discard = 1;
	return 0;
}

static errcode_t ext_nodiscard(struct mkfs_options *opt, const char *arg)
{
	opt->discard = 0;
	return 0;
}

/* "0" or "1"; a missing argument means 1, as mke2fs reads it. */
static int parse_bool(const char *arg, int *ret)
{
	if (!arg || !strcmp(arg, "1")) {
		*ret = 1;
		return 0;
	}
	if (!strcmp(arg, "0")) {
		*ret = 0;
		return 0;
	}
	return -1;
}

static errcode_t ext_test_fs(struct mkfs_options *opt, const char *arg)
{
	opt->test_fs = 1;
	return 0;
}

/* "all", or paths inside SOURCE separated by ':' (',' separates -E options). */
static errcode_t ext_casefold_dirs(struct mkfs_options *opt, const char *arg)
{
	const char *p = arg;

	if (!strcmp(arg, "all")) {
		opt->casefold_all = 1;
		return 0;
	}
	while (*p) {
		size_t len = strcspn(p, ":");
		char **list;

		if (len) {
			if (e2fold_array_reserve(&opt->casefold_dirs,
						 &opt->casefold_dirs_cap,
						 opt->n_casefold_dirs + 1,
						 sizeof(*list)))
				return EXT2_ET_NO_MEMORY;
			list = opt->casefold_dirs;
			list[opt->n_casefold_dirs] = strndup(p, len);
			if (!list[opt->n_casefold_dirs])
				return EXT2_ET_NO_MEMORY;
			opt->n_casefold_dirs++;
		}
		p += len;
		if (*p)
			p++;
	}
	if (!opt->n_casefold_dirs)
		return bad_value("casefold_dirs (want all or DIR[:DIR...])", arg);
	return 0;
}

static errcode_t ext_collisions(struct mkfs_options *opt, const char *arg)
{
	if (e2fold_collisions_arg(mkfs_prog, arg, &opt->collisions))
		return EXT2_ET_INVALID_ARGUMENT;
	return 0;
}

/* A decimal or hex number in [min, max] for an -E key or an option. */
static errcode_t parse_uint(const char *what, const char *arg,
			    unsigned long long min, unsigned long long max,
			    unsigned long long *ret)
{
	if (parse_ull(arg, ret) || *ret < min || *ret > max)
		return bad_value(what, arg);
	return 0;
}

static errcode_t ext_stride(struct mkfs_options *opt, const char *arg)
{
	unsigned long long v;
	errcode_t retval = parse_uint("stride", arg, 0, 0xFFFF, &v);

	opt->raid_stride = v;
	return retval;
}

static errcode_t ext_stripe_width(struct mkfs_options *opt, const char *arg)
{
	unsigned long long v;
	errcode_t retval = parse_uint("stripe_width", arg, 0, 0xFFFFFFFFULL,
				      &v);

	opt->raid_stripe_width = v;
	return retval;
}

/* offset=BYTES: the filesystem starts this far into the device. */
static errcode_t ext_offset(struct mkfs_options *opt, const char *arg)
{
	unsigned long long v;
	errcode_t retval = parse_uint("offset", arg, 0, ~0ULL >> 1, &v);

	opt->offset = v;
	return retval;
}

/* resize=N: blocks (or a size with a suffix) to reserve GDT room for. */
static errcode_t ext_resize(struct mkfs_options *opt, const char *arg)
{
	if (parse_size(arg, &opt->resize) || !opt->resize.value)
		return bad_value("resize", arg);
	opt->have_resize = 1;
	return 0;
}

static errcode_t ext_num_backup_sb(struct mkfs_options *opt, const char *arg)
{
	unsigned long long v;
	errcode_t retval = parse_uint("num_backup_sb (0, 1 or 2)", arg, 0, 2,
				      &v);

	opt->num_backup_sb = v;
	return retval;
}

/* mmp_update_interval=SECONDS: 0 is libext2fs's default, 300 its most. */
static errcode_t ext_mmp_update_interval(struct mkfs_options *opt,
					 const char *arg)
{
	unsigned long long v;
	errcode_t retval = parse_uint("mmp_update_interval (0 to 300 seconds)",
				      arg, 0, EXT4_MMP_MAX_UPDATE_INTERVAL, &v);

	opt->mmp_update_interval = v;
	return retval;
}

/*
 * desc_size=BYTES: a power of two from the 64 a 64bit descriptor needs
 * to the 1024 the kernel reads (mke2fs takes smaller and larger ones and
 * makes a filesystem e2fsck rejects, or crashes).
 */
static errcode_t ext_desc_size(struct mkfs_options *opt, const char *arg)
{
	unsigned long long v;

	if (parse_ull(arg, &v) || !is_power_of_two(v) ||
	    v < EXT2_MIN_DESC_SIZE_64BIT || v > EXT2_MAX_DESC_SIZE)
		return bad_value("desc_size (64, 128, 256, 512 or 1024)", arg);
	opt->desc_size = v;
	return 0;
}

const struct mkfs_quota_type mkfs_quota_types[MKFS_NQUOTA_TYPES] = {
	{ MKFS_QUOTA_USR, "usrquota", "usr" },
	{ MKFS_QUOTA_GRP, "grpquota", "grp" },
	{ MKFS_QUOTA_PRJ, "prjquota", "prj" },
};

static int word_is(const char *word, size_t len, const char *name)
{
	return strlen(name) == len && !strncmp(word, name, len);
}

/* The MKFS_QUOTA_* bit of a quota type word of len bytes; 0 if none. */
static unsigned int quota_type_bit(const char *word, size_t len)
{
	size_t i;

	for (i = 0; i < MKFS_NQUOTA_TYPES; i++)
		if (word_is(word, len, mkfs_quota_types[i].name) ||
		    word_is(word, len, mkfs_quota_types[i].short_name))
			return mkfs_quota_types[i].bit;
	return 0;
}

/*
 * quotatype=TYPE[:TYPE...]: usrquota, grpquota, prjquota (or usr, grp,
 * prj), each negated by a leading '^'; the list replaces the default
 * (user and group), as in mke2fs.
 */
static errcode_t ext_quotatype(struct mkfs_options *opt, const char *arg)
{
	const char *p = arg;
	unsigned int bits = 0;

	while (*p) {
		size_t len = strcspn(p, ":");
		int not = *p == '^';
		unsigned int bit = quota_type_bit(p + not, len - not);

		if (len && !bit)
			return bad_value("quotatype (usrquota, grpquota, "
					 "prjquota, joined with ':')", arg);
		bits = not ? bits & ~bit : bits | bit;
		p += len;
		if (*p)
			p++;
	}
	opt->quota_types = bits;
	return 0;
}

static errcode_t ext_no_copy_xattrs(struct mkfs_options *opt,
				    const char *arg)
{
	opt->no_copy_xattrs = 1;
	return 0;
}

static errcode_t ext_android_sparse(struct mkfs_options *opt, const char *arg)
{
	opt->android_sparse = 1;
	return 0;
}

/* orphan_file_size=N: blocks, or bytes with a suffix, as resize=. */
static errcode_t ext_orphan_file_size(struct mkfs_options *opt,
				      const char *arg)
{
	if (parse_size(arg, &opt->orphan_file_size) ||
	    !opt->orphan_file_size.value)
		return bad_value("orphan_file_size", arg);
	return 0;
}

enum ext_arg { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL };

/* A key with a handler of its own. */
#define EXT_FN(fn) fn, 0
/* A key whose value is 0 or 1 (1 when missing), kept in an int of opt. */
#define EXT_BOOL(field) NULL, offsetof(struct mkfs_options, field)

static const struct {
	const char *name;
	enum ext_arg arg;
	ext_fn fn;		/* NULL: an EXT_BOOL key */
	size_t bool_field;
} ext_options[] = {
	{ "encoding", ARG_REQUIRED, EXT_FN(ext_encoding) },
	{ "encoding_flags", ARG_REQUIRED, EXT_FN(ext_encoding_flags) },
	{ "hash_seed", ARG_REQUIRED, EXT_FN(ext_hash_seed) },
	{ "root_owner", ARG_OPTIONAL, EXT_FN(ext_root_owner) },
	{ "discard", ARG_NONE, EXT_FN(ext_discard) },
	{ "nodiscard", ARG_NONE, EXT_FN(ext_nodiscard) },
	{ "lazy_itable_init", ARG_OPTIONAL, EXT_BOOL(lazy_itable_init) },
	{ "lazy_journal_init", ARG_OPTIONAL, EXT_BOOL(lazy_journal_init) },
	{ "test_fs", ARG_NONE, EXT_FN(ext_test_fs) },
	{ "casefold_root", ARG_OPTIONAL, EXT_BOOL(casefold_root) },
	{ "casefold_dirs", ARG_REQUIRED, EXT_FN(ext_casefold_dirs) },
	{ "collisions", ARG_REQUIRED, EXT_FN(ext_collisions) },
	{ "stride", ARG_REQUIRED, EXT_FN(ext_stride) },
	{ "stripe_width", ARG_REQUIRED, EXT_FN(ext_stripe_width) },
	{ "stripe-width", ARG_REQUIRED, EXT_FN(ext_stripe_width) },
	{ "num_backup_sb", ARG_REQUIRED, EXT_FN(ext_num_backup_sb) },
	{ "offset", ARG_REQUIRED, EXT_FN(ext_offset) },
	{ "resize", ARG_REQUIRED, EXT_FN(ext_resize) },
	{ "mmp_update_interval", ARG_REQUIRED, EXT_FN(ext_mmp_update_interval) },
	{ "desc_size", ARG_REQUIRED, EXT_FN(ext_desc_size) },
	{ "desc-size", ARG_REQUIRED, EXT_FN(ext_desc_size) },
	{ "packed_meta_blocks", ARG_OPTIONAL, EXT_BOOL(packed_meta_blocks) },
	{ "assume_storage_prezeroed", ARG_OPTIONAL, EXT_BOOL(assume_prezeroed) },
	{ "quotatype", ARG_REQUIRED, EXT_FN(ext_quotatype) },
	{ "android_sparse", ARG_NONE, EXT_FN(ext_android_sparse) },
	{ "orphan_file_size", ARG_REQUIRED, EXT_FN(ext_orphan_file_size) },
	{ "no_copy_xattrs", ARG_NONE, EXT_FN(ext_no_copy_xattrs) },
};

static errcode_t ext_bool(struct mkfs_options *opt,
			  const struct e2fold_extopt *e, int *ret)
{
	char what[64];

	if (!parse_bool(e->value, ret))
		return 0;
	snprintf(what, sizeof(what), "%s (want 0 or 1)", e->key);
	return bad_value(what, e->value);
}

static errcode_t parse_one_extended(struct mkfs_options *opt,
				    const struct e2fold_extopt *e)
{
	size_t i;

	for (i = 0; i < sizeof(ext_options) / sizeof(ext_options[0]); i++) {
		if (strcmp(e->key, ext_options[i].name))
			continue;
		/* An empty encoding_flags= is tune's old spelling of none. */
		if (ext_options[i].arg == ARG_REQUIRED &&
		    (!e->value || (!*e->value &&
				   strcmp(e->key, "encoding_flags")))) {
			com_err(mkfs_prog, 0,
				"extended option '%s' needs a value", e->key);
			return EXT2_ET_INVALID_ARGUMENT;
		}
		if (ext_options[i].arg == ARG_NONE && e->value) {
			com_err(mkfs_prog, 0,
				"extended option '%s' takes no value", e->key);
			return EXT2_ET_INVALID_ARGUMENT;
		}
		if (!ext_options[i].fn)
			return ext_bool(opt, e,
					(int *)((char *)opt +
						ext_options[i].bool_field));
		return ext_options[i].fn(opt, e->value);
	}
	com_err(mkfs_prog, 0, "unknown extended option '%s'", e->key);
	return EXT2_ET_INVALID_ARGUMENT;
}

static errcode_t parse_extended(struct mkfs_options *opt, const char *list)
{
	struct e2fold_extopts ext;
	errcode_t retval;
	size_t i;

	retval = e2fold_extopts_split(mkfs_prog, list, &ext);
	for (i = 0; !retval && i < ext.n; i++)
		retval = parse_one_extended(opt, &ext.opts[i]);
	e2fold_extopts_free(&ext);
	return retval;
}

/* ------------------------------------------------------------------ */
/* Single-letter options.                                               */

/* -J size=MiB: the journal's size (an external device= is refused). */
static errcode_t parse_journal(struct mkfs_options *opt, const char *arg)
{
	unsigned long long v;

	if (strncmp(arg, "size=", 5) || parse_ull(arg + 5, &v) || v == 0) {
		com_err(mkfs_prog, 0, "-J %s: e2fold-mkfs takes -J size=MiB "
			"(an external journal is a device of its own: make it "
			"with mke2fs -O journal_dev)", arg);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	opt->journal_mb = v;
	return append_features(opt, "has_journal");
}

/* -o: the creator OS by name or number, as mke2fs takes it. */
static errcode_t parse_creator_os(struct mkfs_options *opt, const char *arg)
{
	unsigned long long v;
	int os = parse_ull(arg, &v) ? e2p_string2os((char *)arg) :
		(v <= EXT2_OS_LITES ? (int)v : -1);

	if (os < 0)
		return bad_value("creator OS (Linux, Hurd, FreeBSD, Lites)",
				 arg);
	/* The Hurd has no filetype, extents' huge_file, csum or casefold. */
	if (os == EXT2_OS_HURD) {
		com_err(mkfs_prog, 0, "-o %s: the Hurd knows none of casefold, "
			"filetype, huge_file or metadata_csum: use mke2fs -o "
			"hurd", arg);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	opt->creator_os = os;
	return 0;
}

static errcode_t parse_uuid_option(const char *arg)
{
	static const char *const words[] = { "clear", "null", "random", "time" };
	unsigned char uu[16];
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcasecmp(arg, words[i]))
			return 0;
	if (mkfs_uuid_parse(arg, uu))
		return bad_value("UUID", arg);
	return 0;
}

static errcode_t parse_letter(struct mkfs_options *opt, int c, char *arg,
			      char *label_buf)
{
	unsigned long long v;
	char *end;

	switch (c) {
	case 'b':
		if (parse_bytes(arg, &v) || !is_power_of_two(v) ||
		    v < EXT2_MIN_BLOCK_SIZE || v > EXT2_MAX_BLOCK_SIZE)
			return bad_value("block size (1024 to 65536, a power of 2)",
					 arg);
		opt->blocksize = v;
		return 0;
	case 'I':
		if (parse_ull(arg, &v) || v > 65536)
			return bad_value("inode size", arg);
		opt->inode_size = v;
		return 0;
	case 'i':
		if (parse_bytes(arg, &v) || v < EXT2_MIN_BLOCK_SIZE ||
		    v > EXT2_MAX_BLOCK_SIZE * 1024ULL)
			return bad_value("inode ratio (1024 to 67108864)", arg);
		opt->inode_ratio = v;
		return 0;
	case 'N':
		if (parse_ull(arg, &v) || v == 0)
			return bad_value("number of inodes", arg);
		opt->num_inodes = v;
		return 0;
	case 'm':
		errno = 0;
		opt->reserved_ratio = strtod(arg, &end);
		if (errno || end == arg || *end || opt->reserved_ratio < 0 ||
		    opt->reserved_ratio > 50)
			return bad_value("reserved blocks percent (0 to 50)", arg);
		return 0;
	case 'L':
		opt->label = fit_label(arg, label_buf);
		return 0;
	case 'U':
		opt->uuid = arg;
		return parse_uuid_option(arg);
	case 'O':
		return append_features(opt, arg);
	case 'E':
		return parse_extended(opt, arg);
	case 't':
		if (opt->fs_type) {
			com_err(mkfs_prog, 0, "-t may be given only once");
			return EXT2_ET_INVALID_ARGUMENT;
		}
		opt->fs_type = arg;
		return 0;
	case 'd':
		opt->source = arg;
		return 0;
	case 'v':
		opt->verbose = 1;
		return 0;
	case 'j':
		return append_features(opt, "has_journal");
	case 'J':
		return parse_journal(opt, arg);
	case 'G':
		if (parse_ull(arg, &v) || !is_power_of_two(v) ||
		    v > (1ULL << 31))
			return bad_value("flex_bg size (a power of 2)", arg);
		opt->flex_bg_size = v;
		return 0;
	case 'g':
		if (parse_ull(arg, &v) || v % 8 || v < 256 || v > 8 * 65536)
			return bad_value("blocks per group (a multiple of 8, "
					 "256 to 524288)", arg);
		opt->blocks_per_group = v;
		return 0;
	case 'C':
		if (parse_bytes(arg, &v) || !is_power_of_two(v) ||
		    v <= EXT2_MIN_CLUSTER_SIZE || v > EXT2_MAX_CLUSTER_SIZE)
			return bad_value("cluster size", arg);
		opt->cluster_size = v;
		return 0;
	case 'o':
		return parse_creator_os(opt, arg);
	case 'M':
		opt->last_mounted = arg;
		return 0;
	case 'e':
		if (!strcmp(arg, "continue"))
			opt->errors_behavior = EXT2_ERRORS_CONTINUE;
		else if (!strcmp(arg, "remount-ro"))
			opt->errors_behavior = EXT2_ERRORS_RO;
		else if (!strcmp(arg, "panic"))
			opt->errors_behavior = EXT2_ERRORS_PANIC;
		else
			return bad_value("error behavior (continue, "
					 "remount-ro, panic)", arg);
		return 0;
	case 'r':
		if (!strcmp(arg, "1"))
			return 0;
		com_err(mkfs_prog, 0, "-r %s: e2fold-mkfs makes revision 1 "
			"only; revision 0 has no features (not even casefold): "
			"use mke2fs -r 0", arg);
		return EXT2_ET_INVALID_ARGUMENT;
	case 'S':
		opt->super_only = 1;
		return 0;
	case 'c':
		opt->check_blocks++;
		return 0;
	case 'l':
		opt->bad_blocks_file = arg;
		return 0;
	case 'T':
		opt->usage_types = arg;
		return 0;
	case 'R':
		opt->report_path = arg;
		return 0;
	case 'P':
		opt->progress_fd = e2fold_progress_parse_fd(arg);
		if (opt->progress_fd < 0)
			return bad_value("--progress descriptor", arg);
		return 0;
	case 'F':
		opt->force++;
		return 0;
	case 'z':
		opt->undo_file = arg;
		return 0;
	case 'D':
		opt->direct_io = 1;
		return 0;
	case 'K':
		opt->discard = 0;
		return 0;
	case 'n':
		opt->noaction = 1;
		return 0;
	case 'q':
		opt->quiet = 1;
		return 0;
	case 'V':
		printf("%s\n", e2fold_version_banner(mkfs_prog));
		exit(MKFS_EXIT_OK);
	case 'h':
		usage(stdout);
		exit(MKFS_EXIT_OK);
	}
	if (optopt)
		com_err(mkfs_prog, 0, "option -%c is unknown or needs a value "
			"(see --help)", optopt);
	else
		com_err(mkfs_prog, 0, "unknown option (see --help)");
	return EXT2_ET_INVALID_ARGUMENT;
}

errcode_t mkfs_parse_options(int argc, char **argv, struct mkfs_options *opt)
{
	static const struct option longopts[] = {
		{ "report", required_argument, NULL, 'R' },
		{ "progress", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static char label_buf[LABEL_MAX + 1];
	errcode_t retval;
	int c;

	memset(opt, 0, sizeof(*opt));
	opt->progress_fd = -1;
	opt->reserved_ratio = -1.0;
	opt->discard = 1;
	opt->lazy_itable_init = -1;
	opt->creator_os = -1;
	opt->num_backup_sb = -1;
	opt->quota_types = MKFS_QUOTA_USR | MKFS_QUOTA_GRP;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "b:cC:Dd:E:e:FG:g:hI:i:jJ:Kl:L:M:m:N:nO:o:qr:ST:t:U:Vvz:",
				longopts, NULL)) != -1) {
		retval = parse_letter(opt, c, optarg, label_buf);
		if (retval)
			return retval;
	}
	if (optind >= argc) {
		usage(stderr);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	opt->device = argv[optind++];
	if (optind < argc) {
		if (parse_size(argv[optind], &opt->size) ||
		    opt->size.value == 0)
			return bad_value("size", argv[optind]);
		opt->have_size = 1;
		optind++;
	}
	if (optind < argc) {
		com_err(mkfs_prog, 0, "unexpected argument '%s'", argv[optind]);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	if (opt->android_sparse && opt->undo_file) {
		com_err(mkfs_prog, 0, "-z saves the blocks of a device: an "
			"Android sparse image (-E android_sparse) is a new "
			"file, with nothing to undo");
		return EXT2_ET_INVALID_ARGUMENT;
	}
	if (opt->super_only && opt->source) {
		com_err(mkfs_prog, 0, "-S rewrites the superblock and "
			"descriptors only: it writes no files (-d)");
		return EXT2_ET_INVALID_ARGUMENT;
	}
	return 0;
}

void mkfs_free_options(struct mkfs_options *opt)
{
	size_t i;

	for (i = 0; i < opt->n_casefold_dirs; i++)
		free(opt->casefold_dirs[i]);
	free(opt->casefold_dirs);
	free(opt->features);
}
