#!/bin/sh
# k_journal: Linux replays, at mount, the transactions that
# lib/support/journal.c writes (doc/journal.md), the kernel being the
# judge of the format. tests/jtxn (tests/u_journal_replay.sh says what
# its transaction changes) leaves three crashed casefold images:
#   vda: 1 KiB blocks, no checksums, 32-bit tags, cut after the commit
#        record (nothing written in place);
#   vdb: 4 KiB blocks, metadata_csum (journal checksum v3), 64-bit tags,
#        cut after the commit record;
#   vdc: as vdb, cut before the commit record.
# The VM mounts them (the kernel replays what is committed), lists each
# root and hashes /magic and /ordered; then it unmounts. The kernel must
# see the new files on vda and vdb, with /magic's first bytes the jbd2
# magic again (the escape undone), and the old root on vdc; its log must
# say it recovered vda and vdb; after unmounting, each image holds what
# the system e2fsck's replay of the same crash gives, and e2fsck -fn and
# e2fold-fsck -fn find it clean.
#
# Files are left in $top_builddir/tests/kernel/SUITE/k_journal/.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
kinit k_journal
test_name=kernel/$E2FOLD_KERNEL_SUITE/k_journal.work
# shellcheck source=tests/journal-lib.sh
. "$top_srcdir/tests/journal-lib.sh"

# crashed IMAGE BLOCKSIZE FEATURES MODE: a new image, cut by jtxn; its
# twin replayed by the system e2fsck goes to IMAGE.e2fsck.
crashed() {
	make_image "$out/$1" "$2" "$3"
	"$jtxn" "$out/$1" "$4" > "$out/$1.jtxn" 2>&1 || {
		echo "ERROR: jtxn $4 failed:"
		cat "$out/$1.jtxn"
		exit 99
	}
	cp "$out/$1" "$out/$1.e2fsck"
	e2fsck -fy "$out/$1.e2fsck" > "$out/$1.e2fsck.log" 2>&1
	[ $? -le 1 ] || { echo "ERROR: e2fsck could not replay $1"; exit 99; }
}
crashed a.img 1024 "^metadata_csum,^64bit" stop-after
crashed b.img 4096 "metadata_csum,64bit" stop-after
crashed c.img 4096 "metadata_csum,64bit" stop-before

cat > "$out/scenario.sh" <<'EOF'
dmesg > "$VM_OUT/dmesg"
for dev in vda vdb vdc; do
	echo "== $dev"
	ls -1 "/mnt/$dev"
	for f in magic ordered; do
		[ -f "/mnt/$dev/$f" ] || continue
		echo "$f $(head -c 4 "/mnt/$dev/$f" | od -An -tx1 | tr -d ' \n')" \
			"$(sha256sum < "/mnt/$dev/$f" | cut -d' ' -f1)"
	done
done
EOF

# What the kernel must show: the files and the hashes of e2fsck's replay.
{
	for i in a b c; do
		echo "== vd$i"
		debugfs -R 'ls -p /' "$out/$i.img.e2fsck" 2>/dev/null |
			awk -F/ 'NF > 5 && $6 != "." && $6 != ".." { print $6 }' | sort
		for f in magic ordered; do
			debugfs -R "stat /$f" "$out/$i.img.e2fsck" > /dev/null 2>&1 || continue
			debugfs -R "cat /$f" "$out/$i.img.e2fsck" 2>/dev/null > "$out/$i.$f"
			[ -s "$out/$i.$f" ] || continue
			echo "$f $(head -c 4 "$out/$i.$f" | od -An -tx1 | tr -d ' \n')" \
				"$(sha256sum < "$out/$i.$f" | cut -d' ' -f1)"
		done
	done
} > "$out/expect"
grep -q '^magic c03b3998 ' "$out/expect" ||
	kfail "e2fsck's replay of a.img has no /magic beginning with the jbd2 magic"

run_vm --image "$out/a.img" --image "$out/b.img" --image "$out/c.img"
kexpect "the kernel shows other files than e2fsck's replay (- e2fsck, + Linux):"
for dev in vda vdb; do
	grep -q "($dev): recovery complete" "$out/vm/dmesg" ||
		kfail "the kernel did not say it recovered $dev"
done

for i in a b c; do
	both_fsck_clean "$out/$i.img"
	fs_state "$out/$i.img" > "$out/$i.linux.state"
	fs_state "$out/$i.img.e2fsck" > "$out/$i.e2fsck.state"
	if ! diff -u "$out/$i.e2fsck.state" "$out/$i.linux.state" \
		> "$out/$i.state.diff"; then
		kfail "$i.img after Linux's replay differs from e2fsck's (- e2fsck, + Linux):"
		cat "$out/$i.state.diff"
	fi
done
kfinish "Linux replays e2fold's journal transactions"
