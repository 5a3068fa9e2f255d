/*
 * source_archive.c: read an archive with libarchive (tar in its ustar,
 * GNU and pax forms, cpio, ...; compressed or not).
 *
 * Member paths are taken as bytes, relative to the image root: a leading
 * "/" or "./" is dropped, "." components are skipped, and ".." is refused.
 * A directory that holds members but has no member of its own is made
 * with mode 0755, the root's owner and the creation time. A member may
 * name an existing directory again (the later metadata wins); any other
 * repeated path is refused, since which copy is meant is unclear.
 * Hard links must follow the member they link to, as tar writes them.
 */
#include "config.h"

#include <limits.h>
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <archive.h>
#include <archive_entry.h>
#include <et/com_err.h>

#include "array.h"
#include "cfname.h"
#include "encoding.h"
#include "fileio.h"
#include "mkfs.h"
#include "paxnames.h"
#include "source.h"

#define READ_BLOCK 65536

struct ar_scan {
	struct mkfs_source *src;
	struct mkfs_tree *tree;
	struct archive *a;
	const char *member;		/* path of the entry being read */
	size_t entries_cap;
	struct mkfs_paxnames pax;	/* exact names from pax records */
	struct unicode_map *um;		/* to check them against libarchive's */
};

static errcode_t member_error(struct ar_scan *s, const char *why)
{
	char buf[E2FOLD_ESCAPED_SIZE(PATH_MAX)];

	e2fold_escape_name((const unsigned char *)s->member,
			   strlen(s->member), buf, sizeof(buf));
	com_err(mkfs_prog, 0, "%s:%s: %s", s->src->path, buf, why);
	return EXT2_ET_INVALID_ARGUMENT;
}

static errcode_t archive_failure(struct mkfs_source *src, struct archive *a,
				 const char *what)
{
	const char *msg = archive_error_string(a);

	com_err(mkfs_prog, 0, "%s: %s: %s", src->path, what,
		msg ? msg : "unknown error");
	return EXT2_ET_INVALID_ARGUMENT;
}

static errcode_t open_archive(struct mkfs_source *src, struct archive **ret)
{
	struct archive *a = archive_read_new();

	if (!a)
		return EXT2_ET_NO_MEMORY;
	/*
	 * Raw-byte (ustar, GNU) names come through unchanged; pax names,
	 * which libarchive normalizes to NFC under a UTF-8 locale, are
	 * replaced by the exact ones from paxnames.c (under the C locale
	 * iconv would drop some code points instead, silently).
	 */
	setlocale(LC_CTYPE, "C.UTF-8");
	archive_read_support_filter_all(a);
	archive_read_support_format_all(a);
	if (archive_read_open_filename(a, src->path, READ_BLOCK) != ARCHIVE_OK) {
		errcode_t retval = archive_failure(src, a, "cannot read");

		archive_read_free(a);
		return retval;
	}
	*ret = a;
	return 0;
}

static enum mkfs_kind kind_of(mode_t type)
{
	switch (type) {
	case AE_IFDIR:
		return MKFS_DIR;
	case AE_IFLNK:
		return MKFS_SYMLINK;
	case AE_IFCHR:
		return MKFS_CHR;
	case AE_IFBLK:
		return MKFS_BLK;
	case AE_IFIFO:
		return MKFS_FIFO;
	case AE_IFSOCK:
		return MKFS_SOCK;
	}
	return MKFS_REG;
}

/* The next component of *path: its start and length; 0 at the end. */
static size_t next_component(const char **path, const char **ret)
{
	const char *p = *path;
	size_t len;

	for (;;) {
		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (!(len == 1 && p[0] == '.'))
			break;
		p += len;
	}
	*ret = p;
	*path = p + len;
	return len;
}

/*
 * The directory that will hold the last component of path, made where
 * missing; that component in *ret_name and *ret_len (0 for the root itself).
 */
