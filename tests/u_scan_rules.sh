#!/bin/sh
# u_scan_rules: e2fold-utf8 scan groups names exactly as a casefolded ext4
# directory compares them, refuses invalid UTF-8 under --strict, follows
# --unicode, and writes its text, JSON and exit statuses as documented.
#
# Expected outputs are exact. Non-ASCII bytes are printf octal escapes:
# \303\251 e-acute, \314\201 combining acute, \342\200\215 ZERO WIDTH
# JOINER (Default_Ignorable), \303\237 sharp s, \341\272\236 capital sharp
# s, \342\204\252 KELVIN SIGN, \304\261 dotless i, \352\260\200 the Hangul
# syllable GA and \341\204\200\341\205\241 its jamo, \352\237\207 and
# \352\237\210 U+A7C7/U+A7C8 (a case pair assigned in Unicode 13.0, so
# distinct under ext4's 12.1 and equal under 13.0 and later).
#
# JSON is checked by a small validator in awk (mawk is Priority: required
# in Debian, so the check needs nothing beyond a base system), and the
# document is valid UTF-8 by iconv (libc-bin, Essential). Where python3 or
# jq happen to be installed they judge the same documents too, which
# checks the validator.
test_name=u_scan_rules
. "${top_srcdir:-$(dirname "$0")/..}/tests/test-lib.sh"

# scan ARGS...: the tool, run in $tmp, into $tmp/out and $tmp/err.
scan() {
	(cd "$tmp" && exec "$tool" "$@" >out 2>err)
	status=$?
}

# expect TITLE STATUS WANT_FORMAT ARGS...: stdout is exactly printf
# WANT_FORMAT and the exit status is STATUS.
expect() {
	want "$1" "$2" "$3"
	shift 3
	scan "$@"
	compare
}

# want TITLE STATUS WANT_FORMAT: what the next compare expects.
want() {
	title=$1 want_status=$2
	# shellcheck disable=SC2059
	printf "$3" >"$tmp/want"
}

# mk DIR NAME_FORMAT...: empty files named printf NAME_FORMAT in DIR.
mk() {
	dir=$tmp/$1
	shift
	mkdir -p "$dir" || exit 99
	for f; do
		# shellcheck disable=SC2059
		: >"$dir/$(printf "$f")" || exit 99
	done
}

# ------------------------------------------------------------------
# One directory holding every rule.
mk t1 README ReadMe readme 'STRASSE' 'Stra\303\237e' 'stra\341\272\236e' \
	'caf\303\251' 'cafe\314\201' 'a\342\200\215b' ab '\342\204\252' k \
	'\304\261' I '\352\260\200' '\341\204\200\341\205\241' \
	'.\342\200\215' '.\342\200\215.' '\342\200\215..' \
	'X\200' 'x\200' 'x\377y' 'X\377y' link sub \
	'\352\237\207' '\352\237\210'
ln -s README "$tmp/t1/Link" || exit 99
mk t1/Sub Zz zZ plain

# The groups in t1 under any version from 13.0 on; 12.1 lacks the last.
dots='  same as "." after casefolding:\n    .\\xE2\\x80\\x8D\n'
dots=$dots'  same as ".." after casefolding:\n'
dots=$dots'    .\\xE2\\x80\\x8D.\n    \\xE2\\x80\\x8D..\n'
g_link='  same after casefolding:\n    Link\n    link\n'
g_readme='  same after casefolding:\n    README\n    ReadMe\n    readme\n'
g_strasse='  same after casefolding:\n    STRASSE\n    Stra\303\237e\n'
g_strasse=$g_strasse'    stra\341\272\236e\n'
g_sub='  same after casefolding:\n    Sub\n    sub\n'
g_invalid='  same after casefolding:\n    X\\x80\n    x\\x80\n'
g_zwj='  same after casefolding:\n    ab\n    a\\xE2\\x80\\x8Db\n'
# NFC and NFD print alike on a terminal: a group holding both shows every
# name with \u escapes (cfname.h).
g_cafe='  same after casefolding:\n    cafe\\u0301\n    caf\\u00E9\n'
g_kelvin='  same after casefolding:\n    k\n    \342\204\252\n'
# A Hangul syllable and its jamo are canonically equivalent too.
g_hangul='  same after casefolding:\n    \\u1100\\u1161\n    \\uAC00\n'
g_a7c7='  same after casefolding:\n    \352\237\207\n    \352\237\210\n'
sub='t1/Sub:\n  same after casefolding:\n    Zz\n    zZ\n'
refused='  refused by a strict filesystem (not valid UTF-8):\n'
refused=$refused'    X\\x80\n    X\\xFFy\n    x\\x80\n    x\\xFFy\n'
before_invalid="$dots$g_link$g_readme$g_strasse$g_sub"
after_invalid="$g_zwj$g_cafe$g_kelvin$g_hangul"

