/*
 * fuzz_debugfs: e2fold-debugfs's commands, in-process, on damaged images.
 *
 * An input is a seed and patches (image.h), as for fuzz_fsck, whose
 * mutator aims at directory blocks, inode flags and the superblock's
 * encoding fields. Option byte (byte 1): bit 0 also runs the editing
 * commands; the other bits pick which names of a large directory the
 * commands and checks use (MAX_NAMES and MAX_CHECKED of them).
 *
 * The image is opened as the tool opens it (session_open, debugfs/
 * session.c) and the commands are called as libss calls them: found by
 * name in the generated table (e2fold_cmds.ct), argv built here, the
 * session as infop. Names come from the image: the harness walks the tree
 * from the root (at most MAX_DIRS directories) and hands names back to
 * the commands as arguments, \xHH-escaped so that any byte goes through.
 *
 * Per input, on a temporary file holding the image:
 *   1. read-only (no -w): stats; for each directory ls, htree_dump,
 *      collisions, stat, cd and pwd; for each name lookup (as listed and
 *      with its ASCII case swapped), dx_hash, stat, cat and dump (of
 *      regular files up to MAX_FILE_SIZE); collisions -r of the whole
 *      tree; the editing commands, which must refuse. Afterwards no byte
 *      of the file has changed.
 *   2. the directory walk itself checks, for entries of every directory
 *      it reads (e2fold_dir_read, as the commands read them):
 *      a lookup of the exact bytes finds an entry with those bytes, the
 *      entry itself when no other has them; a kernel lookup of the name
 *      finds an entry that matches it, unless the kernel would miss it
 *      for a reason lookup.h documents (a strict filesystem refuses the
 *      name; an indexed directory's hash leads elsewhere, which it
 *      reports as misplaced when casefolded); and cd -e reaches every
 *      directory the walk reached by names no other entry has.
 *   3. with option 0x01, read-write (-w): mkdir and write of new names
 *      (some colliding with names present), chattr on a new directory,
 *      set_encoding_flags. A name mkdir or write says it added is found
 *      by a kernel lookup and by an exact one. Then the edited image is
 *      walked again (2).
 * Crashes, leaks and hangs are libFuzzer's to catch (-timeout).
 *
 * To reproduce: FUZZ_DEBUGFS_VERBOSE=1 keeps the commands' output, and
 * FUZZ_DEBUGFS_DUMP=FILE saves the image an input describes.
 */
#include "config.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ss/ss.h>

#include "debugfs.h"
#include "fuzz.h"
#include "image.h"
#include "lookup.h"

#ifndef FUZZ_SEED_DIR
#define FUZZ_SEED_DIR "fuzz/seeds"
#endif

#define OPT_EDIT 0x01

#define MAX_DIRS 12		/* directories walked per image */
#define MAX_NAMES 4		/* names per directory given to commands */
#define MAX_CHECKED 16		/* names per directory whose lookups are checked */
#define MAX_FILE_SIZE (1u << 20)	/* bytes cat and dump copy out */
#define MAX_ARGS 8

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);

extern ss_request_table e2fold_cmds;

static struct seed *seeds;
static size_t nseeds;
static char tmpdir[64];
static char image_path[64], dump_path[64], src_path[64];

/* What write copies in: more than a block of the seeds (1 KiB). */
static const char src_text[] = "e2fold-debugfs fuzz file\n";
#define SRC_COPIES 60

static void cleanup(void)
{
	remove(image_path);
	remove(dump_path);
	remove(src_path);
	rmdir(tmpdir);
}

static void make_src(void)
{
	size_t n = strlen(src_text);
	char *buf = fuzz_malloc(SRC_COPIES * n);
	int i;

	for (i = 0; i < SRC_COPIES; i++)
		memcpy(buf + i * n, src_text, n);
	image_write(src_path, buf, SRC_COPIES * n);
	free(buf);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_SEED_DIR");
	(void)argc;
	(void)argv;
	fuzz_init_report();
	add_error_table(&et_ext2_error_table);
	fuzz_make_tmpdir(tmpdir, sizeof(tmpdir), "debugfs");
	snprintf(image_path, sizeof(image_path), "%s/image", tmpdir);
	snprintf(dump_path, sizeof(dump_path), "%s/dump", tmpdir);
	snprintf(src_path, sizeof(src_path), "%s/src", tmpdir);
	atexit(cleanup);
	make_src();
	nseeds = image_load_seeds(dir && *dir ? dir : FUZZ_SEED_DIR, tmpdir,
				  &seeds);
	if (!nseeds)
		abort();
	fuzz_quiet_stdout("FUZZ_DEBUGFS_VERBOSE");
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	return image_custom_mutate(seeds, nseeds, data, size, max_size, seed);
}

