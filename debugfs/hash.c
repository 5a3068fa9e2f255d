/*
 * hash.c: dx_hash, the htree hash of names.
 *
 *   dx_hash [-c] [-s SEED] [-h ALG] NAME...
 *
 * By default the seed, the algorithm and its signedness come from the
 * open filesystem's superblock (s_hash_seed, s_def_hash_version, the
 * signed/unsigned flag), and the name is hashed as given. -c casefolds it
 * first with the filesystem's encoding (utf8-12.1 if it has none), as the
 * kernel does in a casefolded directory: a name that cannot be folded is
 * hashed as it is. The result has the kernel's adjustment (bit 0 clear,
 * 0xFFFFFFFE becomes 0xFFFFFFFC).
 */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs.h"

struct hash_options {
	int casefold;		/* -c */
	int version;		/* effective */
	__u32 seed[4];
};

/* 0, -1 for a usage error, 1 for an error already reported. */
static int parse_dx_hash(struct session *s, int argc, char **args,
			 struct hash_options *opt)
{
	struct ext2_super_block *sb = s->fs->super;
	int c, bare;

	memset(opt, 0, sizeof(*opt));
	memcpy(opt->seed, sb->s_hash_seed, sizeof(opt->seed));
	opt->version = e2fold_effective_hash_version(s->fs,
						     sb->s_def_hash_version);
	while ((c = getopt(argc, args, "cs:h:")) != -1) {
		switch (c) {
		case 'c':
			opt->casefold = 1;
			break;
		case 's':
			if (e2fold_parse_hash_seed(optarg, opt->seed)) {
				cmd_error(s, args[0], 0, "-s %s: not a UUID",
					  optarg);
				return 1;
			}
			break;
		case 'h':
			if (e2fold_hash_alg_parse(optarg, &opt->version,
						  &bare)) {
				cmd_error(s, args[0], 0,
					  "-h %s: unknown hash algorithm "
					  "(legacy, half_md4, tea, with "
					  "_signed or _unsigned)", optarg);
				return 1;
			}
			if (opt->version == EXT2_HASH_SIPHASH) {
				cmd_error(s, args[0], 0, "-h %s: SipHash is keyed "
					  "with a directory's encryption key, "
					  "which is not on the disk", optarg);
				return 1;
			}
			/* A bare name: signed or not as the filesystem is. */
			if (bare)
				opt->version = e2fold_effective_hash_version(
					s->fs, opt->version);
			break;
		default:
			return -1;
		}
	}
	if (optind >= argc)
		return -1;
	if (opt->version > EXT2_HASH_TEA_UNSIGNED) {
		cmd_error(s, args[0], 0, "hash version %d (%s) cannot be "
			  "computed here; name one with -h", opt->version,
			  e2fold_hash_alg_name(opt->version));
		return 1;
	}
	return 0;
}

/* The engine -c folds with: the filesystem's, or utf8-12.1. */
static struct unicode_map *fold_engine(struct session *s, int *ret_owned)
{
	*ret_owned = 0;
	if (s->um)
		return s->um;
	*ret_owned = 1;
	return e2fold_load_encoding(e2fold_encoding_by_magic(E2FOLD_ENC_UTF8_12_1));
}

static void hash_one(struct session *s, const char *cmd,
		     const struct hash_options *opt,
		     const struct unicode_map *um, const char *arg)
{
	unsigned char name[E2FOLD_NAME_MAX];
	struct e2fold_key *key;
	ext2_dirhash_t hash, minor;
	size_t len;
	errcode_t retval;

	if (arg_bytes(arg, name, sizeof(name), &len)) {
		cmd_error(s, cmd, 0, "name longer than %d bytes", E2FOLD_NAME_MAX);
		return;
	}
	retval = e2fold_casefold_dirhash(um, opt->version, name, len,
					 opt->seed, &hash, &minor);
	if (retval) {
		cmd_error(s, cmd, retval, "while hashing %s", esc(0, name, len));
		return;
	}
	printf("Hash of %s is 0x%08x (minor 0x%08x)\n", esc(0, name, len),
	       hash, minor);
	if (!um)
		return;
	key = malloc(sizeof(*key));
	if (!key)
		return;
	e2fold_name_key(um, name, len, key);
	if (key->folded)
		printf("  casefolded: %s\n", esc(0, key->bytes, key->len));
	else
		printf("  not foldable (invalid UTF-8): the bytes were hashed\n");
	free(key);
}

DEBUGFS_CMD(do_dx_hash)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct unicode_map *um = NULL;
	struct hash_options opt;
	char seed[40];
	int owned = 0, i, r;

	if (!args)
		return;
	r = parse_dx_hash(s, argc, args, &opt);
	if (r < 0)
		cmd_error(s, argv[0], 0,
			  "usage: dx_hash [-c] [-s SEED] [-h ALG] NAME...");
	if (r)
		goto out;
	if (opt.casefold) {
		um = fold_engine(s, &owned);
		if (!um) {
			cmd_error(s, argv[0], 0, "cannot load the encoding");
			goto out;
		}
	}
	printf("# %s, seed %s%s\n", e2fold_hash_alg_name(opt.version),
	       format_seed(opt.seed, seed),
	       opt.casefold ? ", casefolded" : "");
	for (i = optind; i < argc; i++)
		hash_one(s, argv[0], &opt, um, args[i]);
out:
	if (owned)
		utf8_unload(um);
	free(args);
}
