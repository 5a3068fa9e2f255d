/*
 * names.c: a name looked up in a directory as the served kernel would
 * (e2fold_lookup), reading no more of the directory than the kernel does.
 *
 * An indexed directory with a sound index is read through its index: the
 * leaves the name's hash leads to, and only when the hashed search
 * misses and the kernel would fall back (6.12 and newer, without
 * no_compat_fallback) every block. Anything else (a linear or inline
 * directory, a damaged index, an encrypted directory) is read whole, as
 * the kernel scans it whole. Linux 6.1 does not fall back: an entry that
 * only the fallback finds is not found.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "e2fuse.h"
#include "nokey.h"

/* Does the served kernel scan every block after a hashed miss? */
static int falls_back(const struct e2fuse *srv)
{
	return srv->opt.kernel != E2FUSE_KERNEL_6_1 &&
	       !(srv->fs->super->s_encoding_flags &
		 E2FOLD_ENC_NO_COMPAT_FALLBACK_FL);
}

static int answer(const struct e2fuse *srv, const struct e2fold_lookup *lk,
		  struct e2fuse_found *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (lk->strict_refused)
		return EINVAL;
	if (!lk->found)
		return 0;
	if (lk->path == E2FOLD_LOOKUP_FALLBACK &&
	    srv->opt.kernel == E2FUSE_KERNEL_6_1)
		return 0;
	ret->ino = lk->found->ino;
	ret->lblk = lk->found->lblk;
	ret->offset = lk->found->offset;
	ret->file_type = lk->found->file_type;
	return 0;
}

int e2fuse_find_in(struct e2fuse *srv, const struct e2fold_dir *d,
		   const char *name, struct e2fuse_found *ret)
{
	struct e2fold_lookup lk;
	errcode_t retval;

	retval = e2fold_lookup(srv->fs, srv->um, d, (const unsigned char *)name,
			       strlen(name), 0, &lk);
	return retval ? e2fuse_errno(retval) : answer(srv, &lk, ret);
}

/* The whole directory, scanned as the kernel scans it. */
static int find_whole(struct e2fuse *srv, ext2_ino_t dir, const char *name,
		      struct e2fuse_found *ret)
{
	struct e2fold_dir *d;
	errcode_t retval;
	int err;

	retval = e2fold_dir_read(srv->fs, dir, &d);
	if (e2fuse_is_corruption(retval))
		return e2fuse_corrupt(srv, dir, "lookup", retval);
	if (retval)
		return e2fuse_errno(retval);
	err = e2fuse_find_in(srv, d, name, ret);
	/* Not found where the kernel would have read a corrupt block. */
	if (!err && !ret->ino && (d->ncorrupt || d->nbadsum))
		err = e2fuse_corrupt(srv, dir, "lookup", d->ncorrupt ?
				     EXT2_ET_DIR_CORRUPTED :
				     EXT2_ET_DIR_CSUM_INVALID);
	e2fold_dir_free(d);
	return err;
}

/*
 * Through the index: 1 if it answered (found, refused, or a miss the
 * kernel would not pursue), 0 if the whole directory must be read.
 */
static int find_hashed(struct e2fuse *srv, struct e2fold_dir *d,
		       const unsigned char *name, unsigned int len,
		       struct e2fold_lookup *lk, struct e2fuse_found *ret,
		       int *ret_err)
{
	blk64_t lblks[8];
	errcode_t retval;
	size_t i, n;
	int ok = 0;

	/* With no entries read, this computes the leaves the hash leads to. */
	retval = e2fold_lookup(srv->fs, srv->um, d, name, len, 0, lk);
	if (retval) {
		*ret_err = e2fuse_errno(retval);
		return 1;
	}
	if (lk->strict_refused) {
		*ret_err = EINVAL;
		return 1;
	}
	if (lk->path != E2FOLD_LOOKUP_HTREE || !lk->hashed ||
	    lk->nleaves > sizeof(lblks) / sizeof(lblks[0]))
		return 0;
	n = lk->nleaves;
	for (i = 0; i < n; i++)
		lblks[i] = d->leaves[lk->first_leaf + i].lblk;
	retval = e2fold_dir_read_blocks(srv->fs, d, lblks, n, &ok);
	if (retval || !ok)
		return 0;
	retval = e2fold_lookup(srv->fs, srv->um, d, name, len, 0, lk);
	if (retval)
		return 0;
	if (lk->found && lk->path == E2FOLD_LOOKUP_HTREE) {
		*ret_err = answer(srv, lk, ret);
		return 1;
	}
	if (lk->casefolded && falls_back(srv))
		return 0;
	memset(ret, 0, sizeof(*ret));
	*ret_err = 0;
	return 1;
}

