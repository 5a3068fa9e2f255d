/*
 * bench.c: e2fold-bench, the engine benchmark (bench/README.md).
 *
 *   e2fold-bench [options]              time every implementation on
 *                                       every corpus, print the tables
 *   e2fold-bench --callgrind=IMPLS      one pass per cell, each counted
 *                                       by callgrind and dumped under its
 *                                       own label (bench/callgrind.sh)
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND_H 1
#endif
#endif

#include "bench.h"

static const struct bench_impl *const all_impls[IMPL_MAX] = {
	[IMPL_E2FOLD] = &bench_impl_e2fold,
	[IMPL_KERNEL] = &bench_impl_kernel,
	[IMPL_EXT2FS] = &bench_impl_ext2fs,
	[IMPL_UTF8PROC] = &bench_impl_utf8proc,
	[IMPL_ICU] = &bench_impl_icu,
};

struct options {
	size_t names;
	double ms;
	int reps;
	uint64_t seed;
	int impls[IMPL_MAX];		/* selected */
	int corpora[CORPUS_MAX];	/* selected */
	int callgrind;			/* the callgrind mode */
	int list;			/* print the corpora and stop */
	const char *commit;
	const char *kernel;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: e2fold-bench [--names=N] [--ms=MS] [--reps=N] [--seed=N]\n"
"                    [--impl=LIST] [--corpus=LIST] [--callgrind=LIST]\n"
"                    [--commit=LABEL] [--kernel=LABEL] [--list]\n"
"  --names   names per corpus (default 4096)\n"
"  --ms      milliseconds per repetition (default 40)\n"
"  --reps    repetitions, the median is reported (default 5)\n"
"  --impl    implementations to time: e2fold,kernel,libext2fs,utf8proc,ICU\n"
"  --corpus  corpora: ascii,latin,greek-cyrillic,cjk,emoji,mix\n"
"  --callgrind  count one pass of each cell of these implementations\n"
"            under valgrind --tool=callgrind (see bench/callgrind.sh)\n"
"  --commit, --kernel  labels printed in the header\n"
"  --list    print the names of the corpora (CORPUS<TAB>NAME) and stop\n");
}

/* Mark in sel the entries of the comma list whose names match; -1 if
 * a name is unknown. */
static int parse_list(const char *list, const char *(*name_of)(int),
		      int n, int *sel)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int i, ret = 0;

	if (!copy)
		return -1;
	memset(sel, 0, n * sizeof(*sel));
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < n; i++)
			if (!strcasecmp(tok, name_of(i)))
				break;
		if (i == n) {
			fprintf(stderr, "e2fold-bench: unknown name '%s'\n", tok);
			ret = -1;
		} else {
			sel[i] = 1;
		}
	}
	free(copy);
	return ret;
}

static const char *impl_name(int i)
{
	return all_impls[i]->name;
}

static const char *corpus_name(int i)
{
	return bench_corpus_name(i);
}

/* 0 and *opt, or -1 after a message. */
static int parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "names", required_argument, NULL, 'n' },
		{ "ms", required_argument, NULL, 'm' },
		{ "reps", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "impl", required_argument, NULL, 'i' },
		{ "corpus", required_argument, NULL, 'c' },
		{ "callgrind", required_argument, NULL, 'g' },
		{ "commit", required_argument, NULL, 'C' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, i;

	memset(opt, 0, sizeof(*opt));
	opt->names = 4096;
	opt->ms = 40;
	opt->reps = 5;
	opt->seed = 20240229;
	opt->commit = "unknown";
	opt->kernel = "unknown";
	for (i = 0; i < IMPL_MAX; i++)
		opt->impls[i] = 1;
	for (i = 0; i < CORPUS_MAX; i++)
		opt->corpora[i] = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			opt->names = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			opt->ms = strtod(optarg, NULL);
			break;
		case 'r':
			opt->reps = atoi(optarg);
			break;
		case 's':
			opt->seed = strtoull(optarg, NULL, 0);
			break;
		case 'g':
			opt->callgrind = 1;
			/* fall through */
		case 'i':
			if (parse_list(optarg, impl_name, IMPL_MAX, opt->impls))
				return -1;
			break;
		case 'c':
			if (parse_list(optarg, corpus_name, CORPUS_MAX,
				       opt->corpora))
				return -1;
			break;
		case 'C':
			opt->commit = optarg;
			break;
		case 'K':
			opt->kernel = optarg;
			break;
		case 'l':
			opt->list = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc || !opt->names || opt->ms <= 0 || opt->reps < 1) {
		usage(stderr);
		return -1;
	}
	return 0;
}

