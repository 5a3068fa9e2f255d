/*
 * fuse_double.c: libfuse's reply side, as fuse_lowlevel.h documents it,
 * for the handlers of fuse/ run in process (fuse_double.h). Nothing
 * is sent anywhere: each reply is recorded in the request.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <linux/fuse.h>

#include "fuzz.h"
#include "fuse_double.h"

void double_req_init(struct fuse_req *req, void *userdata, const char *op,
		     size_t size)
{
	memset(req, 0, sizeof(*req));
	req->userdata = userdata;
	req->ctx.uid = 0;
	req->ctx.gid = 0;
	req->ctx.pid = 1;
	req->ctx.umask = 022;
	req->op = op;
	req->size = size;
}

static void contract(const struct fuse_req *req, const char *what)
{
	fprintf(fuzz_report(), "request %s: %s\n", req->op, what);
	fuzz_fail(__FILE__, __LINE__, "libfuse's reply contract broken");
}

/* Every fuse_reply_* starts here: one reply per request. */
static void replied(fuse_req_t req, enum reply_kind kind)
{
	if (req->nreplies++)
		contract(req, "a second reply (libfuse has freed the request)");
	req->kind = kind;
}

static void copy_buf(fuse_req_t req, const void *buf, size_t len)
{
	req->buf = fuzz_malloc(len ? len : 1);
	if (len)	/* buf may be NULL for no bytes */
		memcpy(req->buf, buf, len);
	req->len = len;
}

void double_req_check(const struct fuse_req *req, unsigned int allowed)
{
	if (!req->nreplies)
		contract(req, "no reply (the kernel's caller waits forever)");
	if (req->kind != REPLY_ERR && !(allowed & REPLY(req->kind))) {
		fprintf(fuzz_report(), "request %s: reply kind %d\n", req->op,
			req->kind);
		contract(req, "a reply of the wrong kind");
	}
}

void double_req_free(struct fuse_req *req)
{
	free(req->buf);
	req->buf = NULL;
}

int fuse_reply_err(fuse_req_t req, int err)
{
	replied(req, err ? REPLY_ERR : REPLY_OK);
	/* libfuse sends -err: the handler gives a positive errno. */
	if (err < 0 || err >= 4096)
		contract(req, "fuse_reply_err with no positive errno");
	req->err = err;
	return 0;
}

void fuse_reply_none(fuse_req_t req)
{
	replied(req, REPLY_NONE);
}

/* The kernel refuses an entry with node id 0 unless it is negative. */
static void check_entry(fuse_req_t req, const struct fuse_entry_param *e)
{
	if (!e->ino)
		contract(req, "an entry with node id 0");
	req->entry = *e;
}

int fuse_reply_entry(fuse_req_t req, const struct fuse_entry_param *e)
{
	replied(req, REPLY_ENTRY);
	check_entry(req, e);
	return 0;
}

int fuse_reply_create(fuse_req_t req, const struct fuse_entry_param *e,
		      const struct fuse_file_info *fi)
{
	(void)fi;
	replied(req, REPLY_CREATE);
	check_entry(req, e);
	return 0;
}

int fuse_reply_attr(fuse_req_t req, const struct stat *attr,
		    double attr_timeout)
{
	(void)attr_timeout;
	replied(req, REPLY_ATTR);
	req->attr = *attr;
	return 0;
}

int fuse_reply_readlink(fuse_req_t req, const char *link)
{
	replied(req, REPLY_READLINK);
	copy_buf(req, link, strlen(link));
	return 0;
}

int fuse_reply_open(fuse_req_t req, const struct fuse_file_info *fi)
{
	(void)fi;
	replied(req, REPLY_OPEN);
	return 0;
}

int fuse_reply_write(fuse_req_t req, size_t count)
{
	replied(req, REPLY_WRITE);
	if (count > req->size)
		contract(req, "more bytes written than given");
	req->count = count;
	return 0;
}

