/*
 * blocks.c: which inode owns what, as debugfs answers it.
 *
 *   blocks [-e] PATH        the data blocks of a file, in file order
 *   icheck BLOCK...         the inode owning each block ("Block\tInode
 *                           number" lines, as debugfs prints them)
 *   ncheck [-c] INODE...    every path that leads to each inode
 *                           ("Inode\tPathname" lines; -c says when the
 *                           entry's type differs from the inode's)
 *
 * Paths are printed as the directory entries store them (escaped where
 * a byte is not printable), found by walking every directory once.
 */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs.h"
#include "newinode.h"

static int print_block(ext2_filsys fs EXT2FS_ATTR((unused)),
		       blk64_t *blocknr, e2_blkcnt_t blockcnt,
		       blk64_t ref EXT2FS_ATTR((unused)),
		       int ref_offset EXT2FS_ATTR((unused)),
		       void *priv EXT2FS_ATTR((unused)))
{
	if (blockcnt >= 0)
		printf("%llu ", (unsigned long long)*blocknr);
	return 0;
}

DEBUGFS_CMD(do_blocks)
{
	struct session *s = infop;
	ext2_ino_t ino;
	errcode_t retval;

	if (path_single_arg(s, argc, argv, "blocks [-e] PATH", 0, &ino))
		return;
	retval = ext2fs_block_iterate3(s->fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
				       print_block, NULL);
	printf("\n");
	if (retval)
		cmd_error(s, argv[0], retval, "while reading the blocks of "
			  "inode %u", ino);
}

/* The blocks icheck looks for, and who owns each. */
struct icheck {
	size_t n, left;
	blk64_t *block;
	ext2_ino_t *owner;
	ext2_ino_t ino;		/* the inode being walked */
};

static void claim(struct icheck *ic, blk64_t blk)
{
	size_t i;

	for (i = 0; i < ic->n; i++)
		if (ic->block[i] == blk && !ic->owner[i]) {
			ic->owner[i] = ic->ino;
			ic->left--;
		}
}

static int claim_block(ext2_filsys fs EXT2FS_ATTR((unused)),
		       blk64_t *blocknr,
		       e2_blkcnt_t blockcnt EXT2FS_ATTR((unused)),
		       blk64_t ref EXT2FS_ATTR((unused)),
		       int ref_offset EXT2FS_ATTR((unused)), void *priv)
{
	struct icheck *ic = priv;

	claim(ic, *blocknr);
	return ic->left ? 0 : BLOCK_ABORT;
}

/* Every inode in use, its blocks (metadata and xattr block included). */
static errcode_t walk_inodes(struct session *s, struct icheck *ic)
{
	ext2_inode_scan scan;
	struct ext2_inode inode;
	errcode_t retval;

	retval = ext2fs_open_inode_scan(s->fs, 0, &scan);
	if (retval)
		return retval;
	while (ic->left) {
		retval = ext2fs_get_next_inode(scan, &ic->ino, &inode);
		if (retval || !ic->ino)
			break;
		if (!inode.i_links_count || inode.i_dtime)
			continue;
		if (ext2fs_file_acl_block(s->fs, &inode))
			claim(ic, ext2fs_file_acl_block(s->fs, &inode));
		if (!ext2fs_inode_has_valid_blocks2(s->fs, &inode))
			continue;
		retval = ext2fs_block_iterate3(s->fs, ic->ino,
					       BLOCK_FLAG_READ_ONLY, NULL,
					       claim_block, ic);
		if (retval)
			break;
	}
	ext2fs_close_inode_scan(scan);
	return retval;
}

DEBUGFS_CMD(do_icheck)
{
	struct session *s = infop;
	struct icheck ic = { 0 };
	errcode_t retval;
	size_t i;
	char *end;

	if (argc < 2) {
		cmd_error(s, argv[0], 0, "usage: icheck BLOCK...");
		return;
	}
	ic.n = ic.left = argc - 1;
	ic.block = calloc(ic.n, sizeof(*ic.block));
	ic.owner = calloc(ic.n, sizeof(*ic.owner));
	if (!ic.block || !ic.owner)
		goto out;
	for (i = 0; i < ic.n; i++) {
		ic.block[i] = strtoull(argv[i + 1], &end, 0);
		if (*end || !*argv[i + 1]) {
			cmd_error(s, argv[0], 0, "bad block number: %s",
				  argv[i + 1]);
			goto out;
		}
	}
	retval = walk_inodes(s, &ic);
	if (retval)
		cmd_error(s, argv[0], retval, "while walking the inodes");
	printf("Block\tInode number\n");
	for (i = 0; i < ic.n; i++) {
		if (ic.owner[i])
			printf("%llu\t%u\n", (unsigned long long)ic.block[i],
			       ic.owner[i]);
		else
			printf("%llu\t<block not found>\n",
			       (unsigned long long)ic.block[i]);
	}
out:
	free(ic.block);
	free(ic.owner);
}

/* The inodes ncheck looks for. */
struct ncheck {
	size_t n;
	ext2_ino_t *ino;
	int check_type;		/* -c */
};

static void ncheck_dir(struct session *s, const struct ncheck *nc,
		       ext2_ino_t dir)
{
	struct e2fold_dir *d;
	char *path = NULL;
	size_t i, j;

	if (e2fold_dir_read(s->fs, dir, &d))
		return;
	for (i = 0; i < d->nents; i++) {
		const struct e2fold_dirent *e = &d->ents[i];
		struct ext2_inode inode;

		for (j = 0; j < nc->n && nc->ino[j] != e->ino; j++)
			;
		if (j == nc->n)
			continue;
		if (!path && path_of_dir(s, dir, &path))
			break;
		printf("%u\t%s/%s", e->ino, strcmp(path, "/") ? path : "",
		       esc(0, e->name, e->name_len));
		if (nc->check_type && !ext2fs_read_inode(s->fs, e->ino, &inode) &&
		    e2fold_file_type(inode.i_mode) != e->file_type)
			printf("  <--- BAD FILETYPE");
		printf("\n");
	}
	free(path);
	e2fold_dir_free(d);
}

DEBUGFS_CMD(do_ncheck)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	struct ncheck nc = { 0 };
	struct ext2_inode inode;
	ext2_inode_scan scan = NULL;
	ext2_ino_t ino;
	char *end;
	int c, i;

	if (!args)
		return;
	while ((c = getopt(argc, args, "c")) != -1) {
		if (c != 'c')
			goto usage;
		nc.check_type = 1;
	}
	if (optind >= argc)
		goto usage;
	nc.ino = calloc(argc - optind, sizeof(*nc.ino));
	if (!nc.ino)
		goto out;
	for (i = optind; i < argc; i++) {
		unsigned long v = strtoul(args[i], &end, 0);

		if (*end || !*args[i] || !v || v > s->fs->super->s_inodes_count) {
			cmd_error(s, argv[0], 0, "bad inode number: %s",
				  args[i]);
			goto out;
		}
		nc.ino[nc.n++] = v;
	}
	if (ext2fs_open_inode_scan(s->fs, 0, &scan))
		goto out;
	printf("Inode\tPathname\n");
	while (!ext2fs_get_next_inode(scan, &ino, &inode) && ino) {
		if (inode.i_links_count && !inode.i_dtime &&
		    LINUX_S_ISDIR(inode.i_mode))
			ncheck_dir(s, &nc, ino);
	}
	ext2fs_close_inode_scan(scan);
	goto out;
usage:
	cmd_error(s, argv[0], 0, "usage: ncheck [-c] INODE...");
out:
	free(nc.ino);
	free(args);
}
