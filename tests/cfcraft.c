/*
 * cfcraft: craft casefold test images, damage included, through libext2fs
 * and the e2fold library. Test scripts use it to build every image from
 * nothing (mkimage.sh), so no test depends on an unexplained binary.
 *
 *   cfcraft IMG mkdir PARENT NAME [casefold] [encrypt]
 *   cfcraft IMG fill DIR [normal|raw|keep-ignorables|stored FILE] < NAMES
 *       create one empty regular file per name (names in hex, one per
 *       line; the same name twice is allowed) and write DIR's entries
 *       with hashes that are right (normal), of the raw bytes (raw: every
 *       name that folds differently is misplaced), those of a kernel that
 *       kept Default_Ignorable code points, or, for encrypted directories,
 *       stored in the entries ("stored": FILE has "HASH MINOR" hex pairs,
 *       one line per name)
 *       With CFCRAFT_CONTENT=1 in the environment, each file holds
 *       "inode N\n" (its own inode number), so that a test can tell
 *       that a name still leads to its file after a repair.
 *   cfcraft IMG list DIR
 *       print each entry as "HEXNAME INODE", in directory order
 *   cfcraft IMG policy PATH
 *       give PATH an fscrypt v2 encryption context (fixed key identifier
 *       and nonce), as a directory created under a policy has
 *   cfcraft IMG flags PATH [+|-]casefold|index|encrypt|0xHEX ...
 *   cfcraft IMG super [encoding=N] [flags=N] [+casefold|-casefold]
 *                     [free_blocks=N] [+backups: into every copy]
 *   cfcraft IMG orphan          a file no directory names (e2fsck's
 *                               lost+found business)
 *   cfcraft IMG reachable       every inode reachable from the root, one
 *                               per line, sorted
 *   cfcraft IMG census
 *       every entry of every directory reachable from the root, as
 *       "DIR HEXNAME INODE" (unsorted), then "links INODE COUNT NAMES"
 *       for each inode reached whose link count is not the number of
 *       names that lead to it (for a directory: the entries naming it,
 *       its own "." and each subdirectory's ".."); what a kill test
 *       compares with an uninterrupted repair
 *   cfcraft IMG corrupt DIR LBLK      make a directory block unreadable
 *   cfcraft IMG poke DIR LBLK OFFSET HEX
 *       overwrite bytes of a directory block (checksums are recomputed,
 *       so that the damage is only the one asked for)
 *   cfcraft IMG sethash DIR NAME HASH MINOR
 *       rewrite the stored hash of entry NAME (hex) in an encrypted
 *       casefolded directory
 *   cfcraft IMG twin DIR NAME [OTHER]
 *       a second entry with exactly the bytes of entry NAME (hex), and
 *       its stored hash, put in NAME's block; for NAME's inode (whose
 *       link count goes up, as a hard link's), or for the inode of entry
 *       OTHER, whose own entry goes. Only those bytes change: the rest of
 *       the directory stays as it was written (by the kernel, say). A
 *       block without room for it (as fill packs them) has the whole
 *       directory rewritten with the twin in (encrypted directories only:
 *       their entries keep their stored hashes)
 * PATHs are exact byte paths from the root ("/" for the root). Exit 0 on
 * success; any failure prints what failed and exits 1.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include "dirread.h"
#include "dirwrite.h"
#include "encoding.h"
#include "hex.h"
#include "unicode.h"

static const char *prog = "cfcraft";
static ext2_filsys fs;

static void die(errcode_t retval, const char *what)
{
	com_err(prog, retval, "%s", what);
	if (fs)
		ext2fs_close_free(&fs);
	exit(1);
}

static ext2_ino_t resolve(const char *path)
{
	ext2_ino_t ino;
	errcode_t retval;

	if (!strcmp(path, "/"))
		return EXT2_ROOT_INO;
	retval = ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, path, &ino);
	if (retval)
		die(retval, path);
	return ino;
}

static __u32 flag_bit(const char *name)
{
	if (!strcmp(name, "casefold"))
		return EXT4_CASEFOLD_FL;
	if (!strcmp(name, "index"))
		return EXT2_INDEX_FL;
	if (!strcmp(name, "encrypt"))
		return EXT4_ENCRYPT_FL;
	if (!strncmp(name, "0x", 2))
		return strtoul(name, NULL, 16);
	fprintf(stderr, "%s: unknown flag %s\n", prog, name);
	exit(1);
}

static void change_flags(ext2_ino_t ino, __u32 set, __u32 clear)
{
	struct ext2_inode inode;
	errcode_t retval = ext2fs_read_inode(fs, ino, &inode);

	if (retval)
		die(retval, "reading inode");
	inode.i_flags = (inode.i_flags | set) & ~clear;
	retval = ext2fs_write_inode(fs, ino, &inode);
	if (retval)
		die(retval, "writing inode");
}

static void cmd_mkdir(int argc, char **argv)
{
	ext2_ino_t parent, ino;
	__u32 set = 0;
	errcode_t retval;
	int i;

	if (argc < 2)
		die(EINVAL, "mkdir PARENT NAME [casefold] [encrypt]");
	parent = resolve(argv[0]);
	retval = ext2fs_mkdir(fs, parent, 0, argv[1]);
	if (retval)
		die(retval, "ext2fs_mkdir");
	retval = ext2fs_lookup(fs, parent, argv[1], strlen(argv[1]), NULL, &ino);
	if (retval)
		die(retval, "looking up the new directory");
	for (i = 2; i < argc; i++)
		set |= flag_bit(argv[i]);
	change_flags(ino, set, 0);
}

/* One hex line into bytes; returns the length. */
static unsigned int unhex(const char *line, unsigned char *out)
{
	unsigned int n = 0;

	while (*line && *line != '\n') {
		int byte;

		if (*line == ' ') {
			line++;
			continue;
		}
		byte = e2fold_hex_byte(line);
		if (byte < 0 || n == 255) {
			fprintf(stderr, "%s: bad hex name: %s", prog, line);
			exit(1);
		}
		out[n++] = byte;
		line += 2;
	}
	return n;
}

