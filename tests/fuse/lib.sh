# lib.sh: what the tests of e2fold-fuse that run operation lists and
# look every name up share (tests/fuse_oplists.sh, tests/fuse_tools.sh,
# tests/kernel/k_fuse_diff.sh; sourced after tests/kernel/lib.sh, whose
# hex helpers, spellings and fsck judges they use). A test calls
# fuse_init NAME first: its files go to $out = BUILDDIR/tests/NAME/;
# failures are collected with kfail.
#
# Mounts are real: e2fold-fuse runs as root against /dev/fuse. Without
# /dev/fuse, fusermount3 (Debian package fuse3) or a mount that comes up,
# the test fails: a test of the server that cannot mount it proves
# nothing. Every mount is undone on exit, also when the test fails.
E2FOLD_FUSE=${E2FOLD_FUSE:-$top_builddir/fuse/e2fold-fuse}
FSOPS=${FSOPS:-$top_builddir/tests/fuse/fsops}
fuse_mounts=
fuse_pids=

# kstart, krelease and failed are those of tests/kernel/lib.sh (kfinish).
# shellcheck disable=SC2034
fuse_init() {
	out=$top_builddir/tests/$1
	rm -rf "$out"
	mkdir -p "$out"
	failed=0
	kstart=$(date +%s)
	krelease=$(uname -r)
	trap fuse_cleanup EXIT
	trap 'exit 1' INT TERM
	fuse_require
}

# A missing piece is a failure, named with the package that has it.
fuse_require() {
	missing=
	[ -c /dev/fuse ] || missing="$missing /dev/fuse (the fuse kernel module; modprobe fuse)"
	command -v fusermount3 > /dev/null || missing="$missing fusermount3 (Debian package fuse3)"
	[ -x "$E2FOLD_FUSE" ] || missing="$missing $E2FOLD_FUSE (not built)"
	[ -x "$FSOPS" ] || missing="$missing $FSOPS (not built: make check builds it)"
	[ "$(id -u)" -eq 0 ] || missing="$missing root (the tests mount)"
	if [ -n "$missing" ]; then
		echo "FAIL: cannot mount with e2fold-fuse; missing:$missing" >&2
		exit 99
	fi
}

# fuse_mount IMAGE MNT [OPTIONS]: serve IMAGE at MNT with e2fold-fuse in
# the foreground (so that its exit status can be read), its log in
# $out/fuse.BASENAME_OF_MNT.log; waits until the mount is there. A server that
# exits or a mount that does not appear within 20 s ends the test.
fuse_mount() {
	mkdir -p "$2"
	log=$out/fuse.$(basename "$2").log
	"$E2FOLD_FUSE" -f ${3:+-o "$3"} "$1" "$2" > "$log" 2>&1 &
	pid=$!
	fuse_pids="$fuse_pids $pid"
	fuse_mounts="$fuse_mounts $2"
	echo "$pid" > "$out/fuse.$(basename "$2").pid"
	i=0
	while ! mountpoint -q "$2"; do
		if ! kill -0 "$pid" 2> /dev/null; then
			wait "$pid"
			echo "FAIL: e2fold-fuse ${3:+-o $3 }$1 $2 exited (status $?) without mounting:" >&2
			cat "$log" >&2
			exit 1
		fi
		i=$((i + 1))
		if [ $i -gt 200 ]; then
			echo "FAIL: e2fold-fuse ${3:+-o $3 }$1 $2: no mount after 20 s:" >&2
			cat "$log" >&2
			exit 1
		fi
		sleep 0.1
	done
}

# fuse_umount MNT: unmount and wait for the server to exit; a server
# that exits with an error, or does not exit within 30 s, is a failure
# (the image may then be incomplete, so the test ends).
fuse_umount() {
	pid=$(cat "$out/fuse.$(basename "$1").pid")
	if ! fusermount3 -u "$1" 2> "$out/umount.err"; then
		echo "FAIL: fusermount3 -u $1: $(cat "$out/umount.err")" >&2
		exit 1
	fi
	i=0
	while kill -0 "$pid" 2> /dev/null; do
		i=$((i + 1))
		if [ $i -gt 300 ]; then
			echo "FAIL: e2fold-fuse (pid $pid) still runs 30 s after unmounting $1" >&2
			exit 1
		fi
		sleep 0.1
	done
	wait "$pid"
	status=$?
	fuse_pids=$(echo "$fuse_pids" | sed "s/ $pid\$//; s/ $pid / /")
	fuse_mounts=$(echo "$fuse_mounts" | sed "s| $1\$||; s| $1 | |")
	if [ "$status" -ne 0 ]; then
		kfail "e2fold-fuse serving $1 exited with status $status:"
		cat "$out/fuse.$(basename "$1").log"
	fi
}

# Unmount what is still mounted, then stop our servers (only ours).
fuse_cleanup() {
	for m in $fuse_mounts; do
		fusermount3 -u "$m" 2> /dev/null || fusermount3 -uz "$m" 2> /dev/null
	done
	for p in $fuse_pids; do
		kill "$p" 2> /dev/null
	done
}

