/*
 * acl.c: POSIX ACLs as ext4 keeps them (Linux's fs/posix_acl.c and
 * fs/ext4/acl.c). The kernel's FUSE client hands system.posix_acl_access
 * and system.posix_acl_default through in the VFS's xattr layout and
 * leaves the rest to the server: an access ACL that says no more than
 * the mode is not stored but sets the mode; any other one is stored and
 * the mode's group bits become its mask; a new inode in a directory
 * with a default ACL gets that ACL, masked by the mode it is created
 * with (the umask is not applied), and a new directory keeps the default
 * too; chmod rewrites a stored access ACL. libext2fs converts between
 * the VFS layout and ext4's compact one in ext2fs_xattr_get and _set.
 *
 * The VFS layout: a little-endian 32-bit version (2), then entries of
 * a 16-bit tag, 16-bit permissions (rwx) and a 32-bit id, sorted by tag:
 * the owner, named users, the owning group, named groups, the mask, the
 * others; the mask is required where named entries are.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2fuse.h"

#define ACL_VERSION	2
#define ACL_USER_OBJ	0x01
#define ACL_USER	0x02
#define ACL_GROUP_OBJ	0x04
#define ACL_GROUP	0x08
#define ACL_MASK	0x10
#define ACL_OTHER	0x20
#define ACL_PERMS	07

#define CAP_FSETID_BIT	4	/* linux/capability.h */
#define NGROUPS_MAX_HERE 256	/* the groups looked at for one caller */

#define HEADER_SIZE	4
#define ENTRY_SIZE	8

const char e2fuse_acl_access[] = "system.posix_acl_access";
const char e2fuse_acl_default[] = "system.posix_acl_default";

/* An ACL in the VFS layout: entries e[0..count). */
struct acl {
	unsigned char *buf;
	size_t len, count;
};

static unsigned int get16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static unsigned int tag(const struct acl *a, size_t i)
{
	return get16(a->buf + HEADER_SIZE + i * ENTRY_SIZE);
}

static unsigned int perm(const struct acl *a, size_t i)
{
	return get16(a->buf + HEADER_SIZE + i * ENTRY_SIZE + 2);
}

static void set_perm(struct acl *a, size_t i, unsigned int p)
{
	unsigned char *q = a->buf + HEADER_SIZE + i * ENTRY_SIZE + 2;

	q[0] = p & 0xff;
	q[1] = p >> 8;
}

int e2fuse_acl_on(const struct e2fuse *srv)
{
	return !!(srv->fs->super->s_default_mount_opts & EXT2_DEFM_ACL);
}

int e2fuse_acl_name(const char *name)
{
	return !strcmp(name, e2fuse_acl_access) ||
	       !strcmp(name, e2fuse_acl_default);
}

/*
 * Is a (len bytes at value) an ACL the kernel accepts (posix_acl_valid)?
 * 0 with *a pointing into value, or EINVAL. No entries: count 0.
 */
static int parse(const void *value, size_t len, struct acl *a)
{
	unsigned int state = ACL_USER_OBJ, t;
	int needs_mask = 0;
	size_t i;

	a->buf = (unsigned char *)value;
	a->len = len;
	if (len < HEADER_SIZE || (len - HEADER_SIZE) % ENTRY_SIZE ||
	    get16(a->buf) != ACL_VERSION || get16(a->buf + 2))
		return EINVAL;
	a->count = (len - HEADER_SIZE) / ENTRY_SIZE;
	for (i = 0; i < a->count; i++) {
		if (perm(a, i) & ~ACL_PERMS)
			return EINVAL;
		t = tag(a, i);
		if (t == ACL_USER_OBJ && state == ACL_USER_OBJ)
			state = ACL_USER;
		else if (t == ACL_USER && state == ACL_USER)
			needs_mask = 1;
		else if (t == ACL_GROUP_OBJ && state == ACL_USER)
			state = ACL_GROUP;
		else if (t == ACL_GROUP && state == ACL_GROUP)
			needs_mask = 1;
		else if (t == ACL_MASK && state == ACL_GROUP)
			state = ACL_OTHER;
		else if (t == ACL_OTHER && (state == ACL_OTHER ||
					    (state == ACL_GROUP && !needs_mask)))
			state = 0;
		else
			return EINVAL;
	}
	return a->count && state ? EINVAL : 0;
}

/*
 * The permission bits a says (the mask as the group's, where there is
 * one) into *mode; returns 1 if a says more than the mode can
 * (posix_acl_equiv_mode).
 */
static int equiv_mode(const struct acl *a, __u16 *mode)
{
	__u16 m = 0;
	int more = 0;
	size_t i;

	for (i = 0; i < a->count; i++) {
		switch (tag(a, i)) {
		case ACL_USER_OBJ:
			m |= perm(a, i) << 6;
			break;
		case ACL_GROUP_OBJ:
			m |= perm(a, i) << 3;
			break;
		case ACL_OTHER:
			m |= perm(a, i);
			break;
		case ACL_MASK:
			m = (m & ~070) | perm(a, i) << 3;
			more = 1;
			break;
		default:
			more = 1;
		}
	}
	*mode = (*mode & ~0777) | m;
	return more;
}

