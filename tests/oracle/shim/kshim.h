/*
 * kshim.h: just enough of the kernel's headers to compile fs/unicode in
 * userspace as a test oracle. The kernel sources are extracted from
 * Debian's linux-source package at test time and never committed.
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define MODULE_LICENSE(text)
/* Since Linux 6.11 every module, utf8data.c_shipped too, has one. */
#define MODULE_DESCRIPTION(text)
/* Kbuild gives every file include/linux/kconfig.h; since 6.13
 * utf8-norm.c asks IS_MODULE(CONFIG_..._KUNIT_TEST). Nothing is. */
#define IS_MODULE(option) 0
#define __init
#define __exit
#define fallthrough __attribute__((__fallthrough__))

#define GFP_KERNEL 0
#define kzalloc(size, flags) calloc(1, (size))
#define kfree(p) free(p)
/* Linux 7.x: one zeroed object of a type (or of an expression's type). */
#define kzalloc_obj(obj, ...) ((__typeof__(obj) *)calloc(1, sizeof(obj)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ERR_PTR(err) ((void *)(long)(err))
#define symbol_request(sym) (&(sym))
#define symbol_put(sym) do { } while (0)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

struct rcu_head {
	void *next;
};
#define call_rcu(head, fn) (fn)(head)

/* The layout of a little-endian 64-bit kernel. */
struct qstr {
	union {
		struct {
			u32 hash;
			u32 len;
		};
		u64 hash_len;
	};
	const unsigned char *name;
};

#define init_name_hash(salt) (unsigned long)(salt)
static inline unsigned long partial_name_hash(unsigned long c,
					      unsigned long prevhash)
{
	return (prevhash + (c << 4) + (c >> 4)) * 11;
}
static inline unsigned int end_name_hash(unsigned long hash)
{
	return (unsigned int)((hash * 0x61C8864680B583EBull) >> 32);
}

#endif
