#!/bin/sh
# Every committed test image is exactly what its mkimage.sh builds from
# nothing, so no test rests on a binary nobody can explain.
set -u
status=0
count=0
tmp=$top_builddir/tests/mkimage-check.img
for script in "$top_srcdir"/tests/*/mkimage.sh; do
	dir=$(dirname "$script")
	[ -f "$dir/image.gz" ] || continue
	count=$((count + 1))
	if ! sh "$script" "$tmp" > "$tmp.log" 2>&1; then
		echo "FAIL: $(basename "$dir"): mkimage.sh failed:"
		cat "$tmp.log"
		status=1
		continue
	fi
	if ! gzip -dc "$dir/image.gz" | cmp -s - "$tmp"; then
		echo "FAIL: $(basename "$dir"): image.gz differs from what mkimage.sh builds"
		status=1
	fi
done
rm -f "$tmp" "$tmp.log"
echo "$count images checked"
exit $status
