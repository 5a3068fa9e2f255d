/*
 * addentry.c: a new name in a directory, checked and placed as the kernel
 * would place it.
 *
 * Check (ext4_add_entry's callers): a strict filesystem refuses a name
 * that is not valid UTF-8 (EINVAL); a name that a lookup reaches, or that
 * has the casefold key of an entry already there, exists (EEXIST). Our
 * check is stricter than the kernel's lookup on one point: an entry with
 * the same key in the wrong leaf counts, because creating the name would
 * make a duplicate.
 *
 * Place: an indexed directory takes the name into the leaf its hash leads
 * to, splitting it when full (leafsplit.c); a linear one into the first
 * block with room (dirblock.c), else a new block. Where the kernel would
 * split an index block, add an index level, index a one-block directory
 * or move an inline one into blocks, we rewrite the whole directory with
 * e2fold_dir_write instead, which gives the same lookups.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "debugfs.h"
#include "dirwrite.h"
#include "lookup.h"

/* The entry whose casefold key equals the name's, if any. */
static const struct e2fold_dirent *same_key(const struct unicode_map *um,
					    const struct e2fold_dir *d,
					    const unsigned char *name,
					    unsigned int len)
{
	struct e2fold_key *key = malloc(sizeof(*key)), *other = malloc(sizeof(*other));
	const struct e2fold_dirent *hit = NULL;
	size_t i;

	if (key && other) {
		e2fold_name_key(um, name, len, key);
		for (i = 0; i < d->nents && !hit; i++) {
			e2fold_name_key(um, d->ents[i].name, d->ents[i].name_len,
					other);
			if (other->len == key->len &&
			    !memcmp(other->bytes, key->bytes, key->len))
				hit = &d->ents[i];
		}
	}
	free(key);
	free(other);
	return hit;
}

/* Does the name have a casefolded key (rather than its raw bytes)? */
static int folds(const struct unicode_map *um, const unsigned char *name,
		 unsigned int len)
{
	struct e2fold_key *key = malloc(sizeof(*key));
	int r = 0;

	if (key && um) {
		e2fold_name_key(um, name, len, key);
		r = key->folded;
	}
	free(key);
	return r;
}

static int check_in(struct session *s, const char *cmd,
		    const struct e2fold_dir *d, const unsigned char *name,
		    unsigned int len)
{
	const struct unicode_map *um = d->casefolded ? s->um : NULL;
	const struct e2fold_dirent *hit;
	struct e2fold_lookup *lk;
	errcode_t retval;

	if (d->encrypted) {
		cmd_error(s, cmd, 0, "inode %u is encrypted: a name cannot be "
			  "added without the key", d->ino);
		return -1;
	}
	if (d->ncorrupt) {
		cmd_error(s, cmd, 0, "inode %u has malformed blocks: repair it "
			  "with e2fold-fsck first", d->ino);
		return -1;
	}
	if (um && (s->fs->super->s_encoding_flags & E2FOLD_ENC_STRICT_FL) &&
	    !e2fold_name_is_valid(um, name, len)) {
		cmd_error(s, cmd, 0, "%s is not valid UTF-8: a strict "
			  "filesystem refuses it", esc(0, name, len));
		return -1;
	}
	lk = malloc(sizeof(*lk));
	if (!lk)
		return -1;
	retval = e2fold_lookup(s->fs, s->um, d, name, len, 0, lk);
	if (retval) {
		cmd_error(s, cmd, retval, "while looking up %s", esc(0, name, len));
		free(lk);
		return -1;
	}
	/* found may be lk's own "." or "..": use it before lk is freed. */
	hit = lk->found ? lk->found : lk->misplaced;
	if (!hit)
		hit = same_key(um, d, name, len);
	if (hit)
		cmd_error(s, cmd, 0, "%s collides with \"%s\" (inode %u, block "
			  "%llu, offset %u): %s", esc(0, name, len),
			  esc(1, hit->name, hit->name_len), hit->ino,
			  (unsigned long long)hit->lblk, hit->offset,
			  folds(um, name, len) ? "equal after casefolding" :
			  "the same bytes");
	free(lk);
	return hit ? -1 : 0;
}

int check_new_name(struct session *s, const char *cmd, ext2_ino_t dir,
		   const unsigned char *name, unsigned int len)
{
	struct e2fold_dir *d;
	errcode_t retval;
	int r;

	if (memchr(name, '\0', len) || memchr(name, '/', len)) {
		cmd_error(s, cmd, 0, "a name cannot hold NUL or '/'");
		return -1;
	}
	retval = e2fold_dir_read(s->fs, dir, &d);
	if (retval) {
		cmd_error(s, cmd, retval, "while reading inode %u", dir);
		return -1;
	}
	r = check_in(s, cmd, d, name, len);
	e2fold_dir_free(d);
	return r;
}

