#!/bin/sh
# k_fuse_diff: e2fold-fuse and the Linux kernel, given the same file
# operations on copies of one filesystem, answer every operation alike
# and leave the same names in every directory; then the kernel finds
# every name e2fold-fuse wrote by each of its spellings; it stats the
# special files e2fold-fuse made as its own, whose flags and device
# numbers are those it wrote.
#
# The operations: the fixed list of tests/fuse/fixed.sh (whose expected
# answers the kernel must give too, so that the list is checked) and a
# generated one (tests/fuse/genops.pl: a few thousand, many scripts,
# other spellings, invalid UTF-8, deep trees, an indexed directory), run
# by fsops (tests/fuse/fsops.c, built statically for the VM) on a
# default filesystem with 4 KiB blocks and a strict one with 1 KiB, made
# by e2fold-mkfs. e2fold-fuse runs on the host with the lookup rules of
# the kernel under test (-o kernel=6.1, 6.12 or new). One boot: /dev/vda
# and vdb are the kernel's copies, vdc and vdd those e2fold-fuse wrote.
# Results in $top_builddir/tests/kernel/SUITE/k_fuse_diff/.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
# shellcheck source=tests/fuse/lib.sh
. "$top_srcdir/tests/fuse/lib.sh"
# shellcheck source=tests/fuse/fixed.sh
. "$top_srcdir/tests/fuse/fixed.sh"
kinit k_fuse_diff
trap fuse_cleanup EXIT
trap 'exit 1' INT TERM
fuse_require

case $E2FOLD_KERNEL_SUITE in
bookworm) generation=6.1 ;;
trixie) generation=6.12 ;;
*) generation=new ;;
esac

mkdir -p "$out/in"
${CC:-cc} -static -O2 -o "$out/in/fsops" "$top_srcdir/tests/fuse/fsops.c" 2> "$out/cc.log" || {
	echo "ERROR: cannot build fsops statically (needs libc6-dev):"
	cat "$out/cc.log"
	exit 99
}
fixed_expect ok > "$out/default.fixed.expect"
fixed_expect EINVAL > "$out/strict.fixed.expect"
sed 's/ -> .*//' "$out/default.fixed.expect" > "$out/in/fixed.ops"
# The stat lines of the special files and their directory, which the
# kernel also runs on e2fold-fuse's copies.
grep '^stat sp/' "$out/in/fixed.ops" > "$out/in/spstat.ops"
perl "$top_srcdir/tests/fuse/genops.pl" 11 2500 1200 > "$out/in/gen.ops"

