/*
 * progress.h: progress of a long job, as e2fsck's -C shows it.
 *
 * fd > 0: one line "PASS DONE TOTAL LABEL" per step on that descriptor,
 * e2fsck's protocol for front ends (fsck -C, systemd-fsck), written only
 * when the thousandths change. fd 0: a bar on standard output,
 * "LABEL: |=====     |  52.3%", redrawn in place, its line ended once
 * full; a message printed meanwhile first calls e2fold_progress_break()
 * so that it starts on a line of its own. fd < 0: nothing.
 */
#ifndef E2FOLD_PROGRESS_H
#define E2FOLD_PROGRESS_H

struct e2fold_progress {
	int fd;
	const char *label;
	int last_pass, last_permille;
	int bar_open;		/* a bar is drawn and its line not ended */
};

void e2fold_progress_init(struct e2fold_progress *p, int fd,
			  const char *label);
/* Step pass is at done of total (total 0: done). */
void e2fold_progress_update(struct e2fold_progress *p, int pass,
			    unsigned long long done, unsigned long long total);
/* Before other output: end the bar's line. */
void e2fold_progress_break(struct e2fold_progress *p);
/* The job is over: the bar at 100% and its line ended. */
void e2fold_progress_end(struct e2fold_progress *p);

/*
 * Parse a -C argument: a descriptor number (0 for the bar); -1 if it is
 * not one.
 */
int e2fold_progress_parse_fd(const char *arg);

#endif /* E2FOLD_PROGRESS_H */
