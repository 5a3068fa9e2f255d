/*
 * kcf: the file operations kernel test scenarios need, run inside the test
 * VM (tests/kernel/vm.sh copies a static build into its initramfs).
 *
 * busybox has no chattr, and a shell cannot pass arbitrary bytes (an
 * invalid UTF-8 name, say) as a file name, so every name and content here
 * is given and printed in hex. Each command prints one result line: "ok"
 * (or its answer) on success, or the errno name (EEXIST, EINVAL, ...) on
 * failure, so that scenario output can be compared with an expected file;
 * the batch commands (lookups, creates) print one such line per name.
 * lookups drops the dentry cache before each list, so it must run as root.
 *
 * Exit status: 0 success, 1 the operation failed (its errno name was
 * printed), 2 usage error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/fscrypt.h>

/* Relative, as vm.sh builds kcf alone: no include path to lean on. */
#include "../../lib/support/hex.h"

/* FS_CASEFOLD_FL is missing from older <linux/fs.h>; the value is ABI. */
#ifndef FS_CASEFOLD_FL
#define FS_CASEFOLD_FL 0x40000000
#endif

/* ext4 limits a name to 255 bytes; one more for the NUL. */
#define NAME_MAX_BYTES 255

static int usage(void)
{
	fputs("usage: kcf setflag DIR | getflags PATH | create DIR HEXNAME |\n"
	      "       mkdir DIR HEXNAME | lookup DIR HEXNAME | list DIR |\n"
	      "       write DIR HEXNAME HEXCONTENT | read DIR HEXNAME |\n"
	      "       unlink DIR HEXNAME | rename DIR HEXOLD HEXNEW |\n"
	      "       verify DIR LIST | lookups DIR LIST... | creates DIR LIST |\n"
	      "       addkey PATH | encrypt DIR | fill DIR HEXPREFIX N |\n"
	      "       check DIR HEXPREFIX N | count DIR |\n"
	      "       times DIR absent|present|create|unlink LIST\n",
	      stderr);
	return 2;
}

/* Print the name of errno (not its message: names are stable to compare). */
static int fail(void)
{
	const char *name = strerrorname_np(errno);

	if (name)
		puts(name);
	else
		printf("errno %d\n", errno);
	return 1;
}

/*
 * Decode hex into a malloc'd NUL-terminated buffer; *ret_len gets the
 * byte count. Returns NULL (after a message) on odd length or a bad digit.
 */
static char *unhex(const char *hex, size_t *ret_len)
{
	size_t len = strlen(hex), i;
	char *buf;

	if (len % 2) {
		fprintf(stderr, "kcf: odd hex length: %s\n", hex);
		return NULL;
	}
	buf = malloc(len / 2 + 1);
	if (!buf)
		return NULL;
	for (i = 0; i < len / 2; i++) {
		int byte = e2fold_hex_byte(hex + 2 * i);

		if (byte < 0) {
			fprintf(stderr, "kcf: not hex: %s\n", hex);
			free(buf);
			return NULL;
		}
		buf[i] = (char)byte;
	}
	buf[len / 2] = 0;
	*ret_len = len / 2;
	return buf;
}

/* A name may hold any byte but NUL and '/' (which would not be one name). */
static char *unhex_name(const char *hex)
{
	size_t len;
	char *name = unhex(hex, &len);

	if (name && (len == 0 || strlen(name) != len || strchr(name, '/'))) {
		fprintf(stderr, "kcf: not a single file name: %s\n", hex);
		free(name);
		return NULL;
	}
	return name;
}

static void print_hex(const unsigned char *p, size_t len)
{
	while (len--)
		printf("%02x", *p++);
}

static int cmd_setflag(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	int flags;

	if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		return fail();
	flags |= FS_CASEFOLD_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)
		return fail();
	close(fd);
	puts("ok");
	return 0;
}

static int cmd_getflags(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	int flags;

	if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		return fail();
	close(fd);
	printf("0x%08x\n", (unsigned)flags);
	return 0;
}

/*
 * fscrypt (policy v2), for encrypted casefolded directories: one fixed
 * raw key, so that a later boot can unlock what an earlier one made.
 */
struct raw_key {
	struct fscrypt_add_key_arg arg;
	unsigned char raw[FSCRYPT_MAX_KEY_SIZE];
};

