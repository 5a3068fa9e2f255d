/*
 * options.c: the command line, `e2fold-fuse [-o OPTIONS] IMAGE
 * MOUNTPOINT`, into struct e2fuse_options and what libfuse still reads.
 *
 * Ours, taken out before libfuse sees them: fakeroot, uid=N, gid=N,
 * kernel=6.1|6.12|new, relatime|strictatime|noatime (the server keeps
 * atime: the kernel does not for FUSE), commit=N (ext4's, commit.c),
 * entry_timeout=S and attr_timeout=S (libfuse's names, cache.c),
 * writeback_cache (file.c),
 * remount, -V/--version, -h/--help. "ro" and "rw" are ours and also stay
 * for the kernel, which then refuses writes itself; the last of them
 * wins, as in mount(8), for both. Everything else (-f, -d, -s,
 * max_threads=N, other -o options) is libfuse's.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2fuse.h"
#include "version.h"

static const char *prog = "e2fold-fuse";

enum {
	KEY_HELP,
	KEY_VERSION,
	KEY_RO,
	KEY_RW,
	KEY_FAKEROOT,
	KEY_UID,
	KEY_GID,
	KEY_KERNEL,
	KEY_REMOUNT,
	KEY_RELATIME,
	KEY_STRICTATIME,
	KEY_NOATIME,
	KEY_COMMIT,
	KEY_ENTRY_TIMEOUT,
	KEY_ATTR_TIMEOUT,
	KEY_WRITEBACK_CACHE,
};

static const struct fuse_opt specs[] = {
	FUSE_OPT_KEY("-h", KEY_HELP),
	FUSE_OPT_KEY("--help", KEY_HELP),
	FUSE_OPT_KEY("-V", KEY_VERSION),
	FUSE_OPT_KEY("--version", KEY_VERSION),
	FUSE_OPT_KEY("ro", KEY_RO),
	FUSE_OPT_KEY("rw", KEY_RW),
	FUSE_OPT_KEY("fakeroot", KEY_FAKEROOT),
	FUSE_OPT_KEY("uid=", KEY_UID),
	FUSE_OPT_KEY("gid=", KEY_GID),
	FUSE_OPT_KEY("kernel=", KEY_KERNEL),
	FUSE_OPT_KEY("remount", KEY_REMOUNT),
	FUSE_OPT_KEY("relatime", KEY_RELATIME),
	FUSE_OPT_KEY("strictatime", KEY_STRICTATIME),
	FUSE_OPT_KEY("noatime", KEY_NOATIME),
	FUSE_OPT_KEY("commit=", KEY_COMMIT),
	FUSE_OPT_KEY("entry_timeout=", KEY_ENTRY_TIMEOUT),
	FUSE_OPT_KEY("attr_timeout=", KEY_ATTR_TIMEOUT),
	FUSE_OPT_KEY("writeback_cache", KEY_WRITEBACK_CACHE),
	FUSE_OPT_END
};

struct parse {
	struct e2fuse_options *opt;
	int answered;		/* --help or --version */
	int bad;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-o OPTIONS] IMAGE MOUNTPOINT\n"
		"Serve the ext4 filesystem in IMAGE (casefolded directories as Linux\n"
		"does) at MOUNTPOINT through FUSE.\n"
		"\n"
		"  -o ro              read-only\n"
		"  -o relatime        atime on access when older than mtime or ctime,\n"
		"                     or a day old (the default, as the kernel's)\n"
		"  -o strictatime     atime on every access;  -o noatime  never\n"
		"  -o commit=N        commit changes to the journal every N seconds\n"
		"                     (0: the default, 5), as well as on fsync and\n"
		"                     at unmount\n"
		"  -o entry_timeout=S how long the kernel may keep a name it was\n"
		"                     given (seconds, default 1; 0: ask every time)\n"
		"  -o attr_timeout=S  how long it may keep attributes (default 1)\n"
		"  -o writeback_cache the kernel keeps written pages and writes\n"
		"                     them in large requests (fuse.md, \"Writes\")\n"
		"  -o fakeroot        no permission checks: every access as root;\n"
		"                     other users get no access (unless allow_other)\n"
		"  -o uid=N, gid=N    show every inode as owned by user N, group N\n"
		"  -o kernel=GEN      lookups as Linux GEN does: 6.1, 6.12 or new\n"
		"                     (default new)\n"
		"  -o max_threads=N   serve with N threads (default 10)\n"
		"  -s                 serve with one thread\n"
		"  -f                 stay in the foreground\n"
		"  -d                 debug: print every FUSE request (implies -f)\n"
		"  -V, --version      print the version and exit\n"
		"  -h, --help         print this help and exit\n"
		"\n"
		"Other -o options are FUSE's (see mount.fuse3(8)).\n", prog);
}

