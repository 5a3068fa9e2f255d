/*
 * jtxn.c: one transaction through lib/support/txnio.c, for the journal
 * tests (tests/u_journal_replay.sh, tests/u_journal_kill.sh).
 *
 *   jtxn IMAGE MODE
 *
 * opens IMAGE through the transaction layer and, in one transaction,
 * sets the volume label to "journaled", creates the empty files /a and
 * /b in the root directory, /magic (one block whose first four bytes are
 * the jbd2 magic, logged like metadata: it must be escaped) and /ordered
 * (one block of file data, written in place before the commit: ordered
 * mode; written first as metadata, so that the transaction revokes it).
 * Then by MODE:
 *   commit       commits, and closes (a second, small transaction with
 *                the superblock libext2fs writes at close)
 *   stop-before  stops before the commit record, as a crash there would
 *   stop-after   stops after the commit record, before anything is
 *                written in place
 *   refuse       only tries to start the transaction and prints why not
 *   too-big      writes one block more than the journal holds instead,
 *                and prints the room, and what the commit and the close
 *                answer (both must refuse)
 * and prints "blocks N" (the blocks of the first transaction) and, for
 * the stops, nothing is written afterwards.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <et/com_err.h>

#include "faultio.h"
#include "newinode.h"
#include "txnio.h"

static const char *prog = "jtxn";

static void die(errcode_t retval, const char *what)
{
	com_err(prog, retval, "while %s", what);
	exit(1);
}

/* A block of file contents: the jbd2 magic (big-endian) first if magic. */
static void fill(unsigned char *buf, unsigned int size, int magic, int seed)
{
	for (unsigned int i = 0; i < size; i++)
		buf[i] = (unsigned char)(seed + i * 7);
	if (magic) {
		buf[0] = 0xC0;
		buf[1] = 0x3B;
		buf[2] = 0x39;
		buf[3] = 0x98;
	}
}

static ext2_ino_t new_file(ext2_filsys fs, const char *name)
{
	ext2_ino_t ino;
	errcode_t retval;

	retval = e2fold_new_inode(fs, EXT2_ROOT_INO, LINUX_S_IFREG | 0644, 0,
				  1700000000, &ino);
	if (retval)
		die(retval, "making an inode");
	retval = ext2fs_link(fs, EXT2_ROOT_INO, name, ino, EXT2_FT_REG_FILE);
	if (retval)
		die(retval, "linking a file");
	return ino;
}

/* A file of one block; its contents written as data (ordered) or logged. */
static void new_block_file(ext2_filsys fs, const char *name, int magic,
			   int as_data)
{
	ext2_ino_t ino = new_file(fs, name);
	struct ext2_inode inode;
	unsigned char *buf;
	blk64_t blk;
	errcode_t retval;

	retval = ext2fs_new_block2(fs, 0, NULL, &blk);
	if (retval)
		die(retval, "allocating a block");
	ext2fs_block_alloc_stats2(fs, blk, +1);
	buf = malloc(fs->blocksize);
	if (!buf)
		die(EXT2_ET_NO_MEMORY, "allocating a buffer");
	if (as_data) {
		/*
		 * First as metadata, then as data: the data write takes the
		 * block out of the transaction with a revoke record, and the
		 * replay must not bring the first contents back.
		 */
		fill(buf, fs->blocksize, 0, 9);
		retval = io_channel_write_blk64(fs->io, blk, 1, buf);
		if (retval)
			die(retval, "writing a block");
	}
	fill(buf, fs->blocksize, magic, as_data ? 3 : 5);
	e2fold_txn_data(fs, as_data);
	retval = io_channel_write_blk64(fs->io, blk, 1, buf);
	e2fold_txn_data(fs, 0);
	free(buf);
	if (retval)
		die(retval, "writing a block");
	retval = ext2fs_read_inode(fs, ino, &inode);
	if (!retval)
		retval = ext2fs_bmap2(fs, ino, &inode, NULL, BMAP_SET, 0, NULL,
				      &blk);
	if (retval)
		die(retval, "mapping a block");
	retval = ext2fs_read_inode(fs, ino, &inode);
	if (retval)
		die(retval, "reading an inode");
	inode.i_size = fs->blocksize;
	ext2fs_iblk_set(fs, &inode, 1);
	retval = ext2fs_write_inode(fs, ino, &inode);
	if (retval)
		die(retval, "writing an inode");
}