/*
 * The fscrypt v2 context e2fsck expects in xattr "c": version 2, contents
 * mode 1 (AES-256-XTS), filenames mode 4 (AES-256-CTS), flags 0, four
 * reserved bytes, a 16-byte master key identifier and a 16-byte nonce.
 */
static void set_policy(ext2_ino_t ino)
{
	unsigned char ctx[40] = { 2, 1, 4, 0 };
	struct ext2_xattr_handle *h;
	errcode_t retval;
	int i;

	for (i = 0; i < 16; i++) {
		ctx[8 + i] = 0xA0 + i;		/* key identifier */
		ctx[24 + i] = (ino * 7 + i) & 0xff;	/* nonce */
	}
	retval = ext2fs_xattrs_open(fs, ino, &h);
	if (!retval)
		retval = ext2fs_xattrs_read(h);
	if (!retval)
		retval = ext2fs_xattr_set(h, "c", ctx, sizeof(ctx));
	if (!retval)
		retval = ext2fs_xattrs_close(&h);
	if (retval)
		die(retval, "setting the encryption context");
}

static void cmd_policy(int argc, char **argv)
{
	if (argc < 1)
		die(EINVAL, "policy PATH");
	set_policy(resolve(argv[0]));
}

static void write_content(ext2_ino_t ino)
{
	ext2_file_t file;
	char text[32];
	unsigned int n = snprintf(text, sizeof(text), "inode %u\n", ino), got;
	errcode_t retval;

	retval = ext2fs_file_open(fs, ino, EXT2_FILE_WRITE, &file);
	if (!retval)
		retval = ext2fs_file_write(file, text, n, &got);
	if (!retval)
		retval = ext2fs_file_close(file);
	if (retval)
		die(retval, "writing file content");
}

