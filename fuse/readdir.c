/*
 * readdir.c: a directory's names as stored, in the kernel's order: an
 * indexed directory (with a sound index) in hash order, as
 * ext4_dx_readdir returns it ("." and ".." first, then by hash and minor
 * hash; equal ones in the order of the blocks), any other in the order
 * of its blocks, as ext4_readdir. The directory is read once, at the
 * first readdir of an open handle (e2fold_dir_read), and kept with the
 * handle, so that offsets stay stable while the listing goes on. As
 * ext4's, an open reads nothing: a process that opens a directory only
 * to look names up in it (openat, fstatat) costs no read of it, and the
 * errors of a damaged one come from the readdir.
 *
 * Names in an encrypted directory are ciphertext: without the key they
 * are listed in the no-key form (nokey.h), with the hash the kernel
 * gives it.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "e2fuse.h"
#include "encoding.h"
#include "nokey.h"

/*
 * An open directory: its entries, their hashes, the listing order; kept
 * in the server's list of open ones, since a releasedir the kernel
 * queued may never come once it unmounts.
 */
struct listing {
	struct listing *prev, *next;
	struct e2fuse *srv;
	struct e2fold_dir *d;
	__u32 *hash, *minor;	/* per entry (zero where the kernel has none) */
	size_t *order;		/* the entries in listing order */
	int by_hash;		/* a sound index: hashes as a lookup makes them */
};

static struct listing *listing_of(struct fuse_file_info *fi)
{
	return (struct listing *)(uintptr_t)fi->fh;
}

/* What load() read, freed: the listing is as opendir left it. */
static void unload(struct listing *l)
{
	if (l->d)
		e2fold_dir_free(l->d);
	free(l->hash);
	free(l->minor);
	free(l->order);
	l->d = NULL;
	l->hash = l->minor = NULL;
	l->order = NULL;
	l->by_hash = 0;
}

static void listing_free(struct listing *l)
{
	if (!l)
		return;
	if (l->prev)
		l->prev->next = l->next;
	else if (l->srv && l->srv->listings == l)
		l->srv->listings = l->next;
	if (l->next)
		l->next->prev = l->prev;
	unload(l);
	free(l);
}

/*
 * The hashes of the entries, as ext4 computes them for a listing: stored
 * in a casefolded encrypted directory, over the casefolded name in
 * another casefolded one, over the bytes (ciphertext, if encrypted)
 * elsewhere. Returns 0 if every entry could be hashed.
 */
static int hash_entries(struct e2fuse *srv, struct listing *l)
{
	const struct e2fold_dir *d = l->d;
	int version = e2fold_effective_hash_version(srv->fs, d->dx_hash_version);
	const struct unicode_map *um = d->casefolded && !d->encrypted ?
				       srv->um : NULL;
	size_t i;

	for (i = 0; i < d->nents; i++) {
		const struct e2fold_dirent *e = &d->ents[i];
		ext2_dirhash_t h, m;

		if (e->has_stored_hash) {
			h = e->stored_hash;
			m = e->stored_minor;
		} else if (d->encrypted && d->casefolded) {
			return -1;
		} else if (e2fold_casefold_dirhash(um, version, e->name,
						   e->name_len,
						   srv->fs->super->s_hash_seed,
						   &h, &m)) {
			return -1;
		}
		l->hash[i] = h;
		l->minor[i] = m;
	}
	return 0;
}

static const struct listing *sorting;

