# What the benchmark scripts share; sourced, never run. Each script
# defines its own usage() before sourcing this.

die() {
	echo "$0: $*" >&2
	exit 1
}

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
