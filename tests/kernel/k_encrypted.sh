#!/bin/sh
# k_encrypted: encrypted casefolded directories (fscrypt v2, as Android's
# user storage) filled by Debian's kernel, at 1 KiB and 4 KiB blocks, with
# one- and two-level htrees. e2fold-fsck finds them clean in every mode,
# with the system e2fsck in the loop (which alone stops at the first
# interior node: e2fsck/misread.c). Then damage e2fold repairs without the
# key (entries in the wrong leaf, an index node in e2fsprogs' layout, a
# leaf checksum only e2fsck recomputes, a second entry with a name's
# ciphertext for the same inode, and one for another inode); after
# e2fold-fsck -fy the kernel unlocks each directory, finds every name
# under another spelling, lists each once, reads the other inode's file in
# /lost+found, creates new names, and logs no EXT4-fs warning or error.
#
# Linux 6.12 and newer scan a casefolded directory linearly after every
# hashed lookup that misses, so each create of a new name costs a scan of
# the directory: the 7,000 creates of the 4 KiB image would take several
# minutes. That image has no_compat_fallback (bit 1 of s_encoding_flags),
# which turns the scan off; the 1 KiB image keeps the default (see
# doc/kernel-facts.md, "The compat fallback"). The layout checked is
# the one doc/encrypted-htree.md describes.
#
# Files are left in $top_builddir/tests/kernel/SUITE/k_encrypted/.
. "${top_srcdir:-.}/tests/kernel/lib.sh"
. "$top_srcdir/tests/mkimage-lib.sh"
CFCRAFT=${CFCRAFT:-$top_builddir/tests/cfcraft}
kinit k_encrypted

# Names of about 200 bytes fill leaves fast: two levels at 1 KiB after a
# few hundred, at 4 KiB after a few thousand (the root holds 123 and 507).
pad=$(printf '%0180d' 0 | tr 0 x)
lower=$(printf '%s' "Fichier_numéro_${pad}_" | od -An -v -tx1 | tr -d ' \n')
upper=$(printf '%s' "FICHIER_NUMÉRO_$(echo "$pad" | tr x X)_" | od -An -v -tx1 | tr -d ' \n')
later=$(printf '%s' "Créé plus tard " | od -An -v -tx1 | tr -d ' \n')
k1=$out/k1.img k4=$out/k4.img
new_fs "$k1" 64M -b 1024 -N 4096 -O casefold,encrypt
new_fs "$k4" 64M -b 4096 -N 16384 -O casefold,encrypt
"$CFCRAFT" "$k4" super flags=2 || exit 99
# vda: 1 KiB, vdb: 4 KiB; E1 one level, E2 two levels.
counts="vda/E1=40 vda/E2=600 vdb/E1=300 vdb/E2=7000"
# A file the kernel makes beside the series in vdb/E1: the damage gives
# its inode a twin of another name, and takes its own name away.
extra=$(printf '%s' "Fichier à part" | od -An -v -tx1 | tr -d ' \n')
content=$(printf '%s' "contenu à part" | od -An -v -tx1 | tr -d ' \n')

cat > "$out/scenario.sh" <<EOF
for spec in $counts; do
	d=/mnt/\${spec%=*}
	mkdir "\$d" && kcf encrypt "\$d" > /dev/null || echo "\$d: cannot encrypt"
	echo "\$d: created \$(kcf fill "\$d" $lower \${spec#*=})"
done
kcf write /mnt/vdb/E1 $extra $content > /dev/null
echo "extra: \$(kcf lookup /mnt/vdb/E1 $extra)"
dmesg | grep 'EXT4-fs \(warning\|error\)' || true
EOF
run_vm --image "$k1" --image "$k4"
mv "$out/actual" "$out/fill.out"
for spec in $counts; do
	grep -qx "/mnt/${spec%=*}: created ${spec#*=} of ${spec#*=}" "$out/fill.out" ||
		kfail "the kernel did not create every name in ${spec%=*}"
done
xino=$(sed -n 's/^extra: found //p' "$out/fill.out")
[ -n "$xino" ] || kfail "the kernel did not make the extra file: $(grep extra: "$out/fill.out")"
grep -q EXT4-fs "$out/fill.out" && kfail "the kernel warned while filling: $(grep EXT4-fs "$out/fill.out")"

# levels IMAGE DIR: the htree depth the kernel gave DIR.
levels() {
	"$E2FOLD_DEBUGFS" -R "htree $2" "$1" 2>/dev/null |
		sed -n 's/.*indirect levels \([0-9]*\).*/\1/p'
}
for want in "$k1 /E1 0" "$k1 /E2 1" "$k4 /E1 0" "$k4 /E2 1"; do
	set -- $want
	[ "$(levels "$1" "$2")" = "$3" ] ||
		kfail "$(basename "$1")$2 has $(levels "$1" "$2") indirect levels, not $3"
