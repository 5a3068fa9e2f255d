/*
 * image.h: small seed images and structured damage to them, for the
 * harnesses that run a tool on a filesystem (fuzz_fsck, and later the
 * debugfs one).
 *
 * An input is not an image but a recipe, so that the corpus stays tiny:
 *   byte 0      which seed (fuzz/seeds/NAME.img.gz, in name order)
 *   byte 1      option bits for the harness
 *   then        patches: le32 offset (modulo the image size), u8 length,
 *               that many bytes to write there; a short last patch
 *               writes what it has
 * The seeds' layout (superblock, inode of every directory, directory
 * blocks) is read once with libext2fs, so that the mutator can aim at the
 * bytes casefold checking depends on.
 */
#ifndef E2FOLD_FUZZ_IMAGE_H
#define E2FOLD_FUZZ_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#define IMAGE_HEADER 2		/* seed and option bytes */
#define IMAGE_PATCH_HEADER 5	/* le32 offset, u8 length */

/* What a region of a seed is, to the mutator. */
enum region_kind {
	REGION_SUPER,		/* the primary superblock */
	REGION_INODE,		/* a directory's inode (or a file's, nearby) */
	REGION_DIR_BLOCK,	/* a block of a directory */
	REGION_DX_ROOT,		/* the first 64 bytes of an indexed directory */
	REGION_KINDS,
};

struct region {
	enum region_kind kind;
	uint32_t offset, len;
};

struct seed {
	char *name;
	unsigned char *bytes;
	size_t size;
	unsigned int blocksize;
	struct region *regions;
	size_t nregions;
};

/*
 * Load every dir/NAME.img.gz, sorted by name, and find its regions
 * (tmpdir is scratch space). Returns the count (0 after printing why).
 */
size_t image_load_seeds(const char *dir, const char *tmpdir,
			struct seed **ret_seeds);

/* The seed an input names (its byte 0), or NULL for an empty input. */
const struct seed *image_seed_of(const struct seed *seeds, size_t nseeds,
				 const uint8_t *data, size_t size);

/* The image an input describes: a malloc'ed copy of the seed, patched. */
unsigned char *image_build(const struct seed *seed, const uint8_t *data,
			   size_t size);

/*
 * Append one patch aimed at the seed's structure to data (size bytes,
 * room for max_size); returns the new size, or 0 if it does not fit.
 */
size_t image_mutate(const struct seed *seed, uint8_t *data, size_t size,
		    size_t max_size, unsigned int rnd);

/*
 * The whole custom mutation of an input for a harness over seed images
 * (its LLVMFuzzerCustomMutator): a quarter of the time libFuzzer's own
 * mutations of the recipe, otherwise a patch aimed at the seed.
 */
size_t image_custom_mutate(const struct seed *seeds, size_t nseeds,
			   uint8_t *data, size_t size, size_t max_size,
			   unsigned int rnd);

/*
 * Write size bytes to path, in place: an existing file keeps its inode,
 * so that e2fold's image lock (imagelock.h), the process's for that
 * inode, stays valid across inputs. Aborts on failure.
 */
void image_write(const char *path, const void *bytes, size_t size);

/* The malloc'ed bytes of path, which must hold exactly size bytes. */
unsigned char *image_read(const char *path, size_t size);

#endif /* E2FOLD_FUZZ_IMAGE_H */