for kind in default:4096:encoding=utf8 strict:1024:encoding=utf8,encoding_flags=strict; do
	name=${kind%%:*} rest=${kind#*:}
	bs=${rest%%:*} opts=${rest#*:}
	"$E2FOLD_MKFS" -q -F -b "$bs" -E "$opts" "$out/kernel.$name.img" 32M > "$out/mkfs.log" 2>&1 || {
		echo "ERROR: e2fold-mkfs -b $bs -E $opts failed:"
		cat "$out/mkfs.log"
		exit 99
	}
	cp "$out/kernel.$name.img" "$out/fuse.$name.img"
	# e2fold-fuse's turn; each list in its own directory of the root.
	m=$out/mnt
	fuse_mount "$out/fuse.$name.img" "$m" "kernel=$generation"
	for list in fixed gen; do
		mkdir "$m/$list"
		"$FSOPS" "$m/$list" "$out/in/$list.ops" > "$out/fuse.$name.$list" 2>&1 ||
			kfail "$name: fsops $list.ops through e2fold-fuse stopped (status $?)"
	done
	fuse_walk "$m" > "$out/fuse.$name.walk" || kfail "$name: cannot walk e2fold-fuse's mount"
	fuse_umount "$m"
done

# What the kernel looks up in e2fold-fuse's filesystems: for each
# directory N with the casefold flag, $VM_IN/DEV.N.fmt (its path as a
# printf format, every byte in octal) and DEV.N.KIND.sp (the spellings of
# its names, one kind a file: kcf lookups drops the dentry cache between
# files, so that no spelling is answered by another's dentry).
mkdir -p "$out/reach"
for name in default strict; do
	dev=vdc
	[ $name = strict ] && dev=vdd
	awk '$3 == "cf" { print $1 }' "$out/fuse.$name.walk" | sort -u > "$out/$name.cfdirs"
	n=0
	while IFS= read -r dir; do
		n=$((n + 1))
		base=$out/reach/$dev.$n
		printf '%s\n' "$dir" | perl -ne 'chomp; s/\\x([0-9a-f]{2})/chr(hex($1))/ge;
			print join("", map { sprintf("\\%03o", ord($_)) } split(//, $_)), "\n"' > "$base.fmt"
		# ENVIRON, not -v: awk would read the \x escapes of a -v value.
		d="$dir" awk '$1 == ENVIRON["d"] { print $2 }' "$out/fuse.$name.walk" |
			perl -ne 'chomp; s/\\x([0-9a-f]{2})/chr(hex($1))/ge; print unpack("H*", $_), "\n"' \
			> "$base.names"
		spellings "$base.names" > "$base.all.sp" || exit 99
		# A spelling not equal to its name (Perl's case of dotless i is
		# I, whose fold is i) may be equal to another name of the
		# directory: only the equal ones, and the raw-byte ones that are
		# no name there, have one right answer.
		awk 'FILENAME == ARGV[1] { name[$1] = 1; next }
			$3 == "exact" || $4 == "equal" || ($3 == "rawcase" && !($1 in name))' \
			"$base.names" "$base.all.sp" > "$base.sp"
		rm -f "$base.all.sp"
		split_spellings "$base.sp" "$base"
		rm -f "$base.sp"
		echo "$dev.$n $dir" >> "$out/reach/index"
	done < "$out/$name.cfdirs"
done
(cd "$out/reach" && tar -cf "$out/in/reach.tar" ./*.fmt ./*.sp) || exit 99

cat > "$out/scenario.sh" <<'EOF'
cp "$VM_IN/fsops" /tmp/fsops && chmod +x /tmp/fsops
for dev in vda vdb; do
	for list in fixed gen; do
		mkdir "/mnt/$dev/$list"
		/tmp/fsops "/mnt/$dev/$list" "$VM_IN/$list.ops" > "$VM_OUT/$dev.$list" 2>&1 ||
			echo "fsops $list.ops on $dev: status $?"
	done
done
for dev in vdc vdd; do
	/tmp/fsops "/mnt/$dev/fixed" "$VM_IN/spstat.ops" > "$VM_OUT/$dev.spstat" 2>&1 ||
		echo "fsops spstat.ops on $dev: status $?"
done
mkdir /tmp/reach && tar -xf "$VM_IN/reach.tar" -C /tmp/reach
for fmt in /tmp/reach/*.fmt; do
	[ -f "$fmt" ] || continue
	b=${fmt##*/}
	b=${b%.fmt}
	dev=${b%%.*}
	# shellcheck disable=SC2059
	d=/mnt/$dev/$(printf "$(cat "$fmt")")
	kcf list "$d" > "$VM_OUT/$b.list"
	kcf lookups "$d" /tmp/reach/"$b".*.sp > "$VM_OUT/$b.lookups" ||
		echo "kcf lookups $b: status $?"
done
echo "ext4 errors: $(dmesg | grep -c 'EXT4-fs error')"
dmesg | grep 'EXT4-fs error' | head -5
EOF
run_vm --image "$out/kernel.default.img" --image "$out/kernel.strict.img" \
	--image "$out/fuse.default.img" --image "$out/fuse.strict.img" \
	--file "$out/in/fsops" --file "$out/in/fixed.ops" --file "$out/in/gen.ops" \
	--file "$out/in/reach.tar" --file "$out/in/spstat.ops"
grep -v '^ext4 errors: 0$' "$out/actual" | grep . && kfail "the VM's run said more than it should (above)"

# 1. The fixed list: the kernel gives the answers written down, and so
# does e2fold-fuse.
for name in default strict; do
	dev=vda
	[ $name = strict ] && dev=vdb
	for who in kernel fuse; do
		got=$out/vm/$dev.fixed answerer=Linux
		[ $who = fuse ] && got=$out/fuse.$name.fixed answerer=e2fold-fuse
		if ! diff -u "$out/$name.fixed.expect" "$got" > "$out/$who.$name.fixed.diff"; then
			kfail "$name: $answerer answers the fixed list otherwise than expected (- expected, + $answerer):"
			grep '^[-+][^-+]' "$out/$who.$name.fixed.diff" | head -20
		fi
	done
	# 2. The generated list: the same answer to every operation, but
	# for one difference no FUSE server can avoid. Linux hashes every
	# component of a path as it walks it, the last one too, so that on
	# a strict filesystem a rename or link whose source name is not
	# UTF-8 (in a casefolded directory) fails with EINVAL before the
	# destination is walked; through FUSE the host walks both paths
	# first, and a missing destination directory gives ENOENT without
	# the server being asked. Such lines are counted, not failed.
	paste -d'\n' "$out/vm/$dev.gen" "$out/fuse.$name.gen" | awk -v kind="$name" \
		-v tolerated="$out/$name.gen.tolerated" '
		NR % 2 { k = $0; next }
		k != $0 {
			if (kind == "strict" && ($1 == "rename" || $1 == "link") &&
			    k ~ / -> EINVAL$/ && $0 ~ / -> ENOENT$/) {
				print k > tolerated
				next
			}
			print "-" k
			print "+" $0
		}' > "$out/$name.gen.diff"
	tolerated=0
	[ -f "$out/$name.gen.tolerated" ] && tolerated=$(wc -l < "$out/$name.gen.tolerated")
	if [ "$(wc -l < "$out/vm/$dev.gen")" -ne "$(wc -l < "$out/fuse.$name.gen")" ]; then
		kfail "$name: Linux answered $(wc -l < "$out/vm/$dev.gen") generated operations, e2fold-fuse $(wc -l < "$out/fuse.$name.gen")"
	elif [ -s "$out/$name.gen.diff" ]; then
		kfail "$name: e2fold-fuse answers $(grep -c '^+' "$out/$name.gen.diff") of $(wc -l < "$out/fuse.$name.gen") generated operations otherwise than Linux (- kernel, + e2fold-fuse):"
		head -20 "$out/$name.gen.diff"
	else
		echo "$name: $(wc -l < "$out/fuse.$name.gen") generated operations, the same answers ($(grep -c ' -> ok' "$out/fuse.$name.gen") ok)"
	fi
	echo "$name: $tolerated rename or link answered EINVAL by Linux, ENOENT through FUSE (a source name strict refuses, no destination directory)"
done

# 3. The trees left behind: the same names in every directory, as
# stored, with the same flags (the kernel's copy read through a
# read-only e2fold-fuse mount), and both clean.
for name in default strict; do
	fuse_mount "$out/kernel.$name.img" "$out/mnt" ro
	fuse_walk "$out/mnt" > "$out/kernel.$name.walk" || kfail "$name: cannot walk the kernel's filesystem"
	fuse_umount "$out/mnt"
	if ! diff -u "$out/kernel.$name.walk" "$out/fuse.$name.walk" > "$out/$name.walk.diff"; then
		kfail "$name: the trees differ (DIR NAME FLAG; - kernel, + e2fold-fuse):"
		grep '^[-+][^-+]' "$out/$name.walk.diff" | head -20
	fi
	# The system e2fsck may misjudge the leaves of the indexed directory,
	# which holds names it cannot fold (see e2fsck_clean).
	for who in kernel fuse; do
		e2fsck_clean "$out/$who.$name.img" /gen/cf/big
		e2fold_fsck_clean "$out/$who.$name.img"
	done
done

# 4. The special files e2fold-fuse made (FIFO, socket, devices) and the
# other inodes of fixed/sp: the kernel stats them as it stats its own,
# and their flags (what they inherit, and no extents flag but on files
# and directories) and i_block (a device number in the old encoding in
# word 0 or the new one in word 1; nothing for a FIFO or a socket) are
# those the kernel wrote, as the system debugfs shows them.
# special_inodes IMAGE: "PATH FLAGS IBLOCK" for each inode made in sp.
# The i_block of a file or directory holds its extent tree, which names
# blocks each allocator chose: only a special file's is compared.
special_inodes() {
	awk '($1 == "mknod" || $1 == "create" || $1 == "mkdir") &&
		$2 ~ /^sp(\/|$)/ && $NF == "ok" { print $1, $2 }' "$out/default.fixed.expect" |
	while read -r op p; do
		flags=$(debugfs -R "stat /fixed/$p" "$1" 2>/dev/null |
			sed -n 's/.*Flags: \(0x[0-9a-f]*\).*/\1/p')
		iblock=
		[ "$op" = mknod ] && iblock=" i_block $(debugfs -R "inode_dump -b /fixed/$p" "$1" 2>/dev/null |
			sed -n 's/^[0-9a-f]\{4\}  \(\([0-9a-f]\{4\} \)\{8\}\).*/\1/p' | tr -d ' \n')"
		echo "$p flags $flags$iblock"
	done
}
for name in default strict; do
	dev=vdc kdev=vda
	[ $name = strict ] && dev=vdd kdev=vdb
	grep '^stat sp/' "$out/vm/$kdev.fixed" > "$out/kernel.$name.spstat"
	if ! diff -u "$out/kernel.$name.spstat" "$out/vm/$dev.spstat" > "$out/$name.spstat.diff"; then
		kfail "$name: the kernel stats the special files e2fold-fuse made otherwise than its own (- its own, + e2fold-fuse's):"
		grep '^[-+][^-+]' "$out/$name.spstat.diff"
	fi
	special_inodes "$out/kernel.$name.img" > "$out/kernel.$name.special"
	special_inodes "$out/fuse.$name.img" > "$out/fuse.$name.special"
	if ! diff -u "$out/kernel.$name.special" "$out/fuse.$name.special" > "$out/$name.special.diff"; then
		kfail "$name: the inodes of fixed/sp differ (PATH flags I_BLOCK; - kernel, + e2fold-fuse):"
		grep '^[-+][^-+]' "$out/$name.special.diff"
	fi
done

# 5. Where each entry sits: in every casefolded directory that is
# indexed in either copy, the same index shape (levels, the count and
# hash of every index entry) and the same names in each leaf, in index
# order. Logical block numbers are left out (they say in which order
# blocks were taken, not where names went), and so are inode numbers
# and the order of names inside a leaf (ext4 compacts a leaf when it
# splits it, and lookups do not depend on that order).
# leaves IMAGE DIR: e2fold-debugfs htree_dump of DIR so normalized.
leaves() {
	"$E2FOLD_DEBUGFS" -R "htree_dump $2" "$1" 2>&1 | perl -ne '
		sub flush { print "leaf $leaf: ", join(" ", sort @names), "\n" if defined $leaf;
			undef $leaf; @names = (); }
		if (/^root: .*(hash version \d+).*(indirect levels \d+)/) { flush(); print "root: $1, $2\n"; }
		elsif (/^index block \d+ (\(root\) )?(.*)/) { flush(); print "index $1$2\n"; }
		elsif (/^  entry (\d+): hash (0x[0-9a-f]+) ->/) { print "  entry $1: hash $2\n"; }
		elsif (/^leaf block \d+: (.*)/) { flush(); $leaf = $1; }
		elsif (defined $leaf && /^\s+\S.*?\s+0x[0-9a-f]{8}\s+0x[0-9a-f]{8}\s+\d+ (.*)$/) { push @names, $1; }
		elsif (/^\d+ entries: /) { flush(); print; }
		END { flush(); }'
}
for name in default strict; do
	n=0
	while IFS= read -r dir; do
		# The path as bytes, in double quotes for e2fold-debugfs's
		# parser, which would split it at a space; one with a quote
		# or a control byte cannot be given.
		path=\"/$(printf '%s' "$dir" | perl -pe 's/\\x([0-9a-f]{2})/chr(hex($1))/ge')\"
		if printf '%s' "$path" | perl -ne 'exit(/^".*["\x00-\x1f\x7f].*"$/s ? 0 : 1)'; then
			kfail "$name: cannot name $dir to e2fold-debugfs htree_dump"
			continue
		fi
		"$E2FOLD_DEBUGFS" -R "htree_dump $path" "$out/kernel.$name.img" 2>&1 |
			head -1 | grep -q ', indexed,' ||
			"$E2FOLD_DEBUGFS" -R "htree_dump $path" "$out/fuse.$name.img" 2>&1 |
			head -1 | grep -q ', indexed,' || continue
		n=$((n + 1))
		b=$out/$name.leaves.$n
		leaves "$out/kernel.$name.img" "$path" > "$b.kernel"
		leaves "$out/fuse.$name.img" "$path" > "$b.fuse"
		if ! diff -u "$b.kernel" "$b.fuse" > "$b.diff"; then
			kfail "$name: $path: entries sit elsewhere (- kernel, + e2fold-fuse; $b.diff):"
			grep '^[-+][^-+]' "$b.diff" | cut -c1-200 | head -10
		fi
	done < "$out/$name.cfdirs"
	echo "$name: $n indexed casefolded directories compared leaf by leaf"
	[ $n -gt 0 ] || kfail "$name: no indexed casefolded directory to compare"
done

# 6. The kernel lists each casefolded directory e2fold-fuse wrote as it
# was written and finds each name by each spelling.
while read -r label dir; do
	name=default miss=ENOENT
	case $label in vdd.*) name=strict miss=EINVAL ;; esac
	d="$dir" awk '$1 == ENVIRON["d"] { print $2 }' "$out/fuse.$name.walk" |
		perl -ne 'chomp; s/\\x([0-9a-f]{2})/chr(hex($1))/ge; print unpack("H*", $_), "\n"' \
		> "$out/reach/$label.want"
	check_listing "$out/reach/$label.want" "$label"
	check_lookups "$label" "$miss"
done < "$out/reach/index"
echo "the kernel looked up $(lookup_total) spellings of the names e2fold-fuse wrote"
kfinish "e2fold-fuse and Linux give the same answers and leave the same names"
