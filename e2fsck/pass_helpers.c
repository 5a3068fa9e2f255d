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
#include "progress.h"

/*
 * Progress, in one numbering across e2fsck's passes and e2fold's, so
 * that a front end never sees the pass number go back: e2fsck's passes
 * 1 to 5 (relayed from its own -C), then e2fold's scan and names as 6
 * and 7; without e2fsck, e2fold's are 1 and 2 (weighed as 6 and 7).
 * The scan before e2fsck (for pass 0) and the re-check after a repair
 * are not shown. For -C 0 the same steps fill one bar; the
 * weights are rough shares of the time each pass takes on a large
 * filesystem (e2fsck's pass 1 reads every inode and dominates).
 */
#define PASSES 7
static const unsigned int weight[PASSES + 1] = {
	[1] = 55, [2] = 20, [3] = 2, [4] = 3, [5] = 5,	/* e2fsck */
	[6] = 5, [7] = 10,				/* e2fold */
};

/* What was shown last (lib/support/progress.h draws and writes). */
static struct e2fold_progress shown = { -1, NULL, -1, -1, 0 };

/* How far along the whole run, in thousandths, at pass done/total. */
static int run_permille(const struct fsck_ctx *ctx, int pass,
			unsigned long done, unsigned long total)
{
	unsigned int first = ctx->use_e2fsck ? 1 : 6, sum = 0, before = 0;
	int p;

	if (!ctx->use_e2fsck)
		pass += 5;	/* e2fold's 1 and 2 alone are the last two */
	for (p = first; p <= PASSES; p++) {
		sum += weight[p];
		if (p < pass)
			before += weight[p];
	}
	if (pass < (int)first || pass > PASSES || !sum)
		return -1;
	return (int)((before + weight[pass] * (total ? (double)done / total :
					       1.0)) * 1000 / sum);
}

void fsck_progress_step(struct fsck_ctx *ctx, int pass, unsigned long done,
			unsigned long total)
{
	int permille;

	if (ctx->opt.progress_fd < 0)
		return;
	shown.fd = ctx->opt.progress_fd;
	shown.label = ctx->opt.device;
	if (ctx->opt.progress_fd == 0) {
		/* One bar for the whole run: its own thousandths. */
		permille = run_permille(ctx, pass, done, total);
		if (permille >= 0)
			e2fold_progress_update(&shown, 0, permille, 1000);
		return;
	}
	/* The e2fsck protocol for front ends: "pass done total device". */
	e2fold_progress_update(&shown, pass, done, total);
	if (shown.fd < 0)
		ctx->opt.progress_fd = -1;
}

void fsck_progress(struct fsck_ctx *ctx, int pass, unsigned long done,
		   unsigned long total)
{
	/* e2fold's scan before e2fsck, or its re-check: not numbered. */
	if ((ctx->use_e2fsck && !ctx->e2fsck_done) || ctx->rechecking)
		return;
	fsck_progress_step(ctx, ctx->use_e2fsck ? pass + 5 : pass, done,
			   total);
}

void fsck_dir_progress(struct fsck_ctx *ctx, unsigned long part,
		       unsigned long whole)
{
	fsck_progress(ctx, 2, ctx->progress_dir * 1000UL +
		      (whole ? part * 1000 / whole : 1000),
		      ctx->n_dirs * 1000UL);
}

void fsck_progress_break(struct fsck_ctx *ctx)
{
	if (ctx->out)
		return;		/* not to the terminal: the bar stays */
	e2fold_progress_break(&shown);
}

/* The line ended, not the bar filled: a check can stop part way. */
void fsck_progress_end(struct fsck_ctx *ctx)
{
	(void)ctx;
	e2fold_progress_break(&shown);
	shown.last_pass = shown.last_permille = -1;
}

void fsck_say(struct fsck_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->opt.mode == MODE_PREEN || ctx->rechecking)
		return;
	fsck_progress_break(ctx);
	va_start(ap, fmt);
	vfprintf(fsck_out(ctx), fmt, ap);
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

FILE *fsck_out(struct fsck_ctx *ctx)
{
	return ctx->out ? ctx->out : stdout;
}

void fsck_progress_bar_open(void)
{
	shown.bar_open = 1;
}

int fsck_may_write(struct fsck_ctx *ctx)
{
	return ctx->opt.mode != MODE_NO;
}

