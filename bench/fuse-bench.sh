#!/bin/sh
# fuse-bench.sh: e2fold-fuse serving one large casefolded directory,
# beside the kernel's own ext4 and fuse2fs, measured in one run.
#
#   sh bench/fuse-bench.sh [--fuse=PATH] [--mkfs=PATH]
#                          [--sizes='20000 100000'] [--ops=N]
#                          [--kinds='casefold kernel plain floor nojournal
#                                   onethread writeback']
#                          [--work=DIR] [--kernel]
#
# For each size, one tree (bench/mktar.c: a directory big/ of SIZE empty
# files, four names in five ASCII, the rest in many scripts; the same
# bytes on every run) made by e2fold-mkfs -d twice: casefolded
# (-O casefold -E casefold_dirs=all) and plain. Served as (--kinds):
#   casefold   the casefolded image through e2fold-fuse, with its journal
#   nojournal  a copy of it without the journal (tune2fs -O ^has_journal)
#   onethread  the casefolded image through e2fold-fuse -s (one thread
#              where the default serves with several, fuse/workers.c)
#   writeback  the casefolded image through e2fold-fuse -o writeback_cache
#   kernel     the plain image loop-mounted by the host's own ext4 (the
#              mark; a host kernel without CONFIG_UNICODE cannot mount
#              the casefolded one, and a plain directory costs the kernel
#              no more than a casefolded one: bench/kernel-bench.sh)
#   plain      the plain image through fuse2fs (e2fsprogs' FUSE server)
#   floor      bench/fuse-floor.c: the same names, in memory, through a
#              FUSE server that does nothing else (what FUSE itself costs
#              a request: no FUSE server can be faster)
# Each kind is timed the same way on the host. Cold operations start with
# the kernel's dentry and inode caches dropped (drop_caches=2; the image's
# pages stay cached, so the disk is not what is timed):
#   ls -l          ls -l big/, cold, µs per entry
#   readdir+lstat  find big/ -printf %m (a listing and an lstat of each
#                  entry), cold, µs per entry
#   readdir        big/ read whole (kcf count), the second of two reads
#   absent         lstat of a name that is not there (distinct names)
#   present        lstat of a name that is there, cold, spread over the
#                  directory, each once
#   repeated       the same names again, at once
#   other          the same names in another spelling (ASCII letters in
#                  upper case; casefolded kinds only, against the
#                  kernel's present)
#   create         open(O_CREAT|O_EXCL) and close of a new name
#   unlink         unlink of those new names
#   write          dd of 64 MiB in 128 KiB writes, and of 4 MiB in
#                  512-byte ones, each then fsync (conv=fsync): µs per
#                  write (not the floor, which keeps no contents)
#   parallel       8 processes each doing lstat of an eighth of the
#                  present names, cold: operations per second, all
#                  together (wall clock)
# OPS of each single operation (default 1,000; kcf times,
# tests/kernel/kcf.c, CLOCK_MONOTONIC around each): median and mean.
# A second table gives each FUSE server's own CPU time per operation
# (its threads' schedstat), which the wakeups between two processes on
# few CPUs do not move from run to run as they move the times.
# Every operation must give the expected result, or the run fails.
#
# --kernel adds bench/kernel-bench.sh's times for the same sizes (QEMU,
# casefolded: emulated, compare the ratios only).
#
# Not a test: `make bench-fuse` runs it by hand, as root (it mounts).
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
fuse=fuse/e2fold-fuse
mkfs=misc/e2fold-mkfs
sizes='20000 100000'
ops=1000
kinds='casefold kernel plain floor'
work=${FUSE_BENCH_WORK:-bench/fuse-work}
kernel=0

usage() {
	echo "usage: $0 [--fuse=PATH] [--mkfs=PATH] [--sizes='N...'] [--ops=N]" \
		"[--kinds='KIND...'] [--work=DIR] [--kernel]" >&2
	exit 1
}

for arg in "$@"; do
	case $arg in
	--fuse=*) fuse=${arg#*=} ;;
	--mkfs=*) mkfs=${arg#*=} ;;
	--sizes=*) sizes=${arg#*=} ;;
	--ops=*) ops=${arg#*=} ;;
	--kinds=*) kinds=${arg#*=} ;;
	--work=*) work=${arg#*=} ;;
	--kernel) kernel=1 ;;
	*) usage ;;
	esac
done
. "$(dirname "$0")/bench-lib.sh"
# shellcheck disable=SC2086
numbers $sizes $ops



