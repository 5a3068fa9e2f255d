/*
 * fuzz.h: what every harness needs. A broken invariant prints what and
 * where, and aborts: libFuzzer then saves the input as a crash file.
 */
#ifndef E2FOLD_FUZZ_H
#define E2FOLD_FUZZ_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* fuzz.make passes the configured UCD (by default the pinned util/ucd). */
#ifndef FUZZ_UCD_DIR
#error "FUZZ_UCD_DIR: build the harnesses through fuzz/fuzz.make"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond) \
	((cond) ? (void)0 : fuzz_fail(__FILE__, __LINE__, #cond))

/*
 * Where the harness reports: a copy of stderr taken at startup
 * (fuzz_init_report, from LLVMFuzzerInitialize), because
 * -close_fd_mask=2 silences the tool under test by closing stderr, and
 * libFuzzer keeps only its own copy.
 */
static FILE *fuzz_report_file;

static inline void fuzz_init_report(void)
{
	int fd = dup(2);

	fuzz_report_file = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (fuzz_report_file)
		setvbuf(fuzz_report_file, NULL, _IONBF, 0);
}

static inline FILE *fuzz_report(void)
{
	return fuzz_report_file ? fuzz_report_file : stderr;
}

static inline void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(fuzz_report(), "%s:%d: invariant broken: %s\n", file, line,
		what);
	abort();
}

static inline void fuzz_print_bytes(const char *label,
				    const unsigned char *s, size_t n)
{
	size_t i;

	fprintf(fuzz_report(), "  %s (%zu):", label, n);
	for (i = 0; i < n; i++)
		fprintf(fuzz_report(), " %02x", s[i]);
	fputc('\n', fuzz_report());
}

/* Print the input and both sides of a failed comparison, and abort. */
static inline void fuzz_fail_bytes(const char *what, const unsigned char *in,
				   size_t in_len, const unsigned char *got,
				   size_t got_len, const unsigned char *want,
				   size_t want_len)
{
	fprintf(fuzz_report(), "invariant broken: %s\n", what);
	fuzz_print_bytes("input", in, in_len);
	fuzz_print_bytes("got", got, got_len);
	fuzz_print_bytes("want", want, want_len);
	abort();
}

/*
 * malloc that never returns NULL. Size 0 gives a block of no bytes (glibc
 * and ASan both return one), so that any access to it is reported.
 */
static inline void *fuzz_malloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		abort();
	return p;
}

/*
 * A scratch directory named after the harness, on tmpfs if there is one
 * (a harness writes images, trees and reports for every input); aborts
 * if it cannot be made.
 */
static inline void fuzz_make_tmpdir(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/e2fold-fuzz-%s.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm", name);
	if (!mkdtemp(buf))
		abort();
}

/*
 * The tool under test talks on stdout and libFuzzer reports on stderr:
 * stdout goes to /dev/null unless the environment variable verbose_env
 * is set (for reproducing an input by hand).
 */
static inline void fuzz_quiet_stdout(const char *verbose_env)
{
	int null;

	if (getenv(verbose_env))
		return;
	null = open("/dev/null", O_WRONLY);
	if (null < 0 || dup2(null, 1) < 0)
		abort();
	close(null);
}

/* The UCD the reference reads: $UCD_DIR or the configured one. */
static inline const char *fuzz_ucd_dir(void)
{
	const char *dir = getenv("UCD_DIR");

	return dir && *dir ? dir : FUZZ_UCD_DIR;
}

#endif /* E2FOLD_FUZZ_H */
