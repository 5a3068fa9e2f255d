#!/bin/sh
# A newer UCD must not change what an older version answers. The engine's
# table, made from the pinned UCD (util/ucd), against the slow reference
# reading Unicode 15.0.0's own files (tests/data/ucd-15.0.0): every code
# point under every version up to 15.0, both forms (fuzz/u_reference.c).
# The kernel oracle does the same for 12.1 and older against Linux.
# Why: doc/kernel-facts.md, "Unicode versions and ages".
set -u
ucd=$top_builddir/tests/data/ucd-15.0.0
if [ ! -r "$ucd/DerivedAge.txt" ]; then
	echo "FAIL: no UCD 15.0.0 in $ucd (make check unpacks tests/data)"
	exit 99
fi
UCD_DIR=$ucd exec "$top_builddir/fuzz/u_reference"
