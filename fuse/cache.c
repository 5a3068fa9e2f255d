/*
 * cache.c: what the kernel's FUSE client may keep, for how long, and how
 * it is kept true (doc/fuse.md, "The kernel's caches").
 *
 * Attributes are cached for attr_timeout seconds: every change to an
 * inode comes through this server, and the kernel drops its copy itself
 * after the requests that change one (write, setattr, link, unlink,
 * rename, setxattr); where the server changes what the kernel does not
 * expect (a mode an ACL sets, the flags chattr sets), e2fuse_attr_changed
 * tells it.
 *
 * Positive entries are cached for entry_timeout seconds; negative ones
 * never, since a creation in a casefolded directory would have to drop
 * every spelling the kernel was told is absent, and the kernel does not
 * say which those are. The kernel's dentry cache compares names byte by
 * byte, so in a casefolded directory one entry may be cached under
 * several spellings ("foo" and "FOO"). A directory cannot: the kernel
 * keeps one dentry per directory inode and moves it to the spelling
 * looked up last (d_splice_alias). A file can, and when its entry goes
 * (unlink, or a rename from or over it) through one spelling, the others
 * would still lead to it. The kernel holds the directory locked until the
 * reply, so they cannot be dropped before it (an invalidation takes that
 * lock): instead the server remembers every spelling of a file it handed
 * out in a casefolded directory with its expiry, and holds the reply of
 * such a removal until the other spellings have expired.
 *
 * Nothing drops them afterwards. A thread that did would wait in the
 * kernel, unkillable, for the directory's lock, which the held request
 * keeps; a server killed meanwhile could not finish dying, its device
 * stayed open and every process waiting on the mount hung for good.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array.h"
#include "e2fuse.h"

/*
 * The kernel sets a dentry's expiry when the process that asked wakes up,
 * rounded up to its clock tick: how much later than our reply that may
 * be, as a rule (a process woken later keeps its spelling longer).
 */
#define EXPIRY_SLACK 0.1

/* A spelling of a file's entry that the kernel may hold. */
struct alias {
	struct alias *next;
	ext2_ino_t dir, ino;
	double until;
	unsigned int len;
	char name[];
};

/* A reply held until its time. */
struct held_reply {
	fuse_req_t req;
	int err;
	double at;
};

struct e2fuse_cache {
	struct alias **buckets;
	size_t nbuckets, naliases;
	struct held_reply *held;
	size_t nheld, held_cap;
};

double e2fuse_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct e2fuse_cache *cache_of(struct e2fuse *srv)
{
	if (!srv->cache)
		srv->cache = calloc(1, sizeof(*srv->cache));
	return srv->cache;
}

/* The bucket of (dir, ino) in a table of nbuckets, a power of two. */
static size_t slot_in(size_t nbuckets, ext2_ino_t dir, ext2_ino_t ino)
{
	return ((dir * 2654435761u) ^ (ino * 40503u)) & (nbuckets - 1);
}

static size_t bucket_of(const struct e2fuse_cache *c, ext2_ino_t dir,
			ext2_ino_t ino)
{
	return slot_in(c->nbuckets, dir, ino);
}

/* Forget the aliases that have expired. */
static void prune(struct e2fuse_cache *c, double now)
{
	size_t b;

	for (b = 0; b < c->nbuckets; b++) {
		struct alias **p = &c->buckets[b];

		while (*p) {
			struct alias *a = *p;

			if (a->until < now) {
				*p = a->next;
				free(a);
				c->naliases--;
			} else {
				p = &a->next;
			}
		}
	}
}

/* Room for one more alias: expired ones go first, then the table grows. */
static int make_room(struct e2fuse_cache *c, double now)
{
	struct alias **buckets;
	size_t n, b;

	if (c->naliases < 2 * c->nbuckets)
		return 0;
	prune(c, now);
	if (c->nbuckets && c->naliases < c->nbuckets)
		return 0;
	n = c->nbuckets ? 2 * c->nbuckets : 256;
	buckets = calloc(n, sizeof(*buckets));
	if (!buckets)
		return -1;
	for (b = 0; b < c->nbuckets; b++) {
		while (c->buckets[b]) {
			struct alias *a = c->buckets[b];
			size_t to = slot_in(n, a->dir, a->ino);

			c->buckets[b] = a->next;
			a->next = buckets[to];
			buckets[to] = a;
		}
	}
	free(c->buckets);
	c->buckets = buckets;
	c->nbuckets = n;
	return 0;
}

/* Remember that the kernel may hold name in dir for ino until then. */
static void remember(struct e2fuse *srv, ext2_ino_t dir, const char *name,
		     size_t len, ext2_ino_t ino, double until)
{
	struct e2fuse_cache *c = cache_of(srv);
	struct alias *a;

	if (!c)
		return;
	if (c->nbuckets) {
		for (a = c->buckets[bucket_of(c, dir, ino)]; a; a = a->next) {
			if (a->dir == dir && a->ino == ino && a->len == len &&
			    !memcmp(a->name, name, len)) {
				a->until = until;
				return;
			}
		}
	}
	if (make_room(c, e2fuse_monotonic()))
		return;
	a = malloc(sizeof(*a) + len);
	if (!a)
		return;
	a->dir = dir;
	a->ino = ino;
	a->until = until;
	a->len = len;
	memcpy(a->name, name, len);
	a->next = c->buckets[bucket_of(c, dir, ino)];
	c->buckets[bucket_of(c, dir, ino)] = a;
	c->naliases++;
}

