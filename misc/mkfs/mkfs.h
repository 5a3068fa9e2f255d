/*
 * mkfs.h: what every part of e2fold-mkfs shares: the program name used in
 * messages, the exit statuses and the entry point.
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

/*
 * The whole program (run.c): parse argv, make the filesystem, return the
 * exit status. It frees what it allocated and may be called again in the
 * same process (the fuzzer does); -V and --help still exit.
 */
int mkfs_main(int argc, char **argv);

#endif /* MKFS_MKFS_H */
