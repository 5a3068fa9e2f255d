/* sha256.h: SHA-256 (FIPS 180-4) of a short buffer, for no-key names. */
#ifndef E2FOLD_SHA256_H
#define E2FOLD_SHA256_H

#include <stddef.h>

#define E2FUSE_SHA256_SIZE 32

/* The SHA-256 digest of len bytes at data, into out. */
void e2fuse_sha256(const unsigned char *data, size_t len,
		   unsigned char out[E2FUSE_SHA256_SIZE]);

#endif /* E2FOLD_SHA256_H */