fuse=$(absolute "$fuse") || die "no e2fold-fuse (give --fuse=PATH)"
mkfs=$(absolute "$mkfs") || die "no e2fold-mkfs (give --mkfs=PATH)"
command -v fuse2fs > /dev/null || die "no fuse2fs (Debian package fuse2fs)"
command -v fusermount3 > /dev/null || die "no fusermount3 (Debian package fuse3)"
[ -c /dev/fuse ] || die "no /dev/fuse"
[ "$(id -u)" -eq 0 ] || die "run as root: it mounts"
mkdir -p "$work/mnt" || exit 1
work=$(cd "$work" && pwd)
mnt=$work/mnt
server=
cleanup() {
	mountpoint -q "$mnt" && { fusermount3 -u "$mnt" 2> /dev/null || umount "$mnt"; }
	[ -n "$server" ] && kill "$server" 2> /dev/null
	rm -f "$work"/*.run.img "$work"/*.tar
}
trap cleanup EXIT
trap 'exit 1' INT TERM
${CC:-cc} -O2 -o "$work/mktar" "$here/mktar.c" || die "cannot compile mktar"
${CC:-cc} -O2 -o "$work/kcf" "$top/tests/kernel/kcf.c" || die "cannot compile kcf"
case " $kinds " in
*" floor "*)
	# shellcheck disable=SC2046
	${CC:-cc} -O2 -o "$work/fuse-floor" "$here/fuse-floor.c" \
		$(pkg-config --cflags --libs fuse3) || die "cannot compile fuse-floor"
esac

export E2FSPROGS_FAKE_TIME=1700000000
uuid=0e2f01d0-0000-4000-8000-000000000003
seed=6f0ba7f4-3ddb-4b9a-9d7e-0b1a1cd5e0f3

# make_image SIZE KIND: $work/SIZE-KIND.img (casefold, nojournal: the
# casefold image without its journal, or plain), once.
make_image() {
	img=$work/$1-$2.img
	[ -f "$img" ] && return 0
	if [ "$2" = nojournal ]; then
		cp --sparse=always "$work/$1-casefold.img" "$img.new" &&
			tune2fs -O ^has_journal "$img.new" > /dev/null &&
			mv "$img.new" "$img" || die "cannot remove the journal"
		return 0
	fi
	echo "Making $img"
	[ -f "$work/tree-$1.tar" ] || "$work/mktar" "$1" 0 0 > "$work/tree-$1.tar" ||
		die "mktar failed"
	features='' extended=hash_seed=$seed
	if [ "$2" = casefold ]; then
		features="-O casefold" extended=casefold_dirs=all,$extended
	fi
	# shellcheck disable=SC2086
	"$mkfs" -q -F $features -E "$extended" -U "$uuid" -N $(($1 + $1 / 16 + 4096)) \
		-d "$work/tree-$1.tar" "$img.new" 4G > "$work/mkfs.log" 2>&1 ||
		{ cat "$work/mkfs.log" >&2; die "e2fold-mkfs failed"; }
	mv "$img.new" "$img"
}

# serve KIND IMAGE: mount IMAGE at $mnt with e2fold-fuse (casefold,
# nojournal) or fuse2fs (plain), or IMAGE's names with fuse-floor (floor),
# in the foreground, and wait for the mount.
serve() {
	if [ "$1" = kernel ]; then
		mount -o loop "$2" "$mnt" || die "the kernel cannot mount $2"
		return 0
	elif [ "$1" = floor ]; then
		"$work/fuse-floor" "$2" "$mnt" > "$work/server.log" 2>&1 &
	elif [ "$1" = onethread ]; then
		"$fuse" -s -f "$2" "$mnt" > "$work/server.log" 2>&1 &
	elif [ "$1" = writeback ]; then
		"$fuse" -o writeback_cache -f "$2" "$mnt" > "$work/server.log" 2>&1 &
	elif [ "$1" != plain ]; then
		"$fuse" -f "$2" "$mnt" > "$work/server.log" 2>&1 &
	else
		fuse2fs -f "$2" "$mnt" > "$work/server.log" 2>&1 &
	fi
	server=$!
	i=0
	until mountpoint -q "$mnt"; do
		kill -0 "$server" 2> /dev/null || { cat "$work/server.log" >&2; die "$1 server exited"; }
		i=$((i + 1))
		[ $i -le 200 ] || die "$1 server: no mount after 20 s"
		sleep 0.1
	done
}

unserve() {
	if [ "$1" = kernel ]; then
		umount "$mnt" || die "cannot unmount $mnt"
		return 0
	fi
	fusermount3 -u "$mnt" || die "cannot unmount $mnt"
	wait "$server"
	server=
}

# cold: drop the kernel's dentries and inodes (not the image's pages).
cold() {
	sync
	echo 2 > /proc/sys/vm/drop_caches
}

# server_cpu: the CPU time the FUSE server has had so far, all its
# threads (ns, from schedstat: not rounded to clock ticks); 0 without one.
server_cpu() {
	if [ -z "${server:-}" ]; then
		echo 0
		return 0
	fi
	cat /proc/"$server"/task/*/schedstat 2> /dev/null |
		awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# cpu KIND OP SIZE C0 C1 N: the server's CPU per operation (µs) between
# C0 and C1 over N operations, into $work/cpu (FUSE servers only).
cpu() {
	[ -n "${server:-}" ] || return 0
	echo "$1 $3 $2 $(echo "$4 $5 $6" | awk '{ printf "%.2f", ($2 - $1) / 1000 / $3 }')" \
		>> "$work/cpu"
}

# per_entry KIND SIZE OP COMMAND...: the time of COMMAND per entry of big/.
per_entry() {
	k=$1 s=$2 o=$3
	shift 3
	per_op "$k" "$s" "$o" "$s" "$@"
}

# per_op KIND SIZE OP N COMMAND...: COMMAND, cold, timed as N
# operations (µs each).
per_op() {
	k=$1 s=$2 o=$3 n=$4
	shift 4
	cold
	c0=$(server_cpu)
	t0=$(date +%s%N)
	"$@" > /dev/null 2>&1 || die "$k: $o failed"
	t1=$(date +%s%N)
	cpu "$k" "$o" "$s" "$c0" "$(server_cpu)" "$n"
	echo "$k $s $o $n $(echo "$t0 $t1 $n" | awk '{ printf "%.2f", ($2 - $1) / 1000 / $3 }') -" \
		>> "$work/results"
}

# timed KIND SIZE OP KCFOP LIST: kcf times, its median and mean recorded.
timed() {
	c0=$(server_cpu)
	"$work/kcf" times "$mnt/big" "$4" "$5" > "$work/times.log" 2>&1 ||
		{ cat "$work/times.log" >&2; die "$1, $2 entries: $3 gave unexpected results"; }
	cpu "$1" "$3" "$2" "$c0" "$(server_cpu)" "$(wc -l < "$5")"
	sed -n 's/^[a-z]* \([0-9]*\) ops: median \([0-9.]*\) us, mean \([0-9.]*\) us.*/\1 \2 \3/p' \
		"$work/times.log" | while read -r n median mean; do
		echo "$1 $2 $3 $n $median $mean"
	done >> "$work/results"
}

# parallel KIND SIZE: 8 kcf times of an eighth of the present names each.
parallel() {
	rm -f "$work"/part.*
	split -n l/8 "$work/$2.present" "$work/part."
	parts=$(ls "$work"/part.*)
	cold
	pids=
	c0=$(server_cpu)
	t0=$(date +%s%N)
	for part in $parts; do
		"$work/kcf" times "$mnt/big" present "$part" > "$part.log" 2>&1 &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	wait $pids	# not the server's
	t1=$(date +%s%N)
	for part in $parts; do
		grep -q ' 0 unexpected' "$part.log" ||
			{ cat "$part.log" >&2; die "$1, $2 entries: parallel lookups failed"; }
	done
	rm -f "$work"/part.*
	total=$(wc -l < "$work/$2.present")
	cpu "$1" parallel "$2" "$c0" "$(server_cpu)" "$total"
	echo "$1 $2 parallel $total $(echo "$t0 $t1 $total" |
		awk '{ printf "%.0f", $3 / (($2 - $1) / 1e9) }') -" >> "$work/results"
}