/* FUZZ_DEBUGFS_DUMP=FILE: keep the image of the (last) input. */
static void dump_image(const unsigned char *img, size_t size)
{
	const char *path = getenv("FUZZ_DEBUGFS_DUMP");

	if (path && *path)
		image_write(path, img, size);
}

static void assert_image_is(const unsigned char *img, size_t size)
{
	unsigned char *now = image_read(image_path, size);

	FUZZ_ASSERT(!memcmp(now, img, size));
	free(now);
}

/* ---- running commands ---- */

/* The command table's entry for name; every name the harness uses is there. */
static const ss_request_entry *request(const char *name)
{
	const ss_request_entry *r;
	const char *const *n;

	for (r = e2fold_cmds.requests; r->command_names; r++)
		for (n = r->command_names; *n; n++)
			if (!strcmp(*n, name))
				return r;
	fprintf(fuzz_report(), "no command %s in e2fold_cmds\n", name);
	abort();
}

/*
 * Run a command (its name, then its arguments, NULL-terminated) as libss
 * would. Returns 1 if it reported a failure, else 0.
 */
static int cmd(struct session *s, const char *name, ...)
{
	const char *argv[MAX_ARGS + 1];
	int argc = 0;
	va_list ap;

	argv[argc++] = name;
	va_start(ap, name);
	while ((argv[argc] = va_arg(ap, const char *)) != NULL)
		FUZZ_ASSERT(++argc < MAX_ARGS);
	va_end(ap);
	s->failed = 0;
	request(name)->function(argc, (cmd_argv_t)argv, 0, s);
	fflush(stdout);
	return s->failed;
}

/*
 * A name as a command argument: letters and digits as they are, every
 * other byte \xHH, which arg_bytes (debugfs/cmd_helpers.c) turns back into it.
 */
static char *arg_of(const unsigned char *name, size_t len)
{
	char *arg = fuzz_malloc(4 * len + 1), *p = arg;
	size_t i;

	for (i = 0; i < len; i++) {
		if (isalnum(name[i]) && name[i] < 0x80)
			*p++ = name[i];
		else
			p += sprintf(p, "\\x%02x", name[i]);
	}
	*p = '\0';
	return arg;
}

/* dir + "/" + the name as an argument; dir is "" for the root. */
static char *child_path(const char *dir, const unsigned char *name,
			size_t len)
{
	char *arg = arg_of(name, len);
	char *path = fuzz_malloc(strlen(dir) + strlen(arg) + 2);

	sprintf(path, "%s/%s", dir, arg);
	free(arg);
	return path;
}

/* The root's path is "/", any other directory's "/a/b" (dir_path "/a/b"). */
static const char *shown(const char *dir_path)
{
	return *dir_path ? dir_path : "/";
}

/* ---- invariants of lookups ---- */

static int same_bytes(const struct e2fold_dirent *a,
		      const struct e2fold_dirent *b)
{
	return a->name_len == b->name_len &&
	       !memcmp(a->name, b->name, a->name_len);
}

/* Does any entry but e (or "." or "..") have e's bytes? */
static int bytes_shared(const struct e2fold_dir *d,
			const struct e2fold_dirent *e)
{
	size_t i;

	if ((e->name_len == 1 && e->name[0] == '.') ||
	    (e->name_len == 2 && e->name[0] == '.' && e->name[1] == '.'))
		return 1;
	for (i = 0; i < d->nents; i++)
		if (&d->ents[i] != e && same_bytes(&d->ents[i], e))
			return 1;
	return 0;
}

static void fail_entry(const struct e2fold_dir *d,
		       const struct e2fold_dirent *e, const char *what)
{
	fprintf(fuzz_report(), "directory %u, entry at block %llu offset %u "
		"(inode %u):\n", d->ino, (unsigned long long)e->lblk,
		e->offset, e->ino);
	fuzz_print_bytes("name", e->name, e->name_len);
	fuzz_fail(__FILE__, __LINE__, what);
}

/* Exact bytes: every block is scanned, so the entry (or a twin) is found. */
static void check_exact_lookup(struct session *s, const struct e2fold_dir *d,
			       const struct e2fold_dirent *e,
			       struct e2fold_lookup *lk)
{
	if (e2fold_lookup(s->fs, s->um, d, e->name, e->name_len,
			  E2FOLD_LOOKUP_FL_EXACT, lk))
		fail_entry(d, e, "exact lookup of a listed name fails");
	if (!lk->found || !same_bytes(lk->found, e))
		fail_entry(d, e, "exact lookup misses a listed name");
	if (lk->found != e && !bytes_shared(d, e))
		fail_entry(d, e, "exact lookup finds another entry");
}

