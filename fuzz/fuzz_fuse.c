/*
 * fuzz_fuse: e2fold-fuse's request handlers, in process, on damaged
 * images, as the kernel's FUSE client would call them.
 *
 * An input is a seed and patches (image.h), as for fuzz_fsck. Option byte
 * (byte 1): bit 0 sends the writing requests too; bit 1 serves read-only
 * (-o ro); bits 2-3 the kernel generation served (-o kernel=); the other
 * bits pick which names of a large directory are used and how much each
 * readdir asks for.
 *
 * The handlers of fuse/ run unchanged; libfuse's reply side is a test
 * double (fuse_double.h) that records each reply and holds the handlers
 * to libfuse's contract. The image is opened as e2fold-fuse opens it
 * (e2fuse_open, fuse/mount.c): a refusal ends the input, and is fine.
 * Then, as the kernel would ask, never about a node it was not handed:
 *   1. statfs and getattr of the root; from the root, at most MAX_DIRS
 *      directories: opendir, readdir to the end (readdirplus in most
 *      runs, as the kernel asks; in chunks of the asked size),
 *      releasedir; for MAX_NAMES of the listed names, lookups in
 *      several spellings (as listed, ASCII case swapped, folded, with a
 *      zero-width joiner appended); each node found: getattr, lookup of
 *      "." (a file handle), listxattr, and a regular file opened and read
 *      at its start and its end, a symbolic link read; directories join
 *      the walk.
 *   2. with bit 0, in the first MAX_EDITED directories: create and write
 *      a file, mkdir, mkdir of a name equal after folding, write into an
 *      existing file, rename (in the directory, over a name, into the
 *      root), unlink and rmdir, in other spellings of the names.
 *   3. every node is forgotten; then no inode is held (refs.c). Close.
 * Invariants: exactly one reply of a kind the operation has, a positive
 * errno; a name created is found again by its exact bytes (or the lookup
 * meets corruption); once the server refuses writes (read-only, or
 * corruption met) every writing request fails; a read-only server (asked
 * so, or found on open an image unfit to be written) writes no byte after
 * its open, and one asked so none at all. Crashes, leaks, sanitizer reports
 * and hangs are libFuzzer's to catch (-timeout).
 *
 * To reproduce: FUZZ_FUSE_VERBOSE=1 keeps the server's messages, and
 * FUZZ_FUSE_DUMP=FILE saves the image an input describes.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <et/com_err.h>
#include <linux/fuse.h>

#include "e2fuse.h"
#include "fuse_double.h"
#include "fuzz.h"
#include "image.h"

#ifndef FUZZ_SEED_DIR
#define FUZZ_SEED_DIR "fuzz/seeds"
#endif

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

#define OPT_WRITE 0x01
#define OPT_RO 0x02

#define MAX_DIRS 8		/* directories walked per image */
#define MAX_NAMES 4		/* listed names looked up per directory */
#define MAX_EDITED 3		/* directories written to */
#define MAX_NODES 256		/* nodes the "kernel" holds */
#define MAX_LISTED 512		/* names kept from one listing */
#define READ_SIZE 4096
#define WRITE_SIZE 3000		/* three blocks of the 1 KiB seeds */

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);

static struct seed *seeds;
static size_t nseeds;
static char tmpdir[64], image_path[64];
static char write_buf[WRITE_SIZE];

/* A node the kernel was handed, with what its last entry reply said. */
struct node {
	fuse_ino_t id;
	mode_t mode;
	off_t size;
	__u64 nlookup;
	int visited;
};

/* One served image: the server and the kernel's view of it. */
struct run {
	struct e2fuse srv;
	struct node nodes[MAX_NODES];
	size_t nnodes;
	fuse_ino_t dirs[MAX_DIRS];
	size_t ndirs;
	unsigned int pick;
	size_t readdir_size;
	int plus;		/* listings by readdirplus, as the kernel asks */
};

