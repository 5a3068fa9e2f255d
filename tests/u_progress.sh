#!/bin/sh
# u_progress: the long jobs show progress as e2fsck -C does. With a
# descriptor, lines "PASS DONE TOTAL LABEL" on it, passes never going
# back, DONE never past TOTAL and never back within a pass, each pass
# ending at its total; with 0, a bar on standard output that ends at
# 100%. mkfs from an archive reads it (pass 1), makes the inodes (2),
# then copies the data (3); from a directory, pass 2 alone. e2fold-utf8 scan takes -C (as e2fsck); e2fold-mkfs and
# e2fold-tune take --progress, since mke2fs's -C is the cluster size and
# tune2fs's the mount count.
set -u
: "${top_builddir:=.}"
utf8=$top_builddir/misc/e2fold-utf8
mkfs=$top_builddir/misc/e2fold-mkfs
tune=$top_builddir/misc/e2fold-tune
tmp=$(mktemp -d "${TMPDIR:-/tmp}/u_progress.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# well_formed WHAT FILE LABEL: the protocol's rules, and at least one line.
well_formed() {
	if ! awk -v label="$3" '
		NF != 4 || $4 != label { print "bad line: " $0; bad = 1; exit }
		$1 < pass { print "pass went back: " $0; bad = 1; exit }
		$1 == pass && $2 < done { print "done went back: " $0; bad = 1; exit }
		$2 > $3 { print "done past total: " $0; bad = 1; exit }
		$1 != pass && n && last_done != last_total {
			print "pass " pass " ended at " last_done "/" last_total; bad = 1; exit }
		{ pass = $1; done = $2; last_done = $2; last_total = $3; n++ }
		END {
			if (bad) exit 1
			if (!n) { print "no progress line"; exit 1 }
			if (last_done != last_total) {
				print "ended at " last_done "/" last_total; exit 1 }
		}' "$2" > "$tmp/why"; then
		echo "FAIL: $1: $(cat "$tmp/why")"
		fail=1
	fi
}

# A tree of 30 directories of 5 files each, and one collision.
mkdir -p "$tmp/tree" || exit 99
i=0
while [ $i -lt 30 ]; do
	mkdir "$tmp/tree/d$i" || exit 99
	for f in a b c d e; do echo "$f" > "$tmp/tree/d$i/$f"; done
	i=$((i + 1))
done
: > "$tmp/tree/d0/A"

"$utf8" scan -C 3 "$tmp/tree" > "$tmp/scan.out" 3> "$tmp/scan.progress"
[ $? -eq 1 ] || { echo "FAIL: scan -C 3: exit status, not 1"; fail=1; }
well_formed "scan -C 3" "$tmp/scan.progress" scan
grep -q '^scanned 31 directories' "$tmp/scan.out" ||
	{ echo "FAIL: scan -C 3: the report changed: $(cat "$tmp/scan.out")"; fail=1; }
"$utf8" scan -C 0 "$tmp/tree" > "$tmp/scan.bar"
tr '\r' '\n' < "$tmp/scan.bar" | grep -q '^scan: |=*| 100.0%$' ||
	{ echo "FAIL: scan -C 0: no bar ending at 100%"; fail=1; }
tr '\r' '\n' < "$tmp/scan.bar" | grep -q '^  same after casefolding:$' ||
	{ echo "FAIL: scan -C 0: the findings are gone"; fail=1; }
"$utf8" scan -C 0 --json "$tmp/tree" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || { echo "FAIL: scan -C 0 --json: not refused"; fail=1; }

rm -f "$tmp/tree/d0/A"
"$mkfs" -q -O casefold -E casefold_dirs=all --progress 3 -d "$tmp/tree" \
	"$tmp/fs.img" 16M 3> "$tmp/mkfs.progress" > "$tmp/mkfs.out" 2>&1 ||
	{ echo "FAIL: mkfs --progress 3: $(cat "$tmp/mkfs.out")"; fail=1; }
well_formed "mkfs --progress 3" "$tmp/mkfs.progress" "$tmp/fs.img"
# Every inode the source needs: 30 directories and their 150 files.
[ "$(tail -n 1 "$tmp/mkfs.progress" | cut -d' ' -f3)" = $((30 + 30 * 5)) ] ||
	{ echo "FAIL: mkfs --progress 3: not one step per inode: $(tail -n 1 "$tmp/mkfs.progress")"; fail=1; }

# From an archive: reading it (1), the inodes (2), its data (3).
tar -C "$tmp" -cf "$tmp/tree.tar" tree || exit 99
rm -f "$tmp/fs.img"
"$mkfs" -q -O casefold -E casefold_dirs=all --progress 3 -d "$tmp/tree.tar" \
	"$tmp/fs.img" 16M 3> "$tmp/ar.progress" > "$tmp/mkfs.out" 2>&1 ||
	{ echo "FAIL: mkfs --progress 3 from an archive: $(cat "$tmp/mkfs.out")"; fail=1; }
well_formed "mkfs --progress 3 from an archive" "$tmp/ar.progress" "$tmp/fs.img"
[ "$(cut -d' ' -f1 "$tmp/ar.progress" | sort -u | tr '\n' ' ')" = "1 2 3 " ] ||
	{ echo "FAIL: mkfs --progress 3 from an archive: not passes 1, 2 and 3"; fail=1; }

"$mkfs" -q -d "$tmp/tree" "$tmp/plain.img" 16M > /dev/null 2>&1 || exit 99
"$tune" -O casefold --casefold / --progress 3 "$tmp/plain.img" \
	3> "$tmp/tune.progress" > "$tmp/tune.out" 2>&1 ||
	{ echo "FAIL: tune --progress 3: $(cat "$tmp/tune.out")"; fail=1; }
well_formed "tune --progress 3" "$tmp/tune.progress" "$tmp/plain.img"
[ "$(cut -d' ' -f1 "$tmp/tune.progress" | sort -u | tr '\n' ' ')" = "1 2 3 " ] ||
	{ echo "FAIL: tune --progress 3: not passes 1, 2 and 3"; fail=1; }
"$tune" --no-casefold / --progress 0 "$tmp/plain.img" > "$tmp/tune.bar" 2>&1 ||
	{ echo "FAIL: tune --progress 0: $(cat "$tmp/tune.bar")"; fail=1; }
tr '\r' '\n' < "$tmp/tune.bar" | grep -q "^$tmp/plain.img: |=*| 100.0%\$" ||
	{ echo "FAIL: tune --progress 0: no bar ending at 100%"; fail=1; }

[ $fail -eq 0 ] && echo "PASS: progress of scan, mkfs and tune"
exit $fail
