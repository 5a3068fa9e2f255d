#!/bin/sh
# kernel-bench.sh: what no_compat_fallback saves on the kernels that have
# the compat fallback, measured inside those kernels.
#
#   sh bench/kernel-bench.sh [--mkfs=PATH] [--debugfs=PATH]
#                            [--kernels='trixie sid']
#                            [--sizes='10000 100000 1000000']
#                            [--ops=N] [--work=DIR]
#
# Linux 6.12 and newer, when a hashed lookup in a casefolded indexed
# directory finds nothing, scan the whole directory, unless the superblock
# carries no_compat_fallback (doc/kernel-facts.md, "The compat fallback").
# Every lookup of a name that is not there pays for that scan, and so does
# every create, which first looks its name up.
#
# For each size, two images made by e2fold-mkfs -O casefold -E
# casefold_dirs=all -d from a tar archive (bench/mktar.c: one directory
# big/ of SIZE empty files, four names in five ASCII, the same bytes on
# every run): one with e2fold-mkfs's default, no_compat_fallback, and one
# with -E encoding_flags=none. Each image boots once on each kernel (the
# newest of the Debian suites named, tests/kernel/vm.sh, QEMU without
# KVM), on a fresh copy, mounted with noinit_itable so that no lazy
# inode-table zeroing runs beside the timing. In the VM, big/ is read
# whole first (its blocks in the buffer cache: the timing measures the
# kernel's work, not the emulated disk); then kcf times
# (tests/kernel/kcf.c) times single operations with CLOCK_MONOTONIC:
#   absent   lstat of a name that is not there (distinct names, so no
#            negative dentry answers)
#   present  lstat of a name that is there (spread over the directory,
#            each once: no dentry answers)
#   create   open(O_CREAT|O_EXCL) and close of a new name
# OPS operations each (default: 1,000 at 10,000 entries, 500 at 100,000,
# 50 at 1,000,000: 5e7 / SIZE, at most 1,000), and prints the median and
# the mean. Every operation must give the expected result (ENOENT,
# found, created), or the run fails.
#
# Times are those of an emulated CPU (TCG), several times slower than
# hardware and moved by the host's load: compare the ratios. Images stay
# in WORK (default bench/kernel-work, or $KERNEL_BENCH_WORK) for the next
# run; delete them to make them again.
#
# Not a test: `make bench-kernel` runs it by hand.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
mkfs=misc/e2fold-mkfs
debugfs=debugfs/e2fold-debugfs
kernels='trixie sid'
sizes='10000 100000 1000000'
ops=
work=${KERNEL_BENCH_WORK:-bench/kernel-work}

usage() {
	echo "usage: $0 [--mkfs=PATH] [--debugfs=PATH] [--kernels='SUITE...']" \
		"[--sizes='N...'] [--ops=N] [--work=DIR]" >&2
	exit 1
}

for arg in "$@"; do
	case $arg in
	--mkfs=*) mkfs=${arg#*=} ;;
	--debugfs=*) debugfs=${arg#*=} ;;
	--kernels=*) kernels=${arg#*=} ;;
	--sizes=*) sizes=${arg#*=} ;;
	--ops=*) ops=${arg#*=} ;;
	--work=*) work=${arg#*=} ;;
	*) usage ;;
	esac
done
. "$(dirname "$0")/bench-lib.sh"
# shellcheck disable=SC2086
numbers $sizes $ops



mkfs=$(absolute "$mkfs") || die "no e2fold-mkfs (give --mkfs=PATH)"
debugfs=$(absolute "$debugfs") || die "no e2fold-debugfs (give --debugfs=PATH)"
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
trap 'rm -f "$work/tree.tar" "$work/run.img" "$work"/*.new' EXIT INT TERM
${CC:-cc} -O2 -o "$work/mktar" "$here/mktar.c" || die "cannot compile $here/mktar.c"

export E2FSPROGS_FAKE_TIME=1700000000
uuid=0e2f01d0-0000-4000-8000-000000000002
seed=6f0ba7f4-3ddb-4b9a-9d7e-0b1a1cd5e0f2

# ops_for SIZE: the operations of each kind at SIZE entries.
ops_for() {
	if [ -n "$ops" ]; then
		echo "$ops"
	else
		n=$((50000000 / $1))
		[ "$n" -gt 1000 ] && n=1000
		[ "$n" -lt 10 ] && n=10
		echo "$n"
	fi
}

# make_image SIZE FLAG: $work/SIZE-FLAG.img (FLAG flag or none), once.
make_image() {
	img=$work/$1-$2.img
	[ -f "$img" ] && return 0
	echo "Making $img"
	[ -f "$work/tree-$1.tar" ] || "$work/mktar" "$1" 0 0 > "$work/tree-$1.tar" ||
		die "mktar failed"
	extended=casefold_dirs=all,hash_seed=$seed
	[ "$2" = none ] && extended=$extended,encoding_flags=none
	"$mkfs" -q -F -O casefold -E "$extended" -U "$uuid" \
		-N $(($1 + $1 / 16 + 4096)) -d "$work/tree-$1.tar" "$img.new" 4G \
		> "$work/mkfs.log" 2>&1 || { cat "$work/mkfs.log" >&2; die "e2fold-mkfs failed"; }
	want="no_compat_fallback (0x0002)"
	[ "$2" = none ] && want="none (0x0000)"
	flags=$("$debugfs" -R stats "$img.new" 2>/dev/null | sed -n 's/^Encoding flags: *//p')
	[ "$flags" = "$want" ] || die "$img: encoding flags $flags, want $want"
	"$debugfs" -R "htree_dump /big" "$img.new" 2>&1 | tail -n 3 > "$work/htree.log"
	grep -q "^$1 entries: $1 ok, 0 in the wrong bucket" "$work/htree.log" ||
		die "$img: /big is not an indexed directory of $1 entries, all in place"
	mv "$img.new" "$img"
}

