#!/usr/bin/perl
# workload.pl: the scripted workload of fuse_journal_kill, and its model.
# One deterministic plan of groups of file operations, each group ended
# by an fsync (of a file or a directory, or fdatasync), the last one by
# the unmount; the same plan drives the mount ("run") and an in-memory
# model of the tree ("judge"), so that what a crash leaves can be
# compared with the state after a whole number of groups.
#
#   workload.pl src DIR           the source tree of the image (no big.bin)
#   workload.pl run SRC MNT LOG   run the plan through the mount; after
#                                 each sync returns, append "durable K"
#                                 to LOG (outside the image); exit 0 when
#                                 all went as planned, 2 at the first
#                                 ENOTCONN or ECONNABORTED (the server
#                                 died), else 1
#   workload.pl after MNT         200 more files, for the mount after
#   workload.pl judge SRC TREE K [after]
#                                 TREE (an rdump of the image) must be
#                                 the state after group K (its fsync
#                                 was answered) or after group K+1 (its
#                                 commit may have happened unanswered),
#                                 plus the after files if asked; prints
#                                 "old" or "new", else what differs and
#                                 exits 1
#   workload.pl groups SRC        the number of groups
#
# States are compared as manifests: one line per name (directory, file
# with size and SHA-256, symbolic link with its target). File data is
# written in place before the commit (ordered mode), so a file
# overwritten in place (no size change, one block) in the group after
# the last commit may hold its old or its new contents; every other
# change is all or nothing with its group.
use strict;
use warnings;
use Digest::SHA qw(sha256_hex);
use Encode qw(decode_utf8 encode_utf8);
use Errno qw(ECONNABORTED EEXIST ENOTCONN);
use Fcntl;
use File::Find;
use File::Spec;

my $GROUPS = 8;		# the last one is committed by the unmount
my $seed = 12345;

sub rnd {
	my ($n) = @_;
	$seed = ($seed * 1103515245 + 12345) % 2147483648;
	return int($seed / 65536) % $n;
}

# content(TAG, SIZE): SIZE bytes that name TAG on every line.
sub content {
	my ($tag, $size) = @_;
	my $s = '';
	my $i = 0;
	$s .= sprintf("%s %07d\n", $tag, $i++) while length($s) < $size;
	return substr($s, 0, $size);
}

# Long names, some with letters whose other case is not ASCII, so that
# a few hundred fill many hash leaves of a 4 KiB directory block. (The
# script's strings are UTF-8 bytes: no "use utf8".)
sub long_name {
	my ($tag, $i) = @_;
	my @stems = ("Café-Ärger-", "Straße-", "Entry-", "ÉTÉ-Øre-");
	my $s = $stems[$i % @stems];
	return $s . sprintf("%s-%05d-", $tag, $i) .
		("long-name-part-" x 5);
}

