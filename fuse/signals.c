/*
 * signals.c: the signals that end a session (SIGHUP, SIGINT, SIGTERM),
 * as libfuse's fuse_set_signal_handlers takes them, but remembering who
 * sent one, so that the log says why a mount went away. As libfuse
 * does, a signal already ignored (nohup) stays ignored, and SIGPIPE is
 * ignored while serving (a reply to a process gone is not an error).
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "e2fuse.h"

/* The ones that end a session, then SIGPIPE. */
static const int ending[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };
#define NSIGNALS (sizeof(ending) / sizeof(ending[0]))
#define NENDING (NSIGNALS - 1)

static struct sigaction saved[NSIGNALS];
static int replaced[NSIGNALS];
static struct fuse_session *session;
static volatile sig_atomic_t got_signal;
static volatile pid_t got_from;

static void end_session(int sig, siginfo_t *info, void *context)
{
	(void)context;
	got_signal = sig;
	got_from = info ? info->si_pid : 0;
	fuse_session_exit(session);
}

void e2fuse_signals_ending(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < NENDING; i++)
		sigaddset(set, ending[i]);
}

int e2fuse_signals_catch(struct fuse_session *se)
{
	struct sigaction sa;
	size_t i;

	session = se;
	for (i = 0; i < NSIGNALS; i++) {
		if (sigaction(ending[i], NULL, &saved[i]) != 0)
			return -1;
		if (saved[i].sa_handler != SIG_DFL)
			continue;	/* ignored or taken: left alone */
		memset(&sa, 0, sizeof(sa));
		sigemptyset(&sa.sa_mask);
		if (ending[i] == SIGPIPE) {
			sa.sa_handler = SIG_IGN;
		} else {
			sa.sa_sigaction = end_session;
			sa.sa_flags = SA_SIGINFO;
		}
		if (sigaction(ending[i], &sa, NULL) != 0)
			return -1;
		replaced[i] = 1;
	}
	return 0;
}

void e2fuse_signals_release(const char *image)
{
	size_t i;

	for (i = 0; i < NSIGNALS; i++)
		if (replaced[i]) {
			sigaction(ending[i], &saved[i], NULL);
			replaced[i] = 0;
		}
	if (got_signal)
		fprintf(stderr, "e2fold-fuse: %s: %s from process %ld: "
			"unmounting\n", image, strsignal(got_signal),
			(long)got_from);
	got_signal = 0;
	session = NULL;
}
