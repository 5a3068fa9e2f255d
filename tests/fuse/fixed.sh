# fixed.sh: a fixed list of file operations on a casefolded and a plain
# directory, with the answers Linux gives (sourced by tests/fuse_oplists.sh,
# which holds e2fold-fuse to them, and tests/kernel/k_fuse_diff.sh,
# which holds the kernel to them, so that the list itself is checked).
# The operations are the lines without their " -> ANSWER" (fsops,
# tests/fuse/fsops.c). They cover matches across case (Turkish i, sharp
# s, Cherokee, Deseret, Georgian, fullwidth), normalization (combining
# acute, Hangul) and ignorables, EEXIST for a name equal to one there,
# names that are not UTF-8, the casefold flag on empty and non-empty
# directories and its inheritance, links, renames onto another link of
# the same file, names of 256 bytes, byte-exact names in a plain
# directory, and special files (FIFO, socket, character and block
# devices, device numbers of both encodings) in a casefolded directory
# with other inheritable flags (sync, nodump, noatime, notail, dirsync)
# and one that is not inherited (topdir); and POSIX ACLs as ext4 keeps
# them: an ACL the mode can say sets the mode, another one the mask,
# chmod rewrites it, default ACLs reach new inodes in place of the umask.
# fixed_expect INV: the operations and the answers the kernel gives. INV
# is what the casefolded directory answers for a name that is not UTF-8:
# ok on a default filesystem, EINVAL on a strict one.
fixed_expect() {
	inv=$1 miss=ENOENT long=ENAMETOOLONG
	# 255 bytes of a; the names below have 256 bytes.
	a255=$(printf '%0255d' 0 | tr 0 a)
	# The listing of cf at the end, sorted by bytes; the names that are
	# not UTF-8 only where they could be made.
	cf_list='ok 12 Moved Stra\xc3\x9fe ab\xe2\x80\x8dc a\xffb e\xcc\x81t\xc3\xa9 \xc3 \xc4\xb0 \xe1\x83\x90 \xe1\x8e\xa0\xe1\x8e\xa1 \xed\x95\x9c \xef\xbc\xa1 \xf0\x90\x90\x80'
	if [ "$inv" != ok ]; then
		# Strict checks a name in a casefolded directory before its
		# length (the dentry hash refuses it first).
		miss=$inv long=$inv
		cf_list=$(echo "$cf_list" | sed 's/ok 12/ok 10/; s/ a\\xffb//; s/ \\xc3 / /')
	fi
	cat <<EOF
mkdir cf -> ok
setcf cf 1 -> ok
stat cf -> ok dir 2 cf
create cf/README -> ok
stat cf/readme -> ok file 1 0
same cf/README cf/ReadMe -> ok same
open_excl cf/readme -> EEXIST
open_excl cf/README -> EEXIST
create cf/Stra\xc3\x9fe -> ok
open_excl cf/STRASSE -> EEXIST
same cf/strasse cf/STRA\xe1\xba\x9eE -> ok same
create cf/e\xcc\x81t\xc3\xa9 -> ok
same cf/\xc3\xa9t\xc3\xa9 cf/\xc3\x89TE\xcc\x81 -> ok same
open_excl cf/\xc3\x89t\xc3\xa9 -> EEXIST
create cf/ab\xe2\x80\x8dc -> ok
same cf/abc cf/ab\xe2\x80\x8dc -> ok same
open_excl cf/A\xc2\xadBC -> EEXIST
create cf/\xe1\x8e\xa0\xe1\x8e\xa1 -> ok
stat cf/\xea\xad\xb0\xea\xad\xb1 -> ok file 1 0
create cf/\xf0\x90\x90\x80 -> ok
stat cf/\xf0\x90\x90\xa8 -> ok file 1 0
create cf/\xe1\x83\x90 -> ok
open_excl cf/\xe1\xb2\x90 -> EEXIST
create cf/\xc4\xb0 -> ok
stat cf/i -> ENOENT
stat cf/\xc4\xb1 -> ENOENT
create cf/\xef\xbc\xa1 -> ok
stat cf/\xef\xbd\x81 -> ok file 1 0
stat cf/A -> ENOENT
create cf/\xed\x95\x9c -> ok
stat cf/\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab -> ok file 1 0
create cf/a\xffb -> $inv
stat cf/a\xffb -> $(if [ "$inv" = ok ]; then echo "ok file 1 0"; else echo "$inv"; fi)
stat cf/A\xffB -> $miss
create cf/\xc3 -> $inv
mkdir cf/sub -> ok
stat cf/SUB -> ok dir 2 cf
create cf/sub/x -> ok
setcf cf/sub 0 -> ENOTEMPTY
unlink cf/SUB/X -> ok
setcf cf/Sub 0 -> ok
stat cf/sub -> ok dir 2
create cf/sub/Foo -> ok
stat cf/sub/foo -> ENOENT
stat cf/SUB/Foo -> ok file 1 0
unlink cf/sub/Foo -> ok
rmdir cf/sUb -> ok
link cf/readme cf/Hard -> ok
stat cf/HARD -> ok file 2 0
open_excl cf/hard -> EEXIST
symlink target cf/Lnk -> ok
stat cf/LNK -> ok symlink 1 6
write cf/readme hello -> ok
read cf/ReadMe -> ok hello
rename cf/README cf/Moved -> ok
stat cf/readme -> ENOENT
stat cf/MOVED -> ok file 2 5
rename cf/moved cf/HARD -> ok
stat cf/hard -> ok file 2 5
unlink cf/hArD -> ok
create cf/$a255\xff -> $long
create cf/${a255}b -> ENAMETOOLONG
mkdir plain -> ok
create plain/$a255\xff -> ENAMETOOLONG
stat plain -> ok dir 2
create plain/a -> ok
create plain/A -> ok
same plain/a plain/A -> ok different
create plain/\xc3\xa9 -> ok
stat plain/e\xcc\x81 -> ENOENT
create plain/a\xffb -> ok
mkdir plain/sub -> ok
stat plain/sub -> ok dir 2
setcf plain 1 -> ENOTEMPTY
setcf plain/sub 1 -> ok
create plain/sub/Q -> ok
stat plain/sub/q -> ok file 1 0
rename cf/Lnk plain/sub/lnk -> ok
stat plain/sub/LNK -> ok symlink 1 6
mkdir sp -> ok
setcf sp 1 -> ok
setfl sp 380c8 -> ok
mknod sp/Fifo fifo 0:0 -> ok
mknod sp/Sock sock 0:0 -> ok
mknod sp/null chr 1:3 -> ok
mknod sp/c255 chr 255:255 -> ok
mknod sp/c256 chr 256:0 -> ok
mknod sp/m256 chr 0:256 -> ok
mknod sp/cmax chr 4095:1048575 -> ok
mknod sp/sda blk 8:0 -> ok
mknod sp/nvme blk 259:65536 -> ok
mknod sp/FIFO fifo 0:0 -> EEXIST
create sp/file -> ok
mkdir sp/dir -> ok
stat sp/fifo -> ok fifo 1 0
stat sp/SOCK -> ok sock 1 0
stat sp/NULL -> ok chr 1 1:3
stat sp/C255 -> ok chr 1 255:255
stat sp/C256 -> ok chr 1 256:0
stat sp/M256 -> ok chr 1 0:256
stat sp/CMAX -> ok chr 1 4095:1048575
stat sp/SDA -> ok blk 1 8:0
stat sp/NVME -> ok blk 1 259:65536
stat sp/FILE -> ok file 1 0
stat sp/DIR -> ok dir 2 cf
listdir cf -> $cf_list
listdir plain -> ok 5 A a a\xffb sub \xc3\xa9
listdir plain/sub -> ok 2 Q lnk
mkdir acl -> ok
mode acl -> ok 750
create acl/f -> ok
mode acl/f -> ok 640
setacl acl/f a u::6,g::4,o::4 -> ok
mode acl/f -> ok 644
getacl acl/f a -> ENODATA
setacl acl/f a u::6,u:65534:4,g::0,o::0 -> EINVAL
setacl acl/f a u::6,u:65534:4,g::0,m::4,o::0 -> ok
mode acl/f -> ok 640
getacl acl/f a -> ok u::6,u:65534:4,g::0,m::4,o::0
chmod acl/f 600 -> ok
getacl acl/f a -> ok u::6,u:65534:4,g::0,m::0,o::0
setacl acl/f d u::7,g::5,o::5 -> EACCES
rmacl acl/f a -> ok
getacl acl/f a -> ENODATA
mode acl/f -> ok 600
mkdir acl/d -> ok
setacl acl/d d u::7,u:65534:7,g::0,m::7,o::0 -> ok
create acl/d/n -> ok
mode acl/d/n -> ok 640
getacl acl/d/n a -> ok u::6,u:65534:7,g::0,m::4,o::0
getacl acl/d/n d -> ENODATA
mkdir acl/d/s -> ok
mode acl/d/s -> ok 750
getacl acl/d/s a -> ok u::7,u:65534:7,g::0,m::5,o::0
getacl acl/d/s d -> ok u::7,u:65534:7,g::0,m::7,o::0
setacl acl/d d u::7,g::5,o::5 -> ok
create acl/d/m -> ok
mode acl/d/m -> ok 644
getacl acl/d/m a -> ENODATA
mknod acl/d/p fifo 0:0 -> ok
mode acl/d/p -> ok 644
EOF
}
