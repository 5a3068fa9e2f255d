#!/bin/sh
# k_fallback: what no_compat_fallback changes on each kernel, and that
# e2fold sets it only where it is safe.
#
# The base image: an indexed casefolded directory /cf of 600 names whose
# entries cfcraft placed by the hash of their raw bytes. 300 lower-case
# names ("plain-N.txt") fold to themselves and lie where their hash leads;
# of 300 "Document-N.PDF" most lie in the wrong leaf (htree_dump says which:
# some land in the right one by chance). Linux 6.12 and newer look a name
# up by its hash and, when that finds nothing in a casefolded directory,
# scan the whole directory, unless s_encoding_flags has no_compat_fallback
# (0x2); Linux 6.1 never scans and ignores the flag (doc/kernel-facts.md,
# "The compat fallback"). So, per kernel:
#   vda: the damage, no flag. Misplaced names are found on 6.12 and newer,
#        not on 6.1; a lower-case spelling of one is refused (EEXIST) on
#        6.12 and newer, and created beside it, a twin, on 6.1.
#   vdb: the damage with the flag (e2fold-debugfs set_encoding_flags, which
#        does not check): misplaced names are found on no kernel, and every
#        kernel creates the twins.
#   vdc: e2fold-fsck -fy, then e2fold-tune -E encoding_flags=no_compat_fallback.
#   vdd: e2fold-tune -E encoding_flags=no_compat_fallback --rebuild.
# On vdc and vdd every kernel finds every name by its bytes and with its
# ASCII letters in the other case, refuses (EEXIST) to create another
# spelling of a name and creates new names; afterwards e2fsck -fn and
# e2fold-fsck -fn find both clean and every entry lies where its hash
# leads. On the base image e2fold-tune refuses the flag (exit 1) and
# leaves every byte as it was. Correctly placed names are found
# everywhere. readdir of the damaged directory misses some misplaced
# entries on every kernel, flag or not (see below). One boot, four disks.
#
# Files are left in $top_builddir/tests/kernel/SUITE/k_fallback/.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
kinit k_fallback
CFCRAFT=${CFCRAFT:-$top_builddir/tests/cfcraft}
export CFCRAFT
. "$top_srcdir/tests/mkimage-lib.sh"
mkdir -p "$out/in"

# What a kernel does with an entry in the wrong leaf: $misplaced_noflag
# is the answer to a lookup of its name without the flag, $twin_noflag
# that to a create of another spelling of it.
case $E2FOLD_KERNEL_SUITE in
bookworm) misplaced_noflag=ENOENT twin_noflag=ok ;;
*) misplaced_noflag=found twin_noflag=EEXIST ;;
esac

# --- The base image and its copies. ---
base=$out/base.img
new_fs "$base" 8M -b 1024 -O casefold
craft "$base" mkdir / cf casefold
{
	i=0
	while [ $i -lt 300 ]; do hex "Document-$i.PDF"; i=$((i + 1)); done
	i=0
	while [ $i -lt 300 ]; do hex "plain-$i.txt"; i=$((i + 1)); done
} | craft "$base" fill /cf raw

# The names htree_dump finds in the wrong bucket, and those it does not.
"$E2FOLD_DEBUGFS" -R "htree_dump /cf" "$base" > "$out/base.htree" 2>&1
awk '/^  wrong bucket / { print $6 }' "$out/base.htree" | hexlines | sort > "$out/misplaced"
awk '/^  ok  / { print $5 }' "$out/base.htree" | hexlines | sort > "$out/placed"
nmis=$(wc -l < "$out/misplaced") nok=$(wc -l < "$out/placed")
echo "base: $nmis entries in the wrong leaf, $nok where their hash leads"
if [ "$nmis" -lt 200 ] || [ "$nok" -lt 300 ] || [ $((nmis + nok)) -ne 600 ]; then
	echo "ERROR: the base image is not as intended (see base.htree)"
	exit 99
fi
"$CFCRAFT" "$base" list /cf | sort > "$out/inodes" || exit 99

# set_flag IMAGE TOOL...: TOOL sets no_compat_fallback on IMAGE; it must
# exit 0, and the superblock must then carry the flag.
set_flag() {
	img=$1 log=$out/$(basename "$1" .img).flag.log
	shift
	"$@" "$img" > "$log" 2>&1
	status=$?
	if [ $status -ne 0 ]; then
		kfail "$* $(basename "$img") exited $status:"
		cat "$log"
	fi
	flags=$("$E2FOLD_DEBUGFS" -R stats "$img" 2>/dev/null | sed -n 's/^Encoding flags: *//p')
	[ "$flags" = "no_compat_fallback (0x0002)" ] ||
		kfail "$(basename "$img"): encoding flags \"$flags\" after $1, want no_compat_fallback"
}