static void edit(ext2_filsys fs)
{
	errcode_t retval = ext2fs_read_bitmaps(fs);

	if (retval)
		die(retval, "reading the bitmaps");
	memset(fs->super->s_volume_name, 0, sizeof(fs->super->s_volume_name));
	strcpy((char *)fs->super->s_volume_name, "journaled");
	ext2fs_mark_super_dirty(fs);
	new_file(fs, "a");
	new_file(fs, "b");
	new_block_file(fs, "magic", 1, 0);
	new_block_file(fs, "ordered", 0, 1);
}

/*
 * More blocks than the journal holds, written as metadata: the room
 * before, then the refusals of the commit and of the close.
 */
static int too_big(ext2_filsys fs)
{
	size_t room = e2fold_txn_room(fs);
	unsigned char *buf = calloc(1, fs->blocksize);
	errcode_t retval;

	if (!buf)
		die(EXT2_ET_NO_MEMORY, "allocating a buffer");
	printf("room %zu\n", room);
	memset(buf, 0x5a, fs->blocksize);
	for (size_t i = 0; i <= room; i++) {
		retval = io_channel_write_blk64(fs->io,
				ext2fs_blocks_count(fs->super) - 1 - i, 1, buf);
		if (retval)
			die(retval, "writing a block");
	}
	free(buf);
	printf("pending %zu, room %zu\n", e2fold_txn_pending(fs),
	       e2fold_txn_room(fs));
	retval = e2fold_txn_commit(fs);
	printf("commit: %s\n", retval ? error_message(retval) : "done");
	retval = e2fold_txn_close(&fs);
	printf("close: %s\n", retval ? error_message(retval) : "done");
	return 0;
}

static enum e2fold_journal_stop stop_of(const char *mode)
{
	if (!strcmp(mode, "stop-before"))
		return E2FOLD_JOURNAL_STOP_BEFORE_COMMIT;
	if (!strcmp(mode, "stop-after"))
		return E2FOLD_JOURNAL_STOP_AFTER_COMMIT;
	if (strcmp(mode, "commit")) {
		fprintf(stderr, "%s: unknown mode %s\n", prog, mode);
		exit(2);
	}
	return E2FOLD_JOURNAL_COMPLETE;
}

int main(int argc, char **argv)
{
	ext2_filsys fs;
	/* Over the fault injector when E2FOLD_FAULT asks (power cuts). */
	io_manager manager = e2fold_txn_io_manager(e2fold_default_io_manager());
	enum e2fold_journal_stop stop;
	errcode_t retval;

	if (argc != 3) {
		fprintf(stderr, "usage: %s IMAGE commit|stop-before|stop-after|"
			"refuse|too-big\n", prog);
		return 2;
	}
	add_error_table(&et_ext2_error_table);
	retval = ext2fs_open2(argv[1], NULL, EXT2_FLAG_RW | EXT2_FLAG_64BITS,
			      0, 0, manager, &fs);
	if (retval)
		die(retval, "opening the filesystem");
	retval = e2fold_txn_begin(fs);
	if (!strcmp(argv[2], "refuse")) {
		printf("%s\n", retval ? error_message(retval) : "accepted");
		ext2fs_close_free(&fs);
		return 0;
	}
	if (retval)
		die(retval, "starting a transaction");
	if (!strcmp(argv[2], "too-big"))
		return too_big(fs);
	stop = stop_of(argv[2]);
	edit(fs);
	/* What libext2fs holds joins at the commit: count after a flush. */
	retval = ext2fs_flush2(fs, 0);
	if (retval)
		die(retval, "flushing");
	printf("blocks %zu\n", e2fold_txn_pending(fs));
	fflush(stdout);
	retval = e2fold_txn_commit_stop(fs, stop);
	if (retval)
		die(retval, "committing");
	retval = e2fold_txn_close(&fs);
	if (retval)
		die(retval, "closing");
	return 0;
}
