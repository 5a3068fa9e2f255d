/*
 * impl_e2fold.c: the engine under test, through its public API with a
 * Unicode 12.1 map (the only version ext4 defines).
 */
#include <stdio.h>

#include "unicode.h"
#include "bench.h"

static int e2fold_init(void **ret_ctx)
{
	struct unicode_map *um = utf8_load("12.1.0");

	if (!um) {
		perror("bench: e2fold utf8_load(12.1.0)");
		return -1;
	}
	*ret_ctx = um;
	return 0;
}

static int e2fold_casefold(void *ctx, const struct bench_name *n,
			   union bench_out *out)
{
	struct qstr q = { n->s, n->len };

	return utf8_casefold(ctx, &q, out->b, sizeof(out->b));
}

static int e2fold_casecmp(void *ctx, const unsigned char *a,
			  unsigned int alen, const unsigned char *b,
			  unsigned int blen)
{
	struct qstr qa = { a, alen }, qb = { b, blen };

	return utf8_strncasecmp(ctx, &qa, &qb);
}

const struct bench_impl bench_impl_e2fold = {
	.name = "e2fold",
	.casefold_what = "utf8_casefold()",
	.casecmp_what = "utf8_strncasecmp()",
	.init = e2fold_init,
	.casefold = e2fold_casefold,
	.casecmp = e2fold_casecmp,
	.exact = 1,
};
