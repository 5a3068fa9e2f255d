#!/bin/sh
# vm.sh: run a scenario script against a Debian kernel in a QEMU VM.
#
#   vm.sh [OPTION]... SCENARIO [ARG]...
#     --image FILE   attach FILE (a raw filesystem image) read-write; the
#                    images are /dev/vda, /dev/vdb, ... in the order given
#                    and mounted (ext4) at /mnt/vda, /mnt/vdb, ...
#     --no-mount     attach the images but do not mount them: the scenario
#                    mounts (and unmounts) them itself, e.g. to test a
#                    mount that must fail
#     --file FILE    copy FILE into the VM, as $VM_IN/BASENAME
#     --out DIR      copy what the scenario wrote to $VM_OUT (64 MB at
#                    most) into DIR
#     --console FILE keep the VM's console log (kernel messages) in FILE
#     --release FILE write the release of the kernel that ran the scenario
#                    (uname -r in the VM) to FILE
#
# SCENARIO runs in the VM as "sh SCENARIO ARG...", as root, in /, with
# busybox and kcf (tests/kernel/kcf.c) on PATH. One boot costs seconds, so
# a scenario should do many checks. Its output is also echoed on the VM's
# serial console, which moves about 300 KB/s: write bulky results to files
# in $VM_OUT instead.
#
# vm.sh prints the scenario's stdout and stderr, and exits with its exit
# status (so a scenario should not exit 99 unless it means it); 99 if a
# tool on the host is missing, the kernel cannot be fetched, the VM did
# not boot, could not mount an image or timed out, with the reason on
# stderr. It never exits 77: a kernel test that cannot run has failed.
#
# Environment:
#   E2FOLD_KERNEL_SUITE  the Debian suite whose newest kernel boots (the
#                        package its linux-image-amd64 depends on), fetched
#                        with scripts/apt-suite: bookworm (the default),
#                        trixie, sid
#   E2FOLD_KERNEL_PKG    another kernel package of that suite to boot
#   E2FOLD_KERNEL_CACHE  where kernels and initramfs are kept between runs
#                        (default /var/cache/e2fold-kernel)
#   E2FOLD_VM_TIMEOUT    seconds before the VM is killed (default 240)
#   E2FOLD_VM_ACCEL      QEMU accelerator (default tcg: KVM may hang)
#   CC                   compiler for the static kcf (default cc)
set -u

here=$(cd "$(dirname "$0")" && pwd)
suite=${E2FOLD_KERNEL_SUITE:-bookworm}
cache=${E2FOLD_KERNEL_CACHE:-/var/cache/e2fold-kernel}
vm_timeout=${E2FOLD_VM_TIMEOUT:-240}
# The modules the VM needs, in any order; their dependencies and soft
# dependencies (read from each module's "depends=" and "softdep=") are
# loaded first. Those built into a kernel are skipped.
root_modules="virtio_pci virtio_blk ext4"
# fscrypt's algorithms for encrypted directories (AES-256-XTS contents,
# AES-256-CTS names, HKDF on HMAC-SHA512), named by the crypto API aliases
# the kernel would request: the modules behind them differ between kernels
# (sha512_generic is a module in 6.1, built in as sha512_generic in 6.12
# and as sha512 in 7.x; ecb is built in from 6.12). Those built in are
# skipped; a kernel that lacks one boots as well, and fails to encrypt.
crypto_aliases="crypto-aes crypto-ecb crypto-cbc crypto-xts crypto-cts crypto-sha512 crypto-hmac"
# The layout of a kernel cache entry (unpack_kernel): change it when that
# does, so that old entries are not misread.
layout=2

hard_error() {
	echo "vm.sh: ERROR: $*" >&2
	exit 99
}

usage() {
	echo "usage: vm.sh [--image FILE]... [--file FILE]... [--no-mount] [--out DIR] [--console FILE] [--release FILE] SCENARIO [ARG]..." >&2
	exit 99
}