/*
 * As the kernel: every name matches itself (folded, or as bytes when it
 * cannot be folded), so a search of every block finds an entry. Only the
 * hashed search of a sound index can miss, when the entry is not in the
 * leaf its hash leads to: in a casefolded directory the lookup then scans
 * for it (misplaced, and found if the fallback is on).
 */
static void check_kernel_lookup(struct session *s, const struct e2fold_dir *d,
				const struct e2fold_dirent *e,
				struct e2fold_lookup *lk)
{
	if (e2fold_lookup(s->fs, s->um, d, e->name, e->name_len, 0, lk))
		fail_entry(d, e, "lookup of a listed name fails");
	if (lk->strict_refused)
		return;
	if (lk->found &&
	    e2fold_lookup_match(s->um, lk, lk->found) == E2FOLD_MATCH_NONE)
		fail_entry(d, e, "lookup finds an entry that does not match");
	if (lk->found || lk->misplaced)
		return;
	if (lk->path != E2FOLD_LOOKUP_HTREE || lk->casefolded)
		fail_entry(d, e, "lookup misses a listed name");
}

/* A sample of the entries (every step-th from pick), to keep runs short. */
static void check_lookups(struct session *s, const struct e2fold_dir *d,
			  unsigned int pick)
{
	struct e2fold_lookup *lk = fuzz_malloc(sizeof(*lk));
	size_t step = d->nents / MAX_CHECKED + 1, i;

	for (i = pick % step; i < d->nents; i += step) {
		const struct e2fold_dirent *e = &d->ents[i];

		if (e->name_len == 0)
			continue;
		check_exact_lookup(s, d, e, lk);
		check_kernel_lookup(s, d, e, lk);
	}
	free(lk);
}

/* ---- the walk ---- */

struct dir_item {
	ext2_ino_t ino;
	char *path;		/* "" for the root, else "/a/b" escaped */
	int unique;		/* every component's bytes unique in its parent */
};

struct walk {
	struct dir_item dirs[MAX_DIRS];
	size_t n;
	unsigned int pick;	/* which names of a large directory to use */
};

static void walk_free(struct walk *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->dirs[i].path);
	w->n = 0;
}

static int walked(const struct walk *w, ext2_ino_t ino)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->dirs[i].ino == ino)
			return 1;
	return 0;
}

/* Can the name be a component of a path? */
static int path_component(const struct e2fold_dirent *e)
{
	return e->name_len && !memchr(e->name, '/', e->name_len) &&
	       !(e->name_len == 1 && e->name[0] == '.') &&
	       !(e->name_len == 2 && e->name[0] == '.' && e->name[1] == '.');
}

static int read_inode(struct session *s, ext2_ino_t ino,
		      struct ext2_inode *inode)
{
	if (!ino || ino > s->fs->super->s_inodes_count ||
	    ext2fs_read_inode(s->fs, ino, inode))
		return -1;
	return 0;
}

static int inode_mode(struct session *s, ext2_ino_t ino, __u16 *ret_mode)
{
	struct ext2_inode inode;

	if (read_inode(s, ino, &inode))
		return -1;
	*ret_mode = inode.i_mode;
	return 0;
}

/*
 * A regular file small enough to copy out: a damaged i_size makes a
 * sparse file of terabytes, which cat and dump would rightly copy.
 */
static int small_file(struct session *s, ext2_ino_t ino)
{
	struct ext2_inode inode;

	return !read_inode(s, ino, &inode) && LINUX_S_ISREG(inode.i_mode) &&
	       EXT2_I_SIZE(&inode) <= MAX_FILE_SIZE;
}

static void add_dir(struct walk *w, const struct dir_item *parent,
		    const struct e2fold_dir *d, const struct e2fold_dirent *e)
{
	struct dir_item *it;

	if (w->n == MAX_DIRS || walked(w, e->ino))
		return;
	it = &w->dirs[w->n++];
	it->ino = e->ino;
	it->path = child_path(parent->path, e->name, e->name_len);
	it->unique = parent->unique && !bytes_shared(d, e);
}

/* A name with its ASCII letters' case swapped. */
static char *swapped_arg(const struct e2fold_dirent *e)
{
	unsigned char buf[E2FOLD_NAME_MAX];
	unsigned int i;

	for (i = 0; i < e->name_len; i++)
		buf[i] = isalpha(e->name[i]) && e->name[i] < 0x80 ?
			 e->name[i] ^ 0x20 : e->name[i];
	return arg_of(buf, e->name_len);
}