static errcode_t walk_to_parent(struct ar_scan *s, const char *path,
				struct mkfs_node **ret_dir,
				const char **ret_name, size_t *ret_len)
{
	struct mkfs_node *dir = s->tree->root;
	const char *name, *next_name;
	size_t len, next_len;
	int depth = 0;

	len = next_component(&path, &name);
	while (len) {
		struct mkfs_node *child;
		errcode_t retval;

		next_len = next_component(&path, &next_name);
		if (len == 2 && name[0] == '.' && name[1] == '.')
			return member_error(s, "a path with \"..\" would leave "
					    "the image");
		if (len > E2FOLD_NAME_MAX)
			return member_error(s, "a name is longer than 255 bytes");
		if (!next_len)
			break;
		if (++depth > MKFS_MAX_DEPTH)
			return member_error(s, "too deep");
		child = mkfs_tree_child(s->tree, dir, (const unsigned char *)name,
					len);
		if (!child) {
			retval = mkfs_tree_add(s->tree, dir,
					       (const unsigned char *)name, len,
					       MKFS_DIR, &child);
			if (retval)
				return retval;
			child->implicit = 1;
			child->mode = S_IFDIR | 0755;
		} else if (child->kind != MKFS_DIR) {
			return member_error(s, "a parent is not a directory");
		}
		dir = child;
		name = next_name;
		len = next_len;
	}
	*ret_dir = dir;
	*ret_name = name;
	*ret_len = len;
	return 0;
}

static void set_time(struct timespec *ts, time_t sec, long nsec)
{
	ts->tv_sec = sec;
	ts->tv_nsec = nsec;
}

static errcode_t copy_metadata(struct ar_scan *s, struct mkfs_node *node,
			       struct archive_entry *e)
{
	unsigned long set = 0, clear = 0;
	const char *name;
	const void *value;
	size_t size;
	errcode_t retval = 0;

	node->implicit = 0;
	node->mode = (archive_entry_filetype(e) & S_IFMT) |
		(archive_entry_perm(e) & 07777);
	node->uid = archive_entry_uid(e);
	node->gid = archive_entry_gid(e);
	set_time(&node->mtime, archive_entry_mtime(e),
		 archive_entry_mtime_nsec(e));
	node->atime = node->mtime;
	node->ctime = node->mtime;
	if (archive_entry_atime_is_set(e))
		set_time(&node->atime, archive_entry_atime(e),
			 archive_entry_atime_nsec(e));
	if (archive_entry_ctime_is_set(e))
		set_time(&node->ctime, archive_entry_ctime(e),
			 archive_entry_ctime_nsec(e));
	node->size = node->kind == MKFS_REG ? (__u64)archive_entry_size(e) : 0;
	node->rdev = makedev(archive_entry_rdevmajor(e),
			     archive_entry_rdevminor(e));
	archive_entry_fflags(e, &set, &clear);
	node->src_casefold = node->kind == MKFS_DIR &&
		(set & E2FOLD_CASEFOLD_FL);
	mkfs_node_clear_xattrs(node);
	archive_entry_xattr_reset(e);
	while (!retval &&
	       archive_entry_xattr_next(e, &name, &value, &size) == ARCHIVE_OK)
		retval = mkfs_node_add_xattr(node, name, value, size);
	return retval;
}

/* Remember that entry number index holds node's data. */
static errcode_t note_data_entry(struct ar_scan *s, size_t index,
				 struct mkfs_node *node)
{
	struct mkfs_source *src = s->src;
	size_t old = s->entries_cap;
	errcode_t retval = e2fold_array_reserve(&src->entry_node,
						&s->entries_cap, index + 1,
						sizeof(*src->entry_node));

	if (retval)
		return retval;
	/* The entries between hold no data (directories, links): NULL. */
	memset(src->entry_node + old, 0,
	       (s->entries_cap - old) * sizeof(*src->entry_node));
	src->entry_node[index] = node;
	if (index + 1 > src->nentries)
		src->nentries = index + 1;
	return 0;
}

