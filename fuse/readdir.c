/*
 * readdir.c: a directory's names as stored, in the order of its blocks
 * (as the kernel lists a directory read without an htree cursor). The
 * directory is read once at opendir (e2fold_dir_read) and kept with the
 * open handle, so that offsets stay stable while the listing goes on.
 *
 * Names in an encrypted directory are ciphertext: without the key they
 * are listed in the no-key form (nokey.c).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "e2fuse.h"
#include "nokey.h"

static struct e2fold_dir *dir_of(struct fuse_file_info *fi)
{
	return (struct e2fold_dir *)(uintptr_t)fi->fh;
}

void e2fuse_opendir(fuse_req_t req, fuse_ino_t node,
		    struct fuse_file_info *fi)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct e2fold_dir *d;
	errcode_t retval;

	retval = ext2fs_check_directory(srv->fs, e2fuse_ino(node));
	if (!retval)
		retval = e2fold_dir_read(srv->fs, e2fuse_ino(node), &d);
	if (retval) {
		fuse_reply_err(req, e2fuse_errno(retval));
		return;
	}
	fi->fh = (uintptr_t)d;
	fuse_reply_open(req, fi);
}

/* File types of entries as d_type. */
static mode_t type_mode(int file_type)
{
	static const mode_t modes[] = {
		[EXT2_FT_REG_FILE] = S_IFREG,
		[EXT2_FT_DIR] = S_IFDIR,
		[EXT2_FT_CHRDEV] = S_IFCHR,
		[EXT2_FT_BLKDEV] = S_IFBLK,
		[EXT2_FT_FIFO] = S_IFIFO,
		[EXT2_FT_SOCK] = S_IFSOCK,
		[EXT2_FT_SYMLINK] = S_IFLNK,
	};

	if (file_type > 0 && file_type < (int)(sizeof(modes) / sizeof(modes[0])))
		return modes[file_type];
	return 0;
}

/*
 * Offsets: 1 is ".", 2 is "..", 3 + i is d->ents[i]; the offset given
 * with an entry is that of the next one.
 */
void e2fuse_readdir(fuse_req_t req, fuse_ino_t node, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct e2fold_dir *d = dir_of(fi);
	char *buf = malloc(size);
	/* A stored name (up to 255 bytes) or a no-key form (252). */
	char name[EXT2_NAME_LEN + 1];
	size_t used = 0;
	off_t at;

	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	for (at = off; ; at++) {
		struct stat st;
		size_t len;

		memset(&st, 0, sizeof(st));
		if (at == 0) {
			st.st_ino = d->ino;
			strcpy(name, ".");
		} else if (at == 1) {
			st.st_ino = d->dotdot ? d->dotdot : d->ino;
			strcpy(name, "..");
		} else if ((size_t)(at - 2) < d->nents) {
			const struct e2fold_dirent *e = &d->ents[at - 2];

			st.st_ino = e->ino;
			st.st_mode = type_mode(e->file_type);
			if (d->encrypted)
				e2fuse_nokey_name(e2fuse_of(req)->fs, d, e,
						  name);
			else {
				memcpy(name, e->name, e->name_len);
				name[e->name_len] = '\0';
			}
		} else {
			break;
		}
		st.st_ino = e2fuse_node(st.st_ino);
		len = fuse_add_direntry(req, buf + used, size - used, name,
					&st, at + 1);
		if (len > size - used)
			break;
		used += len;
	}
	(void)node;
	fuse_reply_buf(req, buf, used);
	free(buf);
}

void e2fuse_releasedir(fuse_req_t req, fuse_ino_t node EXT2FS_ATTR((unused)),
		       struct fuse_file_info *fi)
{
	e2fold_dir_free(dir_of(fi));
	fuse_reply_err(req, 0);
}