/* The commands that take one name of directory it. */
static void name_commands(struct session *s, const struct dir_item *it,
			  const struct e2fold_dirent *e, size_t i)
{
	char *name = arg_of(e->name, e->name_len);
	char *swapped = swapped_arg(e);
	char *path;

	cmd(s, "lookup", "-e", shown(it->path), name, NULL);
	cmd(s, "lookup", "-e", shown(it->path), swapped, NULL);
	if (i < 4)
		cmd(s, "dx_hash", "-c", name, swapped, NULL);
	if (path_component(e)) {
		path = child_path(it->path, e->name, e->name_len);
		cmd(s, "stat", "-e", path, NULL);
		if (small_file(s, e->ino)) {
			cmd(s, "cat", "-e", path, NULL);
			cmd(s, "dump", "-e", path, dump_path, NULL);
			remove(dump_path);
		}
		free(path);
	}
	free(name);
	free(swapped);
}

/*
 * Directory it: the commands on it and its names; the lookup invariants;
 * its subdirectories into the walk.
 */
static void visit(struct session *s, struct walk *w, size_t k, int commands)
{
	const struct dir_item *it = &w->dirs[k];
	const char *p = shown(it->path);
	struct e2fold_dir *d;
	size_t i, step;
	__u16 mode;

	if (commands) {
		cmd(s, "ls", "-e", "-l", "-c", "-H", p, NULL);
		cmd(s, "htree_dump", "-e", p, NULL);
		cmd(s, "collisions", "-e", p, NULL);
		cmd(s, "stat", "-e", p, NULL);
		if (it->unique)
			FUZZ_ASSERT(!cmd(s, "cd", "-e", p, NULL));
		else
			cmd(s, "cd", "-e", p, NULL);
		cmd(s, "pwd", NULL);
		cmd(s, "ls", "-x", NULL);
		cmd(s, "cd", "/", NULL);
	}
	if (e2fold_dir_read(s->fs, it->ino, &d))
		return;
	check_lookups(s, d, w->pick);
	step = d->nents / MAX_NAMES + 1;
	for (i = 0; i < d->nents; i++) {
		const struct e2fold_dirent *e = &d->ents[i];

		if (commands && i % step == w->pick % step)
			name_commands(s, it, e, i / step);
		if (path_component(e) && !inode_mode(s, e->ino, &mode) &&
		    LINUX_S_ISDIR(mode))
			add_dir(w, it, d, e);
	}
	e2fold_dir_free(d);
}

/* Walk the tree from the root (w ends up holding the directories seen). */
static void walk_tree(struct session *s, struct walk *w, int commands)
{
	size_t k;
	__u16 mode;

	w->n = 1;
	w->dirs[0].ino = EXT2_ROOT_INO;
	w->dirs[0].path = strdup("");
	w->dirs[0].unique = !inode_mode(s, EXT2_ROOT_INO, &mode) &&
			    LINUX_S_ISDIR(mode);
	if (!w->dirs[0].path)
		abort();
	for (k = 0; k < w->n; k++)
		visit(s, w, k, commands);
}

/* ---- the sessions ---- */

/* Without -w every editing command refuses. */
static void check_refusals(struct session *s)
{
	FUZZ_ASSERT(cmd(s, "mkdir", "/fuzz-new", NULL));
	FUZZ_ASSERT(cmd(s, "write", src_path, "/fuzz-new", NULL));
	FUZZ_ASSERT(cmd(s, "chattr", "+F", "/", NULL));
	FUZZ_ASSERT(cmd(s, "set_encoding_flags", "strict", NULL));
}

/* Step 1 (and 2 on the image as given); w is the walk, for step 3. */
static void read_only(const unsigned char *img, size_t size, struct walk *w)
{
	struct session s;

	if (session_open(&s, image_path, 0))
		return;
	cmd(&s, "stats", NULL);
	walk_tree(&s, w, 1);
	cmd(&s, "collisions", "-r", "-e", "/", NULL);
	cmd(&s, "dx_hash", "-h", "tea_unsigned", "-s",
	    "00112233-4455-6677-8899-aabbccddeeff", "A\\xc3\\x9f", NULL);
	check_refusals(&s);
	session_close(&s);
	assert_image_is(img, size);
}

