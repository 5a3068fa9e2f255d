/*
 * htree_dump.c: htree_dump, a hash-indexed directory's index and leaves with
 * a verdict on every index entry and every name.
 *
 *   htree_dump [-e] PATH
 *
 * Index entries are "ok" or "out of order" (a hash not above the one
 * before it, or outside the range its parent gives the node). A name is
 * "ok" when the kernel's hashed lookup reaches its block: the leaf whose
 * index hash is the last at or below the name's hash, and the leaves after
 * it whose index hash (without the continuation bit) equals it. Otherwise
 * it is in the "wrong bucket", and only a linear scan finds it (see
 * lookup.h). In encrypted casefolded directories the hashes stored in the
 * entries are judged, as the kernel uses them.
 *
 * The index is walked here rather than taken from e2fold_dir_read, so
 * that a damaged index is still shown as far as it can be read.
 */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "debugfs.h"
#include "htree.h"
#include "lookup.h"


/*
 * The index as read: nodes (the root first) holding entries; an entry
 * leads to a node, or, in a node at the lowest level, to a leaf. Leaves
 * are numbered in index order, the order in which the kernel moves from
 * one leaf to the next.
 */
struct dx_ent {
	__u32 hash;		/* as stored; the first entry's is its node's */
	blk64_t lblk;
	long child;		/* node or leaf index; -1 if it was unusable */
};

struct dx_node {
	size_t first;		/* its entries: ents[first, first + count) */
	unsigned int count;
	int leaf_level;		/* its entries lead to leaves */
};

struct leaf_ref {
	blk64_t lblk;
	__u32 index_hash;	/* as stored, with the continuation bit */
	__u64 hi;		/* next leaf's index hash & ~1, or 1 << 32 */
};

struct walker {
	struct session *s;
	struct dir_view *v;
	unsigned char *seen;	/* per logical block: an index block */
	struct dx_node *nodes;
	size_t nnodes, nodes_cap;
	struct dx_ent *ents;
	size_t nents, ents_cap;
	struct leaf_ref *leaves;
	size_t nleaves, leaves_cap;
	unsigned int unordered;
};

static errcode_t read_dir_block(struct walker *w, blk64_t lblk,
				unsigned char *buf)
{
	struct e2fold_dir *d = w->v->dir;
	blk64_t pblk = 0;
	errcode_t retval;

	retval = ext2fs_bmap2(w->s->fs, d->ino, (struct ext2_inode *)&d->inode,
			      NULL, 0, lblk, NULL, &pblk);
	if (retval)
		return retval;
	if (!pblk)
		return EXT2_ET_BAD_BLOCK_NUM;
	retval = ext2fs_read_dir_block4(w->s->fs, pblk, buf, 0, d->ino);
	return retval == EXT2_ET_DIR_CSUM_INVALID ? 0 : retval;
}

/*
 * Index block lblk, with its count and limit (at offset), printed;
 * NULL after saying why when it cannot be used.
 */
static unsigned char *read_index(struct walker *w, blk64_t lblk,
				 unsigned int offset, __u32 lo, __u64 hi,
				 unsigned int *ret_count)
{
	ext2_filsys fs = w->s->fs;
	unsigned char *buf;
	unsigned int count, limit;

	if (lblk >= w->v->dir->nblocks || w->seen[lblk]) {
		printf("index block %llu: outside the directory or seen twice\n",
		       (unsigned long long)lblk);
		return NULL;
	}
	w->seen[lblk] = 1;
	buf = malloc(fs->blocksize);
	if (!buf || read_dir_block(w, lblk, buf)) {
		printf("index block %llu: unreadable\n", (unsigned long long)lblk);
		free(buf);
		return NULL;
	}
	limit = e2fold_dx_limit(buf + offset);
	count = e2fold_dx_count(buf + offset);
	printf("index block %llu%s: count %u, limit %u, hashes [0x%08x, 0x%08llx)\n",
	       (unsigned long long)lblk, lblk == 0 ? " (root)" : "", count,
	       limit, lo & ~1u, (unsigned long long)hi);
	if (count == 0 || count > limit ||
	    offset + E2FOLD_DX_ENTRY_SIZE * (size_t)limit > fs->blocksize) {
		printf("  count or limit impossible: entries not read\n");
		free(buf);
		return NULL;
	}
	*ret_count = count;
	return buf;
}

