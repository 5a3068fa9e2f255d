/*
 * e2fold-utf8: the engine on the command line.
 *
 *   e2fold-utf8 fold|norm|valid|cmp|hash [--unicode VERSION] [--hex]
 *               [--seed UUID] [--hash ALG] [NAME...]
 *   e2fold-utf8 scan [--unicode VERSION] [--strict] [--json] PATH...
 *
 * Names come from the arguments, or one per line from stdin. Each gets
 * one output line; an engine error prints "invalid". fold, norm and hash
 * exit 0 when all input was processed, 1 on a usage error or unreadable
 * input. cmp and valid answer with their status too, as cmp(1) does: 0
 * every pair equal (every name valid), 1 a pair different (a name
 * invalid), 2 trouble: a usage error, unreadable input, or a pair that
 * cannot be compared because a name is not valid UTF-8.
 *
 * scan (utf8_scan.c) exits as grep does, since 1 is its answer: 0 nothing
 * found, 1 collisions or invalid names found, 2 any error, usage errors
 * included.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "encoding.h"
#include "hashalg.h"
#include "hex.h"
#include "progress.h"
#include "unicode.h"
#include "utf8_scan.h"
#include "version.h"

static const char *prog = "e2fold-utf8";

enum command { CMD_FOLD, CMD_NORM, CMD_VALID, CMD_CMP, CMD_HASH, CMD_SCAN };

/* Options, as bits, to refuse those that do not apply to the command. */
enum {
	OPT_HEX = 1 << 0,
	OPT_SEED = 1 << 1,
	OPT_HASH = 1 << 2,
	OPT_STRICT = 1 << 3,
	OPT_JSON = 1 << 4,
	OPT_PROGRESS = 1 << 5,
};
#define SCAN_ONLY_OPTS (OPT_STRICT | OPT_JSON | OPT_PROGRESS)
#define SCAN_OPTS (SCAN_ONLY_OPTS | OPT_HEX)

/* cmp and valid: cmp(1)'s exit statuses. */
enum { ANSWER_SAME = 0, ANSWER_DIFFERENT = 1, ANSWER_TROUBLE = 2 };

struct options {
	enum command cmd;
	int fail_status;	/* the exit status of a usage error */
	unsigned int given;	/* OPT_* seen */
	const char *unicode;
	int hex;
	int hash_version;
	__u32 seed[4];
	int have_seed;
	int strict, json;	/* scan */
	int progress_fd;	/* scan -C: -1 none */
};

/* A name as bytes. */
struct name {
	unsigned char *bytes;
	size_t len;
};

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: %s COMMAND [options] [NAME...]\n"
		"commands:\n"
		"  fold    the casefolded (NFDiCF) form of each name\n"
		"  norm    the normalized (NFDi) form of each name\n"
		"  valid   'valid' or 'invalid' (as strict mode decides); exit 0\n"
		"          if all are valid, 1 if one is not\n"
		"  cmp     compare names in pairs: 'equal', 'different', 'invalid';\n"
		"          exit 0 if all are equal, 1 if a pair differs, 2 if\n"
		"          one cannot be compared\n"
		"  hash    the ext4 htree hash and minor hash of each name in a\n"
		"          casefolded directory\n"
		"  scan    %s scan [--unicode VERSION] [--strict] [--json] [--hex]\n"
		"          [-C FD] PATH...\n"
		"          walk the trees; report the names that would collide in\n"
		"          a casefolded ext4 directory (exit 1 if any, 2 on errors)\n"
		"options:\n"
		"  --unicode VERSION  Unicode version (default 12.1, ext4's utf8)\n"
		"  --hex              names and results in hex (scan: each name's\n"
		"                     bytes in hex after it)\n"
		"  --seed UUID        hash seed (default: the all-zero default seed)\n"
		"  --hash ALG         half_md4 (default), tea, legacy, or one of\n"
		"                     them with _signed or _unsigned\n"
		"  --strict           scan: the filesystem is strict; report invalid\n"
		"                     UTF-8 names as refused\n"
		"  --json             scan: the report as one JSON document\n"
		"  -C, --progress FD  scan: progress as e2fsck -C shows it, numbers\n"
		"                     on descriptor FD, or a bar for 0\n"
		"  -V, --version      print the version\n"
		"Without NAME, names are read from stdin, one per line.\n",
		prog, prog);
	exit(status);
}

