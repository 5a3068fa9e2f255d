/*
 * e2fold-debugfs: inspect and edit encoded names on an ext4 image.
 *
 *   e2fold-debugfs [-w] [-R "command"] [-f cmdfile] [-cDin]
 *                  [-b blocksize -s superblock] [-z undo_file]
 *                  [-d data_source] DEVICE|FILE
 *   e2fold-debugfs -V|--version|-h|--help
 *
 * Commands come from -R (one), -f (one per line; "-" is stdin), or the
 * interactive prompt of libss (line editing through readline when libss
 * finds it, "help" and "quit" from its standard requests). The image is
 * opened read-only unless -w is given; editing commands refuse otherwise.
 * Exit status: 0; 1 if a command given with -R or -f failed or the
 * filesystem could not be opened or closed; 2 for a usage error.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ss/ss.h>

#include "debugfs.h"
#include "version.h"

static const char *prog = "e2fold-debugfs";

extern ss_request_table e2fold_cmds;

struct options {
	struct session_how how;	/* -w -c -D -i -d -b -s -z */
	const char *request;	/* -R */
	const char *cmdfile;	/* -f */
	const char *device;
};

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: %s [-w] [-R \"command\"] [-f cmdfile] [-cDin]\n"
		"       [-b blocksize -s superblock] [-z undo_file]\n"
		"       [-d data_source] DEVICE|FILE\n"
		"  -w             open read-write (editing commands need it)\n"
		"  -R command     run one command and exit\n"
		"  -f cmdfile     run the commands in cmdfile (\"-\" for stdin)\n"
		"  -c             catastrophic mode: open a damaged filesystem\n"
		"                 (no MMP, superblock errors ignored)\n"
		"  -D             direct I/O (O_DIRECT)\n"
		"  -b SIZE -s N   use the superblock at block N of SIZE bytes\n"
		"  -z undo_file   save every block overwritten into undo_file\n"
		"                 first (e2undo puts them back)\n"
		"  -i             FILE is an e2image file; -d names the device\n"
		"                 or file its data blocks are read from\n"
		"  -n             accepted: checksum errors are always ignored,\n"
		"                 the commands report them\n"
		"  -V, --version  print the version and exit\n"
		"  -h, --help     print this help and exit\n"
		"Without -R or -f, commands are read at a prompt; \"help\" lists them.\n",
		prog);
	exit(status);
}

/* -b's and -s's number, at most max; a usage error otherwise. */
static unsigned long long parse_number(int letter, unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(optarg, &end, 0);
	if (errno || end == optarg || *end || *optarg == '-' || !v || v > max) {
		fprintf(stderr, "%s: -%c %s: not a valid number\n", prog,
			letter, optarg);
		usage(2);
	}
	return v;
}

static void parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opt, 0, sizeof(*opt));
	opterr = 0;
	while ((c = getopt_long(argc, argv, "wR:f:cDinb:s:z:d:Vh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'w':
			opt->how.writable = 1;
			break;
		case 'c':
			opt->how.flags |= EXT2_FLAG_SKIP_MMP |
				EXT2_FLAG_IGNORE_SB_ERRORS;
			break;
		case 'D':
			opt->how.flags |= EXT2_FLAG_DIRECT_IO;
			break;
		case 'i':
			opt->how.flags |= EXT2_FLAG_IMAGE_FILE;
			break;
		case 'n':
			/* Ours always; kept for the system debugfs (sif, ssv). */
			opt->how.flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
			break;
		case 'b':
			opt->how.block_size = parse_number(c, 1U << 16);
			break;
		case 's':
			opt->how.superblock = parse_number(c, ~0ULL);
			break;
		case 'z':
			opt->how.undo_file = optarg;
			break;
		case 'd':
			opt->how.data_source = optarg;
			break;
		case 'R':
			opt->request = optarg;
			break;
		case 'f':
			opt->cmdfile = optarg;
			break;
		case 'V':
			printf("%s\n", e2fold_version_banner(prog));
			exit(0);
		case 'h':
			usage(0);
			break;
		default:
			if (!optopt)
				fprintf(stderr, "%s: unknown option %s\n", prog,
					argv[optind - 1]);
			else
				fprintf(stderr, strchr("Rfbszd", optopt) ?
					"%s: option -%c needs an argument\n" :
					"%s: unknown option -%c\n", prog, optopt);
			usage(2);
		}
	}
	if (optind != argc - 1)
		usage(2);
	if (opt->how.superblock && !opt->how.block_size) {
		fprintf(stderr, "%s: -s needs the block size (-b) too\n", prog);
		usage(2);
	}
	if (opt->how.data_source && !(opt->how.flags & EXT2_FLAG_IMAGE_FILE)) {
		fprintf(stderr, "%s: -d names the data of an e2image file: it "
			"needs -i\n", prog);
		usage(2);
	}
	if (opt->request && opt->cmdfile) {
		fprintf(stderr, "%s: -R and -f cannot be combined\n", prog);
		usage(2);
	}
	opt->device = argv[optind];
}

