/*
 * rusage: run a command and append its wall time and peak memory to a
 * log, for bench/fsck-bench.sh.
 *
 *   rusage LOG LABEL COMMAND [ARG]...
 *
 * appends one line to LOG:
 *
 *   LABEL WALL_S MAXRSS_KB USER_S SYS_S STATUS
 *
 * and exits with the command's status (128 + N when signal N ended it).
 * Standard input, output and error are the command's.
 *
 * Why not GNU time (/usr/bin/time -f '%e %M'): it is not in a base Debian
 * system, and its %e has a resolution of 10 ms. This is the same
 * measurement, wait4()'s rusage, with a monotonic clock. MAXRSS is what
 * Linux reports for the child: the peak resident set of the child or of
 * any of its own waited-for descendants, whichever is larger, never their
 * sum. e2fold-fsck runs e2fsck as a child, so the benchmark also puts
 * this program between e2fold-fsck and e2fsck (--e2fsck) to see e2fsck's
 * own share.
 */
#define _DEFAULT_SOURCE		/* wait4() */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec start, end;
	struct rusage ru;
	int status, code;
	pid_t pid;
	FILE *log;

	if (argc < 4) {
		fprintf(stderr, "usage: rusage LOG LABEL COMMAND [ARG]...\n");
		return 125;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	pid = fork();
	if (pid < 0) {
		perror("rusage: fork");
		return 125;
	}
	if (pid == 0) {
		execvp(argv[3], argv + 3);
		fprintf(stderr, "rusage: %s: %s\n", argv[3], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("rusage: wait4");
			return 125;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	code = WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status);
	log = fopen(argv[1], "a");
	if (!log) {
		fprintf(stderr, "rusage: %s: %s\n", argv[1], strerror(errno));
		return 125;
	}
	fprintf(log, "%s %.3f %ld %.3f %.3f %d\n", argv[2],
		(end.tv_sec - start.tv_sec) +
		(end.tv_nsec - start.tv_nsec) / 1e9,
		ru.ru_maxrss, seconds(&ru.ru_utime), seconds(&ru.ru_stime),
		code);
	if (fclose(log)) {
		fprintf(stderr, "rusage: %s: %s\n", argv[1], strerror(errno));
		return 125;
	}
	return code;
}
