# e2fold-fuse: a FUSE server for casefold ext4 images (libfuse3, low-level API).
# In bin, as fuse2fs: mounting needs /dev/fuse and fusermount3, no
# privilege of its own. configure --disable-fuse leaves it out (and
# libfuse3 and nettle).
if FUSE
bin_PROGRAMS += fuse/e2fold-fuse
endif
fuse_e2fold_fuse_SOURCES = \
	fuse/e2fuse.h \
	fuse/e2fold-fuse.c \
	fuse/options.c \
	fuse/mount.c \
	fuse/commit.c \
	fuse/loop.c \
	fuse/workers.c \
	fuse/signals.c \
	fuse/cache.c \
	fuse/errors.c \
	fuse/remount.c \
	fuse/fallocate.c \
	fuse/node.c \
	fuse/refs.c \
	fuse/names.c \
	fuse/dxcache.c \
	fuse/nokey.h \
	fuse/nokey.c \
	fuse/lookup_request.c \
	fuse/dirops.c \
	fuse/create.c \
	fuse/remove.c \
	fuse/rename.c \
	fuse/readdir.c \
	fuse/attr.c \
	fuse/file.c \
	fuse/xattr.c \
	fuse/acl.c \
	fuse/ioctl.c
fuse_e2fold_fuse_CPPFLAGS = $(E2FOLD_TOOL_CPPFLAGS)
fuse_e2fold_fuse_CFLAGS = $(AM_CFLAGS) $(E2FOLD_TOOL_CFLAGS) $(FUSE_CFLAGS) $(NETTLE_CFLAGS)
fuse_e2fold_fuse_LDADD = $(E2FOLD_TOOL_LIBS) $(FUSE_LIBS) $(NETTLE_LIBS)
