/*
 * hex.h: hexadecimal digits, as the tools read names, contents, UUIDs and
 * hash seeds given in hex.
 *
 * Header-only (static inline, libc-free even) so that tests/kernel/kcf.c,
 * which tests/kernel/vm.sh builds on its own as a static program for the
 * test VM without libsupport, includes the same code as the tools.
 */
#ifndef E2FOLD_HEX_H
#define E2FOLD_HEX_H

/* The value (0-15) of hex digit c, in either case; -1 if c is not one. */
static inline int e2fold_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The byte (0-255) that the two hex digits at text spell; -1 if either is
 * not a hex digit. text[1] is read only when text[0] is a digit, so text
 * may be a NUL-terminated string of any length.
 */
static inline int e2fold_hex_byte(const char *text)
{
	int hi = e2fold_hex_digit((unsigned char)text[0]);
	int lo;

	if (hi < 0)
		return -1;
	lo = e2fold_hex_digit((unsigned char)text[1]);
	return lo < 0 ? -1 : hi << 4 | lo;
}

#endif /* E2FOLD_HEX_H */
