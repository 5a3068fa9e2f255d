/* version.c: one place that says which versions a binary was built with. */
#include "config.h"

#include <stdio.h>
#include <ext2fs/ext2fs.h>

#include "unicode.h"
#include "version.h"

const char *e2fold_version_banner(const char *prog)
{
	static char banner[160];
	const char *ext2fs_version = "?";

	ext2fs_get_library_version(&ext2fs_version, NULL);
	snprintf(banner, sizeof(banner), "%s %s (libext2fs %s, Unicode %s)",
		 prog, PACKAGE_VERSION, ext2fs_version, utf8version_latest());
	return banner;
}