cat > "$work/scenario.sh" <<'EOF'
mkdir -p /mnt/vda
mount -t ext4 -o noinit_itable /dev/vda /mnt/vda || exit 1
d=/mnt/vda/big
read -r t0 x < /proc/uptime
echo "entries $(($(kcf count $d) - 2))"
read -r t1 x < /proc/uptime
echo "read whole in $t0 $t1"
status=0
for op in absent present create; do
	kcf times $d $op "$VM_IN/$op" || status=1
done
umount /mnt/vda || status=1
echo "ext4 errors: $(dmesg | grep -c 'EXT4-fs error')"
exit $status
EOF

# boot SUITE SIZE FLAG: one VM, the results appended to $work/results as
# "SUITE RELEASE SIZE FLAG OP N MEDIAN MEAN".
boot() {
	cp --sparse=always "$work/$2-$3.img" "$work/run.img" || exit 1
	for op in absent present create; do
		cp "$work/$2.$op" "$work/$op"
	done
	rm -f "$work/release"
	t0=$(date +%s)
	E2FOLD_KERNEL_SUITE=$1 E2FOLD_VM_TIMEOUT=${E2FOLD_VM_TIMEOUT:-1800} \
		sh "$top/tests/kernel/vm.sh" --no-mount --image "$work/run.img" \
		--file "$work/absent" --file "$work/present" --file "$work/create" \
		--release "$work/release" "$work/scenario.sh" > "$work/boot.log" 2>&1
	status=$?
	release=$(cat "$work/release" 2>/dev/null || echo unknown)
	echo "  $1 (Linux $release), $2 entries, flag $3: $(($(date +%s) - t0)) s"
	sed 's/^/    /' "$work/boot.log"
	if [ $status -ne 0 ] || ! grep -q '^ext4 errors: 0$' "$work/boot.log" ||
		! grep -q "^entries $2\$" "$work/boot.log"; then
		echo "$1 $2 $3" >> "$work/failed"
		return
	fi
	sed -n 's/^\([a-z]*\) \([0-9]*\) ops: median \([0-9.]*\) us, mean \([0-9.]*\) us.*/\1 \2 \3 \4/p' \
		"$work/boot.log" | while read -r op n median mean; do
		echo "$1 $release $2 $3 $op $n $median $mean"
	done >> "$work/results"
}

rm -f "$work/results" "$work/failed"
for size in $sizes; do
	make_lists "$size" "$(ops_for "$size")"
	make_image "$size" flag
	make_image "$size" none
	rm -f "$work/tree-$size.tar"
done
load_start=$(cut -d' ' -f1 /proc/loadavg)
for suite in $kernels; do
	for size in $sizes; do
		for flag in none flag; do
			boot "$suite" "$size" "$flag"
		done
	done
done
load_end=$(cut -d' ' -f1 /proc/loadavg)

echo
echo "Kernel lookups and creates in one casefolded indexed directory, µs per"
echo "operation inside the VM (QEMU TCG: emulated, compare the ratios);"
echo "median (mean) of N operations each; ratio: median without the flag over"
echo "median with it."
echo "host: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs;" \
	"load average $load_start at the start, $load_end at the end;" \
	"commit $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)"
echo
awk "$awk_group"'
	{ key = $1 " " $3 " " $5; rel[$1] = $2
	  med[key, $4] = $7; mean[key, $4] = $8; n[key] = $6
	  if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
	function num(x) { return x >= 100 ? sprintf("%.0f", x) : sprintf("%.1f", x) }
	END {
		name["absent"] = "lookup, absent name"
		name["present"] = "lookup, present name"
		name["create"] = "create"
		print "| kernel | entries | operation | N | without flag | with no_compat_fallback | ratio |"
		print "|---|--:|---|--:|--:|--:|--:|"
		for (i = 1; i <= k; i++) {
			split(order[i], f, " ")
			key = order[i]
			ratio = (med[key, "flag"] > 0 && med[key, "none"] != "") ? \
				sprintf("%.1fx", med[key, "none"] / med[key, "flag"]) : "-"
			printf "| %s | %s | %s | %d | %s (%s) | %s (%s) | %s |\n",
				rel[f[1]], group(f[2]), name[f[3]], n[key],
				num(med[key, "none"]), num(mean[key, "none"]),
				num(med[key, "flag"]), num(mean[key, "flag"]), ratio
		}
	}' "$work/results"
if [ -f "$work/failed" ]; then
	echo "Failed or unexpected results (see above): $(tr '\n' ';' < "$work/failed")" >&2
	exit 1
fi