static void cmd_list(int argc, char **argv)
{
	struct e2fold_dir *dir;
	errcode_t retval;
	size_t i;
	unsigned int j;

	if (argc < 1)
		die(EINVAL, "list DIR");
	retval = e2fold_dir_read(fs, resolve(argv[0]), &dir);
	if (retval)
		die(retval, "reading the directory");
	for (i = 0; i < dir->nents; i++) {
		for (j = 0; j < dir->ents[i].name_len; j++)
			printf("%02x", dir->ents[i].name[j]);
		printf(" %u\n", dir->ents[i].ino);
	}
	e2fold_dir_free(dir);
}

/* A new empty regular file, linked once; encrypted like its directory. */
static ext2_ino_t new_file(ext2_ino_t dir, int encrypted)
{
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t retval;

	retval = ext2fs_new_inode(fs, dir, LINUX_S_IFREG | 0644, NULL, &ino);
	if (retval)
		die(retval, "ext2fs_new_inode");
	ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	memset(&inode, 0, sizeof(inode));
	inode.i_mode = LINUX_S_IFREG | 0644;
	inode.i_links_count = 1;
	inode.i_atime = inode.i_ctime = inode.i_mtime = fs->now ? fs->now : 1700000000;
	if (encrypted)
		inode.i_flags |= EXT4_ENCRYPT_FL;
	retval = ext2fs_write_new_inode(fs, ino, &inode);
	if (retval)
		die(retval, "ext2fs_write_new_inode");
	if (encrypted)
		set_policy(ino);
	if (getenv("CFCRAFT_CONTENT"))
		write_content(ino);
	return ino;
}

/* With content, so that e2fsck reconnects it rather than clearing it. */
static void cmd_orphan(void)
{
	write_content(new_file(EXT2_ROOT_INO, 0));
}

/* Depth-first from the root; marks every inode an entry leads to. */
static void walk(ext2_ino_t dir, ext2fs_inode_bitmap seen)
{
	struct e2fold_dir *d;
	size_t i;

	if (e2fold_dir_read(fs, dir, &d))
		return;
	for (i = 0; i < d->nents; i++) {
		ext2_ino_t ino = d->ents[i].ino;

		if (!ino || ino > fs->super->s_inodes_count ||
		    ext2fs_test_inode_bitmap2(seen, ino))
			continue;
		ext2fs_mark_inode_bitmap2(seen, ino);
		if (d->ents[i].file_type == EXT2_FT_DIR)
			walk(ino, seen);
	}
	e2fold_dir_free(d);
}

static void cmd_reachable(void)
{
	ext2fs_inode_bitmap seen;
	ext2_ino_t ino;
	errcode_t retval;

	retval = ext2fs_allocate_inode_bitmap(fs, "reachable", &seen);
	if (retval)
		die(retval, "allocating a bitmap");
	ext2fs_mark_inode_bitmap2(seen, EXT2_ROOT_INO);
	walk(EXT2_ROOT_INO, seen);
	for (ino = 1; ino <= fs->super->s_inodes_count; ino++)
		if (ext2fs_test_inode_bitmap2(seen, ino))
			printf("%u\n", ino);
	ext2fs_free_inode_bitmap(seen);
}

struct census {
	ext2fs_inode_bitmap seen;
	unsigned int *names;	/* per inode: entries, "." and ".." */
};

