/*
 * <e2fold/unicode.h>: the UTF-8 normalization and casefolding API of the
 * Linux kernel's fs/unicode, in userspace, byte for byte.
 *
 * Two forms exist, both defined by the kernel:
 *   NFDi   canonical decomposition (NFD, with canonical reordering and
 *          algorithmic Hangul decomposition) with every
 *          Default_Ignorable_Code_Point removed;
 *   NFDiCF NFDi plus full case folding (CaseFolding.txt statuses C and F).
 * ext4 hashes and compares the NFDiCF form of names in casefolded
 * directories, so for Unicode 12.1 every byte produced here equals the
 * kernel's, including its quirks (doc/kernel-facts.md, "Quirks of
 * fs/unicode").
 *
 * Versions: one table serves every Unicode version from 1.1 up to the
 * one the library was generated from. Under version V a code point
 * assigned after V is left unchanged and undecomposed with combining
 * class 0.
 *
 * Errors follow the kernel's contract: negative errno values (-EINVAL for
 * invalid UTF-8, or for a result that does not fit), and -1 from the
 * low-level byte and length functions.
 */
#ifndef E2FOLD_UNICODE_H
#define E2FOLD_UNICODE_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define E2FOLD_API __attribute__((visibility("default")))
#else
#define E2FOLD_API
#endif

/* A Unicode version packed as the kernel packs it: 0x00MMmmrr. */
#define UNICODE_MAJ_SHIFT 16
#define UNICODE_MIN_SHIFT 8
#define UNICODE_AGE(MAJ, MIN, REV)                      \
	(((unsigned int)(MAJ) << UNICODE_MAJ_SHIFT) |   \
	 ((unsigned int)(MIN) << UNICODE_MIN_SHIFT) |   \
	 ((unsigned int)(REV)))

static inline unsigned int unicode_major(unsigned int age)
{
	return (age >> UNICODE_MAJ_SHIFT) & 0xff;
}

static inline unsigned int unicode_minor(unsigned int age)
{
	return (age >> UNICODE_MIN_SHIFT) & 0xff;
}

static inline unsigned int unicode_rev(unsigned int age)
{
	return age & 0xff;
}

/* ------------------------------------------------------------------ */
/* Low level: a normalization table for one form and one version.      */

/* Opaque: one form (NFDi or NFDiCF) of the table at one Unicode version. */
struct utf8data;

/*
 * Return 1 if (maj, min, rev) is a Unicode version whose data the table
 * holds, 0 otherwise. Only released versions are supported: 12.1.0 is,
 * 12.1.1 and 12.2.0 are not.
 */
E2FOLD_API int utf8version_is_supported(unsigned int maj, unsigned int min,
					unsigned int rev);

/* The newest supported version, packed with UNICODE_AGE(). */
E2FOLD_API unsigned int utf8version_latest_age(void);

/*
 * The NFDi (utf8nfdi) or NFDiCF (utf8nfdicf) table for the version
 * maxage (UNICODE_AGE()), or NULL if maxage is not a supported version.
 * The returned tables are static: nothing to free.
 */
E2FOLD_API const struct utf8data *utf8nfdi(unsigned int maxage);
E2FOLD_API const struct utf8data *utf8nfdicf(unsigned int maxage);

/*
 * The highest (utf8agemax) or lowest (utf8agemin) Unicode version that
 * assigned a character of the NUL-terminated string s, counting only
 * characters assigned at or before the table's version. An unassigned
 * code point has age 0. utf8agemin of a string with no counted character
 * is the table's version; utf8agemax of it is 0.
 * Returns -1 if s is not valid UTF-8 or data is NULL.
 * The utf8n* forms read at most len bytes of s.
 */
E2FOLD_API int utf8agemax(const struct utf8data *data, const char *s);
E2FOLD_API int utf8agemin(const struct utf8data *data, const char *s);
E2FOLD_API int utf8nagemax(const struct utf8data *data, const char *s,
			   size_t len);
E2FOLD_API int utf8nagemin(const struct utf8data *data, const char *s,
			   size_t len);

/*
 * Length in bytes of the normalized form of s, without a terminating NUL;
 * 0 if s holds only ignorable code points. Returns -1 if s is not valid
 * UTF-8 (a stray continuation byte anywhere makes it invalid here) or
 * data is NULL. utf8nlen reads at most len bytes; both stop at a NUL.
 */
E2FOLD_API ssize_t utf8len(const struct utf8data *data, const char *s);
E2FOLD_API ssize_t utf8nlen(const struct utf8data *data, const char *s,
			    size_t len);

/*
 * A cursor yields the normalized form of a string one byte at a time.
 * Its fields are private; the struct is public only so that it can live
 * on the caller's stack.
 */
struct utf8cursor {
	const struct utf8data *data;
	const unsigned char *s;		/* next byte, in the input or a mapping */
	const unsigned char *xend;	/* end of that mapping; NULL in the input */
	const unsigned char *resume;	/* input after the mapped code point */
	size_t len;			/* input bytes left */
	const unsigned char *run_s;	/* the same four, where a run began */
	const unsigned char *run_xend;
	const unsigned char *run_resume;
	size_t run_len;
	short ccc;			/* class being emitted; -1 first pass */
	short next_ccc;			/* lowest class above it seen so far */
	unsigned char hangul[12];	/* a Hangul syllable's mapping */
};

