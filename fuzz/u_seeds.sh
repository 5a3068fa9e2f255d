#!/bin/sh
# The fsck fuzzer's seed images are exactly what fuzz/seeds/mkseeds.sh
# builds from nothing, so no fuzzing rests on an unexplained binary.
set -u
tmp=$top_builddir/fuzz/seeds.check
rm -rf "$tmp"
if ! sh "$top_srcdir/fuzz/seeds/mkseeds.sh" "$tmp" > "$tmp.log" 2>&1; then
	echo "FAIL: mkseeds.sh failed:"
	cat "$tmp.log"
	exit 1
fi
status=0 count=0
for seed in "$top_srcdir"/fuzz/seeds/*.img.gz; do
	name=$(basename "$seed")
	count=$((count + 1))
	if [ ! -f "$tmp/$name" ]; then
		echo "FAIL: $name is committed but mkseeds.sh does not build it"
		status=1
	elif ! gzip -dc "$tmp/$name" > "$tmp/raw" ||
	     ! gzip -dc "$seed" | cmp -s - "$tmp/raw"; then
		echo "FAIL: $name differs from what mkseeds.sh builds"
		status=1
	fi
done
for built in "$tmp"/*.img.gz; do
	[ -f "$top_srcdir/fuzz/seeds/$(basename "$built")" ] || {
		echo "FAIL: mkseeds.sh builds $(basename "$built"), which is not committed"
		status=1
	}
done
rm -rf "$tmp" "$tmp.log"
echo "$count seed images checked"
exit $status
