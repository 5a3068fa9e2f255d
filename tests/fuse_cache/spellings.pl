# spellings.pl CF PLAIN: in the casefolded directory CF, an entry that the
# kernel holds in two spellings goes or changes through a third; right
# after the call returns, in the same process, the two are asked again.
# Prints "ok CASE" for each case done, "FAIL: ..." for each wrong answer.
use strict;
use warnings;
require "syscall.ph";

my ($cf, $plain) = @ARGV;

sub held { for (@_) { my @st = stat("$cf/$_") or print "FAIL: $cf/$_ missing before\n" } }
sub gone {
	my $case = shift;
	for (@_) { print "FAIL: $case: $_ still found\n" if -e "$cf/$_" }
}
sub reads {
	my ($case, $want, @names) = @_;
	for (@names) {
		my $f;
		my $got = open($f, '<', "$cf/$_") ? (<$f> // '') : "($!)";
		chomp $got;
		print "FAIL: $case: $_ reads '$got', not '$want'\n" if $got ne $want;
	}
}

held(qw(foo FOO));
unlink("$cf/Foo") or print "FAIL: unlink Foo: $!\n";
gone("unlink", qw(foo FOO));
print "ok unlink\n";

held(qw(bar BAR));
rename("$cf/x", "$cf/Bar") or print "FAIL: rename x Bar: $!\n";
reads("rename over", "x", qw(bar BAR));
print "ok rename-over\n";

held(qw(baz BAZ));
rename("$cf/bAz", "$plain/moved") or print "FAIL: rename bAz: $!\n";
gone("rename away", qw(baz BAZ));
print "ok rename-away\n";

held(qw(qa QA qb));
syscall(&SYS_renameat2(), -100, "$cf/Qa", -100, "$cf/qB", 2) == 0 or
	print "FAIL: exchange Qa qB: $!\n";
reads("exchange", "qb", qw(qa QA));
reads("exchange", "qa", qw(qb));
print "ok exchange\n";

held(qw(sub SUB));
rmdir("$cf/Sub") or print "FAIL: rmdir Sub: $!\n";
gone("rmdir", qw(sub SUB));
print "ok rmdir\n";

held(qw(a1 a2 A2));
unlink("$cf/a2") or print "FAIL: unlink a2: $!\n";
reads("second link", "a1", qw(a1 A1));
gone("second link", qw(a2 A2));
print "ok second-link\n";