/*
 * Start a cursor over the NUL-terminated string s (utf8cursor) or over at
 * most len bytes of s (utf8ncursor). Returns 0, or -1 if data or s is NULL
 * or s begins with a UTF-8 continuation byte.
 */
E2FOLD_API int utf8cursor(struct utf8cursor *u8c, const struct utf8data *data,
			  const char *s);
E2FOLD_API int utf8ncursor(struct utf8cursor *u8c,
			   const struct utf8data *data, const char *s,
			   size_t len);

/*
 * The next byte of the normalized form: 1..255, 0 at the end of the
 * string, -1 if the input is not valid UTF-8 at this point. Bytes already
 * returned before a -1 are the kernel's bytes for that prefix.
 */
E2FOLD_API int utf8byte(struct utf8cursor *u8c);

/* ------------------------------------------------------------------ */
/* High level: a loaded encoding and operations on counted strings.    */

enum utf8_normalization {
	UTF8_NFDI = 0,
	UTF8_NFDICF,
	UTF8_NMAX,
};

struct unicode_map {
	unsigned int version;			/* UNICODE_AGE() */
	const struct utf8data *ntab[UTF8_NMAX];
};

/* A counted string, as the kernel passes names. NUL bytes end it early. */
struct qstr {
	const unsigned char *name;
	unsigned int len;
};

/*
 * Load the tables of a Unicode version given as "MAJ.MIN.REV" or
 * "MAJ.MIN" (e.g. "12.1.0", "12.1"). NULL means the newest version; it is
 * allowed but logged as a warning (through the log hook below), because
 * a filesystem must name the version its hashes were made with.
 * Returns a map to free with utf8_unload(), or NULL with errno set:
 * EINVAL for a malformed or unsupported version, ENOMEM.
 */
E2FOLD_API struct unicode_map *utf8_load(const char *version);
E2FOLD_API void utf8_unload(struct unicode_map *um);

/* The newest supported version as "MAJ.MIN.REV" (a static string). */
E2FOLD_API const char *utf8version_latest(void);

/*
 * Where the library's warnings go. The default writes "e2fold: MESSAGE"
 * to stderr; pass NULL to restore it. Not thread-safe to change while
 * another thread loads a map.
 */
typedef void (*utf8_log_fn)(const char *message, void *arg);
E2FOLD_API void utf8_set_log_hook(utf8_log_fn fn, void *arg);

/*
 * 0 if str is valid UTF-8 made of code points the kernel accepts, -1
 * otherwise. Stricter than casefolding: a stray continuation byte after a
 * valid character is rejected here although utf8_casefold accepts it.
 */
E2FOLD_API int utf8_validate(const struct unicode_map *um,
			     const struct qstr *str);

/*
 * Compare the NFDi (utf8_strncmp) or NFDiCF (utf8_strncasecmp) forms of
 * two strings: 0 equal, 1 different, -EINVAL if either is invalid before
 * a difference is found (so two invalid strings never compare equal).
 */
E2FOLD_API int utf8_strncmp(const struct unicode_map *um,
			    const struct qstr *s1, const struct qstr *s2);
E2FOLD_API int utf8_strncasecmp(const struct unicode_map *um,
				const struct qstr *s1, const struct qstr *s2);

/*
 * As utf8_strncasecmp, where cf is already casefolded (the output of
 * utf8_casefold, NUL-terminated or exactly cf->len bytes long).
 */
E2FOLD_API int utf8_strncasecmp_folded(const struct unicode_map *um,
				       const struct qstr *cf,
				       const struct qstr *s1);

/*
 * Write the NFDi (utf8_normalize) or NFDiCF (utf8_casefold) form of str
 * to dest followed by a NUL. Returns its length (without the NUL), or
 * -EINVAL if str is invalid or the result and its NUL need more than dlen
 * bytes. dest is undefined after an error.
 */
E2FOLD_API int utf8_normalize(const struct unicode_map *um,
			      const struct qstr *str, unsigned char *dest,
			      size_t dlen);
E2FOLD_API int utf8_casefold(const struct unicode_map *um,
			     const struct qstr *str, unsigned char *dest,
			     size_t dlen);

/*
 * The kernel's dcache hash of the casefolded name (fs/unicode
 * utf8_casefold_hash with the 64-bit kernel's name hash), seeded with
 * salt. Returns 0 and sets *ret_hash, or -EINVAL for an invalid name.
 * This is not the ext4 directory hash, which applies the filesystem's dx
 * hash algorithm (half-MD4, TEA) to the utf8_casefold output.
 */
E2FOLD_API int utf8_casefold_hash(const struct unicode_map *um,
				  const void *salt, const struct qstr *str,
				  unsigned int *ret_hash);

#ifdef __cplusplus
}
#endif

#endif /* E2FOLD_UNICODE_H */
