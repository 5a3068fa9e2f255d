#!/bin/sh
# k_tune: what e2fold-tune converts, the kernel uses.
#   vda: a 1k-block filesystem from e2fold-mkfs whose plain directory
#        /share holds names of names.txt together with their other
#        spellings (other case, NFC/NFD, ignorables removed), 255-byte
#        names with theirs, and 600 "Photo" names (an index), so that
#        most names collide after casefolding; and /share/Sub more.
#        e2fold-tune --casefold /share -E collisions=rename converts it.
#   vdc: the same conversion of a small tree, on a 4k-block strict
#        filesystem made and populated by the system mke2fs.
#   vdb: an ext4 made by the system mke2fs without casefold, which
#        e2fold-tune -O casefold enables.
# After the conversions no inode is lost and both checkers find the
# images clean. In one boot the kernel lists in each converted directory
# exactly the names and inodes e2fold-debugfs lists, finds every name (the
# renamed ones by their new names) by its own bytes and by every other
# spelling e2fold-utf8 cmp calls equal, and refuses (EEXIST) to create
# another spelling of a name in /share while it creates new names. On vdb
# it makes a casefolded directory (FS_IOC_SETFLAGS) and fills it, while the
# old plain directory stays case-sensitive. After unmounting both checkers
# find every image clean, and every hash lies where the kernel put it.
#
# Files are left in $top_builddir/tests/kernel/SUITE/k_tune/.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
kinit k_tune
names=$out/names
mkdir -p "$names" "$out/in"

# --- vda: the names and their spellings, all in one plain directory. ---
{ names_of Scripts; names_of Emoji; names_of Ignorable; long_names; } > "$names/bases"
[ -s "$names/bases" ] || { echo "ERROR: no names"; exit 99; }
{
	perl "$kdir/spellings.pl" < "$names/bases" | cut -d' ' -f1
	numbered 500 'Photo_%04d.JPG'
	numbered 100 'photo_%04d.jpg'
} | sort -u > "$names/share"
printf 'X\nx\nΩ\nω\n\\x{2126}\nStraße\nSTRASSE\nstrasse\n' | names_to_hex > "$names/sub"
{
	echo "d $(printf share | hexlines)"
	sed "s/^/f $(printf share/ | hexlines)/" "$names/share"
	echo "d $(printf share/Sub | hexlines)"
	sed "s/^/f $(printf share/Sub/ | hexlines)/" "$names/sub"
} | write_tar gnu "$out/share.tar"
"$E2FOLD_MKFS" -q -F -b 1024 -O casefold "$out/a.img" 32M -d "$out/share.tar" \
	> "$out/a.mkfs.log" 2>&1 ||
	{ echo "ERROR: e2fold-mkfs failed:"; cat "$out/a.mkfs.log"; exit 99; }

# --- vdc: a small tree, by the system mke2fs, strict. ---
make_files "$out/tree/share" < "$names/sub"
names_of Scripts | head -12 | make_files "$out/tree/share"
names_of Scripts | head -12 | perl "$kdir/spellings.pl" | awk '$3 == "case" { print $1 }' |
	make_files "$out/tree/share"
make_files "$out/tree/share/Sub" < "$names/sub"
mke2fs -q -F -t ext4 -b 4096 -O casefold -E encoding=utf8,encoding_flags=strict \
	-d "$out/tree" "$out/c.img" 16M > "$out/c.mkfs.log" 2>&1 ||
	{ echo "ERROR: mke2fs failed:"; cat "$out/c.mkfs.log"; exit 99; }

# --- vdb: no casefold yet; a plain directory of names equal but for case. ---
mkdir -p "$out/plain/share"
: > "$out/plain/share/README"
: > "$out/plain/share/readme"
mke2fs -q -F -t ext4 -b 1024 -d "$out/plain" "$out/b.img" 16M > "$out/b.mkfs.log" 2>&1 ||
	{ echo "ERROR: mke2fs failed:"; cat "$out/b.mkfs.log"; exit 99; }

