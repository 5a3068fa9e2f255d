/*
 * pass_helpers.c: small services the passes share: progress, what is
 * said outside preen mode, the write guard.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
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

int fsck_may_write(struct fsck_ctx *ctx)
{
	return ctx->opt.mode != MODE_NO;
}