static int parse_id(const char *arg, unsigned int *ret)
{
	const char *v = strchr(arg, '=') + 1;
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (!*v || *end || n > 0xffffffffUL)
		return -1;
	*ret = n;
	return 0;
}

/* A timeout: seconds, a fraction allowed, up to a day. */
static int parse_seconds(const char *arg, double *ret)
{
	const char *v = strchr(arg, '=') + 1;
	char *end;
	double t = strtod(v, &end);

	if (!*v || *end || !(t >= 0 && t <= 24 * 3600))
		return -1;
	*ret = t;
	return 0;
}

static int parse_kernel(const char *arg, enum e2fuse_kernel *ret)
{
	const char *v = strchr(arg, '=') + 1;

	if (!strcmp(v, "6.1"))
		*ret = E2FUSE_KERNEL_6_1;
	else if (!strcmp(v, "6.12"))
		*ret = E2FUSE_KERNEL_6_12;
	else if (!strcmp(v, "new"))
		*ret = E2FUSE_KERNEL_NEW;
	else
		return -1;
	return 0;
}

/* fuse_opt_parse's callback: 0 drops the argument, 1 keeps it for libfuse. */
static int take(void *data, const char *arg, int key,
		struct fuse_args *outargs EXT2FS_ATTR((unused)))
{
	struct parse *p = data;
	struct e2fuse_options *opt = p->opt;

	switch (key) {
	case FUSE_OPT_KEY_NONOPT:
		if (!opt->image) {
			opt->image = arg;
			return 0;
		}
		if (!opt->mountpoint) {
			opt->mountpoint = arg;
			return 1;
		}
		fprintf(stderr, "%s: unexpected argument '%s'\n", prog, arg);
		p->bad = 1;
		return 0;
	case KEY_HELP:
		usage(stdout);
		p->answered = 1;
		return 0;
	case KEY_VERSION:
		printf("%s (libfuse %s)\n", e2fold_version_banner(prog),
		       fuse_pkgversion());
		p->answered = 1;
		return 0;
	case KEY_RO:
	case KEY_RW:
		opt->readonly = key == KEY_RO;
		return 1;
	case KEY_REMOUNT:
		opt->remount = 1;
		return 0;
	case KEY_RELATIME:
	case KEY_STRICTATIME:
	case KEY_NOATIME:
		opt->atime = key == KEY_NOATIME ? E2FUSE_NOATIME :
			     key == KEY_STRICTATIME ? E2FUSE_STRICTATIME :
			     E2FUSE_RELATIME;
		return 0;
	case KEY_FAKEROOT:
		opt->fakeroot = 1;
		return 0;
	case KEY_WRITEBACK_CACHE:
		opt->writeback_cache = 1;
		return 0;
	case KEY_UID:
	case KEY_GID:
		if (parse_id(arg, key == KEY_UID ? &opt->uid : &opt->gid)) {
			fprintf(stderr, "%s: bad option '%s': a number is "
				"expected\n", prog, arg);
			p->bad = 1;
		} else if (key == KEY_UID) {
			opt->uid_set = 1;
		} else {
			opt->gid_set = 1;
		}
		return 0;
	case KEY_COMMIT:
		if (parse_id(arg, &opt->commit_secs) ||
		    opt->commit_secs > E2FUSE_MAX_COMMIT) {
			fprintf(stderr, "%s: bad option '%s': a number of "
				"seconds up to %u is expected\n", prog, arg,
				E2FUSE_MAX_COMMIT);
			p->bad = 1;
		}
		return 0;
	case KEY_ENTRY_TIMEOUT:
	case KEY_ATTR_TIMEOUT:
		if (parse_seconds(arg, key == KEY_ENTRY_TIMEOUT ?
				  &opt->entry_timeout : &opt->attr_timeout)) {
			fprintf(stderr, "%s: bad option '%s': a number of "
				"seconds up to 86400 is expected\n", prog, arg);
			p->bad = 1;
		}
		return 0;
	case KEY_KERNEL:
		if (parse_kernel(arg, &opt->kernel)) {
			fprintf(stderr, "%s: bad option '%s': the kernel is "
				"6.1, 6.12 or new\n", prog, arg);
			p->bad = 1;
		}
		return 0;
	}
	return 1;
}

