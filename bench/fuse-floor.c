/*
 * fuse-floor: the least a FUSE server can do, for bench/fuse-bench.sh's
 * floor kind: what each request costs through the kernel's FUSE client
 * and libfuse before a server does any work of its own, so that the
 * bench can tell that cost from e2fold-fuse's.
 *
 *   fuse-floor NAMES MOUNTPOINT
 *
 * It serves a root holding one directory, big/, whose entries are the
 * NUL-separated names in the file NAMES, each an empty regular file, in
 * memory. A lookup matches ASCII letters in either case (the bench's
 * other spelling) through a hash table; create and unlink change it. It
 * answers as e2fold-fuse does by default: entries and attributes kept by
 * the kernel for 1 s, no negative entries, readdirplus for every
 * listing, ACLs kept by the kernel, every attribute asked for answered
 * ENODATA, FLUSH answered ENOSYS, several threads (libfuse's own loop,
 * the table under a read-write lock taken for the table only, so replies
 * go out in parallel). It runs in the foreground until unmounted.
 */
#define FUSE_USE_VERSION 34
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <fuse_lowlevel.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ROOT_INO FUSE_ROOT_ID	/* 1 */
#define BIG_INO 2
#define FIRST_FILE_INO 3
#define TIMEOUT 1.0

/* A file of big/: inode FIRST_FILE_INO + its index in files. */
struct file {
	char *name;
	int live;
};

/* The table: files, slots and their counts. */
static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct file *files;
static size_t nfiles, files_cap;
static size_t *slots;		/* index + 1 of a file, 0 empty */
static size_t nslots;		/* a power of 2, at least twice nfiles */

static uint64_t fold_hash(const char *name, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)tolower((unsigned char)name[i])) *
		    1099511628211ULL;
	return h;
}

static int same(const char *a, const char *b, size_t len)
{
	return strlen(a) == len && !strncasecmp(a, b, len);
}

/* The slot of name: its file's, or the empty one where it would go. */
static size_t *slot_of(const char *name, size_t len)
{
	size_t i = fold_hash(name, len) & (nslots - 1);

	while (slots[i] && !same(files[slots[i] - 1].name, name, len))
		i = (i + 1) & (nslots - 1);
	return &slots[i];
}

static void grow(void)
{
	size_t old = nslots, *was = slots;

	nslots = nslots ? nslots * 2 : 1024;
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		abort();
	for (size_t i = 0; i < old; i++)
		if (was[i] && files[was[i] - 1].live)
			*slot_of(files[was[i] - 1].name,
				 strlen(files[was[i] - 1].name)) = was[i];
	free(was);
}

/* Adds name; returns its index, or -1 if a live file already has it. */
static long add(const char *name, size_t len)
{
	size_t *slot;

	if (2 * (nfiles + 1) > nslots)
		grow();
	slot = slot_of(name, len);
	if (*slot)
		return -1;
	if (nfiles == files_cap) {
		files_cap = files_cap ? files_cap * 2 : 1024;
		files = realloc(files, files_cap * sizeof(*files));
		if (!files)
			abort();
	}
	files[nfiles].name = strndup(name, len);
	files[nfiles].live = 1;
	*slot = ++nfiles;
	return (long)nfiles - 1;
}

/* Removes the file at slot, keeping the probe chains whole. */
static void remove_at(size_t *slot)
{
	size_t i = (size_t)(slot - slots), j = i;

	files[*slot - 1].live = 0;
	slots[i] = 0;
	for (;;) {
		size_t idx;

		j = (j + 1) & (nslots - 1);
		if (!slots[j])
			return;
		idx = slots[j];
		slots[j] = 0;
		*slot_of(files[idx - 1].name,
			 strlen(files[idx - 1].name)) = idx;
	}
}

static void fill_attr(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_mode = ino < FIRST_FILE_INO ? S_IFDIR | 0755 : S_IFREG | 0644;
	st->st_nlink = ino < FIRST_FILE_INO ? 2 : 1;
	st->st_blksize = 4096;
}

static int live_ino(fuse_ino_t ino)
{
	return ino == ROOT_INO || ino == BIG_INO ||
	       (ino >= FIRST_FILE_INO && ino - FIRST_FILE_INO < nfiles &&
		files[ino - FIRST_FILE_INO].live);
}

static void fill_entry(fuse_ino_t ino, struct fuse_entry_param *e)
{
	memset(e, 0, sizeof(*e));
	e->ino = ino;
	e->generation = 1;
	e->entry_timeout = TIMEOUT;
	e->attr_timeout = TIMEOUT;
	fill_attr(ino, &e->attr);
}

static void floor_init(void *data, struct fuse_conn_info *conn)
{
	(void)data;
	conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
	/* As e2fold-fuse serves an image mounted acl: the kernel keeps ACLs. */
	if (conn->capable & FUSE_CAP_POSIX_ACL)
		conn->want |= FUSE_CAP_POSIX_ACL;
}

static void floor_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	size_t *slot;

	size_t found;

	if (parent == ROOT_INO && !strcmp(name, "big")) {
		fill_entry(BIG_INO, &e);
		fuse_reply_entry(req, &e);
		return;
	}
	pthread_rwlock_rdlock(&table_lock);
	slot = parent == BIG_INO ? slot_of(name, strlen(name)) : NULL;
	found = slot ? *slot : 0;
	pthread_rwlock_unlock(&table_lock);
	if (!found) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_entry(FIRST_FILE_INO + found - 1, &e);
	fuse_reply_entry(req, &e);
}

