/*
 * utf8_scan.c: e2fold-utf8 scan.
 *
 * What collides. A casefolded ext4 directory compares names by their keys
 * (cfname.h): the casefolded bytes, or the raw bytes of a name that cannot
 * be folded, as Linux falls back to byte comparison for such names. Names
 * with equal keys collide, and so does a name whose key is the key of "."
 * or "..", with the directory's own entries. The grouping is the library's
 * rename planner (renameplan.h), as fsck and mkfs use it. Under --strict
 * the target refuses what utf8_validate rejects, so such a name is
 * reported as refused and takes no part in collisions: it could never be
 * in the directory.
 *
 * How it walks. Depth first, names in byte order, one directory at a time:
 * a directory is read whole (its names must be compared with each other),
 * checked and reported; then only its subdirectories' names are kept, in
 * the stack of directories still to visit. Memory is the largest directory
 * plus the subdirectory names along the current path, never the tree. Each
 * level holds one open descriptor and its subdirectories are opened from
 * it (openat, O_NOFOLLOW), so paths longer than PATH_MAX work and no
 * symbolic link below an operand is followed. Mount points are crossed, as
 * find crosses them without -xdev; a directory that is its own ancestor (a
 * bind mount loop) is an error and is not entered again.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "cfname.h"
#include "json.h"
#include "nameset.h"
#include "plural.h"
#include "progress.h"
#include "renameplan.h"
#include "utf8_scan.h"

#define NONE SIZE_MAX

/* One entry of the directory being checked; its name is in the arena. */
struct entry {
	size_t off;
	unsigned int len;
	int is_dir;		/* a directory, not a link to one */
};

/* The directory being checked, every name of it. */
struct dir_names {
	char *arena;		/* the names, each NUL-terminated */
	size_t used, size;
	struct entry *ents;
	size_t n, cap;
	struct e2fold_name_in *in;	/* the same names, for the library */
	size_t in_cap;
};

/*
 * What the check found, per planner id: ids 0..n-1 are the names, n is "."
 * and n + 1 is ".." (renameplan.h). A group is its first member in byte
 * order (the keeper; "." or ".." when a name folds to them), then the chain
 * of `next`.
 */
struct member {
	size_t next;		/* the next member of its group, or NONE */
	size_t last;		/* of a group's first member: its last one */
	unsigned char follower;	/* in a group, after its first member */
	unsigned char invalid;	/* refused by a strict filesystem */
};

struct dir_check {
	size_t *order;		/* the names' ids in byte order */
	struct member *mem;	/* n + 2 */
	size_t mem_cap;
	unsigned long groups, colliding, invalid;
};

/* A directory on the way down, and its subdirectories still to visit. */
struct frame {
	int fd;
	dev_t dev;
	ino_t ino;
	size_t path_len;	/* its path is the first path_len bytes */
	char *subdirs;		/* names, NUL-terminated, in byte order */
	size_t next;		/* offset of the next one to visit */
	size_t left;		/* how many are still to visit */
};

struct scan {
	const struct utf8_scan_options *opt;
	struct frame *stack;
	size_t depth, stack_cap;
	char *path;		/* the current directory's path */
	size_t path_len, path_cap;
	char *esc;		/* scratch for escaping */
	size_t esc_cap;
	struct dir_names names;
	struct dir_check check;
	unsigned long dirs, nnames, groups, colliding, invalid, errors;
	struct e2fold_json json;	/* --json: streamed to stdout */
	struct e2fold_progress progress;	/* -C */
};

/* The bytes as e2fold_escape_name shows them, in scratch space. */
static const char *escaped(struct scan *sc, const void *s, size_t len)
{
	if (e2fold_array_reserve(&sc->esc, &sc->esc_cap,
				 E2FOLD_ESCAPED_SIZE(len), 1))
		return "(not shown: out of memory)";
	return e2fold_escape_name(s, (unsigned int)len, sc->esc, sc->esc_cap);
}

