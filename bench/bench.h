/*
 * bench.h: the engine benchmark's corpora, implementations and
 * measurements (see bench/README.md for what is measured).
 */
#ifndef E2FOLD_BENCH_H
#define E2FOLD_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* The longest name (ext4: 255 bytes) and room for any folded form of it. */
#define BENCH_NAME_MAX 255
#define BENCH_OUT_MAX 2048

/*
 * One file name of a corpus, with the second strings the comparisons
 * use. Every string is NUL-terminated after len bytes.
 */
struct bench_name {
	const unsigned char *s;
	unsigned int len;
	/* The same name with the case of every letter swapped. */
	const unsigned char *variant;
	unsigned int variant_len;
	/* The same bytes as s, in a buffer of their own. */
	const unsigned char *copy;
	/* e2fold's NFDiCF of s (the libext2fs estimate hashes it). */
	const unsigned char *folded;
	unsigned int folded_len;
};

enum bench_corpus_id {
	CORPUS_ASCII,
	CORPUS_LATIN,
	CORPUS_GREEK_CYRILLIC,
	CORPUS_CJK,
	CORPUS_EMOJI,
	CORPUS_MIX,
	CORPUS_MAX,
};

struct bench_corpus {
	enum bench_corpus_id id;
	const char *name;		/* short, for tables and options */
	struct bench_name *names;
	size_t count;
	size_t bytes;			/* sum of the names' lengths */
	size_t variant_bytes;		/* sum of the variants' lengths */
};

/* The name of a corpus ("ascii", "latin", ...). */
const char *bench_corpus_name(enum bench_corpus_id id);

/*
 * Generate count names of corpus id, the same ones for the same seed.
 * Returns 0, or -1 (out of memory, or e2fold failed to fold a name).
 */
int bench_corpus_make(enum bench_corpus_id id, size_t count, uint64_t seed,
		      struct bench_corpus *ret_corpus);
void bench_corpus_free(struct bench_corpus *corpus);

/* What is timed, per name. */
enum bench_op {
	OP_CASEFOLD,		/* fold the name */
	OP_CMP_CASE,		/* strncasecmp(name, its case variant) */
	OP_CMP_EQUAL,		/* strncasecmp(name, an identical copy) */
	OP_MAX,
};

/*
 * An output buffer: BENCH_OUT_MAX code points or bytes, aligned so that
 * an implementation working in UTF-32 can use it in place.
 */
union bench_out {
	uint32_t cp[BENCH_OUT_MAX];
	unsigned char b[4 * BENCH_OUT_MAX];
};

struct bench_impl {
	const char *name;		/* column title */
	const char *casefold_what;	/* the calls timed, for the legend */
	const char *casecmp_what;
	/* 0 and a context, or -1 after printing why. */
	int (*init)(void **ret_ctx);
	/*
	 * Fold n->s into out; return the number of bytes written to out,
	 * or a negative value on an error.
	 */
	int (*casefold)(void *ctx, const struct bench_name *n,
			union bench_out *out);
	/*
	 * When set, the casefold column is an estimate: the time of
	 * casefold minus the time of casefold_base, which must do the
	 * same work as casefold except the folding. Both write the same
	 * bytes to out when casefold folds as e2fold does.
	 */
	int (*casefold_base)(void *ctx, const struct bench_name *n,
			     union bench_out *out);
	/* 0 if the two names are equal, nonzero otherwise. */
	int (*casecmp)(void *ctx, const unsigned char *a, unsigned int alen,
		       const unsigned char *b, unsigned int blen);
	/* casefold's output must equal e2fold's NFDiCF, byte for byte. */
	int exact;
};

enum bench_impl_id {
	IMPL_E2FOLD,
	IMPL_KERNEL,
	IMPL_EXT2FS,
	IMPL_UTF8PROC,
	IMPL_ICU,
	IMPL_MAX,
};

extern const struct bench_impl bench_impl_e2fold;
extern const struct bench_impl bench_impl_kernel;
extern const struct bench_impl bench_impl_ext2fs;
extern const struct bench_impl bench_impl_utf8proc;
extern const struct bench_impl bench_impl_icu;

/* One thing to time: an operation of an implementation on a corpus. */
struct bench_cell {
	const struct bench_impl *impl;
	void *ctx;
	enum bench_op op;
	int base;			/* time casefold_base, not casefold */
	const struct bench_corpus *corpus;
};

/*
 * Run the cell over every name of its corpus, passes times. Returns the
 * sum of the results, so that no call can be optimized away. Never
 * inlined, so that a profile shows it as the root of the timed work.
 */
unsigned long bench_run(const struct bench_cell *cell, unsigned long passes);

/*
 * Nanoseconds per name of each of the n cells into ret_ns[]: the median
 * of reps repetitions, each over enough passes to last about ms
 * milliseconds; the cells take their repetitions in turn.
 */
void bench_time_cells(const struct bench_cell *cells, size_t n, double ms,
		      int reps, double *ret_ns);

/* Input bytes one pass of the cell reads: both names of a comparison. */
size_t bench_cell_bytes(const struct bench_cell *cell);

const char *bench_op_name(enum bench_op op);

/* What a run found: the times and the checks of every cell. */
struct bench_results {
	const struct bench_impl *impls[IMPL_MAX];
	int have_impl[IMPL_MAX];
	const struct bench_corpus *corpora[CORPUS_MAX];
	int have_corpus[CORPUS_MAX];
	/* ns per name; for an estimated casefold, the difference */
	double ns[IMPL_MAX][CORPUS_MAX][OP_MAX];
	/* names whose answer is not the expected one (see bench.c) */
	size_t wrong[IMPL_MAX][CORPUS_MAX][OP_MAX];
	/* labels for the header */
	const char *commit;
	const char *kernel;
	size_t names;
	double ms;
	int reps;
};

/* Print the tables, the targets and the checks to stdout. */
void bench_report(const struct bench_results *res);

#endif /* E2FOLD_BENCH_H */
