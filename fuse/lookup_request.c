/*
 * lookup_request.c: FUSE's LOOKUP, the kernel's question "which inode has
 * this name here?"
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "e2fuse.h"

void e2fuse_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct e2fuse_found f;
	int err;

	err = e2fuse_find(srv, e2fuse_ino(parent), name, &f);
	if (err)
		fuse_reply_err(req, err);
	else if (!f.ino)
		fuse_reply_err(req, ENOENT);
	else
		e2fuse_reply_entry(req, f.ino);
}