/* Rewrite the whole directory with its entries and nn. */
static errcode_t rewrite(struct session *s, const struct e2fold_dir *d,
			 const struct new_name *nn)
{
	struct e2fold_new_entry *ents = calloc(d->nents + 1, sizeof(*ents));
	struct e2fold_dir_layout layout;
	errcode_t retval;
	size_t i;

	if (!ents)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < d->nents; i++) {
		ents[i].name = d->ents[i].name;
		ents[i].name_len = d->ents[i].name_len;
		ents[i].ino = d->ents[i].ino;
		ents[i].file_type = d->ents[i].file_type;
	}
	ents[i].name = nn->name;
	ents[i].name_len = nn->len;
	ents[i].ino = nn->ino;
	ents[i].file_type = nn->file_type;
	memset(&layout, 0, sizeof(layout));
	layout.ino = d->ino;
	layout.parent = d->dotdot ? d->dotdot : d->ino;
	layout.um = d->casefolded ? s->um : NULL;
	layout.hash_version = d->indexed && d->dx_problem == E2FOLD_DX_OK ?
			      d->dx_hash_version :
			      s->fs->super->s_def_hash_version;
	retval = session_load_bitmaps(s);
	if (!retval)
		retval = e2fold_dir_write(s->fs, &layout, ents, d->nents + 1);
	free(ents);
	return retval;
}

/*
 * A linear directory: the first block with room; else, as the kernel
 * does, an index when the directory is one block (make_indexed_dir: we
 * rewrite it, which builds the index) or a new block at the end.
 */
static errcode_t linear_add(struct session *s, const struct e2fold_dir *d,
			    const struct new_name *nn, enum add_how *ret_how)
{
	errcode_t retval;
	blk64_t lblk;

	*ret_how = ADD_IN_PLACE;
	for (lblk = 0; lblk < d->nblocks; lblk++) {
		retval = dirblock_insert(s, d->ino, lblk, nn);
		if (retval != EXT2_ET_DIR_NO_SPACE)
			return retval;
	}
	if (ext2fs_has_feature_dir_index(s->fs->super) && d->nblocks <= 1)
		return EXT2_ET_DIR_NO_SPACE;
	*ret_how = ADD_NEW_BLOCK;
	return dirblock_append(s, d->ino, d->nblocks, nn);
}

static errcode_t place(struct session *s, const struct e2fold_dir *d,
		       const struct new_name *nn, enum add_how *ret_how)
{
	errcode_t retval = EXT2_ET_DIR_NO_SPACE;

	/*
	 * e2fold_dir_write moves an inline directory into blocks, and
	 * rebuilds a damaged index (where the kernel would drop it).
	 */
	if (d->inode.i_flags & EXT4_INLINE_DATA_FL)
		retval = EXT2_ET_DIR_NO_SPACE;
	else if (d->indexed && d->dx_problem == E2FOLD_DX_OK && d->nleaves)
		retval = dx_add_entry(s, d, nn, ret_how);
	else if (!d->indexed)
		retval = linear_add(s, d, nn, ret_how);
	if (retval != EXT2_ET_DIR_NO_SPACE)
		return retval;
	*ret_how = ADD_REWRITTEN;
	return rewrite(s, d, nn);
}

static errcode_t touch_dir(struct session *s, ext2_ino_t dir)
{
	struct ext2_inode inode;
	errcode_t retval = ext2fs_read_inode(s->fs, dir, &inode);

	if (retval)
		return retval;
	inode.i_mtime = inode.i_ctime = session_now(s);
	return ext2fs_write_inode(s->fs, dir, &inode);
}

errcode_t add_entry(struct session *s, ext2_ino_t dir,
		    const unsigned char *name, unsigned int len,
		    ext2_ino_t ino, int file_type, enum add_how *ret_how)
{
	struct new_name nn = { name, len, ino, file_type };
	struct e2fold_dir *d;
	errcode_t retval;

	retval = e2fold_dir_read(s->fs, dir, &d);
	if (retval)
		return retval;
	retval = place(s, d, &nn, ret_how);
	e2fold_dir_free(d);
	if (!retval)
		retval = touch_dir(s, dir);
	return retval;
}
