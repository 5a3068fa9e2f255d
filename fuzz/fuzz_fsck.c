/*
 * fuzz_fsck: e2fold-fsck, in-process (fsck_main), on damaged images.
 *
 * An input is a seed and patches (image.h); a custom mutator aims most
 * patches at directory blocks, inode flags and the superblock's encoding
 * fields of the seed. Option bits (byte 1): 0x01 -E check_encoding,
 * 0x02 --report. (-z is left to the fault-injection tests: libext2fs's
 * undo manager leaks on every use, see lsan.supp, and it is its code.)
 *
 * Per input, on a temporary file holding the image:
 *   1. e2fold-fsck -fn --no-e2fsck: no byte of the file may change;
 *   2. e2fold-fsck -fy --no-e2fsck: if step 1 found nothing (exit 0),
 *      this finds nothing and changes nothing either (or cannot open the
 *      filesystem for writing: exit 8, e.g. an unknown read-only
 *      feature); unless it stops with an error (exit 8, which points at
 *      the undo file), every directory names the same inodes afterwards
 *      as before (renames change names, never which inodes a directory
 *      holds);
 *   3. if step 2 exited 0 or 1 (everything fixed), e2fold-fsck -fn
 *      --no-e2fsck exits 0.
 * Crashes, leaks and hangs are libFuzzer's to catch (-timeout).
 *
 * With FUZZ_FSCK_E2FSCK=1 (slow: e2fsck runs twice per input) the system
 * e2fsck judges too: if e2fsck -fn could check the image before step 2,
 * it can after, and every problem code it reports after is one it
 * reported before, so that e2fold's repair adds no problem of its own
 * (e2fsck's problem log, -E problem_log=FILE).
 * To reproduce: FUZZ_FSCK_VERBOSE=1 keeps e2fold-fsck's output, and
 * FUZZ_FSCK_DUMP=FILE saves the image an input describes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dirread.h"
#include "e2fsck.h"
#include "fuzz.h"
#include "image.h"

#ifndef FUZZ_SEED_DIR
#define FUZZ_SEED_DIR "fuzz/seeds"
#endif

#define OPT_CHECK_ENCODING 0x01
#define OPT_REPORT 0x02

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);

static struct seed *seeds;
static size_t nseeds;
static char tmpdir[64];
static char image_path[64], report_path[64], log_path[64];
static int with_e2fsck;

/* What a run of e2fold-fsck may leave beside the image. */
static void remove_outputs(void)
{
	remove(report_path);
	remove(log_path);
}

static void cleanup(void)
{
	remove_outputs();
	remove(image_path);
	rmdir(tmpdir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_SEED_DIR");
	(void)argc;
	(void)argv;
	fuzz_init_report();
	/*
	 * tmpfs if there is one: each repair ends with an fsync, which costs
	 * milliseconds on a disk and nothing there.
	 */
	fuzz_make_tmpdir(tmpdir, sizeof(tmpdir), "fsck");
	snprintf(image_path, sizeof(image_path), "%s/image", tmpdir);
	snprintf(report_path, sizeof(report_path), "%s/report.json", tmpdir);
	snprintf(log_path, sizeof(log_path), "%s/problems.xml", tmpdir);
	atexit(cleanup);
	nseeds = image_load_seeds(dir && *dir ? dir : FUZZ_SEED_DIR, tmpdir,
				  &seeds);
	if (!nseeds)
		abort();
	with_e2fsck = getenv("FUZZ_FSCK_E2FSCK") &&
		      !strcmp(getenv("FUZZ_FSCK_E2FSCK"), "1");
	fuzz_quiet_stdout("FUZZ_FSCK_VERBOSE");
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	return image_custom_mutate(seeds, nseeds, data, size, max_size, seed);
}

/* FUZZ_FSCK_DUMP=FILE: keep the image of the (last) input, to reproduce. */
static void dump_image(const unsigned char *img, size_t size)
{
	const char *path = getenv("FUZZ_FSCK_DUMP");
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "w");
	if (!f || fwrite(img, 1, size, f) != size || fclose(f))
		abort();
}

static int run_fsck(const char *mode, unsigned int opts)
{
	char *argv[16];
	int argc = 0, status;

	argv[argc++] = "e2fold-fsck";
	argv[argc++] = (char *)mode;
	argv[argc++] = "--no-e2fsck";
	if (opts & OPT_CHECK_ENCODING)
		argv[argc++] = "-Echeck_encoding";
	if (opts & OPT_REPORT) {
		argv[argc++] = "--report";
		argv[argc++] = report_path;
	}
	argv[argc++] = image_path;
	argv[argc] = NULL;
	status = fsck_main(argc, argv);
	fflush(stdout);
	FUZZ_ASSERT(status >= 0 && status <= 15 && status != 2);
	return status;
}

