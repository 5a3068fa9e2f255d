# Tests of e2fold-fuse that mount an image (root and /dev/fuse needed;
# without them they fail, never skip). Each directory has a `name` and
# a `script`.
FUSE_TESTS = \
	tests/fuse_smoke \
	tests/fuse_ops \
	tests/fuse_refuse \
	tests/fuse_encrypted \
	tests/fuse_kernels
TESTS += $(FUSE_TESTS)
EXTRA_DIST += $(FUSE_TESTS) tests/fuse-lib.sh