static void cleanup(void)
{
	remove(image_path);
	rmdir(tmpdir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_SEED_DIR");
	size_t i;

	(void)argc;
	(void)argv;
	fuzz_init_report();
	add_error_table(&et_ext2_error_table);
	fuzz_make_tmpdir(tmpdir, sizeof(tmpdir), "fuse");
	snprintf(image_path, sizeof(image_path), "%s/image", tmpdir);
	atexit(cleanup);
	for (i = 0; i < sizeof(write_buf); i++)
		write_buf[i] = "e2fold-fuse fuzz\n"[i % 17];
	nseeds = image_load_seeds(dir && *dir ? dir : FUZZ_SEED_DIR, tmpdir,
				  &seeds);
	if (!nseeds)
		abort();
	/* e2fold-fuse reports on stderr, which -close_fd_mask silences. */
	fuzz_quiet_stdout("FUZZ_FUSE_VERBOSE");
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	return image_custom_mutate(seeds, nseeds, data, size, max_size, seed);
}

static void assert_image_is(const unsigned char *img, size_t size)
{
	unsigned char *now = image_read(image_path, size);

	if (memcmp(now, img, size))
		fuzz_fail(__FILE__, __LINE__,
			  "a read-only server changed the image");
	free(now);
}

/* ---- the kernel's side: nodes and requests ---- */

static struct node *node_of(struct run *r, fuse_ino_t id)
{
	size_t i;

	for (i = 0; i < r->nnodes; i++)
		if (r->nodes[i].id == id)
			return &r->nodes[i];
	return NULL;
}

/*
 * An entry reply hands the kernel a node: one lookup more to forget. The
 * table is full only for the strangest images; the kernel would still
 * hold the node, so it is forgotten at once.
 */
static struct node *take_entry_param(struct run *r,
				     const struct fuse_entry_param *e)
{
	struct node *n = node_of(r, e->ino);
	struct fuse_req forget;

	if (!n && r->nnodes == MAX_NODES) {
		double_req_init(&forget, &r->srv, "forget", 0);
		e2fuse_forget(&forget, e->ino, 1);
		double_req_check(&forget, REPLY(REPLY_NONE));
		return NULL;
	}
	if (!n) {
		n = &r->nodes[r->nnodes++];
		memset(n, 0, sizeof(*n));
		n->id = e->ino;
	}
	n->mode = e->attr.st_mode;
	n->size = e->attr.st_size;
	n->nlookup++;
	return n;
}

static struct node *take_entry(struct run *r, const struct fuse_req *req)
{
	return take_entry_param(r, &req->entry);
}

/* Does the server refuse writes (read-only, or corruption met)? */
static int refusing(const struct run *r)
{
	return !e2fuse_may_write(&r->srv);
}

/* A writing request to a server that was refusing writes failed. */
static void check_refused(int was_refusing, const struct fuse_req *req)
{
	if (was_refusing && req->kind != REPLY_ERR) {
		fprintf(fuzz_report(), "request %s (reply kind %d)\n", req->op,
			req->kind);
		fuzz_fail(__FILE__, __LINE__,
			  "a server refusing writes wrote");
	}
}

/* lookup: the node found (and now held), or NULL. */
static struct node *lookup(struct run *r, fuse_ino_t parent, const char *name)
{
	struct fuse_req req;
	struct node *n = NULL;

	double_req_init(&req, &r->srv, "lookup", 0);
	e2fuse_lookup(&req, parent, name);
	double_req_check(&req, REPLY(REPLY_ENTRY));
	if (req.kind == REPLY_ENTRY)
		n = take_entry(r, &req);
	double_req_free(&req);
	return n;
}

static void getattr(struct run *r, fuse_ino_t id)
{
	struct fuse_req req;

	double_req_init(&req, &r->srv, "getattr", 0);
	e2fuse_getattr(&req, id, NULL);
	double_req_check(&req, REPLY(REPLY_ATTR));
}

static void statfs_root(struct run *r)
{
	struct fuse_req req;

	double_req_init(&req, &r->srv, "statfs", 0);
	e2fuse_statfs(&req, FUSE_ROOT_ID);
	double_req_check(&req, REPLY(REPLY_STATFS));
}

static void listxattr(struct run *r, fuse_ino_t id, size_t size)
{
	struct fuse_req req;

	double_req_init(&req, &r->srv, "listxattr", size);
	e2fuse_listxattr(&req, id, size);
	double_req_check(&req, size ? REPLY(REPLY_BUF) : REPLY(REPLY_XATTR));
	double_req_free(&req);
}

static void readlink_node(struct run *r, fuse_ino_t id)
{
	struct fuse_req req;

	double_req_init(&req, &r->srv, "readlink", 0);
	e2fuse_readlink(&req, id);
	double_req_check(&req, REPLY(REPLY_READLINK));
	double_req_free(&req);
}

/* open, with flags; 0 if it was opened. */
static int open_file(struct run *r, fuse_ino_t id, int flags)
{
	struct fuse_file_info fi;
	struct fuse_req req;
	int was_refusing = refusing(r);

	memset(&fi, 0, sizeof(fi));
	fi.flags = flags;
	double_req_init(&req, &r->srv, "open", 0);
	e2fuse_open_file(&req, id, &fi);
	double_req_check(&req, REPLY(REPLY_OPEN));
	if ((flags & O_ACCMODE) != O_RDONLY)
		check_refused(was_refusing, &req);
	return req.kind == REPLY_OPEN ? 0 : -1;
}

static void read_file(struct run *r, fuse_ino_t id, off_t off)
{
	struct fuse_file_info fi;
	struct fuse_req req;

	memset(&fi, 0, sizeof(fi));
	double_req_init(&req, &r->srv, "read", READ_SIZE);
	e2fuse_read(&req, id, READ_SIZE, off, &fi);
	double_req_check(&req, REPLY(REPLY_BUF));
	double_req_free(&req);
}

static void write_file(struct run *r, fuse_ino_t id, off_t off, size_t size)
{
	struct fuse_file_info fi;
	struct fuse_req req;
	int was_refusing = refusing(r);

	memset(&fi, 0, sizeof(fi));
	double_req_init(&req, &r->srv, "write", size);
	e2fuse_write(&req, id, write_buf, size, off, &fi);
	double_req_check(&req, REPLY(REPLY_WRITE));
	check_refused(was_refusing, &req);
}

static void flush_file(struct run *r, fuse_ino_t id)
{
	struct fuse_file_info fi;
	struct fuse_req req;

	memset(&fi, 0, sizeof(fi));
	double_req_init(&req, &r->srv, "flush", 0);
	e2fuse_flush(&req, id, &fi);
	double_req_check(&req, REPLY(REPLY_OK));
}

/* ---- listing ---- */

struct listed {
	char *names[MAX_LISTED];
	size_t n;
};

static void listed_free(struct listed *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->names[i]);
	l->n = 0;
}

