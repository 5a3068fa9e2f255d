#!/bin/sh
# u_utf8_cli: e2fold-utf8, every command and option, output for output.
#
# Expected outputs are exact. Hash values were computed with the system
# debugfs (e2fsprogs 1.47.0), `dx_hash -s SEED -h ALG NAME`, on the folded
# bytes of each name (HASHALG_4 and HASHALG_5 for the unsigned variants);
# where debugfs is installed they are also recomputed at run time.
# Non-ASCII bytes are written as printf octal escapes.
test_name=u_utf8_cli
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-lib.sh"

seed=d1a5a0e2-3b0c-4f6e-9a71-5c2b8e4f1d37

# run [ARGS...]: the tool on stdin $tmp/in, into $tmp/out, $tmp/err, $status.
run() {
	"$tool" "$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
	status=$?
}

# expect TITLE STATUS WANT_FORMAT ARGS...: stdout must be exactly
# printf WANT_FORMAT, and the exit status STATUS; stdin is empty.
expect() {
	title=$1 want_status=$2
	# shellcheck disable=SC2059
	printf "$3" >"$tmp/want"
	shift 3
	: >"$tmp/in"
	run "$@"
	compare
}

# expect_in TITLE STDIN_FORMAT STATUS WANT_FORMAT ARGS...: the same with
# printf STDIN_FORMAT on stdin.
expect_in() {
	title=$1 want_status=$3
	# shellcheck disable=SC2059
	printf "$2" >"$tmp/in"
	# shellcheck disable=SC2059
	printf "$4" >"$tmp/want"
	shift 4
	run "$@"
	compare
}

strasse=$(printf 'Stra\303\237e')		# Straße
capital_sharp_s=$(printf '\341\272\236')	# U+1E9E
cafe_nfc=$(printf 'caf\303\251')
e_acute_upper=$(printf '\303\211')		# U+00C9
kelvin=$(printf '\342\204\252')		# U+212A
zwj_ab=$(printf 'a\342\200\215b')		# a U+200D b
dotless_i=$(printf '\304\261')			# U+0131
stray=$(printf 'A\200')			# A, stray continuation byte
stray2=$(printf '\303\251\200')		# é, stray continuation byte
bad=$(printf 'a\377')

# --- fold, norm, valid, cmp on arguments -------------------------------
expect "fold folds case, sharp s, ignorables" 0 \
	'readme\nstrasse\nss\nab\nk\n' \
	fold README "$strasse" "$capital_sharp_s" "$zwj_ab" "$kelvin"
stderr_empty
expect "fold writes the folded bytes" 0 \
	'e\314\201\ncafe\314\201\na\200\ne\200\314\201\200\n' \
	fold "$e_acute_upper" "$cafe_nfc" "$stray" "$stray2"
expect "fold says invalid for invalid UTF-8, and still exits 0" 0 \
	'invalid\ninvalid\nx\n' fold "$bad" "$(printf '\200a')" X
expect "norm decomposes but keeps case" 0 \
	'README\ncafe\314\201\nK\nStra\303\237e\nab\n' \
	norm README "$cafe_nfc" "$kelvin" "$strasse" "$zwj_ab"
expect "norm says invalid for invalid UTF-8" 0 'invalid\n' norm "$bad"
# valid and cmp answer with their exit status too, as cmp(1): 0 all
# valid (equal), 1 one invalid (a pair different), 2 trouble (a pair that
# cannot be compared, a usage error).
expect "valid follows strict mode, and exits 1 for an invalid name" 1 \
	'valid\nvalid\ninvalid\ninvalid\ninvalid\nvalid\n' \
	valid abc "$strasse" "$stray" "$stray2" "$bad" ""
expect "cmp compares pairs, and exits 2 when one cannot be compared" 2 \
	'equal\nequal\nequal\ndifferent\ninvalid\nequal\ndifferent\n' \
	cmp README readme "$strasse" STRASSE "$kelvin" k "$dotless_i" I \
	"$bad" "$bad" "$stray" "$(printf 'a\200')" a b

