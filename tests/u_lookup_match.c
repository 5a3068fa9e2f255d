/*
 * u_lookup_match: e2fold_lookup_match (lib/support/lookup.c) gives, for
 * every pair of a name looked up and an entry, the answer of the
 * kernel's ext4_match as lookup.c spells it out without its shortcut:
 * utf8_strncasecmp_folded against the folded name, and for an entry
 * that does not fold, its bytes against the folded name's (never in a
 * strict filesystem). The shortcut decides from an ASCII prefix alone;
 * the names put ASCII, capitals, marks, ignorables, invalid bytes, NUL
 * bytes (where the fold ends) and non-ASCII letters at every place a
 * prefix can end.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lookup.h"
#include "unicode.h"
#include "unit.h"

/* Byte strings with their lengths: a NUL byte is part of some. */
struct bytes {
	const char *s;
	unsigned int len;
};
#define B(lit) { lit, sizeof(lit) - 1 }

static const struct bytes stems[] = {
	B(""), B("a"), B("A"), B("ab"), B("AB"), B("aB"), B("abc"), B("ABD"),
	B("readme"), B("README"), B("ReadMe.txt"), B("readme.TXT"), B("k"),
	B("K"),
	B("\xe2\x84\xaa"),		/* KELVIN SIGN: folds to k */
	B("\xc3\xa9"), B("\xc3\x89"),	/* é É */
	B("e\xcc\x81"), B("E\xcc\x81"),	/* e/E + COMBINING ACUTE */
	B("\xc3\x9f"), B("ss"), B("SS"),	/* ß */
	B("\xef\xac\x81"), B("fi"), B("FI"),	/* ﬁ */
	B("\xc4\xb0"), B("i\xcc\x87"),	/* İ, i + COMBINING DOT ABOVE */
	B("\xff"), B("a\xff"), B("A\xff"),
	B("READ\0"), B("a\0b"),		/* the fold stops at a NUL */
};

static const struct bytes tails[] = {
	B(""), B("x"), B("X"), B("\xe2\x80\x8d"), /* ZWJ: ignorable */
	B("\xcc\x81"), B("\xff"), B("\xc3\xa9"), B(".JPG"), B("\0"),
	B("\0\0"), B("\0x"),
};

#define NSTEMS (sizeof(stems) / sizeof(stems[0]))
#define NTAILS (sizeof(tails) / sizeof(tails[0]))

struct name {
	unsigned char b[64];
	unsigned int len;
};

/* What lookup.c's match gives without the ASCII shortcut. */
static enum e2fold_match_rule reference(const struct unicode_map *um,
					const struct e2fold_lookup *lk,
					const struct name *e)
{
	struct qstr cf = { lk->folded, lk->folded_len };
	struct qstr entry = { e->b, e->len };
	int r = utf8_strncasecmp_folded(um, &cf, &entry);

	if (r == 0)
		return E2FOLD_MATCH_FOLDED;
	if (r > 0 || lk->strict)
		return E2FOLD_MATCH_NONE;
	if (e->len == lk->folded_len && !memcmp(e->b, lk->folded, e->len))
		return E2FOLD_MATCH_RAW_FALLBACK;
	return E2FOLD_MATCH_NONE;
}

int main(void)
{
	struct unicode_map *um = utf8_load("12.1.0");
	struct name *names = calloc(NSTEMS * NTAILS, sizeof(*names));
	size_t n = 0, i, j;
	unsigned long matched = 0;
	int strict;

	if (!um || !names) {
		fprintf(stderr, "FATAL: no 12.1 map or no memory\n");
		return 99;
	}
	for (i = 0; i < NSTEMS; i++)
		for (j = 0; j < NTAILS; j++) {
			struct name *nm = &names[n];

			memcpy(nm->b, stems[i].s, stems[i].len);
			memcpy(nm->b + stems[i].len, tails[j].s, tails[j].len);
			nm->len = stems[i].len + tails[j].len;
			if (nm->len)
				n++;
		}
	for (strict = 0; strict < 2; strict++)
		for (i = 0; i < n; i++) {
			struct e2fold_lookup lk;
			struct qstr q = { names[i].b, names[i].len };
			int len;

			memset(&lk, 0, sizeof(lk));
			memcpy(lk.name, names[i].b, names[i].len);
			lk.name_len = names[i].len;
			lk.casefolded = 1;
			lk.strict = strict;
			len = utf8_casefold(um, &q, lk.folded, sizeof(lk.folded));
			if (len <= 0)
				continue;	/* the shortcut needs a folded name */
			lk.folded_ok = 1;
			lk.folded_len = len;
			for (j = 0; j < n; j++) {
				struct e2fold_dirent de;
				enum e2fold_match_rule want;

				memset(&de, 0, sizeof(de));
				de.name = names[j].b;
				de.name_len = names[j].len;
				want = reference(um, &lk, &names[j]);
				matched += want != E2FOLD_MATCH_NONE;
				if (!CHECK_INT(e2fold_lookup_match(um, &lk, &de),
					       want)) {
					unit_print_bytes(stderr, names[i].b,
							 names[i].len);
					fputs(" against ", stderr);
					unit_print_bytes(stderr, names[j].b,
							 names[j].len);
					fprintf(stderr, " (strict %d)\n", strict);
				}
			}
		}
	/* The pairs must hold matches, or the comparison proves little. */
	CHECK(matched > n);
	utf8_unload(um);
	free(names);
	return unit_done("u_lookup_match");
}
