#!/bin/sh
# k_fsck_repair: images damaged in every way e2fold-fsck repairs
# (duplicates after casefolding, invalid names under strict, entries in
# the wrong htree leaf, entries placed by a kernel that kept ignorable
# code points: doc/kernel-facts.md, "The Default_Ignorable episode")
# are repaired with e2fold-fsck -fy; then Debian's kernel finds every entry
# by its name, and by a differently-cased spelling, reaching the same
# inode, and every file still holds its own content ("inode N").
#
# Files are left in $top_builddir/tests/kernel/SUITE/k_fsck_repair/.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
kinit k_fsck_repair
CFCRAFT=${CFCRAFT:-$top_builddir/tests/cfcraft}
export CFCRAFT
CFCRAFT_CONTENT=1
export CFCRAFT_CONTENT
. "$top_srcdir/tests/mkimage-lib.sh"

# Four damaged images, one kind of damage each.
dup=$out/dup.img strict=$out/strict.img bucket=$out/bucket.img ign=$out/ign.img
new_fs "$dup" 16M -b 4096 -O casefold
craft "$dup" mkdir / cf casefold
{
	hex README; hex readme; hex "Straße"; hex STRASSE; hex "café"
	hex "cafe$(printf '\314\201')"; hex "ﬁle"; hex FILE
	hex_numbered 300 'Photo_%d.JPG'
	hex photo_7.jpg
} | craft "$dup" fill /cf

EXTENDED=encoding_flags=strict new_fs "$strict" 16M -b 1024 -O casefold
craft "$strict" mkdir / cf casefold
printf '61ff62\n62c3\n4180\neda08078\n6f6b2e747874\n' | craft "$strict" fill /cf

new_fs "$bucket" 16M -b 1024 -O casefold
craft "$bucket" mkdir / cf casefold
hex_numbered 400 'Document-%d.PDF' |
	craft "$bucket" fill /cf raw

new_fs "$ign" 16M -b 1024 -O casefold
craft "$ign" mkdir / cf casefold
{
	hex_numbered 250 'plain-%d'
	hex "soft$(printf '\302\255')hyphen"
	hex "zero$(printf '\342\200\213')width"
	hex "heart$(printf '\342\235\244\357\270\217')"
} | craft "$ign" fill /cf keep-ignorables

# Repair; afterwards both checkers must be satisfied.
for img in "$dup" "$strict" "$bucket" "$ign"; do
	base=$(basename "$img" .img)
	"$E2FOLD_FSCK" -fy "$img" > "$out/repair.$base.log" 2>&1
	status=$?
	if [ $status -ne 1 ]; then
		kfail "e2fold-fsck -fy on $base exited $status (want 1):"
		cat "$out/repair.$base.log"
	fi
	if ! e2fsck -fn "$img" > "$out/e2fsck.$base.log" 2>&1; then
		kfail "e2fsck -fn finds $base not clean after the repair:"
		cat "$out/e2fsck.$base.log"
	fi
	"$CFCRAFT" "$img" list /cf > "$out/$base.list" || exit 99
done

# In the VM: every listed name must lead to its inode and its content, as
# given and with its ASCII letters in the other case; and the kernel must
# list as many entries as e2fold.
cat > "$out/scenario.sh" <<'EOF'
for pair in /mnt/vda=dup.list /mnt/vdb=strict.list /mnt/vdc=bucket.list \
	/mnt/vdd=ign.list; do
	mnt=${pair%%=*}
	list=$VM_IN/${pair#*=}
	echo "$mnt: $(kcf verify "$mnt/cf" "$list")"
	listed=$(kcf list "$mnt/cf" | wc -l)
	want=$(wc -l < "$list")
	[ "$listed" -eq "$want" ] || echo "$mnt: the kernel lists $listed entries, e2fold $want"
done
EOF

run_vm --image "$dup" --image "$strict" --image "$bucket" --image "$ign" \
	--file "$out/dup.list" --file "$out/strict.list" \
	--file "$out/bucket.list" --file "$out/ign.list"
cat "$out/actual"
for mnt in vda vdb vdc vdd; do
	if ! grep -q "^/mnt/$mnt: [0-9]* entries ok$" "$out/actual"; then
		kfail "the kernel could not find every entry on /mnt/$mnt"
	fi
done
# What the kernel did on the mounts must not upset either checker.
for img in "$dup" "$strict" "$bucket" "$ign"; do
	base=$(basename "$img" .img)
	if ! "$E2FOLD_FSCK" -fn "$img" > "$out/after.$base.log" 2>&1; then
		kfail "e2fold-fsck -fn after the kernel mounted $base:"
		cat "$out/after.$base.log"
	fi
done
kfinish "every repaired entry is found by the kernel"