/* Add the key to the filesystem PATH is on; its identifier to *id. */
static int add_key(const char *path, unsigned char *id)
{
	struct raw_key k;
	int fd = open(path, O_RDONLY), i;

	if (fd < 0)
		return -1;
	memset(&k, 0, sizeof(k));
	k.arg.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	k.arg.raw_size = FSCRYPT_MAX_KEY_SIZE;
	for (i = 0; i < FSCRYPT_MAX_KEY_SIZE; i++)
		k.raw[i] = (unsigned char)(i * 7 + 1);
	if (ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, &k) < 0) {
		close(fd);
		return -1;
	}
	memcpy(id, k.arg.key_spec.u.identifier, FSCRYPT_KEY_IDENTIFIER_SIZE);
	close(fd);
	return 0;
}

static int cmd_addkey(const char *path)
{
	unsigned char id[FSCRYPT_KEY_IDENTIFIER_SIZE];

	if (add_key(path, id) < 0)
		return fail();
	puts("ok");
	return 0;
}

/*
 * Make the empty directory DIR encrypted (AES-256-XTS contents,
 * AES-256-CTS names, as Android's user storage) and casefolded, in that
 * order: both flags can be set only while it is empty.
 */
static int cmd_encrypt(const char *dir)
{
	struct fscrypt_policy_v2 p = {
		.version = FSCRYPT_POLICY_V2,
		.contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS,
		.filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS,
		.flags = FSCRYPT_POLICY_FLAGS_PAD_32,
	};
	int fd;

	if (add_key(dir, p.master_key_identifier) < 0)
		return fail();
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &p) < 0)
		return fail();
	close(fd);
	return cmd_setflag(dir);
}

/* Name i of a numbered series: PREFIX then i in six digits. */
static void series_name(char *buf, size_t size, const char *prefix, long i)
{
	snprintf(buf, size, "%s%06ld", prefix, i);
}

/*
 * fill: create names 0..N-1 of the series; check: look each up (under
 * another spelling, if the prefix is one) and print how many were found,
 * and the first one that was not. Thousands of names, one line of output.
 */
static int cmd_series(const char *dir, const char *hexprefix, const char *n,
		      int create)
{
	size_t len;
	char *prefix = unhex(hexprefix, &len), name[NAME_MAX_BYTES + 1];
	long count = atol(n), i, done = 0, first_bad = -1;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY), err = 0;

	if (!prefix)
		return 2;
	if (dfd < 0)
		return fail();
	for (i = 0; i < count; i++) {
		struct stat st;
		int fd;

		series_name(name, sizeof(name), prefix, i);
		if (create) {
			fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
			if (fd >= 0)
				close(fd);
		} else {
			fd = fstatat(dfd, name, &st, 0);
		}
		if (fd >= 0) {
			done++;
		} else if (first_bad < 0) {
			first_bad = i;
			err = errno;
		}
	}
	close(dfd);
	printf("%ld of %ld", done, count);
	if (first_bad >= 0)
		printf(", first failure %ld: %s", first_bad, strerrorname_np(err));
	printf("\n");
	free(prefix);
	return done == count ? 0 : 1;
}

/* One name in a directory: the commands below all act on such a pair. */
static int cmd_create(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0)
		return fail();
	close(fd);
	puts("ok");
	return 0;
}

static int cmd_mkdir(int dfd, const char *name)
{
	if (mkdirat(dfd, name, 0755) < 0)
		return fail();
	puts("ok");
	return 0;
}

static int cmd_lookup(int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return fail();
	printf("found %llu\n", (unsigned long long)st.st_ino);
	return 0;
}

static int cmd_unlink(int dfd, const char *name)
{
	if (unlinkat(dfd, name, 0) < 0)
		return fail();
	puts("ok");
	return 0;
}

static int cmd_rename(int dfd, const char *from, const char *to)
{
	if (renameat(dfd, from, dfd, to) < 0)
		return fail();
	puts("ok");
	return 0;
}

static int cmd_write(int dfd, const char *name, const char *hexcontent)
{
	size_t len;
	char *data = unhex(hexcontent, &len);
	int fd;

	if (!data)
		return 2;
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len || close(fd) < 0)
		return fail();
	free(data);
	puts("ok");
	return 0;
}

