# t_casefold_lib.sh: helpers for the t_casefold_* tests of e2fold-tune.
# A test's script sources it; run-test has exported top_srcdir, test_dir,
# out_dir and the tools. Work happens in $out_dir (images are named
# relative to it, so outputs need no filtering of paths); failures are
# collected in $status and reported with both sides, and finish()
# compares every expect.N of the test with the out.N the script wrote.
#
# The bar every change must clear (judge): the system e2fsck -fn and
# e2fold-fsck -fn find the image clean, and the inodes reachable from the
# root are exactly those reachable before (remember).

. "$top_srcdir/tests/mkfs-lib.sh"
. "$top_srcdir/tests/mkimage-lib.sh"
LC_ALL=C
export LC_ALL

# tune OUT ARGS...: run e2fold-tune; append "$ e2fold-tune ARGS", its
# filtered output (both streams) and "exit N" to OUT; return N.
tune() {
	out=$1
	shift
	echo "\$ e2fold-tune $*" >> "$out"
	"$E2FOLD_TUNE" "$@" > tune.raw 2>&1
	rc=$?
	filter_output < tune.raw >> "$out"
	echo "exit $rc" >> "$out"
	return $rc
}

# expect_exit WANT GOT WHAT: the exit status is the one expected.
expect_exit() {
	[ "$2" = "$1" ] || fail "$3: exit status $2, expected $1"
}

# remember IMAGE: the inodes reachable now, for judge.
remember() {
	"$CFCRAFT" "$1" reachable > "$1.reachable" || exit 99
}

# judge IMAGE [WHAT]: both checkers find IMAGE clean and every inode
# reachable when it was remembered still is (and no other).
judge() {
	what=${2:-$1}
	if ! e2fsck -fn "$1" > "$1.e2fsck" 2>&1; then
		fail "$what: the system e2fsck -fn finds problems:"
		cat "$1.e2fsck"
	fi
	if ! "$E2FOLD_FSCK" -fn "$1" > "$1.e2fold-fsck" 2>&1; then
		fail "$what: e2fold-fsck -fn finds problems:"
		cat "$1.e2fold-fsck"
	fi
	"$CFCRAFT" "$1" reachable > "$1.reachable.now" || exit 99
	if ! cmp -s "$1.reachable" "$1.reachable.now"; then
		fail "$what: reachable inodes changed (< lost, > new):"
		diff "$1.reachable" "$1.reachable.now" | grep '^[<>]'
	fi
}

# esc: bytes outside printable ASCII as \xHH, so expect files stay text.
esc() {
	perl -pe 's/([^\x20-\x7e\n])/sprintf("\\x%02X", ord($1))/ge'
}

# tree IMAGE DIR: "PATH INODE" for every entry below DIR, recursively,
# sorted, names escaped (the system debugfs reads the image).
tree_walk() {
	debugfs -R "ls -p \"$2\"" "$1" 2>/dev/null |
	while IFS=/ read -r _ ino mode _ _ nm _; do
		case $nm in .|..|"") continue ;; esac
		p=${2%/}/$nm
		echo "$p $ino"
		case $mode in 040*) tree_walk "$1" "$p" ;; esac
	done
}
tree() {
	tree_walk "$@" | sort | esc
}

# casefold_flags IMAGE PATH...: "PATH casefold" or "PATH plain" for each
# directory, from the inode flags the system debugfs shows.
casefold_flags() {
	img=$1
	shift
	for p in "$@"; do
		f=$(ino_field "$img" "$p" Flags)
		if [ $(( ${f:-0} & 0x40000000 )) -ne 0 ]; then
			echo "$p casefold"
		else
			echo "$p plain"
		fi
	done
}

# found_by_casing IMAGE DIR [EVERY]: every (or every EVERY-th) entry of
# DIR whose name is plain ASCII is found by a kernel-style lookup of its
# name in upper case, and the lookup leads to its own inode
# (e2fold-debugfs lookup hashes the name and searches the leaf the hash
# leads to, as Linux does).
found_by_casing() {
	img=$1 dir=$2 every=${3:-1}
	rm -f lookup.cmds lookup.want lookup.got
	"$CFCRAFT" "$img" list "$dir" |
		awk -v dir="$dir" -v every="$every" '
		function unhex(h,   s, i, c) {
			s = ""
			for (i = 1; i < length(h); i += 2) {
				c = index("0123456789abcdef", substr(h, i, 1)) * 16 - 16 + \
				    index("0123456789abcdef", substr(h, i + 1, 1)) - 1
				if (c < 33 || c > 126 || c == 34 || c == 92)
					return ""
				s = s sprintf("%c", c)
			}
			return s
		}
		{
			n = unhex($1)
			if (n == "" || (NR - 1) % every)
				next
			print "lookup " dir " " toupper(n) > "lookup.cmds"
			print $2 > "lookup.want"
		}'
	[ -s lookup.cmds ] || { fail "found_by_casing: no names in $dir"; return; }
	"$E2FOLD_DEBUGFS" -f lookup.cmds "$img" 2>&1 |
		sed -n -e 's/^  found: .* inode \([0-9]*\) .*/\1/p' \
		       -e 's/^  not found.*/missing/p' > lookup.got
	if ! cmp -s lookup.want lookup.got; then
		fail "found_by_casing $dir: lookups in upper case failed:"
		paste lookup.cmds lookup.got lookup.want |
			awk -F'\t' '$2 != $3' | head -n 5
	fi
	rm -f lookup.cmds lookup.want lookup.got
}
