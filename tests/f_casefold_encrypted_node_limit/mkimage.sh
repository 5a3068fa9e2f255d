#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
encrypted_htree2 "$img"
# Both interior nodes get e2fsprogs' limit, 126 (0x7e), as e2fsck -D
# writes them; poke recomputes the checksum after the new limit.
craft "$img" poke /enc 1 8 7e00
craft "$img" poke /enc 2 8 7e00
