/*
 * extopts.h: the option vocabulary the tools share, parsed in one place.
 *
 * Every tool takes e2fsprogs' spellings where e2fsprogs has one: -E
 * key=value[,key=value...] for extended options, -n for "write nothing",
 * encoding flags joined with '-' (mke2fs's separator, since ',' separates
 * the -E keys). Where e2fsprogs has no word, the tools share one:
 * -E collisions=stop|rename. Older e2fold spellings still work, each with
 * a one-line note on stderr naming the current one.
 */
#ifndef E2FOLD_EXTOPTS_H
#define E2FOLD_EXTOPTS_H

#include <ext2fs/ext2fs.h>

/* What to do with names equal after casefolding: -E collisions=. */
enum e2fold_collisions {
	E2FOLD_COLLISIONS_STOP = 0,	/* refuse, naming them (the default) */
	E2FOLD_COLLISIONS_RENAME,	/* keep the first, rename the others */
};

/* One item of an -E list: key, and value (NULL when it had no '='). */
struct e2fold_extopt {
	char *key;
	char *value;
};

struct e2fold_extopts {
	struct e2fold_extopt *opts;
	size_t n;
	char *buf;		/* the storage key and value point into */
};

/*
 * Split an -E list at ','. A bare encoding flag right after
 * encoding_flags=... continues that list (the old spelling
 * "encoding_flags=strict,no_compat_fallback"): it is joined with '-' and
 * noted on stderr. Returns 0 or EXT2_ET_NO_MEMORY.
 */
errcode_t e2fold_extopts_split(const char *prog, const char *list,
			       struct e2fold_extopts *ret);
void e2fold_extopts_free(struct e2fold_extopts *opts);

/*
 * The value of encoding_flags= (see e2fold_parse_encoding_flags()): 0,
 * the bits, and (unless ret_cleared is NULL) the flags it clears by name;
 * or -1 after saying on stderr what is wrong. An old separator (',' '+')
 * or an empty list (none) is accepted with a note.
 */
int e2fold_encoding_flags_arg(const char *prog, const char *value,
			      __u16 *ret_flags, __u16 *ret_cleared);

/* "strict-no_compat_fallback" or "none": flags as an option spells them. */
char *e2fold_encoding_flags_option(__u16 flags, char *buf, size_t size);

/*
 * The value of collisions=: stop or rename (abort, e2fold-tune's old
 * word for stop, with a note). 0, or -1 after saying what is wrong.
 */
int e2fold_collisions_arg(const char *prog, const char *value,
			  enum e2fold_collisions *ret);

/* The one-line note for an old spelling: "PROG: note: OLD is now NOW". */
void e2fold_note_spelling(const char *prog, const char *old, const char *now);

/*
 * A command is about to set the encoding flags to want on a filesystem
 * that has have: name on stderr each flag it would drop that the user
 * did not clear by name (cleared: "noFLAG" or "none"), and the option
 * that keeps them. Returns the flags so dropped.
 */
__u16 e2fold_warn_dropped_flags(const char *prog, __u16 have, __u16 want,
				__u16 cleared);

#endif /* E2FOLD_EXTOPTS_H */
