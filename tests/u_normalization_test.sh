#!/bin/sh
# Unicode's NormalizationTest.txt of every version tests/data holds, each
# under its own version and all older ones (tests/u_normalization_test.c).
# make check has unpacked and verified them into the build tree.
set -u
data=$top_builddir/tests/data
set -- "$data"/NormalizationTest-*.txt
if [ ! -r "$1" ]; then
	echo "FAIL: no NormalizationTest-*.txt in $data (make check unpacks tests/data)"
	exit 99
fi
exec "$top_builddir/tests/u_normalization_test" "$@"
