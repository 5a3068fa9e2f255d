/*
 * overlay_inplace.c: e2fsck's repairs written in place, where no journal
 * can take them, so that a run cut short is finished by the next
 * (overlay.h, overlay_store.h).
 *
 * The device is compared with the overlay in pieces of 1 KiB (every ext4
 * block size is a multiple). The pieces that differ are listed, with a
 * checksum of their old and of their new contents, in the overlay's
 * directory ("applying"), written and flushed before the first piece
 * is. Then the pieces are written in three rounds, each flushed: all but
 * the superblocks, then the journal's superblock (e2fsck's replay
 * empties the journal only once what it replayed is in place), then the
 * filesystem's primary superblock, whole. A crash leaves the list and
 * the overlay behind; the next run (fsck_overlay_resume) finds every
 * listed piece still old or already new, and writes them all again.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "overlay_store.h"

#define PIECE 1024
#define APPLYING "applying"

/* One piece that differs: where, its contents' checksums, its round. */
struct piece {
	unsigned long long off;
	__u32 old_crc, new_crc;
	__u32 round;		/* 0: most; 1: the journal's superblock; 2: ours */
	__u32 unused;		/* saved as it is: no padding left undefined */
};

struct pieces {
	struct piece *p;
	size_t n, cap;
};

static __u32 crc(const unsigned char *buf)
{
	return ext2fs_crc32c_le(~0U, buf, PIECE);
}

/* Where the journal's superblock lies, in bytes; 0, 0 when unknown. */
static void journal_super(ext2_filsys fs, unsigned long long *start,
			  unsigned long long *end)
{
	blk64_t pblk = 0;

	*start = *end = 0;
	if (fs && ext2fs_has_feature_journal(fs->super) &&
	    fs->super->s_journal_inum &&
	    !ext2fs_bmap2(fs, fs->super->s_journal_inum, NULL, NULL, 0, 0,
			  NULL, &pblk) && pblk) {
		*start = (unsigned long long)pblk * fs->blocksize;
		*end = *start + fs->blocksize;
	}
}

/* The pieces of the present units that differ from the device. */
static errcode_t find_pieces(io_channel io, ext2_filsys fs,
			     const struct overlay_map *map, int ofd,
			     unsigned long long size, struct pieces *out)
{
	unsigned char *new = NULL, *old = NULL;
	unsigned long long jsb, jsb_end;
	errcode_t retval;

	journal_super(fs, &jsb, &jsb_end);
	retval = ext2fs_get_mem(map->unit, &new);
	if (!retval)
		retval = ext2fs_get_mem(map->unit, &old);
	for (size_t u = 0; !retval && u < map->nbytes * 8; u++) {
		unsigned long long start = (unsigned long long)u * map->unit;
		size_t len = map->unit;

		if (!overlay_unit_present(map, u) || start >= size)
			continue;
		if (start + len > size)
			len = size - start;
		len -= len % PIECE;
		retval = overlay_read_at(ofd, new, len, start);
		if (!retval)
			retval = io_channel_read_blk64(io, start / PIECE,
						       -(int)len, old);
		for (size_t i = 0; !retval && i < len; i += PIECE) {
			unsigned long long off = start + i;
			struct piece *p;

			if (!memcmp(new + i, old + i, PIECE))
				continue;
			retval = e2fold_array_reserve(&out->p, &out->cap,
						      out->n + 1,
						      sizeof(*out->p));
			if (retval)
				break;
			p = &out->p[out->n++];
			memset(p, 0, sizeof(*p));
			p->off = off;
			p->old_crc = crc(old + i);
			p->new_crc = crc(new + i);
			p->round = off == SUPERBLOCK_OFFSET ? 2 :
				   off >= jsb && off < jsb_end ? 1 : 0;
		}
	}
	ext2fs_free_mem(&new);
	ext2fs_free_mem(&old);
	return retval;
}

