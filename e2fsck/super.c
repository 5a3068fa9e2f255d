/*
 * super.c: pass 0, the superblock's casefold fields: the feature, the
 * encoding (s_encoding) and its flags (s_encoding_flags).
 *
 * An unknown encoding is the delicate case: the kernel refuses to mount,
 * and guessing wrong would make every later repair hash names wrongly.
 * utf8-12.1 is the only encoding ext4 defines, so it is restored only when
 * the hash trees of the casefolded directories show that their entries
 * were placed by utf8-12.1 hashes (or when no hash tree exists to say
 * otherwise); if they were not, nothing is changed.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dirread.h"
#include "e2fsck.h"
#include "encoding.h"
#include "problem.h"
#include "fsck_report.h"

/* Entries whose utf8-12.1 hash falls in their leaf's range, and all. */
struct evidence {
	unsigned long placed, total;
};

static void weigh_dir(struct fsck_ctx *ctx, const struct unicode_map *um,
		      ext2_ino_t ino, struct evidence *ev)
{
	ext2_filsys fs = ctx->fs;
	struct e2fold_dir *dir;
	int version;
	size_t i;

	if (e2fold_dir_read(fs, ino, &dir))
		return;
	if (dir->dx_problem || !dir->nleaves) {
		e2fold_dir_free(dir);
		return;
	}
	version = e2fold_effective_hash_version(fs, dir->dx_hash_version);
	for (i = 0; i < dir->nents; i++) {
		const struct e2fold_dirent *e = &dir->ents[i];
		const struct e2fold_dx_leaf *leaf = e2fold_dir_leaf_at(dir, e->lblk);
		ext2_dirhash_t hash;

		if (!leaf || e2fold_casefold_dirhash(um, version, e->name,
						     e->name_len,
						     fs->super->s_hash_seed,
						     &hash, NULL))
			continue;
		ev->total++;
		if (hash >= leaf->lo && hash < leaf->hi)
			ev->placed++;
	}
	e2fold_dir_free(dir);
}

/* Do the casefolded directories' hash trees say utf8-12.1? */
static int utf8_12_1_explains(struct fsck_ctx *ctx, struct evidence *ev)
{
	struct unicode_map *um = utf8_load("12.1.0");
	size_t i;

	memset(ev, 0, sizeof(*ev));
	if (!um)
		return 0;
	for (i = 0; i < ctx->n_dirs; i++)
		if (ctx->dirs[i].casefolded && ctx->dirs[i].indexed &&
		    !ctx->dirs[i].encrypted)
			weigh_dir(ctx, um, ctx->dirs[i].ino, ev);
	utf8_unload(um);
	/* A few misplaced entries are damage; most must agree. */
	return ev->total == 0 || ev->placed * 100 >= ev->total * 95;
}

/*
 * libext2fs opens a filesystem to write its primary superblock only; a
 * field fixed here must reach the backups too, or a later recovery from
 * a backup (e2fsck -b) would bring the damage back.
 */
static void set_dirty(struct fsck_ctx *ctx)
{
	ctx->fs->flags &= ~EXT2_FLAG_MASTER_SB_ONLY;
	ext2fs_mark_super_dirty(ctx->fs);
	ctx->changed = 1;
}

/*
 * Pass 0 runs twice around e2fsck (unix.c); the second run must not ask
 * again what the first asked: the answer stands, said once.
 */
static int ask_once(struct fsck_ctx *ctx, int code,
		    struct problem_context *pctx)
{
	unsigned int bit = 1u << (code & 0x1f);

	if (ctx->pass0_asked & bit)
		return !!(ctx->pass0_yes & bit);
	ctx->pass0_asked |= bit;
	if (!fix_problem(ctx, code, pctx))
		return 0;
	ctx->pass0_yes |= bit;
	return 1;
}

/*
 * The feature is off: the fields must be empty, or the feature restored.
 * Restoring and clearing are two answers to one problem: once the user
 * declined to set the feature, clearing the encoding is not offered too.
 */