/*
 * The entries of one readdir reply, in the kernel's wire format; each
 * must fit the reply, and each offset must lead past it. Returns the
 * offset to ask for next, or -1 at the end.
 */
static off_t take_dirents(struct listed *l, const struct fuse_req *req,
			  off_t off)
{
	size_t at = 0;
	off_t next = -1;

	while (at < req->len) {
		struct fuse_dirent d;
		size_t entsize;

		FUZZ_ASSERT(req->len - at >= FUSE_NAME_OFFSET);
		memcpy(&d, req->buf + at, FUSE_NAME_OFFSET);
		entsize = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + d.namelen);
		FUZZ_ASSERT(entsize <= req->len - at);
		FUZZ_ASSERT((off_t)d.off > off);
		off = next = d.off;
		if (l->n < MAX_LISTED)
			l->names[l->n++] = strndup((char *)req->buf + at +
						   FUSE_NAME_OFFSET, d.namelen);
		at += entsize;
	}
	return next;
}

/*
 * The entries of one readdirplus reply (struct fuse_direntplus): as
 * take_dirents, and each node handed out is one lookup more to forget.
 */
static off_t take_direntplus(struct run *r, struct listed *l,
			     const struct fuse_req *req, off_t off)
{
	size_t at = 0;
	off_t next = -1;

	while (at < req->len) {
		struct fuse_direntplus d;
		struct fuse_entry_param e;
		size_t entsize;

		FUZZ_ASSERT(req->len - at >= FUSE_NAME_OFFSET_DIRENTPLUS);
		memcpy(&d, req->buf + at, FUSE_NAME_OFFSET_DIRENTPLUS);
		entsize = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET_DIRENTPLUS +
					    d.dirent.namelen);
		FUZZ_ASSERT(entsize <= req->len - at);
		FUZZ_ASSERT((off_t)d.dirent.off > off);
		off = next = d.dirent.off;
		if (d.entry_out.nodeid) {
			memset(&e, 0, sizeof(e));
			e.ino = d.entry_out.nodeid;
			e.attr.st_mode = d.entry_out.attr.mode;
			e.attr.st_size = d.entry_out.attr.size;
			take_entry_param(r, &e);
		}
		if (l->n < MAX_LISTED)
			l->names[l->n++] = strndup((char *)req->buf + at +
						   FUSE_NAME_OFFSET_DIRENTPLUS,
						   d.dirent.namelen);
		at += entsize;
	}
	return next;
}