static void census_walk(struct census *c, ext2_ino_t dir)
{
	struct e2fold_dir *d;
	size_t i;
	unsigned int j;

	if (e2fold_dir_read(fs, dir, &d))
		return;
	c->names[dir]++;		/* its "." */
	for (i = 0; i < d->nents; i++) {
		ext2_ino_t ino = d->ents[i].ino;

		printf("%u ", dir);
		for (j = 0; j < d->ents[i].name_len; j++)
			printf("%02x", d->ents[i].name[j]);
		printf(" %u\n", ino);
		if (!ino || ino > fs->super->s_inodes_count)
			continue;
		c->names[ino]++;
		if (d->ents[i].file_type != EXT2_FT_DIR)
			continue;
		c->names[dir]++;	/* the subdirectory's ".." */
		if (ext2fs_test_inode_bitmap2(c->seen, ino))
			continue;
		ext2fs_mark_inode_bitmap2(c->seen, ino);
		census_walk(c, ino);
	}
	e2fold_dir_free(d);
}

static void cmd_census(void)
{
	struct census c = { 0 };
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t retval;

	retval = ext2fs_allocate_inode_bitmap(fs, "census", &c.seen);
	if (retval)
		die(retval, "allocating a bitmap");
	c.names = calloc(fs->super->s_inodes_count + 1, sizeof(*c.names));
	if (!c.names)
		die(EXT2_ET_NO_MEMORY, "census");
	ext2fs_mark_inode_bitmap2(c.seen, EXT2_ROOT_INO);
	c.names[EXT2_ROOT_INO]++;	/* the root's ".." is itself */
	census_walk(&c, EXT2_ROOT_INO);
	for (ino = 1; ino <= fs->super->s_inodes_count; ino++) {
		if (!c.names[ino])
			continue;
		retval = ext2fs_read_inode(fs, ino, &inode);
		if (retval)
			die(retval, "reading an inode");
		if (inode.i_links_count != c.names[ino])
			printf("links %u %u %u\n", ino, inode.i_links_count,
			       c.names[ino]);
	}
	free(c.names);
	ext2fs_free_inode_bitmap(c.seen);
}

static void hash_keeping_ignorables(const struct e2fold_dir_layout *l,
				    struct e2fold_new_entry *e)
{
	int version = e2fold_effective_hash_version(fs, l->hash_version);

	if (e2fold_dirhash_keeping_ignorables(l->um, version, e->name,
					      e->name_len,
					      fs->super->s_hash_seed,
					      &e->hash, &e->minor_hash))
		e2fold_casefold_dirhash(l->um, version, e->name, e->name_len,
					fs->super->s_hash_seed, &e->hash,
					&e->minor_hash);
}

static void cmd_fill(int argc, char **argv)
{
	struct e2fold_dir_layout layout = { 0 };
	struct e2fold_new_entry *ents = NULL;
	unsigned char (*names)[256] = NULL;
	const char *mode = argc > 1 ? argv[1] : "normal";
	FILE *hashes = NULL;
	struct unicode_map *um = NULL;
	struct ext2_inode inode;
	size_t n = 0, cap = 0, i;
	char line[1024];
	errcode_t retval;

	if (argc < 1)
		die(EINVAL, "fill DIR [mode]");
	layout.ino = resolve(argv[0]);
	retval = ext2fs_lookup(fs, layout.ino, "..", 2, NULL, &layout.parent);
	if (retval)
		die(retval, "looking up ..");
	retval = ext2fs_read_inode(fs, layout.ino, &inode);
	if (retval)
		die(retval, "reading the directory");
	layout.hash_version = fs->super->s_def_hash_version;
	if ((inode.i_flags & EXT4_CASEFOLD_FL) && strcmp(mode, "raw"))
		layout.um = um = e2fold_load_encoding(
			e2fold_encoding_by_magic(fs->super->s_encoding));
	if (!strcmp(mode, "stored")) {
		if (argc < 3 || !(hashes = fopen(argv[2], "r")))
			die(errno, "the stored hash file");
		layout.stored_hashes = 1;
		layout.hash_version = EXT2_HASH_SIPHASH;
	} else if (!strcmp(mode, "keep-ignorables")) {
		layout.given_hashes = 1;
	} else if (strcmp(mode, "normal") && strcmp(mode, "raw")) {
		die(EINVAL, mode);
	}
	while (fgets(line, sizeof(line), stdin)) {
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			ents = realloc(ents, cap * sizeof(*ents));
			names = realloc(names, cap * sizeof(*names));
			if (!ents || !names)
				die(ENOMEM, "reading names");
		}
		memset(&ents[n], 0, sizeof(ents[n]));
		ents[n].name_len = unhex(line, names[n]);
		ents[n].ino = new_file(layout.ino,
				       !!(inode.i_flags & EXT4_ENCRYPT_FL));
		ents[n].file_type = EXT2_FT_REG_FILE;
		if (hashes && fscanf(hashes, "%x %x", &ents[n].hash,
				     &ents[n].minor_hash) != 2)
			die(EINVAL, "the stored hash file is short");
		n++;
	}
	/* names[] may have moved while it grew: point at it only now. */
	for (i = 0; i < n; i++) {
		ents[i].name = names[i];
		if (layout.given_hashes)
			hash_keeping_ignorables(&layout, &ents[i]);
	}
	/* Crafting, not repairing: the blocks are reused as they were. */
	layout.in_place = 1;
	retval = e2fold_dir_write(fs, &layout, ents, n);
	if (retval)
		die(retval, "e2fold_dir_write");
	if (hashes)
		fclose(hashes);
	utf8_unload(um);
	free(ents);
	free(names);
}