/* A node of count entries, reserved at the end of w->ents; or -1. */
static long new_node(struct walker *w, unsigned int count, int leaf_level)
{
	long node;

	if (e2fold_array_reserve(&w->nodes, &w->nodes_cap, w->nnodes + 1,
				 sizeof(*w->nodes)))
		return -1;
	/* A node's entries are contiguous: reserve them before recursing. */
	if (e2fold_array_reserve(&w->ents, &w->ents_cap, w->nents + count,
				 sizeof(*w->ents)))
		return -1;
	node = w->nnodes++;
	w->nodes[node].first = w->nents;
	w->nodes[node].count = count;
	w->nodes[node].leaf_level = leaf_level;
	w->nents += count;
	return node;
}

/* Entry ent leads to a leaf: number it. */
static void add_leaf(struct walker *w, struct dx_ent *ent, __u64 next)
{
	if (e2fold_array_reserve(&w->leaves, &w->leaves_cap, w->nleaves + 1,
				 sizeof(*w->leaves)))
		return;
	ent->child = w->nleaves;
	w->leaves[w->nleaves].lblk = ent->lblk;
	w->leaves[w->nleaves].index_hash = ent->hash;
	w->leaves[w->nleaves].hi = next;
	w->nleaves++;
}

/*
 * Print the index block at lblk (entries at offset) whose range is
 * [lo, hi), depth levels above the leaves, and record it. Returns its
 * node index, or -1 when it cannot be used.
 */
static long walk_index(struct walker *w, blk64_t lblk, unsigned int offset,
		       __u32 lo, __u64 hi, int depth)
{
	unsigned int count = 0, i;
	unsigned char *buf = read_index(w, lblk, offset, lo, hi, &count);
	__u64 prev = 0;
	long node = buf ? new_node(w, count, depth == 0) : -1;

	for (i = 0; node >= 0 && i < count; i++) {
		const unsigned char *e = buf + offset;
		__u32 ehash = i ? e2fold_dx_hash(e, i) : lo;
		__u64 next = i + 1 < count ? e2fold_dx_hash(e, i + 1) & ~1u : hi;
		size_t at = w->nodes[node].first + i;
		int bad = i && (ehash <= prev || ehash < lo || ehash >= hi);

		prev = ehash;
		w->unordered += bad;
		w->ents[at].hash = ehash;
		w->ents[at].lblk = e2fold_dx_block(e, i);
		w->ents[at].child = -1;
		printf("  entry %u: hash 0x%08x%s -> block %llu  %s\n", i,
		       ehash & ~1u, ehash & 1 ? " (continued)" : "",
		       (unsigned long long)w->ents[at].lblk,
		       bad ? "out of order" : "ok");
		if (depth == 0) {
			add_leaf(w, &w->ents[at], next);
		} else {
			/* w->ents may move while the child is walked. */
			long child = walk_index(w, w->ents[at].lblk,
						E2FOLD_DX_NODE_ENTRIES_OFFSET, ehash,
						next, depth - 1);

			w->ents[at].child = child;
		}
	}
	free(buf);
	return node;
}

/* The hash the kernel would use for entry i, or -1 if none is known. */
static int entry_hash(const struct dir_view *v, size_t i, __u32 *ret_hash)
{
	const struct e2fold_dirent *e = &v->dir->ents[i];

	if (v->dir->encrypted && v->dir->casefolded) {
		if (!e->has_stored_hash)
			return -1;
		*ret_hash = e->stored_hash;
		return 0;
	}
	if (v->hash_version < 0)
		return -1;
	*ret_hash = v->hash[i];
	return 0;
}

/*
 * The leaf dx_probe picks for hash, or -1: in each node, a binary search
 * for the last entry whose stored hash is at most hash (the first entry
 * counts as the lowest), exactly as the kernel searches, so that an index
 * out of order leads where it leads the kernel.
 */
