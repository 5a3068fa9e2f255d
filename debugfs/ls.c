/*
 * ls.c: list a directory's entries with what matters for encoded names.
 *
 *   ls [-l] [-c] [-H] [-x] [-e] [-p] [PATH]
 *
 * One line per entry, in on-disk order:
 *   MARKS INODE TYPE [-l: MODE UID GID SIZE MTIME] [-H: HASH MINOR
 *   [STORED STORED_MINOR]] NAME [-c: => CASEFOLDED]
 * MARKS is two columns: 'I' when a strict filesystem refuses the name
 * (not valid UTF-8), 'C' when it collides with another entry. Names are
 * escaped (\xHH for invalid UTF-8 and control bytes), or hex with -x.
 * -p prints debugfs's parseable lines instead, "." and ".." included:
 *   /INODE/MODE/UID/GID/NAME/SIZE/   (SIZE empty for a directory)
 * with the name's bytes as they are.
 */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs.h"

struct ls_options {
	int long_format;	/* -l */
	int folded;		/* -c */
	int hashes;		/* -H */
	int hex;		/* -x */
	int exact;		/* -e */
	int parse;		/* -p */
	const char *path;
};

static int parse_ls(int argc, char **args, struct ls_options *opt)
{
	int c;

	memset(opt, 0, sizeof(*opt));
	while ((c = getopt(argc, args, "lcHxep")) != -1) {
		switch (c) {
		case 'l':
			opt->long_format = 1;
			break;
		case 'c':
			opt->folded = 1;
			break;
		case 'H':
			opt->hashes = 1;
			break;
		case 'x':
			opt->hex = 1;
			break;
		case 'e':
			opt->exact = 1;
			break;
		case 'p':
			opt->parse = 1;
			break;
		default:
			return -1;
		}
	}
	if (optind < argc - 1)
		return -1;
	opt->path = optind < argc ? args[optind] : ".";
	return 0;
}

static void print_name(const struct ls_options *opt, const unsigned char *s,
		       unsigned int len)
{
	if (opt->hex)
		print_hex(stdout, s, len);
	else
		fputs(esc(0, s, len), stdout);
}

static void print_long(struct session *s, const struct e2fold_dirent *e)
{
	struct ext2_inode inode;
	char when[32];

	if (ext2fs_read_inode(s->fs, e->ino, &inode)) {
		printf(" %6s %5s %5s %10s %19s", "?", "?", "?", "?", "?");
		return;
	}
	printf(" %6o %5u %5u %10llu %19s", inode.i_mode, inode_uid(inode),
	       inode_gid(inode), (unsigned long long)EXT2_I_SIZE(&inode),
	       format_time(inode.i_mtime, when, sizeof(when)));
}

static void print_hashes(const struct dir_view *v, size_t i)
{
	const struct e2fold_dirent *e = &v->dir->ents[i];

	if (v->hash_version >= 0)
		printf(" 0x%08x 0x%08x", v->hash[i], v->minor[i]);
	else
		printf(" %10s %10s", "-", "-");
	if (v->dir->encrypted && v->dir->casefolded) {
		if (e->has_stored_hash)
			printf(" 0x%08x 0x%08x", e->stored_hash,
			       e->stored_minor);
		else
			printf(" %10s %10s", "?", "?");
	}
}

static void print_folded(const struct ls_options *opt,
			 const struct dir_view *v, const struct e2fold_dirent *e)
{
	struct e2fold_key *key;

	if (!v->um)
		return;
	key = malloc(sizeof(*key));
	if (!key)
		return;
	e2fold_name_key(v->um, e->name, e->name_len, key);
	fputs(" => ", stdout);
	if (key->folded)
		print_name(opt, key->bytes, key->len);
	else
		fputs("(not foldable: compared as bytes)", stdout);
	free(key);
}

static void print_entry(struct session *s, const struct ls_options *opt,
			const struct dir_view *v, size_t i)
{
	const struct e2fold_dirent *e = &v->dir->ents[i];

	printf("%c%c %7u %-4s", v->invalid[i] ? 'I' : ' ',
	       v->group[i] != NO_GROUP ? 'C' : ' ', e->ino,
	       file_type_name(e->file_type));
	if (opt->long_format)
		print_long(s, e);
	if (opt->hashes)
		print_hashes(v, i);
	putchar(' ');
	print_name(opt, e->name, e->name_len);
	if (opt->folded)
		print_folded(opt, v, e);
	putchar('\n');
}

static void print_legend(const struct dir_view *v)
{
	if (v->ninvalid)
		printf("I: %zu name%s not valid UTF-8 (refused by a strict "
		       "filesystem)\n", v->ninvalid, v->ninvalid == 1 ? "" : "s");
	if (v->ncolliding)
		printf("C: %zu name%s colliding with another entry (see "
		       "collisions)\n", v->ncolliding,
		       v->ncolliding == 1 ? "" : "s");
}

/* One -p line, as debugfs's ls -p prints it. */
static void print_parseable(struct session *s, ext2_ino_t ino,
			    const unsigned char *name, unsigned int len)
{
	struct ext2_inode inode;

	if (!ino || ext2fs_read_inode(s->fs, ino, &inode))
		memset(&inode, 0, sizeof(inode));
	printf("/%u/%06o/%d/%d/", ino, inode.i_mode, inode_uid(inode),
	       inode_gid(inode));
	fwrite(name, 1, len, stdout);
	if (LINUX_S_ISDIR(inode.i_mode))
		printf("//\n");
	else
		printf("/%llu/\n", (unsigned long long)EXT2_I_SIZE(&inode));
}

static void list_parseable(struct session *s, const struct dir_view *v)
{
	size_t i;

	if (v->dir->dot)
		print_parseable(s, v->dir->dot, (const unsigned char *)".", 1);
	if (v->dir->dotdot)
		print_parseable(s, v->dir->dotdot,
				(const unsigned char *)"..", 2);
	for (i = 0; i < v->dir->nents; i++)
		print_parseable(s, v->dir->ents[i].ino, v->dir->ents[i].name,
				v->dir->ents[i].name_len);
	printf("\n");	/* debugfs ends its listing with an empty line */
}

DEBUGFS_CMD(do_ls)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct ls_options opt;
	struct dir_view v;
	ext2_ino_t ino;
	errcode_t retval;
	size_t i;

	if (!args)
		return;
	if (parse_ls(argc, args, &opt)) {
		cmd_error(s, argv[0], 0, "usage: ls [-l] [-c] [-H] [-x] [-e] [-p] "
			  "[PATH]");
		goto out;
	}
	if (path_arg(s, argv[0], opt.path,
		     PATH_FOLLOW | (opt.exact ? PATH_EXACT : 0), &ino))
		goto out;
	retval = dir_view_open(s, ino, &v);
	if (retval) {
		cmd_error(s, argv[0], retval, "while reading inode %u", ino);
		goto out;
	}
	if (opt.parse) {
		list_parseable(s, &v);
		dir_view_close(&v);
		goto out;
	}
	if (opt.hashes || opt.folded) {
		fputs("# ", stdout);
		dir_view_describe(s, &v, stdout);
	}
	for (i = 0; i < v.dir->nents; i++)
		print_entry(s, &opt, &v, i);
	for (i = 0; i < v.dir->ncorrupt; i++)
		printf("block %llu: malformed, its entries are not shown\n",
		       (unsigned long long)v.dir->corrupt[i]);
	print_legend(&v);
	dir_view_close(&v);
out:
	free(args);
}
