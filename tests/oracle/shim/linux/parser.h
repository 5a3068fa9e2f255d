#include "../kshim.h"
#include <ctype.h>

/*
 * lib/parser.c's match_token and match_int, as far as fs/unicode uses
 * them (utf8_parse_version, back in utf8-core.c in Linux 7.x): patterns
 * of literal characters and %d, numbers read as simple_strtol does with
 * base 0 (so "0x10" is 16). A pattern matches only the whole string.
 */
typedef struct {
	char *from;
	char *to;
} substring_t;

struct match_token {
	int token;
	const char *pattern;
};

static inline int kshim_match_one(char *s, const char *p, substring_t *args)
{
	while (*p) {
		if (*p != '%') {
			if (*s++ != *p++)
				return 0;
			continue;
		}
		if (p[1] != 'd')
			return 0;
		p += 2;
		args->from = s;
		strtol(s, &args->to, 0);
		if (args->to == s)
			return 0;
		s = args++->to;
	}
	return *s == '\0';
}

static inline int match_token(char *s, const struct match_token *table,
			      substring_t *args)
{
	for (; table->pattern; table++)
		if (kshim_match_one(s, table->pattern, args))
			break;
	return table->token;
}

static inline int match_int(substring_t *s, int *result)
{
	char buf[32], *end;
	size_t len = (size_t)(s->to - s->from);
	long val;

	if (len >= sizeof(buf))
		return -ERANGE;
	memcpy(buf, s->from, len);
	buf[len] = '\0';
	errno = 0;
	val = strtol(buf, &end, 0);
	if (end == buf)
		return -EINVAL;
	if (errno || val < INT32_MIN || val > INT32_MAX)
		return -ERANGE;
	*result = (int)val;
	return 0;
}
