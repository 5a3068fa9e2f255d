/* array.c: arrays that grow as needed (see array.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

errcode_t e2fold_array_reserve(void *arrayp, size_t *cap, size_t need,
			       size_t size)
{
	size_t want = *cap ? *cap : 16;
	void *array, *grown;

	if (need <= *cap)
		return 0;
	while (want < need) {
		if (want > SIZE_MAX / 2)
			return EXT2_ET_NO_MEMORY;
		want *= 2;
	}
	if (want > SIZE_MAX / size)
		return EXT2_ET_NO_MEMORY;
	/* Through memcpy: arrayp points to a pointer of another type. */
	memcpy(&array, arrayp, sizeof(array));
	grown = realloc(array, want * size);
	if (!grown)
		return EXT2_ET_NO_MEMORY;
	memcpy(arrayp, &grown, sizeof(grown));
	*cap = want;
	return 0;
}
