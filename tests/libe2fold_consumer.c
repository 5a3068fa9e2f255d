/*
 * A program that knows libe2fold only through its installed header and
 * pkg-config (tests/u_exports.sh builds it against a DESTDIR install).
 * It checks a few answers the kernel gives under Unicode 12.1.
 */
#include <stdio.h>
#include <string.h>

#include <e2fold/unicode.h>

static int failures;

static void expect(int cond, const char *what)
{
	if (!cond) {
		printf("FAIL: %s\n", what);
		failures++;
	}
}

int main(void)
{
	struct unicode_map *um = utf8_load("12.1.0");
	/* "Straße" and "STRASSE" fold to the same bytes. */
	struct qstr a = { (const unsigned char *)"Stra\xc3\x9f" "e", 7 };
	struct qstr b = { (const unsigned char *)"STRASSE", 7 };
	struct qstr bad = { (const unsigned char *)"\xff", 1 };
	unsigned char folded[64];
	int n;

	if (!um) {
		printf("FAIL: utf8_load(\"12.1.0\")\n");
		return 1;
	}
	n = utf8_casefold(um, &a, folded, sizeof(folded));
	expect(n == 7 && memcmp(folded, "strasse", 7) == 0,
	       "utf8_casefold(Stra\\u00dfe) is \"strasse\"");
	expect(utf8_strncasecmp(um, &a, &b) == 0,
	       "Stra\\u00dfe and STRASSE are equal under casefolding");
	expect(utf8_strncmp(um, &a, &b) == 1,
	       "Stra\\u00dfe and STRASSE differ under normalization");
	expect(utf8_validate(um, &bad) == -1, "0xFF is invalid");
	expect(utf8version_latest() != NULL, "utf8version_latest");
	utf8_unload(um);
	if (failures)
		return 1;
	printf("consumer: 5 checks passed against the installed libe2fold\n");
	return 0;
}
