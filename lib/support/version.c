/* version.c: one place that says which versions a binary was built with. */
#include "config.h"

#include <stdio.h>
#include <ext2fs/ext2fs.h>

#include "encoding.h"
#include "unicode.h"
#include "version.h"

const char *e2fold_version_banner(const char *prog)
{
	static char banner[200];
	const struct e2fold_encoding *enc =
		e2fold_encoding_by_magic(E2FOLD_ENC_UTF8_12_1);
	const char *ext2fs_version = "?";

	ext2fs_get_library_version(&ext2fs_version, NULL);
	/*
	 * Two Unicode versions matter and a user must not take one for the
	 * other: the newest the engine knows, and the one ext4's only
	 * encoding fixes for every casefolded filesystem.
	 */
	snprintf(banner, sizeof(banner), "%s %s (libext2fs %s, Unicode %s; "
		 "filesystem encoding %s, Unicode %s)", prog, PACKAGE_VERSION,
		 ext2fs_version, utf8version_latest(), enc->name, enc->unicode);
	return banner;
}