# fuse_walk MNT > FILE: every entry below MNT, read through the mount:
# lines "DIR NAME FLAG" with DIR (relative to MNT, "." for the root) and
# NAME escaped as fsops writes them, FLAG "cf" when DIR has the casefold
# flag, else "-". Sorted by bytes.
fuse_walk() {
	perl -e 'use strict;
		my $root = shift;
		sub esc { my $s = shift; $s =~ s/([^\x21-\x7e]|\\)/sprintf("\\x%02x", ord($1))/ge; return $s; }
		# FS_IOC_GETFLAGS; the casefold flag.
		sub casefolded {
			open(my $fh, "<", $_[0]) or die "$_[0]: $!\n";
			my $flags = pack("L", 0);
			ioctl($fh, 0x80086601, $flags) or die "FS_IOC_GETFLAGS $_[0]: $!\n";
			return unpack("L", $flags) & 0x40000000 ? "cf" : "-";
		}
		my @todo = (".");
		while (defined(my $dir = shift(@todo))) {
			my $path = "$root/$dir";
			my $cf = casefolded($path);
			opendir(my $dh, $path) or die "$path: $!\n";
			for my $name (sort(readdir($dh))) {
				next if $name eq "." || $name eq "..";
				my $rel = $dir eq "." ? $name : "$dir/$name";
				print esc($dir), " ", esc($name), " $cf\n";
				push(@todo, $rel) if -d "$root/$rel" && ! -l "$root/$rel";
			}
		}' "$1" | sort
}

# check_reachable IMAGE WALK LABEL: after unmounting, e2fold-debugfs
# looks every entry of WALK (fuse_walk's lines) up in IMAGE, by its own
# bytes and by each other spelling spellings.pl makes of it. In a
# directory with the flag, a spelling that e2fold-utf8 cmp calls equal
# must find the name's inode and any other must not; without the flag a
# spelling finds exactly the entry whose bytes it is, if there is one.
# Summary in $out/LABEL.reach.
check_reachable() {
	base=$out/$3
	# The names in hex, through the walk's escapes.
	awk '{ print $2 }' "$2" | perl -ne 'chomp; s/\\x([0-9a-f]{2})/chr(hex($1))/ge;
		print unpack("H*", $_), "\n"' > "$base.names"
	spellings "$base.names" > "$base.sp" || {
		kfail "$3: cannot make the spellings of the names"
		return
	}
	# One lookup of each spelling, by the name's directory; lines
	# "DIR NAMEHEX KIND VERDICT FLAG ALTHEX".
	perl -e 'use strict;
		my ($walk, $sp) = @ARGV;
		my %where;
		open(my $w, "<", $walk) or die;
		while (<$w>) {
			my ($dir, $name, $cf) = split;
			(my $raw = $name) =~ s/\\x([0-9a-f]{2})/chr(hex($1))/ge;
			push(@{$where{unpack("H*", $raw)}}, "$dir $cf");
		}
		open(my $s, "<", $sp) or die;
		while (<$s>) {
			my ($alt, $name, $kind, $verdict) = split;
			for my $at (@{$where{$name} || []}) {
				my ($dir, $cf) = split(" ", $at);
				print "$dir $name $kind $verdict $cf $alt\n";
			}
		}' "$2" "$base.sp" | sort -u > "$base.plan"
	perl -ne 'my ($dir, $name, $kind, $verdict, $cf, $alt) = split;
		$dir = $dir eq "." ? "/" : "/$dir";
		(my $e = pack("H*", $alt)) =~ s/([^\x21-\x7e]|\\)/sprintf("\\x%02x", ord($1))/ge;
		print "lookup -e $dir $e\n";' "$base.plan" > "$base.cmds"
	"$E2FOLD_DEBUGFS" -f "$base.cmds" "$1" > "$base.lookups" 2>&1
	# One answer per lookup: the inode found, "refused" or "none".
	awk '/^lookup "/ { if (n) print ans; n++; ans = "none"; next }
		/^  found: / { for (i = 1; i <= NF; i++) if ($i == "inode") ans = $(i + 1) }
		/^  not found: the kernel refuses/ { ans = "refused" }
		END { if (n) print ans }' "$base.lookups" > "$base.answers"
	if [ "$(wc -l < "$base.answers")" -ne "$(wc -l < "$base.plan")" ]; then
		kfail "$3: e2fold-debugfs answered $(wc -l < "$base.answers") of $(wc -l < "$base.plan") lookups:"
		grep -v '^\(lookup "\|  \)' "$base.lookups" | head -10
		return
	fi
	# shellcheck disable=SC2034
	paste -d' ' "$base.plan" "$base.answers" | awk -v label="$3" '
		# The inode of each name, from the lookup of its own bytes.
		$3 == "exact" { ino[$1 " " $2] = $7 }
		{ line[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++) {
				split(line[i], f, " ")
				key = f[1] " " f[2]
				n[f[3]]++
				# Another spelling finds the name in a casefolded
				# directory when it is equal. One that is not may
				# be equal to another name there (the case of "I\u0131"
				# is that of "II"), so it must only not find this
				# one. In a plain directory a spelling finds only an
				# entry whose bytes it is (a and A).
				got = f[7]
				if (f[3] == "exact") {
					want = "an inode"
					ok = got ~ /^[0-9]+$/
				} else if (f[5] == "cf" && f[4] == "equal") {
					want = ino[key]
					ok = got == want
				} else if (f[5] == "cf") {
					want = "anything but " ino[key]
					ok = got != ino[key]
				} else {
					want = ((f[1] " " f[6]) in ino) ? ino[f[1] " " f[6]] : "none"
					ok = got == want || (want == "none" && got == "refused")
				}
				if (!ok) {
					wrong[f[3]]++
					if (bad++ < 10)
						printf "FAIL: %s: in %s, %s (%s of %s, %s) finds %s, want %s\n",
							label, f[1], f[6], f[3], f[2], f[4], got, want
				}
			}
			for (k in n)
				printf "%s %s: %d lookups, %d wrong\n", label, k, n[k], wrong[k] + 0
			exit bad > 0
		}' > "$base.reach" || failed=1
	grep '^FAIL' "$base.reach"
}
