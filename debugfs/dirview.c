/*
 * dirview.c: a directory with the facts ls, htree_dump and collisions
 * print about its entries: the hash of each name, which names a strict
 * filesystem refuses, and which names collide.
 *
 * Collisions are names with the same casefold key (cfname.h), found with
 * a nameset. In encrypted casefolded directories the names are ciphertext
 * and their fold is unknown without the key, but each entry stores the
 * SipHash of its folded plaintext: two entries with the same stored hash
 * and minor hash are, barring a 64-bit collision, equal after casefolding.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "debugfs.h"
#include "nameset.h"

/* Is the index root's hash version usable for this directory's names? */
static int root_version_usable(const struct e2fold_dir *d)
{
	if (!d->indexed)
		return 0;
	switch (d->dx_problem) {
	case E2FOLD_DX_BAD_ROOT:
	case E2FOLD_DX_BAD_HASH_VERSION:
		return 0;
	case E2FOLD_DX_UNREADABLE:
		return d->dx_problem_block != 0;
	default:
		return d->dx_hash_version <= EXT2_HASH_TEA;
	}
}

static void choose_hash_version(struct session *s, struct dir_view *v)
{
	const struct e2fold_dir *d = v->dir;
	int def = s->fs->super->s_def_hash_version;

	if (d->encrypted && d->casefolded) {
		v->hash_version = -1;
	} else if (root_version_usable(d)) {
		v->hash_version = e2fold_effective_hash_version(s->fs,
							d->dx_hash_version);
		v->hash_from_root = 1;
	} else if (def <= EXT2_HASH_TEA) {
		v->hash_version = e2fold_effective_hash_version(s->fs, def);
	} else {
		v->hash_version = -1;
	}
}

static errcode_t compute_hashes(struct session *s, struct dir_view *v)
{
	const struct e2fold_dir *d = v->dir;
	size_t i;

	v->hash = calloc(d->nents + 1, sizeof(*v->hash));
	v->minor = calloc(d->nents + 1, sizeof(*v->minor));
	if (!v->hash || !v->minor)
		return EXT2_ET_NO_MEMORY;
	if (v->hash_version < 0)
		return 0;
	for (i = 0; i < d->nents; i++) {
		errcode_t retval = e2fold_casefold_dirhash(v->um,
				v->hash_version, d->ents[i].name,
				d->ents[i].name_len, s->fs->super->s_hash_seed,
				&v->hash[i], &v->minor[i]);

		if (retval)
			return retval;
	}
	return 0;
}

static int entry_name(void *arg, size_t id, const unsigned char **ret_name,
		      unsigned int *ret_len)
{
	const struct e2fold_dir *d = arg;

	*ret_name = d->ents[id].name;
	*ret_len = d->ents[id].name_len;
	return 0;
}

static errcode_t group_by_key(struct dir_view *v)
{
	struct e2fold_dir *d = v->dir;
	struct e2fold_nameset *set = e2fold_nameset_new(v->um, entry_name, d);
	size_t i;

	if (!set)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < d->nents; i++) {
		size_t other;
		int r = e2fold_nameset_add(set, i, d->ents[i].name,
					   d->ents[i].name_len, &other);

		if (r < 0) {
			e2fold_nameset_free(set);
			return EXT2_ET_NO_MEMORY;
		}
		if (r == 1)
			v->group[i] = v->group[other] = other;
	}
	e2fold_nameset_free(set);
	return 0;
}

static const struct e2fold_dir *sort_dir;

