/*
 * e2fold-fuse: serve an ext4 image through FUSE, its casefolded
 * directories answering lookups as Linux does (doc/fuse.md).
 *
 * The image is opened and checked before anything is mounted, so that
 * every refusal is an exit status and a message, not a dead mount. The
 * low-level API is used because its lookup(parent, name) is exactly the
 * question the kernel asks ext4.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <et/com_err.h>

#include "e2fuse.h"

static void init(void *userdata, struct fuse_conn_info *conn)
{
	struct e2fuse *srv = userdata;

	/*
	 * The umask reaches the server unapplied: a parent's default ACL
	 * replaces it (create.c), as for ext4.
	 */
	if (conn->capable & FUSE_CAP_DONT_MASK)
		conn->want |= FUSE_CAP_DONT_MASK;
	/*
	 * POSIX ACLs: the kernel checks access with them (this turns on
	 * default_permissions, so not with fakeroot) and hands the ACL
	 * attributes through; the server keeps them as ext4 does (acl.c).
	 */
	if ((conn->capable & FUSE_CAP_POSIX_ACL) && e2fuse_acl_on(srv) &&
	    !srv->opt.fakeroot)
		conn->want |= FUSE_CAP_POSIX_ACL;
	/* chattr and lsattr open directories too. */
	if (conn->capable & FUSE_CAP_IOCTL_DIR)
		conn->want |= FUSE_CAP_IOCTL_DIR;
	/* open(O_TRUNC) truncates in e2fuse_open_file. */
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	/*
	 * File handles (NFS export, open_by_handle_at): the kernel asks for
	 * "." in an inode it no longer holds (lookup.c).
	 */
	if (conn->capable & FUSE_CAP_EXPORT_SUPPORT)
		conn->want |= FUSE_CAP_EXPORT_SUPPORT;
	/*
	 * Every listing with attributes: a program reads a directory whole
	 * before it stats the names (ls -l, find, fts), so the kernel's
	 * automatic choice would bring attributes for the first buffer only.
	 */
	conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
	/*
	 * Writes reach the server as the program makes them, unless asked
	 * (file.c): then the kernel keeps them in its page cache and sends
	 * whole pages later, as it does for ext4.
	 */
	if (srv->opt.writeback_cache && !srv->opt.readonly &&
	    (conn->capable & FUSE_CAP_WRITEBACK_CACHE))
		conn->want |= FUSE_CAP_WRITEBACK_CACHE;
	else
		conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
}

static void destroy(void *userdata)
{
	e2fuse_cache_free(userdata);
	e2fuse_listings_free(userdata);
	e2fuse_close(userdata);
}

static const struct fuse_lowlevel_ops ops = {
	.init = init,
	.destroy = destroy,
	.lookup = e2fuse_lookup,
	.forget = e2fuse_forget,
	.forget_multi = e2fuse_forget_multi,
	.getattr = e2fuse_getattr,
	.setattr = e2fuse_setattr,
	.readlink = e2fuse_readlink,
	.mknod = e2fuse_mknod,
	.mkdir = e2fuse_mkdir,
	.unlink = e2fuse_unlink,
	.rmdir = e2fuse_rmdir,
	.symlink = e2fuse_symlink,
	.rename = e2fuse_rename,
	.link = e2fuse_link,
	.open = e2fuse_open_file,
	.read = e2fuse_read,
	.write = e2fuse_write,
	.flush = e2fuse_flush,
	.fsync = e2fuse_fsync,
	.fsyncdir = e2fuse_fsync,
	.fallocate = e2fuse_fallocate,
	.opendir = e2fuse_opendir,
	.readdir = e2fuse_readdir,
	.readdirplus = e2fuse_readdirplus,
	.releasedir = e2fuse_releasedir,
	.statfs = e2fuse_statfs,
	.setxattr = e2fuse_setxattr,
	.getxattr = e2fuse_getxattr,
	.listxattr = e2fuse_listxattr,
	.removexattr = e2fuse_removexattr,
	.create = e2fuse_create,
	.ioctl = e2fuse_ioctl,
};

/* Mount, serve until unmounted, unmount. Returns the exit status. */
static int serve(struct e2fuse *srv, struct fuse_args *args)
{
	struct fuse_session *se;
	char *mountpoint = NULL;
	int status = 1;

	se = fuse_session_new(args, &ops, sizeof(ops), srv);
	if (!se)
		return 1;
	if (e2fuse_signals_catch(se) != 0)
		goto out_signals;
	/*
	 * Absolute: libfuse changes to / before serving, and the unmount
	 * that follows a signal names the mountpoint again.
	 */
	mountpoint = realpath(srv->opt.mountpoint, NULL);
	if (fuse_session_mount(se, mountpoint ? mountpoint :
				   srv->opt.mountpoint) != 0)
		goto out_signals;
	srv->se = se;
	if (fuse_daemonize(srv->opt.foreground) == 0 &&
	    (srv->opt.threads > 1 ? e2fuse_session_loop_mt(se, srv) :
				    e2fuse_session_loop(se, srv)) == 0)
		status = 0;
	/* Held replies go before the session does (a signal ended it). */
	e2fuse_cache_free(srv);
	fuse_session_unmount(se);
out_signals:
	e2fuse_signals_release(srv->opt.image);
	fuse_session_destroy(se);
	free(mountpoint);
	srv->se = NULL;
	return status;
}

int main(int argc, char **argv)
{
	struct fuse_args args;
	struct e2fuse srv;
	int r, asked_ro;

	/* libext2fs's messages for its error codes, in com_err's reports. */
	add_error_table(&et_ext2_error_table);
	memset(&srv, 0, sizeof(srv));
	r = e2fuse_parse_options(argc, argv, &srv.opt, &args);
	if (r) {
		fuse_opt_free_args(&args);
		return r == 1 ? 0 : 2;
	}
	if (srv.opt.remount) {
		fuse_opt_free_args(&args);
		return e2fuse_remount(&srv.opt);
	}
	asked_ro = srv.opt.readonly;
	if (e2fuse_open(&srv)) {
		fuse_opt_free_args(&args);
		return 1;
	}
	/* Served read-only after all (e2fuse_open said why): tell the kernel. */
	if (srv.opt.readonly && !asked_ro && fuse_opt_add_arg(&args, "-oro")) {
		e2fuse_close(&srv);
		fuse_opt_free_args(&args);
		return 1;
	}
	r = serve(&srv, &args);
	/* destroy() closes; not called if the mount failed. */
	if (e2fuse_close(&srv))
		r = 1;
	fuse_opt_free_args(&args);
	return r;
}