# --- hash ---------------------------------------------------------------
expect "hash: half_md4, default seed, of the folded name" 0 \
	'0xede2a39c 0xa0b0e277\n0xede2a39c 0xa0b0e277\n0xd5fa7d7a 0xacb48187\n0x591de422 0x6ffc56e0\n' \
	hash README readme A LOST+FOUND
expect "hash: every spelling of strasse hashes alike" 0 \
	'0x7e099ecc 0x63e35612\n0x7e099ecc 0x63e35612\n0x7e099ecc 0x63e35612\n' \
	hash "$strasse" STRASSE strasse
expect "hash --seed" 0 \
	'0xba5271d2 0x34a7853d\n0xead8581a 0xd179da4c\n' \
	hash --seed "$seed" README "$strasse"
expect "hash --seed without dashes" 0 '0xba5271d2 0x34a7853d\n' \
	hash --seed d1a5a0e23b0c4f6e9a715c2b8e4f1d37 readme
expect "hash --hash tea" 0 '0x4b1b068e 0x657f07a1\n0x6d0ea4c0 0xc18922df\n' \
	hash --hash tea README A
expect "hash --seed --hash tea" 0 \
	'0xd570417a 0xaee80cee\n0x2facaef0 0x1a558550\n' \
	hash --seed "$seed" --hash tea readme lost+found
expect "hash --hash tea_unsigned equals tea on ASCII" 0 \
	'0xd570417a 0xaee80cee\n' \
	hash --seed "$seed" --hash tea_unsigned README
expect "hash --hash legacy" 0 '0x7e7ca0b2 0x00000000\n0xad2ed8da 0x00000000\n' \
	hash --hash legacy README "$strasse"
for h in HALF_MD4 half_md4_signed 1 HASHALG_1; do
	expect "--hash $h is half_md4, as e2fsprogs spells it" 0 \
		'0x7e099ecc 0x63e35612\n' hash --hash "$h" "$strasse"
done
expect "hash of a folded non-ASCII name" 0 \
	'0x78c49f9e 0xd83401cc\n' hash "$e_acute_upper"
expect "hash --hash half_md4_unsigned of e-acute" 0 \
	'0x3e03c81a 0x07fb2013\n' hash --hash half_md4_unsigned "$e_acute_upper"
expect "hash --seed --hash tea of e-acute" 0 \
	'0x2b2c1b74 0xe828ee50\n' hash --seed "$seed" --hash tea "$e_acute_upper"
expect "hash --seed --hash tea_unsigned of e-acute" 0 \
	'0x53800ffe 0x09758e22\n' \
	hash --seed "$seed" --hash tea_unsigned "$e_acute_upper"
expect "hash of an invalid name: its raw bytes" 0 \
	'0x50eecc38 0x3b5b9525\n' hash "$bad"
expect "hash of an invalid name, unsigned, options after names" 0 \
	'0x5df1e830 0x80a69553\n' hash "$bad" --hash half_md4_unsigned
expect "hash of a stray byte after a letter: folded, not raw" 0 \
	'0x2cc6d8c4 0x1e5347d3\n0x2cc6d8c4 0x1e5347d3\n' \
	hash "$stray" "$(printf 'a\200')"
expect "hash of A\\200 unsigned" 0 '0x9e30f332 0x9ef31591\n' \
	hash --hash half_md4_unsigned "$stray"

# --- --hex ---------------------------------------------------------------
expect "--hex in and out" 0 \
	'61 80\n65 80 cc 81 80\n65 cc 81\n\ninvalid\n' \
	fold --hex '41 80' 'c3a9 80' 'C389' 'e2808b' 'ff'
expect "norm --hex" 0 '65 cc 81\n53 74 72 61 c3 9f 65\n' \
	norm --hex c3a9 '53 74 72 61 c3 9f 65'
expect "valid --hex" 1 'invalid\nvalid\n' valid --hex 4180 'c3 a9'
expect "valid exits 0 when every name is valid" 0 'valid\nvalid\n' valid a 'b c'
expect "cmp --hex" 1 'equal\ndifferent\n' cmp --hex 'c3 9f' 5353 c4b1 49
expect "cmp exits 0 when every pair is equal" 0 'equal\nequal\n' cmp a A Ab aB
expect "hash --hex" 0 '0x78c49f9e 0xd83401cc\n0x50eecc38 0x3b5b9525\n' \
	hash --hex c389 61ff