static long probe(const struct walker *w, __u32 hash)
{
	long node = w->nnodes ? 0 : -1;

	while (node >= 0) {
		const struct dx_node *n = &w->nodes[node];
		const struct dx_ent *e = &w->ents[n->first];
		long p = 1, q = (long)n->count - 1;

		while (p <= q) {
			long m = p + (q - p) / 2;

			if (e[m].hash > hash)
				q = m - 1;
			else
				p = m + 1;
		}
		if (n->leaf_level)
			return e[p - 1].child;
		node = e[p - 1].child;
	}
	return -1;
}

/* Does the kernel's hashed lookup of hash search block lblk? */
static int reaches(const struct walker *w, __u32 hash, blk64_t lblk)
{
	long i = probe(w, hash);

	if (i < 0)
		return 0;
	if (w->leaves[i].lblk == lblk)
		return 1;
	for (i++; i < (long)w->nleaves; i++) {
		if ((w->leaves[i].index_hash & ~1u) != hash)
			break;
		if (w->leaves[i].lblk == lblk)
			return 1;
	}
	return 0;
}

struct tally {
	size_t ok, wrong, unknown;
};

static void print_entries(struct walker *w, blk64_t lblk, struct tally *t)
{
	const struct dir_view *v = w->v;
	const struct e2fold_dir *d = v->dir;
	size_t i;

	for (i = e2fold_dir_first_entry_at(d, lblk);
	     i < d->nents && d->ents[i].lblk == lblk; i++) {
		const struct e2fold_dirent *e = &d->ents[i];
		__u32 hash;
		const char *verdict;
		long to = -2;

		if (entry_hash(v, i, &hash)) {
			verdict = "?";
			t->unknown++;
		} else if (reaches(w, hash, lblk)) {
			verdict = "ok";
			t->ok++;
		} else {
			verdict = "wrong bucket";
			to = probe(w, hash);
			t->wrong++;
		}
		printf("  %-12s", verdict);
		if (d->encrypted && d->casefolded && e->has_stored_hash)
			printf(" 0x%08x 0x%08x (stored)", e->stored_hash,
			       e->stored_minor);
		else if (v->hash_version >= 0)
			printf(" 0x%08x 0x%08x", v->hash[i], v->minor[i]);
		printf(" %7u %s", e->ino, esc(0, e->name, e->name_len));
		if (to >= 0)
			printf("  (its hash leads to block %llu)",
			       (unsigned long long)w->leaves[to].lblk);
		else if (to == -1)
			printf("  (its hash leads into a damaged index)");
		putchar('\n');
	}
}

static void print_leaves(struct walker *w, struct tally *t)
{
	const struct e2fold_dir *d = w->v->dir;
	unsigned char *is_leaf = calloc(d->nblocks + 1, 1);
	blk64_t lblk;
	size_t i;

	for (i = 0; i < w->nleaves; i++) {
		const struct leaf_ref *l = &w->leaves[i];

		if (l->lblk < d->nblocks && is_leaf)
			is_leaf[l->lblk] = 1;
		printf("leaf block %llu: hashes [0x%08x, 0x%08llx)%s\n",
		       (unsigned long long)l->lblk, l->index_hash & ~1u,
		       (unsigned long long)l->hi,
		       l->index_hash & 1 ? ", continues the previous leaf" : "");
		print_entries(w, l->lblk, t);
	}
	/* Entries in blocks that no index entry points to. */
	for (lblk = 0; is_leaf && lblk < d->nblocks; lblk++) {
		size_t first = e2fold_dir_first_entry_at(d, lblk);

		if (is_leaf[lblk] || w->seen[lblk] || first >= d->nents ||
		    d->ents[first].lblk != lblk)
			continue;
		printf("block %llu: not in the index\n", (unsigned long long)lblk);
		print_entries(w, lblk, t);
	}
	free(is_leaf);
}

