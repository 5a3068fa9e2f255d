# Tests of the Unicode engine and its table.

# The committed table equals what the generator makes from the UCD.
TESTS += tests/u_utf8data_regen.sh
# Only the public API leaves the shared library.
TESTS += tests/u_exports.sh
# Differential test against the Linux kernel's own fs/unicode.
TESTS += tests/u_kernel_oracle.sh
EXTRA_DIST += tests/u_utf8data_regen.sh tests/u_exports.sh \
	tests/u_kernel_oracle.sh
