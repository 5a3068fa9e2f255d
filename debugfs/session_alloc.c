/* session_alloc.c: the bitmaps and new inodes of a session. */
#include "config.h"

#include "debugfs.h"
#include "newinode.h"

errcode_t session_load_bitmaps(struct session *s)
{
	errcode_t retval;

	if (s->bitmaps_loaded)
		return 0;
	retval = ext2fs_read_bitmaps(s->fs);
	if (!retval)
		s->bitmaps_loaded = 1;
	return retval;
}

errcode_t new_inode(struct session *s, ext2_ino_t dir, __u16 mode,
		    __u32 flags, ext2_ino_t *ret_ino)
{
	errcode_t retval = session_load_bitmaps(s);

	if (retval)
		return retval;
	return e2fold_new_inode(s->fs, dir, mode, flags, session_now(s),
				ret_ino);
}
