#!/bin/sh
# u_doc_facts: every page the sources cite exists, and so does every
# section they quote. Code and tests cite the facts they rely on as
#   doc/kernel-facts.md, "The compat fallback"
# (a path ending in .md, then optionally a comma and a section name in
# double quotes, which must be a heading of that page; a bare README.md
# with a section is checked the same way). A comment may break the
# citation across lines; the comment leaders (" * ", "# ", "// ") are
# dropped before matching. Any other DIR/NAME.md path must name a file of the source
# tree too. The other way round, every source path a doc/ page names in
# backquotes (`tests/u_utf8_api.c`) and every relative link exists.
set -u
top=${top_srcdir:-.}
cd "$top" || exit 99
for d in doc lib tests; do
	[ -d "$d" ] || { echo "ERROR: no $d/ in $top" >&2; exit 99; }
done

find lib e2fsck debugfs fuse misc tests fuzz bench util scripts README.md \
	-type f ! -name '*.gz' ! -name '*.xz' ! -name 'utf8data.h' \
	! -path 'tests/data/*' -print | LC_ALL=C sort |
perl -e '
	use strict;
	use warnings;
	my ($bad, $cited, $sections) = (0, 0, 0);
	my %headings;
	sub headings {
		my ($page) = @_;
		return $headings{$page} if $headings{$page};
		my %h;
		open(my $fh, "<", $page) or return $headings{$page} = {};
		local $/ = "\n";
		while (<$fh>) {
			next unless /^#{1,6}\s+(.*?)\s*$/;
			(my $t = $1) =~ s/\s+/ /g;
			$h{$t} = 1;
		}
		return $headings{$page} = \%h;
	}
	while (my $file = <STDIN>) {
		chomp $file;
		next unless -T $file;
		open(my $fh, "<", $file) or die "$file: $!\n";
		local $/;
		my $text = <$fh>;
		close $fh;
		# One line per citation, whatever the comment style.
		$text =~ s{[ \t]*\n[ \t]*(?:\*(?!/)|#+|//)?[ \t]*}{ }g;
		while ($text =~ m{(?<![\w/.-])((?:[\w-]+/)*[\w.-]+\.md)\b(,\s*"([^"]+)")?}g) {
			my ($page, $section) = ($1, $3);
			# A bare NAME.md is data (a file name in an image)
			# unless a section follows it.
			my $dirs = "doc|lib|e2fsck|debugfs|fuse|misc|tests|fuzz|bench|util|scripts";
			next unless $page =~ m{/} ? $page =~ m{^($dirs)/} :
			    defined $section;
			$cited++;
			if (! -f $page) {
				print "FAIL: $file cites $page, which is not in the source tree\n";
				$bad++;
				next;
			}
			next unless defined $section;
			$sections++;
			(my $want = $section) =~ s/\s+/ /g;
			next if headings($page)->{$want};
			print "FAIL: $file cites \"$want\" of $page, which has no such section\n";
			$bad++;
		}
	}
	# The pages in turn: every source path they name in backquotes,
	# and every relative link, exists.
	for my $page (glob("doc/*.md")) {
		open(my $fh, "<", $page) or die "$page: $!\n";
		local $/;
		my $text = <$fh>;
		close $fh;
		my $dirs = "doc|lib|e2fsck|debugfs|fuse|misc|tests|fuzz|bench|util|scripts";
		my @paths = $text =~ m{`((?:$dirs)/[^`\s]*)`}g;
		push @paths, map { "doc/$_" } $text =~ m{\]\(([^):/#]+)\)}g;
		for my $path (@paths) {
			$cited++;
			next if -e $path;
			print "FAIL: $page names $path, which is not in the source tree\n";
			$bad++;
		}
	}
	if (!$sections) {
		print "FAIL: no section citation found: is the pattern broken?\n";
		$bad++;
	}
	print $bad ? "$bad broken" : "PASS",
	    ": $cited citations of pages, $sections of sections\n";
	exit($bad ? 1 : 0);
'
