#!/bin/sh
# vm.sh: run a scenario script against Debian's own kernel in a QEMU VM.
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
#
# SCENARIO runs in the VM as "sh SCENARIO ARG...", as root, in /, with
# busybox and kcf (tests/kernel/kcf.c) on PATH. One boot costs seconds, so
# a scenario should do many checks. Its output is also echoed on the VM's
# serial console, which moves about 300 KB/s: write bulky results to files
# in $VM_OUT instead.
#
# vm.sh prints the scenario's stdout and stderr, and exits with its exit
# status (so a scenario should not exit 77 or 99 unless it means them);
# 99 if the VM did not boot, could not mount an image or timed out; 77 if
# qemu, busybox-static or the kernel package cannot be had. Either comes
# with the reason on stderr.
#
# Environment:
#   E2FOLD_KERNEL_CACHE  where kernels and initramfs are kept between runs
#                        (default /var/cache/e2fold-kernel)
#   E2FOLD_KERNEL_PKG    the kernel package (default: the one the Debian
#                        package linux-image-amd64 depends on)
#   E2FOLD_VM_TIMEOUT    seconds before the VM is killed (default 120)
#   E2FOLD_VM_ACCEL      QEMU accelerator (default tcg: KVM may hang)
#   CC                   compiler for the static kcf (default cc)
set -u

here=$(cd "$(dirname "$0")" && pwd)
cache=${E2FOLD_KERNEL_CACHE:-/var/cache/e2fold-kernel}
vm_timeout=${E2FOLD_VM_TIMEOUT:-120}
# The modules the VM needs, in any order; their dependencies (read from
# each module's "depends=") are loaded first. crc32c is only a soft
# dependency of ext4 and jbd2 (metadata_csum), so it is named here.
root_modules="virtio_pci virtio_blk crc32c_generic ext4"
# fscrypt's algorithms for encrypted directories (AES-256-XTS contents,
# AES-256-CTS names, HKDF-SHA512), loaded where they are modules; a
# kernel that builds them in, or lacks them, boots as well.
crypto_modules="sha512_generic ecb xts cts"
# The layout of a kernel cache entry (unpack_kernel): change it when that
# does, so that old entries are not misread.
layout=1

skip() {
	echo "vm.sh: SKIP: $*" >&2
	exit 77
}

hard_error() {
	echo "vm.sh: ERROR: $*" >&2
	exit 99
}

usage() {
	echo "usage: vm.sh [--image FILE]... [--file FILE]... [--no-mount] [--out DIR] [--console FILE] SCENARIO [ARG]..." >&2
	exit 99
}

# Tools on the host, each named with the Debian package that has it.
check_host() {
	command -v qemu-system-x86_64 >/dev/null ||
		skip "qemu-system-x86_64 not found (Debian package qemu-system-x86)"
	[ "$(dpkg-query -W -f='${db:Status-Status}' busybox-static 2>/dev/null)" = installed ] ||
		skip "a static /bin/busybox is needed (Debian package busybox-static)"
	command -v cpio >/dev/null || skip "cpio not found (Debian package cpio)"
	command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
		skip "apt-get and dpkg-deb are needed to fetch the kernel (Debian packages apt, dpkg)"
}

# --- The kernel: Debian's linux-image package, unpacked into the cache. ---

# The versioned package linux-image-amd64 depends on, from the apt lists.
kernel_package() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -1
}

candidate_version() {
	apt-cache show --no-all-versions "$1" 2>/dev/null |
		sed -n 's/^Version: //p' | head -1
}

# Sets pkg and version from the apt lists (no network).
resolve_from_lists() {
	pkg=${E2FOLD_KERNEL_PKG:-$(kernel_package)}
	version=
	[ -n "$pkg" ] && version=$(candidate_version "$pkg")
	[ -n "$version" ]
}

# apt-cache takes a second per call where its package cache is disabled
# (Debian's Docker images), so the answer is remembered for as long as the
# apt lists and E2FOLD_KERNEL_PKG stay the same.
lists_signature() {
	lists=/var/lib/apt/lists/
	eval "$(apt-config shell lists Dir::State::lists/d 2>/dev/null)"
	{ ls -l --full-time "$lists" 2>/dev/null
	  echo "${E2FOLD_KERNEL_PKG:-}"; } | sha256sum | cut -c1-16
}

# Sets pkg and version; runs apt-get update if the lists lack them (a
# fresh container has no lists). Returns non-zero if that did not help.
resolve_kernel() {
	sig=$(lists_signature)
	if [ -f "$cache/resolved" ] && read -r s pkg version < "$cache/resolved" &&
		[ "$s" = "$sig" ]; then
		return 0
	fi
	if ! resolve_from_lists; then
		apt-get update -qq >/dev/null 2>&1 && resolve_from_lists || return 1
	fi
	echo "$(lists_signature) $pkg $version" > "$cache/resolved.$$" &&
		mv "$cache/resolved.$$" "$cache/resolved"
}

