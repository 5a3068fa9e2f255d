/* image.c: seed images, their layout, and patches aimed at it. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ext2fs/ext2fs.h>

#include "fuzz.h"
#include "image.h"

#define MAX_SEED_SIZE (4u << 20)

static unsigned int next_rand(unsigned int *state)
{
	unsigned int x = *state ? *state : 0x9e3779b9u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

static int add_region(struct seed *s, enum region_kind kind, uint64_t offset,
		      uint32_t len)
{
	struct region *p;

	if (offset + len > s->size)
		return 0;	/* a layout the seed's size cannot hold: skip */
	p = realloc(s->regions, (s->nregions + 1) * sizeof(*p));
	if (!p)
		return -1;
	s->regions = p;
	p[s->nregions].kind = kind;
	p[s->nregions].offset = (uint32_t)offset;
	p[s->nregions].len = len;
	s->nregions++;
	return 0;
}

struct block_walk {
	struct seed *seed;
	int indexed;
	int failed;
};

static int note_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		      blk64_t ref_blk, int ref_offset, void *priv)
{
	struct block_walk *w = priv;
	uint64_t at = *blocknr * (uint64_t)fs->blocksize;

	(void)ref_blk;
	(void)ref_offset;
	if (blockcnt < 0)
		return 0;
	if (add_region(w->seed, REGION_DIR_BLOCK, at, fs->blocksize) ||
	    (blockcnt == 0 && w->indexed &&
	     add_region(w->seed, REGION_DX_ROOT, at, 64)))
		w->failed = 1;
	return 0;
}

/* The superblock, every inode in use and every directory block. */
static int find_regions(struct seed *s, const char *path)
{
	ext2_filsys fs;
	ext2_ino_t ino;
	int status = -1;

	if (ext2fs_open(path, EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs)) {
		fprintf(stderr, "fuzz: cannot open seed %s\n", s->name);
		return -1;
	}
	s->blocksize = fs->blocksize;
	if (add_region(s, REGION_SUPER, 1024, 1024))
		goto out;
	for (ino = 1; ino <= fs->super->s_inodes_count; ino++) {
		struct ext2_inode inode;
		dgrp_t g = (ino - 1) / fs->super->s_inodes_per_group;
		uint64_t at = ext2fs_inode_table_loc(fs, g) *
			      (uint64_t)fs->blocksize +
			      (uint64_t)((ino - 1) % fs->super->s_inodes_per_group) *
			      EXT2_INODE_SIZE(fs->super);
		struct block_walk w = { .seed = s };

		if (ext2fs_read_inode(fs, ino, &inode) || !inode.i_links_count)
			continue;
		if (add_region(s, REGION_INODE, at, EXT2_INODE_SIZE(fs->super)))
			goto out;
		if (!LINUX_S_ISDIR(inode.i_mode) ||
		    (inode.i_flags & EXT4_INLINE_DATA_FL))
			continue;
		w.indexed = !!(inode.i_flags & EXT2_INDEX_FL);
		ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY |
				      BLOCK_FLAG_DATA_ONLY, NULL, note_block, &w);
		if (w.failed)
			goto out;
	}
	status = 0;
out:
	ext2fs_close_free(&fs);
	return status;
}

