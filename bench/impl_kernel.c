/*
 * impl_kernel.c: the Linux kernel's fs/unicode (Debian's linux-source,
 * built by tests/oracle/build-kernel-oracle.sh with -O2), through the
 * oracle's plain-typed wrappers: one extra call per operation.
 */
#include "kernel_oracle.h"
#include "bench.h"

static int kernel_init(void **ret_ctx)
{
	*ret_ctx = ko_load();	/* aborts if the map cannot be loaded */
	return 0;
}

static int kernel_casefold(void *ctx, const struct bench_name *n,
			   union bench_out *out)
{
	return ko_casefold(ctx, n->s, n->len, out->b, sizeof(out->b));
}

static int kernel_casecmp(void *ctx, const unsigned char *a,
			  unsigned int alen, const unsigned char *b,
			  unsigned int blen)
{
	return ko_strncasecmp(ctx, a, alen, b, blen);
}

const struct bench_impl bench_impl_kernel = {
	.name = "kernel",
	.casefold_what = "utf8_casefold() of Linux fs/unicode",
	.casecmp_what = "utf8_strncasecmp() of Linux fs/unicode",
	.init = kernel_init,
	.casefold = kernel_casefold,
	.casecmp = kernel_casecmp,
	.exact = 1,
};