# names_of SIZE: $work/SIZE.names, the names of big/ in the plain image
# (NUL-separated), for fuse-floor; read through a loop mount, once.
names_of() {
	[ -f "$work/$1.names" ] && return 0
	mount -o ro,loop "$work/$1-plain.img" "$mnt" || die "cannot mount $1-plain.img"
	find "$mnt/big" -mindepth 1 -maxdepth 1 -printf '%f\0' > "$work/$1.names.new"
	umount "$mnt" || die "cannot unmount $mnt"
	mv "$work/$1.names.new" "$work/$1.names"
}

# The tables' awk functions: group(X) (bench-lib.sh), and names(),
# which fills name[OP] with each operation's row name and label[KIND]
# with each server's column name.
awk_names="$awk_group"'
	function names() {
		name["ls"] = "ls -l, per entry (cold)"
		name["statall"] = "readdir+lstat, per entry (cold)"
		name["readdir"] = "readdir, per entry"
		name["absent"] = "lookup, absent name"
		name["present"] = "lookup, present name (cold)"
		name["repeated"] = "lookup, repeated"
		name["other"] = "lookup, another spelling"
		name["create"] = "create"
		name["unlink"] = "unlink"
		name["write128k"] = "write 128 KiB (64 MiB, then fsync)"
		name["write512"] = "write 512 B (4 MiB, then fsync)"
		label["casefold"] = "e2fold-fuse (casefold)"
		label["nojournal"] = "e2fold-fuse (no journal)"
		label["onethread"] = "e2fold-fuse -s (casefold)"
		label["writeback"] = "e2fold-fuse -o writeback_cache (casefold)"
		label["kernel"] = "kernel ext4 (plain)"
		label["plain"] = "fuse2fs (plain)"
		label["floor"] = "fuse-floor"
	}'