/* A usage error: its message was said; a pointer to --help, not the text. */
static void usage_error(int status)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	exit(status);
}

static int parse_command(const char *word, enum command *ret)
{
	static const struct {
		const char *word;
		enum command cmd;
	} commands[] = {
		{ "fold", CMD_FOLD }, { "norm", CMD_NORM },
		{ "valid", CMD_VALID }, { "cmp", CMD_CMP },
		{ "hash", CMD_HASH }, { "scan", CMD_SCAN },
	};
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(word, commands[i].word)) {
			*ret = commands[i].cmd;
			return 0;
		}
	}
	return -1;
}

/*
 * Decode hex (spaces allowed between bytes) in place; -1 if malformed,
 * with the name untouched, so the error message shows what was given.
 */
static int unhex(struct name *nm)
{
	size_t in, out = 0, digits = 0;

	for (in = 0; in < nm->len; in++) {
		if (nm->bytes[in] == ' ' || nm->bytes[in] == '\t') {
			if (digits % 2)
				return -1;	/* a space inside a byte */
			continue;
		}
		if (e2fold_hex_digit(nm->bytes[in]) < 0)
			return -1;
		digits++;
	}
	if (digits % 2)
		return -1;
	for (in = 0; in < nm->len; in++) {
		if (nm->bytes[in] == ' ' || nm->bytes[in] == '\t')
			continue;
		nm->bytes[out++] = e2fold_hex_digit(nm->bytes[in]) << 4 |
				   e2fold_hex_digit(nm->bytes[in + 1]);
		in++;
	}
	nm->len = out;
	return 0;
}

/* The given text of a name, bytes outside printable ASCII as \xHH. */
static void print_escaped(FILE *f, const unsigned char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\')
			fputc(s[i], f);
		else
			fprintf(f, "\\x%02X", s[i]);
	}
}

static void print_bytes(const struct options *opt, const unsigned char *s,
			size_t len)
{
	size_t i;

	if (opt->hex) {
		for (i = 0; i < len; i++)
			printf("%s%02x", i ? " " : "", s[i]);
	} else {
		fwrite(s, 1, len, stdout);
	}
	putchar('\n');
}

/* What cmp or valid answered (ANSWER_*); 0 for the other commands. */
static int run_one(const struct options *opt, const struct unicode_map *um,
		   const struct name *nm, const struct name *other)
{
	int answer = ANSWER_SAME;
	/* A form is at most a few times longer than its name; be generous. */
	size_t size = 64 * nm->len + 64;
	unsigned char *out = malloc(size);
	struct qstr q = { nm->bytes, (unsigned int)nm->len };
	int n;

	if (!out) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(1);
	}
	switch (opt->cmd) {
	case CMD_FOLD:
	case CMD_NORM:
		n = opt->cmd == CMD_FOLD ?
			utf8_casefold(um, &q, out, size) :
			utf8_normalize(um, &q, out, size);
		if (n < 0)
			puts("invalid");
		else
			print_bytes(opt, out, n);
		break;
	case CMD_VALID:
		if (utf8_validate(um, &q))
			answer = ANSWER_DIFFERENT;
		puts(answer ? "invalid" : "valid");
		break;
	case CMD_CMP: {
		struct qstr q2 = { other->bytes, (unsigned int)other->len };

		n = utf8_strncasecmp(um, &q, &q2);
		answer = n < 0 ? ANSWER_TROUBLE : n ? ANSWER_DIFFERENT :
			 ANSWER_SAME;
		puts(n < 0 ? "invalid" : n ? "different" : "equal");
		break;
	}
	case CMD_HASH: {
		ext2_dirhash_t hash, minor;

		if (e2fold_casefold_dirhash(um, opt->hash_version, nm->bytes,
					    nm->len, opt->have_seed ?
					    opt->seed : NULL, &hash, &minor))
			puts("invalid");
		else
			printf("0x%08x 0x%08x\n", hash, minor);
		break;
	}
	case CMD_SCAN:		/* main() hands it to utf8_scan() */
		break;
	}
	free(out);
	return answer;
}

