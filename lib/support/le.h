/*
 * le.h: little-endian fields read and written byte by byte, as ext4
 * stores them (directory blocks, the htree index), at any alignment.
 *
 * Header-only: each is a few instructions, used in loops over blocks.
 */
#ifndef E2FOLD_LE_H
#define E2FOLD_LE_H

#include <ext2fs/ext2fs.h>

static inline __u16 e2fold_le16_at(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static inline __u32 e2fold_le32_at(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (__u32)p[3] << 24;
}

static inline void e2fold_put_le16(unsigned char *p, __u16 v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static inline void e2fold_put_le32(unsigned char *p, __u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

#endif /* E2FOLD_LE_H */