done

# Clean in every mode, e2fsck in the loop, nothing written.
for img in "$k1" "$k4"; do
	b=$(basename "$img" .img)
	sum=$(sha256sum < "$img")
	for mode in -fn -fy "-f -p" "--no-e2fsck -fn"; do
		# shellcheck disable=SC2086
		"$E2FOLD_FSCK" $mode "$img" > "$out/clean.$b.$(echo $mode | tr -d ' -')" 2>&1 ||
			kfail "e2fold-fsck $mode finds $b not clean (exit $?)"
	done
	[ "$(sha256sum < "$img")" = "$sum" ] || kfail "a clean check wrote to $b"
	e2fsck -fn "$img" > "$out/e2fsck.$b.log" 2>&1
	echo "system e2fsck -fn alone on $b: exit $? ($(grep -m1 'corrupted' "$out/e2fsck.$b.log"))"
done

# node IMAGE DIR: the first interior node's logical block, and the hashes
# of its entries 1 and 2.
node() {
	"$E2FOLD_DEBUGFS" -R "htree $2" "$1" 2>/dev/null | awk '
		/^index block [0-9]+:/ && !/root/ { n = $3; sub(":", "", n); on = 1; next }
		on && /entry 1:/ { h1 = $4 } on && /entry 2:/ { print n, h1, $4; exit }'
}
le32() {
	printf '%08x' "$1" | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/'
}
# Damage: in E2 of each image, the index sends the low half of a leaf's
# hashes to the leaf before (misplaced entries); in E1 of the 1 KiB image
# a name gets a second entry for its inode (an exact twin), and a leaf's
# checksum is wrong (e2fsck's to fix, on the device); in E1 of the 4 KiB
# image the extra file's entry becomes a twin of another name; in E2 of
# the 4 KiB image an interior node gets e2fsprogs' limit.
for img in "$k1" "$k4"; do
	set -- $(node "$img" /E2)
	[ $# -eq 3 ] || { kfail "no interior node found in $(basename "$img")/E2"; continue; }
	mid=$(( ($2 / 2 + $3 / 2) & ~1 ))
	"$CFCRAFT" "$img" poke /E2 "$1" 16 "$(le32 $mid)" || exit 99
done
# cipher IMAGE DIR N: the ciphertext (hex) of DIR's entry N, in directory
# order; cipher_of IMAGE DIR INO: that of inode INO's entry.
cipher() {
	"$CFCRAFT" "$1" list "$2" | sed -n "$3s/ .*//p"
}
cipher_of() {
	"$CFCRAFT" "$1" list "$2" | awk -v i="$3" '$2 == i { print $1 }'
}
# cipher_not IMAGE DIR N INO: that of DIR's entry N, or of the next one
# if entry N is inode INO's (a twin of itself would change nothing).
cipher_not() {
	"$CFCRAFT" "$1" list "$2" |
		awk -v n="$3" -v i="$4" 'NR >= n && $2 != i { print $1; exit }'
}
twin_ino=$("$CFCRAFT" "$k1" list /E1 | sed -n '7s/.* //p')
"$CFCRAFT" "$k1" twin /E1 "$(cipher "$k1" /E1 7)" || exit 99
"$CFCRAFT" "$k4" twin /E1 "$(cipher_not "$k4" /E1 100 "$xino")" \
	"$(cipher_of "$k4" /E1 "$xino")" ||
	exit 99
set -- $(node "$k4" /E2)
"$CFCRAFT" "$k4" poke /E2 "$1" 8 "$(le32 $(( (4096 - 8 - 8) / 8 )) | cut -c1-4)" || exit 99
# The bad checksum goes into a leaf without the twin: e2fsck ignores the
# checksums of a block whose duplicate entries make it plan a rebuild.
leaf=$("$E2FOLD_DEBUGFS" -R "htree /E1" "$k1" 2>/dev/null |
	awk -v twin="$twin_ino" '
		/^leaf block / { if (blk != "" && !seen) { print blk; exit }
				 blk = $3; sub(":", "", blk); seen = 0; next }
		blk != "" && $4 == "(stored)" && $5 == twin { seen = 1 }
		END { if (blk != "" && !seen) print blk }' | head -1)
[ -n "$leaf" ] || kfail "no leaf of k1's /E1 without the twin"
pblk=$(debugfs -R "bmap /E1 ${leaf:-1}" "$k1" 2>/dev/null)
# Flip the checksum's last byte, so that it surely changes.
at=$((pblk * 1024 + 1023))
byte=$(od -An -tu1 -j "$at" -N1 "$k1" | tr -d ' ')
printf "\\$(printf %o $((byte ^ 255)))" |
	dd of="$k1" bs=1 seek="$at" conv=notrunc 2>/dev/null

for img in "$k1" "$k4"; do
	b=$(basename "$img" .img)
	"$E2FOLD_FSCK" -fn "$img" > "$out/damaged.$b.log" 2>&1
	[ $? -eq 4 ] || kfail "e2fold-fsck -fn does not find the damage in $b"
	"$E2FOLD_FSCK" -fy "$img" > "$out/repair.$b.log" 2>&1
	[ $? -eq 1 ] || { kfail "e2fold-fsck -fy on $b exited $? (want 1)"; cat "$out/repair.$b.log"; }
	"$E2FOLD_FSCK" -fn "$img" > "$out/after.$b.log" 2>&1 ||
		{ kfail "e2fold-fsck -fn after the repair of $b"; cat "$out/after.$b.log"; }
	dumpe2fs -h "$img" 2>/dev/null | grep -q '^Filesystem state: *clean$' ||
		kfail "$b is not marked clean after the repair"
done
grep -q "misplaced\|holds hashes" "$out/damaged.k1.log" || kfail "no misplaced entry reported in k1"
grep -q "room for 510 entries" "$out/damaged.k4.log" || kfail "the node limit 510 was not reported in k4"
grep -q "e2fsck has repairs to make" "$out/repair.k1.log" || kfail "e2fsck did not repair k1's leaf checksum"
grep -q "repeats the encrypted name" "$out/damaged.k1.log" || kfail "no exact twin reported in k1"
grep -q "kept in /lost+found as '#$xino'" "$out/repair.k4.log" ||
	kfail "inode $xino was not moved to /lost+found in k4"
lf=$(printf '#%s' "$xino" | od -An -v -tx1 | tr -d ' \n')

cat > "$out/scenario.sh" <<EOF
kcf addkey /mnt/vda > /dev/null && kcf addkey /mnt/vdb > /dev/null || echo "cannot add the key"
for spec in $counts; do
	d=/mnt/\${spec%=*}
	echo "\$d: found \$(kcf check "\$d" $upper \${spec#*=})"
	echo "\$d: listed \$(kcf list "\$d" | wc -l) names, \$(kcf list "\$d" | cut -d' ' -f1 | sort | uniq -d | wc -l) twice"
	echo "\$d: created \$(kcf fill "\$d" $later 20)"
done
echo "extra in E1: \$(kcf lookup /mnt/vdb/E1 $extra)"
echo "extra in lost+found: \$(kcf lookup /mnt/vdb/lost+found $lf)"
echo "extra reads: \$(kcf read /mnt/vdb/lost+found $lf)"
dmesg | grep 'EXT4-fs \(warning\|error\)\|mounting unchecked' || true
EOF
run_vm --image "$k1" --image "$k4"
mv "$out/actual" "$out/check.out"
cat "$out/check.out"
for spec in $counts; do
	n=${spec#*=}
	grep -qx "/mnt/${spec%=*}: found $n of $n" "$out/check.out" ||
		kfail "the kernel did not find every name in ${spec%=*}"
	grep -qx "/mnt/${spec%=*}: listed $n names, 0 twice" "$out/check.out" ||
		kfail "the kernel does not list each name of ${spec%=*} once"
	grep -qx "/mnt/${spec%=*}: created 20 of 20" "$out/check.out" ||
		kfail "the kernel could not create new names in ${spec%=*}"
done
grep -qx "extra in E1: ENOENT" "$out/check.out" ||
	kfail "the extra file's name, taken away by the damage, is back in E1"
grep -qx "extra in lost+found: found $xino" "$out/check.out" ||
	kfail "inode $xino is not /lost+found/#$xino for the kernel"
grep -qx "extra reads: $content" "$out/check.out" ||
	kfail "the kernel cannot read the file moved to /lost+found"
grep -q "EXT4-fs\|unchecked" "$out/check.out" && kfail "the kernel warned"
for img in "$k1" "$k4"; do
	"$E2FOLD_FSCK" -fn "$img" > "$out/final.$(basename "$img" .img).log" 2>&1 ||
		kfail "e2fold-fsck -fn after the kernel's creates in $(basename "$img")"
done
kfinish "encrypted casefolded htrees the kernel made are clean, and repaired ones work"