static void cmd_flags(int argc, char **argv)
{
	ext2_ino_t ino;
	int i;

	if (argc < 2)
		die(EINVAL, "flags PATH +flag|-flag ...");
	ino = resolve(argv[0]);
	for (i = 1; i < argc; i++) {
		__u32 bit = flag_bit(argv[i] + 1);

		if (argv[i][0] == '+')
			change_flags(ino, bit, 0);
		else
			change_flags(ino, 0, bit);
	}
}

static void cmd_super(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		unsigned long v;

		if (sscanf(argv[i], "encoding=%li", (long *)&v) == 1)
			fs->super->s_encoding = v;
		else if (sscanf(argv[i], "flags=%li", (long *)&v) == 1)
			fs->super->s_encoding_flags = v;
		else if (!strcmp(argv[i], "+casefold"))
			ext2fs_set_feature_casefold(fs->super);
		else if (!strcmp(argv[i], "-casefold"))
			ext2fs_clear_feature_casefold(fs->super);
		else if (sscanf(argv[i], "free_blocks=%li", (long *)&v) == 1)
			ext2fs_free_blocks_count_set(fs->super, v);
		else if (!strcmp(argv[i], "+backups"))
			fs->flags &= ~EXT2_FLAG_MASTER_SB_ONLY;
		else
			die(EINVAL, argv[i]);
	}
	ext2fs_mark_super_dirty(fs);
}

static void cmd_corrupt(int argc, char **argv)
{
	ext2_ino_t ino;
	blk64_t pblk = 0;
	char *buf;
	errcode_t retval;

	if (argc < 2)
		die(EINVAL, "corrupt DIR LBLK");
	ino = resolve(argv[0]);
	retval = ext2fs_bmap2(fs, ino, NULL, NULL, 0, strtoull(argv[1], NULL, 0),
			      NULL, &pblk);
	if (retval || !pblk)
		die(retval ? retval : EINVAL, "mapping the block");
	buf = calloc(1, fs->blocksize);
	if (!buf)
		die(ENOMEM, "buffer");
	/* rec_len 3: no reader accepts an entry of that length. */
	buf[4] = 3;
	retval = io_channel_write_blk64(fs->io, pblk, 1, buf);
	free(buf);
	if (retval)
		die(retval, "writing the block");
}

/* Read logical block lblk of directory ino into buf; its physical block. */
static blk64_t read_dir_block(ext2_ino_t ino, blk64_t lblk, void *buf)
{
	blk64_t pblk = 0;
	errcode_t retval;

	retval = ext2fs_bmap2(fs, ino, NULL, NULL, 0, lblk, NULL, &pblk);
	if (retval || !pblk)
		die(retval ? retval : EINVAL, "mapping the block");
	retval = io_channel_read_blk64(fs->io, pblk, 1, buf);
	if (retval)
		die(retval, "reading the block");
	return pblk;
}