static errcode_t add_hard_link(struct ar_scan *s, struct mkfs_node *dir,
			       const char *name, size_t len, const char *target)
{
	struct mkfs_node *tdir, *primary, *node;
	const char *tname;
	size_t tlen;
	errcode_t retval;

	retval = walk_to_parent(s, target, &tdir, &tname, &tlen);
	if (retval)
		return retval;
	primary = tlen ? mkfs_tree_child(s->tree, tdir,
					 (const unsigned char *)tname, tlen) :
		NULL;
	if (!primary || primary->kind == MKFS_DIR)
		return member_error(s, "a hard link to a member that is not an "
				    "earlier file");
	primary = mkfs_node_inode(primary);
	retval = mkfs_tree_add(s->tree, dir, (const unsigned char *)name, len,
			       primary->kind, &node);
	if (retval == EXT2_ET_FILE_EXISTS)
		return member_error(s, "this path appears twice");
	if (retval)
		return retval;
	node->link = primary;
	primary->nlink++;
	return 0;
}

/*
 * A pax record's exact bytes must differ from libarchive's name only by
 * normalization; anything else means the walk in paxnames.c lost step
 * with libarchive, and then no name can be trusted.
 */
static errcode_t check_same(struct ar_scan *s, const char *exact,
			    const char *converted)
{
	struct qstr a = { (const unsigned char *)exact, strlen(exact) };
	struct qstr b = { (const unsigned char *)converted,
			  converted ? strlen(converted) : 0 };

	if (converted && (!strcmp(exact, converted) ||
			  utf8_strncmp(s->um, &a, &b) == 0))
		return 0;
	return member_error(s, "the archive's pax records and libarchive "
			    "disagree on this name; cannot tell its bytes");
}

/* Take the exact bytes of the member's pax names, when it has some. */
static errcode_t exact_names(struct ar_scan *s, struct archive_entry *e,
			     size_t index, const char **hardlink)
{
	const struct mkfs_paxname *px = mkfs_pax_names_of(&s->pax, index);
	errcode_t retval = 0;

	if (!px)
		return 0;
	if (px->path) {
		retval = check_same(s, px->path, s->member);
		s->member = px->path;
	}
	if (!retval && px->link && *hardlink) {
		retval = check_same(s, px->link, *hardlink);
		*hardlink = px->link;
	} else if (!retval && px->link) {
		retval = check_same(s, px->link, archive_entry_symlink(e));
	}
	return retval;
}

static errcode_t add_member(struct ar_scan *s, struct archive_entry *e,
			    size_t index)
{
	enum mkfs_kind kind = kind_of(archive_entry_filetype(e));
	const char *hardlink = archive_entry_hardlink(e), *name;
	struct mkfs_node *dir, *node;
	size_t len;
	errcode_t retval;

	s->member = archive_entry_pathname(e);
	if (!s->member)
		return archive_failure(s->src, s->a, "a member has no path");
	retval = exact_names(s, e, index, &hardlink);
	if (retval)
		return retval;
	retval = walk_to_parent(s, s->member, &dir, &name, &len);
	if (retval)
		return retval;
	if (hardlink)
		return add_hard_link(s, dir, name, len, hardlink);
	if (!len) {
		if (kind != MKFS_DIR)
			return member_error(s, "the root is not a directory");
		return copy_metadata(s, s->tree->root, e);
	}
	node = mkfs_tree_child(s->tree, dir, (const unsigned char *)name, len);
	if (node && !(node->kind == MKFS_DIR && kind == MKFS_DIR))
		return member_error(s, "this path appears twice");
	if (!node) {
		retval = mkfs_tree_add(s->tree, dir, (const unsigned char *)name,
				       len, kind, &node);
		if (retval)
			return retval;
	}
	retval = copy_metadata(s, node, e);
	if (!retval && kind == MKFS_SYMLINK) {
		const struct mkfs_paxname *px = mkfs_pax_names_of(&s->pax, index);
		const char *target = px && px->link ? px->link :
				     archive_entry_symlink(e);

		node->target = strdup(target ? target : "");
		if (!node->target)
			retval = EXT2_ET_NO_MEMORY;
	}
	if (!retval && kind == MKFS_REG && node->size)
		retval = note_data_entry(s, index, node);
	return retval;
}

