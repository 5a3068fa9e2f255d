/*
 * diradd.c: a new name in a directory, placed as the kernel would
 * place it (see diredit.h): the hashed leaf of an indexed directory
 * (dxinsert.c), the first block with room of a linear one (dirblock.c),
 * or a rewrite of the whole directory where the kernel would restructure
 * it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diredit.h"

/* Rewrite the whole directory with its entries and nn. */
static errcode_t rewrite(ext2_filsys fs, const struct unicode_map *um,
			 const struct e2fold_dir *d,
			 const struct e2fold_new_name *nn)
{
	struct e2fold_dir_layout layout;
	struct e2fold_new_entry *ents;
	errcode_t retval;

	retval = e2fold_dir_entries(d, 1, &ents);
	if (retval)
		return retval;
	ents[d->nents].name = nn->name;
	ents[d->nents].name_len = nn->len;
	ents[d->nents].ino = nn->ino;
	ents[d->nents].file_type = nn->file_type;
	e2fold_dir_layout_of(fs, um, d, &layout);
	retval = e2fold_dir_write(fs, &layout, ents, d->nents + 1);
	free(ents);
	return retval;
}

/*
 * A linear directory: the first block with room; else, as the kernel
 * does, an index when the directory is one block (make_indexed_dir) or a
 * new block at the end.
 */
static errcode_t linear_add(ext2_filsys fs, const struct unicode_map *um,
			    const struct e2fold_dir *d,
			    const struct e2fold_new_name *nn,
			    enum e2fold_add_how *ret_how)
{
	errcode_t retval;
	blk64_t lblk;

	*ret_how = E2FOLD_ADD_IN_PLACE;
	for (lblk = 0; lblk < d->nblocks; lblk++) {
		retval = e2fold_dirblock_insert(fs, d->ino, lblk, nn);
		if (retval != EXT2_ET_DIR_NO_SPACE)
			return retval;
	}
	if (ext2fs_has_feature_dir_index(fs->super) && d->nblocks == 1) {
		retval = e2fold_dx_make_indexed(fs, um, d->ino, nn, ret_how);
		/* "." or ".." not where a root needs them: rewrite it. */
		return retval == EXT2_ET_DIR_CORRUPTED ? EXT2_ET_DIR_NO_SPACE :
			retval;
	}
	if (ext2fs_has_feature_dir_index(fs->super) && !d->nblocks)
		return EXT2_ET_DIR_NO_SPACE;
	*ret_how = E2FOLD_ADD_NEW_BLOCK;
	return e2fold_dirblock_append(fs, d->ino, d->nblocks, nn);
}

/* In place if the kernel would; EXT2_ET_DIR_NO_SPACE: rewrite. */
static errcode_t place(ext2_filsys fs, const struct unicode_map *um,
		       const struct e2fold_dir *d,
		       const struct e2fold_new_name *nn,
		       enum e2fold_add_how *ret_how)
{
	/*
	 * e2fold_dir_write moves an inline directory into blocks, and
	 * rebuilds a damaged index (where the kernel would drop it).
	 */
	if (d->inode.i_flags & EXT4_INLINE_DATA_FL)
		return EXT2_ET_DIR_NO_SPACE;
	if (d->indexed && d->dx_problem == E2FOLD_DX_OK && d->nleaves)
		return e2fold_dx_add(fs, um, d, nn, ret_how);
	if (!d->indexed)
		return linear_add(fs, um, d, nn, ret_how);
	return EXT2_ET_DIR_NO_SPACE;
}

errcode_t e2fold_dir_add_read(ext2_filsys fs, const struct unicode_map *um,
			      ext2_ino_t ino, const struct e2fold_dir *index,
			      const struct e2fold_new_name *nn,
			      enum e2fold_add_how *ret_how)
{
	struct e2fold_dir *d = NULL;
	errcode_t retval = 0;

	/* An indexed directory is placed into through its index alone. */
	if (!index) {
		if (e2fold_dir_read_index(fs, ino, &d))
			retval = e2fold_dir_read(fs, ino, &d);
		if (retval)
			return retval;
		index = d;
	}
	if (index->encrypted) {
		retval = EXT2_ET_UNIMPLEMENTED;
		goto out;
	}
	retval = place(fs, um, index, nn, ret_how);
	if (retval != EXT2_ET_DIR_NO_SPACE)
		goto out;
	/* A rewrite needs every entry. */
	if (d)
		e2fold_dir_free(d);
	d = NULL;
	retval = e2fold_dir_read(fs, ino, &d);
	if (retval)
		goto out;
	/* A rewrite would drop the entries of blocks that cannot be read. */
	if (d->ncorrupt) {
		retval = EXT2_ET_DIR_CORRUPTED;
		goto out;
	}
	*ret_how = E2FOLD_ADD_REWRITTEN;
	retval = rewrite(fs, um, d, nn);
out:
	if (d)
		e2fold_dir_free(d);
	return retval;
}

errcode_t e2fold_dir_add(ext2_filsys fs, const struct unicode_map *um,
			 ext2_ino_t ino, const struct e2fold_new_name *nn,
			 enum e2fold_add_how *ret_how)
{
	return e2fold_dir_add_read(fs, um, ino, NULL, nn, ret_how);
}
