/*
 * loop.c: e2fold-fuse's session loop with one thread (-s): libfuse's
 * own, but for two timers that run between two requests, never during
 * one: the commit's (commit.c) and that of the replies held until the
 * kernel's cache lets them go (cache.c). workers.c serves with several.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "e2fuse.h"

int e2fuse_run_timers(struct e2fuse *srv)
{
	int ms = e2fuse_commit_due_ms(srv);
	int held = e2fuse_send_held_replies(srv, 0);

	srv->timer_started = 0;
	if (held >= 0 && (ms < 0 || held < ms))
		ms = held;
	return ms;
}

/*
 * Wait for a request, committing and sending held replies when their
 * timers say. 0, or an errno.
 */
static int wait_request(struct fuse_session *se, struct e2fuse *srv)
{
	struct pollfd pfd = { .fd = fuse_session_fd(se), .events = POLLIN };

	for (;;) {
		int ms = e2fuse_run_timers(srv);
		int r;

		if (ms < 0)
			return 0;	/* nothing due: block in the read */
		r = poll(&pfd, 1, ms);
		if (r > 0)
			return 0;
		if (r < 0)
			return errno;
	}
}

int e2fuse_session_loop(struct fuse_session *se, struct e2fuse *srv)
{
	struct fuse_buf buf = { .mem = NULL };
	int res = 0;

	while (!fuse_session_exited(se)) {
		res = -wait_request(se, srv);
		if (res == -EINTR)
			continue;	/* a signal: exited, perhaps */
		if (res < 0)
			break;
		res = fuse_session_receive_buf(se, &buf);
		if (res == -EINTR)
			continue;
		if (res <= 0)
			break;
		e2fuse_before_request(srv);
		fuse_session_process_buf(se, &buf);
		e2fuse_after_request(srv);
	}
	free(buf.mem);
	fuse_session_reset(se);
	return res < 0 ? -res : 0;
}