# Download and unpack $pkg=$version into $1 (run it in a subshell: it
# changes directory). The unpacked package is 400 MB, mostly drivers; keep
# only the kernel, and the module directories a test VM can use (file
# systems, crypto, libraries, virtio disks).
unpack_kernel() {
	tmp=$cache/tmp.$$
	rm -rf "$tmp"
	mkdir -p "$tmp" && cd "$tmp" || return 1
	# The sandbox user _apt cannot write to a root-owned cache: say that
	# root downloads, instead of letting apt warn about it.
	apt-get download -q -o APT::Sandbox::User=root "$pkg=$version" >/dev/null 2>&1 &&
		dpkg-deb -x ./*.deb root || return 1
	mkdir -p entry/modules/kernel/drivers
	mv root/boot/vmlinuz-* entry/vmlinuz
	mv root/boot/config-* entry/config
	extract_vmlinux entry/vmlinuz entry/vmlinux
	m=$(echo root/lib/modules/*)
	mv "$m/modules.builtin" entry/modules/
	for d in fs lib crypto arch drivers/virtio drivers/block; do
		[ -d "$m/kernel/$d" ] && mv "$m/kernel/$d" "entry/modules/kernel/$d"
	done
	echo "$pkg $version" > entry/package
	mv entry "$1"
}

# Under TCG, decompressing the kernel takes a VM two seconds of every boot.
# QEMU boots an uncompressed vmlinux directly (PVH entry point), so when
# the kernel supports PVH and is xz-compressed (Debian 12's is), unpack it
# once here. Otherwise the VM boots vmlinuz.
extract_vmlinux() {
	grep -qx "CONFIG_PVH=y" "$(dirname "$1")/config" || return 0
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$1" | head -1 | cut -d: -f1)
	[ -n "$off" ] || return 0
	tail -c +$((off + 1)) "$1" | xz -dcq --single-stream > "$2.tmp" 2>/dev/null
	if [ "$(head -c 4 "$2.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
		mv "$2.tmp" "$2"
	else
		rm -f "$2.tmp"
	fi
}

# Sets kdir, the cache entry of the kernel to boot. Offline, with no apt
# lists, the newest kernel already in the cache will do.
fetch_kernel() {
	mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] ||
		skip "cannot write the kernel cache $cache (set E2FOLD_KERNEL_CACHE)"
	if ! resolve_kernel; then
		kdir=$(ls -d "$cache"/linux-image-*.$layout/package 2>/dev/null | sort -V | tail -1)
		kdir=${kdir%/package}
		[ -n "$kdir" ] && return 0
		skip "cannot find the kernel package in apt (Debian package linux-image-amd64; apt-get update failed?)"
	fi
	kdir=$cache/${pkg}_$version.$layout
	[ -f "$kdir/package" ] && return 0
	# Parallel tests share the cache: one downloads, the others wait.
	exec 9>"$cache/lock"
	flock 9
	if [ ! -f "$kdir/package" ]; then
		echo "vm.sh: fetching $pkg $version into $cache" >&2
		if ! (unpack_kernel "$kdir"); then
			# Stale lists name a version the mirror no longer has.
			rm -rf "$cache/tmp.$$" "$cache/resolved"
			apt-get update -qq >/dev/null 2>&1 && resolve_kernel &&
				kdir=$cache/${pkg}_$version.$layout &&
				{ [ -f "$kdir/package" ] || (unpack_kernel "$kdir"); } ||
				skip "cannot download ${pkg:-linux-image-amd64}=$version (Debian package ${pkg:-linux-image-amd64}; apt-get download failed)"
		fi
		rm -rf "$cache/tmp.$$"
	fi
	exec 9>&-
}

# --- The initramfs: busybox, kcf, /init and modules; cached by content. ---

# Path of module $1 under $mods (file names may use '-' where the module
# name has '_'), or nothing.
ko_path() {
	find "$mods/kernel" \( -name "$1.ko*" -o -name "$(echo "$1" | tr _ -).ko*" \) | head -1
}

ko_cat() {
	case $1 in
	*.ko.xz) xz -dc "$1" ;;
	*.ko.zst) zstd -qdc "$1" ;;
	*.ko.gz) gzip -dc "$1" ;;
	*) cat "$1" ;;
	esac
}

is_builtin() {
	sed 's,.*/,,; s/\.ko$//; s/-/_/g' "$mods/modules.builtin" | grep -qx "$1"
}

# Copy module $1 into $root/lib/modules after its dependencies, decompressed
# (busybox insmod may not read compressed modules). Positional parameters
# survive the recursion; other variables do not.
add_module() {
	case " $loaded " in *" $1 "*) return 0 ;; esac
	f=$(ko_path "$1")
	if [ -z "$f" ]; then
		is_builtin "$1" && return 0
		hard_error "kernel module $1 is neither in $mods nor built in"
	fi
	for dep in $(ko_cat "$f" | tr '\0' '\n' | sed -n 's/^depends=//p' | tr , ' '); do
		add_module "$dep"
	done
	nmods=$((nmods + 1))
	ko_cat "$(ko_path "$1")" > "$root/lib/modules/$(printf %02d $nmods)-$1.ko" ||
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
	for m in $crypto_modules; do
		[ -n "$(ko_path "$m")" ] && add_module "$m"
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
	key=$({ sha256sum /bin/busybox "$here/kcf.c" "$here/init" "$here/vm.sh" |
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
run_vm() {
	kernel=$kdir/vmlinux
	[ -f "$kernel" ] || kernel=$kdir/vmlinuz
	set -- -accel "${E2FOLD_VM_ACCEL:-tcg}" -cpu max -m 512 \
		-nodefaults -no-user-config -display none -no-reboot \
		-serial "file:$work/console.log" \
		-kernel "$kernel" -initrd "$work/initrd" \
		-append "console=ttyS0 quiet panic=-1"
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
	nimages=0 mount=1 out_dir='' console=''
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
