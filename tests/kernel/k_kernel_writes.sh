#!/bin/sh
# k_kernel_writes: the kernel writes, e2fold judges. In one boot, on four
# filesystems (e2fold-mkfs and the system mke2fs; 1k and 4k blocks; strict
# and not; the half_md4, tea and legacy hashes, signed and unsigned; with
# and without no_compat_fallback, bit 1 of s_encoding_flags), the
# kernel makes casefolded directories (mkdir, then FS_IOC_SETFLAGS on the
# empty directory; a subdirectory inherits the flag; a non-empty one
# refuses it) and creates about 3,000 files in them, of many scripts,
# 240-byte names (a two-level hash tree on 1k blocks) and, without strict,
# invalid UTF-8; then other spellings of a sample of them. Each create must
# give what e2fold predicts: EINVAL for a name that e2fold-utf8 valid
# rejects under strict, EEXIST for a spelling that e2fold-utf8 cmp calls
# equal to an existing name, success otherwise. After unmounting,
# e2fold-fsck -fn and e2fsck -fn find every filesystem clean (our hashes
# and the kernel's agree), e2fold-debugfs htree_dump finds every entry in
# the leaf its hash leads to, and each entry's hash as e2fold-utf8 and
# e2fold-debugfs ls -H compute it lies in the hash range of the leaf the
# kernel put it in.
#
# Linux 6.12 and newer scan a casefolded directory linearly after every
# hashed lookup that misses, so every create of a new name costs a scan of
# its directory, unless no_compat_fallback is set (Linux 6.1 never
# scans). The creates give the same results either way, but take several
# times as long: the log shows the seconds each filesystem took (see
# doc/kernel-facts.md, "The compat fallback"). The hashes checked are
# those of doc/kernel-facts.md, "The directory hash of a casefolded name".
#
# Files are left in $top_builddir/tests/kernel/SUITE/k_kernel_writes/.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
kinit k_kernel_writes
names=$out/names
mkdir -p "$names"

# --- The images. ---
# FLAGS: "-" or encoding_flags for e2fold-mkfs (strict, hashonly, both
# joined by "-"); the system mke2fs knows only strict.
mkdir_fs() { # IMAGE BLOCKSIZE FLAGS HASH SIGNEDNESS MAKER
	img=$out/$1
	case $3 in -) flags= ;; *) flags=,encoding_flags=$3 ;; esac
	mkfs=mke2fs
	[ "$6" = e2fold ] && mkfs=$E2FOLD_MKFS
	# s_flags 2: the unsigned hash (tune2fs cannot set it).
	if ! "$mkfs" -q -F -t ext4 -b "$2" -O casefold -E "encoding=utf8$flags" \
		"$img" 32M > "$img.log" 2>&1 ||
	   ! tune2fs -E "hash_alg=$4" "$img" >> "$img.log" 2>&1 ||
	   { [ "$5" = unsigned ] &&
	     ! debugfs -w -R "ssv flags 2" "$img" >> "$img.log" 2>&1; }; then
		echo "ERROR: cannot make $1:"
		cat "$img.log"
		exit 99
	fi
}
mkdir_fs w1.img 1024 hashonly half_md4 signed e2fold
mkdir_fs w2.img 4096 strict tea signed mke2fs
mkdir_fs w3.img 1024 - legacy unsigned mke2fs
mkdir_fs w4.img 1024 strict-hashonly half_md4 unsigned e2fold
# As the VM sees them: DEV STRICT(0/1) IMAGE FLAGS.
printf '%s\n' 'vda 0 w1 hashonly' 'vdb 1 w2 strict' 'vdc 0 w3 -' \
	'vdd 1 w4 strict-hashonly' > "$out/layout"