/* opendir, readdir to the end, releasedir: the names listed. */
static void list_dir(struct run *r, fuse_ino_t id, struct listed *l)
{
	struct fuse_file_info fi;
	struct fuse_req req;
	off_t off = 0;

	memset(&fi, 0, sizeof(fi));
	double_req_init(&req, &r->srv, "opendir", 0);
	e2fuse_opendir(&req, id, &fi);
	double_req_check(&req, REPLY(REPLY_OPEN));
	if (req.kind != REPLY_OPEN)
		return;
	for (;;) {
		if (r->plus) {
			double_req_init(&req, &r->srv, "readdirplus",
					r->readdir_size);
			e2fuse_readdirplus(&req, id, r->readdir_size, off, &fi);
		} else {
			double_req_init(&req, &r->srv, "readdir",
					r->readdir_size);
			e2fuse_readdir(&req, id, r->readdir_size, off, &fi);
		}
		double_req_check(&req, REPLY(REPLY_BUF));
		if (req.kind != REPLY_BUF || !req.len) {
			double_req_free(&req);
			break;
		}
		off = r->plus ? take_direntplus(r, l, &req, off) :
				take_dirents(l, &req, off);
		double_req_free(&req);
		/* An entry too large for the size asked for: no progress. */
		if (off < 0)
			break;
	}
	double_req_init(&req, &r->srv, "releasedir", 0);
	e2fuse_releasedir(&req, id, &fi);
	double_req_check(&req, REPLY(REPLY_OK));
}

/* ---- the walk ---- */