/* (directory, inode) for every entry of every directory, sorted. */
struct entry_list {
	uint64_t *v;
	size_t n;
	int ok;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void list_entries(struct entry_list *l)
{
	ext2_filsys fs;
	ext2_ino_t ino;
	size_t cap = 0;

	memset(l, 0, sizeof(*l));
	if (ext2fs_open(image_path, EXT2_FLAG_64BITS |
			EXT2_FLAG_IGNORE_CSUM_ERRORS, 0, 0, unix_io_manager,
			&fs))
		return;
	l->ok = 1;
	for (ino = 1; ino <= fs->super->s_inodes_count && l->ok; ino++) {
		struct ext2_inode inode;
		struct e2fold_dir *dir;
		size_t i;

		if (ext2fs_read_inode(fs, ino, &inode) ||
		    !LINUX_S_ISDIR(inode.i_mode) || !inode.i_links_count)
			continue;
		if (e2fold_dir_read(fs, ino, &dir)) {
			l->ok = 0;
			break;
		}
		for (i = 0; i < dir->nents; i++) {
			if (l->n == cap) {
				cap = cap ? 2 * cap : 256;
				l->v = realloc(l->v, cap * sizeof(*l->v));
				if (!l->v)
					abort();
			}
			l->v[l->n++] = (uint64_t)ino << 32 | dir->ents[i].ino;
		}
		e2fold_dir_free(dir);
	}
	ext2fs_close_free(&fs);
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_u64);
}

/*
 * The problem codes of e2fsck -fn on the image; -1 if it did not check
 * the whole filesystem (exit status 8: e.g. a superblock it cannot read,
 * whose problems a repair may then reveal rather than cause).
 */
static long e2fsck_codes(unsigned int **ret_codes)
{
	char opt[128], line[512];
	unsigned int *codes = NULL;
	size_t n = 0;
	pid_t pid;
	int status;
	FILE *f;

	*ret_codes = NULL;
	snprintf(opt, sizeof(opt), "problem_log=%s", log_path);
	remove(log_path);
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		setenv("E2FSCK_CONFIG", "/dev/null", 1);
		execlp("e2fsck", "e2fsck", "-fn", "-E", opt, image_path,
		       (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			abort();
	FUZZ_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) != 127);
	if (WEXITSTATUS(status) & 8)
		return -1;
	f = fopen(log_path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned int code;
		char *p = strstr(line, "<problem code=\"0x");

		if (!p || sscanf(p, "<problem code=\"0x%x\"", &code) != 1)
			continue;
		codes = realloc(codes, (n + 1) * sizeof(*codes));
		if (!codes)
			abort();
		codes[n++] = code;
	}
	fclose(f);
	*ret_codes = codes;
	return (long)n;
}

static int has_code(const unsigned int *codes, long n, unsigned int code)
{
	long i;

	for (i = 0; i < n; i++)
		if (codes[i] == code)
			return 1;
	return 0;
}

/* Step 1: -fn must not change a byte. Returns its exit status. */
static int check_read_only(const unsigned char *img, size_t size,
			   unsigned int opts)
{
	int status = run_fsck("-fn", opts);
	unsigned char *now = image_read(image_path, size);

	FUZZ_ASSERT(!memcmp(now, img, size));
	free(now);
	return status;
}

/* Step 2: -fy, judged against what step 1 said. Returns its status. */
static int check_repair(const unsigned char *img, size_t size,
			unsigned int opts, int st_n)
{
	struct entry_list e1, e2;
	unsigned char *now;
	int st_y;

	list_entries(&e1);
	st_y = run_fsck("-fy", opts);
	if (st_n == 0) {
		/* 8: e.g. a read-only feature it does not know keeps it out. */
		FUZZ_ASSERT(st_y == 0 || st_y == FSCK_ERROR);
		now = image_read(image_path, size);
		FUZZ_ASSERT(!memcmp(now, img, size));
		free(now);
	}
	list_entries(&e2);
	/*
	 * A run that stops with an error (8) says so and points at the undo
	 * file: on a filesystem whose block map is broken (e2fsck's to
	 * repair, not run here) a rebuild can fail halfway.
	 */
	if (e1.ok && e2.ok && !(st_y & FSCK_ERROR)) {
		FUZZ_ASSERT(e1.n == e2.n);
		FUZZ_ASSERT(!e1.n || !memcmp(e1.v, e2.v, e1.n * sizeof(*e1.v)));
	}
	free(e1.v);
	free(e2.v);
	return st_y;
}

/* The slow mode: e2fsck finds no problem after that it did not before. */
static void check_e2fsck_judge(const unsigned int *before, long nbefore)
{
	unsigned int *after;
	long nafter = e2fsck_codes(&after), i;

	/* e2fsck could check the image before: so it can after. */
	FUZZ_ASSERT(nafter >= 0);
	for (i = 0; i < nafter; i++) {
		if (has_code(before, nbefore, after[i]))
			continue;
		fprintf(fuzz_report(), "e2fsck problem 0x%06x after the repair, "
			"not before\n", after[i]);
		FUZZ_ASSERT(!"the repair added an e2fsck problem");
	}
	free(after);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct seed *s = image_seed_of(seeds, nseeds, data, size);
	unsigned int opts = size > 1 ? data[1] : 0, *before = NULL;
	unsigned char *img;
	long nbefore = -1;
	int st_n, st_y;

	if (!s)
		return 0;
	img = image_build(s, data, size);
	image_write(image_path, img, s->size);
	dump_image(img, s->size);
	st_n = check_read_only(img, s->size, opts);
	if (with_e2fsck)
		nbefore = e2fsck_codes(&before);
	st_y = check_repair(img, s->size, opts, st_n);
	/* Step 3: fixed means fixed. */
	if (st_y == 0 || st_y == 1)
		FUZZ_ASSERT(run_fsck("-fn", opts) == 0);
	if (nbefore >= 0)
		check_e2fsck_judge(before, nbefore);
	free(before);
	free(img);
	remove_outputs();
	return 0;
}