static void write_dir_block(ext2_ino_t ino, blk64_t pblk, void *buf)
{
	errcode_t retval;

	/* A block that no longer parses cannot be checksummed: write raw. */
	if (ext2fs_has_feature_metadata_csum(fs->super))
		ext2fs_dir_block_csum_set(fs, ino, buf);
	retval = io_channel_write_blk64(fs->io, pblk, 1, buf);
	if (retval)
		die(retval, "writing the block");
}

static void cmd_poke(int argc, char **argv)
{
	unsigned char bytes[256];
	unsigned int n, offset;
	ext2_ino_t ino;
	blk64_t pblk;
	char *buf;

	if (argc < 4)
		die(EINVAL, "poke DIR LBLK OFFSET HEX");
	ino = resolve(argv[0]);
	offset = strtoul(argv[2], NULL, 0);
	n = unhex(argv[3], bytes);
	buf = malloc(fs->blocksize);
	if (!buf || offset + n > fs->blocksize)
		die(EINVAL, "poke outside the block");
	pblk = read_dir_block(ino, strtoull(argv[1], NULL, 0), buf);
	memcpy(buf + offset, bytes, n);
	write_dir_block(ino, pblk, buf);
	free(buf);
}

/* The 8 hash bytes after the name of dirent d (stored hashes). */
static void set_stored_hash(void *d, unsigned int name_len, __u32 hash,
			    __u32 minor)
{
	__u32 *h = (__u32 *)((char *)d + 8 + ((name_len + 3) & ~3u));

	h[0] = ext2fs_cpu_to_le32(hash);
	h[1] = ext2fs_cpu_to_le32(minor);
}

static void cmd_sethash(int argc, char **argv)
{
	unsigned char name[256];
	unsigned int len, hash, minor;
	struct e2fold_dir *dir;
	ext2_ino_t ino;
	errcode_t retval;
	size_t i;

	if (argc < 4 || sscanf(argv[2], "%x", &hash) != 1 ||
	    sscanf(argv[3], "%x", &minor) != 1)
		die(EINVAL, "sethash DIR NAME HASH MINOR");
	ino = resolve(argv[0]);
	len = unhex(argv[1], name);
	retval = e2fold_dir_read(fs, ino, &dir);
	if (retval)
		die(retval, "reading the directory");
	for (i = 0; i < dir->nents; i++) {
		const struct e2fold_dirent *e = &dir->ents[i];
		unsigned char *buf;
		blk64_t pblk;

		if (e->name_len != len || memcmp(e->name, name, len) ||
		    !e->has_stored_hash)
			continue;
		buf = malloc(fs->blocksize);
		if (!buf)
			die(ENOMEM, "buffer");
		pblk = read_dir_block(ino, e->lblk, buf);
		set_stored_hash(buf + e->offset, len, hash, minor);
		write_dir_block(ino, pblk, buf);
		free(buf);
		e2fold_dir_free(dir);
		return;
	}
	die(ENOENT, "no such entry with a stored hash");
}


/* The entry named name (hex) of dir, or die. */
static const struct e2fold_dirent *find_entry(const struct e2fold_dir *dir,
					      const char *hexname)
{
	unsigned char name[256];
	unsigned int len = unhex(hexname, name);
	size_t i;

	for (i = 0; i < dir->nents; i++)
		if (dir->ents[i].name_len == len &&
		    !memcmp(dir->ents[i].name, name, len))
			return &dir->ents[i];
	die(ENOENT, hexname);
	return NULL;
}

static unsigned int dirent_size(unsigned int name_len, int stored_hash)
{
	return 8 + ((name_len + 3) & ~3u) + (stored_hash ? 8 : 0);
}

