#!/bin/sh
# ucd-unpack.sh SRC DEST: decompress the pinned Unicode data of SRC (the
# files listed in SRC/SHA256SUMS, each stored as NAME.xz) into DEST and
# prove them intact before anything reads them:
#   - every file listed has its .xz, and every .txt.xz is listed;
#   - each decompressed file has the SHA-256 that SRC/SHA256SUMS gives
#     (the sums of the files as published, not of the .xz);
#   - a file whose first line names its version ("# CaseFolding-17.0.0.txt")
#     names SRC/VERSION, or, without a VERSION file, its own name
#     ("# NormalizationTest-16.0.0.txt").
# On success DEST/.unpacked is written last: make depends on it, so an
# interrupted or failed run is redone. Any failure exits non-zero.
set -eu

prog=ucd-unpack
[ $# -eq 2 ] || { echo "usage: $0 SRC DEST" >&2; exit 2; }
src=$1
dest=$2

fail() {
	echo "$prog: $*" >&2
	exit 1
}

[ -r "$src/SHA256SUMS" ] || fail "$src/SHA256SUMS: missing"
version=
[ -r "$src/VERSION" ] && version=$(cat "$src/VERSION")
mkdir -p "$dest"
rm -f "$dest/.unpacked"

listed=$(awk 'NF != 2 { exit 1 } { print $2 }' "$src/SHA256SUMS") ||
	fail "$src/SHA256SUMS: not sha256sum output"
[ -n "$listed" ] || fail "$src/SHA256SUMS: empty"
for xz in "$src"/*.txt.xz; do
	name=${xz##*/}
	name=${name%.xz}
	echo "$listed" | grep -qx "$name" ||
		fail "$xz is not listed in $src/SHA256SUMS"
done

for name in $listed; do
	[ -r "$src/$name.xz" ] || fail "$src/$name.xz: missing"
	xz -dc "$src/$name.xz" > "$dest/$name.tmp" ||
		fail "$src/$name.xz: cannot decompress"
	mv "$dest/$name.tmp" "$dest/$name"
done

if ! (cd "$dest" && sha256sum --check --strict --quiet -) < "$src/SHA256SUMS"; then
	fail "$dest: the files differ from $src/SHA256SUMS"
fi

# UnicodeData.txt is the one UCD file without a header line.
for name in $listed; do
	[ "$name" = UnicodeData.txt ] && continue
	want="# $name"
	[ -n "$version" ] && want="# ${name%.txt}-$version.txt"
	first=$(head -n 1 "$dest/$name" | tr -d '\r')
	[ "$first" = "$want" ] ||
		fail "$dest/$name begins \"$first\", not \"$want\""
done

: > "$dest/.unpacked"
