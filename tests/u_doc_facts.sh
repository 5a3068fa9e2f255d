#!/bin/sh
# u_doc_facts: every page the sources cite exists, and so does every
# section they quote. Code and tests cite the facts they rely on as
#   doc/kernel-facts.md, "The compat fallback"
# (a path ending in .md, then optionally a comma and a section name in
# double quotes, which must be a heading of that page; a bare README.md
# with a section is checked the same way). A comment may break the
# citation across lines; the comment leaders (" * ", "# ", "// ") are
# dropped before matching. Any other DIR/NAME.md path must name a file of the source
# tree too. The other way round, every source path a page names in
# backquotes (`tests/u_utf8_api.c`) and every relative link exists: the
# pages of doc/, the READMEs of the top, tests/ and bench/ (the map in
# doc/architecture.md among them). A path is one that starts with a
# directory of the top of the tree; patterns (`tests/f_robust_*`) and
# placeholders (`tests/f_casefold_WHAT/`) are not paths, and what the
# build makes counts when a makefile names it. In a README
# table whose first column names one directory (the layout table), a
# file name of another column (`lookup.c`, `ucd/`) is a path inside it.
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
	opendir(my $top, ".") or die "top: $!\n";
	my $tops = join("|", map { quotemeta } grep {
		-d $_ && !/^\./ && !/^build/ && $_ ne "autom4te.cache"
	} readdir($top));
	closedir($top);
	my $placeholder = qr{[*?@\$<>]|(?:^|[/_.-])(?:NAME|SUITE|WHAT|DIR|OUT|FILE|N)(?:[/_.-]|$)};
	# What the build makes (bench/e2fold-bench) is named in a makefile.
	my $makefiles = "";
	for my $mk (glob("Makefile.am */local.mk */*.mk")) {
		open(my $fh, "<", $mk) or next;
		local $/;
		$makefiles .= <$fh>;
	}
	sub missing {
		my ($page, $path) = @_;
		$cited++;
		return if -e $path || index($makefiles, " $path") >= 0;
		print "FAIL: $page names $path, which is not in the source tree\n";
		$bad++;
	}
	for my $page (glob("doc/*.md"), "README.md", "tests/README.md",
		      "bench/README.md") {
		open(my $fh, "<", $page) or die "$page: $!\n";
		local $/;
		my $text = <$fh>;
		close $fh;
		(my $dir = $page) =~ s{[^/]*$}{};
		for my $path ($text =~ m{`((?:$tops)/[^`\s]*)`}g) {
			missing($page, $path) unless $path =~ $placeholder;
		}
		missing($page, "$dir$_") for $text =~ m{\]\(([^):/#]+)\)}g;
		# A table row naming one directory first: file names inside it.
		while ($text =~ m{^\| *`((?:$tops)/[^`\s]*/)` *\|(.*)$}mg) {
			my ($base, $rest) = ($1, $2);
			for my $name ($rest =~ m{`([^`\s/<>]+(?:\.[a-z]+|/)|[\w.-]+/[\w./-]+)`}g) {
				next if $name =~ m{^(?:$tops)/} || $name =~ $placeholder;
				next unless $name =~ m{/$|\.(?:[ch]|md|sh|mk|pl|txt|py)$};
				missing($page, "$base$name");
			}
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