/* ------------------------------------------------------------------ */
/* Reading a directory                                                 */

static int add_name(struct dir_names *d, const char *name, int is_dir)
{
	size_t len = strlen(name);

	if (e2fold_array_reserve(&d->arena, &d->size, d->used + len + 1, 1) ||
	    e2fold_array_reserve(&d->ents, &d->cap, d->n + 1, sizeof(*d->ents)))
		return ENOMEM;
	memcpy(d->arena + d->used, name, len + 1);
	d->ents[d->n].off = d->used;
	d->ents[d->n].len = len;
	d->ents[d->n].is_dir = is_dir;
	d->used += len + 1;
	d->n++;
	return 0;
}

/* Is the entry of the directory at fd a directory (not a link to one)? */
static int entry_is_dir(int fd, const struct dirent *de)
{
	struct stat st;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_DIR;
	return !fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
	       S_ISDIR(st.st_mode);
}

static int is_dot_entry(const char *name)
{
	return name[0] == '.' &&
	       (!name[1] || (name[1] == '.' && !name[2]));
}

/*
 * Every name of the directory open at fd but "." and "..". The reading is
 * done on a duplicate, so that fd stays open for openat and the DIR and
 * its buffer are freed before the walk goes down. 0 or an errno.
 */
static int read_names(int fd, struct dir_names *d)
{
	int dfd = fcntl(fd, F_DUPFD_CLOEXEC, 0), err = 0;
	struct dirent *de;
	DIR *dir;

	d->n = d->used = 0;
	if (dfd < 0)
		return errno;
	dir = fdopendir(dfd);
	if (!dir) {
		err = errno;
		close(dfd);
		return err;
	}
	for (;;) {
		errno = 0;
		de = readdir(dir);
		if (!de) {
			err = errno;
			break;
		}
		if (is_dot_entry(de->d_name))
			continue;
		err = add_name(d, de->d_name, entry_is_dir(fd, de));
		if (err)
			break;
	}
	closedir(dir);
	return err;
}

