#!/bin/sh
# fuse_tools: ordinary tools (ls, stat, cat, cp -a, mv, rm, mkdir, ln,
# touch) on casefolded filesystems that e2fold-mkfs -d populated, served
# by e2fold-fuse: every spelling of a name reaches its file, a name equal
# to one there does not make a second entry, and after unmounting
# e2fsck -fn and e2fold-fsck -fn find the filesystem clean and
# e2fold-debugfs finds every name by all its spellings. On 1 KiB and
# 4 KiB blocks, default and strict, each with a casefolded directory of
# 1,050 names (an indexed directory of many leaves); then -o ro refuses
# writes.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
# shellcheck source=tests/fuse/lib.sh
. "$top_srcdir/tests/fuse/lib.sh"
fuse_init fuse_tools

# check LABEL COMMAND...: the command succeeds.
check() {
	label=$1
	shift
	"$@" > "$out/check.out" 2>&1 || {
		kfail "$label: $* failed (status $?):"
		cat "$out/check.out"
	}
}

# check_same WHAT GOT WANT
check_same() {
	[ "$2" = "$3" ] || kfail "$1: got \"$2\", want \"$3\""
}

# The source tree: a casefolded directory cf (README, Straße, é
# precomposed, a big directory, a subtree to copy) and a plain one whose
# names differ in case only.
src=$out/src
mkdir -p "$src/cf/big" "$src/cf/tree/deep/er" "$src/plain"
echo readme > "$src/cf/README"
echo strasse > "$src/cf/Straße"
echo acute > "$src/cf/é"
echo deep > "$src/cf/tree/deep/er/Leaf"
echo lower > "$src/plain/a"
echo upper > "$src/plain/A"
numbered 350 'Name-%d' '\x{3a3}\x{3bf}\x{3c6}\x{3af}\x{3b1}-%d' '\x{416}\x{443}\x{440}-%d' |
	make_files "$src/cf/big"