# Tools on the host, each named with the Debian package that has it.
check_host() {
	command -v qemu-system-x86_64 >/dev/null ||
		hard_error "qemu-system-x86_64 not found (Debian package qemu-system-x86)"
	[ "$(dpkg-query -W -f='${db:Status-Status}' busybox-static 2>/dev/null)" = installed ] ||
		hard_error "a static /bin/busybox is needed (Debian package busybox-static)"
	command -v cpio >/dev/null || hard_error "cpio not found (Debian package cpio)"
	command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
		hard_error "apt-get and dpkg-deb are needed to fetch the kernel (Debian packages apt, dpkg)"
	command -v xz >/dev/null || hard_error "xz not found (Debian package xz-utils)"
}

# --- The kernel: Debian's packages of $suite, unpacked into the cache. ---

# apt-get (or apt-cache, named first) against $suite's archive, through a
# private sources list: the host's apt configuration stays untouched, and
# a chroot of another Debian release sees the same archive.
apt_suite() {
	sh "$here/../../scripts/apt-suite" "$suite" "$@"
}

# The versioned package that $suite's linux-image-amd64 depends on.
kernel_package() {
	apt_suite apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -1
}

# Sets pkg, version and parts: $pkg and, recursively, the packages it
# depends on at exactly its version. Debian unstable splits a kernel into
# linux-image (empty), linux-binary (vmlinuz), linux-modules and
# linux-base (config, modules.builtin); Debian 12 and 13 ship one package.
resolve_kernel() {
	pkg=${E2FOLD_KERNEL_PKG:-$(kernel_package)}
	[ -n "$pkg" ] || return 1
	version=$(apt_suite apt-cache show --no-all-versions "$pkg" 2>/dev/null |
		sed -n 's/^Version: //p' | head -1)
	[ -n "$version" ] || return 1
	parts=$pkg new=$pkg
	while [ -n "$new" ]; do
		# shellcheck disable=SC2086
		new=$(apt_suite apt-cache show --no-all-versions $new 2>/dev/null |
			sed -n 's/^Depends: //p' | tr ',|' '\n\n' |
			awk -v v="$version" -v have=" $parts " '$2 == "(=" && $3 == v ")" &&
				index(have, " " $1 " ") == 0 && !seen[$1]++ { printf "%s%s", sep, $1; sep = " " }')
		parts="$parts${new:+ $new}"
	done
}

# apt-cache takes a second or two per call, and every test boots: the
# answer for $suite is remembered for an hour ($cache/resolved.SUITE:
# "PKG VERSION PART..."), and kept as the offline fallback.
remembered_kernel() {
	[ -f "$cache/resolved.$suite" ] && read -r pkg version parts < "$cache/resolved.$suite" &&
		[ -n "$parts" ]
}

choose_kernel() {
	if [ -z "${E2FOLD_KERNEL_PKG:-}" ] &&
		[ -n "$(find "$cache/resolved.$suite" -mmin -60 2>/dev/null)" ] &&
		remembered_kernel; then
		return 0
	fi
	if resolve_kernel; then
		[ -n "${E2FOLD_KERNEL_PKG:-}" ] ||
			echo "$pkg $version $parts" > "$cache/resolved.$suite"
		return 0
	fi
	# Offline: the kernel last resolved for the suite, if it is here.
	[ -z "${E2FOLD_KERNEL_PKG:-}" ] && remembered_kernel &&
		[ -f "$cache/${pkg}_$version.$layout/package" ] || return 1
	echo "vm.sh: apt cannot resolve $suite's kernel; booting $pkg $version from $cache" >&2
}

# Download $parts at $version and unpack them into $1 (run it in a
# subshell: it changes directory). The unpacked kernel is 400 MB, mostly
# drivers; keep only the kernel, its config, and the module directories a
# test VM can use (file systems, crypto, libraries, virtio disks),
# decompressed: busybox insmod may not read compressed modules.
unpack_kernel() {
	entry=$1 tmp=$cache/tmp.$$
	rm -rf "$tmp"
	mkdir -p "$tmp/debs" && cd "$tmp/debs" || return 1
	set --
	for p in $parts; do
		set -- "$@" "$p=$version"
	done
	apt_suite download -q "$@" >/dev/null 2>&1 || return 1
	for deb in ./*.deb; do
		dpkg-deb -x "$deb" ../root || return 1
	done
	cd .. || return 1
	# Modules are in /lib/modules/RELEASE (Debian 12) or under /usr
	# (Debian 13 on); the kernel and its config in /boot, or beside the
	# modules as vmlinuz and config (unstable).
	for m in root/lib/modules/* root/usr/lib/modules/*; do
		[ -d "$m" ] && break
	done
	[ -d "$m" ] || return 1
	mkdir -p entry/modules/kernel/drivers
	for f in root/boot/vmlinuz-* "$m/vmlinuz"; do
		[ -f "$f" ] && mv "$f" entry/vmlinuz
	done
	for f in root/boot/config-* "$m/config"; do
		[ -f "$f" ] && mv "$f" entry/config
	done
	[ -f entry/vmlinuz ] && [ -f entry/config ] || return 1
	extract_vmlinux entry/vmlinuz entry/vmlinux
	for f in modules.builtin modules.builtin.modinfo; do
		[ -f "$m/$f" ] && mv "$m/$f" entry/modules/
	done
	for d in fs lib crypto arch drivers/virtio drivers/block; do
		[ -d "$m/kernel/$d" ] && mv "$m/kernel/$d" "entry/modules/kernel/$d"
	done
	find entry/modules/kernel -name '*.ko.*' | while read -r ko; do
		decompress "$ko" > "${ko%.*}" && rm "$ko" || exit 1
	done || return 1
	basename "$m" > entry/release
	echo "$pkg $version" > entry/package
	mv entry "$entry"
}

# decompress FILE: its contents, by its compression (xz, zstd or gzip).
decompress() {
	case $(od -An -tx1 -N4 "$1" | tr -d ' ') in
	fd377a58) xz -dcq "$1" ;;
	28b52ffd) zstd -dcq "$1" ;;
	1f8b*) gzip -dc "$1" ;;
	*) cat "$1" ;;
	esac
}

# le32 FILE OFFSET: the little-endian 32-bit number at OFFSET.
le32() {
	od -An -tu4 --endian=little -j "$2" -N 4 "$1" | tr -d ' '
}

# Under TCG, decompressing the kernel takes a VM two seconds of every boot.
# QEMU boots an uncompressed vmlinux directly (PVH entry point), so when
# the kernel supports PVH, unpack it once here. The x86 boot header says
# where the compressed kernel is: setup_sects (0x1f1) sectors of setup
# after the boot sector, then payload_offset (0x248) bytes; it is
# payload_length (0x24c) bytes long, the last 4 giving the uncompressed
# size. Whatever cannot be unpacked and checked, the VM boots vmlinuz.
extract_vmlinux() {
	grep -qx "CONFIG_PVH=y" "$(dirname "$1")/config" || return 0
	setup=$(od -An -tu1 -j $((0x1f1)) -N 1 "$1" | tr -d ' ')
	[ "$setup" -eq 0 ] && setup=4
	start=$(( (setup + 1) * 512 + $(le32 "$1" $((0x248))) ))
	len=$(le32 "$1" $((0x24c)))
	size=$(le32 "$1" $((start + len - 4)))
	tail -c +$((start + 1)) "$1" | head -c $((len - 4)) > "$2.z"
	decompress "$2.z" > "$2.tmp" 2>/dev/null
	if [ "$(head -c 4 "$2.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] &&
		[ "$(wc -c < "$2.tmp")" -eq "$size" ]; then
		mv "$2.tmp" "$2"
	else
		rm -f "$2.tmp"
	fi
	rm -f "$2.z"
}

# Sets kdir, the cache entry of the kernel to boot. Parallel tests share
# the cache and apt-suite's lists: one resolves and downloads at a time,
# the others wait.
fetch_kernel() {
	mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] ||
		hard_error "cannot write the kernel cache $cache (set E2FOLD_KERNEL_CACHE)"
	exec 9>"$cache/lock"
	flock 9
	choose_kernel ||
		hard_error "cannot find $suite's kernel with scripts/apt-suite $suite (package ${E2FOLD_KERNEL_PKG:-linux-image-amd64}; network down?)"
	kdir=$cache/${pkg}_$version.$layout
	# One line either way, which run_vm of lib.sh shows in a test's
	# log: a second run must say "cached", never "fetching".
	if [ -f "$kdir/package" ]; then
		echo "vm.sh: kernel $pkg $version ($suite): cached in $kdir" >&2
	else
		echo "vm.sh: kernel $pkg $version ($suite): fetching $parts into $cache" >&2
		if ! (unpack_kernel "$kdir"); then
			# Lists a day old may name a version the mirror dropped.
			rm -rf "$cache/tmp.$$" "$cache/resolved.$suite"
			apt_suite update -qq >/dev/null 2>&1 && resolve_kernel &&
				kdir=$cache/${pkg}_$version.$layout &&
				{ [ -f "$kdir/package" ] || (unpack_kernel "$kdir"); } ||
				hard_error "cannot download and unpack $parts=$version from $suite (scripts/apt-suite $suite download)"
		fi
		rm -rf "$cache/tmp.$$"
	fi
	exec 9>&-
}

# --- The initramfs: busybox, kcf, /init and modules; cached by content. ---

# Path of module $1 under $mods (file names may use '-' where the module
# name has '_'), or nothing.
ko_path() {
	find "$mods/kernel" \( -name "$1.ko" -o -name "$(echo "$1" | tr _ -).ko" \) | head -1
}

# modinfo FILE FIELD: the values of FIELD in the .modinfo of module FILE.
modinfo() {
	tr '\0' '\n' < "$1" | sed -n "s/^$2=//p"
}

is_builtin() {
	sed 's,.*/,,; s/\.ko$//; s/-/_/g' "$mods/modules.builtin" | grep -qx "$1"
}

# soft_provider NAME: the module that provides NAME, a module's name or an
# alias (ext4 and jbd2 name crypto-crc32c, which was crc32c_generic up to
# Linux 6.13 and is crc32c_cryptoapi since); nothing if a built-in module
# does, or none. Generic code (outside arch/) first: it runs on whatever
# CPU QEMU emulates.
soft_provider() {
	if [ -n "$(ko_path "$1")" ]; then
		echo "$1"
		return 0
	fi
	is_builtin "$1" && return 0
	[ -f "$mods/modules.builtin.modinfo" ] &&
		tr '\0' '\n' < "$mods/modules.builtin.modinfo" | grep -qx "[^.]*\.alias=$1" &&
		return 0
	candidates=$(grep -rlaF "alias=$1" "$mods/kernel" | sort)
	for f in $(echo "$candidates" | grep -v /kernel/arch/) \
		$(echo "$candidates" | grep /kernel/arch/); do
		if modinfo "$f" alias | grep -qxF "$1"; then
			modinfo "$f" name
			return 0
		fi
	done
}

# soft_deps FILE: the modules to load before module FILE for its soft
# dependencies ("softdep=pre: A B post: C"). One that nothing provides is
# left out, as modprobe does: a dependency that matters shows as a
# failure to mount.
soft_deps() {
	for s in $(modinfo "$1" softdep | sed 's/post:.*//; s/^.*pre://'); do
		soft_provider "$s"
	done
}

# Copy module $1 into $root/lib/modules after its dependencies. Positional
# parameters survive the recursion; other variables do not.
add_module() {
	case " $loaded " in *" $1 "*) return 0 ;; esac
	f=$(ko_path "$1")
	if [ -z "$f" ]; then
		is_builtin "$1" && return 0
		hard_error "kernel module $1 is neither in $mods nor built in"
	fi
	for dep in $(modinfo "$f" depends | tr , ' ') $(soft_deps "$f"); do
		add_module "$dep"
	done
	nmods=$((nmods + 1))
	cp "$(ko_path "$1")" "$root/lib/modules/$(printf %02d $nmods)-$1.ko" ||
		hard_error "cannot copy module $1"
	loaded="$loaded $1"
}

