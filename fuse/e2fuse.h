/*
 * e2fuse.h: what the parts of e2fold-fuse share: the served filesystem
 * (a server), its options, and the FUSE operations each file implements.
 *
 * FUSE node ids are ext4 inode numbers, except that FUSE's root (1) is
 * ext4's root (2); inode 1 (bad blocks) is never shown. libext2fs is not
 * thread-safe, so every operation runs to completion before the next:
 * the threads of workers.c take turns under one lock.
 */
#ifndef E2FOLD_E2FUSE_H
#define E2FOLD_E2FUSE_H

#define FUSE_USE_VERSION 35

#include <signal.h>
#include <sys/stat.h>
#include <fuse_lowlevel.h>
#include <ext2fs/ext2fs.h>

#include "dirread.h"
#include "encoding.h"
#include "lookup.h"

/* Whose lookup semantics are served (doc/fuse.md, "Kernel generations"). */
enum e2fuse_kernel {
	E2FUSE_KERNEL_6_1,	/* no linear fallback after a hashed miss */
	E2FUSE_KERNEL_6_12,	/* fallback unless no_compat_fallback */
	E2FUSE_KERNEL_NEW,	/* as 6.12 */
};

/* The command line, parsed (options.c). */
/* When reads update atime, as ext4's mount options say. */
enum e2fuse_atime {
	E2FUSE_RELATIME,	/* the kernel's default */
	E2FUSE_STRICTATIME,	/* every access */
	E2FUSE_NOATIME,		/* never */
};

struct e2fuse_options {
	const char *image;
	const char *mountpoint;
	int readonly;
	int fakeroot;		/* no permission checks: every access as root */
	int uid_set, gid_set;	/* present every inode with this owner/group */
	unsigned int uid, gid;
	enum e2fuse_kernel kernel;
	enum e2fuse_atime atime;
	int remount;		/* -o remount: change the mount, serve nothing */
	unsigned int commit_secs;	/* -o commit=N; 0: the default */
	double entry_timeout;	/* -o entry_timeout=S: names (cache.c) */
	double attr_timeout;	/* -o attr_timeout=S: attributes */
	unsigned int threads;	/* libfuse's -o max_threads=N; -s: 1 */
	int writeback_cache;	/* the kernel's page cache takes writes */
	int foreground, debug;
};

struct e2fuse {
	struct e2fuse_options opt;
	ext2_filsys fs;
	const struct e2fold_encoding *enc;	/* NULL: no casefold feature */
	struct unicode_map *um;			/* enc's engine */
	__u16 clean_state;	/* s_state before a read-write mount */
	int failed;		/* corruption met: no more writes (errors.c) */
	int journaled;		/* writes go through the journal (commit.c) */
	double txn_start;	/* when the open transaction got its first
				 * change (monotonic seconds); 0: none */
	int timer_started;	/* a commit or a held reply got a timer since
				 * the timers last ran (workers.c wakes them) */
	struct fuse_session *se;	/* while serving: for notifications */
	struct e2fuse_cache *cache;	/* what the kernel holds (cache.c) */
	struct listing *listings;	/* open directories (readdir.c) */
	struct e2fuse_index_cache *indexes;	/* dxcache.c */
	/* The inodes the kernel holds, and the orphans among them (refs.c). */
	struct e2fuse_ref *refs;	/* a hash table of refs_cap slots */
	size_t nrefs, refs_cap;
	ext2_ino_t *orphans;		/* the on-disk orphan list, in order */
	size_t norphans, orphans_cap;
};

/* ---- commit.c ---- */

/* ext4's default commit interval, and the largest commit= it takes. */
#define E2FUSE_DEFAULT_COMMIT 5
#define E2FUSE_MAX_COMMIT (24 * 3600)

/*
 * Make every change so far durable: with a journal, commit the open
 * transaction (atomic); without, write what libext2fs holds and flush
 * the device. Returns an errcode_t.
 */
errcode_t e2fuse_commit(struct e2fuse *srv);

/*
 * Between two requests: before one, commit if the transaction could not
 * take it; after one, start the commit timer at the first change.
 */
void e2fuse_before_request(struct e2fuse *srv);
void e2fuse_after_request(struct e2fuse *srv);

/* Milliseconds until the timer's commit (made now if due); -1: none. */
int e2fuse_commit_due_ms(struct e2fuse *srv);

/* ---- dxcache.c ---- */