# inodes IMAGE DIR: "HEX INODE" of each entry, sorted (e2fold-debugfs ls).
inodes() {
	"$E2FOLD_DEBUGFS" -R "ls -x $2" "$1" 2>/dev/null |
		awk '/^ [ IC][ IC] *[0-9]+ [a-z]+ +[0-9a-f]+$/ { print $NF, $(NF - 2) }' | sort
}

# --- The conversions. ---
for i in a c; do
	inodes "$out/$i.img" /share | cut -d' ' -f2 > "$out/$i.before"
	inodes "$out/$i.img" /share/Sub | cut -d' ' -f2 >> "$out/$i.before"
	"$E2FOLD_TUNE" --casefold /share -E collisions=rename "$out/$i.img" \
		> "$out/$i.tune.log" 2>&1
	status=$?
	if [ $status -ne 0 ]; then
		kfail "e2fold-tune --casefold /share -E collisions=rename on $i.img exited $status:"
		cat "$out/$i.tune.log"
	fi
	echo "$i.img: $(grep -c ' renamed ' "$out/$i.tune.log") names renamed"
	inodes "$out/$i.img" /share > "$out/$i.share"
	inodes "$out/$i.img" /share/Sub > "$out/$i.sub"
	cat "$out/$i.share" "$out/$i.sub" | cut -d' ' -f2 > "$out/$i.after"
	sort "$out/$i.before" > "$out/$i.before.sorted"
	sort "$out/$i.after" > "$out/$i.after.sorted"
	cmp -s "$out/$i.before.sorted" "$out/$i.after.sorted" ||
		kfail "$i.img: the conversion changed the inodes of /share (see $i.before, $i.after)"
	for d in /share /share/Sub; do
		flags=$("$E2FOLD_DEBUGFS" -R "stat $d" "$out/$i.img" 2>/dev/null |
			sed -n 's/.*Flags: \(0x[0-9a-f]*\).*/\1/p' | head -1)
		case $flags in
		0x4*) ;;
		*) kfail "$i.img: $d is not casefolded after the conversion (flags $flags)" ;;
		esac
	done
done
"$E2FOLD_TUNE" -O casefold "$out/b.img" > "$out/b.tune.log" 2>&1 ||
	{ kfail "e2fold-tune -O casefold on b.img failed:"; cat "$out/b.tune.log"; }
: > "$out/e2fsck.log"
for i in a b c; do
	e2fsck_clean "$out/$i.img"
	e2fold_fsck_clean "$out/$i.img"
done

# --- What the kernel looks up and creates. ---
# The converted directories: every current name and its spellings.
for i in a c; do
	case $i in a) dev=vda ;; c) dev=vdc ;; esac
	for d in share sub; do
		case $d in share) dir=share ;; sub) dir=share+Sub ;; esac
		cut -d' ' -f1 "$out/$i.$d" > "$names/$dev.$dir"
		spellings "$names/$dev.$dir" > "$out/$dev.$dir.sp" || exit 99
		check_spellings "$out/$dev.$dir.sp" "$dev.$dir"
		split_spellings "$out/$dev.$dir.sp" "$out/in/$dev.$dir"
	done
done
# vda /share afterwards: other spellings of 20 names (EEXIST), 50 new ones.
awk '$3 == "case" && n++ < 20 { print $1, $2, $3, $4 }' "$out/vda.share.sp" > "$out/in/again"
numbered 50 'New-Ñame-%02d' | sed 's/$/ - new -/' >> "$out/in/again"
# vdb: a casefolded directory, filled by the kernel, looked up after.
{ names_of Scripts; numbered 250 'Ωméga-%03d'; } > "$names/vdb.cf"
cp "$names/vdb.cf" "$out/in/cf.create"
spellings "$names/vdb.cf" > "$out/vdb.cf.sp" || exit 99
check_spellings "$out/vdb.cf.sp" vdb.cf
split_spellings "$out/vdb.cf.sp" "$out/in/vdb.cf"

