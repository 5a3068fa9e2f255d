/* version.h: the e2fold version as the tools report it. */
#ifndef E2FOLD_VERSION_H
#define E2FOLD_VERSION_H

#include "unicode.h"

/* "PROG VERSION (libext2fs VERSION, Unicode VERSION)", in a static buffer. */
E2FOLD_API const char *e2fold_version_banner(const char *prog);

#endif
