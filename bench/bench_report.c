/*
 * bench_report.c: the benchmark's output: a header naming the machine and the
 * versions, one table per operation, the engine's speed targets with PASS
 * or MISS (and by how much), what each column times, and the checks made
 * on the answers before timing.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <ext2fs/ext2fs.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>
#include <utf8proc.h>

#include "unicode.h"
#include "bench.h"

#define COL 17		/* width of an implementation's column */

static void cpu_model(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, size, "unknown CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(buf, size, "%s", colon + 2);
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	}
	fclose(f);
}

static void print_header(const struct bench_results *res)
{
	char date[64], cpu[128], icu[U_MAX_VERSION_STRING_LENGTH];
	const char *ext2fs_ver = "?";
	UVersionInfo uv;
	struct utsname un;
	time_t now = time(NULL);

	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	cpu_model(cpu, sizeof(cpu));
	if (uname(&un))
		strcpy(un.machine, "?");
	ext2fs_get_library_version(&ext2fs_ver, NULL);
	u_getVersion(uv);
	u_versionToString(uv, icu);
	printf("e2fold engine benchmark, %s\n", date);
	printf("machine: %s, %ld CPUs, %s\n", cpu,
	       sysconf(_SC_NPROCESSORS_ONLN), un.machine);
	printf("e2fold %s (Unicode 12.1 map); kernel fs/unicode from %s;\n"
	       "libext2fs %s; utf8proc %s (Unicode %s); ICU %s (Unicode %s)\n",
	       res->commit, res->kernel, ext2fs_ver, utf8proc_version(),
	       utf8proc_unicode_version(), icu, U_UNICODE_VERSION);
	printf("%zu names per corpus; each time is the median of %d "
	       "repetitions of about %.0f ms\n", res->names, res->reps,
	       res->ms);
	printf("Nx after a time: that time / e2fold's time "
	       "(N > 1: e2fold is N times faster)\n");
}

static double ratio(const struct bench_results *res, int impl, int c,
		    int op)
{
	return res->ns[impl][c][op] / res->ns[IMPL_E2FOLD][c][op];
}

static void print_table(const struct bench_results *res, enum bench_op op)
{
	static const char *const titles[OP_MAX] = {
		[OP_CASEFOLD] = "casefold",
		[OP_CMP_CASE] = "strncasecmp(name, name with case swapped)",
		[OP_CMP_EQUAL] = "strncasecmp(name, identical copy)",
	};
	int i, c;

	printf("\n%s, ns per name\n%-15s %6s", titles[op], "corpus", "B/name");
	for (i = 0; i < IMPL_MAX; i++) {
		const struct bench_impl *impl = res->impls[i];
		char title[32];

		if (!res->have_impl[i])
			continue;
		snprintf(title, sizeof(title), "%s%s", impl->name,
			 op == OP_CASEFOLD && impl->casefold_base ? " (est.)" : "");
		printf(" %*s", i == IMPL_E2FOLD ? 8 : COL, title);
	}
	putchar('\n');
	for (c = 0; c < CORPUS_MAX; c++) {
		const struct bench_corpus *corpus = res->corpora[c];

		if (!res->have_corpus[c])
			continue;
		printf("%-15s %6.1f", corpus->name,
		       (double)corpus->bytes / corpus->count);
		for (i = 0; i < IMPL_MAX; i++) {
			if (!res->have_impl[i])
				continue;
			if (i == IMPL_E2FOLD || !res->have_impl[IMPL_E2FOLD])
				printf(" %8.1f", res->ns[i][c][op]);
			else
				printf(" %*.1f %6.1fx", COL - 8,
				       res->ns[i][c][op], ratio(res, i, c, op));
		}
		putchar('\n');
	}
}

/* One target for one operation: PASS, or MISS and what it would take. */
static void print_ratio_target(const struct bench_results *res,
			       const char *what, int other, double want,
			       enum bench_op op, int only_corpus)
{
	int c, worst = -1;
	double r, worst_r = 0;

	for (c = 0; c < CORPUS_MAX; c++) {
		if (!res->have_corpus[c] ||
		    (only_corpus >= 0 && c != only_corpus))
			continue;
		r = ratio(res, other, c, op);
		if (worst < 0 || r < worst_r) {
			worst = c;
			worst_r = r;
		}
	}
	if (worst < 0)
		return;
	printf("  %-4s %-36s %-18s %6.1fx", worst_r >= want ? "PASS" : "MISS",
	       what, bench_op_name(op), worst_r);
	if (only_corpus < 0)
		printf(" (lowest: %s)", res->corpora[worst]->name);
	if (worst_r < want) {
		double now = res->ns[IMPL_E2FOLD][worst][op];

		printf(": e2fold %.1f ns, needs <= %.1f ns (%.2fx faster)",
		       now, now * worst_r / want, want / worst_r);
	}
	putchar('\n');
}