expect "--hex rejects what is not hex" 1 '' fold --hex zz
stderr_has "not hex"
expect "--hex rejects an odd digit count" 1 '' fold --hex 414
stderr_has "not hex"

# --- stdin ---------------------------------------------------------------
expect_in "stdin: one name a line, empty lines too" \
	'README\nStra\303\237e\n\nA\200\n' 0 'readme\nstrasse\n\na\200\n' fold
expect_in "stdin: a last line without newline" 'X\nY' 0 'x\ny\n' fold
expect_in "stdin --hex" '41\nc3 9f\n\n' 0 '61\n73 73\n\n' fold --hex
expect_in "stdin: valid" 'abc\n\377\n' 1 'valid\ninvalid\n' valid
expect_in "stdin: hash" 'README\nStra\303\237e\n' 0 \
	'0xede2a39c 0xa0b0e277\n0x7e099ecc 0x63e35612\n' hash
expect_in "stdin: cmp takes lines in pairs" \
	'README\nreadme\n\304\261\nI\n\n\342\200\213\n' 1 \
	'equal\ndifferent\nequal\n' cmp
expect_in "stdin: cmp --hex" 'c3 9f\n73 73\n' 0 'equal\n' cmp --hex
expect_in "stdin is not read when names are given" 'zzz\n' 0 'a\n' fold A

# --- cmp with an odd count ----------------------------------------------------
expect "cmp with an odd count of arguments fails after the pairs" 2 \
	'equal\n' cmp a A b
stderr_has "name 3 has no partner"
expect_in "cmp with an odd count of lines" 'a\nA\nb\n' 2 'equal\n' cmp
stderr_has "name 3 has no partner"
expect "cmp with one argument" 2 '' cmp a
stderr_has "name 1 has no partner"

# --- --unicode -------------------------------------------------------------
expect "U+180F is kept under 12.1, the default" 0 'e1 a0 8f\n' \
	fold --hex e1a08f
expect "U+180F is kept under --unicode 12.1.0" 0 'e1 a0 8f\n' \
	fold --unicode 12.1.0 --hex e1a08f
expect "U+180F is ignorable under --unicode 15.0" 0 '\n' \
	fold --unicode 15.0 --hex e1a08f
expect "U+A7CE (17.0) is kept under --unicode 16.0" 0 'ea 9f 8e\n' \
	fold --unicode 16.0 --hex ea9f8e
expect "U+A7CE folds to U+A7CF under --unicode 17.0" 0 'ea 9f 8f\n' \
	fold --unicode 17.0 --hex ea9f8e
expect "U+A7C7/U+A7C8: different under 12.1, equal under 13.0" 1 \
	'different\n' cmp --hex ea9f87 ea9f88
expect "U+A7C7/U+A7C8 under --unicode 13.0" 0 'equal\n' \
	cmp --unicode 13.0 --hex ea9f87 ea9f88
expect "Hangul syllable decomposed under 12.1" 0 \
	'e1 84 92 e1 85 a1 e1 86 ab\n' norm --hex ed959c
expect "Hangul syllable kept under --unicode 1.1" 0 'ed 95 9c\n' \
	norm --unicode 1.1 --hex ed959c
expect "U+F951 under --unicode 3.1 (NormalizationCorrections)" 0 \
	'e9 9b bb\n' norm --unicode 3.1 --hex efa591
expect "U+F951 under --unicode 3.2" 0 'e9 99 8b\n' \
	norm --unicode 3.2 --hex efa591
for v in 99 12.2 12.1.1 "" 12 abc 256.0; do
	expect "--unicode '$v' is refused" 1 '' fold --unicode "$v" a
	stderr_has "--unicode $v: not a supported Unicode version"
done