int fuse_reply_buf(fuse_req_t req, const char *buf, size_t size)
{
	replied(req, REPLY_BUF);
	/* The kernel takes at most what it asked for (fuse_copy_out). */
	if (size > req->size)
		contract(req, "a buffer larger than the kernel asked for");
	copy_buf(req, buf, size);
	return 0;
}

int fuse_reply_statfs(fuse_req_t req, const struct statvfs *stbuf)
{
	(void)stbuf;
	replied(req, REPLY_STATFS);
	return 0;
}

int fuse_reply_xattr(fuse_req_t req, size_t count)
{
	replied(req, REPLY_XATTR);
	req->count = count;
	return 0;
}

int fuse_reply_ioctl(fuse_req_t req, int result, const void *buf, size_t size)
{
	(void)result;
	replied(req, REPLY_IOCTL);
	copy_buf(req, buf, size);
	return 0;
}

/*
 * One entry in the kernel's wire format (struct fuse_dirent, linux/fuse.h):
 * node id, the next entry's offset, name length, type, the name padded
 * to 8 bytes. Written only if it fits; its size is returned either way.
 */
size_t fuse_add_direntry(fuse_req_t req, char *buf, size_t bufsize,
			 const char *name, const struct stat *stbuf, off_t off)
{
	size_t namelen = strlen(name);
	size_t entsize = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + namelen);
	struct fuse_dirent d;

	(void)req;
	if (!buf || entsize > bufsize)
		return entsize;
	d.ino = stbuf->st_ino;
	d.off = off;
	d.namelen = namelen;
	d.type = (stbuf->st_mode & S_IFMT) >> 12;
	memset(buf, 0, entsize);
	memcpy(buf, &d, FUSE_NAME_OFFSET);
	memcpy(buf + FUSE_NAME_OFFSET, name, namelen);
	return entsize;
}

/*
 * The same with the entry before it (struct fuse_direntplus): its node
 * id (0: none handed out), generation and the attributes the handlers
 * fill.
 */
size_t fuse_add_direntry_plus(fuse_req_t req, char *buf, size_t bufsize,
			      const char *name,
			      const struct fuse_entry_param *e, off_t off)
{
	size_t namelen = strlen(name);
	size_t entsize = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET_DIRENTPLUS +
					   namelen);
	struct fuse_direntplus d;

	(void)req;
	if (!buf || entsize > bufsize)
		return entsize;
	memset(&d, 0, sizeof(d));
	d.entry_out.nodeid = e->ino;
	d.entry_out.generation = e->generation;
	d.entry_out.attr.ino = e->attr.st_ino;
	d.entry_out.attr.mode = e->attr.st_mode;
	d.entry_out.attr.size = e->attr.st_size;
	d.dirent.ino = e->attr.st_ino;
	d.dirent.off = off;
	d.dirent.namelen = namelen;
	d.dirent.type = (e->attr.st_mode & S_IFMT) >> 12;
	memset(buf, 0, entsize);
	memcpy(buf, &d, FUSE_NAME_OFFSET_DIRENTPLUS);
	memcpy(buf + FUSE_NAME_OFFSET_DIRENTPLUS, name, namelen);
	return entsize;
}

/*
 * The one notification: the handlers send it only with a session
 * (srv->se), which a run in process has not.
 */
int fuse_lowlevel_notify_inval_inode(struct fuse_session *se, fuse_ino_t ino,
				     off_t off, off_t len)
{
	(void)se;
	(void)ino;
	(void)off;
	(void)len;
	fuzz_fail(__FILE__, __LINE__, "a notification without a session");
	return -ENOSYS;
}

void *fuse_req_userdata(fuse_req_t req)
{
	return req->userdata;
}

const struct fuse_ctx *fuse_req_ctx(fuse_req_t req)
{
	return &req->ctx;
}

/* The caller's supplementary groups: unknown, as when /proc fails. */
int fuse_req_getgroups(fuse_req_t req, int size, gid_t list[])
{
	(void)req;
	(void)size;
	(void)list;
	return -ENOSYS;
}
