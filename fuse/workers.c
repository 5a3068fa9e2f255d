/*
 * workers.c: e2fold-fuse's session served by several threads (libfuse's
 * -o max_threads=N, default 10; -s serves with loop.c's one).
 *
 * libext2fs is not thread-safe, and a request that only reads changes the
 * server too (lookup counts, kept indexes, libext2fs's own caches), so
 * one lock, the server's, is held from a request's first byte parsed to
 * its reply built, and by the timers loop.c runs between two requests.
 * What the threads do in parallel is FUSE's transport, about half of a
 * request's CPU: reading the next request from /dev/fuse, and writing a
 * reply, which wakes the process that waits for it. A message built
 * under the lock goes into its thread's outbox (the session's writev)
 * and is written after the lock is given back, in the order it was
 * built, so a notification still comes before its reply. A libfuse built
 * without custom I/O (Debian's 3.18) refuses that writev: replies are
 * then written under the lock, and only the reads overlap.
 *
 * The main thread runs the timers: it sleeps until the next one, or
 * until a request starts one (e2fuse's timer_started) or a signal or an
 * unmount ends the session, then stops the workers and returns.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
#include <unistd.h>

#include <et/com_err.h>

#include "array.h"
#include "e2fuse.h"

/* Messages built under the lock, each its length then its bytes. */
struct outbox {
	char *bytes;
	size_t len, cap;
};

struct pool {
	struct fuse_session *se;
	struct e2fuse *srv;
	pthread_mutex_t lock;	/* the server's */
	int wake;		/* eventfd: the main thread has work */
	int deferred;		/* replies go through the outboxes */
	int err;		/* an errno from reading /dev/fuse */
};

struct worker {
	struct pool *pool;
	pthread_t thread;
	struct fuse_buf buf;	/* the request being served */
	struct outbox box;
};

/* The outbox of the thread serving a request under the lock, if any. */
static __thread struct outbox *this_outbox;

/* Quiet while custom I/O is tried: a refusal is not an error here. */
static void log_nothing(enum fuse_log_level level, const char *fmt,
			va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
}

/*
 * The session's writev: into the outbox when under the lock, else (the
 * timers' held replies) at once. A message that does not fit for want of
 * memory is written at once too, as it would have been without threads.
 */
static ssize_t dev_writev(int fd, struct iovec *iov, int count,
			  void *userdata)
{
	struct outbox *box = this_outbox;
	size_t n = 0;
	char *to;
	int i;

	(void)userdata;
	if (!box)
		return writev(fd, iov, count);
	for (i = 0; i < count; i++)
		n += iov[i].iov_len;
	if (e2fold_array_reserve((void **)&box->bytes, &box->cap,
				 box->len + sizeof(n) + n, 1))
		return writev(fd, iov, count);
	to = box->bytes + box->len;
	memcpy(to, &n, sizeof(n));
	to += sizeof(n);
	for (i = 0; i < count; i++) {
		memcpy(to, iov[i].iov_base, iov[i].iov_len);
		to += iov[i].iov_len;
	}
	box->len += sizeof(n) + n;
	return n;
}

static ssize_t dev_read(int fd, void *buf, size_t len, void *userdata)
{
	(void)userdata;
	return read(fd, buf, len);
}

/*
 * Write what the outbox holds. ENOENT: the request was interrupted and
 * its answer is not wanted (libfuse ignores it too); ENODEV: unmounted.
 */
static void send_outbox(int fd, struct outbox *box)
{
	size_t at = 0, n;

	while (at < box->len) {
		memcpy(&n, box->bytes + at, sizeof(n));
		at += sizeof(n);
		if (write(fd, box->bytes + at, n) < 0 && errno != ENOENT &&
		    errno != ENODEV)
			com_err("e2fold-fuse", errno, "while writing a reply "
				"to the FUSE device");
		at += n;
	}
	box->len = 0;
}

static void wake_main(struct pool *p)
{
	uint64_t one = 1;

	if (write(p->wake, &one, sizeof(one)) < 0 && errno != EAGAIN)
		com_err("e2fold-fuse", errno, "while waking the timers");
}

/*
 * A worker: read a request, serve it under the lock, write its replies.
 * Cancellation (the session's end) is allowed only while it waits for a
 * request, so a request read is always served whole.
 */
