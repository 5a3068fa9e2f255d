/*
 * utf8put.h: the test programs' UTF-8 encoder. put_utf8 writes code
 * point cp (at most U+10FFFF; surrogates are encoded like any other
 * value, which is what a test of invalid input wants) as 1 to 4 bytes at
 * out and returns how many it wrote. No NUL is added.
 */
#ifndef E2FOLD_UTF8PUT_H
#define E2FOLD_UTF8PUT_H

#include <stddef.h>
#include <stdint.h>

static inline size_t put_utf8(uint32_t cp, unsigned char *out)
{
	if (cp < 0x80) {
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = 0xC0 | cp >> 6;
		out[1] = 0x80 | (cp & 0x3F);
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = 0xE0 | cp >> 12;
		out[1] = 0x80 | ((cp >> 6) & 0x3F);
		out[2] = 0x80 | (cp & 0x3F);
		return 3;
	}
	out[0] = 0xF0 | cp >> 18;
	out[1] = 0x80 | ((cp >> 12) & 0x3F);
	out[2] = 0x80 | ((cp >> 6) & 0x3F);
	out[3] = 0x80 | (cp & 0x3F);
	return 4;
}

#endif /* E2FOLD_UTF8PUT_H */
