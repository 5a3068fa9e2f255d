/*
 * lookup_command.c: the lookup command, which entry the kernel finds for
 * a name and why.
 *
 *   lookup [-e] DIR NAME
 *
 * Prints the name as the kernel prepares it (its casefolded bytes), its
 * hash and the leaf that leads to, the entry found and the rule that
 * matched it, the path the search took, and every other entry the name
 * matches (duplicates). -e resolves DIR by exact bytes; NAME is always
 * looked up as the kernel would.
 */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "debugfs.h"
#include "lookup.h"

static void print_dirent(const struct e2fold_dirent *e)
{
	printf("\"%s\" inode %u (block %llu, offset %u)",
	       esc(1, e->name, e->name_len), e->ino,
	       (unsigned long long)e->lblk, e->offset);
}

static void print_prepared(const struct e2fold_lookup *lk)
{
	if (lk->exact)
		printf("  compared: byte for byte (-e)\n");
	else if (lk->encrypted)
		printf("  compared: byte for byte (encrypted: names are "
		       "ciphertext without the key)\n");
	else if (!lk->casefolded)
		printf("  compared: byte for byte (not casefolded)\n");
	else if (lk->folded_ok) {
		printf("  casefolded: \"%s\" (", esc(1, lk->folded,
						     lk->folded_len));
		print_hex(stdout, lk->folded, lk->folded_len);
		printf(")\n");
	} else {
		printf("  casefolded: none (not valid UTF-8, or too long): "
		       "compared as given\n");
	}
	if (lk->strict_refused)
		printf("  refused: the filesystem is strict and the name is not "
		       "valid UTF-8 (EINVAL)\n");
}

static void print_hash(const struct e2fold_dir *d,
		       const struct e2fold_lookup *lk)
{
	size_t i;

	if (!lk->hashed)
		return;
	printf("  hash: 0x%08x minor 0x%08x (%s)", lk->hash, lk->minor_hash,
	       e2fold_hash_alg_name(lk->hash_version));
	if (lk->path == E2FOLD_LOOKUP_HTREE || lk->path == E2FOLD_LOOKUP_FALLBACK) {
		printf(" -> leaf block");
		for (i = 0; i < lk->nleaves; i++)
			printf("%s %llu", i ? "," : "",
			       (unsigned long long)d->leaves[lk->first_leaf + i].lblk);
	}
	putchar('\n');
}

static void print_result(struct session *s, const struct e2fold_lookup *lk)
{
	if (lk->strict_refused) {
		printf("  not found: the kernel refuses the name\n");
		return;
	}
	printf("  search: %s\n", e2fold_lookup_path_text(lk->path));
	if (lk->found) {
		printf("  found: ");
		print_dirent(lk->found);
		printf(", %s\n", e2fold_match_rule_text(lk->rule));
		if (lk->path == E2FOLD_LOOKUP_FALLBACK)
			printf("  note: the entry is not in the leaf its name's "
			       "hash leads to; Linux 6.1 does not find it\n");
		return;
	}
	printf("  not found\n");
	if (lk->misplaced) {
		printf("  but a linear scan finds ");
		print_dirent(lk->misplaced);
		printf(": not in the leaf its hash leads to, and %s\n",
		       s->fs->super->s_encoding_flags &
		       E2FOLD_ENC_NO_COMPAT_FALLBACK_FL ?
		       "no_compat_fallback turns the fallback off" :
		       "this kernel does no fallback");
	}
}

/* Every entry the name matches besides the one found. */
static void print_others(struct session *s, const struct e2fold_dir *d,
			 const struct e2fold_lookup *lk)
{
	size_t i;

	if (lk->strict_refused)
		return;
	for (i = 0; i < d->nents; i++) {
		const struct e2fold_dirent *e = &d->ents[i];
		enum e2fold_match_rule rule;

		if (e == lk->found || e == lk->misplaced)
			continue;
		rule = e2fold_lookup_match(s->um, lk, e);
		if (rule == E2FOLD_MATCH_NONE)
			continue;
		printf("  also matches: ");
		print_dirent(e);
		printf(", %s\n", e2fold_match_rule_text(rule));
	}
}

/* The same description of the directory ls and htree_dump give. */
static void print_directory(struct session *s, ext2_ino_t ino)
{
	struct dir_view v;

	printf("  directory: ");
	if (dir_view_open(s, ino, &v)) {
		printf("inode %u\n", ino);
		return;
	}
	dir_view_describe(s, &v, stdout);
	dir_view_close(&v);
}

int lookup_prepare(struct session *s, const char *cmd, ext2_ino_t ino,
		   const unsigned char *name, size_t len,
		   struct e2fold_dir **ret_dir, struct e2fold_lookup **ret_lk)
{
	errcode_t retval;

	*ret_dir = NULL;
	*ret_lk = malloc(sizeof(**ret_lk));
	if (!*ret_lk) {
		cmd_error(s, cmd, EXT2_ET_NO_MEMORY, "while looking up");
		return -1;
	}
	retval = e2fold_dir_read(s->fs, ino, ret_dir);
	if (retval) {
		cmd_error(s, cmd, retval, "while reading inode %u", ino);
		return -1;
	}
	retval = e2fold_lookup(s->fs, s->um, *ret_dir, name, len, 0, *ret_lk);
	if (retval) {
		cmd_error(s, cmd, retval, "while looking up %s", esc(0, name, len));
		return -1;
	}
	return 0;
}

static void lookup_in(struct session *s, const char *cmd, ext2_ino_t ino,
		      const char *dir_arg, const unsigned char *name,
		      size_t len)
{
	struct e2fold_lookup *lk;
	struct e2fold_dir *d;

	if (!lookup_prepare(s, cmd, ino, name, len, &d, &lk)) {
		printf("lookup \"%s\" in %s\n", esc(0, name, len),
		       esc(1, (const unsigned char *)dir_arg, strlen(dir_arg)));
		print_directory(s, ino);
		print_prepared(lk);
		print_hash(d, lk);
		print_result(s, lk);
		print_others(s, d, lk);
	}
	e2fold_dir_free(d);
	free(lk);
}

DEBUGFS_CMD(do_lookup)
{
	struct session *s = infop;
	char **args = args_begin(argc, argv);
	unsigned char name[E2FOLD_NAME_MAX + 1];
	ext2_ino_t ino;
	size_t len;

	if (!args)
		return;
	if (!dir_name_operands(s, argv[0], argc, args,
			       "lookup [-e] DIR NAME", name, &len, &ino))
		lookup_in(s, argv[0], ino, args[optind], name, len);
	free(args);
}