static void print_root(struct walker *w, const unsigned char *block)
{
	unsigned int version = block[E2FOLD_DX_ROOT_HASH_VERSION];
	char seed[40];

	printf("root: hash version %u (%s), info length %u, indirect levels %u\n",
	       version, e2fold_hash_alg_name(version),
	       block[E2FOLD_DX_ROOT_INFO_LENGTH], block[E2FOLD_DX_ROOT_LEVELS]);
	if (w->v->dir->encrypted && w->v->dir->casefolded)
		printf("hashes: stored in each entry (SipHash of the casefolded "
		       "name with the directory's key)\n");
	else if (w->v->hash_version >= 0)
		printf("hashes: %s, seed %s\n",
		       e2fold_hash_alg_name(w->v->hash_version),
		       format_seed(w->s->fs->super->s_hash_seed, seed));
}

static void dump(struct walker *w)
{
	const struct e2fold_dir *d = w->v->dir;
	unsigned char *root = malloc(w->s->fs->blocksize);
	struct tally t = { 0, 0, 0 };
	size_t i;

	if (!root || read_dir_block(w, 0, root)) {
		printf("root block unreadable\n");
		free(root);
		return;
	}
	print_root(w, root);
	if (d->dx_problem != E2FOLD_DX_OK)
		printf("index problem: %s (block %llu)\n",
		       e2fold_dx_problem_text(d->dx_problem),
		       (unsigned long long)d->dx_problem_block);
	if (root[E2FOLD_DX_ROOT_INFO_LENGTH] != E2FOLD_DX_ROOT_INFO_SIZE ||
	    root[E2FOLD_DX_ROOT_LEVELS] >= E2FOLD_DX_MAX_DEPTH) {
		printf("root info unusable: index not walked\n");
	} else {
		walk_index(w, 0, E2FOLD_DX_ROOT_ENTRIES_OFFSET, 0, (__u64)1 << 32,
			   root[E2FOLD_DX_ROOT_LEVELS]);
		print_leaves(w, &t);
	}
	for (i = 0; i < d->ncorrupt; i++)
		printf("block %llu: malformed, its entries are not shown\n",
		       (unsigned long long)d->corrupt[i]);
	printf("%zu entries: %zu ok, %zu in the wrong bucket", d->nents, t.ok,
	       t.wrong);
	if (t.unknown)
		printf(", %zu without a known hash", t.unknown);
	printf("; %u index entr%s out of order\n", w->unordered,
	       w->unordered == 1 ? "y" : "ies");
	/* Which kernels miss them (doc/kernel-facts.md, "The compat fallback"). */
	if (t.wrong && (w->s->fs->super->s_encoding_flags &
			E2FOLD_ENC_NO_COMPAT_FALLBACK_FL))
		printf("no_compat_fallback is set: no kernel finds the %zu "
		       "entries in the wrong bucket by name\n", t.wrong);
	else if (t.wrong)
		printf("no_compat_fallback is not set: Linux 6.12 and newer "
		       "find the %zu entries in the wrong bucket by a linear "
		       "scan; Linux 6.1, and every kernel once the flag is set, "
		       "miss them\n", t.wrong);
	free(root);
}

DEBUGFS_CMD(do_htree_dump)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct walker w;
	struct dir_view v;
	ext2_ino_t ino;
	errcode_t retval;
	int exact;

	if (!args)
		return;
	if (parse_exact_args(argc, args, 1, &exact))
		goto usage;
	if (path_arg(s, argv[0], args[optind],
		     PATH_FOLLOW | (exact ? PATH_EXACT : 0), &ino))
		goto out;
	retval = dir_view_open(s, ino, &v);
	if (retval) {
		cmd_error(s, argv[0], retval, "while reading inode %u", ino);
		goto out;
	}
	if (!v.dir->indexed) {
		cmd_error(s, argv[0], 0, "inode %u is not a hash-indexed "
			  "directory", ino);
		dir_view_close(&v);
		goto out;
	}
	memset(&w, 0, sizeof(w));
	w.s = s;
	w.v = &v;
	w.seen = calloc(v.dir->nblocks + 1, 1);
	if (w.seen) {
		fputs("# ", stdout);
		dir_view_describe(s, &v, stdout);
		dump(&w);
	}
	free(w.seen);
	free(w.nodes);
	free(w.ents);
	free(w.leaves);
	dir_view_close(&v);
	goto out;
usage:
	cmd_error(s, argv[0], 0, "usage: htree_dump [-e] PATH");
out:
	free(args);
}
