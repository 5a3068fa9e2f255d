/* progress.c: e2fsck-style progress for long jobs (progress.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "progress.h"

#define BAR_WIDTH 40

void e2fold_progress_init(struct e2fold_progress *p, int fd,
			  const char *label)
{
	p->fd = fd;
	p->label = label;
	p->last_pass = p->last_permille = -1;
	p->bar_open = 0;
}

static void draw_bar(struct e2fold_progress *p, int permille)
{
	static const char full[] = "========================================";
	int filled = permille * BAR_WIDTH / 1000;

	printf("\r%s: |%.*s%*s| %3d.%d%%", p->label, filled, full,
	       BAR_WIDTH - filled, "", permille / 10, permille % 10);
	/* A full bar is finished: its line ends. */
	p->bar_open = permille < 1000;
	if (!p->bar_open)
		putchar('\n');
	fflush(stdout);
}

void e2fold_progress_update(struct e2fold_progress *p, int pass,
			    unsigned long long done, unsigned long long total)
{
	int permille;

	if (p->fd < 0)
		return;
	if (done > total)
		done = total;
	permille = total ? (int)(done * 1000 / total) : 1000;
	if (pass == p->last_pass && permille == p->last_permille)
		return;
	p->last_pass = pass;
	p->last_permille = permille;
	if (p->fd == 0) {
		draw_bar(p, permille);
	} else if (dprintf(p->fd, "%d %llu %llu %s\n", pass, done, total,
			   p->label) < 0) {
		p->fd = -1;	/* the front end went away: carry on */
	}
}

void e2fold_progress_break(struct e2fold_progress *p)
{
	if (!p->bar_open)
		return;
	putchar('\n');
	p->bar_open = 0;
}

void e2fold_progress_end(struct e2fold_progress *p)
{
	if (p->bar_open)
		draw_bar(p, 1000);
	p->last_pass = p->last_permille = -1;
}

int e2fold_progress_parse_fd(const char *arg)
{
	char *end;
	long fd = strtol(arg, &end, 10);

	if (!*arg || *end || fd < 0 || fd > 1024 * 1024)
		return -1;
	return (int)fd;
}