static int cmd_read(int dfd, const char *name)
{
	unsigned char buf[4096];
	ssize_t n;
	int fd = openat(dfd, name, O_RDONLY);

	if (fd < 0)
		return fail();
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		print_hex(buf, (size_t)n);
	if (n < 0)
		return fail();
	close(fd);
	putchar('\n');
	return 0;
}

/* scandir's filter and order: skip . and .., sort bytewise (= by hex). */
static int not_dots(const struct dirent *d)
{
	return strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
}

static int by_bytes(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int cmd_list(const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, not_dots, by_bytes), i;

	if (n < 0)
		return fail();
	for (i = 0; i < n; i++) {
		print_hex((const unsigned char *)ents[i]->d_name,
			  strlen(ents[i]->d_name));
		printf(" %llu\n", (unsigned long long)ents[i]->d_ino);
		free(ents[i]);
	}
	free(ents);
	return 0;
}

/* The name with ASCII letters in the other case; 1 if any changed. */
static int flip_case(char *name)
{
	int changed = 0;

	for (; *name; name++) {
		if ((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z')) {
			*name ^= 0x20;
			changed = 1;
		}
	}
	return changed;
}

/*
 * verify DIR LIST: LIST has lines "HEXNAME INODE"; each name must lead to
 * that inode, both as given and with its ASCII letters in the other case,
 * and its file must hold "inode INODE\n". One process for all the names,
 * because under emulation starting a process costs more than the work.
 * Prints each mismatch, then "N entries ok" or "N mismatches".
 */
static int cmd_verify(const char *dir, const char *list)
{
	char line[1024], hexname[600];
	unsigned long long want;
	unsigned long n = 0, bad = 0;
	FILE *f = fopen(list, "r");
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);

	if (!f || dfd < 0)
		return fail();
	while (fgets(line, sizeof(line), f)) {
		char *name, expect[64], content[64];
		struct stat st;
		ssize_t got;
		int fd;

		if (sscanf(line, "%599s %llu", hexname, &want) != 2)
			continue;
		n++;
		name = unhex_name(hexname);
		if (!name) {
			bad++;
			continue;
		}
		errno = 0;
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) ||
		    st.st_ino != want) {
			printf("%s: %s\n", hexname, errno ? strerrorname_np(errno) :
			       "another inode");
			bad++;
		}
		snprintf(expect, sizeof(expect), "inode %llu\n", want);
		fd = openat(dfd, name, O_RDONLY);
		got = fd < 0 ? -1 : read(fd, content, sizeof(content) - 1);
		if (fd >= 0)
			close(fd);
		if (got < 0 || (size_t)got != strlen(expect) ||
		    memcmp(content, expect, got)) {
			printf("%s: wrong content\n", hexname);
			bad++;
		}
		errno = 0;
		if (flip_case(name) &&
		    (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) ||
		     st.st_ino != want)) {
			printf("%s with its case flipped: %s\n", hexname,
			       errno ? strerrorname_np(errno) : "another inode");
			bad++;
		}
		free(name);
	}
	fclose(f);
	close(dfd);
	if (bad)
		printf("%lu mismatches\n", bad);
	else
		printf("%lu entries ok\n", n);
	return bad ? 1 : 0;
}

/*
 * The batch commands: "lookups DIR LIST..." and "creates DIR LIST". A
 * LIST has one name a line, in hex, as its first word; whatever follows on
 * the line is the caller's and is copied to the output. Each line is
 * answered with one line: the input line, a space and the result. Batches
 * are for thousands of names: under emulation one process per name would
 * cost more than the work. Exit status 0 when every line was answered (the
 * answers are data, not failures), 1 if the directory or a list cannot be
 * opened or the dentry cache cannot be dropped, 2 if a line's first word
 * is not a hex file name (that line is answered "badname").
 */
typedef const char *(*batch_fn)(int dfd, const char *name, char *buf,
				size_t size);

/* lookups: the inode a name leads to, or the errno name. */
static const char *lookup_one(int dfd, const char *name, char *buf,
			      size_t size)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return strerrorname_np(errno);
	snprintf(buf, size, "%llu", (unsigned long long)st.st_ino);
	return buf;
}