static int by_hash(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (sorting->hash[x] != sorting->hash[y])
		return sorting->hash[x] < sorting->hash[y] ? -1 : 1;
	if (sorting->minor[x] != sorting->minor[y])
		return sorting->minor[x] < sorting->minor[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Hash order for a sound index, block order otherwise. */
static errcode_t make_order(struct e2fuse *srv, struct listing *l)
{
	const struct e2fold_dir *d = l->d;
	size_t i, n = d->nents ? d->nents : 1;

	l->hash = calloc(n, sizeof(*l->hash));
	l->minor = calloc(n, sizeof(*l->minor));
	l->order = calloc(n, sizeof(*l->order));
	if (!l->hash || !l->minor || !l->order)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < d->nents; i++)
		l->order[i] = i;
	if (d->indexed && d->dx_problem == E2FOLD_DX_OK &&
	    !hash_entries(srv, l)) {
		sorting = l;
		qsort(l->order, d->nents, sizeof(*l->order), by_hash);
		sorting = NULL;
		l->by_hash = 1;
		return 0;
	}
	/* ext4_readdir: a linear listing gives hashes only where stored. */
	for (i = 0; i < d->nents; i++) {
		l->hash[i] = d->ents[i].has_stored_hash ? d->ents[i].stored_hash : 0;
		l->minor[i] = d->ents[i].has_stored_hash ? d->ents[i].stored_minor : 0;
	}
	return 0;
}

void e2fuse_opendir(fuse_req_t req, fuse_ino_t node,
		    struct fuse_file_info *fi)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct listing *l = calloc(1, sizeof(*l));
	errcode_t retval = l ? 0 : EXT2_ET_NO_MEMORY;

	if (!retval)
		retval = ext2fs_check_directory(srv->fs, e2fuse_ino(node));
	if (retval) {
		free(l);
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	l->srv = srv;
	l->next = srv->listings;
	if (l->next)
		l->next->prev = l;
	srv->listings = l;
	fi->fh = (uintptr_t)l;
	if (fuse_reply_open(req, fi) == -ENOENT)
		listing_free(l);	/* interrupted: no releasedir */
}

/* The directory read and put in listing order; nothing kept on error. */
static errcode_t load(struct e2fuse *srv, ext2_ino_t ino, struct listing *l)
{
	errcode_t retval = e2fold_dir_read(srv->fs, ino, &l->d);

	/* A block the kernel's readdir would fail on. */
	if (!retval && (l->d->ncorrupt || l->d->nbadsum))
		retval = l->d->ncorrupt ? EXT2_ET_DIR_CORRUPTED :
			 EXT2_ET_DIR_CSUM_INVALID;
	if (!retval)
		retval = make_order(srv, l);
	if (retval)
		unload(l);
	return retval;
}

/* File types of entries as d_type. */
static mode_t type_mode(int file_type)
{
	static const mode_t modes[] = {
		[EXT2_FT_REG_FILE] = S_IFREG,
		[EXT2_FT_DIR] = S_IFDIR,
		[EXT2_FT_CHRDEV] = S_IFCHR,
		[EXT2_FT_BLKDEV] = S_IFBLK,
		[EXT2_FT_FIFO] = S_IFIFO,
		[EXT2_FT_SOCK] = S_IFSOCK,
		[EXT2_FT_SYMLINK] = S_IFLNK,
	};

	if (file_type > 0 && file_type < (int)(sizeof(modes) / sizeof(modes[0])))
		return modes[file_type];
	return 0;
}

/*
 * For readdirplus: the entry reply that lets the kernel cache entry i
 * under its stored name, or 0 in e->ino where it must ask by lookup (an
 * encrypted directory's no-key names; an entry that a lookup of its own
 * name would not reach, such as one misplaced in the index, a duplicate,
 * or a name a strict directory refuses, so that the kernel does not know
 * it by a name under which Linux does not find it; a long linear
 * directory, where proving that would cost a scan per entry).
 */
#define PLUS_LINEAR_MAX 1024

/* Do entries at listing positions a and b share both hashes? */
static int same_hashes(const struct listing *l, size_t a, size_t b)
{
	size_t x = l->order[a], y = l->order[b];

	return l->hash[x] == l->hash[y] && l->minor[x] == l->minor[y];
}

/*
 * Does a lookup of entry i's own name (at listing position pos) find it,
 * known from its hashes: 1 or 0; -1 when only the lookup can tell. In a
 * sound index a lookup hashes the name as the listing did, searches the
 * leaves that hash leads to (e2fold_dir_hash_leaves) and takes the first
 * entry there that matches; an entry that matches has the same folded
 * form, so the same hash and minor hash. An entry whose hashes no other
 * shares is found if and only if its leaf is one of those searched (the
 * lookup's full work, a fold and a compare with every name of the leaf,
 * was half the CPU of a listing of 100,000 names).
 */
static int findable_by_hashes(struct e2fuse *srv, const struct listing *l,
			      size_t pos, size_t i)
{
	const struct e2fold_dir *d = l->d;
	const struct e2fold_dirent *de = &d->ents[i];
	size_t first, n, leaf;

	if (!l->by_hash || de->has_stored_hash || !d->nleaves ||
	    de->lblk >= d->nblocks ||
	    (pos > 0 && same_hashes(l, pos, pos - 1)) ||
	    (pos + 1 < d->nents && same_hashes(l, pos, pos + 1)))
		return -1;
	/* A name a strict directory refuses is never found. */
	if (d->casefolded && srv->um &&
	    (srv->fs->super->s_encoding_flags & E2FOLD_ENC_STRICT_FL))
		return -1;
	leaf = d->leaf_of[de->lblk];
	if (leaf == (size_t)-1)
		return 0;
	e2fold_dir_hash_leaves(d, l->hash[i], &first, &n);
	return leaf >= first && leaf - first < n;
}

static void plus_entry(struct e2fuse *srv, const struct listing *l,
		       size_t pos, size_t i, const char *name,
		       struct fuse_entry_param *e)
{
	const struct e2fold_dir *d = l->d;
	const struct e2fold_dirent *de = &d->ents[i];
	struct e2fuse_found f;
	int findable = d->encrypted ? 0 : findable_by_hashes(srv, l, pos, i);

	if (findable < 0)
		findable = !(!d->indexed && d->nents > PLUS_LINEAR_MAX) &&
			   !e2fuse_find_in(srv, d, name, &f) &&
			   f.lblk == de->lblk && f.offset == de->offset;
	if (!findable ||
	    e2fuse_fill_entry_in(srv, d->ino, d->casefolded, name, de->ino,
				 e)) {
		memset(e, 0, sizeof(*e));
		e->attr.st_ino = e2fuse_node(de->ino);
		e->attr.st_mode = type_mode(de->file_type);
	}
}

/* The lookup counts a listing handed out: taken back if it never arrives. */
struct handed {
	ext2_ino_t *inos;
	size_t n, cap;
};

/*
 * Offsets: 0 is ".", 1 is "..", 2 + i the i-th entry in listing order;
 * the offset given with an entry is that of the next one. With plus, each
 * entry comes with its attributes and a lookup count (".." and "."
 * without: the kernel ignores them).
 */
static void list(fuse_req_t req, fuse_ino_t node, size_t size, off_t off,
		 struct fuse_file_info *fi, int plus)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct listing *l = listing_of(fi);
	const struct e2fold_dir *d;
	char *buf;
	/* A stored name (up to 255 bytes) or a no-key form (252). */
	char name[EXT2_NAME_LEN + 1];
	struct handed h = { NULL, 0, 0 };
	size_t used = 0, k;
	errcode_t retval;
	off_t at;

	if (!l->d) {
		retval = load(srv, e2fuse_ino(node), l);
		if (retval) {
			fuse_reply_err(req, e2fuse_is_corruption(retval) ?
				       e2fuse_corrupt(srv, e2fuse_ino(node),
						      "readdir", retval) :
				       e2fuse_errno(retval));
			return;
		}
	}
	d = l->d;
	buf = malloc(size);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	for (at = off; ; at++) {
		struct fuse_entry_param e;
		size_t i = 0, len;

		memset(&e, 0, sizeof(e));
		if (at == 0) {
			e.attr.st_ino = e2fuse_node(d->ino);
			e.attr.st_mode = S_IFDIR;
			strcpy(name, ".");
		} else if (at == 1) {
			e.attr.st_ino = e2fuse_node(d->dotdot ? d->dotdot :
							    d->ino);
			e.attr.st_mode = S_IFDIR;
			strcpy(name, "..");
		} else if ((size_t)(at - 2) < d->nents) {
			const struct e2fold_dirent *de;

			i = l->order[at - 2];
			de = &d->ents[i];
			e.attr.st_ino = de->ino;
			e.attr.st_mode = type_mode(de->file_type);
			if (d->encrypted)
				e2fuse_nokey_name(de, l->hash[i], l->minor[i],
						  name);
			else {
				memcpy(name, de->name, de->name_len);
				name[de->name_len] = '\0';
			}
		} else {
			break;
		}
		/* Full: the attributes of an entry left out are not read. */
		len = plus ? fuse_add_direntry_plus(req, NULL, 0, name, NULL, 0) :
			     fuse_add_direntry(req, NULL, 0, name, NULL, 0);
		if (len > size - used)
			break;
		if (plus && at >= 2)
			plus_entry(srv, l, at - 2, i, name, &e);
		if (plus && e.ino &&
		    (e2fold_array_reserve((void **)&h.inos, &h.cap, h.n + 1,
					  sizeof(*h.inos)) ||
		     e2fuse_ref(srv, e2fuse_ino(e.ino))))
			e.ino = 0;	/* no count taken: the kernel asks */
		if (plus)
			fuse_add_direntry_plus(req, buf + used, size - used,
					       name, &e, at + 1);
		else
			fuse_add_direntry(req, buf + used, size - used, name,
					  &e.attr, at + 1);
		if (plus && e.ino)
			h.inos[h.n++] = e2fuse_ino(e.ino);
		used += len;
	}
	/* A listing read from its start, as iterate_dir touches atime. */
	if (off == 0)
		e2fuse_accessed(srv, e2fuse_ino(node));
	if (fuse_reply_buf(req, buf, used))
		for (k = 0; k < h.n; k++)	/* interrupted: never handed */
			e2fuse_unref(srv, h.inos[k], 1);
	free(h.inos);
	free(buf);
}

void e2fuse_readdir(fuse_req_t req, fuse_ino_t node, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	list(req, node, size, off, fi, 0);
}

void e2fuse_readdirplus(fuse_req_t req, fuse_ino_t node, size_t size,
			off_t off, struct fuse_file_info *fi)
{
	list(req, node, size, off, fi, 1);
}

void e2fuse_releasedir(fuse_req_t req, fuse_ino_t node EXT2FS_ATTR((unused)),
		       struct fuse_file_info *fi)
{
	listing_free(listing_of(fi));
	fuse_reply_err(req, 0);
}

void e2fuse_listings_free(struct e2fuse *srv)
{
	while (srv->listings)
		listing_free(srv->listings);
}