/*
 * Restrict a (a copy of a default ACL) by the create mode and the mode
 * by a, as posix_acl_create_masq; returns 1 if a says more than *mode.
 */
static int create_masq(struct acl *a, __u16 *mode)
{
	__u16 m = *mode & 0777;
	size_t i, group = a->count, mask = a->count;
	int more = 0;

	for (i = 0; i < a->count; i++) {
		switch (tag(a, i)) {
		case ACL_USER_OBJ:
			set_perm(a, i, perm(a, i) & (m >> 6));
			m &= perm(a, i) << 6 | ~0700;
			break;
		case ACL_GROUP_OBJ:
			group = i;
			break;
		case ACL_OTHER:
			set_perm(a, i, perm(a, i) & m);
			m &= perm(a, i) | ~07;
			break;
		case ACL_MASK:
			mask = i;
			more = 1;
			break;
		default:
			more = 1;
		}
	}
	if (mask == a->count)
		mask = group;
	set_perm(a, mask, perm(a, mask) & (m >> 3));
	m &= perm(a, mask) << 3 | ~070;
	*mode = (*mode & ~0777) | (m & 0777);
	return more;
}

/* Set a's owner, mask (or group) and other entries to mode, as chmod. */
static void chmod_masq(struct acl *a, __u16 mode)
{
	size_t i, group = a->count, mask = a->count;

	for (i = 0; i < a->count; i++) {
		switch (tag(a, i)) {
		case ACL_USER_OBJ:
			set_perm(a, i, (mode >> 6) & ACL_PERMS);
			break;
		case ACL_GROUP_OBJ:
			group = i;
			break;
		case ACL_MASK:
			mask = i;
			break;
		case ACL_OTHER:
			set_perm(a, i, mode & ACL_PERMS);
			break;
		}
	}
	if (mask == a->count)
		mask = group;
	set_perm(a, mask, (mode >> 3) & ACL_PERMS);
}

/* Set (value non-NULL) or remove attribute name of ino. */
static errcode_t store(struct e2fuse *srv, ext2_ino_t ino, const char *name,
		       const void *value, size_t len)
{
	struct ext2_xattr_handle *h;
	errcode_t retval, close_retval;

	retval = e2fuse_xattrs_open(srv, ino, !!value, &h);
	if (retval == EXT2_ET_MISSING_EA_FEATURE)
		return 0;	/* nothing to remove */
	if (retval)
		return retval;
	if (value)
		retval = ext2fs_xattr_set(h, name, value, len);
	else
		retval = ext2fs_xattr_remove(h, name);
	close_retval = ext2fs_xattrs_close(&h);
	return retval ? retval : close_retval;
}

/* Attribute name of ino, *ret_value NULL if it has none. */
static errcode_t fetch(struct e2fuse *srv, ext2_ino_t ino, const char *name,
		       void **ret_value, size_t *ret_len)
{
	struct ext2_xattr_handle *h;
	errcode_t retval;

	*ret_value = NULL;
	*ret_len = 0;
	retval = e2fuse_xattrs_open(srv, ino, 0, &h);
	if (retval == EXT2_ET_MISSING_EA_FEATURE)
		return 0;	/* ext4 keeps no attributes without it */
	if (retval)
		return retval;
	retval = ext2fs_xattr_get(h, name, ret_value, ret_len);
	ext2fs_xattrs_close(&h);
	return retval == EXT2_ET_EA_KEY_NOT_FOUND ? 0 : retval;
}

/* Is gid one of the groups of req's caller (in_group_p)? */
static int caller_in_group(fuse_req_t req, gid_t gid)
{
	gid_t groups[NGROUPS_MAX_HERE];
	int n = fuse_req_getgroups(req, NGROUPS_MAX_HERE, groups), i;

	if (fuse_req_ctx(req)->gid == gid)
		return 1;
	for (i = 0; i < n && i < NGROUPS_MAX_HERE; i++)
		if (groups[i] == gid)
			return 1;
	return 0;
}

/*
 * Does req's caller hold CAP_FSETID? Its effective capabilities, from
 * /proc (the request names the calling thread). Unknown (a caller in
 * another pid namespace, whose id the kernel sends as 0): yes, so that
 * nothing is cleared on a guess.
 */
static int caller_has_fsetid(fuse_req_t req)
{
	pid_t pid = fuse_req_ctx(req)->pid;
	unsigned long long caps = ~0ULL;
	char path[64], line[128];
	FILE *f;

	if (pid <= 0)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return (caps >> CAP_FSETID_BIT) & 1;
}

