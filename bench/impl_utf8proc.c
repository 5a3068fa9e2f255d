/*
 * impl_utf8proc.c: utf8proc, asked for the nearest form it has to the
 * kernel's NFDiCF: canonical decomposition, full case folding, default
 * ignorables removed (its own Unicode version, not 12.1).
 *
 * utf8proc_map() would do the same and malloc the result; to time the
 * folding rather than the allocator, the benchmark calls what it calls,
 * utf8proc_decompose() into a caller's UTF-32 buffer and
 * utf8proc_reencode() back to UTF-8 in place. The comparison folds both
 * names so and compares the bytes.
 */
#include <string.h>

#include <utf8proc.h>

#include "bench.h"

#define FOLD_OPTIONS (UTF8PROC_DECOMPOSE | UTF8PROC_CASEFOLD | \
		      UTF8PROC_IGNORE | UTF8PROC_STABLE)

static int utf8proc_bench_init(void **ret_ctx)
{
	*ret_ctx = NULL;
	return 0;
}

/* Fold s into out (as UTF-8 at out->b); the length or -1. */
static int fold(const unsigned char *s, unsigned int len,
		union bench_out *out)
{
	utf8proc_ssize_t n;

	n = utf8proc_decompose(s, len, (utf8proc_int32_t *)out->cp,
			       BENCH_OUT_MAX, FOLD_OPTIONS);
	if (n < 0 || n > BENCH_OUT_MAX)
		return -1;
	n = utf8proc_reencode((utf8proc_int32_t *)out->cp, n, FOLD_OPTIONS);
	return n < 0 ? -1 : (int)n;
}

static int utf8proc_casefold(void *ctx, const struct bench_name *n,
			     union bench_out *out)
{
	return fold(n->s, n->len, out);
}

static int utf8proc_casecmp(void *ctx, const unsigned char *a,
			    unsigned int alen, const unsigned char *b,
			    unsigned int blen)
{
	union bench_out fa, fb;
	int la = fold(a, alen, &fa), lb = fold(b, blen, &fb);

	if (la < 0 || lb < 0)
		return -1;
	return la != lb || memcmp(fa.b, fb.b, la);
}

const struct bench_impl bench_impl_utf8proc = {
	.name = "utf8proc",
	.casefold_what = "utf8proc_decompose(DECOMPOSE|CASEFOLD|IGNORE|STABLE)"
			 " + utf8proc_reencode()",
	.casecmp_what = "both folded as above, then length and memcmp()",
	.init = utf8proc_bench_init,
	.casefold = utf8proc_casefold,
	.casecmp = utf8proc_casecmp,
};
