/*
 * kernel_oracle.h: the Linux kernel's fs/unicode (built from Debian's
 * linux-source at test time) behind plain C types, for differential
 * tests. form: 0 = NFDi, 1 = NFDiCF.
 */
#ifndef KERNEL_ORACLE_H
#define KERNEL_ORACLE_H

#include <stddef.h>

/* The kernel's map for version 12.1.0; aborts if it cannot be loaded. */
void *ko_load(void);

/*
 * The kernel's map for an older version its table holds (every age in
 * its utf8agetab, 1.1.0 to 12.1.0), or NULL.
 */
void *ko_load_version(unsigned int maj, unsigned int min, unsigned int rev);
void ko_unload(void *um);

int ko_validate(void *um, const unsigned char *s, unsigned int len);
int ko_normalize(void *um, const unsigned char *s, unsigned int len,
		 unsigned char *dest, size_t dlen);
int ko_casefold(void *um, const unsigned char *s, unsigned int len,
		unsigned char *dest, size_t dlen);
int ko_strncmp(void *um, const unsigned char *a, unsigned int alen,
	       const unsigned char *b, unsigned int blen);
int ko_strncasecmp(void *um, const unsigned char *a, unsigned int alen,
		   const unsigned char *b, unsigned int blen);
int ko_strncasecmp_folded(void *um, const unsigned char *cf,
			  unsigned int cflen, const unsigned char *s,
			  unsigned int len);
int ko_casefold_hash(void *um, const void *salt, const unsigned char *s,
		     unsigned int len, unsigned int *ret_hash);
long ko_nlen(void *um, int form, const unsigned char *s, size_t len);

/*
 * The cursor's byte stream: up to max values of utf8byte() into out,
 * ending with the 0 or -1 that ends it; returns the count, or -1 if the
 * cursor cannot start.
 */
int ko_stream(void *um, int form, const unsigned char *s, size_t len,
	      int *out, int max);

#endif