expect 'case, normalization, ignorables, dots; invalid names by raw bytes' 1 \
	"t1:\n$before_invalid$g_invalid$after_invalid$sub"'scanned 2 directories and 32 names: 12 collision groups (25 names), 0 errors\n' \
	scan t1
expect '--unicode 12.1 is the default' 1 \
	"t1:\n$before_invalid$g_invalid$after_invalid$sub"'scanned 2 directories and 32 names: 12 collision groups (25 names), 0 errors\n' \
	scan --unicode 12.1 t1
expect '--unicode 15.0 merges a case pair assigned after 12.1' 1 \
	"t1:\n$before_invalid$g_invalid$g_zwj$g_cafe$g_kelvin$g_hangul$g_a7c7$sub"'scanned 2 directories and 32 names: 13 collision groups (27 names), 0 errors\n' \
	scan --unicode 15.0 t1
expect '--unicode 13.0, where the pair was assigned' 1 \
	"t1:\n$before_invalid$g_invalid$g_zwj$g_cafe$g_kelvin$g_hangul$g_a7c7$sub"'scanned 2 directories and 32 names: 13 collision groups (27 names), 0 errors\n' \
	scan --unicode 13.0 t1
expect '--strict refuses invalid names and does not group them' 1 \
	"t1:\n$before_invalid$after_invalid$refused$sub"'scanned 2 directories and 32 names: 11 collision groups (23 names), 4 invalid names, 0 errors\n' \
	scan --strict t1

# Paths and names print unambiguously: a byte that is not UTF-8 as \xHH,
# a backslash doubled, so the text \xFF and the byte 0xFF differ.
mk 'k/d\xFF' Mm mM
mk "$(printf 'k/d\377')" 'a\\' 'A\\' 'b\033[1m' 'B\033[1m'
expect 'escaped paths and names' 1 \
	'k/d\\\\xFF:\n  same after casefolding:\n    Mm\n    mM\n''k/d\\xFF:\n  same after casefolding:\n    A\\\\\n    a\\\\\n  same after casefolding:\n    B\\x1B[1m\n    b\\x1B[1m\n''scanned 3 directories and 8 names: 3 collision groups (6 names), 0 errors\n' \
	scan k

# --hex: each name's bytes after it.
mk hx 'caf\303\251' 'cafe\314\201' Ab aB
expect '--hex shows the bytes of every name' 1 \
	'hx:\n  same after casefolding:\n    Ab  (41 62)\n    aB  (61 42)\n  same after casefolding:\n    cafe\\u0301  (63 61 66 65 cc 81)\n    caf\\u00E9  (63 61 66 c3 a9)\n''scanned 1 directory and 4 names: 2 collision groups (4 names), 0 errors\n' \
	scan --hex hx

# ------------------------------------------------------------------
# Exit statuses, operands, usage errors.
mk clean a b 'caf\303\251' '\304\261' I 'x\377y' 'X\377y'
mkdir -p "$tmp/clean/empty"
expect 'nothing collides: exit 0 (invalid names are fine unless strict)' 0 \
	'scanned 2 directories and 8 names: 0 collision groups (0 names), 0 errors\n' \
	scan clean
expect '--strict: the same tree has refused names, exit 1' 1 \
	'clean:\n  refused by a strict filesystem (not valid UTF-8):\n    X\\xFFy\n    x\\xFFy\n''scanned 2 directories and 8 names: 0 collision groups (0 names), 2 invalid names, 0 errors\n' \
	scan --strict clean
mk valid a B 'caf\303\251'
expect '--strict on valid names exits 0' 0 \
	'scanned 1 directory and 3 names: 0 collision groups (0 names), 0 invalid names, 0 errors\n' \
	scan --strict valid
expect 'a missing PATH is an error (2); the other PATHs are scanned' 2 \
	"$sub"'scanned 1 directory and 3 names: 1 collision group (2 names), 1 error\n' \
	scan missing t1/Sub
stderr_is 'e2fold-utf8: missing: No such file or directory\n'
expect 'a PATH that is a file is an error (2)' 2 \
	'scanned 0 directories and 0 names: 0 collision groups (0 names), 1 error\n' \
	scan t1/README
stderr_is 'e2fold-utf8: t1/README: Not a directory\n'
ln -s t1/Sub "$tmp/sublink" || exit 99
expect 'a symbolic link given as PATH is followed' 1 \
	'sublink:\n  same after casefolding:\n    Zz\n    zZ\n''scanned 1 directory and 3 names: 1 collision group (2 names), 0 errors\n' \
	scan sublink