/* Take the entry at offset off out of its block (buf): the one before
 * it absorbs its space, or, first in the block, it becomes unused. */
static void remove_entry(char *buf, unsigned int off)
{
	struct ext2_dir_entry *prev = NULL, *d;
	unsigned int pos = 0, rec_len, len;

	while (pos < off) {
		prev = (struct ext2_dir_entry *)(buf + pos);
		if (ext2fs_get_rec_len(fs, prev, &rec_len) || !rec_len)
			die(EXT2_ET_DIR_CORRUPTED, "walking the block");
		pos += rec_len;
	}
	d = (struct ext2_dir_entry *)(buf + off);
	if (pos != off || ext2fs_get_rec_len(fs, d, &len))
		die(EXT2_ET_DIR_CORRUPTED, "finding the entry");
	if (!prev) {
		d->inode = 0;
		return;
	}
	ext2fs_get_rec_len(fs, prev, &rec_len);
	ext2fs_set_rec_len(fs, rec_len + len, prev);
}

/* Room for size bytes in buf, carved from an entry's slack, or NULL. */
static struct ext2_dir_entry *make_room(char *buf, unsigned int size,
					int stored_hash)
{
	unsigned int pos = 0, end = fs->blocksize, rec_len, used;

	if (ext2fs_has_feature_metadata_csum(fs->super))
		end -= sizeof(struct ext2_dir_entry_tail);
	while (pos < end) {
		struct ext2_dir_entry *d = (struct ext2_dir_entry *)(buf + pos);
		unsigned int name_len = ext2fs_dirent_name_len(d);

		if (ext2fs_get_rec_len(fs, d, &rec_len) || rec_len < 8)
			die(EXT2_ET_DIR_CORRUPTED, "walking the block");
		used = !d->inode ? 0 : dirent_size(name_len, stored_hash &&
			!(name_len <= 2 && !memcmp(d->name, "..", name_len)));
		if (!d->inode && rec_len >= size)
			return d;
		if (d->inode && rec_len >= used + size) {
			ext2fs_set_rec_len(fs, used, d);
			d = (struct ext2_dir_entry *)(buf + pos + used);
			ext2fs_set_rec_len(fs, rec_len - used, d);
			return d;
		}
		pos += rec_len;
	}
	return NULL;
}

/* dir rewritten whole, with a twin of entry e, for ino, after it. */
static void rewrite_with_twin(const struct e2fold_dir *dir,
			      const struct e2fold_dirent *e, ext2_ino_t ino)
{
	struct e2fold_dir_layout layout = {
		.ino = dir->ino,
		.parent = dir->dotdot,
		.hash_version = dir->indexed ? dir->dx_hash_version :
				fs->super->s_def_hash_version,
		.stored_hashes = e->has_stored_hash,
		.in_place = 1,
	};
	struct e2fold_new_entry *ents;
	size_t i, n = 0, at = e - dir->ents;
	errcode_t retval;

	if (!dir->encrypted)
		die(EINVAL, "twin: no room in the block of a plain directory");
	retval = e2fold_dir_entries(dir, 1, &ents);
	if (retval)
		die(retval, "entries");
	memmove(&ents[at + 1], &ents[at], (dir->nents - at) * sizeof(*ents));
	ents[at + 1].ino = ino;
	/* Entries set to inode 0 by the caller are left out. */
	for (i = 0; i < dir->nents + 1; i++)
		if (ents[i].ino)
			ents[n++] = ents[i];
	retval = e2fold_dir_write(fs, &layout, ents, n);
	if (retval)
		die(retval, "rewriting the directory");
	free(ents);
}

