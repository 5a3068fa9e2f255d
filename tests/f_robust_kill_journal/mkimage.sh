#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# A filesystem with a journal that both e2fsck and e2fold repair: an
# entry removed (its inode goes to lost+found), a link count too high, a
# block of a file marked free, and casefold twins in an indexed
# directory. e2fsck's repairs reach the device through the journal
# (doc/crash-safety.md, "e2fsck's repairs").
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 4M -b 1024 -O casefold,has_journal -J size=1
craft "$img" mkdir / cf casefold
{
	i=0
	while [ $i -lt 120 ]; do hex "Datei-$i"; i=$((i + 1)); done
	hex "DATEI-7"; hex "datei-42"
} | craft "$img" fill /cf
craft "$img" mkdir / plain
{
	i=0
	while [ $i -lt 20 ]; do hex "f$i"; i=$((i + 1)); done
} | craft "$img" fill /plain
debugfs -w -f - "$img" > /dev/null 2>&1 <<'CMDS' || exit 99
unlink /plain/f3
sif /plain/f5 links_count 7
write /dev/null /plain/empty
CMDS
blk=$(debugfs -R "bmap /cf 0" "$img" 2>/dev/null) || exit 99
debugfs -w -R "freeb $blk" "$img" > /dev/null 2>&1 || exit 99
