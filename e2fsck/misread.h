/*
 * misread.h: index nodes of encrypted casefolded directories, which
 * e2fsck 1.47 misreads (see misread.c).
 */
#ifndef E2FOLD_MISREAD_H
#define E2FOLD_MISREAD_H

#include "e2fsck.h"

/* One interior node in Linux's layout, which e2fsck cannot read. */
struct misread_node {
	ext2_ino_t ino;
	blk64_t lblk;
};

/* Fill ctx->misread from the open filesystem (after the scan). */
errcode_t fsck_find_misread_nodes(struct fsck_ctx *ctx);

/*
 * Rewrite those nodes in fs (the device, or a copy of its metadata) in
 * e2fsck's layout; pass 2 gives them back Linux's.
 */
errcode_t fsck_show_nodes_to_e2fsck(struct fsck_ctx *ctx, ext2_filsys fs);

#endif /* E2FOLD_MISREAD_H */
