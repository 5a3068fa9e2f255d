#!/usr/bin/perl
# genops.pl: a random but reproducible list of file operations for fsops
# (tests/fuse/fsops.c), meant to be run on two filesystems whose results
# are then compared.
#
#   perl genops.pl SEED COUNT [BIG]
#
# The same SEED and COUNT give the same list (Perl's rand is its own
# drand48 since 5.20, the same on every platform). The list begins with
# a casefolded directory "cf" and a plain one "plain", then COUNT
# operations, then a listing of every directory it made, so that the
# final names as stored are compared too. BIG (default 0) names are
# first created in cf/big, so that it becomes an indexed directory of
# several leaves.
#
# Names come from many scripts, with the letters that make casefolding
# hard (Turkish dotted and dotless i, German sharp s and its capital,
# final sigma, Cherokee, Deseret and Georgian case pairs, fullwidth
# letters), combining marks beside precomposed forms, Hangul syllables
# and their jamo, default ignorables (U+200D, U+FE0F, U+00AD) and bytes
# that are not UTF-8. Most operations name an entry made before, often
# in another spelling: another case, the other normalization form, with
# an ignorable added or dropped. Files and whole directories are
# renamed, respelled or moved between directories with and without the
# flag. Which spelling is equal to which is for the filesystems to say;
# this script only makes them meet.
use strict;
use warnings;
use Encode qw(decode);
use Unicode::Normalize qw(NFC NFD);

my ($seed, $count, $big) = @ARGV;
die "usage: genops.pl SEED COUNT [BIG]\n" unless defined($count) &&
	$seed =~ /^\d+$/ && $count =~ /^\d+$/;
$big //= 0;
srand($seed);

# Pieces of names, as code points: each a string of one script.
my @pieces = (
	'readme', 'Makefile', 'x', 'Data', 'file', 'ABC', 'Zz',
	"\x{e9}t\x{e9}", "e\x{301}te\x{301}", "Cr\x{e8}me", "na\x{ef}ve",
	"\x{c5}ngstr\x{f6}m", "A\x{30a}", "\x{212b}",
	"\x{3a3}\x{3bf}\x{3c6}\x{3af}\x{3b1}", "\x{3c3}\x{3bf}\x{3c6}\x{3b9}\x{3c2}",
	"\x{390}", "\x{3b9}\x{308}\x{301}",
	"\x{416}\x{443}\x{440}\x{43d}\x{430}\x{43b}", "\x{401}\x{436}",
	"\x{130}stanbul", "\x{131}s\x{131}k", "I\x{131}i\x{130}",
	"Stra\x{df}e", "STRASSE", "\x{1e9e}", "\x{df}\x{df}",
	"\x{13a0}\x{13a1}\x{13a2}", "\x{ab70}\x{ab71}\x{ab72}", "\x{13f8}",
	"\x{10400}\x{10401}", "\x{10428}\x{10429}",
	"\x{10d0}\x{10d1}\x{10d2}", "\x{1c90}\x{1c91}", "\x{10a0}\x{10a1}",
	"\x{d55c}\x{ad6d}\x{c5b4}", "\x{1112}\x{1161}\x{11ab}",
	"\x{ff21}\x{ff22}\x{ff43}", "\x{fb03}", "\x{1f600}",
	"\x{65e5}\x{672c}", "\x{5d0}\x{5d1}", "\x{627}\x{644}",
	"\x{1e9b}\x{323}", "\x{212a}elvin", "\x{2126}",
);
my @ignorables = ("\x{200d}", "\x{fe0f}", "\x{ad}", "\x{200b}");
# Bytes that are not UTF-8: a lone continuation, a cut sequence, an
# encoded surrogate, an overlong slash, a byte never valid.
my @invalid = ("\x80", "\xc3", "\xed\xa0\x80", "\xc0\xaf", "\xff", "\xfe");

my (%dirs, @dirs, %files, @files);
my %casefolded;

sub pick { return $_[int(rand(@_))]; }

sub encoded {
	my ($s) = @_;
	utf8::encode($s);
	return $s;
}

# A new name, as bytes: one to three pieces, sometimes with an ignorable
# or a few invalid bytes, a number to make it likely new.
sub new_name {
	my $name = '';
	$name .= pick(@pieces) for 1 .. 1 + int(rand(3));
	$name .= pick(@ignorables) if rand() < 0.1;
	$name = encoded($name);
	$name .= pick(@invalid) if rand() < 0.08;
	$name .= int(rand(1000)) if rand() < 0.6;
	$name = substr(encoded(pick(@pieces)) x 200, 0, 254 + int(rand(3)))
		if rand() < 0.01;
	return $name;
}