/* e2fold's equal-name comparison against an absolute limit. */
static void print_equal_target(const struct bench_results *res,
			       const char *what, int only_corpus)
{
	const double limit = 100;
	double worst_ns = -1;
	int c, worst = -1;

	for (c = 0; c < CORPUS_MAX; c++) {
		double t = res->ns[IMPL_E2FOLD][c][OP_CMP_EQUAL];

		if (!res->have_corpus[c] ||
		    (only_corpus >= 0 && c != only_corpus))
			continue;
		if (t > worst_ns) {
			worst_ns = t;
			worst = c;
		}
	}
	if (worst < 0)
		return;
	printf("  %-4s %-36s %-18s %6.1f ns", worst_ns < limit ? "PASS" : "MISS",
	       what, bench_op_name(OP_CMP_EQUAL), worst_ns);
	if (only_corpus < 0)
		printf(" (highest: %s)", res->corpora[worst]->name);
	if (worst_ns >= limit)
		printf(": needs %.2fx faster", worst_ns / limit);
	putchar('\n');
}

static void print_targets(const struct bench_results *res)
{
	int op;

	if (!res->have_impl[IMPL_E2FOLD])
		return;
	printf("\ntargets (the engine's speed goals)\n");
	for (op = 0; op < OP_MAX && res->have_impl[IMPL_KERNEL]; op++) {
		if (res->have_corpus[CORPUS_ASCII])
			print_ratio_target(res, ">= 10x the kernel on ascii",
					   IMPL_KERNEL, 10, op, CORPUS_ASCII);
		if (res->have_corpus[CORPUS_MIX])
			print_ratio_target(res, ">= 10x the kernel on mix",
					   IMPL_KERNEL, 10, op, CORPUS_MIX);
		print_ratio_target(res, ">= 5x the kernel on every corpus",
				   IMPL_KERNEL, 5, op, -1);
	}
	for (op = 0; op < OP_MAX && res->have_impl[IMPL_ICU]; op++)
		print_ratio_target(res, "faster than ICU on every corpus",
				   IMPL_ICU, 1, op, -1);
	print_equal_target(res, "equal names under 100 ns on ascii",
			   CORPUS_ASCII);
	print_equal_target(res, "equal names under 100 ns on mix", CORPUS_MIX);
	print_equal_target(res, "equal names under 100 ns everywhere", -1);
}

static void print_legend(const struct bench_results *res)
{
	int i;

	printf("\nwhat is timed per name (see bench/README.md)\n");
	for (i = 0; i < IMPL_MAX; i++) {
		if (!res->have_impl[i])
			continue;
		printf("  %-9s casefold: %s\n", res->impls[i]->name,
		       res->impls[i]->casefold_what);
		printf("  %-9s compare:  %s\n", "", res->impls[i]->casecmp_what);
	}
}

/*
 * A fold that is not the kernel's NFDiCF is an error for the kernel-exact
 * implementations and expected for the others (their Unicode version;
 * ICU keeps ignorables). A wrong comparison is an error for every one.
 */
static void print_checks(const struct bench_results *res)
{
	int i, c, op, errors = 0;

	printf("\nchecks (every name, before timing)\n");
	for (i = 0; i < IMPL_MAX; i++) {
		const struct bench_impl *impl = res->impls[i];
		int shown = 0;

		if (!res->have_impl[i])
			continue;
		for (c = 0; c < CORPUS_MAX; c++) {
			for (op = 0; op < OP_MAX; op++) {
				size_t wrong = res->wrong[i][c][op];
				int expected = op == OP_CASEFOLD && !impl->exact &&
					!impl->casefold_base;

				if (!res->have_corpus[c] || !wrong)
					continue;
				printf("  %-9s %-15s %-18s %zu of %zu names %s%s\n",
				       impl->name, res->corpora[c]->name,
				       bench_op_name(op), wrong,
				       res->corpora[c]->count,
				       op == OP_CASEFOLD ?
				       "fold otherwise than the kernel" :
				       "found different",
				       expected ? " (expected)" : " (ERROR)");
				errors += !expected;
				shown = 1;
			}
		}
		if (!shown)
			printf("  %-9s every answer as the kernel's\n", impl->name);
	}
	if (errors)
		printf("  ERROR: %d cells answered wrongly; their times are "
		       "not comparable\n", errors);
}

void bench_report(const struct bench_results *res)
{
	int op;

	print_header(res);
	for (op = 0; op < OP_MAX; op++)
		print_table(res, op);
	print_targets(res);
	print_legend(res);
	print_checks(res);
}
