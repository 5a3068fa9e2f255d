/*
 * measure.c: run cells (an operation of an implementation on a corpus)
 * and time them with clock_gettime(CLOCK_MONOTONIC).
 *
 * A repetition runs whole passes over the corpus and divides by the
 * names it processed; the passes per repetition are calibrated so that
 * one lasts about the requested time, and the median of the repetitions
 * is reported, which discards the outliers a shared VM produces. The
 * cells of one table row take their repetitions in turn, so that a change
 * of load on the machine falls on all of them alike. The calibration runs
 * first and doubles as the warm-up. Nothing is pinned.
 */
#include <stdlib.h>
#include <time.h>

#include "bench.h"

static const char *const op_names[OP_MAX] = {
	[OP_CASEFOLD] = "casefold",
	[OP_CMP_CASE] = "strncasecmp",
	[OP_CMP_EQUAL] = "strncasecmp-equal",
};

const char *bench_op_name(enum bench_op op)
{
	return op_names[op];
}

/* Results land here, so that no run can be optimized away. */
static volatile unsigned long bench_sink;

__attribute__((noinline))
unsigned long bench_run(const struct bench_cell *cell, unsigned long passes)
{
	static union bench_out out;
	const struct bench_impl *impl = cell->impl;
	const struct bench_name *names = cell->corpus->names;
	size_t i, count = cell->corpus->count;
	unsigned long sum = 0;
	int (*fold)(void *, const struct bench_name *, union bench_out *) =
		cell->base ? impl->casefold_base : impl->casefold;

	while (passes--) {
		switch (cell->op) {
		case OP_CASEFOLD:
			for (i = 0; i < count; i++)
				sum += fold(cell->ctx, &names[i], &out);
			break;
		case OP_CMP_CASE:
			for (i = 0; i < count; i++)
				sum += impl->casecmp(cell->ctx, names[i].s,
						     names[i].len,
						     names[i].variant,
						     names[i].variant_len);
			break;
		case OP_CMP_EQUAL:
			for (i = 0; i < count; i++)
				sum += impl->casecmp(cell->ctx, names[i].s,
						     names[i].len,
						     names[i].copy,
						     names[i].len);
			break;
		default:
			abort();
		}
	}
	bench_sink += sum;
	return sum;
}

size_t bench_cell_bytes(const struct bench_cell *cell)
{
	const struct bench_corpus *c = cell->corpus;

	switch (cell->op) {
	case OP_CMP_CASE:
		return c->bytes + c->variant_bytes;
	case OP_CMP_EQUAL:
		return 2 * c->bytes;
	default:
		return c->bytes;
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double time_passes(const struct bench_cell *cell, unsigned long passes)
{
	double t0 = now_ns();

	bench_run(cell, passes);
	return now_ns() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Passes that make one repetition of the cell last about ms. */
static unsigned long calibrate(const struct bench_cell *cell, double ms)
{
	double t, target = ms * 1e6;
	unsigned long passes = 1;

	/* Up to a tenth of the target, then scale. */
	while ((t = time_passes(cell, passes)) < target / 10)
		passes *= 2;
	return (unsigned long)(passes * target / t) + 1;
}

void bench_time_cells(const struct bench_cell *cells, size_t n, double ms,
		      int reps, double *ret_ns)
{
	unsigned long *passes = calloc(n, sizeof(*passes));
	double *per_name = calloc(n * reps, sizeof(*per_name));
	size_t i;
	int r;

	if (!passes || !per_name)
		abort();
	for (i = 0; i < n; i++)
		passes[i] = calibrate(&cells[i], ms);
	for (r = 0; r < reps; r++)
		for (i = 0; i < n; i++)
			per_name[i * reps + r] =
				time_passes(&cells[i], passes[i]) /
				((double)passes[i] * cells[i].corpus->count);
	for (i = 0; i < n; i++) {
		qsort(per_name + i * reps, reps, sizeof(*per_name), cmp_double);
		ret_ns[i] = per_name[i * reps + reps / 2];
	}
	free(passes);
	free(per_name);
}
