/*
 * paxnames.h: the exact bytes of the names in a pax archive's records.
 *
 * libarchive converts the UTF-8 "path" and "linkpath" records of a pax
 * archive to the locale's character set, normalizing them to NFC on the
 * way (3.6; in the C locale iconv drops some code points instead), and
 * keeps no copy of the original bytes. But NFC and NFD spellings are two
 * names to a plain directory, and the image must hold the name the
 * archive holds. So paxnames.c walks the archive's tar headers itself
 * (libarchive's raw format still does any decompression), only to collect
 * those records, numbered as libarchive numbers its entries.
 */
#ifndef MKFS_PAXNAMES_H
#define MKFS_PAXNAMES_H

#include <stddef.h>

#include <ext2fs/ext2fs.h>

struct mkfs_paxname {
	size_t entry;			/* libarchive's entry number */
	char *path;			/* NUL-terminated, or NULL */
	char *link;			/* NUL-terminated, or NULL */
};

struct mkfs_paxnames {
	struct mkfs_paxname *names;	/* by increasing entry */
	size_t n, cap;
};

/*
 * Collect the names of the pax records of archive path (none if it is not
 * a tar archive). Prints the reason and returns non-zero if the archive
 * is tar but cannot be walked.
 */
errcode_t mkfs_pax_names_read(const char *path, struct mkfs_paxnames *out);

/* The names entry got from pax records, or NULL. */
const struct mkfs_paxname *mkfs_pax_names_of(const struct mkfs_paxnames *p,
					     size_t entry);

void mkfs_pax_names_free(struct mkfs_paxnames *p);

#endif /* MKFS_PAXNAMES_H */
