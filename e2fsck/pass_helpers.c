/*
 * pass_helpers.c: small services the passes share: progress, what is
 * said outside preen mode, signals, the write guard.
 */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2fsck.h"

void fsck_progress(struct fsck_ctx *ctx, int pass, unsigned long done,
		   unsigned long total)
{
	static int last_pass = -1, last_percent = -1;
	int percent = total ? (int)(done * 100 / total) : 100;
	char line[96];
	int n, width = 40, filled = percent * width / 100;

	if (ctx->opt.progress_fd < 0)
		return;
	if (pass == last_pass && percent == last_percent)
		return;
	last_pass = pass;
	last_percent = percent;
	n = snprintf(line, sizeof(line), "\rPass %d: |%.*s%*s| %3d%%", pass,
		     filled, "========================================",
		     width - filled, "", percent);
	if (ctx->opt.progress_fd == 0) {
		fputs(line, stdout);
		if (percent == 100)
			fputc('\n', stdout);
		fflush(stdout);
	} else {
		/* The e2fsck protocol for front ends: "pass done total". */
		n = snprintf(line, sizeof(line), "%d %lu %lu %s\n", pass, done,
			     total, ctx->opt.device);
		if (write(ctx->opt.progress_fd, line, n) < 0)
			ctx->opt.progress_fd = -1;
	}
}

void fsck_say(struct fsck_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->opt.mode == MODE_PREEN)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static volatile sig_atomic_t caught;	/* the first signal, or 0 */
static volatile pid_t child;		/* the e2fsck running, or 0 */

/*
 * A SIGINT from the terminal reaches e2fsck too (one process group);
 * one sent to e2fold-fsck alone (kill, a service manager) is passed on,
 * and so is SIGTERM, which a manager sends to the main process only.
 * e2fsck takes a second SIGINT for "stop at once": a terminal's is not
 * sent again.
 */
static void on_signal(int sig, siginfo_t *info, void *unused)
{
	(void)unused;
	if (!caught)
		caught = sig;
	if (child > 0 && (sig == SIGTERM || info->si_code != SI_KERNEL))
		kill(child, sig);
}

void fsck_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	/* Restart reads and writes: only the safe points look at it. */
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	caught = 0;
	child = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int fsck_signal_pending(void)
{
	return caught != 0;
}

int fsck_cancelled(struct fsck_ctx *ctx)
{
	if (caught && !ctx->cancelled)
		ctx->cancelled = caught;
	return ctx->cancelled != 0;
}

void fsck_set_child(pid_t pid)
{
	child = pid;
}

int fsck_may_write(struct fsck_ctx *ctx)
{
	return ctx->opt.mode != MODE_NO;
}

