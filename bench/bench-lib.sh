# What the benchmark scripts share; sourced, never run. Each script
# defines its own usage() before sourcing this.

die() {
	echo "$0: $*" >&2
	exit 1
}

# An awk function for the tables: group(X), X with commas between
# thousands. awk "$awk_group"'PROGRAM'.
awk_group='
	function group(x,   s, out) {
		s = sprintf("%d", x)
		for (out = ""; length(s) > 3; s = substr(s, 1, length(s) - 3))
			out = "," substr(s, length(s) - 2) out
		return s out
	}'

# numbers VALUE...: each a whole number, or the script's usage.
numbers() {
	for n in "$@"; do
		case $n in
		''|*[!0-9]*) echo "$0: $n: not a number" >&2; usage ;;
		esac
	done
}

# An absolute path to an executable: a path as given, or a bare name as
# the shell or /sbin finds it; nothing if there is none.
absolute() {
	case $1 in
	*/*) [ -x "$1" ] && echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;;
	*) command -v "$1" || { [ -x "/sbin/$1" ] && echo "/sbin/$1"; } ;;
	esac
}

# hexnames PRINTF-PATTERN COUNT: names made from the pattern, in hex.
hexnames() {
	perl -e 'my ($p, $n) = @ARGV;
		printf("%s\n", unpack("H*", sprintf($p, $_))) for 0 .. $n - 1;' "$@"
}

# make_lists SIZE COUNT: the names to time, in $work/SIZE.{absent,
# present,create} ($work/mktar, bench/mktar.c, made the tree): COUNT
# absent and new names, and COUNT present ones spread evenly over the
# directory in a shuffled order, so that consecutive lookups do not share
# a leaf.
make_lists() {
	hexnames 'Missing_%07d.JPG' "$2" > "$work/$1.absent"
	hexnames 'New file %07d.txt' "$2" > "$work/$1.create"
	"$work/mktar" -l "$1" 0 0 | tail -n +2 | cut -c5- | awk -v n="$2" -v size="$1" '
		BEGIN { step = int(size / n); if (step < 1) step = 1 }
		(NR - 1) % step == 0 && picked < n { print; picked++ }' |
		perl -e 'srand(1); my @n = <STDIN>;
			for (my $i = @n - 1; $i > 0; $i--) {
				my $j = int(rand($i + 1)); @n[$i, $j] = @n[$j, $i];
			}
			chomp(@n); print unpack("H*", $_), "\n" for @n;' > "$work/$1.present"
}