static void cmd_twin(int argc, char **argv)
{
	const struct e2fold_dirent *e, *other = NULL;
	struct e2fold_dir *dir;
	struct ext2_dir_entry *d;
	struct ext2_inode inode;
	ext2_ino_t ino, target;
	errcode_t retval;
	blk64_t pblk;
	char *buf;

	if (argc < 2)
		die(EINVAL, "twin DIR NAME [OTHER]");
	ino = resolve(argv[0]);
	retval = e2fold_dir_read(fs, ino, &dir);
	if (retval)
		die(retval, "reading the directory");
	e = find_entry(dir, argv[1]);
	if (argc > 2)
		other = find_entry(dir, argv[2]);
	target = other ? other->ino : e->ino;
	if (!other) {
		retval = ext2fs_read_inode(fs, target, &inode);
		inode.i_links_count++;
		if (!retval)
			retval = ext2fs_write_inode(fs, target, &inode);
		if (retval)
			die(retval, "counting the new link");
	}
	buf = malloc(fs->blocksize);
	if (!buf)
		die(ENOMEM, "buffer");
	pblk = read_dir_block(ino, e->lblk, buf);
	d = make_room(buf, dirent_size(e->name_len, e->has_stored_hash),
		      e->has_stored_hash);
	if (!d) {
		/* Entry other is left out of the rewrite by inode 0. */
		if (other)
			dir->ents[other - dir->ents].ino = 0;
		rewrite_with_twin(dir, e, target);
		other = NULL;
	} else {
		d->inode = target;
		ext2fs_dirent_set_name_len(d, e->name_len);
		ext2fs_dirent_set_file_type(d, e->file_type);
		memcpy(d->name, e->name, e->name_len);
		if (e->has_stored_hash)
			set_stored_hash(d, e->name_len, e->stored_hash,
					e->stored_minor);
		write_dir_block(ino, pblk, buf);
	}
	if (other) {
		pblk = read_dir_block(ino, other->lblk, buf);
		remove_entry(buf, other->offset);
		write_dir_block(ino, pblk, buf);
	}
	free(buf);
	e2fold_dir_free(dir);
}

int main(int argc, char **argv)
{
	errcode_t retval;

	add_error_table(&et_ext2_error_table);
	if (argc < 3) {
		fprintf(stderr, "usage: %s IMG mkdir|fill|flags|super|corrupt|"
			"list|policy|poke|sethash|twin|orphan|reachable|census ...\n",
			prog);
		return 1;
	}
	retval = ext2fs_open(argv[1], EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0,
			     unix_io_manager, &fs);
	if (retval)
		die(retval, argv[1]);
	retval = ext2fs_read_bitmaps(fs);
	if (retval)
		die(retval, "reading bitmaps");
	if (!strcmp(argv[2], "mkdir"))
		cmd_mkdir(argc - 3, argv + 3);
	else if (!strcmp(argv[2], "fill"))
		cmd_fill(argc - 3, argv + 3);
	else if (!strcmp(argv[2], "flags"))
		cmd_flags(argc - 3, argv + 3);
	else if (!strcmp(argv[2], "super"))
		cmd_super(argc - 3, argv + 3);
	else if (!strcmp(argv[2], "corrupt"))
		cmd_corrupt(argc - 3, argv + 3);
	else if (!strcmp(argv[2], "orphan"))
		cmd_orphan();
	else if (!strcmp(argv[2], "reachable"))
		cmd_reachable();
	else if (!strcmp(argv[2], "census"))
		cmd_census();
	else if (!strcmp(argv[2], "list"))
		cmd_list(argc - 3, argv + 3);
	else if (!strcmp(argv[2], "policy"))
		cmd_policy(argc - 3, argv + 3);
	else if (!strcmp(argv[2], "poke"))
		cmd_poke(argc - 3, argv + 3);
	else if (!strcmp(argv[2], "sethash"))
		cmd_sethash(argc - 3, argv + 3);
	else if (!strcmp(argv[2], "twin"))
		cmd_twin(argc - 3, argv + 3);
	else
		die(EINVAL, argv[2]);
	retval = ext2fs_close_free(&fs);
	if (retval)
		die(retval, "closing");
	return 0;
}