for kind in default:4096:encoding=utf8 strict:1024:encoding=utf8,encoding_flags=strict; do
	name=${kind%%:*} rest=${kind#*:}
	bs=${rest%%:*} opts=${rest#*:}
	img=$out/$name.img m=$out/mnt
	"$E2FOLD_MKFS" -q -F -b "$bs" -E "$opts,casefold_dirs=cf" -d "$src" "$img" 64M \
		> "$out/mkfs.log" 2>&1 || {
		echo "ERROR: e2fold-mkfs -b $bs -E $opts -d failed:"
		cat "$out/mkfs.log"
		exit 99
	}
	fuse_mount "$img" "$m"

	# Reading by other spellings.
	check_same "$name: cat cf/readme" "$(cat "$m/cf/readme" 2>&1)" readme
	check_same "$name: cat cf/STRASSE" "$(cat "$m/cf/STRASSE" 2>&1)" strasse
	check_same "$name: cat cf/É (decomposed)" "$(cat "$m/cf/$(printf 'E\314\201')" 2>&1)" acute
	check_same "$name: stat cf/Readme is cf/README" \
		"$(stat -c %i "$m/cf/Readme" 2>&1)" "$(stat -c %i "$m/cf/README" 2>&1)"
	check_same "$name: ls cf" "$(ls "$m/cf" | tr '\n' ' ')" "README Straße big tree é "
	check_same "$name: ls cf/big | wc -l" "$(ls "$m/cf/big" | wc -l)" 1050
	check_same "$name: cat cf/TREE/Deep/ER/leaf" "$(cat "$m/cf/TREE/Deep/ER/leaf" 2>&1)" deep
	# Every big name in upper case, in one stat run.
	(cd "$m/cf/big" && ls | tr '[:lower:]' '[:upper:]' | tr '\n' '\0' |
		xargs -0 stat -c %n > "$out/upper.stat" 2>&1) ||
		kfail "$name: stat of the big names in upper case failed: $(grep -v '^[A-Z]' "$out/upper.stat" | head -3)"
	check_same "$name: big names found in upper case" "$(wc -l < "$out/upper.stat")" 1050

	# Writing: an equal name opens the file there.
	check "$name: touch cf/readme" touch "$m/cf/readme"
	echo changed > "$m/cf/ReadMe"
	check_same "$name: cat cf/README after writing cf/ReadMe" "$(cat "$m/cf/README")" changed
	check_same "$name: ls cf after touch" "$(ls "$m/cf" | wc -l)" 5
	check "$name: mkdir cf/NewDir" mkdir "$m/cf/NewDir"
	check "$name: touch cf/newdir/F" touch "$m/cf/newdir/F"
	check_same "$name: cf/NEWDIR inherits the flag" \
		"$(printf 'stat cf/NEWDIR\n' | "$FSOPS" "$m")" "stat cf/NEWDIR -> ok dir 2 cf"
	# cp -a of a plain tree into a new casefolded directory: a and A are
	# one name there, and cp, which creates into a new directory with
	# O_EXCL, is refused the second, as Linux refuses it.
	if cp -a "$m/plain" "$m/cf/copy" 2> "$out/cp.err"; then
		kfail "$name: cp -a plain cf/copy succeeded; want EEXIST for the second of a and A"
	elif ! grep -q 'File exists' "$out/cp.err"; then
		kfail "$name: cp -a plain cf/copy failed otherwise than EEXIST: $(cat "$out/cp.err")"
	fi
	check_same "$name: entries of cf/copy" "$(ls "$m/cf/copy" | wc -l)" 1
	check "$name: cp -a cf/tree cf/tree2" cp -a "$m/cf/tree" "$m/cf/tree2"
	check_same "$name: cat cf/TREE2/deep/er/LEAF" "$(cat "$m/cf/TREE2/deep/er/LEAF" 2>&1)" deep
	check "$name: mv cf/README cf/ReadMe.TXT" mv "$m/cf/README" "$m/cf/ReadMe.TXT"
	check "$name: ln cf/readme.txt cf/Hard" ln "$m/cf/readme.txt" "$m/cf/Hard"
	check "$name: ln -s Hard cf/soft" ln -s Hard "$m/cf/soft"
	check_same "$name: cat cf/SOFT" "$(cat "$m/cf/SOFT" 2>&1)" changed
	check "$name: rm cf/HARD" rm "$m/cf/HARD"
	check "$name: mv cf/BIG/name-7 plain/" mv "$m/cf/BIG/name-7" "$m/plain/"
	check_same "$name: ls plain" "$(ls "$m/plain" | tr '\n' ' ')" "A a name-7 "
	check "$name: rm -r cf/Tree2" rm -r "$m/cf/Tree2"
	check "$name: touch 500 new names in cf/big" sh -c "cd '$m/cf/big' && touch New-\$(seq -s ' New-' 500)"
	check_same "$name: ls cf/big | wc -l" "$(ls "$m/cf/big" | wc -l)" 1549
	check "$name: touch 500 old names in cf/big, upper case" sh -c "cd '$m/cf/big' && touch NEW-\$(seq -s ' NEW-' 500)"
	check_same "$name: ls cf/big | wc -l after" "$(ls "$m/cf/big" | wc -l)" 1549

	fuse_walk "$m" > "$out/$name.walk" || kfail "$name: cannot walk the mount"
	fuse_umount "$m"
	both_fsck_clean "$img"
	# The big directory is still indexed, every entry in its leaf.
	check_htree "$img" /cf/big "$name.big" 1549 "$(fs_hash "$img")" "$(fs_seed "$img")"
	check_reachable "$img" "$out/$name.walk" "$name"
	cat "$out/$name.reach"

	# Read-only: the same files, no writes.
	fuse_mount "$img" "$m" ro
	check_same "$name: ro: cat cf/README.txt" "$(cat "$m/cf/README.txt" 2>&1)" changed
	if touch "$m/cf/new" 2> "$out/ro.err"; then
		kfail "$name: ro: touch cf/new succeeded"
	elif ! grep -q 'Read-only file system' "$out/ro.err"; then
		kfail "$name: ro: touch cf/new failed otherwise than EROFS: $(cat "$out/ro.err")"
	fi
	fuse_umount "$m"
done
kfinish "ordinary tools on e2fold-fuse, judged by both fscks and e2fold-debugfs"
