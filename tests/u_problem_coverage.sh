#!/bin/sh
# Every problem code in e2fsck/problem.h fires in at least one image test:
# the tests write JSON reports, and together they must name every code.
set -u
codes=$(sed -n 's/^#define PR_[0-9]_[A-Z0-9_]*[[:space:]]*0x\([0-9A-Fa-f]*\).*/\1/p' \
	"$top_srcdir/e2fsck/problem.h" | tr 'A-F' 'a-f')
reports=$(ls "$top_builddir"/tests/*/report*.json 2>/dev/null)
if [ -z "$reports" ]; then
	echo "FAIL: no image test wrote a report"
	exit 1
fi
seen=$(cat $reports | sed -n 's/.*"code": "0x\([0-9a-f]*\)".*/\1/p' | sort -u)
missing=0
for c in $codes; do
	if ! printf '%s\n' "$seen" | grep -qx "$c"; then
		echo "never fired: 0x$c"
		missing=$((missing + 1))
	fi
done
echo "$(printf '%s\n' "$codes" | wc -l) codes, $missing never fired"
[ $missing -eq 0 ]