/* Point the library's view of the names at the arena (now complete). */
static int list_names(struct dir_names *d)
{
	struct e2fold_name_in *in;
	size_t i;

	if (e2fold_array_reserve(&d->in, &d->in_cap, d->n, sizeof(*d->in)))
		return ENOMEM;
	in = d->in;
	for (i = 0; i < d->n; i++) {
		in[i].name = (const unsigned char *)d->arena + d->ents[i].off;
		in[i].len = d->ents[i].len;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Checking a directory                                                */

static int member_name(void *arg, size_t id, const unsigned char **ret_name,
		       unsigned int *ret_len)
{
	const struct dir_names *d = arg;

	if (id >= d->n)
		return -1;
	*ret_name = d->in[id].name;
	*ret_len = d->in[id].len;
	return 0;
}

/* Name k has the key of first, the first of its group so far. */
static void join_group(struct dir_check *c, size_t n, size_t first, size_t k)
{
	struct member *m = c->mem;

	if (m[first].next == NONE) {
		c->groups++;
		c->colliding += first < n;	/* "." and ".." are no names */
	}
	m[m[first].last].next = k;
	m[first].last = k;
	m[k].follower = 1;
	c->colliding++;
}

/* Group the names of sc->names and find the invalid ones. 0 or ENOMEM. */
static int check_names(struct scan *sc)
{
	const struct dir_names *d = &sc->names;
	struct dir_check *c = &sc->check;
	struct e2fold_renameplan *rp;
	struct e2fold_rename_plan plan;
	size_t n = d->n, i;
	struct member *m;
	int err = 0;

	c->groups = c->colliding = c->invalid = 0;
	free(c->order);
	c->order = NULL;
	if (e2fold_array_reserve(&c->mem, &c->mem_cap, n + 2, sizeof(*c->mem)))
		return ENOMEM;
	m = c->mem;
	for (i = 0; i < n + 2; i++) {
		m[i].next = NONE;
		m[i].last = i;
		m[i].follower = m[i].invalid = 0;
	}
	if (e2fold_sorted_order(d->in, n, &c->order))
		return ENOMEM;
	/* The planner only groups: invalid names are kept out of it. */
	if (e2fold_renameplan_new(sc->opt->um, E2FOLD_PLAN_DOTS, n, member_name,
				  (void *)d, &rp))
		return ENOMEM;
	for (i = 0; !err && i < n; i++) {
		size_t k = c->order[i];

		if (sc->opt->strict &&
		    !e2fold_name_is_valid(sc->opt->um, d->in[k].name,
					  d->in[k].len)) {
			m[k].invalid = 1;
			c->invalid++;
			continue;
		}
		if (e2fold_renameplan_add(rp, k, NULL, NULL))
			err = ENOMEM;
		else if (e2fold_renameplan_fate(rp, k, &plan))
			join_group(c, n, plan.keeper, k);
	}
	e2fold_renameplan_free(rp);
	return err;
}

/*
 * Groups are reported "." first, then "..", then by their first name in
 * byte order. The first member of the g-th candidate, or NONE if no group
 * starts there.
 */
static size_t group_first(const struct scan *sc, size_t g)
{
	size_t n = sc->names.n;
	size_t first = g < 2 ? n + g : sc->check.order[g - 2];
	const struct member *m = &sc->check.mem[first];

	return !m->follower && m->next != NONE ? first : NONE;
}

/* ------------------------------------------------------------------ */
/* Reporting                                                           */

/*
 * One name of a report: escaped, or exactly when names of its group
 * print alike (cfname.h); with --hex its bytes follow.
 */
static void print_name(struct scan *sc, size_t id, int exact)
{
	const struct e2fold_name_in *nm = &sc->names.in[id];
	size_t i;

	if (exact && !e2fold_array_reserve(&sc->esc, &sc->esc_cap,
					   E2FOLD_ESCAPED_SIZE(nm->len), 1))
		printf("    %s", e2fold_escape_name_exact(nm->name, nm->len,
							   sc->esc,
							   sc->esc_cap));
	else
		printf("    %s", escaped(sc, nm->name, nm->len));
	if (sc->opt->hex) {
		fputs("  (", stdout);
		for (i = 0; i < nm->len; i++)
			printf("%s%02x", i ? " " : "", nm->name[i]);
		fputc(')', stdout);
	}
	fputc('\n', stdout);
}

/* Do two names of the group that starts at first print alike? */
static int group_prints_alike(const struct scan *sc, size_t first)
{
	const struct member *mem = sc->check.mem;
	size_t n = sc->names.n, a, b;

	for (a = first; a != NONE; a = mem[a].next) {
		if (a >= n)
			continue;
		for (b = mem[a].next; b != NONE; b = mem[b].next)
			if (e2fold_names_print_alike(sc->names.in[a].name,
						     sc->names.in[a].len,
						     sc->names.in[b].name,
						     sc->names.in[b].len))
				return 1;
	}
	return 0;
}

static void text_report(struct scan *sc)
{
	const struct dir_check *c = &sc->check;
	size_t n = sc->names.n, g, i, k;

	printf("%s:\n", escaped(sc, sc->path, sc->path_len));
	for (g = 0; g < n + 2; g++) {
		size_t first = group_first(sc, g);

		int exact;

		if (first == NONE)
			continue;
		exact = group_prints_alike(sc, first);
		if (first < n) {
			printf("  same after casefolding:\n");
			print_name(sc, first, exact);
		} else {
			printf("  same as \"%s\" after casefolding:\n",
			       e2fold_keeper_dot(n, first));
		}
		for (k = c->mem[first].next; k != NONE; k = c->mem[k].next)
			print_name(sc, k, exact);
	}
	if (!c->invalid)
		return;
	printf("  refused by a strict filesystem (not valid UTF-8):\n");
	for (i = 0; i < n; i++)
		if (c->mem[c->order[i]].invalid)
			print_name(sc, c->order[i], 0);
}

/* {"name": ..., "name_hex": ...} */
static void json_name_item(struct e2fold_json *o, const struct scan *sc,
			   size_t id)
{
	const struct e2fold_name_in *nm = &sc->names.in[id];

	e2fold_json_object(o, NULL, E2FOLD_JSON_INLINE);
	e2fold_json_name(o, "name", nm->name, nm->len);
	e2fold_json_close(o);
}

static void json_group(struct e2fold_json *o, const struct scan *sc,
		       size_t first)
{
	const struct dir_check *c = &sc->check;
	size_t n = sc->names.n, k;

	e2fold_json_object(o, NULL, E2FOLD_JSON_INLINE);
	e2fold_json_text(o, "same_as", e2fold_keeper_dot(n, first));
	e2fold_json_array(o, "names", E2FOLD_JSON_INLINE);
	if (first < n)
		json_name_item(o, sc, first);
	for (k = c->mem[first].next; k != NONE; k = c->mem[k].next)
		json_name_item(o, sc, k);
	e2fold_json_close(o);
	e2fold_json_close(o);
}

/* An element of the "directories" array begins: {"dir": ..., */
static void json_dir_begin(struct scan *sc)
{
	e2fold_json_object(&sc->json, NULL, E2FOLD_JSON_INLINE);
	e2fold_json_name(&sc->json, "dir", (const unsigned char *)sc->path,
			 sc->path_len);
}

static void json_report(struct scan *sc)
{
	const struct dir_check *c = &sc->check;
	struct e2fold_json *o = &sc->json;
	size_t n = sc->names.n, g, i;

	json_dir_begin(sc);
	e2fold_json_array(o, "collisions", E2FOLD_JSON_INLINE);
	for (g = 0; g < n + 2; g++) {
		size_t k = group_first(sc, g);

		if (k != NONE)
			json_group(o, sc, k);
	}
	e2fold_json_close(o);
	e2fold_json_array(o, "invalid", E2FOLD_JSON_INLINE);
	for (i = 0; i < n; i++)
		if (c->mem[c->order[i]].invalid)
			json_name_item(o, sc, c->order[i]);
	e2fold_json_close(o);
	e2fold_json_close(o);
}

/* The current directory was not (wholly) scanned: err, or what. */
static void scan_error(struct scan *sc, int err, const char *what)
{
	if (!what)
		what = strerror(err);
	e2fold_progress_break(&sc->progress);
	fprintf(stderr, "e2fold-utf8: %s: %s\n",
		escaped(sc, sc->path, sc->path_len), what);
	sc->errors++;
	if (!sc->opt->json)
		return;
	json_dir_begin(sc);
	e2fold_json_text(&sc->json, "error", what);
	e2fold_json_close(&sc->json);
}

/* The document, streamed: its head, then each directory as it is done. */
static void json_begin(struct scan *sc)
{
	unsigned int v = sc->opt->um->version;
	char unicode[32];

	snprintf(unicode, sizeof(unicode), "%u.%u.%u", unicode_major(v),
		 unicode_minor(v), unicode_rev(v));
	e2fold_json_begin_document(&sc->json, stdout, "e2fold-utf8 scan");
	e2fold_json_text(&sc->json, "unicode", unicode);
	e2fold_json_bool(&sc->json, "strict", sc->opt->strict);
	e2fold_json_array(&sc->json, "directories", E2FOLD_JSON_LINES);
}

/* 0, or ENOMEM when the document could not be written whole. */
static int json_end(struct scan *sc, int status)
{
	struct e2fold_json *o = &sc->json;

	e2fold_json_close(o);
	e2fold_json_number(o, "directories_scanned", sc->dirs);
	e2fold_json_number(o, "names_scanned", sc->nnames);
	e2fold_json_number(o, "collision_groups", sc->groups);
	e2fold_json_number(o, "colliding_names", sc->colliding);
	e2fold_json_number(o, "invalid_names", sc->invalid);
	e2fold_json_number(o, "errors", sc->errors);
	e2fold_json_int(o, "exit_status", status);
	return e2fold_json_end_document(o);
}

static void text_summary(const struct scan *sc)
{
	printf("scanned %lu %s and %lu %s: %lu collision %s (%lu %s)",
	       sc->dirs, e2fold_plural(sc->dirs, "directory", "directories"),
	       sc->nnames, e2fold_plural(sc->nnames, "name", "names"), sc->groups,
	       e2fold_plural(sc->groups, "group", "groups"), sc->colliding,
	       e2fold_plural(sc->colliding, "name", "names"));
	if (sc->opt->strict)
		printf(", %lu invalid %s", sc->invalid,
		       e2fold_plural(sc->invalid, "name", "names"));
	printf(", %lu %s\n", sc->errors, e2fold_plural(sc->errors, "error", "errors"));
}

/* ------------------------------------------------------------------ */
/* Walking                                                             */

/* The current path becomes its first keep bytes, "/" and name. */
static int set_path(struct scan *sc, size_t keep, const char *name,
		    size_t len)
{
	int sep = keep && sc->path[keep - 1] != '/';
	char *p;

	if (e2fold_array_reserve(&sc->path, &sc->path_cap, keep + sep + len + 1,
				 1))
		return ENOMEM;
	p = sc->path;
	if (sep)
		p[keep++] = '/';
	memcpy(p + keep, name, len);
	p[keep + len] = '\0';
	sc->path_len = keep + len;
	return 0;
}

/* Keep the names of the directory's subdirectories, in byte order. */
static int keep_subdirs(struct scan *sc, struct frame *f)
{
	const struct dir_names *d = &sc->names;
	size_t i, size = 0;

	for (i = 0; i < d->n; i++) {
		if (d->ents[i].is_dir) {
			size += d->ents[i].len + 1;
			f->left++;
		}
	}
	if (!f->left)
		return 0;
	f->subdirs = malloc(size);
	if (!f->subdirs) {
		f->left = 0;
		return ENOMEM;
	}
	for (i = 0, size = 0; i < d->n; i++) {
		const struct entry *e = &d->ents[sc->check.order[i]];

		if (!e->is_dir)
			continue;
		memcpy(f->subdirs + size, d->arena + e->off, e->len + 1);
		size += e->len + 1;
	}
	return 0;
}

/* Read, check and report the directory of frame f. 0 or an errno. */
/*
 * -C: directories scanned of those known so far (scanned, plus those
 * waiting on the stack): the total grows as the walk finds more.
 */
static void show_progress(struct scan *sc)
{
	unsigned long long waiting = 0;
	size_t i;

	if (sc->progress.fd < 0)
		return;
	for (i = 0; i < sc->depth; i++)
		waiting += sc->stack[i].left;
	e2fold_progress_update(&sc->progress, 1, sc->dirs, sc->dirs + waiting);
}

static int visit(struct scan *sc, struct frame *f)
{
	const struct dir_check *c = &sc->check;
	int err;

	err = read_names(f->fd, &sc->names);
	if (!err)
		err = list_names(&sc->names);
	if (!err)
		err = check_names(sc);
	if (err)
		return err;
	sc->dirs++;
	sc->nnames += sc->names.n;
	if (c->groups || c->invalid) {
		sc->groups += c->groups;
		sc->colliding += c->colliding;
		sc->invalid += c->invalid;
		e2fold_progress_break(&sc->progress);
		if (sc->opt->json)
			json_report(sc);
		else
			text_report(sc);
	}
	err = keep_subdirs(sc, f);
	show_progress(sc);
	return err;
}

static int on_stack(const struct scan *sc, const struct stat *st)
{
	size_t i;

	for (i = 0; i < sc->depth; i++)
		if (sc->stack[i].dev == st->st_dev &&
		    sc->stack[i].ino == st->st_ino)
			return 1;
	return 0;
}

/* Go into the directory open at fd (sc->path): check it, push it. */
static void enter(struct scan *sc, int fd)
{
	struct frame *f;
	struct stat st;
	int err;

	if (fstat(fd, &st)) {
		scan_error(sc, errno, NULL);
		close(fd);
		return;
	}
	if (on_stack(sc, &st)) {
		scan_error(sc, 0, "a filesystem loop: the same directory as "
			   "one it is in; not scanned again");
		close(fd);
		return;
	}
	if (e2fold_array_reserve(&sc->stack, &sc->stack_cap, sc->depth + 1,
				 sizeof(*sc->stack))) {
		scan_error(sc, ENOMEM, NULL);
		close(fd);
		return;
	}
	f = &sc->stack[sc->depth++];
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->path_len = sc->path_len;
	err = visit(sc, f);
	if (err)
		scan_error(sc, err, NULL);
}

static void leave(struct scan *sc)
{
	struct frame *f = &sc->stack[--sc->depth];

	close(f->fd);
	free(f->subdirs);
}

/*
 * The tree under one operand. The operand itself is opened as given, so a
 * symbolic link to a directory is followed there (as ls and du do); below
 * it, never.
 */
static void scan_tree(struct scan *sc, const char *operand)
{
	int fd;

	if (set_path(sc, 0, operand, strlen(operand))) {
		fprintf(stderr, "e2fold-utf8: out of memory\n");
		sc->errors++;
		return;
	}
	fd = open(operand, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		scan_error(sc, errno, NULL);
		return;
	}
	enter(sc, fd);
	while (sc->depth) {
		struct frame *top = &sc->stack[sc->depth - 1];
		const char *name;
		size_t len;

		if (!top->left) {
			leave(sc);
			continue;
		}
		name = top->subdirs + top->next;
		len = strlen(name);
		top->next += len + 1;
		top->left--;
		if (set_path(sc, top->path_len, name, len)) {
			scan_error(sc, ENOMEM, NULL);
			continue;
		}
		fd = openat(top->fd, name,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			scan_error(sc, errno, NULL);
			continue;
		}
		enter(sc, fd);
	}
}

/*
 * The walk holds a descriptor per level, so the soft limit on open files
 * would be the deepest tree it can scan: raise it to the hard limit.
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	(void)setrlimit(RLIMIT_NOFILE, &rl);
}

static void scan_free(struct scan *sc)
{
	while (sc->depth)
		leave(sc);
	free(sc->stack);
	free(sc->path);
	free(sc->esc);
	free(sc->names.arena);
	free(sc->names.ents);
	free(sc->names.in);
	free(sc->check.order);
	free(sc->check.mem);
}

int utf8_scan(const struct utf8_scan_options *opt, char *const *paths)
{
	struct scan sc = { .opt = opt };
	int status;

	raise_fd_limit();
	e2fold_progress_init(&sc.progress, opt->progress_fd, "scan");
	if (opt->json)
		json_begin(&sc);
	for (; *paths; paths++)
		scan_tree(&sc, *paths);
	e2fold_progress_end(&sc.progress);
	if (sc.errors)
		status = UTF8_SCAN_ERROR;
	else if (sc.groups || sc.invalid)
		status = UTF8_SCAN_FOUND;
	else
		status = UTF8_SCAN_CLEAN;
	if (opt->json && json_end(&sc, status)) {
		fprintf(stderr, "e2fold-utf8: the JSON report: %s\n",
			strerror(ENOMEM));
		status = UTF8_SCAN_ERROR;
	} else if (!opt->json) {
		text_summary(&sc);
	}
	scan_free(&sc);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "e2fold-utf8: writing output: %s\n",
			strerror(errno));
		status = UTF8_SCAN_ERROR;
	}
	return status;
}