static int cmp_stored(const void *a, const void *b)
{
	const struct e2fold_dirent *x = &sort_dir->ents[*(const size_t *)a];
	const struct e2fold_dirent *y = &sort_dir->ents[*(const size_t *)b];

	if (x->stored_hash != y->stored_hash)
		return x->stored_hash < y->stored_hash ? -1 : 1;
	if (x->stored_minor != y->stored_minor)
		return x->stored_minor < y->stored_minor ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static errcode_t group_by_stored_hash(struct dir_view *v)
{
	const struct e2fold_dir *d = v->dir;
	size_t *order = malloc((d->nents + 1) * sizeof(*order));
	size_t i, n = 0;

	if (!order)
		return EXT2_ET_NO_MEMORY;
	for (i = 0; i < d->nents; i++)
		if (d->ents[i].has_stored_hash)
			order[n++] = i;
	sort_dir = d;
	qsort(order, n, sizeof(*order), cmp_stored);
	for (i = 1; i < n; i++) {
		const struct e2fold_dirent *x = &d->ents[order[i - 1]];
		const struct e2fold_dirent *y = &d->ents[order[i]];
		size_t first;

		if (x->stored_hash != y->stored_hash ||
		    x->stored_minor != y->stored_minor)
			continue;
		first = v->group[order[i - 1]] != NO_GROUP ?
			v->group[order[i - 1]] : order[i - 1];
		v->group[order[i - 1]] = v->group[order[i]] = first;
	}
	free(order);
	return 0;
}

static void mark_invalid(struct dir_view *v)
{
	const struct e2fold_dir *d = v->dir;
	size_t i;

	if (!v->um)
		return;
	for (i = 0; i < d->nents; i++) {
		if (!e2fold_name_is_valid(v->um, d->ents[i].name,
					  d->ents[i].name_len)) {
			v->invalid[i] = 1;
			v->ninvalid++;
		}
	}
}

errcode_t dir_view_open(struct session *s, ext2_ino_t ino,
			struct dir_view *v)
{
	struct e2fold_dir *d;
	errcode_t retval;
	size_t i;

	memset(v, 0, sizeof(*v));
	retval = e2fold_dir_read(s->fs, ino, &v->dir);
	if (retval)
		return retval;
	d = v->dir;
	v->um = d->casefolded && !d->encrypted ? s->um : NULL;
	choose_hash_version(s, v);
	v->invalid = calloc(d->nents + 1, 1);
	v->group = malloc((d->nents + 1) * sizeof(*v->group));
	if (!v->invalid || !v->group) {
		retval = EXT2_ET_NO_MEMORY;
		goto fail;
	}
	for (i = 0; i < d->nents; i++)
		v->group[i] = NO_GROUP;
	retval = compute_hashes(s, v);
	if (retval)
		goto fail;
	mark_invalid(v);
	if (d->encrypted && d->casefolded)
		retval = group_by_stored_hash(v);
	else
		retval = group_by_key(v);
	if (retval)
		goto fail;
	for (i = 0; i < d->nents; i++)
		if (v->group[i] != NO_GROUP)
			v->ncolliding++;
	return 0;
fail:
	dir_view_close(v);
	return retval;
}

void dir_view_close(struct dir_view *v)
{
	e2fold_dir_free(v->dir);
	free(v->hash);
	free(v->minor);
	free(v->invalid);
	free(v->group);
	memset(v, 0, sizeof(*v));
}

void dir_view_describe(struct session *s, const struct dir_view *v, FILE *f)
{
	const struct e2fold_dir *d = v->dir;

	fprintf(f, "inode %u:", d->ino);
	if (d->casefolded && s->enc)
		fprintf(f, " casefolded (%s%s),", s->enc->name,
			s->fs->super->s_encoding_flags & E2FOLD_ENC_STRICT_FL ?
			", strict" : "");
	else if (d->casefolded)
		fprintf(f, " casefolded (no known encoding: bytes compared),");
	else
		fprintf(f, " not casefolded,");
	if (d->encrypted)
		fprintf(f, " encrypted,");
	if (d->indexed)
		fprintf(f, " indexed,");
	else
		fprintf(f, " linear,");
	if (d->encrypted && d->casefolded)
		fprintf(f, " hashes stored in the entries (SipHash: needs the key),");
	else if (v->hash_version < 0)
		fprintf(f, " hash version unknown,");
	else
		fprintf(f, " hash %s (%s),",
			e2fold_hash_alg_name(v->hash_version),
			v->hash_from_root ? "from the index root" :
			"the filesystem default");
	fprintf(f, " %zu entr%s\n", d->nents, d->nents == 1 ? "y" : "ies");
}
