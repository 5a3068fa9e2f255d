/*
 * misread.c: the index nodes e2fsck 1.47 misreads, and showing them to
 * it in the layout it expects.
 *
 * In a directory that stores each name's hash in its entries (encrypted
 * and casefolded), Linux gives an interior htree node room for one entry
 * fewer than in other directories (lib/support/htree.h). e2fsck 1.47
 * (up to 1.47.4 at least) recognises an interior node only by the limit
 * of other directories; it takes the kernel's nodes for leaves, finds
 * their fake entry malformed and asks to "salvage" the block: answered
 * no, it stops the whole check; answered yes, it destroys a valid index.
 * Declining the problem code cannot help, so e2fold shows e2fsck those
 * nodes in its own layout (limit one higher, the checksum tail moved
 * after it, the checksum recomputed) wherever e2fsck runs:
 *   - to check (-n, and the verification after a repair), in a sparse
 *     copy of the metadata (e2image -r) that e2fsck reads instead of the
 *     device, so that -n writes nothing;
 *   - to repair, on the device itself, and only when that check found
 *     something e2fsck must fix; e2fold's pass 2 gives the nodes back
 *     their kernel layout right after e2fsck's run (PR_2_ENCRYPTED_NODE_LIMIT,
 *     which also catches a run interrupted in between).
 * The entries themselves never move: the two layouts differ in the limit
 * field and where the 8-byte tail sits, nothing else.
 */
#include "config.h"

#include <stdlib.h>

#include "array.h"
#include "dirread.h"
#include "dirwrite.h"
#include "htree.h"
#include "e2fsck.h"
#include "misread.h"

static errcode_t add(struct fsck_ctx *ctx, ext2_ino_t ino, blk64_t lblk)
{
	errcode_t retval = e2fold_array_reserve(&ctx->misread,
						&ctx->misread_cap,
						ctx->n_misread + 1,
						sizeof(*ctx->misread));

	if (retval)
		return retval;
	ctx->misread[ctx->n_misread].ino = ino;
	ctx->misread[ctx->n_misread].lblk = lblk;
	ctx->n_misread++;
	return 0;
}

errcode_t fsck_find_misread_nodes(struct fsck_ctx *ctx)
{
	unsigned int kernel = e2fold_dx_node_limit(ctx->fs, 1);
	errcode_t retval = 0;
	size_t i, j;

	ctx->n_misread = 0;
	for (i = 0; i < ctx->n_dirs && !retval; i++) {
		const struct scanned_dir *sd = &ctx->dirs[i];
		struct e2fold_dir *dir;

		if (sd->skip || !sd->encrypted || !sd->casefolded ||
		    !sd->indexed)
			continue;
		/* An unreadable index is pass 2's finding, not e2fsck's. */
		if (e2fold_dir_read_index(ctx->fs, sd->ino, &dir))
			continue;
		for (j = 0; j < dir->nnodes && !retval; j++)
			if (dir->nodes[j].limit == kernel)
				retval = add(ctx, sd->ino, dir->nodes[j].lblk);
		e2fold_dir_free(dir);
	}
	return retval;
}

errcode_t fsck_show_nodes_to_e2fsck(struct fsck_ctx *ctx, ext2_filsys fs)
{
	unsigned int limit = e2fold_dx_node_limit(fs, 0);
	size_t i;

	for (i = 0; i < ctx->n_misread; i++) {
		errcode_t retval = e2fold_dx_node_set_limit(fs,
				ctx->misread[i].ino, ctx->misread[i].lblk, limit);

		if (retval)
			return retval;
	}
	return 0;
}
