#!/bin/sh
# k_strict: on a strict filesystem the kernel refuses to create exactly
# the names that e2fold-utf8 valid rejects. About 2,000 byte sequences
# (overlong forms, surrogates, code points above U+10FFFF, bytes F5-FF,
# stray and missing continuation bytes, C0/C1, controls, noncharacters,
# private use, unassigned code points, a sweep of lead and continuation
# bytes and of code points over all planes), each at the start and at the
# end of a name, are created in a casefolded directory of a strict and of
# a default filesystem. The strict one must answer EINVAL exactly where
# e2fold predicts "invalid" and create the rest; the default one must
# create all. Then, with a cold dentry cache, a lookup of each name must
# find what was created and, under strict, give EINVAL for an invalid name
# that cannot be folded (e2fold-utf8 fold says "invalid") and ENOENT for
# one that can (a stray continuation byte after a valid character). Every
# mismatch is listed. After unmounting, both checkers find both images
# clean, and every entry lies in the leaf its hash leads to. The rules:
# doc/kernel-facts.md, "Strict and non-strict", and
# doc/kernel-facts.md, "Quirks of fs/unicode".
#
# Files are left in $top_builddir/tests/kernel/SUITE/k_strict/.
# shellcheck source=tests/kernel/lib.sh
. "${top_srcdir:-.}/tests/kernel/lib.sh"
kinit k_strict

# The sequences, in hex, one a line; then each in two names, "SEQ-N" and
# "N-SEQ", N numbering the names so that no two are equal after folding.
perl -e '
	my @seq = (
		# valid, for control
		"61", "c3a9", "e282ac", "f09f9880", "ed9fbf", "ee8080", "c280", "c29f",
		"01", "1f", "7f", "efbbbf", "ea b0 80", "e1 84 80 e1 85 a1",
		# overlong
		"c080", "c0af", "c1bf", "e08080", "e09fbf", "f0808080", "f08fbfbf",
		"f888808080", "fc8480808080", "c0ae", "e080ae",
		# surrogates, alone, paired (CESU-8) and at the edges
		"eda080", "edafbf", "edb080", "edbfbf", "eda080edb080", "eda0bdedb880",
		# above U+10FFFF, and bytes that never occur
		"f4908080", "f4bfbfbf", "f5808080", "f7bfbfbf", "f8", "fe", "ff", "fffe",
		# stray continuation bytes, and missing ones
		"80", "bf", "8080", "4180", "c3a980", "e282ac80", "c3", "e282", "f09f98",
		"e2", "f0", "f09f", "c341", "e28241", "f09f9841", "e2c3a9",
		# noncharacters, private use, unassigned in Unicode 12.1
		"efb790", "efb7af", "efbfbe", "efbfbf", "f09fbfbe", "f48fbfbe",
		"f48fbfbf", "f3b08080", "f48fbfbd", "cdb8", "cdb9", "ce80", "d4b0",
		"f0b08080", "f1908080", "f3a08280", "f3a0bfbf", "e0b884", "f0afbfbf",
		# assigned after 12.1 (13.0: U+08BE, U+1FAD0, U+30000; 14.0: U+0870)
		"e0a2be", "f09fab90", "f0b08080", "e0a1b0",
	);
	s/ //g for @seq;
	# Every single byte but NUL and "/".
	push @seq, map { sprintf("%02x", $_) } grep { $_ != 0x2f } 1 .. 255;
	# Every lead byte from C0 with a sample of second bytes, and of the
	# second and third bytes of three- and four-byte forms.
	for my $lead (0xc0 .. 0xff) {
		push @seq, sprintf("%02x%02x", $lead, $_) for (0x41, 0x80, 0xbf, 0xc0);
	}
	for my $lead (0xe0 .. 0xef) {
		for my $b2 (0x80, 0x9f, 0xa0, 0xbf) {
			push @seq, sprintf("%02x%02x%02x", $lead, $b2, $_) for (0x80, 0xbf);
		}
	}
	for my $lead (0xf0 .. 0xf7) {
		push @seq, sprintf("%02x%02x8080", $lead, $_) for (0x80, 0x8f, 0x90, 0xbf);
	}
	# Code points over all planes, surrogates included (encoded as
	# their three bytes, which is invalid), every 0x1001st and a few
	# ranges whole: Greek (with its unassigned holes), the
	# noncharacters at FDD0, the specials at FFF0.
	my @cp = map { $_ * 0x1001 } 1 .. 0x10ffff / 0x1001;
	push @cp, 0x370 .. 0x3ff, 0xfdd0 .. 0xfdef, 0xfff0 .. 0xffff;
	for my $c (@cp) {
		my $s;
		if ($c < 0x800) {
			$s = pack("C2", 0xc0 | $c >> 6, 0x80 | $c & 0x3f);
		} elsif ($c < 0x10000) {
			$s = pack("C3", 0xe0 | $c >> 12, 0x80 | ($c >> 6) & 0x3f, 0x80 | $c & 0x3f);
		} else {
			$s = pack("C4", 0xf0 | $c >> 18, 0x80 | ($c >> 12) & 0x3f,
				0x80 | ($c >> 6) & 0x3f, 0x80 | $c & 0x3f);
		}
		push @seq, unpack("H*", $s);
	}
	my %seen;
	my $n = 0;
	for my $s (grep { !$seen{$_}++ } @seq) {
		printf("%s%s\n", $s, unpack("H*", sprintf("-%04d", $n++)));
		printf("%s%s\n", unpack("H*", sprintf("%04d-", $n++)), $s);
	}' > "$out/names.hex" || exit 99
