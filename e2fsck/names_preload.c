/*
 * names_preload.c: how e2fsck compares names, where e2fsck 1.47 gets it
 * wrong; part of the library e2fold-fsck preloads into every e2fsck it
 * runs (overlay_preload.c is the other part).
 *
 * In a casefolded directory e2fsck compares two names with
 * ext2fs_casefold_cmp(), also when the directory is encrypted and the
 * names are ciphertext. That fold stops at a NUL byte, as the kernel's
 * does, so two ciphertexts that agree up to a NUL byte are "equal" to
 * it whatever follows; a ciphertext that begins with a NUL byte equals
 * every other such one. When pass 3A rebuilds such a directory (it
 * holds a duplicate, a leaf without a checksum tail...) and finds two
 * neighbours equal, it makes a new name by changing the end of one and
 * tries again until no other name equals it. The end is after the NUL,
 * so no new name ever differs: e2fsck -n, or an e2fsck whose rename
 * e2fold declines (external.c), never finishes; e2fsck -y without
 * e2fold would drop a valid entry.
 *
 * A name that holds a NUL byte is never text (the kernel refuses one),
 * so it is ciphertext, which the kernel itself compares byte for byte
 * when it has no key. Such names are compared here byte for byte; every
 * other comparison is libext2fs's own. Checked by
 * tests/f_casefold_encrypted_twin_nul.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

struct ext2fs_nls_table;

typedef int casefold_cmp_fn(const struct ext2fs_nls_table *table,
			    const unsigned char *str1, size_t len1,
			    const unsigned char *str2, size_t len2);

int ext2fs_casefold_cmp(const struct ext2fs_nls_table *table,
			const unsigned char *str1, size_t len1,
			const unsigned char *str2, size_t len2);

int ext2fs_casefold_cmp(const struct ext2fs_nls_table *table,
			const unsigned char *str1, size_t len1,
			const unsigned char *str2, size_t len2)
{
	static casefold_cmp_fn *libext2fs_cmp;
	int diff;

	if (memchr(str1, 0, len1) || memchr(str2, 0, len2)) {
		diff = memcmp(str1, str2, len1 < len2 ? len1 : len2);
		return diff ? diff : (len1 > len2) - (len1 < len2);
	}
	if (!libext2fs_cmp)
		libext2fs_cmp = (casefold_cmp_fn *)dlsym(RTLD_NEXT,
							 "ext2fs_casefold_cmp");
	/* Not loaded into a program that has libext2fs: nothing is equal. */
	if (!libext2fs_cmp)
		return -1;
	return libext2fs_cmp(table, str1, len1, str2, len2);
}