# spell(PATH): the same name in another case (Straße as STRASSE) where
# its directory is casefolded (cf, cf2 and what they hold), else PATH.
sub spell {
	my ($path) = @_;
	my ($dir, $base) = $path =~ m{^(.*/)?([^/]+)$};
	return $path unless ($dir // '') =~ m{^cf2?/};
	return $dir . encode_utf8(uc(decode_utf8($base)));
}

my @SIZES = (0, 57, 4096, 5000, 9000, 12288, 20000, 300);

sub make_src {
	my ($dir) = @_;
	for my $d ("", "/cf", "/cf2", "/plain", "/plain/sub") {
		mkdir "$dir$d" or die "mkdir $dir$d: $!\n";
	}
	my @files;
	push @files, ["cf/" . long_name("init", $_), $_] for 1 .. 300;
	push @files, ["cf2/" . long_name("two", $_), $_] for 1 .. 20;
	push @files, ["plain/file-$_", $_] for 1 .. 30;
	push @files, ["plain/sub/file-$_", $_] for 1 .. 10;
	for my $f (@files) {
		my ($path, $i) = @$f;
		open(my $fh, '>', "$dir/$path") or die "$dir/$path: $!\n";
		print $fh content("src $path", $SIZES[$i % @SIZES]);
		close($fh) or die "$dir/$path: $!\n";
	}
}

# The model: paths to inodes; an inode is { type, data, target }.
my (%tree, %ever, $next_id);

sub walk {
	my ($root) = @_;
	my %seen;
	find({ no_chdir => 1, wanted => sub {
		my $p = $File::Find::name;
		return if $p eq $root;
		$p = substr($p, length($root) + 1);
		$seen{$p} = 1;
	} }, $root);
	return sort keys %seen;
}

sub load_src {
	my ($src) = @_;
	%tree = ('lost+found' => { type => 'd' });
	for my $p (walk($src)) {
		my $full = "$src/$p";
		if (-l $full) {
			$tree{$p} = { type => 'l', target => readlink($full) };
		} elsif (-d $full) {
			$tree{$p} = { type => 'd' };
		} else {
			open(my $fh, '<:raw', $full) or die "$full: $!\n";
			local $/;
			my $data = <$fh> // '';
			$tree{$p} = { type => 'f', data => $data };
		}
	}
	$tree{$_}{id} = ++$next_id for sort keys %tree;
	%ever = map { $_ => 1 } keys %tree;
}

sub manifest_line {
	my ($p, $n) = @_;
	return "d $p" if $n->{type} eq 'd';
	return "l $p -> $n->{target}" if $n->{type} eq 'l';
	# (Kept until the data changes: nine snapshots of an 8 MiB file.)
	$n->{sha} //= sha256_hex($n->{data});
	return sprintf("f %s %d %s", $p, length($n->{data}), $n->{sha});
}

# A snapshot: path => manifest line, and path => inode id.
sub snapshot {
	my %lines = map { $_ => manifest_line($_, $tree{$_}) } keys %tree;
	my %ids = map { $_ => $tree{$_}{id} } keys %tree;
	return { lines => \%lines, ids => \%ids };
}

sub files_in {
	my ($dir, $touched, $min) = @_;
	return grep {
		my $n = $tree{$_};
		m{^\Q$dir\E/[^/]+$} && $n->{type} eq 'f' &&
		!$touched->{$n->{id}} && length($n->{data}) >= ($min // 0)
	} sort keys %tree;
}

sub pick {
	my @l = @_;
	return undef unless @l;
	return $l[rnd(scalar @l)];
}

# The plan: a list of groups, each { ops => [...], sync => {...},
# inplace => { id => the SHA-256 of its contents after the overwrite } },
# applied to the model as it is made; snapshots[K] is the state after
# group K (0: the source tree).
my (@plan, @snapshots);

sub op {
	my ($g, %o) = @_;
	my $n;
	my $k = $o{kind};
	delete $tree{$o{path}}{sha} if $tree{$o{path}};
	if ($k eq 'create') {
		$n = $tree{$o{path}} = { type => 'f', data => $o{data},
			id => ++$next_id };
	} elsif ($k eq 'trunc') {
		$tree{$o{path}}{data} = $o{data};
	} elsif ($k eq 'append') {
		$tree{$o{path}}{data} .= $o{data};
	} elsif ($k eq 'inplace') {
		substr($tree{$o{path}}{data}, $o{off}, length $o{data}) =
			$o{data};
		$g->{inplace}{$tree{$o{path}}{id}} =
			sha256_hex($tree{$o{path}}{data});
	} elsif ($k eq 'rename') {
		my $from = $o{path};
		my @moved = grep { $_ eq $from || index($_, "$from/") == 0 }
			keys %tree;
		for my $p (@moved) {
			my $to = $o{path2} . substr($p, length $from);
			$tree{$to} = delete $tree{$p};
			$ever{$to} = 1;
		}
	} elsif ($k eq 'unlink' || $k eq 'rmdir') {
		delete $tree{$o{path}};
	} elsif ($k eq 'mkdir') {
		$n = $tree{$o{path}} = { type => 'd', id => ++$next_id };
	} elsif ($k eq 'symlink') {
		$n = $tree{$o{path}} = { type => 'l', target => $o{target},
			id => ++$next_id };
	} elsif ($k eq 'link') {
		$tree{$o{path2}} = $tree{$o{path}};
		$ever{$o{path2}} = 1;
	}
	$ever{$o{path}} = 1;
	push @{$g->{ops}}, \%o;
}

sub plan_group {
	my ($gi) = @_;
	my $g = { ops => [], inplace => {} };
	my %touched;
	my $touch = sub { $touched{$tree{$_[0]}{id}} = 1 if $tree{$_[0]}; };
	my $last;
	for my $i (1 .. 20) {
		my $p = "cf/" . long_name("g$gi", $i);
		op($g, kind => 'create', path => $p, spell => $p,
			data => content("g$gi create $i", $SIZES[$i % @SIZES]));
		$touch->($p);
		$last = $p;
	}
	my $p = "plain/big-$gi";
	op($g, kind => 'create', path => $p, spell => $p,
		data => content("g$gi big", 200000 + $gi * 1000));
	$touch->($p);
	for my $i (1 .. 4) {
		$p = "plain/sub/new-$gi-$i";
		op($g, kind => 'create', path => $p, spell => $p,
			data => content("g$gi sub $i", 1000 * $i));
		$touch->($p);
	}
	# Another spelling of an existing name: EEXIST, nothing changes.
	for my $i (1 .. 2) {
		$p = pick(files_in("cf", {}));
		push @{$g->{ops}}, { kind => 'eexist', path => $p,
			spell => spell($p) };
	}
	for my $i (1 .. 3) {
		$p = pick(files_in($i == 1 ? "plain" : "cf", \%touched));
		op($g, kind => 'trunc', path => $p, spell => spell($p),
			data => content("g$gi trunc $i",
				$SIZES[($gi + $i) % @SIZES]));
		$touch->($p);
	}
	for my $i (1 .. 2) {
		$p = pick(files_in($i == 1 ? "cf" : "plain", \%touched, 8192));
		next unless defined $p;
		op($g, kind => 'inplace', path => $p, spell => spell($p),
			off => 4096, data => content("g$gi inplace $i", 4096));
		$touch->($p);
	}
	for my $i (1 .. 3) {
		$p = pick(files_in($i == 1 ? "cf2" : "cf", \%touched));
		op($g, kind => 'append', path => $p, spell => spell($p),
			data => content("g$gi append $i", 777 * $i));
		$touch->($p);
	}
	for my $i (1 .. 2) {
		$p = pick(files_in("cf", \%touched));
		my $to = "cf/" . long_name("g$gi-renamed", $i);
		op($g, kind => 'rename', path => $p, spell => spell($p),
			path2 => $to, spell2 => $to);
		$touch->($to);
	}
	$p = pick(files_in("cf", \%touched));
	my $to = "cf2/" . long_name("g$gi-moved", 1);
	op($g, kind => 'rename', path => $p, spell => spell($p),
		path2 => $to, spell2 => $to);
	$touch->($to);
	$p = pick(files_in("cf2", \%touched));
	$to = "plain/sub/from-cf2-$gi";
	op($g, kind => 'rename', path => $p, spell => spell($p),
		path2 => $to, spell2 => $to);
	$touch->($to);
	# A rename over an existing name (the target's inode freed); the
	# entry keeps its name, as ext4_rename's ext4_setent does.
	$p = pick(files_in("cf", \%touched));
	$touch->($p);
	my $over = pick(files_in("cf", \%touched));
	op($g, kind => 'rename', path => $p, spell => $p, path2 => $over,
		spell2 => spell($over));
	for my $i (1 .. 5) {
		$p = pick(files_in($i == 5 ? "plain/sub" : "cf", \%touched));
		op($g, kind => 'unlink', path => $p, spell => spell($p));
	}
	# Directories: one in a casefolded parent (casefolded itself) and
	# one in a plain one, each with a file; last group's plain one
	# emptied and removed, its casefolded one moved to cf2.
	for my $d ("cf/Dir-Ärger-$gi", "plain/dir-$gi") {
		op($g, kind => 'mkdir', path => $d, spell => $d);
		op($g, kind => 'create', path => "$d/inside",
			spell => "$d/inside",
			data => content("g$gi $d inside", 3000));
		$touch->("$d/inside");
	}
	if ($gi > 1) {
		my $d = "plain/dir-" . ($gi - 1);
		op($g, kind => 'unlink', path => "$d/inside",
			spell => "$d/inside");
		op($g, kind => 'rmdir', path => $d, spell => $d);
		$d = "cf/Dir-Ärger-" . ($gi - 1);
		my $dto = "cf2/Dir-Ärger-" . ($gi - 1);
		op($g, kind => 'rename', path => $d, spell => spell($d),
			path2 => $dto, spell2 => $dto);
	}
	$p = pick(files_in("cf", \%touched));
	op($g, kind => 'link', path => $p, spell => spell($p),
		path2 => "plain/link-$gi", spell2 => "plain/link-$gi");
	$touch->($p);
	op($g, kind => 'symlink', path => "plain/sym-$gi",
		spell => "plain/sym-$gi",
		target => "../cf/whatever-$gi");
	my @syncs = (
		{ kind => 'fsync', path => $last },
		{ kind => 'fsyncdir', path => 'cf' },
		{ kind => 'fdatasync', path => "plain/big-$gi" },
		{ kind => 'fsyncdir', path => '.' },
		{ kind => 'fsyncdir', path => 'plain/sub' },
	);
	$g->{sync} = $syncs[($gi - 1) % @syncs] if $gi < $GROUPS;
	return $g;
}

sub make_plan {
	my ($src) = @_;
	load_src($src);
	push @snapshots, snapshot();
	for my $gi (1 .. $GROUPS) {
		push @plan, plan_group($gi);
		push @snapshots, snapshot();
	}
}

# Running the plan through the mount.
my $log;

sub failed {
	my ($what) = @_;
	# The server is gone: ECONNABORTED for the requests it had, then
	# ENOTCONN.
	exit 2 if $! == ENOTCONN || $! == ECONNABORTED;
	print STDERR "workload: $what: $!\n";
	exit 1;
}

sub write_file {
	my ($path, $flags, $data, $off) = @_;
	sysopen(my $fh, $path, $flags, 0644) or failed("open $path");
	if (defined $off) {
		sysseek($fh, $off, 0) or failed("seek $path");
	}
	my $done = 0;
	while ($done < length $data) {
		my $n = syswrite($fh, $data, length($data) - $done, $done);
		failed("write $path") unless defined $n;
		$done += $n;
	}
	close($fh) or failed("close $path");
}

sub sync_one {
	my ($s) = @_;
	require "syscall.ph";
	my $flags = $s->{kind} eq 'fsyncdir' ? O_RDONLY | O_DIRECTORY :
		O_WRONLY;
	sysopen(my $fh, $s->{path}, $flags) or failed("open $s->{path}");
	my $call = $s->{kind} eq 'fdatasync' ? &SYS_fdatasync : &SYS_fsync;
	syscall($call, fileno($fh)) == 0 or failed("$s->{kind} $s->{path}");
	close($fh) or failed("close $s->{path}");
}

sub run_op {
	my ($o) = @_;
	my ($k, $s, $s2) = ($o->{kind}, $o->{spell}, $o->{spell2});
	if ($k eq 'create') {
		write_file($s, O_WRONLY | O_CREAT | O_EXCL, $o->{data});
	} elsif ($k eq 'trunc') {
		write_file($s, O_WRONLY | O_TRUNC, $o->{data});
	} elsif ($k eq 'append') {
		write_file($s, O_WRONLY | O_APPEND, $o->{data});
	} elsif ($k eq 'inplace') {
		write_file($s, O_WRONLY, $o->{data}, $o->{off});
	} elsif ($k eq 'eexist') {
		if (sysopen(my $fh, $s, O_WRONLY | O_CREAT | O_EXCL, 0644)) {
			print STDERR "workload: $s created beside $o->{path}\n";
			exit 1;
		}
		failed("create $s, want EEXIST") unless $! == EEXIST;
	} elsif ($k eq 'rename') {
		rename($s, $s2) or failed("rename $s $s2");
	} elsif ($k eq 'unlink') {
		unlink($s) or failed("unlink $s");
	} elsif ($k eq 'rmdir') {
		rmdir($s) or failed("rmdir $s");
	} elsif ($k eq 'mkdir') {
		mkdir($s) or failed("mkdir $s");
	} elsif ($k eq 'symlink') {
		symlink($o->{target}, $s) or failed("symlink $s");
	} elsif ($k eq 'link') {
		link($s, $s2) or failed("link $s $s2");
	}
}

sub run_plan {
	my ($mnt) = @_;
	chdir($mnt) or die "workload: $mnt: $!\n";
	for my $gi (1 .. @plan) {
		my $g = $plan[$gi - 1];
		run_op($_) for @{$g->{ops}};
		next unless $g->{sync};
		sync_one($g->{sync});
		open(my $fh, '>>', $log) or die "workload: $log: $!\n";
		print $fh "durable $gi ($g->{sync}{kind} $g->{sync}{path})\n";
		close($fh) or die "workload: $log: $!\n";
	}
}

sub after_files {
	my %f;
	for my $i (1 .. 200) {
		my $p = $i % 2 ? "cf/" . long_name("after", $i) :
			"plain/after/file-$i";
		$f{$p} = content("after $i", 1000 + 37 * $i);
	}
	return %f;
}

sub run_after {
	my ($mnt) = @_;
	my %f = after_files();
	mkdir("$mnt/plain/after") or die "workload: mkdir plain/after: $!\n";
	for my $p (sort keys %f) {
		write_file("$mnt/$p", O_WRONLY | O_CREAT | O_EXCL, $f{$p});
	}
}

# Judging a tree.
sub tree_lines {
	my ($root) = @_;
	my %lines;
	for my $p (walk($root)) {
		my $full = "$root/$p";
		my $line;
		if (-l $full) {
			$line = "l $p -> " . readlink($full);
		} elsif (-d $full) {
			$line = "d $p";
		} else {
			open(my $fh, '<:raw', $full) or die "$full: $!\n";
			local $/;
			my $data = <$fh> // '';
			$line = sprintf("f %s %d %s", $p, length $data,
				sha256_hex($data));
		}
		$lines{$p} = $line;
	}
	return %lines;
}

# differences(GOT, WANT, ALT): the lines of WANT missing from GOT and
# those of GOT not in WANT; ALT: path => another acceptable line.
sub differences {
	my ($got, $want, $alt) = @_;
	my @d;
	for my $p (sort keys %$want) {
		my $g = $got->{$p};
		next if defined $g && ($g eq $want->{$p} ||
			(defined $alt->{$p} && $g eq $alt->{$p}));
		push @d, "- $want->{$p}";
		push @d, "+ $g" if defined $g;
	}
	for my $p (sort keys %$got) {
		push @d, "+ $got->{$p}" unless exists $want->{$p};
	}
	return @d;
}

sub judge {
	my ($tree, $k, $after) = @_;
	my %got = tree_lines($tree);
	my %extra;
	if ($after) {
		my %f = after_files();
		$extra{'plain/after'} = 'd plain/after';
		$extra{$_} = sprintf("f %s %d %s", $_, length $f{$_},
			sha256_hex($f{$_})) for keys %f;
	}
	my $old = $snapshots[$k];
	my %want_old = (%{$old->{lines}}, %extra);
	# A file overwritten in place in group K+1: old or new contents.
	my %alt;
	if ($k < @plan) {
		my $inplace = $plan[$k]{inplace};
		for my $p (keys %{$old->{ids}}) {
			my $sha = $inplace->{$old->{ids}{$p}} or next;
			($alt{$p} = $want_old{$p}) =~ s/ [0-9a-f]{64}$/ $sha/;
		}
	}
	my @d_old = differences(\%got, \%want_old, \%alt);
	if (!@d_old) {
		print "old\n";
		return 0;
	}
	if ($k < @plan) {
		my %want_new = (%{$snapshots[$k + 1]{lines}}, %extra);
		my @d_new = differences(\%got, \%want_new, {});
		if (!@d_new) {
			print "new\n";
			return 0;
		}
		@d_old = @d_new if @d_new < @d_old;
	}
	my @never = grep { !$ever{$_} && !$extra{$_} } sort keys %got;
	some("names the workload never made", @never);
	print "big.bin differs\n" if ($got{'big.bin'} // '') ne
		$old->{lines}{'big.bin'};
	my $new = $snapshots[$k < @plan ? $k + 1 : $k];
	some("missing although durable",
		grep { !exists $got{$_} && exists $new->{lines}{$_} }
		sort keys %{$old->{lines}});
	some("differs from the state after group $k (or " . ($k + 1) .
		"), - want + got", @d_old);
	return 1;
}

# some(TITLE, LINES): TITLE and the first 20 LINES.
sub some {
	my ($title, @l) = @_;
	return unless @l;
	print "$title:\n";
	print "  $_\n" for @l[0 .. ($#l < 19 ? $#l : 19)];
	print "  (", @l - 20, " more)\n" if @l > 20;
}

my $mode = shift // '';
if ($mode eq 'src') {
	make_src($ARGV[0]);
} elsif ($mode eq 'run') {
	make_plan($ARGV[0]);
	$log = File::Spec->rel2abs($ARGV[2]);
	run_plan($ARGV[1]);
} elsif ($mode eq 'after') {
	run_after($ARGV[0]);
} elsif ($mode eq 'judge') {
	make_plan($ARGV[0]);
	exit judge($ARGV[1], $ARGV[2], $ARGV[3]);
} elsif ($mode eq 'groups') {
	print "$GROUPS\n";
} else {
	die "usage: workload.pl src|run|after|judge|groups ...\n";
}
exit 0;
