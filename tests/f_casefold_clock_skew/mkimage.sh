#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 4M -b 1024 -O casefold
craft "$img" mkdir / cf casefold
{ hex README; hex "café"; hex "Straße"; } | craft "$img" fill /cf
# Mounted by a machine whose clock was 100 s ahead (a VM, another host);
# the script runs e2fsck with the clock at E2FSPROGS_FAKE_TIME.
debugfs -w -R "ssv mtime 20231114221500" "$img" >/dev/null 2>&1 || exit 99
