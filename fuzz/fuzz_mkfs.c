/*
 * fuzz_mkfs: e2fold-mkfs -d, in-process (mkfs_main), on hostile source
 * trees: names of any bytes but NUL and '/', up to 255 bytes, deep
 * nesting, names that casefold alike, hard links, symbolic links, fifos,
 * small and sparse files.
 *
 * An input is two option bytes and a program that builds the tree:
 *
 *   byte 0  bits 0-1  casefolded directories: 0 none, 1 casefold_dirs=all,
 *                     2 casefold_root, 3 casefold_dirs= the directories
 *                     that MARK (below) named; 1-3 add -O casefold
 *           bit 2     encoding_flags=strict
 *           bit 3     collisions=rename
 *           bit 4     encoding_flags=hashonly
 *           bit 5     -b 4096 (else 1024)
 *           bit 6     keep the journal (else -O ^has_journal: faster)
 *           bit 7     --report FILE
 *   byte 1  bit 0     not -q (the messages go to /dev/null)
 *           bit 1     -O casefold with no casefolded directory (mode 0)
 *           bit 2     leave -O casefold out (modes 1-3): mkfs must refuse
 *           bit 3     -I 128
 *           bit 4     -O ^metadata_csum
 *   then ops, each a byte (mod 8) and its operands:
 *     MKDIR name         make a directory, enter it (depth < MAX_DEPTH)
 *     CREAT name data    a regular file (data: see read_data); with bit 7
 *                        of the op byte a fifo (no data)
 *     SYMLINK name len bytes
 *     UP                 back to the parent directory
 *     VARIANT i t k      the i-th sibling's name changed by transform t
 *                        (case, an ignorable, NFC/NFD, ß/SS...): a
 *                        directory if bit 0 of k, else a file
 *     CHAIN n name       n + 1 nested directories of one name (bit 7 of
 *                        n: enter the deepest)
 *     LINK i name        a hard link to the i-th regular file
 *     MARK               list this directory in casefold_dirs (mode 3)
 * A name is a header byte and bytes: raw (1-64 bytes; NUL and '/' become
 * 0x80 and 0xAF), tokens (1-64 pieces: letters, ß, é in NFC and NFD,
 * ignorables, Kelvin, Hangul, invalid sequences, ...), one token repeated
 * to 192-255 bytes (cut anywhere, even inside a character), or a preset
 * (lost+found, LOST+FOUND, ".<ZWSP>", ...). A name the kernel refuses
 * (".", "..", one that exists) is skipped.
 *
 * The tree is made under a temporary directory (on /dev/shm if there is
 * one) and removed after each input; the image is an 8 MiB file that
 * mkfs creates there, with a fixed UUID and hash seed. Each node's mtime
 * is MTIME_BASE + its number, which mkfs copies: that is how the check
 * finds a node in the image whatever it was renamed to.
 *
 * Invariants, per input:
 *   - mkfs_main returns 0 or 1; on 1 the image file does not exist (mkfs
 *     creates it and must remove it) and a message was printed;
 *   - the outcome is the documented one: it must refuse a source whose
 *     casefolded directories hold collisions or (strict) invalid names
 *     without collisions=rename, a top-level lost+found that is not a
 *     directory, casefolded directories without the feature, a path of
 *     PATH_MAX bytes or more; and must succeed otherwise;
 *   - on success the image, read with libext2fs: every source node is
 *     there once, in its directory, with its type, size and contents
 *     (symlink targets, hard links to one inode); a name is kept byte
 *     for byte unless its directory is casefolded and it collides or is
 *     invalid under strict, in which case (and only with rename) its new
 *     name is valid UTF-8 of at most 255 bytes (and --report names both),
 *     and the first of each group (/lost+found first) keeps its name;
 *     casefold flags are what the options say; no two names of a
 *     casefolded directory have the same key nor the key of "." or "..";
 *     the directory blocks and hash trees are sound and a kernel lookup
 *     (e2fold_lookup) of every name finds its own entry by the hashed
 *     search; with --report, the report exists;
 *   - every 16th successful input, or each with FUZZ_MKFS_E2FSCK=1, the
 *     system e2fsck -fn finds the image clean (unless an indexed
 *     casefolded directory holds a name that does not fold: e2fsck 1.47
 *     cannot hash those and reports their leaves, see
 *     tests/m_casefold_strict).
 * Crashes, leaks and hangs are libFuzzer's to catch.
 * To reproduce: FUZZ_MKFS_VERBOSE=1 keeps mkfs's output, FUZZ_MKFS_KEEP=1
 * leaves the source tree and the image in the printed directory.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cfname.h"
#include "dirread.h"
#include "encoding.h"
#include "fuzz.h"
#include "lookup.h"
#include "mkfs.h"

#define MAX_NODES 512
#define MAX_DEPTH 320
#define MAX_NAME 255
#define MAX_DATA 255
#define MTIME_BASE 1000000000u
#define E2FSCK_EVERY 16

enum op {
	OP_MKDIR, OP_CREAT, OP_SYMLINK, OP_UP, OP_VARIANT, OP_CHAIN, OP_LINK,
	OP_MARK, NOPS
};

enum kind { K_DIR, K_REG, K_SYMLINK, K_FIFO };

struct node {
	int parent;			/* -1 for the root */
	enum kind kind;
	unsigned char name[MAX_NAME + 1];
	unsigned int len;
	unsigned char *data;		/* file contents, or symlink target */
	size_t size;
	int link;			/* hard link: the node it names; -1 */
	int listed;			/* MARK: in casefold_dirs */
	int fd;				/* directories: open while it lives */
	int depth;
	size_t path_len;		/* of its full path, source included */
	int casefold;			/* directories: casefolded in image */
	ext2_ino_t ino;			/* in the image */
	int matched;
};

struct tree {
	struct node nodes[MAX_NODES];
	int n;
	unsigned int opt0, opt1;
	int nlisted;
	char list[65536];		/* -E casefold_dirs=... (mode 3) */
};

/* What the options and the tree say mkfs must do. */
struct expect {
	int must_fail;
	int problems;		/* collisions or strict-invalid names */
	int unfoldable;		/* a casefolded directory has such a name */
};

static char tmpdir[64], src_path[80], image_path[80], report_path[80],
	    log_path[80];