static void floor_getattr(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	struct stat st;
	int live;

	(void)fi;
	pthread_rwlock_rdlock(&table_lock);
	live = live_ino(ino);
	pthread_rwlock_unlock(&table_lock);
	if (!live) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_attr(ino, &st);
	fuse_reply_attr(req, &st, TIMEOUT);
}

/* Entries of dir from off (0: ".", 1: "..", 2 + i: files[i]). */
static void list(fuse_req_t req, fuse_ino_t dir, size_t size, off_t off,
		 int plus)
{
	char *buf = malloc(size);
	size_t used = 0;
	size_t count;

	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	pthread_rwlock_rdlock(&table_lock);
	count = dir == BIG_INO ? nfiles + 2 : 3;
	for (size_t i = (size_t)off; i < count; i++) {
		const char *name;
		fuse_ino_t ino;
		struct fuse_entry_param e;
		size_t n;

		if (i < 2) {
			name = i ? ".." : ".";
			ino = i ? ROOT_INO : dir;
		} else if (dir == ROOT_INO) {
			name = "big";
			ino = BIG_INO;
		} else if (!files[i - 2].live) {
			continue;
		} else {
			name = files[i - 2].name;
			ino = FIRST_FILE_INO + i - 2;
		}
		fill_entry(ino, &e);
		n = plus ? fuse_add_direntry_plus(req, buf + used,
						  size - used, name, &e, i + 1) :
			   fuse_add_direntry(req, buf + used, size - used,
					     name, &e.attr, i + 1);
		if (n > size - used)
			break;
		used += n;
	}
	pthread_rwlock_unlock(&table_lock);
	fuse_reply_buf(req, buf, used);
	free(buf);
}

static void floor_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
			  off_t off, struct fuse_file_info *fi)
{
	(void)fi;
	list(req, ino, size, off, 0);
}

static void floor_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			      off_t off, struct fuse_file_info *fi)
{
	(void)fi;
	list(req, ino, size, off, 1);
}

static void floor_create(fuse_req_t req, fuse_ino_t parent, const char *name,
			 mode_t mode, struct fuse_file_info *fi)
{
	struct fuse_entry_param e;
	long i;

	(void)mode;
	if (parent != BIG_INO) {
		fuse_reply_err(req, EACCES);
		return;
	}
	pthread_rwlock_wrlock(&table_lock);
	i = add(name, strlen(name));
	pthread_rwlock_unlock(&table_lock);
	if (i < 0) {
		fuse_reply_err(req, EEXIST);
		return;
	}
	fill_entry(FIRST_FILE_INO + (fuse_ino_t)i, &e);
	fuse_reply_create(req, &e, fi);
}

static void floor_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	size_t *slot;
	int found;

	pthread_rwlock_wrlock(&table_lock);
	slot = parent == BIG_INO ? slot_of(name, strlen(name)) : NULL;
	found = slot && *slot;
	if (found)
		remove_at(slot);
	pthread_rwlock_unlock(&table_lock);
	fuse_reply_err(req, found ? 0 : ENOENT);
}

/*
 * No attribute anywhere. A server that has attributes must answer each
 * ask (ENOSYS would stop the kernel asking for good), so ls -l costs a
 * floor one getxattr per name as it costs e2fold-fuse.
 */
static void floor_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			   size_t size)
{
	(void)ino;
	(void)name;
	(void)size;
	fuse_reply_err(req, ENODATA);
}

static void floor_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	(void)ino;
	if (size)
		fuse_reply_buf(req, NULL, 0);
	else
		fuse_reply_xattr(req, 0);
}

static void floor_flush(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, ENOSYS);
}

static const struct fuse_lowlevel_ops floor_ops = {
	.init = floor_init,
	.lookup = floor_lookup,
	.getattr = floor_getattr,
	.readdir = floor_readdir,
	.readdirplus = floor_readdirplus,
	.create = floor_create,
	.unlink = floor_unlink,
	.flush = floor_flush,
	.getxattr = floor_getxattr,
	.listxattr = floor_listxattr,
};

static void load_names(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!f) {
		perror(path);
		exit(1);
	}
	while ((len = getdelim(&line, &cap, '\0', f)) > 0) {
		if (line[len - 1] == '\0')
			len--;
		if (len > 0 && add(line, (size_t)len) < 0) {
			fprintf(stderr, "%s: %s is there twice\n", path, line);
			exit(1);
		}
	}
	free(line);
	fclose(f);
}

int main(int argc, char **argv)
{
	char *args[] = { argv[0], "-o", "default_permissions,fsname=floor",
			 NULL };
	struct fuse_args fargs = FUSE_ARGS_INIT(3, args);
	/* As e2fold-fuse's default: 10 threads, one device. */
	struct fuse_loop_config loop = { .clone_fd = 0,
					 .max_idle_threads = 10 };
	struct fuse_session *se;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s NAMES MOUNTPOINT\n", argv[0]);
		return 2;
	}
	load_names(argv[1]);
	se = fuse_session_new(&fargs, &floor_ops, sizeof(floor_ops), NULL);
	if (!se || fuse_session_mount(se, argv[2]))
		return 1;
	ret = fuse_session_loop_mt(se, &loop);
	fuse_session_unmount(se);
	fuse_session_destroy(se);
	return ret ? 1 : 0;
}
