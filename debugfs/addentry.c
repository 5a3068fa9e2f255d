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
 * Place: as the kernel would (e2fold_dir_add, lib/support/diredit.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "debugfs.h"
#include "dirwrite.h"
#include "lookup.h"
#include "newinode.h"

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
		    ext2_ino_t ino, int file_type,
		    enum e2fold_add_how *ret_how)
{
	struct e2fold_new_name nn = { name, len, ino, file_type };
	errcode_t retval;

	retval = session_load_bitmaps(s);
	if (!retval)
		retval = e2fold_dir_add(s->fs, s->um, dir, &nn, ret_how);
	if (!retval)
		retval = touch_dir(s, dir);
	return retval;
}

errcode_t add_subdir(struct session *s, ext2_ino_t dir,
		     const unsigned char *name, unsigned int len,
		     ext2_ino_t ino, enum e2fold_add_how *ret_how)
{
	struct e2fold_new_name nn = { name, len, ino, EXT2_FT_DIR };
	errcode_t retval;

	retval = session_load_bitmaps(s);
	if (!retval)
		retval = e2fold_dir_mkdir(s->fs, s->um, dir, &nn, ret_how);
	if (!retval)
		retval = touch_dir(s, dir);
	return retval;
}

errcode_t link_new_inode(struct session *s, const struct target *t,
			 ext2_ino_t ino, int file_type, errcode_t retval,
			 ext2_ino_t *ret_ino, enum e2fold_add_how *ret_how)
{
	if (!retval)
		retval = file_type == EXT2_FT_DIR ?
			 add_subdir(s, t->dir, t->name, t->name_len, ino,
				    ret_how) :
			 add_entry(s, t->dir, t->name, t->name_len, ino,
				   file_type, ret_how);
	if (retval) {
		/* Best effort: the error that stopped us is the one to say. */
		e2fold_free_inode(s->fs, ino, session_now(s));
		return retval;
	}
	*ret_ino = ino;
	return 0;
}

int target_resolve(struct session *s, const char *cmd, const char *arg,
		   int exact, struct target *t)
{
	errcode_t retval;

	if (arg_bytes(arg, t->path, sizeof(t->path), &t->path_len)) {
		cmd_error(s, cmd, 0, "path too long");
		return -1;
	}
	retval = path_resolve_parent(s, t->path, t->path_len, exact, &t->dir,
				     &t->name, &t->name_len);
	if (retval) {
		cmd_error(s, cmd, retval, "while resolving %s",
			  esc(0, t->path, t->path_len));
		return -1;
	}
	retval = ext2fs_check_directory(s->fs, t->dir);
	if (retval) {
		cmd_error(s, cmd, retval, "while checking the parent of %s",
			  esc(0, t->path, t->path_len));
		return -1;
	}
	return check_new_name(s, cmd, t->dir, t->name, t->name_len);
}

void target_report(const char *what, const struct target *t,
		   ext2_ino_t ino, enum e2fold_add_how how)
{
	static const char *const notes[] = {
		[E2FOLD_ADD_IN_PLACE] = "",
		[E2FOLD_ADD_NEW_BLOCK] = " (in a new block)",
		[E2FOLD_ADD_SPLIT] = " (its leaf was split)",
		[E2FOLD_ADD_REWRITTEN] = " (the directory was rewritten)",
	};

	printf("%s \"%s\": inode %u in directory %u%s\n", what,
	       esc(0, t->name, t->name_len), ino, t->dir, notes[how]);
}