static errcode_t write_file(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n ? errno : EXT2_ET_SHORT_WRITE;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * The list, on disk before the first piece is written: written aside,
 * flushed, renamed into place, so that it is whole or absent.
 */
static errcode_t save_pieces(const char *dir, const struct pieces *ps)
{
	char path[4200], tmp[4200], head[64];
	errcode_t retval;
	int fd, dfd;

	snprintf(path, sizeof(path), "%s/%s", dir, APPLYING);
	snprintf(tmp, sizeof(tmp), "%s/%s.new", dir, APPLYING);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno;
	snprintf(head, sizeof(head), "e2fold-applying %zu\n", ps->n);
	retval = write_file(fd, head, strlen(head));
	if (!retval)
		retval = write_file(fd, ps->p, ps->n * sizeof(*ps->p));
	if (!retval && fsync(fd))
		retval = errno;
	close(fd);
	if (!retval && rename(tmp, path))
		retval = errno;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		if (!retval && fsync(dfd))
			retval = errno;
		close(dfd);
	}
	return retval;
}

static errcode_t load_pieces(const char *dir, struct pieces *ps, int *found)
{
	char path[4200];
	size_t n;
	FILE *f;
	errcode_t retval = 0;

	*found = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, APPLYING);
	f = fopen(path, "rb");
	if (!f)
		return errno == ENOENT ? 0 : errno;
	*found = 1;
	if (fscanf(f, "e2fold-applying %zu", &n) != 1 || fgetc(f) != '\n')
		retval = EXT2_ET_BAD_MAGIC;
	if (!retval && n) {
		retval = ext2fs_get_array(n, sizeof(*ps->p), &ps->p);
		if (!retval && fread(ps->p, sizeof(*ps->p), n, f) != n)
			retval = EXT2_ET_SHORT_READ;
		if (!retval)
			ps->n = ps->cap = n;
	}
	fclose(f);
	return retval;
}

/* The three rounds, runs of adjacent pieces in one write each. */
static errcode_t write_pieces(io_channel io, int ofd, const struct pieces *ps)
{
	unsigned char *buf = NULL;
	size_t max = 64;	/* pieces in one write */
	errcode_t retval;

	retval = ext2fs_get_mem(max * PIECE, &buf);
	if (!retval)
		retval = io_channel_set_blksize(io, PIECE);
	for (__u32 round = 0; round <= 2 && !retval; round++) {
		size_t i = 0;

		while (!retval && i < ps->n) {
			size_t run = 0;

			if (ps->p[i].round != round) {
				i++;
				continue;
			}
			while (i + run < ps->n && run < max &&
			       ps->p[i + run].round == round &&
			       ps->p[i + run].off ==
			       ps->p[i].off + run * PIECE)
				run++;
			retval = overlay_read_at(ofd, buf, run * PIECE,
						 ps->p[i].off);
			if (!retval)
				retval = io_channel_write_blk64(io,
						ps->p[i].off / PIECE,
						-(int)(run * PIECE), buf);
			i += run;
		}
		if (!retval)
			retval = io_channel_flush(io);
	}
	ext2fs_free_mem(&buf);
	return retval;
}

errcode_t overlay_apply_in_place(io_channel io, ext2_filsys fs,
				 const struct overlay_map *map, int ofd,
				 const char *device, const char *dir)
{
	struct pieces ps = { 0 };
	blk64_t blocks = 0;
	errcode_t retval;

	retval = ext2fs_get_device_size2(device, PIECE, &blocks);
	if (!retval)
		retval = io_channel_set_blksize(io, PIECE);
	if (!retval)
		retval = find_pieces(io, fs, map, ofd, blocks * PIECE, &ps);
	if (!retval && ps.n)
		retval = save_pieces(dir, &ps);
	if (!retval && ps.n)
		retval = write_pieces(io, ofd, &ps);
	ext2fs_free_mem(&ps.p);
	return retval;
}

errcode_t overlay_resume_in_place(io_channel io, int ofd, const char *dir,
				  int *ret_found)
{
	struct pieces ps = { 0 };
	unsigned char buf[PIECE];
	errcode_t retval;

	retval = load_pieces(dir, &ps, ret_found);
	if (!retval && *ret_found)
		retval = io_channel_set_blksize(io, PIECE);
	for (size_t i = 0; !retval && *ret_found && i < ps.n; i++) {
		__u32 now;

		retval = io_channel_read_blk64(io, ps.p[i].off / PIECE, 1, buf);
		now = crc(buf);
		if (!retval && now != ps.p[i].old_crc && now != ps.p[i].new_crc)
			retval = EXT2_ET_BAD_MAGIC;
	}
	if (!retval && *ret_found)
		retval = write_pieces(io, ofd, &ps);
	ext2fs_free_mem(&ps.p);
	return retval;
}
