/*
 * debugfs.h: what the commands of e2fold-debugfs share: the open
 * filesystem (a session), argument helpers, and the directory views that
 * ls, htree_dump and collisions print.
 */
#ifndef E2FOLD_DEBUGFS_H
#define E2FOLD_DEBUGFS_H

#include <stdio.h>

#include <ext2fs/ext2fs.h>
#include <ss/ss.h>

#include "cfname.h"
#include "dirread.h"
#include "encoding.h"
#include "diredit.h"
#include "hashalg.h"

/*
 * How the filesystem is opened: debugfs's options. With a backup
 * superblock or an undo file the journal layer is left out (the undo
 * manager and it do not stack), and writes go straight to the disk, as
 * debugfs writes them.
 */
struct session_how {
	int writable;			/* -w */
	int flags;			/* EXT2_FLAG_*: -c, -D, -i, -n */
	blk64_t superblock;		/* -s; 0: the primary */
	unsigned int block_size;	/* -b */
	const char *undo_file;		/* -z */
	const char *data_source;	/* -d: the data of an -i image */
};

/* The filesystem a run of e2fold-debugfs works on. */
struct session {
	ext2_filsys fs;
	const char *device;
	int writable;			/* opened with -w */
	const struct e2fold_encoding *enc;	/* NULL: no casefold, or unknown */
	struct unicode_map *um;		/* enc's engine, NULL with it */
	ext2_ino_t cwd;
	int failed;			/* a command has failed */
	int bitmaps_loaded;
	struct session_how how;		/* as opened */
};

/* ---- session.c ---- */

/*
 * Open device (read-write if writable, as -w does; checksum errors are
 * ignored, for the commands judge them) with the engine of its encoding,
 * the current directory the root. A casefold filesystem whose encoding
 * is unknown is opened with a warning, its names compared as bytes.
 * Writable, on a filesystem with a journal e2fold writes (journal.h),
 * writes wait in memory for session_commit; a journal that needs
 * recovery is refused (EXT2_ET_JOURNAL_FLAGS_WRONG, said on stderr).
 */
errcode_t session_open(struct session *s, const char *device, int writable);

/* As session_open, the way how says (debugfs's -c -D -b -s -z -i -d). */
errcode_t session_open_how(struct session *s, const char *device,
			   const struct session_how *how);

/*
 * Make what the last command wrote one atomic change through the journal
 * (-w on a journaled filesystem; otherwise 0, the writes are on disk).
 */
errcode_t session_commit(struct session *s);

/* Write back what changed (-w), close, and unload the engine. */
errcode_t session_close(struct session *s);

/*
 * The argv libss hands to a command. A command must have exactly the
 * type the table calls it through (clang's UBSan checks calls through
 * function pointers), and libss changed it in e2fsprogs 1.47.1.
 */
#ifdef HAVE_SS_ARGV_T
typedef ss_argv_t cmd_argv_t;
#else
typedef const char *const *cmd_argv_t;
#endif

/* Every command, as libss calls it (the table is e2fold_cmds.ct). */
#define DEBUGFS_CMD(name) \
	void name(int argc, cmd_argv_t argv, int sci_idx, void *infop)

DEBUGFS_CMD(do_stats);
DEBUGFS_CMD(do_set_encoding_flags);
DEBUGFS_CMD(do_ls);
DEBUGFS_CMD(do_cd);
DEBUGFS_CMD(do_pwd);
DEBUGFS_CMD(do_dx_hash);
DEBUGFS_CMD(do_htree_dump);
DEBUGFS_CMD(do_collisions);
DEBUGFS_CMD(do_lookup);
DEBUGFS_CMD(do_dirsearch);
DEBUGFS_CMD(do_stat);
DEBUGFS_CMD(do_cat);
DEBUGFS_CMD(do_dump);
DEBUGFS_CMD(do_rdump);
DEBUGFS_CMD(do_mkdir);
DEBUGFS_CMD(do_write);
DEBUGFS_CMD(do_symlink);
DEBUGFS_CMD(do_mknod);
DEBUGFS_CMD(do_chattr);
DEBUGFS_CMD(do_unlink);
DEBUGFS_CMD(do_rm);
DEBUGFS_CMD(do_rmdir);
DEBUGFS_CMD(do_ln);
DEBUGFS_CMD(do_blocks);
DEBUGFS_CMD(do_icheck);
DEBUGFS_CMD(do_ncheck);
DEBUGFS_CMD(do_set_inode_field);
DEBUGFS_CMD(do_set_super_value);
DEBUGFS_CMD(do_system_read);
DEBUGFS_CMD(do_system_write);
DEBUGFS_CMD(do_system_maybe_write);
DEBUGFS_CMD(do_system_stateful);
DEBUGFS_CMD(do_lcd);

/* ---- cmd_helpers.c ---- */

/*
 * Report that a command failed: stdout is flushed first, so that the
 * message keeps its place in the output, then com_err(cmd, err, ...).
 */