/*
 * The index of indexed directory dir (e2fold_dir_read_index), kept from
 * an earlier request if nothing was written since: 0 with *ret_dir, to
 * give back with e2fuse_index_done (its entries are those of the last
 * e2fold_dir_read_blocks), or e2fold_dir_read_index's error.
 */
errcode_t e2fuse_index_get(struct e2fuse *srv, ext2_ino_t dir,
			   struct e2fold_dir **ret_dir);
void e2fuse_index_done(struct e2fuse *srv, struct e2fold_dir *d);

/* Forget every kept index and free what keeps them (at close). */
void e2fuse_index_free(struct e2fuse *srv);

/* ---- cache.c ---- */

/* How long the kernel keeps names and attributes unless told (seconds). */
#define E2FUSE_DEFAULT_TIMEOUT 1.0

/* Monotonic seconds. */
double e2fuse_monotonic(void);

/* Seconds the kernel may keep an inode's attributes. */
double e2fuse_attr_timeout(const struct e2fuse *srv);

/*
 * The timeouts of an entry reply handing ino (inode) to the kernel as
 * name/len in dir (dir 0: no name, the "." of a file handle), and the
 * note of that spelling where the kernel's cache needs watching;
 * casefolded says whether dir has the casefold flag (-1: read dir to
 * know).
 */
void e2fuse_cache_entry(struct e2fuse *srv, ext2_ino_t dir, int casefolded,
			const char *name, size_t len, ext2_ino_t ino,
			const struct ext2_inode_large *inode,
			struct fuse_entry_param *e);

struct e2fuse_found;

/*
 * The entry f that name reaches in dir is about to go or to name another
 * inode: returns the monotonic time until which other spellings of it
 * may stay in the kernel's cache (0: none), the time its reply must wait
 * for, and has them dropped after that.
 */
double e2fuse_cache_release(struct e2fuse *srv, ext2_ino_t dir,
			    const char *name, const struct e2fuse_found *f);

/* Reply err to req at the monotonic time at (now if it has passed). */
void e2fuse_reply_err_at(fuse_req_t req, int err, double at);

/*
 * Send the held replies that are due (all of them if all); returns the
 * milliseconds until the next one, -1 if none is left.
 */
int e2fuse_send_held_replies(struct e2fuse *srv, int all);

/* The server changed ino's attributes where the kernel does not expect it. */
void e2fuse_attr_changed(struct e2fuse *srv, ext2_ino_t ino);

/* Send every held reply, free. */
void e2fuse_cache_free(struct e2fuse *srv);

/* ---- loop.c ---- */

/*
 * Serve requests until unmounted, one at a time, committing on the
 * timer and whenever the transaction nears the journal's room. Returns
 * 0, or an errno from reading /dev/fuse.
 */
int e2fuse_session_loop(struct fuse_session *se, struct e2fuse *srv);

/*
 * Between two requests: commit and send held replies whose time has
 * come. Returns the milliseconds until the next timer, -1 if none runs.
 */
int e2fuse_run_timers(struct e2fuse *srv);

/* ---- signals.c ---- */

/*
 * While serving, SIGHUP, SIGINT and SIGTERM end the session (unless
 * ignored already) and SIGPIPE is ignored; 0, or -1 with errno.
 */
int e2fuse_signals_catch(struct fuse_session *se);

/* The signals that end a session, into *set (workers.c blocks them). */
void e2fuse_signals_ending(sigset_t *set);

/* The signals as they were; says which ended the session, from whom. */
void e2fuse_signals_release(const char *image);

/* ---- workers.c ---- */

/*
 * e2fuse_session_loop's work with opt.threads threads, which take turns
 * with the server (one lock) and read requests and write replies in
 * parallel. Returns 0, or an errno from /dev/fuse or from starting them.
 */
int e2fuse_session_loop_mt(struct fuse_session *se, struct e2fuse *srv);

/* ---- remount.c ---- */

/*
 * -o remount: switch the mount at opt->mountpoint read-only or back, as
 * opt->readonly says. Returns the exit status, after saying why on error.
 */
int e2fuse_remount(const struct e2fuse_options *opt);

/* ---- errors.c ---- */

/* May requests write: not read-only, no corruption met? */
static inline int e2fuse_may_write(const struct e2fuse *srv)
{
	return !srv->opt.readonly && !srv->failed;
}

/* Is retval libext2fs's word for a corrupt structure or checksum? */
int e2fuse_is_corruption(errcode_t retval);

/*
 * Corruption retval met at inode ino (in func, a short name): logged,
 * recorded in the superblock as the kernel records it, and no request
 * writes after it (errors=remount-ro). Returns the errno to answer:
 * EBADMSG for a checksum, EUCLEAN for a structure, as ext4 answers.
 */
