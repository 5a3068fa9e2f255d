/*
 * session.c: the filesystem e2fold-debugfs works on, opened and closed.
 * Kept apart from main() (debugfs.c) so that the fuzzer
 * (fuzz/fuzz_debugfs.c) opens an image exactly as the tool does.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
	int flags = EXT2_FLAG_IGNORE_CSUM_ERRORS;
	errcode_t retval, unjournaled;

	memset(s, 0, sizeof(*s));
	s->device = device;
	s->writable = writable;
	if (writable)
		flags |= EXT2_FLAG_RW;
	retval = e2fold_open_fs_journaled(device, flags, &s->fs, &unjournaled);
	if (retval == EXT2_ET_JOURNAL_FLAGS_WRONG)
		fprintf(stderr, "%s: %s: the journal needs recovery: run e2fsck "
			"(or mount the filesystem) first\n", prog, device);
	if (retval)
		return retval;
	if (writable && unjournaled && unjournaled != EXT2_ET_NO_JOURNAL)
		fprintf(stderr, "%s: %s: writing without the journal: %s\n",
			prog, device, error_message(unjournaled));
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