double e2fuse_attr_timeout(const struct e2fuse *srv)
{
	return srv->opt.attr_timeout;
}

void e2fuse_cache_entry(struct e2fuse *srv, ext2_ino_t dir, int casefolded,
			const char *name, size_t len, ext2_ino_t ino,
			const struct ext2_inode_large *inode,
			struct fuse_entry_param *e)
{
	struct ext2_inode_large parent;

	e->attr_timeout = srv->opt.attr_timeout;
	e->entry_timeout = srv->opt.entry_timeout;
	if (!dir || !e->entry_timeout || LINUX_S_ISDIR(inode->i_mode))
		return;
	if (casefolded < 0) {
		if (e2fuse_read_inode(srv, dir, &parent)) {
			e->entry_timeout = 0;	/* unknown: let nothing be cached */
			return;
		}
		casefolded = !!(parent.i_flags & EXT4_CASEFOLD_FL);
	}
	/*
	 * Without folding (no flag, or no encoding to fold with), the
	 * kernel's byte compare is the lookup's.
	 */
	if (!casefolded || !srv->um)
		return;
	remember(srv, dir, name, len, ino,
		 e2fuse_monotonic() + e->entry_timeout + EXPIRY_SLACK);
}

static int same_name(const struct alias *a, const char *name, size_t len)
{
	return a->len == len && !memcmp(a->name, name, len);
}

/*
 * Does the alias lead to the entry f (and not to a second hard link of
 * the same file in the directory)?
 */
static int same_entry(struct e2fuse *srv, const struct alias *a,
		      const struct e2fuse_found *f)
{
	char spelling[EXT2_NAME_LEN + 1];
	struct e2fuse_found other;

	memcpy(spelling, a->name, a->len);
	spelling[a->len] = '\0';
	return !e2fuse_find(srv, a->dir, spelling, &other) &&
	       other.ino == f->ino && other.lblk == f->lblk &&
	       other.offset == f->offset;
}

double e2fuse_cache_release(struct e2fuse *srv, ext2_ino_t dir,
			    const char *name, const struct e2fuse_found *f)
{
	struct e2fuse_cache *c = srv->cache;
	size_t len = strlen(name);
	struct alias **p;
	double now, at = 0;

	if (!c || !c->nbuckets || !f->ino)
		return 0;
	now = e2fuse_monotonic();
	p = &c->buckets[bucket_of(c, dir, f->ino)];
	while (*p) {
		struct alias *a = *p;
		int other = !same_name(a, name, len) && a->until > now;

		if (a->dir != dir || a->ino != f->ino ||
		    (other && !same_entry(srv, a, f))) {
			p = &a->next;	/* another entry's, still held */
			continue;
		}
		if (other && a->until > at)
			at = a->until;
		*p = a->next;
		free(a);
		c->naliases--;
	}
	return at;
}

void e2fuse_reply_err_at(fuse_req_t req, int err, double at)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct e2fuse_cache *c = srv->cache;

	if (at > e2fuse_monotonic() && c &&
	    !e2fold_array_reserve((void **)&c->held, &c->held_cap,
				  c->nheld + 1, sizeof(*c->held))) {
		c->held[c->nheld].req = req;
		c->held[c->nheld].err = err;
		c->held[c->nheld].at = at;
		c->nheld++;
		srv->timer_started = 1;
		return;
	}
	fuse_reply_err(req, err);
}

int e2fuse_send_held_replies(struct e2fuse *srv, int all)
{
	struct e2fuse_cache *c = srv->cache;
	double now, next = 0;
	size_t i = 0;

	if (!c || !c->nheld)
		return -1;
	now = e2fuse_monotonic();
	while (i < c->nheld) {
		if (all || c->held[i].at <= now) {
			fuse_reply_err(c->held[i].req, c->held[i].err);
			c->held[i] = c->held[--c->nheld];
		} else {
			if (!next || c->held[i].at < next)
				next = c->held[i].at;
			i++;
		}
	}
	if (!c->nheld)
		return -1;
	return (int)((next - now) * 1000) + 1;
}

void e2fuse_attr_changed(struct e2fuse *srv, ext2_ino_t ino)
{
	/*
	 * Attributes only: the kernel takes no lock for it, so the request
	 * that made the change may send it before its reply.
	 */
	if (srv->se && srv->opt.attr_timeout > 0)
		fuse_lowlevel_notify_inval_inode(srv->se, e2fuse_node(ino),
						 -1, 0);
}

void e2fuse_cache_free(struct e2fuse *srv)
{
	struct e2fuse_cache *c = srv->cache;
	size_t b;

	if (!c)
		return;
	e2fuse_send_held_replies(srv, 1);
	for (b = 0; b < c->nbuckets; b++) {
		while (c->buckets[b]) {
			struct alias *a = c->buckets[b];

			c->buckets[b] = a->next;
			free(a);
		}
	}
	free(c->buckets);
	free(c->held);
	free(c);
	srv->cache = NULL;
}