cat > "$out/before.sh" <<'EOF'
mkdir /mnt/vdb/cf
echo "vdb setflag cf: $(kcf setflag /mnt/vdb/cf)"
kcf creates /mnt/vdb/cf "$VM_IN/cf.create" > "$VM_OUT/vdb.cf.create"
r=$(kcf lookup /mnt/vdb/share 524541444d45)
l=$(kcf lookup /mnt/vdb/share 726561646d65)
[ "$r" != "$l" ] && echo "vdb plain README and readme: two files" ||
	echo "vdb plain README and readme: $r, $l"
echo "vdb plain ReadMe: $(kcf lookup /mnt/vdb/share 526561644d65)"
EOF
cat > "$out/after.sh" <<'EOF'
kcf creates /mnt/vda/share "$VM_IN/again" > "$VM_OUT/vda.share.again"
EOF
write_scenario "$out/before.sh" "$out/after.sh"
cat > "$out/expect" <<'EOF'
vdb setflag cf: ok
vdb plain README and readme: two files
vdb plain ReadMe: ENOENT
ext4 errors: 0
EOF
files=
for f in "$out/in"/*; do
	files="$files --file $f"
done
# shellcheck disable=SC2086
run_vm --image "$out/a.img" --image "$out/b.img" --image "$out/c.img" $files
kexpect "the kernel's answers differ from the expected ones:"

# --- The kernel's answers. ---
: > "$out/lookups.log"
for dir in vda.share vda.share+Sub vdc.share vdc.share+Sub vdb.cf; do
	case $dir in
	vdb.cf) check_listing "$names/vdb.cf" vdb.cf ;;
	*)
		# Names and inodes, as e2fold-debugfs listed them.
		i=a
		case $dir in vdc.*) i=c ;; esac
		case $dir in *Sub) f=$out/$i.sub ;; *) f=$out/$i.share ;; esac
		if ! sort "$out/vm/$dir.list" 2>/dev/null | diff -u "$f" - > "$out/$dir.list.diff"; then
			kfail "$dir: the kernel lists other names or inodes than e2fold-debugfs (hex inode; - e2fold, + kernel):"
			grep '^[-+][0-9a-f]' "$out/$dir.list.diff" | head -20
		fi ;;
	esac
	check_lookups "$dir" ENOENT
done
grep -v ' ok$' "$out/vm/vdb.cf.create" 2>/dev/null | head -5 | sed 's/^/FAIL: vdb create in cf: /'
[ "$(grep -c ' ok$' "$out/vm/vdb.cf.create" 2>/dev/null)" = "$(wc -l < "$names/vdb.cf")" ] ||
	kfail "vdb: the kernel did not create every name in the casefolded directory"
# "ALT ORIG KIND VERDICT RESULT", or "NEW - new - RESULT".
awk '{ n++; want = ($4 == "equal") ? "EEXIST" : "ok" }
	$NF != want { printf "FAIL: vda create %s in /share: %s, want %s\n", $1, $NF, want; bad++ }
	END { exit bad > 0 || n != 70 }' "$out/vm/vda.share.again" ||
	kfail "vda: creates in the converted /share were not as predicted"

# --- The images after the kernel used them. ---
: > "$out/htree.log"
for i in a b c; do
	e2fsck_clean "$out/$i.img"
	e2fold_fsck_clean "$out/$i.img"
done
want=$(($(wc -l < "$out/a.share") + 50))
check_htree "$out/a.img" /share vda.share "$want" "$(fs_hash "$out/a.img")" \
	"$(fs_seed "$out/a.img")"
check_htree "$out/b.img" /cf vdb.cf "$(wc -l < "$names/vdb.cf")" "$(fs_hash "$out/b.img")" \
	"$(fs_seed "$out/b.img")"
cat "$out/htree.log" "$out/e2fsck.log"
echo "lookups: $(lookup_total) (see lookups.log)"
kfinish "the kernel finds every name in the directories e2fold-tune converted"