# (Not a, b, ...: the checks of lib.sh use such names themselves.)
img_a=$out/a.img img_b=$out/b.img img_c=$out/c.img img_d=$out/d.img
for img in "$img_a" "$img_b" "$img_c" "$img_d" "$out/refused.img"; do
	cp "$base" "$img"
done
set_flag "$img_b" "$E2FOLD_DEBUGFS" -w -R "set_encoding_flags no_compat_fallback"

# e2fold-tune refuses the flag while entries are misplaced, writing nothing.
"$E2FOLD_TUNE" -E encoding_flags=no_compat_fallback "$out/refused.img" \
	> "$out/refused.log" 2>&1
status=$?
[ $status -eq 1 ] || kfail "e2fold-tune -E encoding_flags=no_compat_fallback on the damaged image exited $status, want 1"
grep -q "^no_compat_fallback is not set: $nmis entries are not where their hash leads" "$out/refused.log" ||
	kfail "e2fold-tune does not say that $nmis entries are misplaced:" "$(tail -2 "$out/refused.log")"
cmp -s "$base" "$out/refused.img" ||
	kfail "e2fold-tune changed the image it refused to change (cmp base.img refused.img)"
rm -f "$out/refused.img"

"$E2FOLD_FSCK" -fy "$img_c" > "$out/c.fsck.log" 2>&1
status=$?
[ $status -eq 1 ] || { kfail "e2fold-fsck -fy on c.img exited $status, want 1:"; tail -5 "$out/c.fsck.log"; }
set_flag "$img_c" "$E2FOLD_TUNE" -E encoding_flags=no_compat_fallback
set_flag "$img_d" "$E2FOLD_TUNE" -E encoding_flags=no_compat_fallback --rebuild
for img in "$img_c" "$img_d"; do
	"$CFCRAFT" "$img" list /cf | sort | cmp -s - "$out/inodes" ||
		kfail "$(basename "$img"): the repair changed the names or inodes of /cf"
	e2fsck_clean "$img"
	e2fold_fsck_clean "$img"
done

# --- The lists: "HEX CLASS ORIG" lines (ORIG the stored name a spelling
# stands for), which kcf answers with a fourth word. ---
# spell PERL CLASS < NAMES: each name, respelled by the perl expression
# PERL on $s, with CLASS and the name itself.
spell() {
	perl -ne 'chomp; my $h = $_; my $s = pack("H*", $h); '"$1"';
		print unpack("H*", $s), " '"$2"' $h\n"'
}
# shellcheck disable=SC2016
same='1' flip='$s =~ tr/a-zA-Z/A-Za-z/' lower='$s = lc($s)'
for dev in vda vdb vdc vdd; do
	{ spell "$same" misplaced < "$out/misplaced"
	  spell "$same" placed < "$out/placed"; } > "$out/in/$dev.exact"
done
for dev in vda vdb; do
	head -10 "$out/misplaced" | spell "$lower" twin > "$out/in/$dev.creates"
done
for dev in vdc vdd; do
	{ spell "$flip" misplaced < "$out/misplaced"
	  spell "$flip" placed < "$out/placed"; } > "$out/in/$dev.flipped"
	{ head -10 "$out/misplaced" | spell "$lower" twin
	  head -10 "$out/placed" | spell "$flip" twin
	  numbered 30 'Fresh-%02d.TXT' | sed 's/$/ new -/'; } > "$out/in/$dev.creates"
done

cat > "$out/scenario.sh" <<'EOF'
# Lookups first, each list with a cold dentry cache; the creates after,
# as a twin would answer a later lookup of its name.
for dev in vda vdb vdc vdd; do
	kcf list /mnt/$dev/cf > "$VM_OUT/$dev.list"
	set -- "$VM_IN/$dev.exact"
	[ -f "$VM_IN/$dev.flipped" ] && set -- "$@" "$VM_IN/$dev.flipped"
	kcf lookups /mnt/$dev/cf "$@" > "$VM_OUT/$dev.lookups" ||
		echo "kcf lookups on $dev: status $?"
