/*
 * mkfs.h: what every part of e2fold-mkfs shares: the program name used in
 * messages and the exit statuses.
 *
 * Exit statuses follow mke2fs: 0 the filesystem was made (or, with -n,
 * would be made), 1 anything else: a usage error, a refusal, a problem
 * found in the source, an I/O error.
 */
#ifndef MKFS_MKFS_H
#define MKFS_MKFS_H

#define MKFS_EXIT_OK	0
#define MKFS_EXIT_ERROR	1

extern const char *mkfs_prog;

#endif /* MKFS_MKFS_H */