# --- The names the kernel creates, by directory. ---
# Scripts: the bases of names.txt, numbered; Scripts/Sub: a subdirectory
# made after the flag was set; Long: 240 to 245 bytes, so few to a block;
# Mixed: numbered scripts and five kinds of invalid UTF-8.
{ names_of Scripts; names_of Emoji; names_of Ignorable; } > "$names/bases"
[ -s "$names/bases" ] || { echo "ERROR: no names"; exit 99; }
perl -e 'my @b = map { chomp; $_ } <STDIN>;
	for my $i (0 .. 999) { print $b[$i % @b], unpack("H*", "-$i"), "\n" }' \
	< "$names/bases" > "$names/Scripts"
numbered 100 'Ωméga-%03d' 'Ẫ-%03d' 'ᏣᎳᎩ-%03d' > "$names/Scripts_Sub"
perl -e 'binmode(STDOUT, ":utf8");
	for my $i (0 .. 119) {
		printf("%s-%04d\n", $_, $i) for ("\x{e9}" x 120, "\x{65e5}" x 80,
			"\x{1f600}" x 60, "\x{416}" x 120, "e\x{301}" x 80);
	}' | hexlines > "$names/Long"
numbered 150 'Ελληνικά-%04d' 'ﬁle-%04d' '\x{212A}elvin-%04d' 'Straße-%04d' \
	'한글-%04d' > "$names/Mixed"
numbered 50 'bad\xff-%04d' 'Caf\xe9-%04d' 'Stray\x80-%04d' \
	'\xed\xa0\x80Surr-%04d' 'Trunc\xe2\x82-%04d' >> "$names/Mixed"
dirs="Scripts Scripts/Sub Long Mixed"

# The first round creates the names; the second, other spellings of every
# seventh name.
for d in $dirs; do
	f=$(echo "$d" | tr / _)
	cp "$names/$f" "$out/in.$f.create"
	awk 'NR % 7 == 1' "$out/in.$f.create" > "$names/$f.sample"
	spellings "$names/$f.sample" | awk '$3 != "exact"' > "$out/in.$f.again" || exit 99
	check_spellings "$out/in.$f.again" "$d"
done
# Verdicts of validity, for every name and spelling.
cat "$out"/in.*.create > "$names/all"
cut -d' ' -f1 "$out"/in.*.again >> "$names/all"
sort -u "$names/all" > "$names/all.sorted"
"$E2FOLD_UTF8" valid --hex < "$names/all.sorted" |
	paste -d' ' "$names/all.sorted" - > "$names/valid"

# --- In the VM. ---
cat > "$out/scenario.sh" <<'EOF'
for dev in vda vdb vdc vdd; do
	read -r t0 x < /proc/uptime
	m=/mnt/$dev
	for d in Scripts Long Mixed; do
		mkdir "$m/$d"
		echo "$dev setflag $d: $(kcf setflag "$m/$d")"
	done
	mkdir "$m/Scripts/Sub" "$m/Plain"
	echo "$dev flags of Scripts/Sub: $(kcf getflags "$m/Scripts/Sub")"
	kcf create "$m/Plain" 66696c65 > /dev/null
	echo "$dev setflag Plain (not empty): $(kcf setflag "$m/Plain")"
	for round in create again; do
		for f in Scripts Scripts_Sub Long Mixed; do
			d=$m/$f
			[ $f = Scripts_Sub ] && d=$m/Scripts/Sub
			kcf creates "$d" "$VM_IN/in.$f.$round" > "$VM_OUT/$dev.$f.$round" ||
				echo "$dev kcf creates $f $round: status $?"
		done
	done
	for f in Scripts Scripts_Sub Long Mixed; do
		d=$m/$f
		[ $f = Scripts_Sub ] && d=$m/Scripts/Sub
		kcf list "$d" > "$VM_OUT/$dev.$f.list"
	done
	read -r t1 x < /proc/uptime
	echo "$dev $t0 $t1" >> "$VM_OUT/times"
done
echo "ext4 errors: $(dmesg | grep -c 'EXT4-fs error')"
dmesg | grep 'EXT4-fs error' | head -5
EOF
{
	for dev in vda vdb vdc vdd; do
		for d in Scripts Long Mixed; do echo "$dev setflag $d: ok"; done
		echo "$dev flags of Scripts/Sub: 0x40080000"
		echo "$dev setflag Plain (not empty): ENOTEMPTY"
	done
	echo "ext4 errors: 0"
} > "$out/expect"