done
for dev in vda vdb vdc vdd; do
	kcf creates /mnt/$dev/cf "$VM_IN/$dev.creates" > "$VM_OUT/$dev.creates" ||
		echo "kcf creates on $dev: status $?"
done
echo "ext4 errors: $(dmesg | grep -c 'EXT4-fs error')"
dmesg | grep 'EXT4-fs error' | head -5
EOF
echo "ext4 errors: 0" > "$out/expect"
files=
for f in "$out/in"/*; do
	files="$files --file $f"
done
# shellcheck disable=SC2086
run_vm --image "$img_a" --image "$img_b" --image "$img_c" --image "$img_d" $files
kexpect "the VM's output differs from the expected:"

# judge DEV MISPLACED PLACED TWIN NEW: the kernel's answers on DEV against
# the prediction for each class of name; "found" means the inode of the
# stored name the spelling stands for. One summary line per class.
judge() {
	for f in "$out/vm/$1.list" "$out/vm/$1.lookups" "$out/vm/$1.creates"; do
		[ -f "$f" ] || { kfail "$1: the VM wrote no $(basename "$f")"; return; }
	done
	sort "$out/vm/$1.list" | comm -13 "$out/inodes" - > "$out/$1.unknown"
	[ -s "$out/$1.unknown" ] &&
		kfail "$1: the kernel lists names or inodes that are not in /cf (see $1.unknown)"
	awk -v dev="$1" -v m="$2" -v p="$3" -v t="$4" -v n="$5" '
		FILENAME == ARGV[1] { ino[$1] = $2; next }
		{
			class = $2
			want = (class == "misplaced") ? m : (class == "placed") ? p : \
			       (class == "twin") ? t : n
			if (want == "found")
				want = ino[$3] != "" ? ino[$3] : "(not stored)"
			total[class]++
			if ($4 != want) {
				wrong[class]++
				if (bad++ < 10)
					printf "FAIL: %s: %s %s gives %s, want %s\n",
						dev, class, $1, $4, want
			}
		}
		END {
			for (k in total)
				printf "%s %s: %d %s, %d not as predicted\n", dev, k,
					total[k], (k == "twin" || k == "new") ? "creates" : "lookups",
					wrong[k] + 0
			exit bad > 0
		}' "$out/inodes" "$out/vm/$1.lookups" "$out/vm/$1.creates" \
		> "$out/$1.judged" || failed=1
	grep '^FAIL' "$out/$1.judged"
	grep -v '^FAIL' "$out/$1.judged" | sort
}

# --- The kernel's answers, against the prediction for this kernel. ---
# readdir on a damaged directory: the kernel reads the leaves in hash
# order and drops an entry whose hash lies before the leaf's range, so a
# listing misses some misplaced entries on every kernel, with the flag or
# without (it changes lookups only). Repaired, every entry is listed.
for dev in vda vdb vdc vdd; do
	listed=$(wc -l < "$out/vm/$dev.list" 2>/dev/null || echo 0)
	echo "$dev: the kernel lists $listed of the 600 entries of /cf"
	eval "listed_$dev=$listed"
done
# shellcheck disable=SC2154
[ "$listed_vda" -eq "$listed_vdb" ] ||
	kfail "the kernel lists $listed_vda entries on vda but $listed_vdb on vdb: the flag changed readdir"
# shellcheck disable=SC2154
if [ "$listed_vdc" -ne 600 ] || [ "$listed_vdd" -ne 600 ]; then
	kfail "the kernel does not list all 600 entries of the repaired directories"
fi
echo "prediction for Linux $krelease: without the flag, misplaced names" \
	"give $misplaced_noflag and their twins $twin_noflag; with it, ENOENT and ok"
judge vda "$misplaced_noflag" found "$twin_noflag" -
judge vdb ENOENT found ok -
judge vdc found found EEXIST ok
judge vdd found found EEXIST ok

# --- After the kernel: the repaired images are clean, every entry placed. ---
for img in "$img_c" "$img_d"; do
	e2fsck_clean "$img"
	e2fold_fsck_clean "$img"
done
: > "$out/htree.log"
check_htree "$img_c" /cf vdc.cf 630 "$(fs_hash "$img_c")" "$(fs_seed "$img_c")"
check_htree "$img_d" /cf vdd.cf 630 "$(fs_hash "$img_d")" "$(fs_seed "$img_d")"
cat "$out/htree.log"
kfinish "each kernel misses misplaced entries as predicted, and finds every entry once e2fold repaired and flagged the filesystem"
