/*
 * uuid.h: UUIDs for the superblock (s_uuid) and the directory hash seed
 * (s_hash_seed), both stored as the 16 bytes of the canonical text form
 * in order.
 */
#ifndef MKFS_UUID_H
#define MKFS_UUID_H

#include <ext2fs/ext2fs.h>

/* Parse "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"; 0, or EINVAL. */
errcode_t mkfs_uuid_parse(const char *text, unsigned char uu[16]);

/* A random (version 4) UUID from getrandom(); 0, or errno. */
errcode_t mkfs_uuid_random(unsigned char uu[16]);

#endif /* MKFS_UUID_H */
