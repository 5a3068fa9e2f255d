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
 * zero in a linear one (ext4_readdir). A longer ciphertext is given by
 * its first 149 bytes and the SHA-256 of the rest. A lookup decodes the
 * name and compares ciphertext bytes (the first 149 and the digest of
 * the rest, for a long one).
 */
#ifndef E2FOLD_NOKEY_H
#define E2FOLD_NOKEY_H

#include "dirread.h"

/* Ciphertext bytes a no-key name holds before it takes a digest. */
#define E2FUSE_NOKEY_BYTES 149

/* The longest form: 8 + 149 + 32 bytes in base64. */
#define E2FUSE_NOKEY_MAX (((8 + E2FUSE_NOKEY_BYTES + 32) * 4 + 2) / 3)

/* Every no-key form fits where a stored name fits. */
_Static_assert(E2FUSE_NOKEY_MAX <= EXT2_NAME_LEN, "no-key names fit NAME_MAX");

/* What a no-key name says of the ciphertext it stands for. */
struct e2fuse_nokey {
	unsigned char bytes[E2FUSE_NOKEY_BYTES];
	unsigned int len;	/* of bytes: the whole ciphertext if not long */
	int long_form;		/* bytes is a prefix; digest hashes the rest */
	unsigned char digest[32];
};

/*
 * The no-key form of entry e with directory hash hash and minor,
 * NUL-terminated, in out (E2FUSE_NOKEY_MAX + 1 bytes).
 */
void e2fuse_nokey_name(const struct e2fold_dirent *e, __u32 hash,
		       __u32 minor, char *out);

/* Decode a no-key name. Returns 0, or -1 if name is no such form. */
int e2fuse_nokey_decode(const char *name, struct e2fuse_nokey *ret);

/* Does entry e's ciphertext match the decoded no-key name? */
int e2fuse_nokey_match(const struct e2fuse_nokey *nk,
		       const struct e2fold_dirent *e);

#endif /* E2FOLD_NOKEY_H */