files=
for f in "$out"/in.*; do
	files="$files --file $f"
done
# shellcheck disable=SC2086
run_vm --image "$out/w1.img" --image "$out/w2.img" --image "$out/w3.img" \
	--image "$out/w4.img" $files
kexpect "the kernel's answers differ from the expected ones:"
join "$out/layout" "$out/vm/times" 2>/dev/null |
	awk '{ printf "%s (%s): %.1f s in the VM\n", $1, $4 == "-" ? "no flags" : $4, $6 - $5 }'

# --- Each create gave what e2fold predicts. ---
# creates output: "HEX RESULT" (round create) or "ALT ORIG KIND VERDICT
# RESULT" (round again).
while read -r dev strict img flags; do
	for d in $dirs; do
		f=$(echo "$d" | tr / _)
		if [ ! -f "$out/vm/$dev.$f.create" ] || [ ! -f "$out/vm/$dev.$f.again" ]; then
			kfail "$dev $d: the VM did not create the names"
			continue
		fi
		awk -v strict="$strict" -v label="$dev $d" -v made="$out/$dev.$f.made" '
			FILENAME == ARGV[1] { valid[$1] = $2; next }
			FILENAME == ARGV[2] {
				want = (strict && valid[$1] != "valid") ? "EINVAL" : "ok"
				exists[$1] = (want == "ok")
				check($1, $1, want, $2); next
			}
			{
				if (strict && valid[$1] != "valid") want = "EINVAL"
				else if ($4 == "equal" && exists[$2]) want = "EEXIST"
				else want = "ok"
				check($1, $1 " (" $3 " of " $2 ")", want, $5)
			}
			function check(name, what, want, got) {
				n++
				if (want == "ok") print name > made
				if (got == want) return
				if (bad < 10) printf "FAIL: %s: create %s gave %s, want %s\n", label, what, got, want
				bad++
			}
			END {
				if (bad) printf "FAIL: %s: %d of %d creates not as predicted\n", label, bad, n
				exit bad > 0
			}' "$names/valid" "$out/vm/$dev.$f.create" "$out/vm/$dev.$f.again" || failed=1
		# The subdirectory is an entry of Scripts too.
		[ "$f" = Scripts ] && echo 537562 >> "$out/$dev.$f.made"
		check_listing "$out/$dev.$f.made" "$dev.$f"
	done
done < "$out/layout"

# --- The images after the kernel wrote them. ---
# e2fold-fsck must find each clean. So must the system e2fsck, but for
# what e2fsck 1.47 gets wrong about /Mixed, which holds names it cannot
# fold (see e2fsck_clean); check_htree below holds e2fold to the leaves
# the kernel chose there.
: > "$out/htree.log"
for img in "$out/w1.img" "$out/w2.img" "$out/w3.img" "$out/w4.img"; do
	e2fsck_clean "$img" /Mixed
	e2fold_fsck_clean "$img"
done
while read -r dev strict img flags; do
	img=$out/$img.img
	hash=$(fs_hash "$img") seed=$(fs_seed "$img")
	for d in $dirs; do
		f=$(echo "$d" | tr / _)
		want=$(wc -l < "$out/$dev.$f.made")
		check_htree "$img" "/$d" "$dev.$f" "$want" "$hash" "$seed"
	done
	levels=$("$E2FOLD_DEBUGFS" -R "htree_dump /Long" "$img" 2>&1 |
		sed -n 's/^root: .*indirect levels \([0-9]*\).*/\1/p')
	case $dev in
	vdb) [ "$levels" = 0 ] || kfail "$dev /Long: indirect levels '$levels', want 0" ;;
	*) [ "$levels" = 1 ] || kfail "$dev /Long: indirect levels '$levels', want 1" ;;
	esac
done < "$out/layout"
cat "$out/htree.log" "$out/e2fsck.log" 2>/dev/null
kfinish "e2fold agrees with every name, hash and leaf the kernel wrote"