int e2fuse_corrupt(struct e2fuse *srv, ext2_ino_t ino, const char *func,
		   errcode_t retval);

/* ---- options.c ---- */

/*
 * Parse the command line into *opt and *args (what is left for libfuse:
 * the mount point and FUSE's own options). Returns 0; 1 when --help or
 * --version was answered; 2 after reporting a usage error.
 */
int e2fuse_parse_options(int argc, char **argv, struct e2fuse_options *opt,
			 struct fuse_args *args);

/* ---- mount.c ---- */

/*
 * Open the image as the options say and refuse what cannot be served
 * (reported, naming the image); mark a read-write filesystem as mounted
 * (not clean, mount time and count). Returns 0, or non-zero after
 * reporting.
 */
int e2fuse_open(struct e2fuse *srv);

/* Flush, mark clean again (read-write), close. Returns an errcode_t. */
errcode_t e2fuse_close(struct e2fuse *srv);

/* ---- node.c ---- */

/* Node id <-> inode number. */
ext2_ino_t e2fuse_ino(fuse_ino_t node);
fuse_ino_t e2fuse_node(ext2_ino_t ino);

/* The server behind a request. */
struct e2fuse *e2fuse_of(fuse_req_t req);

/* An errcode_t as the positive errno FUSE replies with. */
int e2fuse_errno(errcode_t retval);

/* The current time, as inodes store it (E2FSPROGS_FAKE_TIME honoured). */
__u32 e2fuse_now(struct e2fuse *srv);

errcode_t e2fuse_read_inode(struct e2fuse *srv, ext2_ino_t ino,
			    struct ext2_inode_large *inode);
errcode_t e2fuse_write_inode(struct e2fuse *srv, ext2_ino_t ino,
			     struct ext2_inode_large *inode);

#define E2FUSE_ATIME 0x1
#define E2FUSE_MTIME 0x2
#define E2FUSE_CTIME 0x4

/*
 * Set the times in which (E2FUSE_*TIME) to ts, or to now if ts is NULL,
 * with their nanoseconds where the inode has room for them.
 */
void e2fuse_set_times(struct e2fuse *srv, struct ext2_inode_large *inode,
		      int which, const struct timespec *ts);

/*
 * Inode ino was read (a file's data, a listing, a link's target): its
 * atime follows, as the mount's atime option says (relatime: only when
 * it is not after mtime and ctime, or is a day old). Never on a mount
 * that does not write; a failure is not the reader's.
 */
void e2fuse_accessed(struct e2fuse *srv, ext2_ino_t ino);

/* Fill st from inode ino (owner as -o uid=/gid= present it). */
void e2fuse_fill_stat(struct e2fuse *srv, ext2_ino_t ino,
		      const struct ext2_inode_large *inode, struct stat *st);

/*
 * The entry reply for ino, reached as name in dir (dir 0, name NULL: a
 * file handle's "."): its attributes and timeouts (cache.c). No lookup
 * count is taken.
 */
errcode_t e2fuse_fill_entry(struct e2fuse *srv, ext2_ino_t dir,
			    const char *name, ext2_ino_t ino,
			    struct fuse_entry_param *e);
/* The same, where the caller knows whether dir has the casefold flag. */
errcode_t e2fuse_fill_entry_in(struct e2fuse *srv, ext2_ino_t dir,
			       int casefolded, const char *name,
			       ext2_ino_t ino, struct fuse_entry_param *e);

/* Reply to a request that made or found ino as name in dir. */
void e2fuse_reply_entry(fuse_req_t req, ext2_ino_t dir, const char *name,
			ext2_ino_t ino);

/* Is the filesystem writable? If not, reply EROFS and return 0. */
int e2fuse_writable(fuse_req_t req);

/* ---- refs.c ---- */

/*
 * The kernel was handed ino (an entry reply): one more lookup to be
 * forgotten. Returns 0 or EXT2_ET_NO_MEMORY (then the reply must fail).
 */
errcode_t e2fuse_ref(struct e2fuse *srv, ext2_ino_t ino);

/* Does the kernel hold ino (a lookup not yet forgotten)? */
int e2fuse_held(const struct e2fuse *srv, ext2_ino_t ino);

/* The kernel forgot n lookups of ino; at none, an orphan is freed. */
void e2fuse_unref(struct e2fuse *srv, ext2_ino_t ino, __u64 n);

void e2fuse_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup);
void e2fuse_forget_multi(fuse_req_t req, size_t count,
			 struct fuse_forget_data *forgets);