sub swap_case {
	my ($s) = @_;
	return join('', map { my $l = lc($_); $l ne $_ ? $l : uc($_) } split(//, $s));
}

# Another spelling of name (bytes): mostly one meant to be equal to it
# after casefolding, sometimes the same bytes.
sub variant {
	my ($name) = @_;
	# Strict UTF-8: no surrogates, nothing above U+10FFFF.
	my $s = eval { decode('UTF-8', $name, Encode::FB_CROAK | Encode::LEAVE_SRC) };
	if (!defined($s)) {
		(my $flipped = $name) =~ tr/a-zA-Z/A-Za-z/;
		return rand() < 0.5 ? $flipped : $name;
	}
	my $r = rand();
	if ($r < 0.2) {
		$s = uc($s);
	} elsif ($r < 0.4) {
		$s = lc($s);
	} elsif ($r < 0.55) {
		$s = swap_case($s);
	} elsif ($r < 0.7) {
		$s = NFC($s) eq $s ? NFD($s) : NFC($s);
	} elsif ($r < 0.8) {
		my $at = int(rand(length($s) + 1));
		substr($s, $at, 0) = pick(@ignorables);
	} elsif ($r < 0.85) {
		$s =~ s/\p{Default_Ignorable_Code_Point}//g;
		$s = 'x' if $s eq '';
	}
	return encoded($s);
}

# Escape bytes as fsops reads them.
sub esc {
	my ($s) = @_;
	$s =~ s/([^\x21-\x7e]|\\)/sprintf("\\x%02x", ord($1))/ge;
	return $s;
}

sub path { return join('/', grep { $_ ne '' } @_); }

# Another spelling of a path: its last component, and now and then one
# of its directories, respelled; never the first ("cf", "plain"), which
# lies in the root, a directory without the flag.
sub variant_path {
	my ($first, @rest) = split(m{/}, $_[0]);
	my $last = pop(@rest);
	return $first unless defined($last);
	return join('/', $first, (map { rand() < 0.3 ? variant($_) : $_ } @rest),
		variant($last));
}

# A name longer than ext4's 255 bytes is tried, but not kept: every path
# below it would fail alike.
sub too_long { return grep { length($_) > 255 } split(m{/}, $_[0]); }

sub add_dir {
	my ($path, $cf) = @_;
	return if too_long($path) || $dirs{$path}++;
	push(@dirs, $path);
	$casefolded{$path} = $cf;
}

sub add_file {
	my ($path) = @_;
	return if too_long($path);
	push(@files, $path) unless $files{$path}++;
}

sub emit { print join(' ', $_[0], map { esc($_) } @_[1 .. $#_]), "\n"; }

emit('mkdir', 'cf');
emit('setcf', 'cf', 1);
emit('mkdir', 'plain');
add_dir('cf', 1);
add_dir('plain', 0);
if ($big) {
	emit('mkdir', 'cf/big');
	add_dir('cf/big', 1);
	for my $i (1 .. $big) {
		my $name = new_name() . "-$i";
		emit('create', "cf/big/$name");
		add_file("cf/big/$name");
	}
	emit('stat', 'cf/big');
}

sub a_dir { return pick(@dirs); }
sub a_file { return @files ? pick(@files) : 'cf/none'; }

# The weights of the operations, and how each picks its arguments.
my @menu = (
	[20, sub {
		my $p = path(a_dir(), new_name());
		emit('create', $p);
		add_file($p);
	}],
	[6, sub {
		my $parent = a_dir();
		my $p = path($parent, new_name());
		# Deep trees: few levels in most places, a dozen at most.
		return if ($p =~ tr{/}{}) > 12;
		emit('mkdir', $p);
		add_dir($p, $casefolded{$parent});
	}],
	[10, sub {
		my $f = a_file();
		(my $dir = $f) =~ s{/[^/]*$}{};
		my $leaf = substr($f, length($dir) + 1);
		emit('open_excl', path($dir, variant($leaf)));
	}],
	[14, sub { emit('stat', variant_path(rand() < 0.8 ? a_file() : a_dir())); }],
	[6, sub { my $f = a_file(); emit('same', $f, variant_path($f)); }],
	[5, sub { emit('unlink', variant_path(a_file())); }],
	[3, sub { emit('rmdir', variant_path(a_dir())); }],
	[7, sub {
		my $f = a_file();
		(my $dir = $f) =~ s{/[^/]*$}{};
		my $to = rand() < 0.5 ? path($dir, variant(substr($f, length($dir) + 1))) :
			path(a_dir(), new_name());
		emit('rename', $f, $to);
		add_file($to);
	}],
	[2, sub {
		# A directory moved: respelled in place, or into another
		# directory (with the flag or without; into itself now and
		# then, which fails). The model keeps its old paths, which
		# then answer ENOENT alike.
		# Not cf/big: most operations name it, and e2fsck must find
		# it where the tests expect it.
		my $from = a_dir();
		return if $from !~ m{/} || $from eq 'cf/big';
		(my $parent = $from) =~ s{/[^/]*$}{};
		my $to = rand() < 0.5 ? path($parent, variant(substr($from, length($parent) + 1))) :
			path(a_dir(), new_name());
		emit('rename', $from, $to);
		add_dir($to, $casefolded{$from});
	}],
	[3, sub {
		my $to = path(a_dir(), new_name());
		emit('link', variant_path(a_file()), $to);
		add_file($to);
	}],
	[2, sub {
		my $to = path(a_dir(), new_name());
		emit('symlink', new_name(), $to);
		add_file($to);
	}],
	[4, sub {
		my $parent = a_dir();
		my $p = path($parent, new_name());
		my $cf = rand() < 0.7 ? 1 : 0;
		# A new directory, so that the flag can change; then, now
		# and then, the flag on one that is not empty.
		emit('mkdir', $p);
		emit('setcf', $p, $cf);
		add_dir($p, $cf);
		emit('setcf', a_dir(), rand() < 0.5 ? 1 : 0) if rand() < 0.3;
	}],
	[4, sub { emit('write', variant_path(a_file()), 'text-' . int(rand(1e6))); }],
	[4, sub { emit('read', variant_path(a_file())); }],
	[2, sub { emit('listdir', variant_path(a_dir())); }],
);
my $total = 0;
$total += $_->[0] for @menu;

for (1 .. $count) {
	my $r = rand($total);
	for my $m (@menu) {
		if (($r -= $m->[0]) < 0) {
			$m->[1]->();
			last;
		}
	}
}
emit('listdir', $_) for sort(@dirs);
