/*
 * session.c: the filesystem e2fold-debugfs works on, opened and closed.
 * Kept apart from main() (debugfs.c) so that the fuzzer
 * (fuzz/fuzz_debugfs.c) opens an image exactly as the tool does.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <et/com_err.h>

#include "debugfs.h"
#include "openfs.h"
#include "txnio.h"

static const char *prog = "e2fold-debugfs";

/* The engine of the filesystem's encoding; warns when there is none. */
static void load_encoding(struct session *s)
{
	struct ext2_super_block *sb = s->fs->super;

	if (!ext2fs_has_feature_casefold(sb))
		return;
	s->enc = e2fold_encoding_by_magic(sb->s_encoding);
	if (!s->enc) {
		fprintf(stderr, "%s: %s: unknown encoding %u: names in casefolded "
			"directories are compared byte for byte\n", prog,
			s->device, sb->s_encoding);
		return;
	}
	s->um = e2fold_load_encoding(s->enc);
	if (!s->um) {
		fprintf(stderr, "%s: cannot load encoding %s: %s\n", prog,
			s->enc->name, strerror(errno));
		s->enc = NULL;
	}
}

/*
 * Writable: through the journal when the filesystem has one e2fold
 * writes (each command one transaction, session_commit); said once when
 * it has a journal that e2fold cannot write, whose writes then go
 * straight to the disk as on a filesystem without one.
 */
errcode_t session_open(struct session *s, const char *device, int writable)
{
	struct session_how how = { .writable = writable };

	return session_open_how(s, device, &how);
}

/* -d: the data blocks of an e2image file (-i) are read from source. */
static errcode_t set_data_source(ext2_filsys fs, const char *source)
{
	io_channel data_io;
	errcode_t retval;

	retval = unix_io_manager->open(source, 0, &data_io);
	if (!retval)
		retval = ext2fs_set_data_io(fs, data_io);
	if (retval)
		com_err(prog, retval, "while opening the data source %s",
			source);
	return retval;
}

static errcode_t open_fs(struct session *s, const char *device, int flags)
{
	const struct session_how *how = &s->how;
	errcode_t retval, unjournaled;

	if (how->superblock || how->undo_file || (flags & EXT2_FLAG_IMAGE_FILE))
		return e2fold_open_fs_at(device, flags, how->superblock,
					 how->block_size, how->undo_file,
					 &s->fs);
	retval = e2fold_open_fs_journaled(device, flags, &s->fs, &unjournaled);
	if (retval == EXT2_ET_JOURNAL_FLAGS_WRONG)
		fprintf(stderr, "%s: %s: the journal needs recovery: run e2fsck "
			"(or mount the filesystem) first\n", prog, device);
	if (!retval && s->writable && unjournaled &&
	    unjournaled != EXT2_ET_NO_JOURNAL)
		fprintf(stderr, "%s: %s: writing without the journal: %s\n",
			prog, device, error_message(unjournaled));
	return retval;
}

errcode_t session_open_how(struct session *s, const char *device,
			   const struct session_how *how)
{
	int flags = EXT2_FLAG_IGNORE_CSUM_ERRORS | how->flags;
	errcode_t retval;

	memset(s, 0, sizeof(*s));
	s->device = device;
	s->how = *how;
	s->writable = how->writable;
	if (s->writable)
		flags |= EXT2_FLAG_RW;
	retval = open_fs(s, device, flags);
	if (!retval && how->data_source)
		retval = set_data_source(s->fs, how->data_source);
	if (retval) {
		if (s->fs)
			ext2fs_free(s->fs);
		s->fs = NULL;
		return retval;
	}
	s->cwd = EXT2_ROOT_INO;
	load_encoding(s);
	return 0;
}

errcode_t session_commit(struct session *s)
{
	return s->writable ? e2fold_txn_commit(s->fs) : 0;
}

errcode_t session_close(struct session *s)
{
	errcode_t retval = e2fold_txn_close(&s->fs);

	utf8_unload(s->um);
	s->um = NULL;
	s->enc = NULL;
	return retval;
}
