/*
 * array.h: arrays and buffers that grow as the tools collect what they
 * find. The capacity doubles, so that n appends cost O(n).
 */
#ifndef E2FOLD_ARRAY_H
#define E2FOLD_ARRAY_H

#include <stddef.h>

#include <ext2fs/ext2fs.h>

/*
 * Make room for need elements in the array whose pointer is at arrayp
 * (a pointer to it, of any element type; NULL while *cap is 0), which
 * has *cap elements of size bytes allocated: nothing to do if need <=
 * *cap (need 0 included); else the capacity doubles (from 16 elements)
 * until need fit. Returns 0, or EXT2_ET_NO_MEMORY with the array and
 * *cap as they were.
 */
errcode_t e2fold_array_reserve(void *arrayp, size_t *cap, size_t need,
			       size_t size);

#endif /* E2FOLD_ARRAY_H */
