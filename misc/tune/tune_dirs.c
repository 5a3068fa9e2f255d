/* tune_dirs.c: what the tuning steps share: flagged inodes, paths, rewriting. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cfname.h"
#include "dirread.h"
#include "diredit.h"
#include "json.h"
#include "renameplan.h"
#include "tune.h"

errcode_t tune_flagged_inodes(ext2_filsys fs, int dirs_only, ext2_ino_t **ret,
			      size_t *ret_count)
{
	ext2_inode_scan scan;
	struct ext2_inode inode;
	ext2_ino_t ino, *found = NULL;
	size_t n = 0, cap = 0;
	errcode_t retval;

	*ret = NULL;
	*ret_count = 0;
	retval = ext2fs_open_inode_scan(fs, 0, &scan);
	if (retval)
		return retval;
	while (!(retval = ext2fs_get_next_inode(scan, &ino, &inode)) && ino) {
		if (!inode.i_links_count || !(inode.i_flags & EXT4_CASEFOLD_FL) ||
		    (dirs_only && !LINUX_S_ISDIR(inode.i_mode)))
			continue;
		retval = e2fold_array_reserve(&found, &cap, n + 1,
					      sizeof(*found));
		if (retval)
			break;
		found[n++] = ino;
	}
	ext2fs_close_inode_scan(scan);
	if (retval) {
		free(found);
		return retval;
	}
	*ret = found;
	*ret_count = n;
	return 0;
}

/* The path of dir as raw bytes, or NULL (free it). */
static char *raw_path(ext2_filsys fs, ext2_ino_t dir)
{
	char *path = NULL, *copy;

	if (ext2fs_get_pathname(fs, dir, 0, &path) || !path)
		return NULL;
	copy = strdup(path);
	ext2fs_free_mem(&path);
	return copy;
}

char *tune_path(ext2_filsys fs, ext2_ino_t dir)
{
	char *path = raw_path(fs, dir), *copy;
	size_t len;

	if (!path) {
		copy = malloc(32);
		if (copy)
			snprintf(copy, 32, "<inode %u>", dir);
		return copy;
	}
	len = strlen(path);
	copy = malloc(E2FOLD_ESCAPED_SIZE(len));
	if (copy)
		e2fold_escape_name((const unsigned char *)path, len, copy,
				   E2FOLD_ESCAPED_SIZE(len));
	free(path);
	return copy;
}

static void print_name(FILE *f, ext2_filsys fs, ext2_ino_t dir,
		       const unsigned char *name, unsigned int len, int exact)
{
	char *path = tune_path(fs, dir);
	char *esc = malloc(E2FOLD_ESCAPED_SIZE(len));

	if (esc && exact)
		e2fold_escape_name_exact(name, len, esc,
					 E2FOLD_ESCAPED_SIZE(len));
	else if (esc)
		e2fold_escape_name(name, len, esc, E2FOLD_ESCAPED_SIZE(len));
	fprintf(f, "%s%s%s", path ? path : "?",
		path && strcmp(path, "/") ? "/" : "", esc ? esc : "?");
	free(path);
	free(esc);
}

void tune_print_name(FILE *f, ext2_filsys fs, ext2_ino_t dir,
		     const unsigned char *name, unsigned int len)
{
	print_name(f, fs, dir, name, len, 0);
}

void tune_print_name_exact(FILE *f, ext2_filsys fs, ext2_ino_t dir,
			   const unsigned char *name, unsigned int len)
{
	print_name(f, fs, dir, name, len, 1);
}

const char *tune_unrewritable(const struct e2fold_dir *dir)
{
	size_t i;

	if (dir->ncorrupt || !dir->dotdot)
		return "it is damaged (run e2fold-fsck)";
	/* Hashes of ciphertext names need the key: only stored ones serve. */
	if (dir->encrypted && dir->casefolded)
		for (i = 0; i < dir->nents; i++)
			if (!dir->ents[i].has_stored_hash)
				return "it is encrypted and an entry lacks "
				       "its stored hash (run e2fold-fsck)";
	return NULL;
}

size_t tune_show_invalid(struct tune_ctx *ctx, const struct e2fold_dir *dir,
			 const char *note)
{
	size_t i, n = 0;

	for (i = 0; i < dir->nents; i++) {
		const struct e2fold_dirent *e = &dir->ents[i];
		struct e2fold_json o;

		if (e2fold_name_is_valid(ctx->um, e->name, e->name_len))
			continue;
		printf("  ");
		tune_print_name(stdout, ctx->fs, dir->ino, e->name, e->name_len);
		printf(" is not valid UTF-8%s\n", note);
		tune_report_begin(ctx, &o, "finding", "invalid_utf8", dir->ino,
				  e->ino);
		e2fold_json_name(&o, "name", e->name, e->name_len);
		e2fold_json_bool(&o, "renamed", 0);
		tune_report_add_finding(ctx, &o);
		n++;
	}
	return n;
}

errcode_t tune_begin_writes(struct tune_ctx *ctx)
{
	errcode_t retval;

	if (ctx->opt.dry_run || ctx->writing)
		return 0;
	ctx->writing = 1;
	ctx->wrote = 1;
	ctx->fs->super->s_state &= ~EXT2_VALID_FS;
	ext2fs_mark_super_dirty(ctx->fs);
	retval = ext2fs_flush(ctx->fs);
	if (retval)
		com_err("e2fold-tune", retval, "while writing the superblock");
	return retval;
}

errcode_t tune_rewrite_dir(struct tune_ctx *ctx, struct e2fold_dir *dir,
			   const struct unicode_map *um,
			   const struct e2fold_rename_plan *plans,
			   size_t nplans, __u32 set_flags, __u32 clear_flags)
{
	struct e2fold_dir_layout layout;
	struct e2fold_new_entry *ents;
	errcode_t retval;
	size_t i;

	if (dir->ncorrupt || !dir->dotdot)
		return EXT2_ET_DIR_CORRUPTED;
	/* Renaming would need the key; so would hashing a new name. */
	if (e2fold_dir_stored_hashes(dir) &&
	    (nplans || tune_unrewritable(dir)))
		return EXT2_ET_UNIMPLEMENTED;
	e2fold_dir_layout_of(ctx->fs, um, dir, &layout);
	/* The encoding the directory is converted to, casefolded or not. */
	layout.um = um;
	layout.set_flags = set_flags;
	layout.clear_flags = clear_flags;
	retval = e2fold_dir_entries(dir, 0, &ents);
	if (retval)
		return retval;
	for (i = 0; i < nplans; i++) {
		ents[plans[i].index].name = plans[i].name;
		ents[plans[i].index].name_len = plans[i].len;
	}
	retval = e2fold_dir_write(ctx->fs, &layout, ents, dir->nents);
	free(ents);
	ctx->wrote = 1;		/* even a failed write may have written */
	return retval;
}
