/*
 * impl_icu.c: ICU, with its own Unicode version. ICU works in UTF-16, so
 * every operation starts from the UTF-8 name as it is on disk:
 *   casefold: u_strFromUTF8, u_strFoldCase (full, default), NFD with
 *             unorm2_normalize, u_strToUTF8. Default ignorables are kept
 *             (ICU has no NFD form that drops them).
 *   compare:  u_strFromUTF8 of both, then unorm_compare with
 *             U_COMPARE_IGNORE_CASE: canonical equivalence plus full
 *             case folding, the same question the kernel answers.
 */
#include <stdio.h>

#include <unicode/unorm2.h>
#include <unicode/ustring.h>

#include "bench.h"

static int icu_init(void **ret_ctx)
{
	UErrorCode err = U_ZERO_ERROR;
	const UNormalizer2 *nfd = unorm2_getNFDInstance(&err);

	if (U_FAILURE(err)) {
		fprintf(stderr, "bench: ICU unorm2_getNFDInstance: %s\n",
			u_errorName(err));
		return -1;
	}
	*ret_ctx = (void *)nfd;
	return 0;
}

static int icu_casefold(void *ctx, const struct bench_name *n,
			union bench_out *out)
{
	UChar a[BENCH_OUT_MAX], b[BENCH_OUT_MAX];
	UErrorCode err = U_ZERO_ERROR;
	int32_t len;

	u_strFromUTF8(a, BENCH_OUT_MAX, &len, (const char *)n->s, n->len,
		      &err);
	len = u_strFoldCase(b, BENCH_OUT_MAX, a, len, U_FOLD_CASE_DEFAULT,
			    &err);
	len = unorm2_normalize(ctx, b, len, a, BENCH_OUT_MAX, &err);
	u_strToUTF8((char *)out->b, sizeof(out->b), &len, a, len, &err);
	return U_FAILURE(err) ? -1 : len;
}

static int icu_casecmp(void *ctx, const unsigned char *a, unsigned int alen,
		       const unsigned char *b, unsigned int blen)
{
	UChar ua[BENCH_OUT_MAX], ub[BENCH_OUT_MAX];
	UErrorCode err = U_ZERO_ERROR;
	int32_t la, lb, r;

	u_strFromUTF8(ua, BENCH_OUT_MAX, &la, (const char *)a, alen, &err);
	u_strFromUTF8(ub, BENCH_OUT_MAX, &lb, (const char *)b, blen, &err);
	r = unorm_compare(ua, la, ub, lb, U_COMPARE_IGNORE_CASE, &err);
	return U_FAILURE(err) ? -1 : r != 0;
}

const struct bench_impl bench_impl_icu = {
	.name = "ICU",
	.casefold_what = "u_strFromUTF8 + u_strFoldCase + NFD "
			 "unorm2_normalize + u_strToUTF8",
	.casecmp_what = "u_strFromUTF8 x2 + unorm_compare(U_COMPARE_IGNORE_CASE)",
	.init = icu_init,
	.casefold = icu_casefold,
	.casecmp = icu_casecmp,
};
