/*
 * dirsearch.c: dirsearch, the entries of a directory that a name matches.
 *
 *   dirsearch [-e] DIR NAME
 *
 * debugfs's dirsearch looks for the entry holding NAME's exact bytes and
 * says where it is ("Entry found at logical block L, phys P, offset O").
 * Ours says the same of every such entry, then, in a casefolded
 * directory, of every entry equal to NAME after casefolding (the rule
 * the kernel's lookup uses, lib/support/lookup.h), naming both
 * spellings. Nothing is printed when nothing matches, as in debugfs.
 * -e resolves DIR byte for byte.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "debugfs.h"
#include "lookup.h"

/* "logical block L, phys P, offset O" for entry e of directory d. */
static void print_place(struct session *s, const struct e2fold_dir *d,
			const struct e2fold_dirent *e)
{
	blk64_t pblk = 0;

	printf("logical block %llu, ", (unsigned long long)e->lblk);
	if (d->inode.i_flags & EXT4_INLINE_DATA_FL)
		printf("in the inode");
	else if (ext2fs_bmap2(s->fs, d->ino, NULL, NULL, 0, e->lblk, NULL,
			      &pblk) || !pblk)
		printf("phys unknown");
	else
		printf("phys %llu", (unsigned long long)pblk);
	printf(", offset %u", e->offset);
}

static void search(struct session *s, const struct e2fold_dir *d,
		   const struct e2fold_lookup *lk)
{
	size_t i;

	for (i = 0; i < d->nents; i++) {
		const struct e2fold_dirent *e = &d->ents[i];
		int same = e->name_len == lk->name_len &&
			   !memcmp(e->name, lk->name, lk->name_len);

		if (same) {
			printf("Entry found at ");
			print_place(s, d, e);
			printf(": inode %u\n", e->ino);
		} else if (d->casefolded &&
			   e2fold_lookup_match(s->um, lk, e) ==
			   E2FOLD_MATCH_FOLDED) {
			printf("Casefold match at ");
			print_place(s, d, e);
			printf(": \"%s\" (inode %u) equals \"%s\" after "
			       "casefolding\n", esc(0, e->name, e->name_len),
			       e->ino, esc(1, lk->name, lk->name_len));
		}
	}
}

DEBUGFS_CMD(do_dirsearch)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	unsigned char name[E2FOLD_NAME_MAX + 1];
	struct e2fold_lookup *lk = NULL;
	struct e2fold_dir *d = NULL;
	ext2_ino_t ino;
	size_t len;

	if (!args)
		return;
	if (!dir_name_operands(s, argv[0], argc, args,
			       "dirsearch [-e] DIR NAME", name, &len, &ino) &&
	    !lookup_prepare(s, argv[0], ino, name, len, &d, &lk))
		search(s, d, lk);
	e2fold_dir_free(d);
	free(lk);
	free(args);
}
