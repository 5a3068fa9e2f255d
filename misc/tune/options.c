/* options.c: e2fold-tune's command line, into struct tune_options. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "encoding.h"
#include "extopts.h"
#include "progress.h"
#include "tune.h"
#include "version.h"

static const char *prog = "e2fold-tune";

static const char synopsis[] =
	"Usage: %s [-O [^]casefold] [-E extended-options] [-n]\n"
	"\t[--casefold PATH]... [--no-casefold PATH]... [--rebuild]\n"
	"\t[-z undo_file] [--report FILE.json] device\n";

static void usage(int status)
{
	if (status) {
		fprintf(stderr, synopsis, prog);
		fprintf(stderr, "(%s --help says more)\n", prog);
		exit(status);
	}
	printf(synopsis, prog);
	printf("\n"
		"  -O casefold        enable casefolding (encoding utf8-12.1)\n"
		"  -O ^casefold       disable it (only if no inode carries the\n"
		"                     casefold flag)\n"
		"  -E OPTIONS         extended options, separated by ',':\n"
		"     encoding=utf8   the same as -O casefold\n"
		"     encoding_flags=FLAG[-FLAG]|none\n"
		"                     set exactly these flags (strict,\n"
		"                     no_compat_fallback), after proving the\n"
		"                     filesystem meets them\n"
		"     collisions=stop|rename\n"
		"                     names equal after casefolding: refuse\n"
		"                     (default), or rename all but the first in\n"
		"                     byte order\n"
		"  --casefold PATH    make the directory PATH and every directory\n"
		"                     below it casefolded\n"
		"  --no-casefold PATH the reverse\n"
		"  --rebuild          with no_compat_fallback: first rebuild the\n"
		"                     directories whose entries are not where\n"
		"                     their hash leads\n"
		"  -n                 say what would be done; write nothing\n"
		"  -z undo_file       save every block before it is overwritten\n"
		"                     (e2undo restores them)\n"
		"  --report FILE.json what was found and changed, as JSON\n"
		"  --progress FD      progress of a conversion as e2fsck -C shows\n"
		"                     it: numbers on descriptor FD, a bar for 0\n"
		"                     (-C is tune2fs's mount count)\n"
		"  -V, --version      print the version and exit\n"
		"  -h, --help         print this help and exit\n\n"
		"Exit status: 0 done, 1 refused (a proof failed), 8 error.\n");
	exit(status);
}

static void push(char ***array, size_t *n, size_t *cap, char *item)
{
	if (e2fold_array_reserve(array, cap, *n + 1, sizeof(**array))) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(TUNE_ERROR);
	}
	(*array)[(*n)++] = item;
}

static void parse_features(struct tune_options *opt, char *arg)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "casefold")) {
			opt->enable_casefold = 1;
		} else if (!strcmp(tok, "^casefold")) {
			opt->disable_casefold = 1;
		} else {
			fprintf(stderr, "%s: -O %s: only casefold can be changed "
				"here (use tune2fs for other features)\n",
				prog, tok);
			exit(TUNE_ERROR);
		}
	}
}

static void parse_extended(struct tune_options *opt, const char *arg)
{
	struct e2fold_extopts ext;
	enum e2fold_collisions collisions;
	size_t i;

	if (e2fold_extopts_split(prog, arg, &ext)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(TUNE_ERROR);
	}
	for (i = 0; i < ext.n; i++) {
		const char *key = ext.opts[i].key, *val = ext.opts[i].value;

		if (!strcmp(key, "encoding") && val) {
			if (!e2fold_encoding_by_name(val)) {
				fprintf(stderr, "%s: -E encoding=%s: unknown "
					"encoding (ext4 knows utf8, utf8-12.1)\n",
					prog, val);
				exit(TUNE_ERROR);
			}
			opt->enable_casefold = 1;
		} else if (!strcmp(key, "encoding_flags") && val) {
			if (e2fold_encoding_flags_arg(prog, val, &opt->flags,
						      &opt->flags_cleared))
				exit(TUNE_ERROR);
			opt->set_flags = 1;
		} else if (!strcmp(key, "collisions") && val) {
			if (e2fold_collisions_arg(prog, val, &collisions))
				exit(TUNE_ERROR);
			opt->rename = collisions == E2FOLD_COLLISIONS_RENAME;
		} else {
			fprintf(stderr, "%s: -E %s: unknown extended option "
				"(known: encoding=, encoding_flags=, "
				"collisions=)\n", prog, key);
			exit(TUNE_ERROR);
		}
	}
	e2fold_extopts_free(&ext);
}

void tune_parse_options(int argc, char **argv, struct tune_options *opt)
{
	static const struct option longopts[] = {
		{ "casefold", required_argument, NULL, 'c' },
		{ "no-casefold", required_argument, NULL, 'u' },
		{ "collisions", required_argument, NULL, 'C' },	/* old spelling */
		{ "rebuild", no_argument, NULL, 'r' },
		{ "dry-run", no_argument, NULL, 'd' },	/* old spelling */
		{ "report", required_argument, NULL, 'R' },
		{ "progress", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opt, 0, sizeof(*opt));
	opt->progress_fd = -1;
	while ((c = getopt_long(argc, argv, "hnO:E:z:V", longopts, NULL)) != -1) {
		switch (c) {
		case 'O':
			parse_features(opt, optarg);
			break;
		case 'E':
			parse_extended(opt, optarg);
			break;
		case 'z':
			opt->undo_file = optarg;
			break;
		case 'c':
			push(&opt->to_casefold, &opt->n_to_casefold,
			     &opt->to_casefold_cap, optarg);
			break;
		case 'u':
			push(&opt->to_plain, &opt->n_to_plain,
			     &opt->to_plain_cap, optarg);
			break;
		case 'C': {
			enum e2fold_collisions collisions;
			char old[64], now[64];

			snprintf(old, sizeof(old), "--collisions %s", optarg);
			snprintf(now, sizeof(now), "-E collisions=%s", optarg);
			e2fold_note_spelling(prog, old, now);
			if (e2fold_collisions_arg(prog, optarg, &collisions))
				exit(TUNE_ERROR);
			opt->rename = collisions == E2FOLD_COLLISIONS_RENAME;
			break;
		}
		case 'r':
			opt->rebuild = 1;
			break;
		case 'd':
			e2fold_note_spelling(prog, "--dry-run", "-n");
			/* fall through */
		case 'n':
			opt->dry_run = 1;
			break;
		case 'R':
			opt->report_file = optarg;
			break;
		case 'P':
			opt->progress_fd = e2fold_progress_parse_fd(optarg);
			if (opt->progress_fd < 0) {
				fprintf(stderr, "%s: --progress %s: not a file "
					"descriptor\n", prog, optarg);
				exit(TUNE_ERROR);
			}
			break;
		case 'V':
			printf("%s\n", e2fold_version_banner(prog));
			exit(TUNE_OK);
		case 'h':
			usage(0);
			break;
		default:
			usage(TUNE_ERROR);
		}
	}
	if (optind != argc - 1)
		usage(TUNE_ERROR);
	if (opt->enable_casefold && opt->disable_casefold) {
		fprintf(stderr, "%s: casefold cannot be both enabled and "
			"disabled\n", prog);
		exit(TUNE_ERROR);
	}
	if (opt->disable_casefold && (opt->set_flags || opt->n_to_casefold)) {
		fprintf(stderr, "%s: -O ^casefold cannot be combined with "
			"encoding flags or --casefold\n", prog);
		exit(TUNE_ERROR);
	}
	if (opt->rebuild && !(opt->set_flags &&
			      (opt->flags & E2FOLD_ENC_NO_COMPAT_FALLBACK_FL))) {
		fprintf(stderr, "%s: --rebuild goes with -E "
			"encoding_flags=...no_compat_fallback (it rebuilds "
			"what that flag needs)\n", prog);
		exit(TUNE_ERROR);
	}
	if (!opt->enable_casefold && !opt->disable_casefold && !opt->set_flags &&
	    !opt->n_to_casefold && !opt->n_to_plain) {
		fprintf(stderr, "%s: nothing to do (see --help)\n", prog);
		exit(TUNE_ERROR);
	}
	opt->device = argv[optind];
}