# Usage errors: 2 for scan (1 is its answer), and for cmp and valid
# (cmp(1)'s trouble), 1 for the other commands. The message is short: what
# was wrong (and for a wrong option or operand, a pointer to --help), not
# the whole usage text.
for args in 'scan' 'scan --bogus clean' \
	'scan --seed 0 clean' 'scan --unicode 99 clean' \
	'scan --unicode 12.1 --hash tea clean'; do
	# shellcheck disable=SC2086
	expect "usage error: $args" 2 '' $args
	checks=$((checks + 1))
	[ -s "$tmp/err" ] || fail "no message on stderr"
	[ "$(wc -l < "$tmp/err")" -le 2 ] && ! grep -q '^usage:' "$tmp/err" ||
		fail "not a short message: $(cat "$tmp/err")"
	case $args in
	'scan'|*--bogus*)
		grep -q -- "Try 'e2fold-utf8 --help'" "$tmp/err" ||
			fail "no pointer to --help: $(cat "$tmp/err")" ;;
	esac
done
title='--help lists scan'
scan --help
checks=$((checks + 1))
if ! grep -q '^  scan ' "$tmp/out" || ! grep -q -- '--strict' "$tmp/out" ||
   ! grep -q -- '--json' "$tmp/out"; then
	fail "no scan in --help"
fi
if [ -w /dev/full ]; then
	title='an output that cannot be written is an error (2)'
	(cd "$tmp" && exec "$tool" scan t1 >/dev/full 2>err)
	status=$?
	checks=$((checks + 1))
	[ "$status" -eq 2 ] || fail "exit status $status, want 2"
	stderr_is 'e2fold-utf8: writing output: No space left on device\n'
fi
expect 'usage error: fold --strict' 1 '' fold --strict x
expect 'usage error: valid --json' 2 '' valid --json x
expect 'fold is unchanged' 0 'readme\n' fold README

# ------------------------------------------------------------------
# JSON: exact for a small tree, valid and byte-exact for every report.

# json_check FILE: is FILE one JSON value, in UTF-8?
json_check() {
	checks=$((checks + 1))
	if ! iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; then
		fail "$1 is not UTF-8"
	fi
	if ! awk -f "$tmp/json.awk" "$1" >&2; then
		fail "$1 is not valid JSON (awk)"
	fi
	if command -v python3 >/dev/null 2>&1 &&
	   ! python3 -m json.tool "$1" >/dev/null; then
		fail "$1 is not valid JSON (python3)"
	fi
	if command -v jq >/dev/null 2>&1 && ! jq . "$1" >/dev/null; then
		fail "$1 is not valid JSON (jq)"
	fi
}

# A recursive-descent check of RFC 8259, on bytes.
cat >"$tmp/json.awk" <<'EOF'
function bad(what) {
	printf "json.awk: %s at byte %d\n", what, pos
	failed = 1
	exit 1
}
function ch() { return substr(s, pos, 1) }
function ws() { while (pos <= n && index(" \t\n\r", ch())) pos++ }
function literal(w) {
	if (substr(s, pos, length(w)) != w) bad("unknown word")
	pos += length(w)
}
function str(   c) {
	pos++
	for (;;) {
		if (pos > n) bad("unterminated string")
		c = ch()
		if (c == "\"") { pos++; return }
		if (c ~ /[\001-\037]/) bad("control byte in a string")
		if (c == "\\") {
			c = substr(s, pos + 1, 1)
			if (c == "u") {
				if (substr(s, pos + 2, 4) !~ /^[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]$/)
					bad("bad \\u escape")
				pos += 6
				continue
			}
			if (c == "" || !index("\"\\/bfnrt", c)) bad("bad escape")
			pos++
		}
		pos++
	}
}
function num(   rest) {
	rest = substr(s, pos, 64)
	if (!match(rest, /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/))
		bad("bad number")
	pos += RLENGTH
}
function members(end, is_object,   c) {
	pos++
	ws()
	if (ch() == end) { pos++; return }
	for (;;) {
		ws()
		if (is_object) {
			if (ch() != "\"") bad("a key expected")
			str()
			ws()
			if (ch() != ":") bad("':' expected")
			pos++
		}
		value()
		ws()
		c = ch()
		pos++
		if (c == end) return
		if (c != ",") bad("',' or '" end "' expected")
	}
}
function value(   c) {
	ws()
	c = ch()
	if (c == "{") members("}", 1)
	else if (c == "[") members("]", 0)
	else if (c == "\"") str()
	else if (c ~ /[-0-9]/) num()
	else if (c == "t") literal("true")
	else if (c == "f") literal("false")
	else if (c == "n") literal("null")
	else bad("a value expected")
}
{ s = s $0 "\n" }
END {
	if (failed) exit 1
	n = length(s)
	pos = 1
	value()
	ws()
	if (pos <= n) bad("text after the value")
}
EOF

