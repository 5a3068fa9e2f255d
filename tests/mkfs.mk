# Tests of e2fold-mkfs. Each m_casefold_* directory has a `name` and a
# `script` that builds its source trees and images at test time (nothing
# binary is committed), checks them with the system e2fsck, dumpe2fs and
# debugfs, and compares the filtered output with its expect.N files.
M_TESTS = \
	tests/m_casefold_defaults \
	tests/m_casefold_encoding \
	tests/m_casefold_options \
	tests/m_casefold_dryrun \
	tests/m_casefold_refuse \
	tests/m_casefold_mounted \
	tests/m_casefold_collisions \
	tests/m_casefold_rename \
	tests/m_casefold_quiet \
	tests/m_casefold_strict \
	tests/m_casefold_dirs \
	tests/m_casefold_metadata \
	tests/m_casefold_lostfound \
	tests/m_casefold_offset \
	tests/m_casefold_resize \
	tests/m_casefold_badblocks \
	tests/m_casefold_badblocks_check \
	tests/m_casefold_super_only \
	tests/m_habit_mmp_interval \
	tests/m_habit_desc_size \
	tests/m_habit_packed_meta \
	tests/m_habit_prezeroed \
	tests/m_habit_quotatype \
	tests/m_habit_android_sparse \
	tests/m_habit_orphan_size \
	tests/m_habit_root_owner \
	tests/m_habit_no_copy_xattrs
TESTS += $(M_TESTS)
EXTRA_DIST += $(M_TESTS) tests/mkfs-lib.sh

# Sources that are archives (libarchive): left out, and said so, with
# configure --without-libarchive, as the kernel tests that make their
# images from archives are (tests/kernel.mk).
M_ARCHIVE_TESTS = \
	tests/m_casefold_populate \
	tests/m_casefold_archive
if LIBARCHIVE
TESTS += $(M_ARCHIVE_TESTS)
else
check_DATA += archive-left-out
endif
archive-left-out:
	@echo "make check: configure --without-libarchive: e2fold-mkfs" \
	  "reads no archives, so the tests that populate from one are left" \
	  "out: $(M_ARCHIVE_TESTS) $(KERNEL_ARCHIVE_TESTS)"
.PHONY: archive-left-out
EXTRA_DIST += $(M_ARCHIVE_TESTS)
