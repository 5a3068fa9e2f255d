/* version.h: the e2fold version as the tools report it. */
#ifndef E2FOLD_VERSION_H
#define E2FOLD_VERSION_H

/*
 * "PROG VERSION (libext2fs VERSION, Unicode VERSION; filesystem encoding
 * utf8-12.1, Unicode 12.1.0)", in a static buffer: the engine's newest
 * Unicode version and the one casefolded ext4 uses.
 */
const char *e2fold_version_banner(const char *prog);

#endif