# The validator can say no.
for doc in '{"a": [1, 2}' '{"a": "b\001"}' '{"a" 1}' '[1, 2] 3' \
	'{"a": "\x"}' '{"a": tru}' '{"a": 01}' '{"a": "b}'; do
	title="json.awk rejects $doc"
	printf '%s\n' "$doc" >"$tmp/bad.json"
	checks=$((checks + 1))
	if awk -f "$tmp/json.awk" "$tmp/bad.json" >/dev/null; then
		fail "accepted"
	fi
done

mk j 'a\377b' 'A\377b' 'Q' 'q' 'x"y' 'X"Y' 'b\\c' 'B\\C'
mk "$(printf 'j/d\377')" Mm mM
want 'JSON: one document; names as text and as hex' 2 \
'{\n  "tool": "e2fold-utf8 scan",\n  "version": "VERSION",\n  "unicode": "12.1.0",\n  "strict": false,\n  "directories": [\n'\
'    {"dir": "missing", "dir_hex": "6d697373696e67", "error": "No such file or directory"},\n'\
'    {"dir": "j", "dir_hex": "6a", "collisions": [{"same_as": null, "names": [{"name": "B\\\\\\\\C", "name_hex": "425c43"}, {"name": "b\\\\\\\\c", "name_hex": "625c63"}]}, {"same_as": null, "names": [{"name": "Q", "name_hex": "51"}, {"name": "q", "name_hex": "71"}]}, {"same_as": null, "names": [{"name": "X\\"Y", "name_hex": "582259"}, {"name": "x\\"y", "name_hex": "782279"}]}], "invalid": []},\n'\
'    {"dir": "j/d\\\\xFF", "dir_hex": "6a2f64ff", "collisions": [{"same_as": null, "names": [{"name": "Mm", "name_hex": "4d6d"}, {"name": "mM", "name_hex": "6d4d"}]}], "invalid": []}\n'\
'  ],\n  "directories_scanned": 2,\n  "names_scanned": 11,\n  "collision_groups": 4,\n  "colliding_names": 8,\n  "invalid_names": 0,\n  "errors": 1,\n  "exit_status": 2\n}\n' \

scan scan --json missing j
json_check "$tmp/out"
sed 's/"version": "[^"]*"/"version": "VERSION"/' "$tmp/out" >"$tmp/out.v"
mv "$tmp/out.v" "$tmp/out"
compare

# Every report of t1 is valid JSON, and its hex fields are the exact bytes.
title='JSON hex fields'
for opts in '' '--strict' '--unicode 15.0'; do
	# shellcheck disable=SC2086
	scan scan --json $opts t1 clean missing
	cp "$tmp/out" "$tmp/t1.json"
	json_check "$tmp/t1.json"
	sed -n 's/.*"exit_status": \([0-9]*\)$/\1/p' "$tmp/t1.json" >"$tmp/st"
	checks=$((checks + 1))
	[ "$(cat "$tmp/st")" = "$status" ] ||
		fail "exit_status $(cat "$tmp/st") in JSON, $status from the tool"
done
# Every name of t1 is in the last (15.0) report, as hex, but those that
# collide with nothing: I, dotless i and the two unfoldable names.
grep -o '"name_hex": "[0-9a-f]*"' "$tmp/t1.json" |
	sed 's/.*: "\(.*\)"/\1/' | sort -u >"$tmp/hex.got"
hex_lines() {
	for f; do
		# shellcheck disable=SC2059
		printf "$f" | od -An -tx1 | tr -d ' \n'
		echo
	done | sort -u
}
(cd "$tmp/t1" && for f in * .[!.]* ..?*; do
	[ -e "$f" ] || [ -L "$f" ] || continue
	printf '%s' "$f" | od -An -tx1 | tr -d ' \n'
	echo
done) | sort -u >"$tmp/hex.all"
hex_lines I '\304\261' 'x\377y' 'X\377y' >"$tmp/hex.alone"
comm -23 "$tmp/hex.all" "$tmp/hex.got" >"$tmp/hex.missing"
checks=$((checks + 1))
if ! cmp -s "$tmp/hex.missing" "$tmp/hex.alone"; then
	fail "names missing from the report (want only I, dotless i, x\\xFFy, X\\xFFy):"
	diff "$tmp/hex.alone" "$tmp/hex.missing" >&2
fi

finish_checks