# run SIZE KIND: results appended to $work/results as
# "KIND SIZE OP N MEDIAN MEAN" (MEAN "-" for one figure).
run() {
	if [ "$2" = floor ]; then
		names_of "$1"
		serve floor "$work/$1.names"
	elif [ "$2" = kernel ]; then
		cp --sparse=always "$work/$1-plain.img" "$work/$2.run.img" || exit 1
	elif [ "$2" = onethread ] || [ "$2" = writeback ]; then
		cp --sparse=always "$work/$1-casefold.img" "$work/$2.run.img" || exit 1
	else
		cp --sparse=always "$work/$1-$2.img" "$work/$2.run.img" || exit 1
	fi
	[ "$2" = floor ] || serve "$2" "$work/$2.run.img"
	d=$mnt/big
	per_entry "$2" "$1" ls ls -l "$d"
	per_entry "$2" "$1" statall find "$d" -printf '%m\n'
	for _ in 1 2; do
		c0=$(server_cpu)
		t0=$(date +%s%N)
		n=$("$work/kcf" count "$d")
		t1=$(date +%s%N)
		c1=$(server_cpu)
	done
	cpu "$2" readdir "$1" "$c0" "$c1" "$1"
	[ "$n" -eq $(($1 + 2)) ] || die "$2: big/ lists $n entries, want $(($1 + 2))"
	echo "$2 $1 readdir $1 $(echo "$t0 $t1 $1" | awk '{ printf "%.2f", ($2 - $1) / 1000 / $3 }') -" \
		>> "$work/results"
	cold
	timed "$2" "$1" absent absent "$work/$1.absent"
	cold
	timed "$2" "$1" present present "$work/$1.present"
	timed "$2" "$1" repeated present "$work/$1.present"
	case $2 in
	casefold|nojournal|onethread|writeback|floor)
		timed "$2" "$1" other present "$work/$1.other" ;;
	esac
	timed "$2" "$1" create create "$work/$1.create"
	timed "$2" "$1" unlink unlink "$work/$1.create"
	if [ "$2" != floor ]; then
		per_op "$2" "$1" write128k 512 dd if=/dev/zero of="$mnt/w" \
			bs=128K count=512 conv=fsync
		per_op "$2" "$1" write512 8192 dd if=/dev/zero of="$mnt/w5" \
			bs=512 count=8192 conv=fsync
		rm -f "$mnt/w" "$mnt/w5"
	fi
	parallel "$2" "$1"
	unserve "$2"
	rm -f "$work/$2.run.img"
}

rm -f "$work/results" "$work/cpu"
for size in $sizes; do
	make_lists "$size" "$ops"
	# The present names with their ASCII letters in upper case.
	perl -ne 'chomp; my $n = pack("H*", $_); $n =~ tr/a-z/A-Z/;
		print unpack("H*", $n), "\n"' "$work/$size.present" > "$work/$size.other"
	make_image "$size" casefold
	case " $kinds " in *" nojournal "*) make_image "$size" nojournal ;; esac
	make_image "$size" plain
	rm -f "$work/tree-$size.tar"
done
load_start=$(cut -d' ' -f1 /proc/loadavg)
for size in $sizes; do
	for kind in $kinds; do
		echo "  $kind, $size entries"
		run "$size" "$kind"
	done
done
load_end=$(cut -d' ' -f1 /proc/loadavg)

