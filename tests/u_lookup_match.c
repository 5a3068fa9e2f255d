/*
 * u_lookup_match: e2fold_lookup_match (lib/support/lookup.c) gives, for
 * every pair of a name looked up and an entry, the answer of the
 * kernel's ext4_match as lookup.c spells it out without its shortcut:
 * utf8_strncasecmp_folded against the folded name, and for an entry
 * that does not fold, its bytes against the folded name's (never in a
 * strict filesystem). The shortcut decides from an ASCII prefix alone;
 * the names put ASCII, capitals, marks, ignorables, invalid bytes and
 * non-ASCII letters at every place a prefix can end.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lookup.h"
#include "unicode.h"
#include "unit.h"

static const char *const stems[] = {
	"", "a", "A", "ab", "AB", "aB", "abc", "ABD", "readme", "README",
	"ReadMe.txt", "readme.TXT", "k", "K",
	"\xe2\x84\xaa",		/* KELVIN SIGN: folds to k */
	"\xc3\xa9", "\xc3\x89",	/* é É */
	"e\xcc\x81", "E\xcc\x81",	/* e/E + COMBINING ACUTE */
	"\xc3\x9f", "ss", "SS",	/* ß */
	"\xef\xac\x81", "fi", "FI",	/* ﬁ */
	"\xc4\xb0", "i\xcc\x87",	/* İ, i + COMBINING DOT ABOVE */
	"\xff", "a\xff", "A\xff",
};

static const char *const tails[] = {
	"", "x", "X", "\xe2\x80\x8d",	/* ZERO WIDTH JOINER: ignorable */
	"\xcc\x81", "\xff", "\xc3\xa9", ".JPG",
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

			nm->len = snprintf((char *)nm->b, sizeof(nm->b), "%s%s",
					   stems[i], tails[j]);
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
