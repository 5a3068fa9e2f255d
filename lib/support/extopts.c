/* extopts.c: -E lists, encoding flags and collisions, as every tool reads them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoding.h"
#include "extopts.h"

void e2fold_note_spelling(const char *prog, const char *old, const char *now)
{
	fprintf(stderr, "%s: note: '%s' is spelled '%s' now; the old "
		"spelling still works\n", prog, old, now);
}

/* A bare item that is an encoding flag list on its own ("no_compat_fallback"). */
static int is_flag_item(const char *item)
{
	__u16 unused;
	char *bad = NULL;
	int ret;

	if (strchr(item, '=') || !strcmp(item, "none"))
		return 0;
	ret = !e2fold_parse_encoding_flags(item, &unused, NULL, &bad);
	free(bad);
	return ret;
}

errcode_t e2fold_extopts_split(const char *prog, const char *list,
			       struct e2fold_extopts *ret)
{
	size_t len = strlen(list), n = 0;
	char *buf, *tok, *save = NULL, *out;
	struct e2fold_extopt *opts, *flags = NULL;

	memset(ret, 0, sizeof(*ret));
	/* room for the items, then their copies joined with '-' */
	buf = malloc(2 * len + 2);
	opts = calloc(len / 2 + 2, sizeof(*opts));
	if (!buf || !opts) {
		free(buf);
		free(opts);
		return EXT2_ET_NO_MEMORY;
	}
	memcpy(buf, list, len + 1);
	out = buf + len + 1;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (flags && is_flag_item(tok)) {
			char old[256], now[256];

			snprintf(old, sizeof(old), "encoding_flags=%s,%s",
				 flags->value, tok);
			/* flags->value is the last string written in out */
			out[-1] = '-';
			strcpy(out, tok);
			out += strlen(tok) + 1;
			snprintf(now, sizeof(now), "encoding_flags=%s",
				 flags->value);
			e2fold_note_spelling(prog, old, now);
			continue;
		}
		flags = NULL;
		opts[n].key = tok;
		if (eq) {
			*eq = '\0';
			strcpy(out, eq + 1);
			opts[n].value = out;
			out += strlen(out) + 1;
			if (!strcmp(tok, "encoding_flags"))
				flags = &opts[n];
		}
		n++;
	}
	ret->opts = opts;
	ret->n = n;
	ret->buf = buf;
	return 0;
}

void e2fold_extopts_free(struct e2fold_extopts *opts)
{
	free(opts->opts);
	free(opts->buf);
	memset(opts, 0, sizeof(*opts));
}

char *e2fold_encoding_flags_option(__u16 flags, char *buf, size_t size)
{
	char *p;

	if (!flags) {
		snprintf(buf, size, "none");
		return buf;
	}
	e2fold_format_encoding_flags(flags, buf, size);
	for (p = buf; *p; p++)
		if (*p == ',')
			*p = '-';
	return buf;
}

int e2fold_encoding_flags_arg(const char *prog, const char *value,
			      __u16 *ret_flags, __u16 *ret_cleared)
{
	char *bad = NULL, now[128], old[256];

	if (!*value) {
		e2fold_note_spelling(prog, "encoding_flags=",
				     "encoding_flags=none");
		*ret_flags = 0;
		if (ret_cleared)
			*ret_cleared = E2FOLD_ENC_KNOWN_FLAGS;
		return 0;
	}
	if (e2fold_parse_encoding_flags(value, ret_flags, ret_cleared, &bad)) {
		fprintf(stderr, "%s: unknown encoding flag '%s' in '%s' (known: "
			"strict, no_compat_fallback (or hashonly), joined with "
			"'-'; 'no' before one clears it; or none)\n", prog,
			bad ? bad : "", value);
		free(bad);
		return -1;
	}
	if (strpbrk(value, ",+")) {
		snprintf(old, sizeof(old), "encoding_flags=%s", value);
		snprintf(now, sizeof(now), "encoding_flags=%s", value);
		for (char *p = now; *p; p++)
			if (*p == ',' || *p == '+')
				*p = '-';
		e2fold_note_spelling(prog, old, now);
	}
	return 0;
}

int e2fold_collisions_arg(const char *prog, const char *value,
			  enum e2fold_collisions *ret)
{
	if (!strcmp(value, "stop")) {
		*ret = E2FOLD_COLLISIONS_STOP;
	} else if (!strcmp(value, "rename")) {
		*ret = E2FOLD_COLLISIONS_RENAME;
	} else if (!strcmp(value, "abort")) {
		e2fold_note_spelling(prog, "collisions=abort", "collisions=stop");
		*ret = E2FOLD_COLLISIONS_STOP;
	} else {
		fprintf(stderr, "%s: invalid collisions '%s' (want stop or "
			"rename)\n", prog, value);
		return -1;
	}
	return 0;
}

__u16 e2fold_warn_dropped_flags(const char *prog, __u16 have, __u16 want,
				__u16 cleared)
{
	__u16 dropped = have & ~want & ~cleared & E2FOLD_ENC_KNOWN_FLAGS;
	char lost[128], keep[128];

	if (!dropped)
		return 0;
	e2fold_format_encoding_flags(dropped, lost, sizeof(lost));
	e2fold_encoding_flags_option(want | dropped, keep, sizeof(keep));
	fprintf(stderr, "%s: warning: this clears %s, which the filesystem "
		"has; to keep it, say -E encoding_flags=%s (to clear it, "
		"say so: no%s)\n", prog, lost, keep, lost);
	return dropped;
}
