/*
 * hashalg.h: directory hash algorithms by name, as the tools read them
 * from their command lines and print them.
 *
 * The versions are ext2_fs.h's EXT2_HASH_*: 0 legacy, 1 half_md4, 2 tea,
 * 3-5 the same three computed over unsigned chars, 6 siphash. The disk
 * holds 0-2 (s_def_hash_version, and the root of each hash tree) or 6 (the
 * root of an encrypted casefolded directory); the superblock flag
 * EXT2_FLAGS_UNSIGNED_HASH turns 0-2 into 3-5, the effective version that
 * is computed (e2fold_effective_hash_version, encoding.h).
 *
 * Every tool takes the same words: what e2fsprogs takes (e2p_string2hash:
 * mke2fs.conf's hash_alg, tune2fs -E hash_alg, debugfs dx_hash -h), in
 * any case as it does, and more; only e2p's HASHALG_7 to HASHALG_255,
 * which name no algorithm, are refused:
 *   legacy, half_md4, tea    bare: the signedness is left to the caller
 *   the same + _signed       versions 0-2 outright
 *   the same + _unsigned     versions 3-5 (e2fold_hash_alg_name's names)
 *   siphash                  version 6
 *   a decimal number 0-6, or HASHALG_N (how e2p prints a number it has no
 *                            name for): that version outright
 * Which of them a tool can use is its own business: siphash is keyed with
 * a directory's encryption key, which no tool has; e2fold-mkfs stores
 * 0-2 only.
 */
#ifndef E2FOLD_HASHALG_H
#define E2FOLD_HASHALG_H

#include <ext2fs/ext2fs.h>

/*
 * Parse text. Returns 0 with the version (0-6) in *ret_version and, if
 * ret_bare is not NULL, in *ret_bare whether text was a bare legacy,
 * half_md4 or tea: *ret_version is then the signed version (0-2), and the
 * caller picks the signedness (the filesystem's flag, say). Returns
 * EINVAL, with *ret_version untouched, for anything else.
 */
errcode_t e2fold_hash_alg_parse(const char *text, int *ret_version,
				int *ret_bare);

/*
 * The name of version (0-6): legacy, half_md4, tea, legacy_unsigned,
 * half_md4_unsigned, tea_unsigned, siphash; "unknown" for any other.
 * e2fold_hash_alg_parse takes each name back to its version.
 */
const char *e2fold_hash_alg_name(int version);

#endif /* E2FOLD_HASHALG_H */
