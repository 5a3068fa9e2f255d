/*
 * newname.h: new names for entries that must give theirs up (a duplicate
 * under casefolding, or a name a strict filesystem rejects).
 *
 * A new name:
 *   - is valid UTF-8 (so strict filesystems accept it): each byte that is
 *     not part of a valid sequence becomes "%XX" (its hex value), which
 *     keeps the name readable and different names different;
 *   - keeps the extension: "~N" goes before the last '.', if that dot is
 *     not the first character and the extension is at most 16 bytes
 *     ("README.txt" -> "README~1.txt", "Straße" -> "Straße~1");
 *   - fits 255 bytes, shortening the stem at a code point boundary, never
 *     inside a character;
 *   - is unique under casefolding: N counts up from 1 until the caller's
 *     taken() says no existing or already chosen name has its key.
 */
#ifndef E2FOLD_NEWNAME_H
#define E2FOLD_NEWNAME_H

#include <ext2fs/ext2fs.h>

#include "cfname.h"

/* 1 if a name with the same key as name/len exists in the directory. */
typedef int (*e2fold_taken_fn)(void *arg, const unsigned char *name,
			       unsigned int len);

/*
 * Choose a new name for name/len into out (E2FOLD_NAME_MAX bytes) and
 * *ret_len. A name that only needed sanitizing keeps no number if that is
 * free. Returns 0, or EXT2_ET_TOO_MANY_REFS if no unique name was found in
 * 1,000 tries.
 */
errcode_t e2fold_unique_name(const unsigned char *name,
			     unsigned int len, e2fold_taken_fn taken,
			     void *arg, unsigned char *out,
			     unsigned int *ret_len);

/*
 * The name with every invalid byte replaced by "%XX", shortened at a code
 * point boundary to fit E2FOLD_NAME_MAX. out holds E2FOLD_NAME_MAX bytes.
 */
unsigned int e2fold_sanitize_name(const unsigned char *name,
				  unsigned int len,
				  unsigned char *out);

#endif /* E2FOLD_NEWNAME_H */
