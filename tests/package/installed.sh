#!/bin/sh
# tests/package/installed.sh DEBDIR: run as root in a fresh Debian
# chroot (scripts/package-check), on the packages of DEBDIR: they install
# with apt-get install ./*.deb, the demo's workflow runs against the
# installed tools (scripts/demo --installed), a program built with
# nothing but pkg-config's flags for the installed libe2fold-dev runs
# (tests/libe2fold_consumer.c), the installed bash completion
# answers, mount -t fuse.e2fold-fuse finds e2fold-fuse, and
# e2fold-fsck-boot diverts fsck.ext4 and gives it back (also when e2fold
# is removed), e2fold-fsck preloads its library into e2fsck. Prints one line per check and a summary line; exits non-zero
# if any check failed.
set -u
[ $# -eq 1 ] || { echo "usage: $0 DEBDIR" >&2; exit 2; }
debs=$(cd "$1" && pwd) || exit 2
top=$(cd "$(dirname "$0")/../.." && pwd)
passed=0 failed=0
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"; rm -rf "${tmp:-}"' EXIT

# check TITLE COMMAND...: run it, keep its output for a failure.
check() {
	title=$1
	shift
	if "$@" >"$log" 2>&1; then
		echo "PASS: $title"
		passed=$((passed + 1))
	else
		echo "FAIL: $title; its last lines:"
		tail -n 25 "$log" | sed 's/^/    /'
		failed=$((failed + 1))
	fi
}

apt_get() {
	apt-get -o DPkg::Lock::Timeout=600 -y -qq --no-install-recommends "$@"
}

install_packages() {
	apt_get update &&
	(cd "$debs" && apt_get install ./e2fold_*.deb ./libe2fold0_*.deb \
		./libe2fold-dev_*.deb) &&
	dpkg-query -W e2fold libe2fold0 libe2fold-dev
}

# The tools come from the packages, not from a build tree.
tools_installed() {
	for t in /usr/sbin/e2fold-mkfs /usr/sbin/e2fold-fsck \
		/usr/sbin/e2fold-debugfs /usr/sbin/e2fold-tune \
		/usr/sbin/e2fold-fsck-boot \
		/usr/bin/e2fold-fuse /usr/bin/e2fold-utf8; do
		[ "$(command -v "${t##*/}")" = "$t" ] || {
			echo "${t##*/} is not $t"; return 1; }
		dpkg -S "$t" || return 1
		"$t" --version || return 1
	done
}

# The consumer knows libe2fold through pkg-config alone, and must load
# the packaged library.
consumer() {
	apt_get install gcc libc6-dev pkgconf || return 1
	tmp=$(mktemp -d)
	flags=$(pkg-config --cflags --libs e2fold) || return 1
	echo "pkg-config e2fold: $flags"
	# shellcheck disable=SC2086
	gcc -Wall -Werror -o "$tmp/consumer" "$top/tests/libe2fold_consumer.c" \
		$flags || return 1
	"$tmp/consumer" || return 1
	lib=$(ldd "$tmp/consumer" | awk '/libe2fold\.so/ { print $3 }')
	echo "loads $lib"
	dpkg -S "$(readlink -f "$lib")" | grep -q '^libe2fold0:'
}

# bash-completion loads a command's file by its name: each tool's must
# register that tool's function. Without the bash-completion package the
# file is never loaded: e2fold suggests it.
completion() {
	dpkg-query -W -f '${Suggests}\n' e2fold | grep -qw bash-completion ||
		{ echo "e2fold does not suggest bash-completion"; return 1; }
	dir=/usr/share/bash-completion/completions
	for t in e2fold-mkfs e2fold-fsck e2fold-debugfs e2fold-tune \
		e2fold-fuse e2fold-utf8; do
		bash -c '. "$1/$2" && complete -p "$2"' sh "$dir" "$t" ||
			return 1
	done
}

# An image for the checks below, made by the installed e2fold-mkfs.
make_image() {
	tmp=${tmp:-$(mktemp -d)}
	mkdir -p "$tmp/src/Data" "$tmp/mnt"
	echo 'w=1' > "$tmp/src/Data/Config.ini"
	rm -f "$tmp/fs.img"
	e2fold-mkfs -q -O casefold -E casefold_dirs=all -d "$tmp/src" \
		"$tmp/fs.img" 8M
}

# mount(8) finds the packaged e2fold-fuse through mount.fuse3.
mount_helper() {
	apt_get install fuse3 || return 1
	make_image || return 1
	mount -t fuse.e2fold-fuse "$tmp/fs.img" "$tmp/mnt" || return 1
	out=$(cat "$tmp/mnt/DATA/CONFIG.INI")
	umount "$tmp/mnt" || return 1
	[ "$out" = 'w=1' ]
}

# fsck.ext4 diverted to e2fold-fsck and back; fsck(8) runs it.
fsck_boot() {
	make_image || return 1
	e2fold-fsck-boot enable || return 1
	e2fold-fsck-boot status || return 1
	fsck -T -a -t ext4 "$tmp/fs.img" < /dev/null | tee "$tmp/fsck.out"
	grep -q ': clean, ' "$tmp/fsck.out" || return 1
	[ "$(readlink -f "$(command -v fsck.ext4)")" = /usr/sbin/e2fold-fsck ] ||
		return 1
	e2fold-fsck-boot disable || return 1
	! e2fold-fsck-boot status || return 1
	fsck.ext4 -V 2>&1 | grep -q '^e2fsck '
}

# The packaged e2fold-fsck finds its packaged preload library: e2fsck's
# repairs go through the overlay (no warning), and leave no overlay
# behind in /var/lib/e2fold.
fsck_overlay() {
	make_image || return 1
	debugfs -w -R "sif /Data/Config.ini links_count 5" "$tmp/fs.img" ||
		return 1
	e2fold-fsck -fy "$tmp/fs.img" > "$tmp/fsck.out" 2>&1
	[ $? -eq 1 ] || { cat "$tmp/fsck.out"; return 1; }
	! grep -q 'is missing' "$tmp/fsck.out" || { cat "$tmp/fsck.out"; return 1; }
	e2fsck -fn "$tmp/fs.img" || return 1
	[ -d /var/lib/e2fold ] && [ -z "$(ls -A /var/lib/e2fold)" ]
}

# Removing e2fold gives fsck.ext4 back to e2fsprogs (the prerm).
remove_undoes_divert() {
	e2fold-fsck-boot enable || return 1
	apt-get -y -qq remove e2fold || return 1
	fsck.ext4 -V 2>&1 | grep -q '^e2fsck ' || return 1
	! dpkg-divert --list | grep -q 'by e2fold'
}

check "the packages install with apt-get install ./*.deb" install_packages
check "the tools are the packaged ones in /usr/sbin and /usr/bin" \
	tools_installed
check "the demo's workflow with the installed tools" \
	sh "$top/scripts/demo" --installed
check "a pkg-config consumer of libe2fold-dev builds and runs" consumer
check "the bash completion is installed for every tool" completion
check "mount -t fuse.e2fold-fuse with the packaged e2fold-fuse" mount_helper
check "e2fold-fsck-boot diverts fsck.ext4 and undoes it" fsck_boot
check "e2fold-fsck writes e2fsck's repairs through its overlay" fsck_overlay
check "removing e2fold undoes e2fold-fsck-boot" remove_undoes_divert
echo "$passed passed, $failed failed, 0 skipped"
[ $failed -eq 0 ]
