/*
 * unit.h: assertions for unit tests. A failed check prints where it is,
 * what it compared and both values (bytes escaped), and the test keeps
 * going; unit_done() returns the exit status and prints a summary.
 */
#ifndef E2FOLD_UNIT_H
#define E2FOLD_UNIT_H

#include <stdio.h>
#include <string.h>

static unsigned long unit_checks, unit_failures;

static inline void unit_print_bytes(FILE *f, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	fputc('"', f);
	for (i = 0; i < n; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\')
			fputc(s[i], f);
		else
			fprintf(f, "\\x%02x", s[i]);
	}
	fputc('"', f);
}

static inline int unit_check_long(const char *file, int line,
				  const char *expr, long got, long want)
{
	unit_checks++;
	if (got == want)
		return 1;
	unit_failures++;
	fprintf(stderr, "%s:%d: FAIL %s: got %ld, want %ld\n", file, line,
		expr, got, want);
	return 0;
}

static inline int unit_check_bytes(const char *file, int line,
				   const char *expr, const void *got,
				   size_t got_len, const void *want,
				   size_t want_len)
{
	unit_checks++;
	if (got_len == want_len && !memcmp(got, want, got_len))
		return 1;
	unit_failures++;
	fprintf(stderr, "%s:%d: FAIL %s:\n  got  ", file, line, expr);
	unit_print_bytes(stderr, got, got_len);
	fprintf(stderr, "\n  want ");
	unit_print_bytes(stderr, want, want_len);
	fputc('\n', stderr);
	return 0;
}

#define CHECK_INT(got, want) \
	unit_check_long(__FILE__, __LINE__, #got, (long)(got), (long)(want))
#define CHECK(cond) CHECK_INT(!!(cond), 1)
#define CHECK_BYTES(got, got_len, want, want_len) \
	unit_check_bytes(__FILE__, __LINE__, #got, (got), (got_len), \
			 (want), (want_len))
#define CHECK_STR(got, want) \
	CHECK_BYTES((got), strlen(got), (want), strlen(want))

static inline int unit_done(const char *name)
{
	printf("%s: %lu checks, %lu failed\n", name, unit_checks,
	       unit_failures);
	return unit_failures ? 1 : 0;
}

#endif /* E2FOLD_UNIT_H */