/*
 * Setting an access ACL clears setgid unless the caller is in the
 * file's group or holds CAP_FSETID (posix_acl_update_mode). The kernel
 * tells the server so only through the extended setxattr, which libfuse
 * 3.14 does not take, so the server finds out itself. Under fakeroot
 * every caller acts as root, who keeps it.
 */
static int caller_keeps_sgid(fuse_req_t req, gid_t gid)
{
	return e2fuse_of(req)->opt.fakeroot || caller_in_group(req, gid) ||
	       caller_has_fsetid(req);
}

int e2fuse_acl_set(fuse_req_t req, ext2_ino_t ino, const char *name,
		   const void *value, size_t len)
{
	struct e2fuse *srv = e2fuse_of(req);
	struct ext2_inode_large inode;
	struct acl a = { NULL, 0, 0 };
	__u16 mode;
	int err, new_mode = 0;

	if (!e2fuse_acl_on(srv))
		return EOPNOTSUPP;
	if (value) {
		err = parse(value, len, &a);
		if (err)
			return err;
		if (!a.count)
			value = NULL;
	}
	err = e2fuse_errno(e2fuse_read_inode(srv, ino, &inode));
	if (err)
		return err;
	mode = inode.i_mode;
	if (!strcmp(name, e2fuse_acl_default)) {
		if (!LINUX_S_ISDIR(mode))
			return value ? EACCES : 0;
	} else if (value) {
		if (!equiv_mode(&a, &mode))
			value = NULL;
		if ((mode & LINUX_S_ISGID) &&
		    !caller_keeps_sgid(req, inode_gid(inode)))
			mode &= ~LINUX_S_ISGID;
		new_mode = 1;
	}
	if (!value) {
		err = e2fuse_errno(fetch(srv, ino, name, (void **)&a.buf,
					 &a.len));
		if (err)
			return err;
		if (!a.buf)
			return new_mode ? e2fuse_errno(e2fuse_xattr_changed(
						srv, ino, &mode)) : 0;
		ext2fs_free_mem(&a.buf);
	}
	err = e2fuse_errno(store(srv, ino, name, value, len));
	if (!err)
		err = e2fuse_errno(e2fuse_xattr_changed(srv, ino,
						new_mode ? &mode : NULL));
	return err;
}

errcode_t e2fuse_acl_chmod(struct e2fuse *srv, ext2_ino_t ino, __u16 mode)
{
	struct acl a;
	void *value;
	size_t len;
	errcode_t retval;

	if (!e2fuse_acl_on(srv) || LINUX_S_ISLNK(mode))
		return 0;
	retval = fetch(srv, ino, e2fuse_acl_access, &value, &len);
	if (retval || !value)
		return retval;
	if (parse(value, len, &a) || !a.count)
		retval = EXT2_ET_INVALID_ARGUMENT;
	if (!retval) {
		chmod_masq(&a, mode);
		retval = store(srv, ino, e2fuse_acl_access, a.buf, a.len);
	}
	ext2fs_free_mem(&value);
	return retval;
}

errcode_t e2fuse_acl_create(struct e2fuse *srv, ext2_ino_t dir,
			    __u16 *mode, mode_t umask,
			    struct e2fuse_new_acl *ret)
{
	struct acl a;
	errcode_t retval;

	memset(ret, 0, sizeof(*ret));
	if (!e2fuse_acl_on(srv) || LINUX_S_ISLNK(*mode)) {
		*mode &= ~umask;
		return 0;
	}
	retval = fetch(srv, dir, e2fuse_acl_default, &ret->dflt,
		       &ret->dflt_len);
	if (retval)
		return retval;
	if (!ret->dflt || parse(ret->dflt, ret->dflt_len, &a) || !a.count) {
		ext2fs_free_mem(&ret->dflt);
		*mode &= ~umask;
		return 0;
	}
	retval = ext2fs_get_mem(a.len, &ret->access);
	if (retval)
		return retval;
	memcpy(ret->access, a.buf, a.len);
	a.buf = ret->access;
	ret->access_len = a.len;
	if (!create_masq(&a, mode))
		ext2fs_free_mem(&ret->access);
	if (!LINUX_S_ISDIR(*mode))
		ext2fs_free_mem(&ret->dflt);
	return 0;
}

errcode_t e2fuse_acl_store_new(struct e2fuse *srv, ext2_ino_t ino,
			       struct e2fuse_new_acl *acl)
{
	errcode_t retval = 0;

	if (acl->access)
		retval = store(srv, ino, e2fuse_acl_access, acl->access,
			       acl->access_len);
	if (!retval && acl->dflt)
		retval = store(srv, ino, e2fuse_acl_default, acl->dflt,
			       acl->dflt_len);
	e2fuse_acl_free(acl);
	return retval;
}

void e2fuse_acl_free(struct e2fuse_new_acl *acl)
{
	ext2fs_free_mem(&acl->access);
	ext2fs_free_mem(&acl->dflt);
}