build_initramfs() {
	root=$work/root
	mods=$kdir/modules
	mkdir -p "$root/bin" "$root/lib/modules" "$root/e2fold" "$root/mnt"
	cp /bin/busybox "$root/bin/busybox"
	for applet in $(/bin/busybox --list); do
		[ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
	done
	# Plain -static, not the build's sanitizer flags: ASan cannot be static.
	${CC:-cc} -static -O2 -o "$root/bin/kcf" "$here/kcf.c" ||
		hard_error "cannot build kcf statically (needs libc6-dev)"
	cp "$here/init" "$root/init"
	chmod 755 "$root/init"
	loaded='' nmods=0
	for m in $root_modules; do
		add_module "$m"
	done
	for a in $crypto_aliases; do
		m=$(soft_provider "$a")
		[ -z "$m" ] || add_module "$m"
	done
	(cd "$root" && find . | sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$1.tmp.$$" &&
		mv "$1.tmp.$$" "$1" || hard_error "cannot write $1"
	rm -rf "$root"
	# Each change to an input leaves an old archive behind; a month-old
	# one is rebuilt in a second if it is still wanted.
	find "$cache" -maxdepth 1 -name 'initramfs-*.cpio.gz' -mtime +30 -delete
}

# Sets initrd_base, rebuilding it when any input changed.
get_initramfs() {
	key=$({ sha256sum /bin/busybox "$here/kcf.c" "$here/../../lib/support/hex.h" \
		"$here/init" "$here/vm.sh" |
		cut -d' ' -f1; echo "$kdir ${CC:-cc}"; } | sha256sum | cut -c1-16)
	initrd_base=$cache/initramfs-$key.cpio.gz
	[ -f "$initrd_base" ] || build_initramfs "$initrd_base"
}

# --- One run. ---

# Quote $1 for sh: 'it'\''s'.
sh_quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# The per-run part of the initramfs (scenario, arguments, input files),
# appended to the cached one: the kernel unpacks concatenated archives.
# Arguments: SCENARIO ARG...
build_run_archive() {
	run=$work/run/e2fold
	mkdir -p "$run/in"
	echo "NIMAGES=$nimages MOUNT=$mount" > "$run/config"
	cp "$1" "$run/scenario" || hard_error "cannot read scenario $1"
	shift
	line="exec sh /e2fold/scenario"
	for a in "$@"; do
		line="$line $(sh_quote "$a")"
	done
	echo "$line" > "$run/run"
	while IFS= read -r f; do
		cp "$f" "$run/in/" || hard_error "cannot read $f"
	done < "$work/files"
	(cd "$work/run" && find . | sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$work/run.cpio.gz" ||
		hard_error "cannot build the run archive"
	# The kernel reads concatenated archives only at 4-byte boundaries:
	# pad the first one with zeros (which it skips) to a multiple of 4.
	cp "$initrd_base" "$work/initrd" || hard_error "cannot copy the initramfs"
	size=$(wc -c < "$work/initrd")
	pad=$(( (4 - size % 4) % 4 ))
	[ $pad -eq 0 ] || head -c $pad /dev/zero >> "$work/initrd"
	cat "$work/run.cpio.gz" >> "$work/initrd"
}

# QEMU's -drive splits its argument at commas; a comma in a path is ",,".
drive_file() {
	printf '%s' "$1" | sed 's/,/,,/g'
}

# Boot; leaves the result tar's contents in $work/result. The console goes
# to a file, not to the terminal as with -nographic, so that QEMU neither
# reads the test's stdin nor writes into its output.
# loglevel=5: warnings and worse (such as EXT4-fs warnings) reach the
# console log, routine messages do not slow the serial console.
run_vm() {
	kernel=$kdir/vmlinux
	[ -f "$kernel" ] || kernel=$kdir/vmlinuz
	set -- -accel "${E2FOLD_VM_ACCEL:-tcg}" -cpu max -m 512 \
		-nodefaults -no-user-config -display none -no-reboot \
		-serial "file:$work/console.log" \
		-kernel "$kernel" -initrd "$work/initrd" \
		-append "console=ttyS0 loglevel=5 panic=-1"
	i=0
	while IFS= read -r img; do
		set -- "$@" -drive "file=$(drive_file "$img"),if=none,id=d$i,format=raw,cache=unsafe" \
			-device "virtio-blk-pci,drive=d$i"
		i=$((i + 1))
	done < "$work/images"
	truncate -s 64M "$work/out.img"
	set -- "$@" -drive "file=$(drive_file "$work/out.img"),if=none,id=out,format=raw,cache=unsafe" \
		-device virtio-blk-pci,drive=out,serial=e2fold-out
	# --foreground: an interrupt of the test run reaches QEMU too.
	timeout --foreground -k 5 "$vm_timeout" qemu-system-x86_64 "$@" < /dev/null > "$work/qemu.log" 2>&1
	qemu_status=$?
	mkdir -p "$work/result"
	tar -xf "$work/out.img" -C "$work/result" 2>/dev/null
}

# Print the end of the console and QEMU logs after a failed boot.
show_logs() {
	echo "--- last lines of the VM console:" >&2
	tail -n 25 "$work/console.log" >&2 2>/dev/null
	if [ -s "$work/qemu.log" ]; then
		echo "--- qemu:" >&2
		cat "$work/qemu.log" >&2
	fi
}

report() {
	[ -n "$console" ] && cp "$work/console.log" "$console" 2>/dev/null
	r=$work/result
	[ -n "$release" ] && cp "$r/release" "$release" 2>/dev/null
	if [ -f "$r/status" ]; then
		cat "$r/output"
		[ -n "$out_dir" ] && mkdir -p "$out_dir" && cp -R "$r/out/." "$out_dir/"
		exit "$(cat "$r/status")"
	fi
	if [ -f "$r/error" ]; then
		echo "vm.sh: ERROR: the VM could not run the scenario: $(cat "$r/error")" >&2
	elif [ "$qemu_status" -eq 124 ] || [ "$qemu_status" -eq 137 ]; then
		echo "vm.sh: ERROR: the VM timed out after $vm_timeout s (E2FOLD_VM_TIMEOUT)" >&2
	elif grep -q 'Kernel panic' "$work/console.log" 2>/dev/null; then
		echo "vm.sh: ERROR: the kernel panicked: $(grep -m1 'Kernel panic' "$work/console.log")" >&2
	else
		echo "vm.sh: ERROR: the VM gave no result (qemu exit status $qemu_status)" >&2
	fi
	show_logs
	exit 99
}

main() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/e2fold-vm.XXXXXX") || hard_error "mktemp failed"
	trap 'rm -rf "$work"' EXIT
	trap 'exit 99' HUP INT TERM
	: > "$work/images"
	: > "$work/files"
	nimages=0 mount=1 out_dir='' console='' release=''
	while [ $# -gt 0 ]; do
		case $1 in
		--image)
			[ $# -ge 2 ] && [ -f "$2" ] || hard_error "--image: no such file: ${2:-}"
			(cd "$(dirname "$2")" && echo "$(pwd)/$(basename "$2")") >> "$work/images"
			nimages=$((nimages + 1)); shift 2 ;;
		--file)
			[ $# -ge 2 ] && [ -f "$2" ] || hard_error "--file: no such file: ${2:-}"
			echo "$2" >> "$work/files"; shift 2 ;;
		--out) [ $# -ge 2 ] || usage; out_dir=$2; shift 2 ;;
		--console) [ $# -ge 2 ] || usage; console=$2; shift 2 ;;
		--release) [ $# -ge 2 ] || usage; release=$2; shift 2 ;;
		--no-mount) mount=0; shift ;;
		--) shift; break ;;
		-*) usage ;;
		*) break ;;
		esac
	done
	[ $# -ge 1 ] || usage
	[ "$nimages" -le 25 ] || hard_error "at most 25 images"
	check_host
	fetch_kernel
	get_initramfs
	build_run_archive "$@"
	run_vm
	report
}

main "$@"
