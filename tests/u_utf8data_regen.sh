#!/bin/sh
# The committed lib/ext2fs/utf8data.h is exactly what util/mkutf8data makes
# from $UCD_DIR: the UCD pinned in util/ucd, which make has unpacked and
# verified into the build tree (configure --with-ucd names another copy).
set -u
if [ ! -r "$UCD_DIR/DerivedAge.txt" ]; then
	echo "FAIL: no UCD in $UCD_DIR (make check unpacks util/ucd)"
	exit 99
fi
echo "u_utf8data_regen: regenerating the table from $UCD_DIR" \
	"($(head -n 1 "$UCD_DIR/DerivedAge.txt"))"
new=$top_builddir/tests/utf8data.h.regen
(cd "$UCD_DIR" && sha256sum DerivedAge.txt UnicodeData.txt CaseFolding.txt \
	DerivedCoreProperties.txt NormalizationCorrections.txt) > "$new.sums" || exit 99
if ! "$top_builddir/util/mkutf8data" -u "$UCD_DIR" -s "$new.sums" -o "$new"; then
	echo "FAIL: the generator failed"
	exit 1
fi
if ! cmp -s "$new" "$top_srcdir/lib/ext2fs/utf8data.h"; then
	echo "FAIL: the committed table differs from a fresh one (make regen):"
	diff "$top_srcdir/lib/ext2fs/utf8data.h" "$new" | head -40
	exit 1
fi
rm -f "$new" "$new.sums"
echo "PASS: identical"