/* Read one line of stdin into nm (without its newline); 0 at EOF. */
static int read_line(struct name *nm, size_t *cap)
{
	ssize_t n = getline((char **)&nm->bytes, cap, stdin);

	if (n < 0)
		return 0;
	if (n > 0 && nm->bytes[n - 1] == '\n')
		n--;
	nm->len = n;
	return 1;
}

static int next_name(const struct options *opt, char ***argv, int use_stdin,
		     struct name *nm, size_t *cap, unsigned long *lineno)
{
	if (use_stdin) {
		if (!read_line(nm, cap))
			return 0;
	} else {
		size_t len;

		if (!**argv)
			return 0;
		len = strlen(**argv);
		if (e2fold_array_reserve(&nm->bytes, cap, len + 1, 1)) {
			fprintf(stderr, "%s: out of memory\n", prog);
			exit(8);
		}
		memcpy(nm->bytes, **argv, len);
		nm->len = len;
		(*argv)++;
	}
	(*lineno)++;
	if (opt->hex && unhex(nm)) {
		fprintf(stderr, "%s: name %lu: not hex: ", prog, *lineno);
		print_escaped(stderr, nm->bytes, nm->len);
		fputc('\n', stderr);
		exit(opt->fail_status);
	}
	return 1;
}

/* Refuse options the command does not use, and a scan of nothing. */
static void check_options_apply(const struct options *opt, int have_operands)
{
	unsigned int wrong = opt->cmd == CMD_SCAN ?
		opt->given & ~SCAN_OPTS : opt->given & SCAN_ONLY_OPTS;

	if (wrong) {
		fprintf(stderr, "%s: %s applies only to %s\n", prog,
			wrong & OPT_SEED ? "--seed" : wrong & OPT_PROGRESS ? "-C" :
			wrong & OPT_HASH ? "--hash" : wrong & OPT_STRICT ?
			"--strict" : "--json",
			opt->cmd == CMD_SCAN ? "the name commands" : "scan");
		usage_error(opt->fail_status);
	}
	if (opt->json && opt->progress_fd == 0) {
		fprintf(stderr, "%s: -C 0 draws on standard output, which "
			"--json writes: give another descriptor\n", prog);
		usage_error(opt->fail_status);
	}
	if (opt->cmd == CMD_SCAN && !have_operands) {
		fprintf(stderr, "%s: scan: no PATH given\n", prog);
		usage_error(opt->fail_status);
	}
}