static void check_without_feature(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	struct problem_context pctx = { 0 };

	if (ctx->n_cf_dirs && sb->s_encoding == E2FOLD_ENC_UTF8_12_1) {
		pctx.num = ctx->n_cf_dirs;
		if (ask_once(ctx, PR_0_CASEFOLD_FEATURE_MISSING, &pctx)) {
			ext2fs_set_feature_casefold(sb);
			report_flag(ctx->report, ctx, "set_casefold_feature", 0, 0, 1);
			set_dirty(ctx);
			return;
		}
		ctx->feature_missing = 1;
		return;
	}
	if (sb->s_encoding || sb->s_encoding_flags) {
		pctx.num = sb->s_encoding;
		pctx.num2 = sb->s_encoding_flags;
		if (ask_once(ctx, PR_0_ENCODING_WITHOUT_FEATURE, &pctx)) {
			report_flag(ctx->report, ctx, "clear_encoding", 0,
				    sb->s_encoding, 0);
			sb->s_encoding = 0;
			sb->s_encoding_flags = 0;
			set_dirty(ctx);
		}
	}
}

/* An encoding nobody defines: restore utf8-12.1 if the data agrees. */
static void check_unknown_encoding(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	struct problem_context pctx = { 0 };
	struct evidence ev;
	char why[96];

	pctx.num = sb->s_encoding;
	if (utf8_12_1_explains(ctx, &ev)) {
		pctx.num2 = ev.total;
		if (ask_once(ctx, PR_0_ENCODING_RESTORE, &pctx)) {
			report_flag(ctx->report, ctx, "restore_encoding", 0,
				    sb->s_encoding, E2FOLD_ENC_UTF8_12_1);
			sb->s_encoding = E2FOLD_ENC_UTF8_12_1;
			set_dirty(ctx);
		} else {
			ctx->e2fsck_needs_encoding = 1;
		}
		return;
	}
	snprintf(why, sizeof(why), "%lu of %lu entries are where utf8-12.1 "
		 "hashes would put them", ev.placed, ev.total);
	pctx.str = why;
	fix_problem(ctx, PR_0_ENCODING_UNEXPLAINED, &pctx);
}

errcode_t fsck_pass0(struct fsck_ctx *ctx)
{
	struct ext2_super_block *sb = ctx->fs->super;
	struct problem_context pctx = { 0 };
	const struct e2fold_encoding *enc;

	/* Pass 0 runs again after e2fsck: forget the first run's map. */
	utf8_unload(ctx->um);
	ctx->um = NULL;
	if (!ext2fs_has_feature_casefold(sb)) {
		check_without_feature(ctx);
		if (!ext2fs_has_feature_casefold(sb))
			return 0;
	}
	if (!e2fold_encoding_by_magic(sb->s_encoding)) {
		check_unknown_encoding(ctx);
		if (ctx->aborted)
			return 0;
	}
	if (sb->s_encoding_flags & ~E2FOLD_ENC_KNOWN_FLAGS) {
		pctx.num = sb->s_encoding_flags & ~E2FOLD_ENC_KNOWN_FLAGS;
		if (ask_once(ctx, PR_0_ENCODING_FLAGS_UNKNOWN, &pctx)) {
			report_flag(ctx->report, ctx, "clear_encoding_flags", 0,
				    sb->s_encoding_flags,
				    sb->s_encoding_flags & E2FOLD_ENC_KNOWN_FLAGS);
			sb->s_encoding_flags &= E2FOLD_ENC_KNOWN_FLAGS;
			set_dirty(ctx);
		}
	}
	enc = e2fold_encoding_by_magic(sb->s_encoding);
	if (!enc)
		return 0;	/* declined: casefolded names cannot be checked */
	ctx->um = e2fold_load_encoding(enc);
	if (!ctx->um)
		return EXT2_ET_NO_MEMORY;
	ctx->strict = !!(sb->s_encoding_flags & E2FOLD_ENC_STRICT_FL);
	ctx->no_fallback = !!(sb->s_encoding_flags &
			      E2FOLD_ENC_NO_COMPAT_FALLBACK_FL);
	return 0;
}