static int load_seed(struct seed *s, const char *dir, const char *file,
		     const char *tmpdir)
{
	char cmd[8192], path[4096];
	FILE *in, *out;
	size_t n;

	memset(s, 0, sizeof(*s));
	s->name = strdup(file);
	s->bytes = malloc(MAX_SEED_SIZE);
	if (!s->name || !s->bytes)
		return -1;
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s/%s'", dir, file);
	in = popen(cmd, "r");
	if (!in)
		return -1;
	s->size = fread(s->bytes, 1, MAX_SEED_SIZE, in);
	if (pclose(in) || !s->size || s->size == MAX_SEED_SIZE) {
		fprintf(stderr, "fuzz: cannot read seed %s/%s\n", dir, file);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/seed", tmpdir);
	out = fopen(path, "w");
	if (!out)
		return -1;
	n = fwrite(s->bytes, 1, s->size, out);
	if (fclose(out) || n != s->size)
		return -1;
	n = find_regions(s, path);
	remove(path);
	return (int)n;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t image_load_seeds(const char *dir, const char *tmpdir,
			struct seed **ret_seeds)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	struct seed *seeds;

	if (!d) {
		perror(dir);
		return 0;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char **p;

		if (len < 8 || strcmp(de->d_name + len - 7, ".img.gz"))
			continue;
		p = realloc(names, (n + 1) * sizeof(*p));
		if (!p)
			abort();
		names = p;
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (!n) {
		fprintf(stderr, "fuzz: no seed images (*.img.gz) in %s\n", dir);
		return 0;
	}
	qsort(names, n, sizeof(*names), by_name);
	seeds = calloc(n, sizeof(*seeds));
	if (!seeds)
		abort();
	for (i = 0; i < n; i++) {
		if (load_seed(&seeds[i], dir, names[i], tmpdir))
			return 0;
		free(names[i]);
	}
	free(names);
	*ret_seeds = seeds;
	return n;
}

const struct seed *image_seed_of(const struct seed *seeds, size_t nseeds,
				 const uint8_t *data, size_t size)
{
	if (size < 1 || !nseeds)
		return NULL;
	return &seeds[data[0] % nseeds];
}

unsigned char *image_build(const struct seed *seed, const uint8_t *data,
			   size_t size)
{
	unsigned char *img = fuzz_malloc(seed->size);
	size_t i = IMAGE_HEADER;

	memcpy(img, seed->bytes, seed->size);
	while (i + IMAGE_PATCH_HEADER <= size) {
		uint32_t off = (data[i] | data[i + 1] << 8 | data[i + 2] << 16 |
				(uint32_t)data[i + 3] << 24) % seed->size;
		size_t n = data[i + 4], k;

		i += IMAGE_PATCH_HEADER;
		for (k = 0; k < n && i < size && off + k < seed->size; k++)
			img[off + k] = data[i++];
		i += n - k;	/* bytes past the image's end are skipped */
	}
	return img;
}

/* Superblock fields casefold checking depends on, and absurd ones. */
static const struct field {
	uint16_t offset;
	uint8_t size;
	uint32_t bits;		/* flip these (0: pick a value) */
} super_fields[] = {
	{ 0x27C, 2, 0 },		/* s_encoding */
	{ 0x27E, 2, 0 },		/* s_encoding_flags */
	{ 0x60, 4, 0x20000 },		/* incompat: casefold */
	{ 0x60, 4, 0x10000 },		/* incompat: encrypt */
	{ 0x60, 4, 0x8000 },		/* incompat: inline_data */
	{ 0x60, 4, 0x4000 },		/* incompat: largedir */
	{ 0x5C, 4, 0x20 },		/* compat: dir_index */
	{ 0x64, 4, 0x400 },		/* ro_compat: metadata_csum */
	{ 0xEC, 4, 0 },			/* s_hash_seed */
	{ 0xFC, 1, 0 },			/* s_def_hash_version */
	{ 0x160, 4, 0x3 },		/* s_flags: signed/unsigned hash */
	{ 0x3A, 2, 0 },			/* s_state */
	{ 0x00, 4, 0 },			/* s_inodes_count */
	{ 0x04, 4, 0 },			/* s_blocks_count */
	{ 0x18, 4, 0 },			/* s_log_block_size */
	{ 0x28, 4, 0 },			/* s_inodes_per_group */
	{ 0x54, 4, 0 },			/* s_first_ino */
	{ 0x58, 2, 0 },			/* s_inode_size */
};

static const struct field inode_fields[] = {
	{ 0x20, 4, 0x40000000 },	/* i_flags: casefold */
	{ 0x20, 4, 0x1000 },		/* i_flags: index */
	{ 0x20, 4, 0x800 },		/* i_flags: encrypt */
	{ 0x20, 4, 0x10000000 },	/* i_flags: inline data */
	{ 0x20, 4, 0x80000 },		/* i_flags: extents */
	{ 0x00, 2, 0 },			/* i_mode */
	{ 0x04, 4, 0 },			/* i_size */
	{ 0x1A, 2, 0 },			/* i_links_count */
	{ 0x28, 4, 0 },			/* i_block: extent header, inline data */
	{ 0x34, 4, 0 },			/* i_block: first extent */
	{ 0x38, 4, 0 },
	{ 0x6C, 4, 0 },			/* i_size_high */
};

/* dx root: info and the first entries. */
static const struct field dx_fields[] = {
	{ 0x1C, 1, 0 },			/* hash_version */
	{ 0x1D, 1, 0 },			/* info_length */
	{ 0x1E, 1, 0 },			/* indirect_levels */
	{ 0x20, 2, 0 },			/* limit */
	{ 0x22, 2, 0 },			/* count */
	{ 0x24, 4, 0 },			/* first block */
	{ 0x28, 4, 0 },			/* second hash */
	{ 0x2C, 4, 0 },			/* second block */
};

static const uint32_t interesting[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 0xff, 0x100, 0x3ff, 0x400, 0x800,
	0xfff, 0x1000, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff,
	0x80000000, 0xfffffffe, 0xffffffff,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t get_le(const unsigned char *p, int size)
{
	uint32_t v = 0;
	int i;

	for (i = size - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Write a patch of n bytes at off into data; the new size or 0. */
static size_t put_patch(uint8_t *data, size_t size, size_t max_size,
			uint32_t off, const unsigned char *bytes, size_t n)
{
	if (size + IMAGE_PATCH_HEADER + n > max_size)
		return 0;
	data[size] = off;
	data[size + 1] = off >> 8;
	data[size + 2] = off >> 16;
	data[size + 3] = off >> 24;
	data[size + 4] = n;
	memcpy(data + size + IMAGE_PATCH_HEADER, bytes, n);
	return size + IMAGE_PATCH_HEADER + n;
}

static size_t mutate_field(const struct seed *seed, const struct region *r,
			   const struct field *f, uint8_t *data, size_t size,
			   size_t max_size, unsigned int *rnd)
{
	uint32_t off = r->offset + f->offset, v;
	unsigned char b[4];
	int i;

	if (f->offset + f->size > r->len)
		return 0;
	v = get_le(seed->bytes + off, f->size);
	if (f->bits)
		v ^= f->bits;
	else if (next_rand(rnd) % 2)
		v = interesting[next_rand(rnd) % COUNT(interesting)];
	else
		v = next_rand(rnd);
	for (i = 0; i < f->size; i++)
		b[i] = v >> (8 * i);
	return put_patch(data, size, max_size, off, b, f->size);
}

/* Bytes that make names interesting to a casefolding checker. */
static const char *const name_bytes[] = {
	"A", "a", "\xc3\x9f", "\xcc\x81", "\xe2\x80\x8d", "\xff", "\x80",
	"\xc3", "\xed\xa0\x80", "\xef\xac\x81", "/", ".", "\0", "\xcd\x85",
};

static size_t mutate_dir_block(const struct seed *seed, const struct region *r,
			       uint8_t *data, size_t size, size_t max_size,
			       unsigned int *rnd)
{
	uint32_t at = next_rand(rnd) % r->len;
	unsigned char b[8];
	const char *s;

	switch (next_rand(rnd) % 5) {
	case 0:		/* a case flip or a bit */
		b[0] = seed->bytes[r->offset + at] ^
		       (next_rand(rnd) % 2 ? 0x20 : 1u << (next_rand(rnd) % 8));
		return put_patch(data, size, max_size, r->offset + at, b, 1);
	case 1:		/* a rec_len or name_len, 4-aligned */
		at &= ~3u;
		b[0] = interesting[next_rand(rnd) % COUNT(interesting)];
		b[1] = next_rand(rnd) % 3 ? 0 : next_rand(rnd) >> 8;
		return put_patch(data, size, max_size,
				 r->offset + at + 4 + next_rand(rnd) % 2, b,
				 1 + next_rand(rnd) % 2);
	case 2:		/* bytes that fold, or do not */
		s = name_bytes[next_rand(rnd) % COUNT(name_bytes)];
		return put_patch(data, size, max_size, r->offset + at,
				 (const unsigned char *)s, s[0] ? strlen(s) : 1);
	case 3:		/* copy bytes from elsewhere in the block */
	{
		uint32_t from = next_rand(rnd) % r->len;
		size_t n = 1 + next_rand(rnd) % 8;

		if (from + n > r->len || at + n > r->len)
			return 0;
		return put_patch(data, size, max_size, r->offset + at,
				 seed->bytes + r->offset + from, n);
	}
	default:	/* a random byte */
		b[0] = next_rand(rnd);
		return put_patch(data, size, max_size, r->offset + at, b, 1);
	}
}

size_t image_mutate(const struct seed *seed, uint8_t *data, size_t size,
		    size_t max_size, unsigned int rnd)
{
	const struct region *r;
	size_t i, pick, n = 0;
	enum region_kind want;

	if (size < IMAGE_HEADER || !seed->nregions)
		return 0;
	/* Pick a kind first, so that 200 directory blocks do not crowd out
	 * the one superblock. */
	want = next_rand(&rnd) % REGION_KINDS;
	for (i = 0; i < seed->nregions; i++)
		n += seed->regions[i].kind == want;
	if (!n)
		want = REGION_DIR_BLOCK;
	for (i = 0, n = 0; i < seed->nregions; i++)
		n += seed->regions[i].kind == want;
	if (!n)
		return 0;
	pick = next_rand(&rnd) % n;
	for (i = 0; i < seed->nregions; i++)
		if (seed->regions[i].kind == want && !pick--)
			break;
	r = &seed->regions[i];
	switch (want) {
	case REGION_SUPER:
		return mutate_field(seed, r, &super_fields[next_rand(&rnd) %
			COUNT(super_fields)], data, size, max_size, &rnd);
	case REGION_INODE:
		return mutate_field(seed, r, &inode_fields[next_rand(&rnd) %
			COUNT(inode_fields)], data, size, max_size, &rnd);
	case REGION_DX_ROOT:
		return mutate_field(seed, r, &dx_fields[next_rand(&rnd) %
			COUNT(dx_fields)], data, size, max_size, &rnd);
	default:
		return mutate_dir_block(seed, r, data, size, max_size, &rnd);
	}
}

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

size_t image_custom_mutate(const struct seed *seeds, size_t nseeds,
			   uint8_t *data, size_t size, size_t max_size,
			   unsigned int rnd)
{
	const struct seed *s;
	size_t n;

	if (size < IMAGE_HEADER) {
		if (max_size < IMAGE_HEADER)
			return size;
		data[0] = rnd;
		data[1] = rnd >> 8;
		size = IMAGE_HEADER;
	}
	if (rnd % 4 == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	s = image_seed_of(seeds, nseeds, data, size);
	n = image_mutate(s, data, size, max_size, rnd);
	return n ? n : LLVMFuzzerMutate(data, size, max_size);
}

void image_write(const char *path, const void *bytes, size_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || pwrite(fd, bytes, size, 0) != (ssize_t)size || close(fd))
		abort();
}

unsigned char *image_read(const char *path, size_t size)
{
	unsigned char *img = fuzz_malloc(size);
	int fd = open(path, O_RDONLY);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) || pread(fd, img, size, 0) != (ssize_t)size)
		abort();
	close(fd);
	FUZZ_ASSERT((size_t)st.st_size == size);
	return img;
}
