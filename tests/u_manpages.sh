#!/bin/sh
# u_manpages: the manual pages hold no control character but tab and
# newline (a form feed typed for \f once printed "#inodeR" in
# e2fold-fsck(8)), and render without a groff warning where man is
# installed.
set -u
top=${top_srcdir:-.}
cd "$top" || exit 99
bad=0
set -- doc/*.[1-8]
[ -f "$1" ] || { echo "ERROR: no manual pages in $top/doc" >&2; exit 99; }
ctl=$(printf '[\001-\010\013-\037\177]')
for page; do
	if LC_ALL=C grep -q "$ctl" "$page"; then
		echo "FAIL: $page holds a control character:"
		LC_ALL=C grep -n "$ctl" "$page" | cat -A | head -3
		bad=1
	fi
	if command -v man >/dev/null 2>&1; then
		warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
		if [ -n "$warn" ]; then
			echo "FAIL: $page: $warn"
			bad=1
		fi
	fi
done
[ $bad -eq 0 ] && echo "PASS: $# pages"
exit $bad