/* creates: "ok" when a new empty file was made, or the errno name. */
static const char *create_one(int dfd, const char *name, char *buf,
			      size_t size)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL, 0644);

	(void)buf;
	(void)size;
	if (fd < 0)
		return strerrorname_np(errno);
	if (close(fd) < 0)
		return strerrorname_np(errno);
	return "ok";
}

/*
 * Forget every unused dentry and inode ("2" to drop_caches), so that the
 * next lookup of a name goes to the directory on disk: a dentry made by
 * one spelling of a name would otherwise answer for the other spellings
 * (the dcache compares casefolded names itself).
 */
static int drop_dentries(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd < 0 || write(fd, "2", 1) != 1) {
		fprintf(stderr, "kcf: cannot drop the dentry cache: %s\n",
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* Answer every line of list in dfd; 2 if a line held no name, else 0. */
static int answer_list(FILE *f, int dfd, batch_fn fn)
{
	char line[2048], hexname[600], answer[32];
	int status = 0;

	while (fgets(line, sizeof(line), f)) {
		const char *result;
		char *name;

		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%599s", hexname) != 1)
			continue;
		name = unhex_name(hexname);
		if (!name) {
			printf("%s badname\n", line);
			status = 2;
			continue;
		}
		errno = 0;
		result = fn(dfd, name, answer, sizeof(answer));
		printf("%s %s\n", line, result ? result : "unknown-errno");
		free(name);
	}
	return status;
}

/* Each list in turn, after dropping the dentry cache if cold is set. */
static int cmd_batch(const char *dir, char **lists, int nlists, batch_fn fn,
		     int cold)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	int status = 0, i;

	if (dfd < 0)
		return fail();
	for (i = 0; i < nlists; i++) {
		FILE *f = fopen(lists[i], "r");
		int s;

		if (!f) {
			fprintf(stderr, "kcf: %s: %s\n", lists[i], strerror(errno));
			status = 1;
			continue;
		}
		if (cold && drop_dentries() < 0)
			status = 1;
		s = answer_list(f, dfd, fn);
		if (s && !status)
			status = s;
		fclose(f);
	}
	close(dfd);
	return status;
}

/*
 * count DIR: the number of entries readdir gives, "." and ".." included,
 * printed as one number. Reading a directory whole brings its blocks into
 * the buffer cache, so that a timing after it measures the kernel's work,
 * not the emulated disk.
 */
static int cmd_count(const char *dir)
{
	DIR *d = opendir(dir);
	unsigned long n = 0;

	if (!d)
		return fail();
	errno = 0;
	while (readdir(d))
		n++;
	if (errno)
		return fail();
	closedir(d);
	printf("%lu\n", n);
	return 0;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * One timed operation on a name; returns 1 when the result is the one
 * the benchmark expects (absent: ENOENT; present: found; create: made;
 * unlink: removed).
 */
static int timed_op(int dfd, const char *op, const char *name, double *ret_us)
{
	struct stat st;
	double t0 = now_us();
	int r, fd = -1;

	if (!strcmp(op, "create")) {
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		r = fd;
		if (fd >= 0)
			close(fd);
	} else if (!strcmp(op, "unlink")) {
		r = unlinkat(dfd, name, 0);
	} else {
		r = fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW);
	}
	*ret_us = now_us() - t0;
	if (!strcmp(op, "absent"))
		return r < 0 && errno == ENOENT;
	return r >= 0;
}

/*
 * times DIR absent|present|create|unlink LIST: the time of one lstat
 * (absent: a name that is not there; present: one that is), one
 * open(O_CREAT|O_EXCL) and close (create) or one unlink per hex name of
 * LIST, each
 * taken apart with CLOCK_MONOTONIC, so that the median is that of single
 * operations. Prints "OP N ops: median M us, mean A us, min L us, max H
 * us, U unexpected" (U counts results other than the expected ENOENT,
 * success, success); exit status 1 if U is not 0.
 */
static int cmd_times(const char *dir, const char *op, const char *list)
{
	char line[2048], hexname[600];
	double *t = NULL, sum = 0;
	size_t n = 0, size = 0, unexpected = 0;
	FILE *f;
	int dfd;

	if (strcmp(op, "absent") && strcmp(op, "present") &&
	    strcmp(op, "create") && strcmp(op, "unlink"))
		return usage();
	f = fopen(list, "r");
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (!f || dfd < 0)
		return fail();
	while (fgets(line, sizeof(line), f)) {
		char *name;

		if (sscanf(line, "%599s", hexname) != 1)
			continue;
		name = unhex_name(hexname);
		if (!name)
			return 2;
		if (n == size) {
			size = size ? 2 * size : 1024;
			t = realloc(t, size * sizeof(*t));
			if (!t)
				return fail();
		}
		if (!timed_op(dfd, op, name, &t[n]))
			unexpected++;
		sum += t[n++];
		free(name);
	}
	fclose(f);
	close(dfd);
	if (!n) {
		fprintf(stderr, "kcf: %s: no names\n", list);
		return 2;
	}
	qsort(t, n, sizeof(*t), by_value);
	printf("%s %zu ops: median %.1f us, mean %.1f us, min %.1f us, "
	       "max %.1f us, %zu unexpected\n", op, n,
	       n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2, sum / n,
	       t[0], t[n - 1], unexpected);
	free(t);
	return unexpected ? 1 : 0;
}

/* Commands of the form "CMD DIR HEXNAME [ARG]": open DIR, decode HEXNAME. */
static int run_in_dir(const char *cmd, const char *dir, const char *hexname,
		      const char *arg)
{
	char *name = unhex_name(hexname), *other = NULL;
	int dfd, status;

	if (!name)
		return 2;
	if (!strcmp(cmd, "rename") && !(other = unhex_name(arg)))
		return 2;
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		return fail();
	if (!strcmp(cmd, "create"))
		status = cmd_create(dfd, name);
	else if (!strcmp(cmd, "mkdir"))
		status = cmd_mkdir(dfd, name);
	else if (!strcmp(cmd, "lookup"))
		status = cmd_lookup(dfd, name);
	else if (!strcmp(cmd, "unlink"))
		status = cmd_unlink(dfd, name);
	else if (!strcmp(cmd, "read"))
		status = cmd_read(dfd, name);
	else if (!strcmp(cmd, "write"))
		status = cmd_write(dfd, name, arg);
	else
		status = cmd_rename(dfd, name, other);
	close(dfd);
	free(name);
	free(other);
	return status;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int status;

	if (argc == 3 && !strcmp(cmd, "setflag"))
		status = cmd_setflag(argv[2]);
	else if (argc == 3 && !strcmp(cmd, "getflags"))
		status = cmd_getflags(argv[2]);
	else if (argc == 3 && !strcmp(cmd, "addkey"))
		status = cmd_addkey(argv[2]);
	else if (argc == 3 && !strcmp(cmd, "encrypt"))
		status = cmd_encrypt(argv[2]);
	else if (argc == 5 && !strcmp(cmd, "fill"))
		status = cmd_series(argv[2], argv[3], argv[4], 1);
	else if (argc == 5 && !strcmp(cmd, "check"))
		status = cmd_series(argv[2], argv[3], argv[4], 0);
	else if (argc == 3 && !strcmp(cmd, "count"))
		status = cmd_count(argv[2]);
	else if (argc == 5 && !strcmp(cmd, "times"))
		status = cmd_times(argv[2], argv[3], argv[4]);
	else if (argc == 3 && !strcmp(cmd, "list"))
		status = cmd_list(argv[2]);
	else if (argc == 4 && !strcmp(cmd, "verify"))
		status = cmd_verify(argv[2], argv[3]);
	else if (argc >= 4 && !strcmp(cmd, "lookups"))
		status = cmd_batch(argv[2], argv + 3, argc - 3, lookup_one, 1);
	else if (argc == 4 && !strcmp(cmd, "creates"))
		status = cmd_batch(argv[2], argv + 3, 1, create_one, 0);
	else if (argc == 4 && (!strcmp(cmd, "create") || !strcmp(cmd, "mkdir") ||
			       !strcmp(cmd, "lookup") || !strcmp(cmd, "unlink") ||
			       !strcmp(cmd, "read")))
		status = run_in_dir(cmd, argv[2], argv[3], NULL);
	else if (argc == 5 && (!strcmp(cmd, "write") || !strcmp(cmd, "rename")))
		status = run_in_dir(cmd, argv[2], argv[3], argv[4]);
	else
		return usage();
	/* A result nobody sees is no result: report a failed stdout. */
	if (fflush(stdout) != 0)
		return 2;
	return status;
}
