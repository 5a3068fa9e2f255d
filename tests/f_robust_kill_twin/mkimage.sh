#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# Kill points where a repair links a file into /lost+found: an encrypted
# casefolded directory with two pairs of entries of one ciphertext name,
# one pair for one inode (a hard link by accident), one for two inodes
# (the second is relinked as /lost+found/#INO before its entry goes).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
encrypted_fs "$img" 2M 60
craft "$img" twin /enc "$(sed -n 11p "$img.names")"
craft "$img" twin /enc "$(sed -n 31p "$img.names")" "$(sed -n 41p "$img.names")"
rm -f "$img.names"