/* A name added by mkdir or write is found, as the kernel looks it up. */
static void check_added(struct session *s, ext2_ino_t dir_ino,
			const unsigned char *name, size_t len)
{
	struct e2fold_lookup *lk = fuzz_malloc(sizeof(*lk));
	struct e2fold_dir *d;

	FUZZ_ASSERT(!e2fold_dir_read(s->fs, dir_ino, &d));
	FUZZ_ASSERT(!e2fold_lookup(s->fs, s->um, d, name, len, 0, lk));
	if (!lk->found) {
		fprintf(fuzz_report(), "directory %u\n", dir_ino);
		fuzz_print_bytes("added", name, len);
		FUZZ_ASSERT(!"a name just added is not found");
	}
	FUZZ_ASSERT(!e2fold_lookup(s->fs, s->um, d, name, len,
				   E2FOLD_LOOKUP_FL_EXACT, lk));
	FUZZ_ASSERT(lk->found && lk->found->name_len == len &&
		    !memcmp(lk->found->name, name, len));
	e2fold_dir_free(d);
	free(lk);
}

/* New names for directory k: plain, foldable, and a case twin of one there. */
static size_t new_names(struct session *s, const struct dir_item *it,
			unsigned char names[][E2FOLD_NAME_MAX], size_t *lens)
{
	static const char *const fresh[] = {
		"fuzz-new", "Fuzz-\xc3\x9f", "fuzz-\xcc\x81\x61", "fuzz\xff",
	};
	struct e2fold_dir *d;
	size_t n = 0, i;

	for (i = 0; i < sizeof(fresh) / sizeof(fresh[0]); i++, n++) {
		lens[n] = strlen(fresh[i]);
		memcpy(names[n], fresh[i], lens[n]);
	}
	if (!e2fold_dir_read(s->fs, it->ino, &d)) {
		for (i = 0; i < d->nents && n < 6; i++) {
			const struct e2fold_dirent *e = &d->ents[i];
			unsigned int j;

			if (!path_component(e))
				continue;
			for (j = 0; j < e->name_len; j++)
				names[n][j] = isalpha(e->name[j]) &&
					      e->name[j] < 0x80 ?
					      e->name[j] ^ 0x20 : e->name[j];
			lens[n++] = e->name_len;
			i += d->nents / 2;	/* one near the start, one later */
		}
		e2fold_dir_free(d);
	}
	return n;
}

/* mkdir and write of the names; chattr on the first new directory. */
static void edit_dir(struct session *s, const struct dir_item *it, size_t k)
{
	unsigned char names[6][E2FOLD_NAME_MAX];
	size_t lens[6], n = new_names(s, it, names, lens), i;

	for (i = 0; i < n; i++) {
		char *path = child_path(it->path, names[i], lens[i]);
		int failed;

		if ((i + k) % 2)
			failed = cmd(s, "mkdir", "-e", path, NULL);
		else
			failed = cmd(s, "write", "-e", src_path, path, NULL);
		if (!failed)
			check_added(s, it->ino, names[i], lens[i]);
		if (!failed && i == 1 && (i + k) % 2) {
			cmd(s, "chattr", "-e", "-F", path, NULL);
			cmd(s, "chattr", "-e", "+F", path, NULL);
		}
		free(path);
	}
}

/* The walk's invariants on the edited image (no commands). */
static void check_edited(unsigned int pick)
{
	struct session s;
	struct walk w;

	if (session_open(&s, image_path, 0))
		return;
	memset(&w, 0, sizeof(w));
	w.pick = pick;
	walk_tree(&s, &w, 0);
	walk_free(&w);
	session_close(&s);
}

/* Step 3: the editing commands, then the walk's invariants again. */
static void read_write(const struct walk *w)
{
	struct session s;
	size_t k;

	if (session_open(&s, image_path, 1))
		return;
	cmd(&s, "set_encoding_flags", w->n % 2 ? "strict" : "none", NULL);
	for (k = 0; k < w->n && k < 4; k++)
		edit_dir(&s, &w->dirs[k], k);
	session_close(&s);
	check_edited(w->pick);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct seed *sd = image_seed_of(seeds, nseeds, data, size);
	unsigned int opts = size > 1 ? data[1] : 0;
	struct walk w;
	unsigned char *img;

	if (!sd)
		return 0;
	img = image_build(sd, data, size);
	image_write(image_path, img, sd->size);
	dump_image(img, sd->size);
	memset(&w, 0, sizeof(w));
	w.pick = opts >> 1;
	read_only(img, sd->size, &w);
	if (opts & OPT_EDIT)
		read_write(&w);
	walk_free(&w);
	free(img);
	return 0;
}