/* The mount options every mount gets. */
static int add_defaults(const struct e2fuse_options *opt,
			struct fuse_args *args)
{
	char *fsname, *o, *path;
	const char *c;
	int r = 0;

	/* The kernel checks modes, as for ext4; fakeroot lets all through. */
	if (!opt->fakeroot)
		r |= fuse_opt_add_arg(args, "-odefault_permissions");
	/*
	 * Mounted by root, it serves every user, as a kernel mount does; but
	 * not with fakeroot, which would give every local user root's rights
	 * (ask for allow_other by name to share such a mount).
	 */
	if (geteuid() == 0 && !opt->fakeroot)
		r |= fuse_opt_add_arg(args, "-oallow_other");
	/*
	 * The type is then fuse.e2fold-fuse, and mount.fuse3 runs the
	 * program of that name for a remount (remount.c).
	 */
	r |= fuse_opt_add_arg(args, "-osubtype=e2fold-fuse");
	/*
	 * The image's absolute path names the mount (',' and '\\' escaped
	 * for -o), so that ext2fs_check_if_mounted, which compares the
	 * files /proc/mounts names, sees a second server of the same image.
	 */
	path = realpath(opt->image, NULL);
	fsname = malloc(2 * strlen(path ? path : opt->image) + 16);
	if (!fsname) {
		free(path);
		return -1;
	}
	o = fsname + sprintf(fsname, "-ofsname=");
	for (c = path ? path : opt->image; *c; c++) {
		if (*c == ',' || *c == '\\')
			*o++ = '\\';
		*o++ = *c;
	}
	*o = '\0';
	r |= fuse_opt_add_arg(args, fsname);
	free(fsname);
	free(path);
	return r;
}

int e2fuse_parse_options(int argc, char **argv, struct e2fuse_options *opt,
			 struct fuse_args *args)
{
	struct parse p = { opt, 0, 0 };
	struct fuse_cmdline_opts cmd;

	memset(opt, 0, sizeof(*opt));
	opt->kernel = E2FUSE_KERNEL_NEW;
	opt->entry_timeout = E2FUSE_DEFAULT_TIMEOUT;
	opt->attr_timeout = E2FUSE_DEFAULT_TIMEOUT;
	args->argc = argc;
	args->argv = argv;
	args->allocated = 0;
	if (fuse_opt_parse(args, &p, specs, take) == -1)
		return 2;
	if (p.answered)
		return 1;
	if (p.bad)
		return 2;
	if (!opt->image || !opt->mountpoint) {
		usage(stderr);
		return 2;
	}
	memset(&cmd, 0, sizeof(cmd));
	if (fuse_parse_cmdline(args, &cmd) != 0)
		return 2;
	opt->foreground = cmd.foreground;
	opt->debug = cmd.debug;
	opt->threads = cmd.singlethread ? 1 : cmd.max_threads;
	free(cmd.mountpoint);
	return add_defaults(opt, args) ? 2 : 0;
}
