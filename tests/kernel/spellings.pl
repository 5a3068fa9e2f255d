#!/usr/bin/perl
# spellings.pl: other spellings of file names, for kernel lookup tests.
#
#   perl spellings.pl < NAMES.hex > SPELLINGS
#
# NAMES.hex has one name a line, in hex. Each name gives the line
# "HEX HEX exact", then one line "ALTHEX HEX KIND" for each other spelling
# that differs from it in its bytes and fits in 255 bytes:
#   case     every character that has another case in it (Perl's own
#            Unicode lc/uc: "Straße" gives "sTRASSE")
#   norm     the NFC form, or the NFD form if the name is already NFC
#   both     the case spelling in the other normalization form: other
#            case and other normalization in one lookup
#   ign      the name without its Default_Ignorable code points
#   rawcase  only for a name that is not UTF-8: its ASCII letters in the
#            other case (a default filesystem compares such a name byte for
#            byte, so this spelling must NOT find it)
# A spelling equal in its bytes to the name or to an earlier spelling is
# left out. Every spelling but rawcase is meant to equal its name after
# casefolding under Unicode 12.1; Perl's Unicode is newer, so the test
# checks each pair with e2fold-utf8 cmp rather than trusting this script.
use strict;
use warnings;
use Encode qw(decode);
use Unicode::Normalize qw(NFC NFD);

sub hex_of { return unpack('H*', $_[0]); }

sub encoded {
	my ($s) = @_;
	utf8::encode($s);
	return $s;
}

# The NFC form, or the NFD form if the string is already NFC.
sub other_form {
	my ($s) = @_;
	return NFC($s) ne $s ? NFC($s) : NFD($s);
}

sub swap_case {
	my ($s) = @_;
	return join('', map { my $l = lc($_); $l ne $_ ? $l : uc($_) } split(//, $s));
}

while (my $hex = <STDIN>) {
	chomp($hex);
	next if $hex eq '';
	my $raw = pack('H*', $hex);
	print "$hex $hex exact\n";
	# Strict UTF-8: no surrogates, nothing above U+10FFFF.
	my $s = eval { decode('UTF-8', $raw, Encode::FB_CROAK | Encode::LEAVE_SRC) };
	if (!defined($s)) {
		(my $flipped = $raw) =~ tr/a-zA-Z/A-Za-z/;
		print hex_of($flipped), " $hex rawcase\n" if $flipped ne $raw;
		next;
	}
	my %alt = (case => swap_case($s), norm => other_form($s));
	$alt{both} = other_form($alt{case});
	(my $stripped = $s) =~ s/\p{Default_Ignorable_Code_Point}//g;
	$alt{ign} = $stripped if $stripped ne '';
	my %seen = ($raw => 1);
	for my $kind (qw(case norm both ign)) {
		next if !defined($alt{$kind});
		my $bytes = encoded($alt{$kind});
		next if $seen{$bytes}++ || length($bytes) > 255;
		print hex_of($bytes), " $hex $kind\n";
	}
}
