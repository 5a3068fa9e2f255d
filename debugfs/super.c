/*
 * super.c: the superblock as it concerns names: stats (show_super) and
 * set_encoding_flags.
 *
 * s_encoding and s_encoding_flags are shown by name; a flag bit Linux does
 * not define is shown as a number (Linux 6.1 ignores such bits).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <e2p/e2p.h>

#include "debugfs.h"

#define LABEL "%-28s"

static void print_features(const struct ext2_super_block *sb)
{
	const __u32 words[3] = { sb->s_feature_compat, sb->s_feature_incompat,
				 sb->s_feature_ro_compat };
	const int types[3] = { E2P_FEATURE_COMPAT, E2P_FEATURE_INCOMPAT,
			       E2P_FEATURE_RO_INCOMPAT };
	int i, bit, any = 0;

	printf(LABEL, "Filesystem features:");
	for (i = 0; i < 3; i++) {
		for (bit = 0; bit < 32; bit++) {
			if (!(words[i] & (1U << bit)))
				continue;
			printf("%s%s", any ? " " : "",
			       e2p_feature2string(types[i], 1U << bit));
			any = 1;
		}
	}
	printf("%s\n", any ? "" : "(none)");
}

static const char *signedness(const struct ext2_super_block *sb)
{
	if (sb->s_flags & EXT2_FLAGS_UNSIGNED_HASH)
		return "unsigned";
	if (sb->s_flags & EXT2_FLAGS_SIGNED_HASH)
		return "signed";
	return "not set (signed assumed)";
}

static void print_encoding(struct session *s)
{
	struct ext2_super_block *sb = s->fs->super;
	const struct e2fold_encoding *enc = e2fold_encoding_by_magic(sb->s_encoding);
	char flags[128];
	int casefold = ext2fs_has_feature_casefold(sb);

	if (enc)
		printf(LABEL "%s (s_encoding %u, Unicode %s)\n",
		       "Character encoding:", enc->name, sb->s_encoding,
		       enc->unicode);
	else if (sb->s_encoding || casefold)
		printf(LABEL "unknown (s_encoding %u)\n", "Character encoding:",
		       sb->s_encoding);
	else
		printf(LABEL "none\n", "Character encoding:");
	if (!casefold && !sb->s_encoding_flags)
		return;
	e2fold_format_encoding_flags(sb->s_encoding_flags, flags, sizeof(flags));
	printf(LABEL "%s (0x%04x)\n", "Encoding flags:",
	       sb->s_encoding_flags ? flags : "none", sb->s_encoding_flags);
	if (!casefold && (sb->s_encoding || sb->s_encoding_flags))
		printf("note: the casefold feature is off; the encoding fields "
		       "are unused\n");
}

DEBUGFS_CMD(do_stats)
{
	struct session *s = infop;
	struct ext2_super_block *sb = s->fs->super;
	char label[EXT2_LABEL_LEN + 1], seed[40];

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-h"))) {
		cmd_error(s, argv[0], 0, "usage: stats");
		return;
	}
	memcpy(label, sb->s_volume_name, EXT2_LABEL_LEN);
	label[EXT2_LABEL_LEN] = '\0';
	printf(LABEL "%s\n", "Filesystem volume name:",
	       label[0] ? esc(0, (unsigned char *)label, strlen(label)) :
	       "<none>");
	printf(LABEL "%s\n", "Filesystem UUID:", e2p_uuid2str((void *)sb->s_uuid));
	print_features(sb);
	printf(LABEL "%u\n", "Block size:", s->fs->blocksize);
	printf(LABEL "%llu\n", "Block count:",
	       (unsigned long long)ext2fs_blocks_count(sb));
	printf(LABEL "%llu\n", "Free blocks:",
	       (unsigned long long)ext2fs_free_blocks_count(sb));
	printf(LABEL "%u\n", "Inode count:", sb->s_inodes_count);
	printf(LABEL "%u\n", "Free inodes:", sb->s_free_inodes_count);
	printf(LABEL "%u\n", "Inode size:", EXT2_INODE_SIZE(sb));
	printf(LABEL "%s (%u)\n", "Default directory hash:",
	       e2fold_hash_alg_name(sb->s_def_hash_version),
	       sb->s_def_hash_version);
	printf(LABEL "%s\n", "Directory hash signedness:", signedness(sb));
	printf(LABEL "%s\n", "Directory hash seed:",
	       format_seed(sb->s_hash_seed, seed));
	print_encoding(s);
}

/* "none", a number (any bits), or a list of flag names. */
static int parse_flags(struct session *s, const char *cmd, const char *arg,
		       __u16 *ret_flags)
{
	char *end, *bad = NULL;
	unsigned long num;

	if (!strcmp(arg, "none")) {
		*ret_flags = 0;
		return 0;
	}
	num = strtoul(arg, &end, 0);
	if (*arg >= '0' && *arg <= '9' && !*end) {
		if (num > 0xffff) {
			cmd_error(s, cmd, 0, "%s: more than 16 bits", arg);
			return -1;
		}
		*ret_flags = num;
		return 0;
	}
	if (e2fold_parse_encoding_flags(arg, ret_flags, NULL, &bad)) {
		cmd_error(s, cmd, 0, "unknown encoding flag '%s' (known: strict, "
			  "no_compat_fallback; or a number)",
			  bad ? esc(0, (unsigned char *)bad, strlen(bad)) : arg);
		free(bad);
		return -1;
	}
	return 0;
}

DEBUGFS_CMD(do_set_encoding_flags)
{
	struct session *s = infop;
	struct ext2_super_block *sb = s->fs->super;
	char before[128], after[128];
	__u16 flags;

	if (argc != 2) {
		cmd_error(s, argv[0], 0, "usage: set_encoding_flags "
			  "none|FLAG[-FLAG...]|NUMBER");
		return;
	}
	if (cmd_need_writable(s, argv[0]))
		return;
	if (!ext2fs_has_feature_casefold(sb)) {
		cmd_error(s, argv[0], 0, "the filesystem has no casefold feature");
		return;
	}
	if (parse_flags(s, argv[0], argv[1], &flags))
		return;
	e2fold_format_encoding_flags(sb->s_encoding_flags, before, sizeof(before));
	e2fold_format_encoding_flags(flags, after, sizeof(after));
	printf("Encoding flags: %s (0x%04x) -> %s (0x%04x)\n",
	       sb->s_encoding_flags ? before : "none", sb->s_encoding_flags,
	       flags ? after : "none", flags);
	if (flags & ~E2FOLD_ENC_KNOWN_FLAGS)
		printf("note: 0x%04x: bits no kernel defines; Linux ignores "
		       "them\n", flags & ~E2FOLD_ENC_KNOWN_FLAGS);
	sb->s_encoding_flags = flags;
	/* Into the backup superblocks too, as the kernel's fields are. */
	s->fs->flags &= ~EXT2_FLAG_MASTER_SB_ONLY;
	ext2fs_mark_super_dirty(s->fs);
	cmd_commit(s, argv[0]);
}
