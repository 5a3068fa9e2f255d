/* plural.h: the word that agrees with a count, for every tool's messages. */
#ifndef E2FOLD_PLURAL_H
#define E2FOLD_PLURAL_H

/* one for n == 1, else many: "1 directory", "2 directories". */
static inline const char *e2fold_plural(unsigned long long n, const char *one,
					const char *many)
{
	return n == 1 ? one : many;
}

#endif /* E2FOLD_PLURAL_H */