/* Run one command line; a failure marks the session failed. */
static void execute(struct session *s, int sci_idx, char *line)
{
	int code;

	/* getopt and libss write to stderr: keep what came before first. */
	fflush(stdout);
	code = ss_execute_line(sci_idx, line);
	fflush(stdout);
	if (code == SS_ET_COMMAND_NOT_FOUND) {
		/* The line's first word, as libss saw it. */
		size_t start = strspn(line, " \t");
		size_t n = strcspn(line + start, " \t");

		fprintf(stderr, "%s: %s: command not found\n", prog,
			esc(0, (const unsigned char *)line + start, n));
		s->failed = 1;
	} else if (code) {
		com_err(prog, code, "while running the command");
		s->failed = 1;
	}
}

/* -f: each line echoed after the prompt, then run; '#' lines are comments. */
static int run_cmdfile(struct session *s, int sci_idx, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0 || line[strspn(line, " \t")] == '#' ||
		    line[strspn(line, " \t")] == '\0')
			continue;
		printf("%s: ", prog);
		print_typed(stdout, line);
		putchar('\n');
		execute(s, sci_idx, line);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return 0;
}

static int run(struct session *s, const struct options *opt)
{
	int sci_idx, code;
	char *line;

	sci_idx = ss_create_invocation(prog, PACKAGE_VERSION, s, &e2fold_cmds,
				       &code);
	if (code) {
		com_err(prog, code, "while creating the command interpreter");
		return -1;
	}
	ss_add_request_table(sci_idx, &ss_std_requests, 1, &code);
	if (code) {
		com_err(prog, code, "while adding the standard requests");
		ss_delete_invocation(sci_idx);
		return -1;
	}
	if (opt->request) {
		line = strdup(opt->request);
		if (!line) {
			ss_delete_invocation(sci_idx);
			return -1;
		}
		execute(s, sci_idx, line);
		free(line);
	} else if (opt->cmdfile) {
		if (run_cmdfile(s, sci_idx, opt->cmdfile))
			s->failed = 1;
	} else {
		ss_get_readline(sci_idx);
		ss_listen(sci_idx);
	}
	ss_delete_invocation(sci_idx);
	return 0;
}

int main(int argc, char **argv)
{
	struct options opt;
	struct session s;
	errcode_t retval;
	int status;

	add_error_table(&et_ext2_error_table);
	parse_options(argc, argv, &opt);
	retval = session_open_how(&s, opt.device, &opt.how);
	if (retval) {
		com_err(prog, retval, "while opening %s", opt.device);
		return 1;
	}
	status = run(&s, &opt) ? 1 : 0;
	fflush(stdout);
	retval = session_close(&s);
	if (retval) {
		com_err(prog, retval, "while closing %s", opt.device);
		status = 1;
	}
	if (s.failed && (opt.request || opt.cmdfile))
		status = 1;
	return status;
}