/*
 * An encrypted directory without its key: the name is a no-key form
 * (nokey.h), matched against the ciphertext of every entry, as the
 * kernel scans such a directory. A name that is no such form names
 * nothing.
 */
static int find_nokey(struct e2fuse *srv, ext2_ino_t dir, const char *name,
		      struct e2fuse_found *ret)
{
	struct e2fuse_nokey nk;
	struct e2fold_dir *d;
	errcode_t retval;
	size_t i;

	if (e2fuse_nokey_decode(name, &nk))
		return 0;
	retval = e2fold_dir_read(srv->fs, dir, &d);
	if (retval)
		return e2fuse_errno(retval);
	for (i = 0; i < d->nents; i++) {
		const struct e2fold_dirent *e = &d->ents[i];

		if (e2fuse_nokey_match(&nk, e)) {
			ret->ino = e->ino;
			ret->lblk = e->lblk;
			ret->offset = e->offset;
			ret->file_type = e->file_type;
			break;
		}
	}
	e2fold_dir_free(d);
	return 0;
}

static int dir_encrypted(struct e2fuse *srv, ext2_ino_t dir)
{
	struct ext2_inode inode;

	return !ext2fs_read_inode(srv->fs, dir, &inode) &&
	       (inode.i_flags & EXT4_ENCRYPT_FL);
}

/* Does dir refuse the name as a strict casefolded directory's hash does? */
static int strict_refuses(struct e2fuse *srv, ext2_ino_t dir,
			  const unsigned char *name, unsigned int len)
{
	struct ext2_inode_large inode;

	if (!srv->um ||
	    !(srv->fs->super->s_encoding_flags & E2FOLD_ENC_STRICT_FL) ||
	    !e2fold_strict_refuses(srv->um, name, len))
		return 0;
	return !e2fuse_read_inode(srv, dir, &inode) &&
	       (inode.i_flags & EXT4_CASEFOLD_FL) &&
	       !(inode.i_flags & EXT4_ENCRYPT_FL);
}

int e2fuse_find(struct e2fuse *srv, ext2_ino_t dir, const char *name,
		struct e2fuse_found *ret)
{
	const unsigned char *n = (const unsigned char *)name;
	unsigned int len = strlen(name);
	struct e2fold_lookup *lk;
	struct e2fold_dir *d = NULL;
	int err = 0, done = 0;

	memset(ret, 0, sizeof(*ret));
	if (ext2fs_check_directory(srv->fs, dir))
		return ENOTDIR;
	/*
	 * Linux hashes the name for its dentry cache before the filesystem
	 * sees it, and a strict casefolded directory's hash refuses invalid
	 * UTF-8: EINVAL comes before ext4's own length check.
	 */
	if (strict_refuses(srv, dir, n, len))
		return EINVAL;
	if (len > EXT2_NAME_LEN)
		return ENAMETOOLONG;
	/* The VFS answers "." and ".." itself; so do we, from block 0. */
	if (!strcmp(name, ".") || !strcmp(name, "..")) {
		ret->ino = dir;
		ret->offset = name[1] ? 12 : 0;
		ret->file_type = EXT2_FT_DIR;
		if (name[1] && ext2fs_lookup(srv->fs, dir, name, 2, NULL,
					     &ret->ino))
			return EIO;
		return 0;
	}
	lk = malloc(sizeof(*lk));
	if (!lk)
		return ENOMEM;
	if (dir_encrypted(srv, dir)) {
		free(lk);
		return find_nokey(srv, dir, name, ret);
	}
	if (!e2fuse_index_get(srv, dir, &d)) {
		if (d->dx_problem == E2FOLD_DX_OK && !d->encrypted)
			done = find_hashed(srv, d, n, len, lk, ret, &err);
		e2fuse_index_done(srv, d);
	}
	if (!done)
		err = find_whole(srv, dir, name, ret);
	free(lk);
	return err;
}
