/* tmpdir.c: scratch directories under TMPDIR (tmpdir.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "tmpdir.h"

int e2fold_make_temp_dir(char *buf, size_t size, const char *stem)
{
	const char *base = getenv("TMPDIR");
	int n;

	if (!base || !*base)
		base = "/tmp";
	n = snprintf(buf, size, "%s/%s.XXXXXX", base, stem);
	if (n < 0 || (size_t)n >= size)
		return ENAMETOOLONG;
	return mkdtemp(buf) ? 0 : errno;
}