/*
 * ino has lost its last link: freed now if the kernel does not hold it,
 * else put on the orphan list until it is forgotten.
 */
errcode_t e2fuse_unlinked(struct e2fuse *srv, ext2_ino_t ino);

/* Unmounting: free every orphan (forgets may not all come) and forget. */
void e2fuse_free_orphans(struct e2fuse *srv);

/*
 * A read-write mount: the orphan list a crash left is emptied, as the
 * kernel's orphan cleanup does: inodes without links freed, truncates
 * cut short finished.
 */
errcode_t e2fuse_orphan_cleanup(struct e2fuse *srv);

/* ---- names.c ---- */

/* What a lookup found. */
struct e2fuse_found {
	ext2_ino_t ino;
	blk64_t lblk;		/* where its entry is */
	unsigned int offset;
	int file_type;
};

/*
 * Look name up in directory dir as the served kernel would. Returns 0
 * with *ret (ret->ino 0: not there), or an errno: ENOTDIR, EINVAL (a
 * strict filesystem refuses the name), ENAMETOOLONG, EIO.
 */
int e2fuse_find(struct e2fuse *srv, ext2_ino_t dir, const char *name,
		struct e2fuse_found *ret);

/*
 * name looked up in d, a directory read whole (e2fold_dir_read), with
 * the served kernel's rules; 0 or an errno, *ret as e2fuse_find's.
 */
int e2fuse_find_in(struct e2fuse *srv, const struct e2fold_dir *d,
		   const char *name, struct e2fuse_found *ret);

/* ---- xattr.c ---- */

/*
 * The attributes of ino, read; close with ext2fs_xattrs_close. For a
 * write (write non-zero) the ext_attr feature is turned on first, as
 * ext4 turns it on; without it a read gets EXT2_ET_MISSING_EA_FEATURE
 * (no attributes).
 */
errcode_t e2fuse_xattrs_open(struct e2fuse *srv, ext2_ino_t ino, int write,
			     struct ext2_xattr_handle **ret_h);

/*
 * An attribute of ino changed: ctime is now, as ext4 sets it, and the
 * mode *mode if mode is not NULL (an ACL that set it).
 */
errcode_t e2fuse_xattr_changed(struct e2fuse *srv, ext2_ino_t ino,
			       const __u16 *mode);

/* ---- acl.c ---- */

extern const char e2fuse_acl_access[];	/* system.posix_acl_access */
extern const char e2fuse_acl_default[];	/* system.posix_acl_default */

/* Are POSIX ACLs served (the image's default mount options say acl)? */
int e2fuse_acl_on(const struct e2fuse *srv);

/* Is name one of the two ACL attributes? */
int e2fuse_acl_name(const char *name);

/*
 * Set ACL attribute name of ino to value (len bytes, the VFS layout), or
 * remove it (value NULL), for the caller of req, as ext4_set_acl: an
 * access ACL the mode can say is not stored but sets the mode, and
 * clears setgid unless the caller may keep it; ctime changes. Returns 0
 * or an errno: EINVAL (not a valid ACL), EACCES (a default ACL on a
 * non-directory), EOPNOTSUPP (ACLs not served).
 */
int e2fuse_acl_set(fuse_req_t req, ext2_ino_t ino, const char *name,
		   const void *value, size_t len);

/* chmod of ino to mode: its access ACL, if stored, follows. */
errcode_t e2fuse_acl_chmod(struct e2fuse *srv, ext2_ino_t ino, __u16 mode);

/* The ACLs a new inode is to get (VFS layout; NULL: none). */
struct e2fuse_new_acl {
	void *access, *dflt;
	size_t access_len, dflt_len;
};

/*
 * A new inode of *mode in dir (posix_acl_create): with dir's default
 * ACL, *mode is masked by it and *ret holds the ACLs to store; without,
 * the umask applies. Free *ret with e2fuse_acl_store_new or _free.
 */
errcode_t e2fuse_acl_create(struct e2fuse *srv, ext2_ino_t dir,
			    __u16 *mode, mode_t umask,
			    struct e2fuse_new_acl *ret);

/* Store acl's ACLs on the new inode ino, and free them. */
errcode_t e2fuse_acl_store_new(struct e2fuse *srv, ext2_ino_t ino,
			       struct e2fuse_new_acl *acl);
void e2fuse_acl_free(struct e2fuse_new_acl *acl);

/* ---- the operations, one file per kind ---- */

