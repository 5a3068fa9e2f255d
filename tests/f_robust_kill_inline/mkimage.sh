#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# (run-test and tests/u_mkimage_reproducible.sh set CFCRAFT and top_srcdir).
# Kill points in an inline directory: a casefolded directory whose
# entries are in its inode (e2fsprogs' debugfs adds them, as the kernel
# would, without looking for a casefolded twin), two of them one name
# under casefolding. The repair moves it into a block.
. "$top_srcdir/tests/mkimage-lib.sh"
img=${1:-image}
new_fs "$img" 2M -b 1024 -O casefold,inline_data
craft "$img" mkdir / cf casefold
: > "$img.empty"
debugfs -w -f - "$img" > /dev/null 2>&1 <<END || exit 99
write $img.empty /cf/Ab
write $img.empty /cf/aB
write $img.empty /cf/README
END
rm -f "$img.empty"