/* Whether one answer of a cell is the expected one. */
static int answer_ok(const struct bench_cell *cell, const struct bench_name *n,
		     union bench_out *out, union bench_out *base_out)
{
	const struct bench_impl *impl = cell->impl;
	int len, base_len;

	switch (cell->op) {
	case OP_CASEFOLD:
		len = impl->casefold(cell->ctx, n, out);
		if (impl->casefold_base) {
			base_len = impl->casefold_base(cell->ctx, n, base_out);
			return len >= 0 && len == base_len &&
				!memcmp(out->b, base_out->b, len);
		}
		return len == (int)n->folded_len &&
			!memcmp(out->b, n->folded, len);
	case OP_CMP_CASE:
		return impl->casecmp(cell->ctx, n->s, n->len, n->variant,
				     n->variant_len) == 0;
	default:
		return impl->casecmp(cell->ctx, n->s, n->len, n->copy,
				     n->len) == 0;
	}
}

/*
 * Count the names a cell answers unexpectedly: a fold that differs from
 * e2fold's NFDiCF (libext2fs: a hash that differs from the hash of it),
 * or a name found different from its case variant or its copy.
 */
static size_t count_wrong(const struct bench_cell *cell)
{
	static union bench_out out, base_out;
	size_t i, wrong = 0;

	for (i = 0; i < cell->corpus->count; i++)
		if (!answer_ok(cell, &cell->corpus->names[i], &out, &base_out))
			wrong++;
	return wrong;
}

static int make_corpora(const struct options *opt,
			struct bench_corpus corpora[CORPUS_MAX])
{
	int c;

	for (c = 0; c < CORPUS_MAX; c++) {
		if (!opt->corpora[c])
			continue;
		if (bench_corpus_make(c, opt->names, opt->seed, &corpora[c])) {
			fprintf(stderr, "e2fold-bench: cannot make corpus %s\n",
				bench_corpus_name(c));
			return -1;
		}
	}
	return 0;
}

static int init_impls(const struct options *opt, void *ctx[IMPL_MAX])
{
	int i;

	for (i = 0; i < IMPL_MAX; i++)
		if (opt->impls[i] && all_impls[i]->init(&ctx[i]))
			return -1;
	return 0;
}

/*
 * Time one row of a table: every implementation on one corpus, one
 * operation. An estimated casefold is the difference of two cells.
 */
static void time_row(const struct options *opt, const struct bench_corpus *c,
		     enum bench_op op, void *ctx[IMPL_MAX],
		     struct bench_results *res)
{
	struct bench_cell cells[2 * IMPL_MAX];
	double ns[2 * IMPL_MAX];
	int impl_of[2 * IMPL_MAX], base_of[IMPL_MAX];
	size_t n = 0, k;
	int i;

	for (i = 0; i < IMPL_MAX; i++) {
		struct bench_cell cell = { all_impls[i], ctx[i], op, 0, c };

		base_of[i] = -1;
		if (!opt->impls[i])
			continue;
		res->wrong[i][c->id][op] = count_wrong(&cell);
		impl_of[n] = i;
		cells[n++] = cell;
		if (op == OP_CASEFOLD && all_impls[i]->casefold_base) {
			cell.base = 1;
			base_of[i] = n;
			impl_of[n] = -1;
			cells[n++] = cell;
		}
	}
	bench_time_cells(cells, n, opt->ms, opt->reps, ns);
	for (k = 0; k < n; k++) {
		i = impl_of[k];
		if (i < 0)
			continue;
		res->ns[i][c->id][op] = ns[k] -
			(base_of[i] >= 0 ? ns[base_of[i]] : 0);
	}
}