void e2fuse_lookup(fuse_req_t req, fuse_ino_t parent, const char *name);
void e2fuse_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void e2fuse_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		    int to_set, struct fuse_file_info *fi);
void e2fuse_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void e2fuse_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi);
void e2fuse_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			off_t off, struct fuse_file_info *fi);
/* Free the directories still open (their releasedir never came). */
void e2fuse_listings_free(struct e2fuse *srv);
void e2fuse_releasedir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi);
void e2fuse_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		  mode_t mode, dev_t rdev);
void e2fuse_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		  mode_t mode);
void e2fuse_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		   mode_t mode, struct fuse_file_info *fi);
void e2fuse_symlink(fuse_req_t req, const char *target, fuse_ino_t parent,
		    const char *name);
void e2fuse_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
		 const char *newname);
void e2fuse_unlink(fuse_req_t req, fuse_ino_t parent, const char *name);
void e2fuse_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name);
void e2fuse_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		   fuse_ino_t newparent, const char *newname,
		   unsigned int flags);
void e2fuse_open_file(fuse_req_t req, fuse_ino_t ino,
		      struct fuse_file_info *fi);
/* May the kernel keep a file's page cache from one open to the next? */
int e2fuse_keep_cache(const struct e2fuse *srv);
void e2fuse_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		 struct fuse_file_info *fi);
void e2fuse_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		  size_t size, off_t off, struct fuse_file_info *fi);
/*
 * Open a file's contents (ext2fs_file_open's flags); an inline-data
 * inode whose size exceeds its inline data is refused as garbage
 * (EXT2_ET_INODE_IS_GARBAGE), which libext2fs would read past.
 */
errcode_t e2fuse_file_open(struct e2fuse *srv, ext2_ino_t ino, int flags,
			   ext2_file_t *ret);

void e2fuse_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void e2fuse_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		  struct fuse_file_info *fi);
void e2fuse_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off,
		      off_t len, struct fuse_file_info *fi);
void e2fuse_readlink(fuse_req_t req, fuse_ino_t ino);
void e2fuse_statfs(fuse_req_t req, fuse_ino_t ino);
void e2fuse_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		     const char *value, size_t size, int flags);
void e2fuse_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		     size_t size);
void e2fuse_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size);
void e2fuse_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name);
void e2fuse_ioctl(fuse_req_t req, fuse_ino_t ino, unsigned int cmd, void *arg,
		  struct fuse_file_info *fi, unsigned flags,
		  const void *in_buf, size_t in_bufsz, size_t out_bufsz);

/* The flags an inode of this mode can carry, as ext4_mask_flags (ioctl.c). */
__u32 e2fuse_mask_flags(__u16 mode, __u32 flags);

/* ---- shared by the directory operations (dirops.c) ---- */

/*
 * May name be created in dir? 0, or the errno the kernel gives: EEXIST
 * (a lookup finds it), EINVAL (strict, invalid UTF-8), ENOKEY (encrypted
 * directory), ENOTDIR, ENAMETOOLONG.
 */
int e2fuse_may_create(struct e2fuse *srv, ext2_ino_t dir, const char *name);

/* Add name -> ino to dir (placed as the kernel would) and touch dir. */
errcode_t e2fuse_add_name(struct e2fuse *srv, ext2_ino_t dir,
			  const char *name, ext2_ino_t ino, int file_type);

/*
 * Add the new directory ino, named name, to dir (mkdir: "." and "..",
 * the name, dir's link count; lib/support's e2fold_dir_mkdir) and touch
 * dir.
 */
errcode_t e2fuse_add_dir(struct e2fuse *srv, ext2_ino_t dir,
			 const char *name, ext2_ino_t ino);

/* 0, or EMLINK where ext4 refuses dir another subdirectory. */
int e2fuse_may_link_dir(struct e2fuse *srv, ext2_ino_t dir);

/* Remove the entry found in dir and touch dir. */
errcode_t e2fuse_remove_entry(struct e2fuse *srv, ext2_ino_t dir,
			      const struct e2fuse_found *f);

/* One link fewer for ino (freed at none, or at its last release if open). */
errcode_t e2fuse_drop_link(struct e2fuse *srv, ext2_ino_t ino);

/* Is directory ino empty (only "." and "..")? */
errcode_t e2fuse_dir_empty(struct e2fuse *srv, ext2_ino_t ino, int *ret_empty);

/* The link count of dir changes by delta (its subdirectories' ".."). */
errcode_t e2fuse_adjust_links(struct e2fuse *srv, ext2_ino_t dir, int delta);

#endif /* E2FOLD_E2FUSE_H */