/* Can the kernel send this name in a lookup? (One path component.) */
static int sendable(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

/* A node's own requests, once: what the kernel asks of what it found. */
static void visit_node(struct run *r, struct node *n)
{
	fuse_ino_t id = n->id;
	mode_t mode = n->mode;
	off_t size = n->size;
	size_t k;

	if (n->visited)
		return;
	n->visited = 1;
	getattr(r, id);
	lookup(r, id, ".");
	listxattr(r, id, 0);
	listxattr(r, id, 256);
	if (S_ISREG(mode) && !open_file(r, id, O_RDONLY)) {
		read_file(r, id, 0);
		if (size > 1)
			read_file(r, id, size - 1);
		flush_file(r, id);
	} else if (S_ISLNK(mode)) {
		readlink_node(r, id);
	} else if (S_ISDIR(mode) && r->ndirs < MAX_DIRS) {
		for (k = 0; k < r->ndirs; k++)
			if (r->dirs[k] == id)
				return;
		r->dirs[r->ndirs++] = id;
	}
}

/* The spellings of name the walk looks up; returns how many. */
static size_t spellings(const struct run *r, const char *name,
			char out[][1024])
{
	size_t len = strlen(name), n = 0, i;
	struct qstr q = { .name = (const unsigned char *)name, .len = len };
	int got;

	if (len > 1000)
		return 0;
	strcpy(out[n++], name);
	for (i = 0; i <= len; i++)
		out[n][i] = isalpha((unsigned char)name[i]) &&
			    (unsigned char)name[i] < 0x80 ? name[i] ^ 0x20 :
			    name[i];
	n++;
	if (r->srv.um) {
		got = utf8_casefold(r->srv.um, &q, (unsigned char *)out[n],
				    1024);
		if (got > 0 && sendable(out[n]))
			n++;
	}
	/* U+200D, ignorable: the same name to a casefolded directory. */
	snprintf(out[n++], 1024, "%s\xe2\x80\x8d", name);
	return n;
}

static void look_up_names(struct run *r, fuse_ino_t dir,
			  const struct listed *l)
{
	static char spelled[4][1024];
	size_t step = l->n / MAX_NAMES + 1, i, k, ns;

	for (i = r->pick % step; i < l->n; i += step) {
		if (!sendable(l->names[i]))
			continue;
		ns = spellings(r, l->names[i], spelled);
		for (k = 0; k < ns; k++) {
			struct node *n = lookup(r, dir, spelled[k]);

			if (n)
				visit_node(r, n);
		}
	}
}

/* ---- writing requests ---- */

/* A name just created is found again by its bytes. */
static void check_created(struct run *r, fuse_ino_t dir, const char *name,
			  fuse_ino_t id)
{
	struct fuse_req req;

	double_req_init(&req, &r->srv, "lookup", 0);
	e2fuse_lookup(&req, dir, name);
	double_req_check(&req, REPLY(REPLY_ENTRY));
	if (req.kind == REPLY_ENTRY) {
		if (req.entry.ino != id)
			fuzz_fail(__FILE__, __LINE__,
				  "a name just created leads elsewhere");
		take_entry(r, &req);
	} else if (req.err != EUCLEAN && req.err != EBADMSG &&
		   req.err != EIO) {
		fprintf(fuzz_report(), "lookup: errno %d\n", req.err);
		fuzz_print_bytes("name", (const unsigned char *)name,
				 strlen(name));
		fuzz_fail(__FILE__, __LINE__, "a name just created is lost");
	}
}

/* create or mkdir; the new node, or NULL. */
static struct node *make(struct run *r, fuse_ino_t dir, const char *name,
			 int is_dir)
{
	struct fuse_file_info fi;
	struct fuse_req req;
	struct node *n = NULL;
	int was_refusing = refusing(r);

	memset(&fi, 0, sizeof(fi));
	fi.flags = O_RDWR | O_CREAT;
	double_req_init(&req, &r->srv, is_dir ? "mkdir" : "create", 0);
	if (is_dir)
		e2fuse_mkdir(&req, dir, name, 0755);
	else
		e2fuse_create(&req, dir, name, 0644, &fi);
	double_req_check(&req, REPLY(is_dir ? REPLY_ENTRY : REPLY_CREATE));
	check_refused(was_refusing, &req);
	if (req.kind != REPLY_ERR) {
		n = take_entry(r, &req);
		check_created(r, dir, name, req.entry.ino);
	}
	return n;
}

static void rename_name(struct run *r, fuse_ino_t from_dir, const char *from,
			fuse_ino_t to_dir, const char *to, unsigned int flags)
{
	struct fuse_req req;
	int was_refusing = refusing(r);

	double_req_init(&req, &r->srv, "rename", 0);
	e2fuse_rename(&req, from_dir, from, to_dir, to, flags);
	double_req_check(&req, REPLY(REPLY_OK));
	check_refused(was_refusing, &req);
}

static void remove_name(struct run *r, fuse_ino_t dir, const char *name,
			int is_dir)
{
	struct fuse_req req;
	int was_refusing = refusing(r);

	double_req_init(&req, &r->srv, is_dir ? "rmdir" : "unlink", 0);
	if (is_dir)
		e2fuse_rmdir(&req, dir, name);
	else
		e2fuse_unlink(&req, dir, name);
	double_req_check(&req, REPLY(REPLY_OK));
	check_refused(was_refusing, &req);
}

/* The first listed name the kernel could send, with its case swapped. */
static int other_spelling(const struct listed *l, size_t from, char *out)
{
	size_t i, k;

	for (i = from; i < l->n; i++) {
		if (!sendable(l->names[i]) || strlen(l->names[i]) > 255)
			continue;
		for (k = 0; l->names[i][k]; k++)
			out[k] = isalpha((unsigned char)l->names[i][k]) &&
				 (unsigned char)l->names[i][k] < 0x80 ?
				 l->names[i][k] ^ 0x20 : l->names[i][k];
		out[k] = '\0';
		return 1;
	}
	return 0;
}

/* Step 2 in directory number k of the walk, whose listing is l. */
static void edit_dir(struct run *r, size_t k, const struct listed *l)
{
	fuse_ino_t dir = r->dirs[k];
	char name[256], to[64];
	struct node *n;

	n = make(r, dir, "fuzz-new", 0);
	if (n && !open_file(r, n->id, O_WRONLY)) {
		fuse_ino_t id = n->id;

		write_file(r, id, 0, WRITE_SIZE);
		write_file(r, id, (off_t)1 << (16 + k), WRITE_SIZE);
		read_file(r, id, 1024);
		flush_file(r, id);
	}
	/* "Fuzz-ß", then "FUZZ-SS", equal to it after folding. */
	make(r, dir, "Fuzz-\xc3\x9f", 1);
	make(r, dir, "FUZZ-SS", 1);
	/* An existing file, written over at its start. */
	if (other_spelling(l, r->pick % (l->n + 1), name)) {
		n = lookup(r, dir, name);
		if (n && S_ISREG(n->mode) && !open_file(r, n->id, O_RDWR))
			write_file(r, n->id, 0, 100);
		rename_name(r, dir, name, dir, "fuzz-moved", k % 2 ?
			    RENAME_NOREPLACE : 0);
		rename_name(r, dir, "FUZZ-NEW", dir, "Fuzz-Moved", 0);
		remove_name(r, dir, "fuzz-MOVED", 0);
	}
	if (other_spelling(l, (r->pick + l->n / 2) % (l->n + 1), name))
		remove_name(r, dir, name, 0);
	if (dir != FUSE_ROOT_ID) {
		snprintf(to, sizeof(to), "fuzz-dir-%zu", k);
		rename_name(r, dir, "fuzz-\xc3\x9f", FUSE_ROOT_ID, to, 0);
		remove_name(r, FUSE_ROOT_ID, to, 1);
	} else {
		remove_name(r, dir, "FUZZ-\xc3\x9f", 1);
	}
}

/* Steps 1 and 2: the walk from the root, writing on the way if asked. */
static void serve(struct run *r, int writes)
{
	struct listed *l = fuzz_malloc(sizeof(*l));
	size_t k;

	l->n = 0;
	statfs_root(r);
	getattr(r, FUSE_ROOT_ID);
	r->dirs[r->ndirs++] = FUSE_ROOT_ID;
	for (k = 0; k < r->ndirs; k++) {
		list_dir(r, r->dirs[k], l);
		look_up_names(r, r->dirs[k], l);
		if (writes && k < MAX_EDITED)
			edit_dir(r, k, l);
		listed_free(l);
	}
	free(l);
}

/* Step 3: the kernel forgets everything it was handed. */
static void forget_all(struct run *r)
{
	struct fuse_forget_data *f = fuzz_malloc((r->nnodes + 1) * sizeof(*f));
	struct fuse_req req;
	size_t i;

	for (i = 0; i < r->nnodes; i++) {
		f[i].ino = r->nodes[i].id;
		f[i].nlookup = r->nodes[i].nlookup;
	}
	double_req_init(&req, &r->srv, "forget_multi", 0);
	e2fuse_forget_multi(&req, r->nnodes, f);
	double_req_check(&req, REPLY(REPLY_NONE));
	free(f);
	if (r->srv.nrefs)
		fuzz_fail(__FILE__, __LINE__,
			  "an inode is still held after every forget");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum e2fuse_kernel kernels[] = {
		E2FUSE_KERNEL_NEW, E2FUSE_KERNEL_6_1, E2FUSE_KERNEL_6_12,
		E2FUSE_KERNEL_NEW,
	};
	const struct seed *sd = image_seed_of(seeds, nseeds, data, size);
	unsigned int opts = size > 1 ? data[1] : 0;
	const char *dump = getenv("FUZZ_FUSE_DUMP");
	unsigned char *img;
	struct run *r;

	if (!sd)
		return 0;
	img = image_build(sd, data, size);
	image_write(image_path, img, sd->size);
	if (dump && *dump)
		image_write(dump, img, sd->size);
	r = calloc(1, sizeof(*r));
	if (!r)
		abort();
	r->srv.opt.image = image_path;
	r->srv.opt.mountpoint = tmpdir;
	r->srv.opt.readonly = !!(opts & OPT_RO);
	r->srv.opt.kernel = kernels[(opts >> 2) & 3];
	r->srv.opt.atime = E2FUSE_RELATIME;
	r->pick = opts >> 4;
	/*
	 * The kernel asks for a page; smaller sizes (each still room for
	 * the longest entry, 280 bytes) make listings go on from offsets.
	 */
	r->readdir_size = r->pick % 2 ? 4096 : 288 + 224 * (r->pick % 4 / 2);
	r->plus = r->pick % 8 < 6;
	if (!e2fuse_open(&r->srv)) {
		/*
		 * A server asked to write may replay the journal on open,
		 * then serve read-only an image unfit to be written: from
		 * then on it writes nothing.
		 */
		unsigned char *opened = r->srv.opt.readonly &&
					!(opts & OPT_RO) ?
					image_read(image_path, sd->size) : img;

		serve(r, opts & OPT_WRITE);
		forget_all(r);
		e2fuse_close(&r->srv);
		if (r->srv.opt.readonly)
			assert_image_is(opened, sd->size);
		if (opened != img)
			free(opened);
	}
	free(r->srv.refs);
	free(r->srv.orphans);
	free(r);
	free(img);
	return 0;
}
