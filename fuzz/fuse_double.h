/*
 * fuse_double.h: a test double of the few libfuse functions e2fold-fuse's
 * request handlers call (fuse_reply_*, fuse_add_direntry,
 * fuse_req_userdata, fuse_req_ctx), linked into fuzz_fuse instead of
 * libfuse, so that the handlers of fuse/ run unchanged, in process,
 * with no kernel and no mount.
 *
 * libfuse leaves struct fuse_req opaque; the double defines it: a request
 * the harness fills, passes to a handler, and reads the answer from. It
 * holds libfuse's contract for the handler: exactly one reply per
 * request (a second one is a use after free in libfuse, none leaves the
 * kernel's caller waiting forever), a positive errno, a buffer no larger
 * than the kernel asked for. A broken contract aborts (fuzz.h).
 */
#ifndef E2FOLD_FUZZ_FUSE_DOUBLE_H
#define E2FOLD_FUZZ_FUSE_DOUBLE_H

#include "e2fuse.h"

/* Which reply a request got. */
enum reply_kind {
	REPLY_NOTHING,		/* none yet */
	REPLY_OK,		/* fuse_reply_err(req, 0) */
	REPLY_ERR,		/* fuse_reply_err(req, errno) */
	REPLY_NONE,		/* fuse_reply_none (forget) */
	REPLY_ENTRY,
	REPLY_CREATE,
	REPLY_ATTR,
	REPLY_READLINK,
	REPLY_OPEN,
	REPLY_WRITE,
	REPLY_BUF,
	REPLY_STATFS,
	REPLY_XATTR,
	REPLY_IOCTL,
};

#define REPLY(kind) (1u << (kind))

struct fuse_req {
	void *userdata;		/* the server, as fuse_session_new was given it */
	struct fuse_ctx ctx;	/* the caller */
	size_t size;		/* read, readdir, xattr: the most the caller takes */
	const char *op;		/* for reports */
	unsigned int nreplies;
	enum reply_kind kind;
	int err;		/* REPLY_ERR */
	struct fuse_entry_param entry;	/* REPLY_ENTRY, REPLY_CREATE */
	struct stat attr;		/* REPLY_ATTR */
	size_t count;			/* REPLY_WRITE, REPLY_XATTR */
	unsigned char *buf;		/* REPLY_BUF, REPLY_READLINK: a copy */
	size_t len;
};

/* A fresh request to the server userdata for operation op. */
void double_req_init(struct fuse_req *req, void *userdata, const char *op,
		     size_t size);

/*
 * After the handler returned: it replied exactly once, with one of the
 * kinds in allowed (REPLY_ERR is always allowed, REPLY_OK only if
 * listed). Aborts otherwise.
 */
void double_req_check(const struct fuse_req *req, unsigned int allowed);

/* Free what the reply left (a copied buffer). */
void double_req_free(struct fuse_req *req);

#endif /* E2FOLD_FUZZ_FUSE_DOUBLE_H */