static struct tree tree;
static struct unicode_map *um;
static struct e2fold_key dot_keys[2];	/* of "." and ".." */
static int with_e2fsck, keep, verbose;
static unsigned long runs;

#define CF_MODE(t) ((t)->opt0 & 3)
#define STRICT(t) (((t)->opt0 & 0x04) != 0)
#define RENAME(t) (((t)->opt0 & 0x08) != 0)
#define HAS_FEATURE(t) (CF_MODE(t) ? !((t)->opt1 & 0x04) : \
			((t)->opt1 & 0x02) != 0)

/* What a run of mkfs leaves beside the source tree. */
static void remove_outputs(void)
{
	remove(image_path);
	remove(report_path);
	remove(log_path);
}

static void cleanup(void)
{
	remove_outputs();
	rmdir(tmpdir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init_report();
	/* tmpfs if there is one: thousands of small files per second. */
	fuzz_make_tmpdir(tmpdir, sizeof(tmpdir), "mkfs");
	snprintf(src_path, sizeof(src_path), "%s/src", tmpdir);
	snprintf(image_path, sizeof(image_path), "%s/img", tmpdir);
	snprintf(report_path, sizeof(report_path), "%s/report.json", tmpdir);
	snprintf(log_path, sizeof(log_path), "%s/mkfs.log", tmpdir);
	um = e2fold_load_encoding(e2fold_encoding_by_name("utf8"));
	if (!um)
		abort();
	e2fold_name_key(um, (const unsigned char *)".", 1, &dot_keys[0]);
	e2fold_name_key(um, (const unsigned char *)"..", 2, &dot_keys[1]);
	with_e2fsck = getenv("FUZZ_MKFS_E2FSCK") &&
		      !strcmp(getenv("FUZZ_MKFS_E2FSCK"), "1");
	keep = getenv("FUZZ_MKFS_KEEP") != NULL;
	verbose = getenv("FUZZ_MKFS_VERBOSE") != NULL;
	if (!keep)
		atexit(cleanup);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Decoding the input.                                                  */

struct reader {
	const uint8_t *p;
	size_t left;
};

static int next(struct reader *r)
{
	if (!r->left)
		return -1;
	r->left--;
	return *r->p++;
}

/* Pieces of names that casefold, normalize or fail in interesting ways. */
static const char *const tokens[] = {
	"a", "A", "b", "B", "k", "K", "s", "S", "ss", "SS", "i", "I",
	"\xc4\xb1", "\xc4\xb0",			/* dotless i, I with dot */
	"\xc3\x9f", "\xe1\xba\x9e",		/* sharp s, capital sharp s */
	"\xc5\xbf",				/* long s */
	"\xc3\xa9", "e\xcc\x81", "\xc3\x89", "E\xcc\x81",
	"\xe2\x80\x8d", "\xe2\x80\x8c", "\xe2\x80\x8b",	/* ZWJ ZWNJ ZWSP */
	"\xef\xb8\x8f", "\xc2\xad",		/* VS16, soft hyphen */
	"\xe2\x84\xaa", "\xe2\x84\xa6", "\xcf\x89", "\xce\xa9",
	"\xef\xac\x81", "fi", "\xef\xac\x80",	/* fi, ff ligatures */
	"\xed\x95\x9c", "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab", /* Hangul */
	"\xce\x90", "\xe1\xbe\x80", "\xc7\x85",	/* fold to 3 code points */
	"\xea\xad\xb0", "\xe1\x8e\xa0",		/* Cherokee */
	"\xf0\x9f\x98\x80", "\xe2\x80\xae",	/* emoji, RLO */
	".", "..", "~", "~1", ".txt", "-", " ", "\\", ":", ",", "=", "%",
	"%FF", "lost+found", "LOST+FOUND",
	"\xff", "\xc0\xaf", "\xed\xa0\x80", "\x80", "\xc3", "\xe2\x82",
	"\xf4\x90\x80\x80", "\x7f", "\x01", "\x1b", "\n",
};
#define NTOKENS (sizeof(tokens) / sizeof(tokens[0]))

static const char *const presets[] = {
	"lost+found", "LOST+FOUND", "Lost+Found", "lost+found\xe2\x80\x8d",
	".\xe2\x80\x8b", "..\xe2\x80\x8c", "\xe2\x80\x8d", "\xc2\xad",
	"README", "readme", "ReadMe", "readme~1", "README~1.txt",
	"Stra\303\237e", "STRASSE", "caf\xc3\xa9", "cafe\xcc\x81",
};
#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

static void append(unsigned char *name, unsigned int *len, const void *s,
		   size_t n)
{
	if (n > MAX_NAME - *len)
		n = MAX_NAME - *len;
	memcpy(name + *len, s, n);
	*len += n;
}

/* A name (see the top of the file). 0, or -1 at the end of the input. */
static int read_name(struct reader *r, unsigned char *name,
		     unsigned int *len)
{
	int h = next(r), b, i, n;
	const char *tok;

	if (h < 0)
		return -1;
	*len = 0;
	n = (h & 0x3f) + 1;
	switch (h >> 6) {
	case 0:
		for (i = 0; i < n && (b = next(r)) >= 0; i++) {
			if (b == 0 || b == '/')
				b ^= 0x80;
			name[(*len)++] = b;
		}
		break;
	case 1:
		for (i = 0; i < n && (b = next(r)) >= 0; i++) {
			tok = tokens[b % NTOKENS];
			append(name, len, tok, strlen(tok));
		}
		break;
	case 2:
		b = next(r);
		if (b < 0)
			return -1;
		tok = tokens[b % NTOKENS];
		while (*len < 191 + (unsigned int)n)
			append(name, len, tok, strlen(tok));
		*len = 191 + n;
		break;
	default:
		tok = presets[(h & 0x3f) % NPRESETS];
		append(name, len, tok, strlen(tok));
		break;
	}
	if (!*len)
		return -1;
	name[*len] = '\0';
	return 0;
}

/*
 * Contents of a regular file: a length byte L and L bytes; L >= 0xf0
 * makes a sparse file of (L - 0xef) * 9000 + B bytes whose first and
 * last bytes are B (the next byte) and the rest a hole.
 */
static int read_data(struct reader *r, struct node *nd)
{
	int l = next(r), b, i;

	if (l < 0)
		return -1;
	if (l >= 0xf0) {
		b = next(r);
		if (b < 0)
			return -1;
		nd->size = (size_t)(l - 0xef) * 9000 + b;
		nd->data = calloc(nd->size, 1);
		if (!nd->data)
			abort();
		nd->data[0] = nd->data[nd->size - 1] = b;
		return 0;
	}
	nd->data = fuzz_malloc(l ? l : 1);
	for (i = 0; i < l && (b = next(r)) >= 0; i++)
		nd->data[i] = b;
	nd->size = i;
	return 0;
}

/* A symlink target: 1-255 bytes, none NUL. */
static int read_target(struct reader *r, struct node *nd)
{
	int l = next(r), b, i;

	if (l < 0)
		return -1;
	nd->data = fuzz_malloc((l ? l : 1) + 1);
	for (i = 0; i < (l ? l : 1) && (b = next(r)) >= 0; i++)
		nd->data[i] = b ? b : 'x';
	if (!i)
		nd->data[i++] = 'x';
	nd->data[i] = '\0';
	nd->size = i;
	return 0;
}

/*
 * A sibling's name, transformed as casefolding would not see (or would):
 * 0 swap the case of every ASCII letter, 1 of the first, 2 insert ZWJ at
 * a byte position (even inside a character), 3 append VS16, 4 composed
 * and decomposed e acute swapped, 5 ß/ss/SS/Kelvin swapped.
 */
static void transform(const struct node *from, int t, int pos,
		      unsigned char *name, unsigned int *len)
{
	unsigned int i, n = from->len;
	const unsigned char *s = from->name;

	*len = 0;
	switch (t % 6) {
	case 0:
	case 1:
		append(name, len, s, n);
		for (i = 0; i < *len; i++) {
			unsigned char c = name[i];

			if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
				name[i] ^= 0x20;
				if (t % 6 == 1)
					break;
			}
		}
		break;
	case 2:
		pos = n ? pos % (n + 1) : 0;
		append(name, len, s, pos);
		append(name, len, "\xe2\x80\x8d", 3);
		append(name, len, s + pos, n - pos);
		break;
	case 3:
		append(name, len, s, n);
		append(name, len, "\xef\xb8\x8f", 3);
		break;
	default:
		for (i = 0; i < n; i++) {
			if (t % 6 == 4 && i + 1 < n && s[i] == 0xc3 &&
			    s[i + 1] == 0xa9) {
				append(name, len, "e\xcc\x81", 3);
				i++;
			} else if (t % 6 == 4 && i + 2 < n && s[i] == 'e' &&
				   s[i + 1] == 0xcc && s[i + 2] == 0x81) {
				append(name, len, "\xc3\xa9", 2);
				i += 2;
			} else if (t % 6 == 5 && s[i] == 's') {
				append(name, len, "\xc3\x9f", 2);
			} else if (t % 6 == 5 && s[i] == 'k') {
				append(name, len, "\xe2\x84\xaa", 3);
			} else if (t % 6 == 5 && i + 1 < n && s[i] == 0xc3 &&
				   s[i + 1] == 0x9f) {
				append(name, len, "SS", 2);
				i++;
			} else {
				append(name, len, s + i, 1);
			}
		}
	}
	name[*len] = '\0';
}

/* ------------------------------------------------------------------ */
/* Making the tree on disk.                                             */

/* Make node t->nodes[t->n] on disk; keep it if the kernel agrees. */
static void make_node(struct tree *t)
{
	struct node *nd = &t->nodes[t->n], *p = &t->nodes[nd->parent];
	const char *name = (const char *)nd->name;
	int fd, ok = 0;

	nd->fd = -1;
	switch (nd->kind) {
	case K_DIR:
		if (mkdirat(p->fd, name, 0755) == 0) {
			nd->fd = openat(p->fd, name, O_RDONLY | O_DIRECTORY |
					O_NOFOLLOW);
			FUZZ_ASSERT(nd->fd >= 0);
			ok = 1;
		}
		break;
	case K_REG:
		if (nd->link >= 0) {
			const struct node *to = &t->nodes[nd->link];

			ok = !linkat(t->nodes[to->parent].fd,
				     (const char *)to->name, p->fd, name, 0);
			break;
		}
		fd = openat(p->fd, name, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW, 0644);
		if (fd < 0)
			break;
		if (nd->size <= MAX_DATA) {
			FUZZ_ASSERT(pwrite(fd, nd->data, nd->size, 0) ==
				    (ssize_t)nd->size);
		} else {
			/* Sparse: the first and last byte, a hole between. */
			FUZZ_ASSERT(!ftruncate(fd, nd->size));
			FUZZ_ASSERT(pwrite(fd, nd->data, 1, 0) == 1);
			FUZZ_ASSERT(pwrite(fd, nd->data + nd->size - 1, 1,
					   nd->size - 1) == 1);
		}
		close(fd);
		ok = 1;
		break;
	case K_SYMLINK:
		ok = symlinkat((const char *)nd->data, p->fd, name) == 0;
		break;
	case K_FIFO:
		ok = mkfifoat(p->fd, name, 0644) == 0;
		break;
	}
	if (!ok) {
		free(nd->data);
		nd->data = NULL;
		return;
	}
	nd->depth = p->depth + 1;
	nd->path_len = p->path_len + 1 + nd->len;
	t->n++;
}

/* A new node below dir, its name and kind set by the caller next. */
static struct node *new_node(struct tree *t, int dir, enum kind kind)
{
	struct node *nd = &t->nodes[t->n];

	memset(nd, 0, sizeof(*nd));
	nd->parent = dir;
	nd->kind = kind;
	nd->link = -1;
	return nd;
}

static int nth_of(const struct tree *t, int parent, enum kind kind, int i)
{
	int j, count = 0;

	for (j = 1; j < t->n; j++)
		if ((parent < 0 || t->nodes[j].parent == parent) &&
		    (kind < 0 || (t->nodes[j].kind == kind &&
				  t->nodes[j].link < 0)))
			count++;
	if (!count)
		return -1;
	i %= count;
	for (j = 1; j < t->n; j++)
		if ((parent < 0 || t->nodes[j].parent == parent) &&
		    (kind < 0 || (t->nodes[j].kind == kind &&
				  t->nodes[j].link < 0)) && !i--)
			return j;
	return -1;
}

/* MKDIR, CREAT (or a fifo), SYMLINK. */
static int op_make(struct tree *t, struct reader *r, int *cur, int op)
{
	struct node *nd = new_node(t, *cur, op % NOPS == OP_MKDIR ? K_DIR :
				   op % NOPS == OP_CREAT ? K_REG : K_SYMLINK);
	int made = t->n;

	if (read_name(r, nd->name, &nd->len))
		return -1;
	if (nd->kind == K_REG && op & 0x80) {
		nd->kind = K_FIFO;
	} else if ((nd->kind == K_REG && read_data(r, nd)) ||
		   (nd->kind == K_SYMLINK && read_target(r, nd))) {
		free(nd->data);
		return -1;
	}
	if (nd->kind != K_DIR || t->nodes[*cur].depth < MAX_DEPTH)
		make_node(t);
	if (t->n > made && nd->kind == K_DIR)
		*cur = made;
	return 0;
}

static int op_variant(struct tree *t, struct reader *r, int cur)
{
	int a = next(r), b = next(r), c = next(r), i;
	struct node *nd;

	if (a < 0 || b < 0 || c < 0)
		return -1;
	i = nth_of(t, cur, -1, a);
	if (i < 0)
		return 0;
	nd = new_node(t, cur, c & 1 ? K_DIR : K_REG);
	transform(&t->nodes[i], b, c >> 1, nd->name, &nd->len);
	if (!nd->len)
		return 0;
	if (nd->kind == K_REG) {
		nd->data = fuzz_malloc(1);
		nd->data[0] = c;
		nd->size = 1;
	}
	make_node(t);
	return 0;
}

static int op_chain(struct tree *t, struct reader *r, int *cur)
{
	unsigned char name[MAX_NAME + 1];
	unsigned int len;
	int n = next(r), i, dir = *cur;

	if (n < 0 || read_name(r, name, &len))
		return -1;
	for (i = 0; i <= (n & 0x7f) && t->n < MAX_NODES &&
	     t->nodes[dir].depth < MAX_DEPTH; i++) {
		struct node *nd = new_node(t, dir, K_DIR);
		int made = t->n;

		memcpy(nd->name, name, len + 1);
		nd->len = len;
		make_node(t);
		if (t->n == made)
			break;
		dir = made;
	}
	if (n & 0x80)
		*cur = dir;
	return 0;
}

static int op_link(struct tree *t, struct reader *r, int cur)
{
	int a = next(r), i;
	struct node *nd;

	if (a < 0)
		return -1;
	i = nth_of(t, -1, K_REG, a);
	nd = new_node(t, cur, K_REG);
	if (read_name(r, nd->name, &nd->len))
		return -1;
	if (i < 0)
		return 0;
	nd->link = i;
	nd->size = t->nodes[i].size;
	make_node(t);
	return 0;
}

/* One op at directory *cur. -1 at the end of the input. */
static int run_op(struct tree *t, struct reader *r, int *cur)
{
	int op = next(r);

	if (op < 0)
		return -1;
	switch (op % NOPS) {
	case OP_MKDIR:
	case OP_CREAT:
	case OP_SYMLINK:
		return op_make(t, r, cur, op);
	case OP_UP:
		if (*cur)
			*cur = t->nodes[*cur].parent;
		return 0;
	case OP_VARIANT:
		return op_variant(t, r, *cur);
	case OP_CHAIN:
		return op_chain(t, r, cur);
	case OP_LINK:
		return op_link(t, r, *cur);
	default:
		t->nodes[*cur].listed = 1;
		return 0;
	}
}

/* Every node gets its own mtime; hard links share their file's. */
static void stamp_times(struct tree *t)
{
	struct timespec ts[2];
	int i;

	for (i = t->n - 1; i >= 0; i--) {
		const struct node *nd = &t->nodes[i];

		if (nd->link >= 0)
			continue;
		ts[0].tv_sec = ts[1].tv_sec = MTIME_BASE + i;
		ts[0].tv_nsec = ts[1].tv_nsec = 0;
		if (i == 0)
			FUZZ_ASSERT(!futimens(nd->fd, ts));
		else
			FUZZ_ASSERT(!utimensat(t->nodes[nd->parent].fd,
					       (const char *)nd->name, ts,
					       AT_SYMLINK_NOFOLLOW));
	}
}

static void build_tree(struct tree *t, const uint8_t *data, size_t size)
{
	struct reader r = { data + 2, size - 2 };
	int cur = 0;

	t->n = 0;
	t->opt0 = data[0];
	t->opt1 = data[1];
	FUZZ_ASSERT(mkdir(src_path, 0755) == 0);
	new_node(t, -1, K_DIR);
	t->nodes[0].fd = open(src_path, O_RDONLY | O_DIRECTORY);
	FUZZ_ASSERT(t->nodes[0].fd >= 0);
	t->nodes[0].path_len = strlen(src_path);
	t->n = 1;
	while (t->n < MAX_NODES && !run_op(t, &r, &cur))
		;
	stamp_times(t);
}

/* Children before parents (they were made after them), then the root. */
static void remove_tree(struct tree *t)
{
	int i;

	for (i = t->n - 1; i >= 1; i--) {
		struct node *nd = &t->nodes[i];

		if (nd->kind == K_DIR)
			close(nd->fd);
		FUZZ_ASSERT(!unlinkat(t->nodes[nd->parent].fd,
				      (const char *)nd->name,
				      nd->kind == K_DIR ? AT_REMOVEDIR : 0));
		free(nd->data);
	}
	close(t->nodes[0].fd);
	FUZZ_ASSERT(!rmdir(src_path));
}

/* ------------------------------------------------------------------ */
/* What mkfs must do.                                                   */

static int is_lost_found(const struct node *nd)
{
	return nd->parent == 0 && nd->len == 10 &&
	       !memcmp(nd->name, "lost+found", 10);
}

static int source_lost_found(const struct tree *t)
{
	int i;

	for (i = 1; i < t->n; i++)
		if (is_lost_found(&t->nodes[i]))
			return i;
	return -1;
}

/* casefold_dirs=...: only directories whose path -E can carry. */
static int listable(const struct tree *t, int i)
{
	const struct node *nd;

	for (nd = &t->nodes[i]; nd->parent >= 0; nd = &t->nodes[nd->parent])
		if (memchr(nd->name, ',', nd->len) ||
		    memchr(nd->name, ':', nd->len))
			return 0;
	return t->nodes[i].path_len < PATH_MAX;
}

/* Add node i's path ("." for the root) to t->list; 0 if it does not fit. */
static int list_dir(struct tree *t, int i)
{
	size_t used = strlen(t->list), at = PATH_MAX;
	char path[PATH_MAX + 1];
	const struct node *nd;

	path[at] = '\0';
	for (nd = &t->nodes[i]; nd->parent >= 0; nd = &t->nodes[nd->parent]) {
		at -= nd->len;
		memcpy(path + at, nd->name, nd->len);
		if (nd->parent > 0)
			path[--at] = '/';
	}
	if (i == 0)
		path[--at] = '.';
	if (used + 1 + (PATH_MAX - at) + 1 > sizeof(t->list))
		return 0;
	snprintf(t->list + used, sizeof(t->list) - used, "%s%s",
		 t->nlisted ? ":" : "casefold_dirs=", path + at);
	return 1;
}

/* Parents come before their children, so one pass marks every node. */
static void mark_casefold(struct tree *t)
{
	int i, mode = CF_MODE(t);

	t->nlisted = 0;
	t->list[0] = '\0';
	for (i = 0; i < t->n; i++) {
		struct node *nd = &t->nodes[i];

		nd->listed = nd->listed && mode == 3 && nd->kind == K_DIR &&
			     listable(t, i) && list_dir(t, i);
		t->nlisted += nd->listed;
		nd->casefold = nd->kind == K_DIR &&
			       (mode == 1 || (mode == 2 && i == 0) ||
				nd->listed ||
				(i && t->nodes[nd->parent].casefold));
	}
}

struct key_entry {
	struct e2fold_key key;
	int node;		/* -1: the implicit /lost+found */
	int valid;
};

static int cmp_names(const unsigned char *a, unsigned int alen,
		     const unsigned char *b, unsigned int blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

static int same_key(const struct e2fold_key *a, const struct e2fold_key *b)
{
	return a->len == b->len && !memcmp(a->bytes, b->bytes, a->len);
}

static int is_dot_key(const struct e2fold_key *k)
{
	return same_key(k, &dot_keys[0]) || same_key(k, &dot_keys[1]);
}

/*
 * The names of casefolded directory d and their keys, the implicit
 * /lost+found included. Returns the count; *ret to free.
 */
static int dir_keys(const struct tree *t, int d, struct key_entry **ret)
{
	struct key_entry *k;
	int i, n = 1;

	for (i = 1; i < t->n; i++)
		n += t->nodes[i].parent == d;
	k = fuzz_malloc(n * sizeof(*k));
	n = 0;

	if (d == 0 && source_lost_found(t) < 0) {
		e2fold_name_key(um, (const unsigned char *)"lost+found", 10,
				&k[n].key);
		k[n].node = -1;
		k[n++].valid = 1;
	}
	for (i = 1; i < t->n; i++) {
		const struct node *nd = &t->nodes[i];

		if (nd->parent != d)
			continue;
		e2fold_name_key(um, nd->name, nd->len, &k[n].key);
		k[n].node = i;
		k[n++].valid = e2fold_name_is_valid(um, nd->name, nd->len);
	}
	*ret = k;
	return n;
}

static void expect_of(struct tree *t, struct expect *e)
{
	int i, d, lf = source_lost_found(t);

	memset(e, 0, sizeof(*e));
	mark_casefold(t);
	for (i = 0; i < t->n; i++)
		if (t->nodes[i].path_len >= PATH_MAX)
			e->must_fail = 1;
	if (lf >= 0 && t->nodes[lf].kind != K_DIR)
		e->must_fail = 1;
	if (t->nodes[0].casefold || t->nlisted)
		if (!HAS_FEATURE(t))
			e->must_fail = 1;
	for (d = 0; d < t->n; d++) {
		struct key_entry *k;
		int n, a, b;

		if (!t->nodes[d].casefold)
			continue;
		n = dir_keys(t, d, &k);
		for (a = 0; a < n; a++) {
			if (!k[a].key.folded)
				e->unfoldable = 1;
			if ((STRICT(t) && !k[a].valid) || is_dot_key(&k[a].key))
				e->problems = 1;
			for (b = a + 1; b < n; b++)
				if (same_key(&k[a].key, &k[b].key))
					e->problems = 1;
		}
		free(k);
	}
	if (e->problems && !RENAME(t))
		e->must_fail = 1;
}

/* ------------------------------------------------------------------ */
/* Running mkfs.                                                        */

struct args {
	char *argv[40];
	int argc;
	char features[128];
	char ext[512];
};

static void add_arg(struct args *a, const char *arg)
{
	a->argv[a->argc++] = (char *)arg;
	a->argv[a->argc] = NULL;
}

/* -E: the fixed hash seed, then what the option bits ask for. */
static void extended_options(const struct tree *t, struct args *a)
{
	size_t n = sizeof(a->ext), off;

	off = snprintf(a->ext, n, "hash_seed=2a7f9c1e-3b5d-4e6f-8a9b-"
		       "1c2d3e4f5a6b,nodiscard");
	if (HAS_FEATURE(t) && (t->opt0 & 0x14))
		off += snprintf(a->ext + off, n - off,
				",encoding_flags=%s%s%s",
				STRICT(t) ? "strict" : "",
				(t->opt0 & 0x14) == 0x14 ? "-" : "",
				t->opt0 & 0x10 ? "hashonly" : "");
	if (RENAME(t))
		off += snprintf(a->ext + off, n - off, ",collisions=rename");
	if (CF_MODE(t) == 1)
		off += snprintf(a->ext + off, n - off, ",casefold_dirs=all");
	if (CF_MODE(t) == 2)
		snprintf(a->ext + off, n - off, ",casefold_root");
}

/* The command line the option bits describe (see the top of the file). */
static void mkfs_args(const struct tree *t, struct args *a)
{
	a->argc = 0;
	add_arg(a, "e2fold-mkfs");
	if (!(t->opt1 & 0x01))
		add_arg(a, "-q");
	add_arg(a, "-U");
	add_arg(a, "6b3c8a3e-51d4-4c0e-9a2b-0e2f1d3c4b5a");
	add_arg(a, "-b");
	add_arg(a, t->opt0 & 0x20 ? "4096" : "1024");
	if (t->opt1 & 0x08) {
		add_arg(a, "-I");
		add_arg(a, "128");
	}
	snprintf(a->features, sizeof(a->features), "%s%s%s",
		 HAS_FEATURE(t) ? "casefold," : "",
		 t->opt0 & 0x40 ? "" : "^has_journal,",
		 t->opt1 & 0x10 ? "^metadata_csum," : "");
	if (*a->features) {
		a->features[strlen(a->features) - 1] = '\0';
		add_arg(a, "-O");
		add_arg(a, a->features);
	}
	extended_options(t, a);
	add_arg(a, "-E");
	add_arg(a, a->ext);
	if (t->nlisted) {
		add_arg(a, "-E");
		add_arg(a, t->list);
	}
	if (t->opt0 & 0x80) {
		add_arg(a, "--report");
		add_arg(a, report_path);
	}
	add_arg(a, "-d");
	add_arg(a, src_path);
	add_arg(a, image_path);
	add_arg(a, "8M");
}

/* Put fd back as it was (saved by dup, or -1 if it was closed). */
static void restore_fd(int saved, int fd)
{
	if (saved >= 0) {
		dup2(saved, fd);
		close(saved);
	} else {
		close(fd);
	}
}

/* mkfs_main with its stdout to /dev/null, its stderr to log_path. */
static int run_mkfs(const struct tree *t)
{
	struct args a;
	int status, saved_err, saved_out, logfd, null;

	mkfs_args(t, &a);
	fflush(stdout);
	fflush(stderr);
	saved_err = dup(2);
	saved_out = dup(1);
	logfd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	FUZZ_ASSERT(logfd >= 0);
	if (!verbose) {
		null = open("/dev/null", O_WRONLY);
		FUZZ_ASSERT(null >= 0 && dup2(null, 1) == 1);
		close(null);
		FUZZ_ASSERT(dup2(logfd, 2) == 2);
	}
	close(logfd);
	status = mkfs_main(a.argc, a.argv);
	fflush(stdout);
	fflush(stderr);
	restore_fd(saved_err, 2);
	restore_fd(saved_out, 1);
	return status;
}

/* ------------------------------------------------------------------ */
/* Checking the image.                                                  */

struct checker {
	ext2_filsys fs;
	struct tree *t;
	int unfoldable;		/* seen in an indexed casefolded directory */
	char *report;		/* --report's JSON, NUL-terminated, or NULL */
};

static void fail_node(const struct tree *t, int i, const char *what)
{
	const struct node *nd = &t->nodes[i];

	fprintf(fuzz_report(), "node %d (parent %d, kind %d): %s\n", i,
		nd->parent, nd->kind, what);
	fuzz_print_bytes("source name", nd->name, nd->len);
	FUZZ_ASSERT(!"the image differs from the source");
}

static void read_file(ext2_filsys fs, ext2_ino_t ino, unsigned char *buf,
		      size_t size)
{
	ext2_file_t f;
	unsigned int got = 0;

	FUZZ_ASSERT(!ext2fs_file_open(fs, ino, 0, &f));
	FUZZ_ASSERT(!ext2fs_file_read(f, buf, size, &got));
	FUZZ_ASSERT(got == size);
	ext2fs_file_close(f);
}

static void check_contents(struct checker *c, int i, ext2_ino_t ino,
			   struct ext2_inode *inode)
{
	const struct node *nd = &c->t->nodes[c->t->nodes[i].link >= 0 ?
					     c->t->nodes[i].link : i];
	unsigned char *buf;

	if (EXT2_I_SIZE(inode) != nd->size)
		fail_node(c->t, i, "size differs");
	if (!nd->size)
		return;
	if (nd->kind == K_SYMLINK && ext2fs_is_fast_symlink(inode)) {
		if (memcmp(inode->i_block, nd->data, nd->size))
			fail_node(c->t, i, "symlink target differs");
		return;
	}
	buf = fuzz_malloc(nd->size);
	read_file(c->fs, ino, buf, nd->size);
	if (memcmp(buf, nd->data, nd->size))
		fail_node(c->t, i, "contents differ");
	free(buf);
}

static int kind_matches(enum kind kind, const struct ext2_inode *inode)
{
	switch (kind) {
	case K_DIR:
		return LINUX_S_ISDIR(inode->i_mode);
	case K_REG:
		return LINUX_S_ISREG(inode->i_mode);
	case K_SYMLINK:
		return LINUX_S_ISLNK(inode->i_mode);
	default:
		return LINUX_S_ISFIFO(inode->i_mode);
	}
}

/*
 * The unmatched child of d that entry de (inode mtime id) is: with
 * by_name, only one of the same name. Hard links share an mtime, so the
 * entries that kept their names are matched first (by_name), then the
 * renamed ones. -2 if there is none.
 */
static int match_entry(struct tree *t, int d, const struct e2fold_dirent *de,
		       unsigned int id, int by_name)
{
	int i;

	for (i = 1; i < t->n; i++) {
		const struct node *nd = &t->nodes[i];

		if (nd->parent != d || nd->matched ||
		    (unsigned int)(nd->link >= 0 ? nd->link : i) != id)
			continue;
		if (!by_name || (nd->len == de->name_len &&
				 !memcmp(nd->name, de->name, de->name_len))) {
			t->nodes[i].matched = 1;
			return i;
		}
	}
	return -2;
}

/* /lost+found: the filesystem's, or the source's merged into it. */
static int is_reserved(const struct tree *t, const struct key_entry *k)
{
	return k->node < 0 || is_lost_found(&t->nodes[k->node]);
}

/*
 * Must node i (a child of casefolded d, keys k[0..n)) keep its name?
 * The documented rule: in each group of names with one key, /lost+found
 * keeps its name, or else the first in byte order; a name whose key is
 * that of "." or ".." gives way. Not asserted when a member of the group
 * is invalid under strict (which one keeps the name is not documented).
 */
static int must_keep(const struct tree *t, const struct key_entry *k, int n,
		     int i)
{
	const struct key_entry *me = NULL, *keeper = NULL;
	int a;

	for (a = 0; a < n; a++)
		if (k[a].node == i)
			me = &k[a];
	if (is_dot_key(&me->key))
		return 0;
	for (a = 0; a < n; a++) {
		const struct node *x, *y;

		if (!same_key(&k[a].key, &me->key))
			continue;
		if (STRICT(t) && !k[a].valid)
			return 0;
		if (keeper && is_reserved(t, keeper))
			continue;
		if (!keeper || is_reserved(t, &k[a])) {
			keeper = &k[a];
			continue;
		}
		x = &t->nodes[k[a].node];
		y = &t->nodes[keeper->node];
		if (cmp_names(x->name, x->len, y->name, y->len) < 0)
			keeper = &k[a];
	}
	return keeper == me;
}

/* The JSON string of name/len, quoted, as the report writes it. */
static char *json_name(const unsigned char *name, unsigned int len)
{
	char *buf = fuzz_malloc(E2FOLD_JSON_ESCAPED_SIZE(len) + 2);

	buf[0] = '"';
	e2fold_json_escape(name, len, buf + 1, E2FOLD_JSON_ESCAPED_SIZE(len));
	strcat(buf, "\"");
	return buf;
}

/* Does the report name the source name and the new name of a rename? */
static int reported(const char *report, const struct node *nd,
		    const struct e2fold_dirent *de)
{
	char *from = json_name(nd->name, nd->len);
	char *to = json_name(de->name, de->name_len);
	int ok = strstr(report, from) && strstr(report, to);

	free(from);
	free(to);
	return ok;
}

/* The whole file at path, NUL-terminated. */
static char *read_text(const char *path)
{
	struct stat st;
	char *text;
	int fd = open(path, O_RDONLY);

	FUZZ_ASSERT(fd >= 0 && !fstat(fd, &st) && st.st_size > 0);
	text = fuzz_malloc(st.st_size + 1);
	FUZZ_ASSERT(read(fd, text, st.st_size) == st.st_size);
	text[st.st_size] = '\0';
	close(fd);
	return text;
}

/* Why the rename of node i (child of d) to de's name is wrong, or NULL. */
static const char *bad_rename(struct checker *c, int d, int i,
			      const struct e2fold_dirent *de,
			      const struct key_entry *k, int n)
{
	if (!c->t->nodes[d].casefold)
		return "renamed in a directory not casefolded";
	if (!RENAME(c->t))
		return "renamed without collisions=rename";
	if (must_keep(c->t, k, n, i))
		return "renamed, but it should keep its name";
	if (!e2fold_name_is_valid(um, de->name, de->name_len) ||
	    memchr(de->name, '/', de->name_len) ||
	    memchr(de->name, '\0', de->name_len))
		return "renamed to an invalid name";
	if (c->report && !reported(c->report, &c->t->nodes[i], de))
		return "renamed, but --report does not say so";
	return NULL;
}

static void check_name(struct checker *c, int d, int i,
		       const struct e2fold_dirent *de,
		       const struct key_entry *k, int n)
{
	const struct node *nd = &c->t->nodes[i];
	const char *why;

	if (nd->len == de->name_len && !memcmp(nd->name, de->name, nd->len))
		return;
	why = bad_rename(c, d, i, de, k, n);
	if (!why)
		return;
	fuzz_print_bytes("image name", de->name, de->name_len);
	fail_node(c->t, i, why);
}

/* No two names share a key; none has the key of "." or ".." */
static void check_keys(struct checker *c, const struct e2fold_dir *dir)
{
	struct e2fold_key *keys = fuzz_malloc((dir->nents + 1) * sizeof(*keys));
	size_t a, b;

	for (a = 0; a < dir->nents; a++) {
		e2fold_name_key(um, dir->ents[a].name, dir->ents[a].name_len,
				&keys[a]);
		if (!keys[a].folded && dir->indexed)
			c->unfoldable = 1;
		if (STRICT(c->t))
			FUZZ_ASSERT(e2fold_name_is_valid(um, dir->ents[a].name,
					dir->ents[a].name_len));
		if (is_dot_key(&keys[a])) {
			fuzz_print_bytes("name", dir->ents[a].name,
					 dir->ents[a].name_len);
			FUZZ_ASSERT(!"a name casefolds to . or ..");
		}
		for (b = 0; b < a; b++) {
			if (!same_key(&keys[a], &keys[b]))
				continue;
			fuzz_print_bytes("name", dir->ents[a].name,
					 dir->ents[a].name_len);
			fuzz_print_bytes("and", dir->ents[b].name,
					 dir->ents[b].name_len);
			FUZZ_ASSERT(!"two names of a casefolded dir collide");
		}
	}
	free(keys);
}

/* A kernel lookup of each name finds that entry, by the hashed search. */
static void check_lookups(struct checker *c, const struct e2fold_dir *dir)
{
	struct e2fold_lookup *lk = fuzz_malloc(sizeof(*lk));
	size_t a;

	for (a = 0; a < dir->nents; a++) {
		const struct e2fold_dirent *de = &dir->ents[a];

		FUZZ_ASSERT(!e2fold_lookup(c->fs, um, dir, de->name,
					   de->name_len, 0, lk));
		if (lk->found == de && !lk->misplaced &&
		    lk->path != E2FOLD_LOOKUP_FALLBACK)
			continue;
		fuzz_print_bytes("name", de->name, de->name_len);
		fprintf(fuzz_report(), "  lookup path %s, found %s\n",
			e2fold_lookup_path_text(lk->path),
			lk->found ? "another entry" : "nothing");
		FUZZ_ASSERT(!"a lookup does not find the entry");
	}
	free(lk);
}

static void check_dir(struct checker *c, int d);

/*
 * The node entry de of directory d is: -1 for the implicit /lost+found,
 * -2 if none (yet: see match_entry).
 */
static int node_of_entry(struct checker *c, int d,
			 const struct e2fold_dirent *de, int by_name)
{
	struct tree *t = c->t;
	struct ext2_inode inode;
	int lf;

	FUZZ_ASSERT(!ext2fs_read_inode(c->fs, de->ino, &inode));
	if (d == 0 && de->name_len == 10 &&
	    !memcmp(de->name, "lost+found", 10)) {
		/* The filesystem's: a source lost+found is merged into it. */
		FUZZ_ASSERT(LINUX_S_ISDIR(inode.i_mode));
		lf = source_lost_found(t);
		if (lf < 0) {
			FUZZ_ASSERT(!!(inode.i_flags & E2FOLD_CASEFOLD_FL) ==
				    t->nodes[0].casefold);
			return -1;
		}
		t->nodes[lf].matched = 1;
		return lf;
	}
	return match_entry(t, d, de, inode.i_mtime - MTIME_BASE, by_name);
}

static void check_entry(struct checker *c, int d, int i,
			const struct e2fold_dirent *de,
			const struct key_entry *k, int nk)
{
	struct tree *t = c->t;
	struct ext2_inode inode;

	FUZZ_ASSERT(!ext2fs_read_inode(c->fs, de->ino, &inode));
	t->nodes[i].ino = de->ino;
	if (!kind_matches(t->nodes[i].kind, &inode))
		fail_node(t, i, "type differs");
	if (t->nodes[i].kind == K_REG || t->nodes[i].kind == K_SYMLINK)
		check_contents(c, i, de->ino, &inode);
	if (t->nodes[i].kind == K_DIR &&
	    !!(inode.i_flags & E2FOLD_CASEFOLD_FL) != t->nodes[i].casefold)
		fail_node(t, i, "casefold flag differs");
	check_name(c, d, i, de, k, nk);
}

static void check_dir(struct checker *c, int d)
{
	struct tree *t = c->t;
	struct e2fold_dir *dir;
	struct key_entry *k = NULL;
	int i, nk = 0, want = 0, *node;
	size_t a;

	FUZZ_ASSERT(!e2fold_dir_read(c->fs, t->nodes[d].ino, &dir));
	FUZZ_ASSERT(!dir->ncorrupt && !dir->nbadsum);
	FUZZ_ASSERT(dir->dx_problem == E2FOLD_DX_OK);
	FUZZ_ASSERT(dir->casefolded == t->nodes[d].casefold);
	for (i = 1; i < t->n; i++)
		want += t->nodes[i].parent == d;
	if (d == 0 && source_lost_found(t) < 0)
		want++;
	if (dir->nents != (size_t)want) {
		fprintf(fuzz_report(), "directory node %d: %zu entries, "
			"%d in the source\n", d, dir->nents, want);
		FUZZ_ASSERT(!"entries lost or added");
	}
	if (t->nodes[d].casefold) {
		nk = dir_keys(t, d, &k);
		check_keys(c, dir);
	}
	check_lookups(c, dir);
	node = fuzz_malloc((dir->nents + 1) * sizeof(*node));
	for (a = 0; a < dir->nents; a++)
		node[a] = node_of_entry(c, d, &dir->ents[a], 1);
	for (a = 0; a < dir->nents; a++) {
		if (node[a] == -2)
			node[a] = node_of_entry(c, d, &dir->ents[a], 0);
		if (node[a] == -2) {
			fuzz_print_bytes("image name", dir->ents[a].name,
					 dir->ents[a].name_len);
			FUZZ_ASSERT(!"an entry of the image is no source node");
		}
		if (node[a] >= 0)
			check_entry(c, d, node[a], &dir->ents[a], k, nk);
	}
	free(node);
	e2fold_dir_free(dir);
	free(k);
	for (i = 1; i < t->n; i++) {
		if (t->nodes[i].parent != d)
			continue;
		if (!t->nodes[i].matched)
			fail_node(t, i, "missing from the image");
		if (t->nodes[i].kind == K_DIR)
			check_dir(c, i);
	}
}

static int check_image(struct tree *t)
{
	struct checker c = { .t = t };
	int i;

	FUZZ_ASSERT(!ext2fs_open(image_path, EXT2_FLAG_64BITS, 0, 0,
				 unix_io_manager, &c.fs));
	if (t->opt0 & 0x80)
		c.report = read_text(report_path);
	t->nodes[0].ino = EXT2_ROOT_INO;
	check_dir(&c, 0);
	for (i = 1; i < t->n; i++)
		if (t->nodes[i].link >= 0 &&
		    t->nodes[i].ino != t->nodes[t->nodes[i].link].ino)
			fail_node(t, i, "hard link to another inode");
	ext2fs_close_free(&c.fs);
	free(c.report);
	return c.unfoldable;
}

/* The system e2fsck -fn finds nothing. */
static void check_e2fsck(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		abort();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		setenv("E2FSCK_CONFIG", "/dev/null", 1);
		execlp("e2fsck", "e2fsck", "-fn", image_path, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			abort();
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return;
	fprintf(fuzz_report(), "e2fsck -fn exits %d on the image; "
		"FUZZ_MKFS_KEEP=1 keeps it\n", WEXITSTATUS(status));
	FUZZ_ASSERT(!"e2fsck finds problems in the image");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct expect e;
	struct stat st;
	int status, unfoldable;

	if (size < 2)
		return 0;
	build_tree(&tree, data, size);
	expect_of(&tree, &e);
	status = run_mkfs(&tree);
	FUZZ_ASSERT(status == 0 || status == 1);
	if (status) {
		FUZZ_ASSERT(stat(image_path, &st) < 0 && errno == ENOENT);
		FUZZ_ASSERT(verbose || (stat(log_path, &st) == 0 &&
					st.st_size > 0));
		if (!e.must_fail) {
			fprintf(fuzz_report(), "e2fold-mkfs refused a source "
				"it should take (FUZZ_MKFS_VERBOSE=1: why)\n");
			FUZZ_ASSERT(!"mkfs failed");
		}
	} else {
		FUZZ_ASSERT(!e.must_fail);
		unfoldable = check_image(&tree);
		FUZZ_ASSERT(!unfoldable || e.unfoldable);
		if ((with_e2fsck || ++runs % E2FSCK_EVERY == 0) && !unfoldable)
			check_e2fsck();
	}
	if (keep) {
		fprintf(fuzz_report(), "kept: %s\n", tmpdir);
		exit(0);
	}
	remove_outputs();
	remove_tree(&tree);
	return 0;
}