# --- usage errors ------------------------------------------------------------
expect "no command" 1 ''
stderr_has "Try 'e2fold-utf8 --help'"
expect "unknown command" 1 '' bogus a
stderr_has "unknown command 'bogus'"
expect "unknown option" 1 '' fold --frobnicate a
stderr_has "Try 'e2fold-utf8 --help'"
stderr_lines=$(wc -l < "$tmp/err")
[ "$stderr_lines" -le 2 ] || fail "a usage error prints $stderr_lines lines, not a short message"
for s in xyz 0123 d1a5a0e2-3b0c-4f6e-9a71-5c2b8e4f1d3 \
	d1a5a0e2-3b0c-4f6e-9a71-5c2b8e4f1d3700 g1a5a0e2-3b0c-4f6e-9a71-5c2b8e4f1d37; do
	expect "--seed '$s' is refused" 1 '' hash --seed "$s" a
	stderr_has "--seed $s: not a UUID"
done
for h in md5 half_md4_x legacy_unsigned_signed 7 HASHALG_ ""; do
	expect "--hash '$h' is refused" 1 '' hash --hash "$h" a
	stderr_has "--hash $h: unknown algorithm"
done
for h in siphash SipHash 6; do
	expect "--hash '$h' is refused: it needs the key" 1 '' hash --hash "$h" a
	stderr_has "--hash $h: SipHash is keyed"
done
expect "--unicode needs an argument" 1 '' fold --unicode

# --- version and help ----------------------------------------------------------
for opt in -V --version "fold -V"; do
	title="$opt prints the version"
	: >"$tmp/in"
	# shellcheck disable=SC2086
	run $opt
	checks=$((checks + 1))
	if [ "$status" -ne 0 ] || [ "$(wc -l <"$tmp/out")" -ne 1 ] ||
	   ! grep -Eq '^e2fold-utf8 [0-9][^ ]* \(libext2fs [0-9][^,]*, Unicode 17\.0\.0; filesystem encoding utf8-12\.1, Unicode 12\.1\.0\)$' \
		"$tmp/out"; then
		fail "status $status, output: $(cat "$tmp/out")"
	fi
done
: >"$tmp/in"
run --help
title="--help"
checks=$((checks + 1))
if [ "$status" -ne 0 ] || ! grep -q '^usage: e2fold-utf8 COMMAND' "$tmp/out"; then
	fail "status $status, stdout: $(head -1 "$tmp/out")"
fi

# --- the hashes again, from the system debugfs ------------------------------------
debugfs=$(command -v debugfs)
for d in /sbin/debugfs /usr/sbin/debugfs; do
	[ -z "$debugfs" ] && [ -x "$d" ] && debugfs=$d
done
if [ -n "$debugfs" ]; then
	# debugfs hashes the bytes it is given: give it the folded name.
	while read -r alg ours name folded_fmt; do
		# shellcheck disable=SC2059
		folded=$(printf "$folded_fmt")
		theirs=$("$debugfs" -R "dx_hash -s $seed -h $alg $folded" 2>/dev/null |
			sed -n 's/.* is \(0x[0-9a-f]*\) (minor \(0x[0-9a-f]*\))$/\1 \2/p')
		: >"$tmp/in"
		run hash --seed "$seed" --hash "$ours" --hex "$name"
		# shellcheck disable=SC2086
		set -- $theirs
		title="debugfs dx_hash -h $alg of $name"
		checks=$((checks + 1))
		if [ $# -ne 2 ]; then
			fail "cannot read debugfs output"
		elif [ "$(printf '0x%08x 0x%08x' "$1" "$2")" != "$(cat "$tmp/out")" ]; then
			fail "e2fold-utf8 $(cat "$tmp/out"), debugfs $theirs"
		fi
	done <<EOF
half_md4 half_md4 c38953 \\145\\314\\201s
HASHALG_4 half_md4_unsigned c38953 \\145\\314\\201s
tea tea 4b41e284aa kak
HASHALG_5 tea_unsigned ed959c \\341\\204\\222\\341\\205\\241\\341\\206\\253
half_md4 half_md4 61ff a\\377
HASHALG_4 half_md4_unsigned 61ff a\\377
legacy legacy 52454144 read
EOF
else
	echo "note: no debugfs, hashes checked against stored values only"
fi

finish_checks