/*
 * --progress through an archive: the bytes of the archive file read so
 * far (compressed, as libarchive consumed them) of its size. Reading it
 * is pass 1; copying the data after the inodes (populate.c) is pass 3.
 */
static void archive_progress(struct mkfs_source *src, struct archive *a,
			     int pass)
{
	if (src->progress)
		e2fold_progress_update(src->progress, pass,
				       archive_filter_bytes(a, -1),
				       src->archive_size);
}

errcode_t mkfs_archive_scan(struct mkfs_source *src, struct mkfs_tree *tree)
{
	struct ar_scan s = { .src = src, .tree = tree };
	struct archive_entry *e;
	errcode_t retval;
	size_t index = 0;
	int r;

	retval = mkfs_pax_names_read(src->path, &s.pax);
	if (retval)
		return retval;
	s.um = utf8_load(utf8version_latest());
	if (!s.um) {
		mkfs_pax_names_free(&s.pax);
		return EXT2_ET_NO_MEMORY;
	}
	retval = open_archive(src, &s.a);
	if (retval) {
		mkfs_pax_names_free(&s.pax);
		utf8_unload(s.um);
		return retval;
	}
	tree->root->implicit = 1;
	while (!retval) {
		r = archive_read_next_header(s.a, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			retval = archive_failure(src, s.a, "while reading");
			break;
		}
		retval = add_member(&s, e, index++);
		archive_progress(src, s.a, 1);
	}
	if (!retval && src->progress)
		e2fold_progress_update(src->progress, 1, src->archive_size,
				       src->archive_size);
	archive_read_free(s.a);
	mkfs_pax_names_free(&s.pax);
	utf8_unload(s.um);
	return retval;
}

/* The data of one member into its inode, piece by piece (sparse aware). */
static errcode_t copy_member(struct mkfs_source *src, struct archive *a,
			     ext2_filsys fs, struct mkfs_node *node)
{
	ext2_file_t file;
	const void *buf;
	size_t size;
	la_int64_t offset;
	errcode_t retval;
	int r;

	retval = mkfs_file_open(fs, node->ino, &file);
	if (retval)
		return retval;
	while ((r = archive_read_data_block(a, &buf, &size, &offset)) ==
	       ARCHIVE_OK || r == ARCHIVE_WARN) {
		retval = mkfs_file_pwrite(file, offset, buf, size);
		if (retval)
			break;
	}
	if (!retval && r != ARCHIVE_EOF)
		retval = archive_failure(src, a, "while reading data");
	if (retval) {
		ext2fs_file_close(file);
		return retval;
	}
	return mkfs_file_close(file, node->size);
}

errcode_t mkfs_archive_write_data(struct mkfs_source *src, ext2_filsys fs)
{
	struct archive *a;
	struct archive_entry *e;
	errcode_t retval;
	size_t index = 0;
	int r;

	if (!src->nentries)
		return 0;
	retval = open_archive(src, &a);
	if (retval)
		return retval;
	while (!retval && index < src->nentries) {
		struct mkfs_node *node;

		r = archive_read_next_header(a, &e);
		if (r == ARCHIVE_EOF) {
			com_err(mkfs_prog, 0, "%s: the archive changed while "
				"being read", src->path);
			retval = EXT2_ET_INVALID_ARGUMENT;
			break;
		}
		if (r < ARCHIVE_WARN) {
			retval = archive_failure(src, a, "while reading");
			break;
		}
		node = src->entry_node[index++];
		if (node)
			retval = copy_member(src, a, fs, node);
		archive_progress(src, a, 3);
	}
	if (!retval && src->progress)
		e2fold_progress_update(src->progress, 3, src->archive_size,
				       src->archive_size);
	archive_read_free(a);
	return retval;
}
