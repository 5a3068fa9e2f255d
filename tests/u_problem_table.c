/*
 * u_problem_table: the fsck problem table is sorted by code, codes are
 * unique and well formed (0xPPSNNN with pass 0-3), and every message ends
 * with a newline and uses only known expansions.
 */
#include "config.h"

#include <string.h>

#include "problem.h"
#include "unit.h"

int main(void)
{
	size_t n, i;
	const struct problem *t = problem_table(&n);

	CHECK(n > 10);
	for (i = 0; i < n; i++) {
		const char *m = t[i].message, *p;

		CHECK_INT((t[i].code >> 20) & 0xf, 0);
		CHECK((t[i].code >> 16) <= 3);
		if (i)
			CHECK(t[i - 1].code < t[i].code);
		CHECK(m[strlen(m) - 1] == '\n');
		for (p = strchr(m, '%'); p; p = strchr(p + 2, '%'))
			CHECK(p[1] && strchr("dpijnPRbcChHxrskKmNMQ", p[1]));
	}
	return unit_done("u_problem_table");
}