echo
echo "One directory of SIZE entries: casefolded through e2fold-fuse (with its"
echo "journal), plain through the host kernel's ext4 (loop mount) and through"
echo "fuse2fs. µs per operation on the host, median (mean) of N; per entry for"
echo "ls -l, readdir+lstat and readdir; operations per second for 8 parallel"
echo "workers. ratio: e2fold-fuse's time over the kernel's (for parallel, the"
echo "kernel's rate over e2fold-fuse's; for another spelling, over the"
echo "kernel's present-name lookup); floor/kernel: the same for fuse-floor, a"
echo "FUSE server that does no work (the least any FUSE server can cost);"
echo "over floor: e2fold-fuse's time over fuse-floor's."
echo "host: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs," \
	"kernel $(uname -r); load average $load_start at the start, $load_end at the end;" \
	"commit $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)"
echo
awk -v kinds="$kinds" "$awk_names"'
	{ key = $2 " " $3; med[key, $1] = $5; mean[key, $1] = $6; n[key] = $4
	  if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
	function cell(key, kind) {
		if (!((key, kind) in med))
			return "-"
		return mean[key, kind] == "-" ? med[key, kind] : \
			sprintf("%s (%s)", med[key, kind], mean[key, kind])
	}
	END {
		names()
		name["parallel"] = "8 workers, lookups/s"
		nk = split(kinds, kind, " ")
		head = "| entries | operation | N |"; rule = "|--:|---|--:|"
		for (j = 1; j <= nk; j++) {
			head = head " " label[kind[j]] " |"; rule = rule "--:|"
		}
		print head " ratio | floor/kernel | over floor |"
		print rule "--:|--:|--:|"
		for (i = 1; i <= k; i++) {
			split(order[i], f, " ")
			key = order[i]
			kkey = f[2] == "other" ? f[1] " present" : key
			line = sprintf("| %s | %s | %s |", group(f[1]), name[f[2]], group(n[key]))
			for (j = 1; j <= nk; j++)
				line = line " " cell(key, kind[j]) " |"
			print line " " ratio(key, "casefold", kkey, "kernel", f[2]) \
				" | " ratio(key, "floor", kkey, "kernel", f[2]) \
				" | " ratio(key, "casefold", key, "floor", f[2]) " |"
		}
	}
	# ratio(KEY, KIND, BASEKEY, BASE, OP): the time of KIND over that of
	# BASE (for parallel, rates: BASE over KIND); "-" if one is missing.
	function ratio(key, kind, bkey, base, op,   r) {
		if (!((key, kind) in med) || !((bkey, base) in med) ||
		    med[key, kind] <= 0 || med[bkey, base] <= 0)
			return "-"
		r = op == "parallel" ? med[bkey, base] / med[key, kind] : \
			med[key, kind] / med[bkey, base]
		return sprintf(r < 10 ? "%.1fx" : "%.0fx", r)
	}' "$work/results"

echo
echo "The servers' own CPU time per operation (µs, all their threads, from"
echo "/proc/PID/task/*/schedstat): what each does for a request, free of the"
echo "wakeups between two processes that move the times above from run to"
echo "run. over floor: e2fold-fuse's over fuse-floor's."
echo
awk -v kinds="$kinds" "$awk_names"'
	{ key = $2 " " $3; t[key, $1] = $4
	  if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
	END {
		names()
		name["parallel"] = "8 workers, per lookup"
		nk = split(kinds, all, " ")
		for (j = 1; j <= nk; j++)
			if (all[j] != "kernel")
				kind[++m] = all[j]
		head = "| entries | operation |"; rule = "|--:|---|"
		for (j = 1; j <= m; j++) {
			head = head " " label[kind[j]] " |"; rule = rule "--:|"
		}
		print head " over floor |"
		print rule "--:|"
		for (i = 1; i <= k; i++) {
			split(order[i], f, " ")
			line = sprintf("| %s | %s |", group(f[1]), name[f[2]])
			for (j = 1; j <= m; j++)
				line = line " " (((order[i], kind[j]) in t) ? \
					t[order[i], kind[j]] : "-") " |"
			r = "-"
			if (((order[i], "casefold") in t) && t[order[i], "floor"] > 0)
				r = sprintf("%.1fx", t[order[i], "casefold"] / \
						     t[order[i], "floor"])
			print line " " r " |"
		}
	}' "$work/cpu"

if [ "$kernel" -eq 1 ]; then
	echo
	echo "The kernel, in QEMU, for the same sizes (bench/kernel-bench.sh):"
	sh "$here/kernel-bench.sh" --mkfs="$mkfs" --debugfs="$(dirname "$mkfs")/../debugfs/e2fold-debugfs" \
		--kernels=sid --sizes="$sizes" --work="$work/kernel"
fi
