/* summary.c: the lines e2fold-mkfs prints about its filesystem. */
#include "config.h"

#include <e2p/e2p.h>

#include "encoding.h"
#include "plural.h"
#include "summary.h"

#define LINE_WIDTH 72

static void backups(FILE *f, ext2_filsys fs)
{
	struct ext2_super_block *s = fs->super;
	blk64_t blk = s->s_first_data_block;
	int left = 0, first = 1;
	dgrp_t g;

	fputs("Superblock backups stored on blocks: ", f);
	for (g = 1; g < fs->group_desc_count; g++) {
		char num[32];
		int need;

		blk += s->s_blocks_per_group;
		if (!ext2fs_bg_has_super(fs, g))
			continue;
		need = snprintf(num, sizeof(num), "%llu",
				(unsigned long long)blk) + 2;
		if (!first)
			fputs(", ", f);
		if (need > left) {
			fputs("\n\t", f);
			left = LINE_WIDTH;
		}
		left -= need;
		fputs(num, f);
		first = 0;
	}
	fputs("\n", f);
}

/* Only -n says this here: a real run says it as it makes the journal. */
static void journal(FILE *f, ext2_filsys fs)
{
	struct ext2fs_journal_params jparams;

	if (!ext2fs_has_feature_journal(fs->super))
		return;
	if (ext2fs_get_journal_params(&jparams, fs) ||
	    !jparams.num_journal_blocks)
		fputs("No journal: the filesystem is too small for one\n", f);
	else
		fprintf(f, "Journal: %u blocks\n",
			jparams.num_journal_blocks + jparams.num_fc_blocks);
}

void mkfs_summary_fs(FILE *f, ext2_filsys fs, int noaction)
{
	struct ext2_super_block *s = fs->super;

	fprintf(f, "%s filesystem with %llu %uk blocks and %u inodes\n",
		noaction ? "Would create a" : "Creating",
		(unsigned long long)ext2fs_blocks_count(s), fs->blocksize >> 10,
		s->s_inodes_count);
	if (fs->group_desc_count > 1) {
		if (!e2p_is_null_uuid(s->s_uuid))
			fprintf(f, "Filesystem UUID: %s\n",
				e2p_uuid2str(s->s_uuid));
		backups(f, fs);
	}
	if (ext2fs_has_feature_casefold(s)) {
		const struct e2fold_encoding *enc =
			e2fold_encoding_by_magic(s->s_encoding);
		char flags[64];

		e2fold_format_encoding_flags(s->s_encoding_flags, flags,
					     sizeof(flags));
		fprintf(f, "Filename encoding: %s%s%s%s\n",
			enc ? enc->name : "unknown", *flags ? " (" : "", flags,
			*flags ? ")" : "");
		if (s->s_encoding_flags & E2FOLD_ENC_NO_COMPAT_FALLBACK_FL)
			fputs("Casefolded lookups: by hash only, no linear "
			      "fallback (every entry is where its hash leads)\n",
			      f);
	}
	if (noaction)
		journal(f, fs);
	fputs("\n", f);
}

/* The root and /lost+found are mkfs's own, not copied. */
static errcode_t tally_node(struct mkfs_node *node, void *arg)
{
	if (node->parent && !node->reserved)
		mkfs_tally_add(arg, node);
	return 0;
}

static void print_counts(FILE *f, const char *verb,
			 const struct mkfs_tally *t)
{
	fprintf(f, "%s %zu %s, %zu %s (%zu casefolded), %zu %s, %zu %s, "
		"%zu %s\n", verb,
		t->files, e2fold_plural(t->files, "file", "files"),
		t->dirs, e2fold_plural(t->dirs, "directory", "directories"),
		t->casefolded,
		t->symlinks, e2fold_plural(t->symlinks, "symlink", "symlinks"),
		t->specials, e2fold_plural(t->specials, "special file", "special files"),
		t->hardlinks, e2fold_plural(t->hardlinks, "hard link", "hard links"));
}

void mkfs_summary_tree(FILE *f, struct mkfs_tree *tree)
{
	struct mkfs_tally t = { 0 };

	mkfs_tree_walk(tree, tally_node, &t);
	print_counts(f, "Would copy", &t);
}

void mkfs_summary_populated(FILE *f, const struct mkfs_populate *p)
{
	print_counts(f, "Copied", &p->counts);
}
