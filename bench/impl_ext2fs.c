/*
 * impl_ext2fs.c: the Unicode engine inside the system libext2fs (1.47:
 * a copy of an older kernel fs/unicode), reached through its public
 * API only.
 *
 * struct ext2fs_nls_table is opaque in <ext2fs/ext2fs.h>, so its casefold
 * operation cannot be called directly. ext2fs_dirhash2() calls it before
 * hashing when given the table and EXT4_CASEFOLD_FL; so the casefold
 * column is the time of that call minus the time of ext2fs_dirhash() of
 * the already folded name, the same hash over the same bytes. Both
 * write the hash to out, so equal outputs also show that libext2fs
 * folds as e2fold does. The comparison is ext2fs_casefold_cmp().
 */
#include <stdio.h>
#include <string.h>

#include <ext2fs/ext2_fs.h>
#include <ext2fs/ext2fs.h>

#include "bench.h"

/* A fixed seed, so that the hash never takes the default-seed path. */
static const __u32 seed[4] = {
	0x8f1bbcdc, 0x6ed9eba1, 0x5a827999, 0x13579bdf,
};

static int ext2fs_init(void **ret_ctx)
{
	const struct ext2fs_nls_table *t =
		ext2fs_load_nls_table(EXT4_ENC_UTF8_12_1);

	if (!t) {
		fprintf(stderr, "bench: ext2fs_load_nls_table(UTF8_12_1) failed\n");
		return -1;
	}
	*ret_ctx = (void *)t;
	return 0;
}

static int put_hash(errcode_t retval, ext2_dirhash_t hash,
		    ext2_dirhash_t minor, union bench_out *out)
{
	if (retval)
		return -1;
	memcpy(out->b, &hash, sizeof(hash));
	memcpy(out->b + sizeof(hash), &minor, sizeof(minor));
	return sizeof(hash) + sizeof(minor);
}

static int ext2fs_fold_and_hash(void *ctx, const struct bench_name *n,
				union bench_out *out)
{
	ext2_dirhash_t hash, minor;
	errcode_t retval;

	retval = ext2fs_dirhash2(EXT2_HASH_HALF_MD4, (const char *)n->s,
				 n->len, ctx, EXT4_CASEFOLD_FL, seed, &hash,
				 &minor);
	return put_hash(retval, hash, minor, out);
}

static int ext2fs_hash_folded(void *ctx, const struct bench_name *n,
			      union bench_out *out)
{
	ext2_dirhash_t hash, minor;
	errcode_t retval;

	retval = ext2fs_dirhash(EXT2_HASH_HALF_MD4, (const char *)n->folded,
				n->folded_len, seed, &hash, &minor);
	return put_hash(retval, hash, minor, out);
}

static int ext2fs_casecmp(void *ctx, const unsigned char *a,
			  unsigned int alen, const unsigned char *b,
			  unsigned int blen)
{
	return ext2fs_casefold_cmp(ctx, a, alen, b, blen);
}

const struct bench_impl bench_impl_ext2fs = {
	.name = "libext2fs",
	.casefold_what = "ext2fs_dirhash2(half_md4, table, EXT4_CASEFOLD_FL) "
			 "minus ext2fs_dirhash(half_md4) of the folded name",
	.casecmp_what = "ext2fs_casefold_cmp()",
	.init = ext2fs_init,
	.casefold = ext2fs_fold_and_hash,
	.casefold_base = ext2fs_hash_folded,
	.casecmp = ext2fs_casecmp,
};