static void parse_options(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "unicode", required_argument, NULL, 'u' },
		{ "hex", no_argument, NULL, 'x' },
		{ "seed", required_argument, NULL, 's' },
		{ "hash", required_argument, NULL, 'h' },
		{ "strict", no_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "progress", required_argument, NULL, 'C' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opt, 0, sizeof(*opt));
	opt->unicode = "12.1";
	opt->hash_version = EXT2_HASH_HALF_MD4;
	opt->progress_fd = -1;
	if (argc < 2) {
		fprintf(stderr, "%s: no command given\n", prog);
		usage_error(1);
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("%s\n", e2fold_version_banner(prog));
		exit(0);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		usage(0);
	if (parse_command(argv[1], &opt->cmd)) {
		fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[1]);
		usage_error(1);
	}
	opt->fail_status = opt->cmd == CMD_SCAN ? UTF8_SCAN_ERROR :
			   opt->cmd == CMD_CMP || opt->cmd == CMD_VALID ?
			   ANSWER_TROUBLE : 1;
	optind = 2;
	while ((c = getopt_long(argc, argv, "VC:", longopts, NULL)) != -1) {
		switch (c) {
		case 'u':
			opt->unicode = optarg;
			break;
		case 'x':
			opt->hex = 1;
			opt->given |= OPT_HEX;
			break;
		case 's':
			if (e2fold_parse_hash_seed(optarg, opt->seed)) {
				fprintf(stderr, "%s: --seed %s: not a UUID\n",
					prog, optarg);
				exit(opt->fail_status);
			}
			opt->have_seed = 1;
			opt->given |= OPT_SEED;
			break;
		case 'h':
			/* A bare name is signed: there is no filesystem. */
			if (e2fold_hash_alg_parse(optarg, &opt->hash_version,
						  NULL)) {
				fprintf(stderr, "%s: --hash %s: unknown algorithm\n",
					prog, optarg);
				exit(opt->fail_status);
			}
			if (opt->hash_version == EXT2_HASH_SIPHASH) {
				fprintf(stderr, "%s: --hash %s: SipHash is keyed "
					"with a directory's encryption key, which "
					"is not given here\n", prog, optarg);
				exit(opt->fail_status);
			}
			opt->given |= OPT_HASH;
			break;
		case 'S':
			opt->strict = 1;
			opt->given |= OPT_STRICT;
			break;
		case 'j':
			opt->json = 1;
			opt->given |= OPT_JSON;
			break;
		case 'C':
			opt->progress_fd = e2fold_progress_parse_fd(optarg);
			if (opt->progress_fd < 0) {
				fprintf(stderr, "%s: -C %s: not a file "
					"descriptor\n", prog, optarg);
				usage_error(opt->fail_status);
			}
			opt->given |= OPT_PROGRESS;
			break;
		case 'V':
			printf("%s\n", e2fold_version_banner(prog));
			exit(0);
		case 'H':
			usage(0);
			break;
		default:	/* getopt said what was wrong */
			usage_error(opt->fail_status);
		}
	}
	check_options_apply(opt, argv[optind] != NULL);
}

int main(int argc, char **argv)
{
	struct options opt;
	struct unicode_map *um;
	struct name nm = { NULL, 0 }, other = { NULL, 0 };
	size_t cap = 0, other_cap = 0;
	unsigned long lineno = 0;
	char **names;
	int use_stdin, status = 0, answer = ANSWER_SAME, n;

	parse_options(argc, argv, &opt);
	names = argv + optind;
	use_stdin = !*names;
	um = utf8_load(opt.unicode);
	if (!um) {
		fprintf(stderr, "%s: --unicode %s: %s (supported: 1.1 to %s)\n",
			prog, opt.unicode,
			errno == EINVAL ? "not a supported Unicode version" :
			strerror(errno), utf8version_latest());
		return opt.fail_status;
	}
	if (opt.cmd == CMD_SCAN) {
		struct utf8_scan_options so = {
			.um = um, .strict = opt.strict, .json = opt.json,
			.hex = opt.hex, .progress_fd = opt.progress_fd,
		};

		status = utf8_scan(&so, names);
		utf8_unload(um);
		return status;
	}
	while (next_name(&opt, &names, use_stdin, &nm, &cap, &lineno)) {
		if (opt.cmd == CMD_CMP &&
		    !next_name(&opt, &names, use_stdin, &other, &other_cap,
			       &lineno)) {
			fprintf(stderr, "%s: cmp: name %lu has no partner\n",
				prog, lineno);
			status = opt.fail_status;
			break;
		}
		n = run_one(&opt, um, &nm, &other);
		if (n > answer)
			answer = n;
	}
	if (ferror(stdin)) {
		fprintf(stderr, "%s: reading stdin: %s\n", prog, strerror(errno));
		status = opt.fail_status;
	}
	free(nm.bytes);
	free(other.bytes);
	utf8_unload(um);
	if (fflush(stdout)) {
		fprintf(stderr, "%s: writing output: %s\n", prog, strerror(errno));
		status = opt.fail_status;
	}
	return status ? status : answer;
}