total=$(wc -l < "$out/names.hex")

# e2fold's predictions: valid or not, and whether the name folds.
# valid exits 1 when a name is invalid (cmp(1)'s convention): 2 is trouble.
"$E2FOLD_UTF8" valid --hex < "$out/names.hex" > "$out/valid"
[ $? -le 1 ] || exit 99
"$E2FOLD_UTF8" fold --hex < "$out/names.hex" |
	sed 's/^invalid$/nofold/; t; s/.*/folds/' > "$out/folds" || exit 99
paste -d' ' "$out/names.hex" "$out/valid" "$out/folds" > "$out/predicted"
[ "$(wc -l < "$out/predicted")" = "$total" ] || exit 99

for f in strict plain; do
	case $f in strict) flags=,encoding_flags=strict ;; *) flags= ;; esac
	"$E2FOLD_MKFS" -q -F -b 1024 -O casefold -E "encoding=utf8$flags" \
		"$out/$f.img" 16M > "$out/$f.mkfs.log" 2>&1 ||
		{ echo "ERROR: e2fold-mkfs failed:"; cat "$out/$f.mkfs.log"; exit 99; }
done

cat > "$out/scenario.sh" <<'EOF'
for dev in vda vdb; do
	mkdir /mnt/$dev/d
	echo "$dev setflag d: $(kcf setflag /mnt/$dev/d)"
	kcf creates /mnt/$dev/d "$VM_IN/names.hex" > "$VM_OUT/$dev.create"
	echo 2 > /proc/sys/vm/drop_caches
	kcf lookups /mnt/$dev/d "$VM_IN/names.hex" > "$VM_OUT/$dev.lookup"
	kcf list /mnt/$dev/d > "$VM_OUT/$dev.list"
done
EOF
run_vm --image "$out/strict.img" --image "$out/plain.img" --file "$out/names.hex"
printf 'vda setflag d: ok\nvdb setflag d: ok\n' > "$out/expect"
kexpect "the kernel's answers differ from the expected ones:"

# compare DEV WHAT: the kernel's answers (vm/DEV.WHAT: "HEX RESULT")
# against e2fold's (DEV.WHAT.want), every mismatch listed.
compare() {
	if [ ! -f "$out/vm/$1.$2" ]; then
		kfail "$1: the VM gave no $2 results"
		return
	fi
	paste -d' ' "$out/$1.$2.want" "$out/vm/$1.$2" | awk -v what="$1 $2" '
		{ n++ }
		$1 != $4 { printf "FAIL: %s: line %d: %s vs %s\n", what, n, $1, $4; bad++; next }
		$2 != ($5 ~ /^[0-9]+$/ ? "found" : $5) {
			printf "FAIL: %s %s: e2fold predicts %s (%s), the kernel gives %s\n",
				what, $1, $2, $3, $5
			bad++
		}
		END {
			if (bad) printf "FAIL: %s: %d of %d differ\n", what, bad, n
			else printf "%s: %d of %d as e2fold predicts\n", what, n, n
			exit bad > 0
		}' || failed=1
}
# Strict: EINVAL for invalid names; lookups find the valid ones, and give
# EINVAL for an invalid name unless it folds. Default: all created, found.
awk '{ print $1, ($2 == "valid" ? "ok" : "EINVAL"), $2 }' "$out/predicted" > "$out/vda.create.want"
awk '{ print $1, ($2 == "valid" ? "found" : $3 == "folds" ? "ENOENT" : "EINVAL"), $2 "," $3 }' \
	"$out/predicted" > "$out/vda.lookup.want"
awk '{ print $1, "ok", "any" }' "$out/predicted" > "$out/vdb.create.want"
awk '{ print $1, "found", "any" }' "$out/predicted" > "$out/vdb.lookup.want"
for dev in vda vdb; do
	compare $dev create
	compare $dev lookup
done
echo "$(grep -c ' valid ' "$out/predicted") of $total names valid," \
	"$(grep -c ' invalid folds$' "$out/predicted") invalid but foldable"
# After: both checkers (e2fsck with its known fault about invalid names,
# see e2fsck_clean), and every hash where the kernel put it.
: > "$out/htree.log"
e2fsck_clean "$out/strict.img"
e2fsck_clean "$out/plain.img" /d
for f in strict plain; do
	e2fold_fsck_clean "$out/$f.img"
	case $f in
	strict) want=$(grep -c ' valid ' "$out/predicted") ;;
	*) want=$total ;;
	esac
	check_htree "$out/$f.img" /d "$f.d" "$want" "$(fs_hash "$out/$f.img")" \
		"$(fs_seed "$out/$f.img")"
done
cat "$out/htree.log" "$out/e2fsck.log" 2>/dev/null
kfinish "the kernel refuses exactly the names e2fold calls invalid"
