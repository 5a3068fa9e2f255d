/* uuid.c: parse and generate UUIDs without libuuid. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "hex.h"
#include "uuid.h"

errcode_t mkfs_uuid_parse(const char *text, unsigned char uu[16])
{
	/* Dashes sit after bytes 4, 6, 8 and 10 of the 16. */
	static const char layout[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
	size_t i, n = 0;

	if (strlen(text) != sizeof(layout) - 1)
		return EINVAL;
	for (i = 0; layout[i]; i++) {
		int byte;

		if (layout[i] == '-') {
			if (text[i] != '-')
				return EINVAL;
			continue;
		}
		byte = e2fold_hex_byte(text + i);
		if (byte < 0)
			return EINVAL;
		uu[n++] = byte;
		i++;
	}
	return 0;
}

errcode_t mkfs_uuid_random(unsigned char uu[16])
{
	size_t got = 0;

	while (got < 16) {
		ssize_t n = getrandom(uu + got, 16 - got, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		got += n;
	}
	/* RFC 4122: version 4 in the high nibble of byte 6, variant 10xx. */
	uu[6] = (uu[6] & 0x0f) | 0x40;
	uu[8] = (uu[8] & 0x3f) | 0x80;
	return 0;
}
