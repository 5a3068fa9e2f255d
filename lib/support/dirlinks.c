/* dirlinks.c: a directory's link count as ext4 keeps it (dirlinks.h). */
#include "config.h"

#include "dirlinks.h"

/* is_dx: the kernel counts "many" only in an indexed directory. */
static int is_indexed(ext2_filsys fs, const struct ext2_inode *dir)
{
	return ext2fs_has_feature_dir_index(fs->super) &&
	       (dir->i_flags & EXT2_INDEX_FL);
}

/* The "many" count is allowed: dir_nlink and an indexed directory. */
static int may_count_many(ext2_filsys fs, int indexed)
{
	return indexed && ext2fs_has_feature_dir_nlink(fs->super);
}

int e2fold_dir_links_full(ext2_filsys fs, const struct ext2_inode *dir)
{
	return dir->i_links_count >= E2FOLD_LINK_MAX &&
	       !may_count_many(fs, is_indexed(fs, dir));
}

void e2fold_dir_links_inc(ext2_filsys fs, struct ext2_inode *dir)
{
	unsigned int links = dir->i_links_count + 1;

	if (is_indexed(fs, dir) && (links > E2FOLD_LINK_MAX || links == 2))
		links = 1;
	dir->i_links_count = links;
}

void e2fold_dir_links_dec(struct ext2_inode *dir)
{
	if (dir->i_links_count > 2)
		dir->i_links_count--;
}

errcode_t e2fold_dir_links_for(ext2_filsys fs, int indexed,
			       unsigned long nsub, __u16 *ret_links)
{
	unsigned long links = 2 + nsub;

	if (links <= E2FOLD_LINK_MAX) {
		*ret_links = links;
		return 0;
	}
	if (!may_count_many(fs, indexed && ext2fs_has_feature_dir_index(fs->super)))
		return EXT2_ET_TOO_MANY_REFS;
	*ret_links = 1;
	return 0;
}
