/* version.h: the e2fold version as the tools report it. */
#ifndef E2FOLD_VERSION_H
#define E2FOLD_VERSION_H

/* "PROG VERSION (libext2fs VERSION, Unicode VERSION)", in a static buffer. */
const char *e2fold_version_banner(const char *prog);

#endif