static int run_timing(const struct options *opt,
		      struct bench_corpus corpora[CORPUS_MAX],
		      void *ctx[IMPL_MAX])
{
	static struct bench_results res;
	int i, c, op;

	res.commit = opt->commit;
	res.kernel = opt->kernel;
	res.names = opt->names;
	res.ms = opt->ms;
	res.reps = opt->reps;
	for (i = 0; i < IMPL_MAX; i++) {
		res.impls[i] = all_impls[i];
		res.have_impl[i] = opt->impls[i];
	}
	for (c = 0; c < CORPUS_MAX; c++) {
		res.corpora[c] = &corpora[c];
		res.have_corpus[c] = opt->corpora[c];
	}
	for (c = 0; c < CORPUS_MAX; c++) {
		if (!opt->corpora[c])
			continue;
		fprintf(stderr, "e2fold-bench: timing %s\n", corpora[c].name);
		for (op = 0; op < OP_MAX; op++)
			time_row(opt, &corpora[c], op, ctx, &res);
	}
	bench_report(&res);
	return 0;
}

#ifdef HAVE_CALLGRIND_H
/*
 * One warm-up pass (it resolves lazy bindings), then one counted pass,
 * dumped under the label IMPL/CORPUS/OP; a line on stdout gives the
 * label's names and bytes, which bench/callgrind.sh divides Ir by.
 */
static void count_cell(const struct bench_cell *cell)
{
	char label[128];

	snprintf(label, sizeof(label), "%s/%s/%s%s", cell->impl->name,
		 cell->corpus->name, bench_op_name(cell->op),
		 cell->base ? "-base" : "");
	bench_run(cell, 1);
	CALLGRIND_ZERO_STATS;
	bench_run(cell, 1);
	CALLGRIND_DUMP_STATS_AT(label);
	printf("cell %s names %zu bytes %zu\n", label, cell->corpus->count,
	       bench_cell_bytes(cell));
}

static int run_callgrind(const struct options *opt,
			 struct bench_corpus corpora[CORPUS_MAX],
			 void *ctx[IMPL_MAX])
{
	int i, c, op;

	CALLGRIND_START_INSTRUMENTATION;
	for (i = 0; i < IMPL_MAX; i++) {
		for (c = 0; c < CORPUS_MAX; c++) {
			for (op = 0; op < OP_MAX; op++) {
				struct bench_cell cell = {
					all_impls[i], ctx[i], op, 0, &corpora[c]
				};

				if (!opt->impls[i] || !opt->corpora[c])
					continue;
				count_cell(&cell);
				if (op == OP_CASEFOLD && cell.impl->casefold_base) {
					cell.base = 1;
					count_cell(&cell);
				}
			}
		}
	}
	CALLGRIND_STOP_INSTRUMENTATION;
	return 0;
}
#else
static int run_callgrind(const struct options *opt,
			 struct bench_corpus corpora[CORPUS_MAX],
			 void *ctx[IMPL_MAX])
{
	fprintf(stderr, "e2fold-bench: built without <valgrind/callgrind.h>\n");
	return -1;
}
#endif

static int list_corpora(const struct options *opt,
			const struct bench_corpus corpora[CORPUS_MAX])
{
	size_t i;
	int c;

	for (c = 0; c < CORPUS_MAX; c++)
		for (i = 0; opt->corpora[c] && i < corpora[c].count; i++)
			printf("%s\t%s\n", corpora[c].name,
			       (const char *)corpora[c].names[i].s);
	return 0;
}

int main(int argc, char **argv)
{
	static struct bench_corpus corpora[CORPUS_MAX];
	struct options opt;
	void *ctx[IMPL_MAX] = { NULL };
	int c, ret;

	if (parse_options(argc, argv, &opt))
		return 2;
	if (make_corpora(&opt, corpora))
		return 1;
	if (opt.list)
		ret = list_corpora(&opt, corpora);
	else if (init_impls(&opt, ctx))
		ret = 1;
	else if (opt.callgrind)
		ret = run_callgrind(&opt, corpora, ctx);
	else
		ret = run_timing(&opt, corpora, ctx);
	for (c = 0; c < CORPUS_MAX; c++)
		bench_corpus_free(&corpora[c]);
	return ret ? 1 : 0;
}