static void *serve_requests(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;
	int res, wake, deferred = p->deferred;

	/* Named, for top -H and the tests (at most 15 bytes). */
	pthread_setname_np(pthread_self(), "e2fuse-worker");
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	while (!fuse_session_exited(p->se)) {
		pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
		res = fuse_session_receive_buf(p->se, &w->buf);
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
		if (res == -EINTR)
			continue;
		if (res <= 0) {
			if (res < 0)
				com_err("e2fold-fuse", -res, "while reading a "
					"request from the FUSE device");
			pthread_mutex_lock(&p->lock);
			if (res < 0 && !p->err)
				p->err = -res;
			pthread_mutex_unlock(&p->lock);
			break;
		}
		pthread_mutex_lock(&p->lock);
		this_outbox = deferred ? &w->box : NULL;
		e2fuse_before_request(p->srv);
		fuse_session_process_buf(p->se, &w->buf);
		e2fuse_after_request(p->srv);
		this_outbox = NULL;
		wake = p->srv->timer_started;
		pthread_mutex_unlock(&p->lock);
		send_outbox(fuse_session_fd(p->se), &w->box);
		if (wake)
			wake_main(p);
	}
	/* Unmounted (ENODEV), or an error: the session ends for all. */
	fuse_session_exit(p->se);
	wake_main(p);
	return NULL;
}

/*
 * Run the timers until the session ends. The session's signals are
 * blocked but while waiting, so that one cannot come between the look
 * at fuse_session_exited and the wait.
 */
static void run_timers(struct pool *p, const sigset_t *waiting_mask)
{
	struct pollfd pfd = { .fd = p->wake, .events = POLLIN };
	uint64_t n;

	for (;;) {
		struct timespec ts, *tsp = NULL;
		int ms;

		pthread_mutex_lock(&p->lock);
		ms = e2fuse_run_timers(p->srv);
		pthread_mutex_unlock(&p->lock);
		if (fuse_session_exited(p->se))
			return;
		if (ms >= 0) {
			ts.tv_sec = ms / 1000;
			ts.tv_nsec = (ms % 1000) * 1000000L;
			tsp = &ts;
		}
		if (ppoll(&pfd, 1, tsp, waiting_mask) > 0 &&
		    read(p->wake, &n, sizeof(n)) < 0 && errno != EAGAIN)
			com_err("e2fold-fuse", errno, "while reading the "
				"timers' wakeup");
	}
}

int e2fuse_session_loop_mt(struct fuse_session *se, struct e2fuse *srv)
{
	const struct fuse_custom_io io = {
		.writev = dev_writev,
		.read = dev_read,
	};
	struct pool p = { .se = se, .srv = srv };
	unsigned int n = srv->opt.threads, started, i;
	struct worker *workers;
	sigset_t ends, was;
	int r;

	if (n < 1)
		n = 1;
	workers = calloc(n, sizeof(*workers));
	if (!workers)
		return ENOMEM;
	p.wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (p.wake < 0) {
		free(workers);
		return errno;
	}
	/* The device stays the session's: only reads and writes are ours. */
	fuse_set_log_func(log_nothing);
	p.deferred = fuse_session_custom_io(se, &io, fuse_session_fd(se)) == 0;
	fuse_set_log_func(NULL);
	pthread_mutex_init(&p.lock, NULL);
	e2fuse_signals_ending(&ends);
	pthread_sigmask(SIG_BLOCK, &ends, &was);
	for (started = 0; started < n; started++) {
		workers[started].pool = &p;
		r = pthread_create(&workers[started].thread, NULL,
				   serve_requests, &workers[started]);
		if (r)
			break;
	}
	if (started)
		run_timers(&p, &was);
	else
		p.err = r;
	fuse_session_exit(se);
	for (i = 0; i < started; i++)
		pthread_cancel(workers[i].thread);
	for (i = 0; i < started; i++) {
		pthread_join(workers[i].thread, NULL);
		free(workers[i].buf.mem);
		free(workers[i].box.bytes);
	}
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	pthread_mutex_destroy(&p.lock);
	close(p.wake);
	free(workers);
	fuse_session_reset(se);
	return p.err;
}
