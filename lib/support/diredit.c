/*
 * diredit.c: removing a name, rewriting and making directories as ext4
 * does (diredit.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diredit.h"
#include "dirlinks.h"

int e2fold_dir_hash_version(ext2_filsys fs, const struct e2fold_dir *d)
{
	if (d && e2fold_dir_stored_hashes(d))
		return EXT2_HASH_SIPHASH;
	if (d && d->indexed && d->dx_problem == E2FOLD_DX_OK)
		return d->dx_hash_version;
	/*
	 * Nothing checks the superblock's field: with 200 there, no
	 * directory could ever be indexed.
	 */
	if (fs->super->s_def_hash_version <= EXT2_HASH_TEA)
		return fs->super->s_def_hash_version;
	return EXT2_HASH_HALF_MD4;
}

void e2fold_dir_layout_of(ext2_filsys fs, const struct unicode_map *um,
			  const struct e2fold_dir *d,
			  struct e2fold_dir_layout *ret_layout)
{
	memset(ret_layout, 0, sizeof(*ret_layout));
	ret_layout->ino = d->ino;
	ret_layout->parent = d->dotdot ? d->dotdot : d->ino;
	ret_layout->um = d->casefolded ? um : NULL;
	ret_layout->hash_version = e2fold_dir_hash_version(fs, d);
	ret_layout->stored_hashes = e2fold_dir_stored_hashes(d);
}

/* An inline directory rewritten without the entry at (lblk, offset). */
static errcode_t remove_inline(ext2_filsys fs, const struct unicode_map *um,
			       ext2_ino_t ino, blk64_t lblk,
			       unsigned int offset)
{
	struct e2fold_dir_layout layout;
	struct e2fold_new_entry *ents;
	struct e2fold_dir *d;
	errcode_t retval;
	size_t i, n = 0;

	retval = e2fold_dir_read(fs, ino, &d);
	if (retval)
		return retval;
	/* A rewrite would drop the entries of blocks that cannot be read. */
	if (d->ncorrupt) {
		retval = EXT2_ET_DIR_CORRUPTED;
		goto out;
	}
	retval = e2fold_dir_entries(d, 0, &ents);
	if (retval)
		goto out;
	for (i = 0; i < d->nents; i++)
		if (d->ents[i].lblk != lblk || d->ents[i].offset != offset)
			ents[n++] = ents[i];
	e2fold_dir_layout_of(fs, um, d, &layout);
	retval = e2fold_dir_write(fs, &layout, ents, n);
	free(ents);
out:
	e2fold_dir_free(d);
	return retval;
}

errcode_t e2fold_dir_remove(ext2_filsys fs, const struct unicode_map *um,
			    ext2_ino_t ino, blk64_t lblk, unsigned int offset)
{
	struct ext2_inode inode;
	errcode_t retval = ext2fs_read_inode(fs, ino, &inode);

	if (retval)
		return retval;
	if (inode.i_flags & EXT4_INLINE_DATA_FL)
		return remove_inline(fs, um, ino, lblk, offset);
	return e2fold_dirblock_remove(fs, ino, lblk, offset);
}

/* "." and ".." of the new directory ino, casefolded if its inode says so. */
static errcode_t init_dir(ext2_filsys fs, const struct unicode_map *um,
			  ext2_ino_t ino, ext2_ino_t parent)
{
	struct e2fold_dir_layout layout;
	struct ext2_inode inode;
	errcode_t retval = ext2fs_read_inode(fs, ino, &inode);

	if (retval)
		return retval;
	memset(&layout, 0, sizeof(layout));
	layout.ino = ino;
	layout.parent = parent;
	layout.um = inode.i_flags & EXT4_CASEFOLD_FL ? um : NULL;
	layout.hash_version = e2fold_dir_hash_version(fs, NULL);
	return e2fold_dir_write(fs, &layout, NULL, 0);
}

errcode_t e2fold_dir_mkdir(ext2_filsys fs, const struct unicode_map *um,
			   ext2_ino_t parent, const struct e2fold_new_name *nn,
			   enum e2fold_add_how *ret_how)
{
	struct ext2_inode pinode;
	errcode_t retval;

	retval = ext2fs_read_inode(fs, parent, &pinode);
	if (retval)
		return retval;
	if (e2fold_dir_links_full(fs, &pinode))
		return EXT2_ET_TOO_MANY_REFS;
	retval = init_dir(fs, um, nn->ino, parent);
	if (!retval)
		retval = e2fold_dir_add(fs, um, parent, nn, ret_how);
	/* Read again: adding the name may have rewritten the parent. */
	if (!retval)
		retval = ext2fs_read_inode(fs, parent, &pinode);
	if (retval)
		return retval;
	e2fold_dir_links_inc(fs, &pinode);
	return ext2fs_write_inode(fs, parent, &pinode);
}
