/*
 * mktar: the tree of the fsck benchmark as a ustar archive on standard
 * output, without a file on the host (bench/fsck-bench.sh).
 *
 *   mktar [-l] BIG DIRS PER_DIR
 *
 * writes big/ with BIG empty files, dir-000/ ... with PER_DIR empty files
 * each (DIRS of them), the same bytes on every run; with -l, the same
 * paths one a line instead (the benchmark picks names to damage there). Two million host
 * files would take longer to make and delete than the benchmark takes to
 * run; a header per file is all e2fold-mkfs -d needs.
 *
 * The names: about four in five ASCII (camera, office, source, music
 * names, mixed case), one in five in other scripts (German sharp s,
 * accented Latin in NFC and NFD, Cyrillic, Greek, Chinese, Japanese,
 * Hangul, Arabic, Devanagari, Turkish dotted I, emoji). A name is PREFIX,
 * a 7-digit counter unique in its directory, SUFFIX. No prefix holds a
 * digit and no suffix starts with one, so the digits are always the same
 * run, and no two templates share both a casefolded prefix and a
 * casefolded suffix: no two names of a directory are equal after
 * casefolding (e2fold-mkfs checks that again when it reads the archive).
 *
 * ustar (POSIX.1-1988): a 512-byte header per member (name[100] at 0,
 * mode[8] at 100, uid, gid, size[12] at 124, mtime[12] at 136, chksum[8]
 * at 148, typeflag at 156, magic "ustar\0" "00" at 257, uname, gname),
 * octal numbers; the checksum is the sum of the header's bytes with the
 * checksum field taken as spaces. Two zero blocks end the archive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 512

static int list_only;

struct template {
	const char *prefix;
	const char *suffix;
};

static const struct template ascii[] = {
	{ "IMG_", ".JPG" },
	{ "DSC", ".jpg" },
	{ "report-", ".pdf" },
	{ "Invoice_", ".PDF" },
	{ "src_module_", ".c" },
	{ "notes ", ".txt" },
	{ "backup-", ".tar.gz" },
	{ "Track ", ".mp3" },
	{ "data_", ".csv" },
	{ "README-", ".md" },
};

static const struct template other[] = {
	{ "Stra\xc3\x9f" "e-", ".txt" },			/* Straße */
	{ "Caf\xc3\xa9 ", ".doc" },				/* Café, NFC */
	{ "resume\xcc\x81-", ".odt" },				/* résumé-ish, NFD */
	{ "\xd1\x84\xd0\xb0\xd0\xb9\xd0\xbb_", ".odt" },	/* файл */
	{ "\xce\xa9\xce\xbc\xce\xad\xce\xb3\xce\xb1-", ".png" },	/* Ωμέγα */
	{ "\xe6\x96\x87\xe4\xbb\xb6", ".txt" },			/* 文件 */
	{ "\xe3\x83\x95\xe3\x82\xa1\xe3\x82\xa4\xe3\x83\xab", ".png" }, /* ファイル */
	{ "\xec\x82\xac\xec\xa7\x84 ", ".jpg" },		/* 사진 */
	{ "\xd9\x85\xd9\x84\xd9\x81-", ".pdf" },		/* ملف */
	{ "\xe0\xa4\xab\xe0\xa4\xbc\xe0\xa4\xbe\xe0\xa4\x87\xe0\xa4\xb2-",
	  ".txt" },						/* फ़ाइल */
	{ "\xc3\x89T\xc3\x89_", ".JPG" },			/* ÉTÉ */
	{ "\xc4\xb0stanbul-", ".txt" },				/* İstanbul */
	{ "\xf0\x9f\x8e\xb5 ", ".mp3" },			/* 🎵 */
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* xorshift32: the same names on every run and every host. */
static unsigned int next_random(unsigned int *state)
{
	unsigned int x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

static const struct template *pick(unsigned int *state)
{
	unsigned int r = next_random(state) % 100;

	if (r < 80)
		return &ascii[next_random(state) % COUNT(ascii)];
	return &other[next_random(state) % COUNT(other)];
}

static void octal(char *field, size_t width, unsigned long value)
{
	snprintf(field, width, "%0*lo", (int)width - 1, value);
}

/* One header: a directory (name ends in '/') or an empty file. */
static void header(const char *name, int is_dir)
{
	char h[BLOCK];
	unsigned int sum = 0;
	size_t i;

	if (list_only) {
		printf("%s\n", name);
		return;
	}
	memset(h, 0, sizeof(h));
	memcpy(h, name, strlen(name));
	octal(h + 100, 8, is_dir ? 0755 : 0644);
	octal(h + 108, 8, 0);
	octal(h + 116, 8, 0);
	octal(h + 124, 12, 0);
	octal(h + 136, 12, 1700000000);
	h[156] = is_dir ? '5' : '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	memset(h + 148, ' ', 8);
	for (i = 0; i < BLOCK; i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);	/* then NUL, then the space */
	fwrite(h, 1, BLOCK, stdout);
}

static void directory(const char *dir, unsigned long count,
		      unsigned int seed)
{
	char name[100];
	unsigned long i;

	snprintf(name, sizeof(name), "%s/", dir);
	header(name, 1);
	for (i = 0; i < count; i++) {
		const struct template *t = pick(&seed);

		snprintf(name, sizeof(name), "%s/%s%07lu%s", dir, t->prefix,
			 i, t->suffix);
		header(name, 0);
	}
}

static unsigned long number(const char *arg)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (*end || !*arg || n > 9999999) {
		fprintf(stderr, "mktar: %s: not a count from 0 to 9999999\n",
			arg);
		exit(1);
	}
	return n;
}

int main(int argc, char **argv)
{
	static char zero[2 * BLOCK];
	static char buf[1 << 20];
	unsigned long big, dirs, per_dir, d;
	char name[32];

	if (argc == 5 && !strcmp(argv[1], "-l")) {
		list_only = 1;
		argc--;
		argv++;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: mktar [-l] BIG DIRS PER_DIR > archive.tar\n");
		return 1;
	}
	big = number(argv[1]);
	dirs = number(argv[2]);
	per_dir = number(argv[3]);
	if (dirs > 1000) {
		fprintf(stderr, "mktar: at most 1000 directories\n");
		return 1;
	}
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	directory("big", big, 2463534242u);
	for (d = 0; d < dirs; d++) {
		snprintf(name, sizeof(name), "dir-%03lu", d);
		directory(name, per_dir, 2463534242u + (unsigned int)d + 1);
	}
	if (!list_only)
		fwrite(zero, 1, sizeof(zero), stdout);
	if (fflush(stdout) || ferror(stdout)) {
		perror("mktar: writing");
		return 1;
	}
	return 0;
}
