#!/bin/sh
# u_completion: bash-completion/e2fold offers, for each tool, what its
# option parser accepts. Each command line is completed as bash would
# (COMP_LINE, COMP_POINT, COMP_WORDS split at bash's COMP_WORDBREAKS,
# COMP_CWORD) and the candidates are compared with lists read from the
# sources themselves: the options of each getopt_long call, the -E keys
# and values, encoding flags, hash names and e2fold-debugfs's commands.
# A tool that gains an option or a command the completion does not know
# fails here.
[ -n "${BASH_VERSION:-}" ] || {
	command -v bash >/dev/null || { echo "ERROR: no bash" >&2; exit 99; }
	exec bash "$0" "$@"
}
set -u
src=${top_srcdir:-.}
completion=$src/bash-completion/e2fold
[ -r "$completion" ] || { echo "ERROR: no $completion" >&2; exit 99; }
# shellcheck source=/dev/null
. "$completion" || { echo "FAIL: sourcing $completion"; exit 1; }
COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
status=0 checks=0
fail() { echo "FAIL: $*"; status=1; }

# complete LINE: COMPREPLY for LINE with the cursor at its end, from the
# function registered for its first word.
complete_line() {
	local line=$1 fn
	COMP_LINE=$line
	COMP_POINT=${#line}
	# bash's words: blanks separate, and each run of '=' or ':' is a
	# word of its own.
	COMP_WORDS=()
	local rest=$line w
	while [[ -n $rest ]]; do
		rest=${rest#"${rest%%[![:space:]]*}"}
		[[ -n $rest ]] || break
		if [[ $rest == [=:]* ]]; then
			w=${rest%%[!=:]*}
		else
			w=${rest%%[[:space:]=:]*}
		fi
		COMP_WORDS+=("$w")
		rest=${rest:${#w}}
	done
	# A blank at the end starts a new, empty word.
	[[ $line == *[[:space:]] || ${#COMP_WORDS[@]} -eq 0 ]] && COMP_WORDS+=('')
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	fn=$(complete -p "${COMP_WORDS[0]}" 2>/dev/null |
		sed -n 's/.*-F \([^ ]*\) .*/\1/p')
	COMPREPLY=()
	if [[ -z $fn ]]; then
		fail "no completion registered for ${COMP_WORDS[0]}"
		return
	fi
	"$fn"
}

# offers LINE WORD...: completing LINE offers every WORD.
offers() {
	local line=$1 w c found
	shift
	complete_line "$line"
	for w in "$@"; do
		checks=$((checks + 1))
		found=0
		for c in "${COMPREPLY[@]}"; do
			[[ $c == "$w" ]] && found=1
		done
		((found)) || fail "'$line' does not offer '$w'" \
			"(offers: ${COMPREPLY[*]:-nothing})"
	done
}

# offers_only LINE WORD...: completing LINE offers exactly the WORDs.
offers_only() {
	local line=$1 got want
	shift
	complete_line "$line"
	checks=$((checks + 1))
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort -u)
	want=$(printf '%s\n' "$@" | sort -u)
	[[ $got == "$want" ]] || fail "'$line' offers '${COMPREPLY[*]}'," \
		"expected exactly '$*'"
}

# The options of FILE's getopt_long call: its letters and its long names.
source_options() {
	local letters
	letters=$(sed -n 's/.*getopt_long(argc, argv, "\([^"]*\)".*/\1/p' "$1" |
		tr -d ':')
	[[ -n $letters ]] || { echo "ERROR: no getopt_long in $1" >&2; exit 99; }
	local i
	for ((i = 0; i < ${#letters}; i++)); do
		echo "-${letters:i:1}"
	done
	# Old spellings still parse but are not offered.
	grep -v 'old spelling' "$1" |
		sed -n 's/^[[:space:]]*{ "\([a-z0-9-]*\)", [a-z]*_argument,.*/--\1/p'
}

# Every tool has a completion, and each offers all its parser's options.
for tool in mkfs:misc/mkfs/options.c fsck:e2fsck/unix.c \
	debugfs:debugfs/debugfs.c tune:misc/tune/options.c; do
	name=e2fold-${tool%%:*}
	# shellcheck disable=SC2046
	offers "$name -" $(source_options "$src/${tool#*:}")
done

# -E keys and values.
# shellcheck disable=SC2046
offers "e2fold-fsck -E " $(sed -n \
	's/.*!strcmp(tok, "\([a-z_]*\)")) {$/\1/p' "$src/e2fsck/unix.c")
# e2fsck's own keys, which e2fold-fsck hands over.
# shellcheck disable=SC2046
offers "e2fold-fsck -E " $(sed -n '/^static const char \*const e2fsck_keys/,/};/p' \
	"$src/e2fsck/unix.c" | grep -o '"[a-z_]*"' | tr -d '"' |
	sed -e 's/^\(ea_ver\|readahead_kb\|log_filename\)$/\1=/')
offers "e2fold-fsck -E " verify check_encoding
offers "e2fold-fsck -E verify,ch" verify,check_encoding
# shellcheck disable=SC2046
offers "e2fold-mkfs -E " $(sed -n \
	-e 's/^[[:space:]]*{ "\([a-z_]*\)", ARG_NONE, .*/\1/p' \
	-e 's/^[[:space:]]*{ "\([a-z_]*\)", ARG_REQUIRED, .*/\1=/p' \
	-e 's/^[[:space:]]*{ "\([a-z_]*\)", ARG_OPTIONAL, .*/\1=/p' \
	"$src/misc/mkfs/options.c")
flags=$(sed -n 's/^[[:space:]]*{ E2FOLD_ENC_[A-Z_]*, "\([a-z_]*\)" },$/\1/p' \
	"$src/lib/support/encoding.c")
[[ -n $flags ]] || { echo "ERROR: no encoding flags in encoding.c" >&2; exit 99; }
# shellcheck disable=SC2086
offers_only "e2fold-mkfs -E encoding_flags=" $flags none
offers "e2fold-mkfs -E encoding_flags=" strict no_compat_fallback
offers_only "e2fold-mkfs -E encoding_flags=strict-no" strict-no_compat_fallback
offers_only "e2fold-mkfs -E encoding=" utf8 utf8-12.1
offers_only "e2fold-mkfs -E casefold_dirs=all,collisions=" stop rename
offers_only "e2fold-mkfs -E casefold_dirs=" all
offers_only "e2fold-mkfs -E lazy_itable_init=" 0 1
offers "e2fold-mkfs -O ^cas" ^casefold
offers "e2fold-mkfs -O casefold,meta" casefold,metadata_csum \
	casefold,metadata_csum_seed
offers_only "e2fold-mkfs -t " ext4 ext3 ext2
# e2fold-tune: the same words as e2fold-mkfs where it has them.
offers_only "e2fold-tune -E " encoding= encoding_flags= collisions=
offers_only "e2fold-tune -E encoding_flags=" strict no_compat_fallback none
offers_only "e2fold-tune -E encoding_flags=strict-n" strict-no_compat_fallback
offers_only "e2fold-tune -E collisions=" stop rename
offers_only "e2fold-tune -O " casefold ^casefold
# e2fold-fuse: every -o option its parser takes, kernel= values, and a
# directory (not a file) for the mount point.
# shellcheck disable=SC2046
offers "e2fold-fuse -o " $(sed -n 's/^[[:space:]]*FUSE_OPT_KEY("\([a-z_]*=\{0,1\}\)", KEY_[A-Z]*),$/\1/p' \
	"$src/fuse/options.c")
offers "e2fold-fuse -o " ro fakeroot uid= gid= kernel=
offers_only "e2fold-fuse -o ro,kernel=" 6.1 6.12 new
offers "e2fold-fuse -" -o -f -d --help --version

# e2fold-debugfs -R: every name of every request in the command table.
# shellcheck disable=SC2046
offers "e2fold-debugfs -R " $(sed -n '/^request/,/;$/p' \
	"$src/debugfs/e2fold_cmds.ct" | grep -v '^request' | tr -s ',;[:space:]' '\n')
offers_only "e2fold-debugfs -R ht" htree_dump htree
offers_only "e2fold-debugfs -R set_enc" set_encoding_flags

# e2fold-utf8: its commands, hash names and Unicode versions.
# shellcheck disable=SC2046
offers "e2fold-utf8 " $(sed -n 's/.*{ "\([a-z]*\)", CMD_[A-Z]* }.*/\1/p' \
	"$src/misc/e2fold-utf8.c" | tr ' ' '\n') --help --version
# shellcheck disable=SC2046
offers_only "e2fold-utf8 hash --hash " $(sed -n \
	's/^[[:space:]]*\[EXT2_HASH_[A-Z_0-9]*\] = "\([a-z_0-9]*\)",$/\1/p' \
	"$src/lib/support/hashalg.c")
ucd=$(cut -d. -f1,2 "$src/util/ucd/VERSION")
offers "e2fold-utf8 fold --unicode " 12.1 "$ucd"
offers_only "e2fold-utf8 scan --j" --json
offers "e2fold-utf8 scan --" --unicode --strict --json --hex --progress
offers "e2fold-utf8 fold --" --unicode --hex --seed --hash

# Device arguments: image files, and block devices but not other nodes.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/u_completion.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/disk.img"
cd "$tmp" || exit 99
offers_only "e2fold-fsck -fn dis" disk.img
offers_only "e2fold-mkfs -O casefold d" disk.img
offers_only "e2fold-tune -n di" disk.img
offers_only "e2fold-debugfs -w di" disk.img
offers_only "e2fold-mkfs -d di" disk.img
mkdir "$tmp/dir"
offers "e2fold-fuse -o ro di" disk.img
offers_only "e2fold-fuse -o ro disk.img di" dir
block=$(for d in /dev/*; do [ -b "$d" ] && echo "$d"; done | head -n 1)
if [[ -n $block ]]; then
	offers "e2fold-fsck -fn /dev/" "$block"
else
	echo "note: no block device under /dev; only /dev/null is checked"
fi
complete_line "e2fold-fsck -fn /dev/nu"
checks=$((checks + 1))
[[ ${#COMPREPLY[@]} -eq 0 ]] ||
	fail "'e2fold-fsck /dev/nu' offers ${COMPREPLY[*]}, not a block device"

[[ $status -eq 0 ]] && echo "PASS: $checks completion checks"
exit $status
