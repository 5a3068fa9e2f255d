/* cmd_helpers.c: helpers every command uses: errors, arguments, formats. */
#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <et/com_err.h>

#include "array.h"
#include "debugfs.h"
#include "txnio.h"
#include "hex.h"

void cmd_error(struct session *s, const char *cmd, errcode_t err,
	       const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	com_err_va(cmd, err, fmt, ap);
	va_end(ap);
	s->failed = 1;
}

int cmd_need_writable(struct session *s, const char *cmd)
{
	if (s->writable)
		return 0;
	cmd_error(s, cmd, 0, "the filesystem is open read-only (run with -w)");
	return -1;
}

void cmd_commit(struct session *s, const char *cmd)
{
	errcode_t retval = session_commit(s);

	if (retval == EXT2_ET_JOURNAL_TOO_SMALL)
		cmd_error(s, cmd, 0, "its changes (%zu blocks) do not fit in the "
			  "journal: none of them will be written",
			  e2fold_txn_pending(s->fs));
	else if (retval)
		cmd_error(s, cmd, retval, "while committing to the journal");
}

char **args_begin(int argc, cmd_argv_t argv)
{
	char **copy = calloc(argc + 1, sizeof(*copy));
	int i;

	if (!copy)
		return NULL;
	for (i = 0; i < argc; i++)
		copy[i] = (char *)argv[i];
	/* 0 makes glibc's getopt start over, as each command needs. */
	optind = 0;
	opterr = 1;
	return copy;
}

int parse_exact_args(int argc, char **args, int nargs, int *ret_exact)
{
	int c;

	*ret_exact = 0;
	while ((c = getopt(argc, args, "e")) != -1) {
		if (c != 'e')
			return -1;
		*ret_exact = 1;
	}
	return optind == argc - nargs ? 0 : -1;
}

int dir_name_operands(struct session *s, const char *cmd, int argc,
		      char **args, const char *usage, unsigned char *name,
		      size_t *ret_len, ext2_ino_t *ret_dir)
{
	int exact;

	if (parse_exact_args(argc, args, 2, &exact)) {
		cmd_error(s, cmd, 0, "usage: %s", usage);
		return -1;
	}
	if (arg_bytes(args[optind + 1], name, E2FOLD_NAME_MAX + 1, ret_len) ||
	    *ret_len > E2FOLD_NAME_MAX) {
		cmd_error(s, cmd, 0, "name longer than %d bytes",
			  E2FOLD_NAME_MAX);
		return -1;
	}
	return path_arg(s, cmd, args[optind],
			PATH_FOLLOW | (exact ? PATH_EXACT : 0), ret_dir);
}

int arg_bytes(const char *arg, unsigned char *out, size_t cap,
	      size_t *ret_len)
{
	const unsigned char *p = (const unsigned char *)arg;
	size_t n = 0;

	while (*p) {
		unsigned char byte = *p++;
		int hex;

		if (byte == '\\' && p[0] == '\\') {
			p++;
		} else if (byte == '\\' && p[0] == 'x' &&
			   (hex = e2fold_hex_byte((const char *)p + 1)) >= 0) {
			byte = hex;
			p += 3;
		}
		if (n == cap)
			return -1;
		out[n++] = byte;
	}
	*ret_len = n;
	return 0;
}

const char *esc(int slot, const unsigned char *name, unsigned int len)
{
	static char *bufs[4];
	static size_t caps[4];
	size_t need = E2FOLD_ESCAPED_SIZE(len);

	if (e2fold_array_reserve(&bufs[slot], &caps[slot], need, 1))
		return "(out of memory)";
	return e2fold_escape_name(name, len, bufs[slot], need);
}

void print_typed(FILE *f, const char *line)
{
	const unsigned char *p = (const unsigned char *)line;

	while (*p) {
		size_t n = strcspn((const char *)p, "\\");

		if (n == 0) {
			fputc(*p++, f);
			continue;
		}
		fputs(esc(3, p, n), f);
		p += n;
	}
}

void print_hex(FILE *f, const unsigned char *s, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", s[i]);
}

char *format_seed(const __u32 seed[4], char *buf)
{
	unsigned char b[16];
	int i;

	for (i = 0; i < 4; i++) {
		b[4 * i] = seed[i];
		b[4 * i + 1] = seed[i] >> 8;
		b[4 * i + 2] = seed[i] >> 16;
		b[4 * i + 3] = seed[i] >> 24;
	}
	sprintf(buf, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		"%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5],
		b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
		b[15]);
	return buf;
}

char *format_time(__s64 t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "%lld", (long long)t);
	return buf;
}

__u32 session_now(struct session *s)
{
	return s->fs->now ? (__u32)s->fs->now : (__u32)time(NULL);
}

const char *file_type_name(int file_type)
{
	static const char *const names[] = {
		[EXT2_FT_UNKNOWN] = "?",
		[EXT2_FT_REG_FILE] = "file",
		[EXT2_FT_DIR] = "dir",
		[EXT2_FT_CHRDEV] = "chr",
		[EXT2_FT_BLKDEV] = "blk",
		[EXT2_FT_FIFO] = "fifo",
		[EXT2_FT_SOCK] = "sock",
		[EXT2_FT_SYMLINK] = "link",
	};

	if (file_type < 0 || file_type >= (int)(sizeof(names) / sizeof(names[0])))
		return "?";
	return names[file_type];
}

const char *mode_type_name(__u16 mode)
{
	if (LINUX_S_ISREG(mode))
		return "regular";
	if (LINUX_S_ISDIR(mode))
		return "directory";
	if (LINUX_S_ISLNK(mode))
		return "symlink";
	if (LINUX_S_ISCHR(mode))
		return "character special";
	if (LINUX_S_ISBLK(mode))
		return "block special";
	if (LINUX_S_ISFIFO(mode))
		return "FIFO";
	if (LINUX_S_ISSOCK(mode))
		return "socket";
	return "unknown";
}
