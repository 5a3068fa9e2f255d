/*
 * nokey.h: the names of an encrypted directory without its key.
 *
 * Entries of an encrypted directory hold ciphertext. Without the key the
 * kernel lists each in its no-key form: base64url without padding (the
 * alphabet A-Z a-z 0-9 - _) of eight bytes of directory hash (two
 * native-endian u32 words, hash and minor hash) followed by the
 * ciphertext, for ciphertexts up to 149 bytes. The hash is the one
 * stored after the name in a casefolded encrypted directory, the htree
 * hash of the ciphertext in another indexed one (ext4_dx_readdir), and
 * zero in a linear one (ext4_readdir). For longer ones the kernel keeps the
 * first 149 bytes and a SHA-256 of the rest; e2fold-fuse instead encodes
 * the whole ciphertext, a form the kernel does not produce (doc/fuse.md).
 * A lookup decodes the name and compares ciphertext bytes.
 */
#ifndef E2FOLD_NOKEY_H
#define E2FOLD_NOKEY_H

#include "dirread.h"

/* The longest form: 8 + 255 bytes in base64. */
#define E2FUSE_NOKEY_MAX (((8 + 255) * 4 + 2) / 3)

/*
 * The no-key form of entry e of directory d, NUL-terminated, in out
 * (E2FUSE_NOKEY_MAX + 1 bytes).
 */
void e2fuse_nokey_name(ext2_filsys fs, const struct e2fold_dir *d,
		       const struct e2fold_dirent *e, char *out);

/*
 * The ciphertext a no-key name stands for, into out (255 bytes); its
 * length in *ret_len. Returns 0, or -1 if name is no such form.
 */
int e2fuse_nokey_decode(const char *name, unsigned char *out,
			unsigned int *ret_len);

#endif /* E2FOLD_NOKEY_H */
