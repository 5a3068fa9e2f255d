/* hashalg.c: directory hash algorithms by name (see hashalg.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hashalg.h"

#define NVERSIONS (EXT2_HASH_SIPHASH + 1)

static const char *const names[NVERSIONS] = {
	[EXT2_HASH_LEGACY] = "legacy",
	[EXT2_HASH_HALF_MD4] = "half_md4",
	[EXT2_HASH_TEA] = "tea",
	[EXT2_HASH_LEGACY_UNSIGNED] = "legacy_unsigned",
	[EXT2_HASH_HALF_MD4_UNSIGNED] = "half_md4_unsigned",
	[EXT2_HASH_TEA_UNSIGNED] = "tea_unsigned",
	[EXT2_HASH_SIPHASH] = "siphash",
};

const char *e2fold_hash_alg_name(int version)
{
	if (version < 0 || version >= NVERSIONS)
		return "unknown";
	return names[version];
}

/* A version as a decimal number, alone or after e2p's "HASHALG_". */
static errcode_t parse_number(const char *text, int *ret_version)
{
	unsigned long n;
	char *end;

	if (!strncasecmp(text, "HASHALG_", 8))
		text += 8;
	if (*text < '0' || *text > '9')
		return EINVAL;
	n = strtoul(text, &end, 10);
	if (*end || n >= NVERSIONS)
		return EINVAL;
	*ret_version = n;
	return 0;
}

errcode_t e2fold_hash_alg_parse(const char *text, int *ret_version,
				int *ret_bare)
{
	int bare = 0, version;

	if (!parse_number(text, ret_version)) {
		if (ret_bare)
			*ret_bare = 0;
		return 0;
	}
	for (version = 0; version < NVERSIONS; version++) {
		size_t n = strlen(names[version]);

		if (strncasecmp(text, names[version], n))
			continue;
		if (!text[n]) {
			bare = version <= EXT2_HASH_TEA;
			break;
		}
		if (version <= EXT2_HASH_TEA && !strcasecmp(text + n, "_signed"))
			break;
	}
	if (version == NVERSIONS)
		return EINVAL;
	*ret_version = version;
	if (ret_bare)
		*ret_bare = bare;
	return 0;
}