void cmd_error(struct session *s, const char *cmd, errcode_t err,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* 0 if the filesystem was opened with -w; otherwise report and -1. */
int cmd_need_writable(struct session *s, const char *cmd);

/*
 * The end of every command that writes: what it wrote, done or failed
 * half way, becomes one transaction (session_commit); an error is
 * reported as the command's.
 */
void cmd_commit(struct session *s, const char *cmd);

/*
 * Options of a command: getopt over a private, writable copy of argv
 * (GNU getopt reorders it; libss hands it out const). Returns the copy,
 * to free; NULL when out of memory. optind is reset.
 */
char **args_begin(int argc, cmd_argv_t argv);

/*
 * The arguments of a command that takes -e (match names byte for byte,
 * not casefolded) and exactly nargs operands, from args_begin's copy:
 * *ret_exact says whether -e was given, and the operands start at
 * args[optind]. Returns 0, or -1 for a usage error (getopt has named a
 * bad option).
 */
int parse_exact_args(int argc, char **args, int nargs, int *ret_exact);

/*
 * The operands of "CMD [-e] DIR NAME" (lookup, dirsearch), from
 * args_begin's copy: NAME's bytes into name (E2FOLD_NAME_MAX + 1 bytes)
 * and *ret_len, DIR resolved (byte for byte with -e) into *ret_dir; DIR
 * as typed stays at args[optind]. Returns 0, or -1 after saying why
 * (usage: the command's usage line).
 */
int dir_name_operands(struct session *s, const char *cmd, int argc,
		      char **args, const char *usage, unsigned char *name,
		      size_t *ret_len, ext2_ino_t *ret_dir);

/*
 * What lookup and dirsearch share (lookup_command.c): directory ino read
 * into *ret_dir and name prepared for its lookups into *ret_lk. Returns
 * 0, or -1 after saying why; either way the caller frees both
 * (e2fold_dir_free, free), which may be NULL.
 */
struct e2fold_lookup;
int lookup_prepare(struct session *s, const char *cmd, ext2_ino_t ino,
		   const unsigned char *name, size_t len,
		   struct e2fold_dir **ret_dir, struct e2fold_lookup **ret_lk);

/*
 * The bytes an argument names: "\xHH" is the byte HH, "\\" a backslash,
 * as e2fold_escape_name prints them; everything else is itself. Returns
 * 0, or -1 if the result would exceed cap bytes.
 */
int arg_bytes(const char *arg, unsigned char *out, size_t cap,
	      size_t *ret_len);

/* A name, escaped for printing, in a static buffer per slot (0..3). */
const char *esc(int slot, const unsigned char *name, unsigned int len);

/*
 * A line the user typed, as typed, except that bytes which would disturb
 * a terminal are escaped (backslashes stay as they were typed).
 */
void print_typed(FILE *f, const char *line);

/* Bytes as lowercase hex without separators. */
void print_hex(FILE *f, const unsigned char *s, unsigned int len);

/* The superblock's seed as a UUID string, in buf (37 bytes). */
char *format_seed(const __u32 seed[4], char *buf);

/* A timestamp as "YYYY-MM-DD HH:MM:SS" in UTC. */
char *format_time(__s64 t, char *buf, size_t size);

/* The current time for new inodes (E2FSPROGS_FAKE_TIME honoured). */
__u32 session_now(struct session *s);

/* The type of a directory entry (EXT2_FT_*) as a short word. */
const char *file_type_name(int file_type);

/* The inode's mode as a file type word. */
const char *mode_type_name(__u16 mode);

/* ---- path.c ---- */

/* path_resolve() flags */
#define PATH_EXACT	0x1	/* compare bytes, even in casefolded directories */
#define PATH_FOLLOW	0x2	/* follow a symbolic link in the last component */

/*
 * Resolve a path (already unescaped) as the kernel would: relative to the
 * current directory unless it starts with '/', each component looked up
 * with e2fold_lookup (casefolded inside casefolded directories; exact
 * bytes with PATH_EXACT), "." and ".." by the directory's own entries,
 * symbolic links followed except in the last component (there too with
 * PATH_FOLLOW). As in debugfs, "<N>", the whole path, is inode N.
 */
errcode_t path_resolve(struct session *s, const unsigned char *path,
		       size_t len, int flags, ext2_ino_t *ret_ino);

/*
 * Split a path into the directory a new entry goes into (resolved as
 * above) and the new entry's name (a pointer into path).
 */
errcode_t path_resolve_parent(struct session *s, const unsigned char *path,
			      size_t len, int exact, ext2_ino_t *ret_dir,
			      const unsigned char **ret_name,
			      unsigned int *ret_name_len);

/*
 * The entry name/len leads to in directory dir, looked up as the kernel
 * does (bytes with exact): a copy with its place (lblk, offset) and
 * inode, name NULL. EXT2_ET_FILE_NOT_FOUND, or EINVAL where a strict
 * filesystem refuses the name.
 */
errcode_t path_lookup_entry(struct session *s, ext2_ino_t dir,
			    const unsigned char *name, unsigned int len,
			    int exact, struct e2fold_dirent *ret);

/*
 * The one operand of a command that takes [-e] PATH, resolved with flags
 * (and PATH_EXACT for -e). Reports the usage or the failure; 0 or -1.
 */
int path_single_arg(struct session *s, int argc, cmd_argv_t argv,
		    const char *usage, int flags, ext2_ino_t *ret_ino);

/* Resolve a command's path argument (flags as above); reports failures. */
int path_arg(struct session *s, const char *cmd, const char *arg, int flags,
	     ext2_ino_t *ret_ino);

/* The path of directory ino from the root, escaped; free it. */
errcode_t path_of_dir(struct session *s, ext2_ino_t ino, char **ret_path);

/* ---- dirview.c ---- */

/* A directory with what ls, htree_dump and collisions print about it. */
struct dir_view {
	struct e2fold_dir *dir;
	const struct unicode_map *um;	/* casefolds its names, or NULL */
	int hash_version;		/* effective; -1 when not computable */
	int hash_from_root;		/* version from dx_root (else default) */
	ext2_dirhash_t *hash, *minor;	/* per entry, if hash_version >= 0 */
	unsigned char *invalid;		/* per entry: strict mode refuses it */
	size_t *group;			/* per entry: first member, or NO_GROUP */
	size_t ninvalid, ncolliding;
};
#define NO_GROUP ((size_t)-1)

errcode_t dir_view_open(struct session *s, ext2_ino_t ino,
			struct dir_view *v);
void dir_view_close(struct dir_view *v);

/* One line describing the directory: casefold, encryption, index, hash. */
void dir_view_describe(struct session *s, const struct dir_view *v,
		       FILE *f);

/* ---- inode.c ---- */

/* Copy the contents of inode ino to the file descriptor fd. */
errcode_t copy_out(struct session *s, ext2_ino_t ino, int fd);

/*
 * dump -p and rdump: the owner, permissions and times of inode on the
 * native file fd, as debugfs gives them (the owner only where this
 * process may set it).
 */
errcode_t preserve_attrs(int fd, const struct ext2_inode *inode);

/* ---- session_alloc.c, addentry.c ---- */

/* Load the bitmaps once before the first allocation. */
errcode_t session_load_bitmaps(struct session *s);

/*
 * Allocate and write a new inode near dir: mode (with its type bits),
 * flags (EXT4_CASEFOLD_FL ...), times now, extents when the filesystem
 * has them. Returns its number in *ret_ino.
 */
errcode_t new_inode(struct session *s, ext2_ino_t dir, __u16 mode,
		    __u32 flags, ext2_ino_t *ret_ino);

/*
 * Check that name may be created in directory dir (no entry a lookup of
 * it reaches, no entry with its casefold key, valid UTF-8 on a strict
 * filesystem); reports the reason and returns non-zero if not.
 */
int check_new_name(struct session *s, const char *cmd, ext2_ino_t dir,
		   const unsigned char *name, unsigned int len);

/*
 * Add entry name -> ino to directory dir where the kernel would put it
 * (e2fold_dir_add), and set the directory's times; *ret_how says how.
 */
errcode_t add_entry(struct session *s, ext2_ino_t dir,
		    const unsigned char *name, unsigned int len,
		    ext2_ino_t ino, int file_type,
		    enum e2fold_add_how *ret_how);

/*
 * The same for the new directory inode ino, as mkdir does
 * (e2fold_dir_mkdir): its "." and "..", the entry, dir's link count.
 */
errcode_t add_subdir(struct session *s, ext2_ino_t dir,
		     const unsigned char *name, unsigned int len,
		     ext2_ino_t ino, enum e2fold_add_how *ret_how);

/* Where a new entry goes: its directory and name, checked. */
struct target {
	unsigned char path[4096];
	size_t path_len;
	ext2_ino_t dir;
	const unsigned char *name;
	unsigned int name_len;
};

/*
 * Finish making inode ino (new_inode's) at t: unless retval (what filling
 * it returned) is an error, link it there (add_subdir for a directory,
 * add_entry otherwise) and give its number in *ret_ino; on any error,
 * free it again (e2fold_free_inode) and return the error.
 */
errcode_t link_new_inode(struct session *s, const struct target *t,
			 ext2_ino_t ino, int file_type, errcode_t retval,
			 ext2_ino_t *ret_ino, enum e2fold_add_how *ret_how);

/*
 * The new entry arg names (bytes with exact): its parent resolved and
 * checked to be a directory, its name checked with check_new_name.
 * Reports failures; 0 or -1.
 */
int target_resolve(struct session *s, const char *cmd, const char *arg,
		   int exact, struct target *t);

/* The line a command prints for the new entry t -> ino, placed as how says. */
void target_report(const char *what, const struct target *t,
		   ext2_ino_t ino, enum e2fold_add_how how);

#endif /* E2FOLD_DEBUGFS_H */
