/*
 * passthrough.c: commands where e2fold has nothing to add, handed to
 * the system's debugfs.
 *
 *   set_inode_field, sif INODE FIELD VALUE
 *   set_super_value, ssv FIELD VALUE
 *   (and "-l", which lists the fields, as debugfs's do)
 *   and the rest of debugfs 1.47's commands (e2fold_cmds.ct): those
 *   that read, those that write, and lcd; those that keep state
 *   between requests are refused, saying why.
 *
 * The request runs as `debugfs -w -R "REQUEST" DEVICE`. Before it, the
 * session is closed: what earlier commands wrote is committed through
 * the journal and checkpointed (e2fold_txn_close), so debugfs finds a
 * filesystem with nothing pending and needs_recovery clear, and the
 * image lock is released. After it, the session is opened again, so
 * that no later command works on a stale copy of the superblock,
 * descriptors, bitmaps or inodes; the current directory is kept. sif's
 * INODE, unless given as <N>, is a path found as every path of ours is
 * (from the current directory, casefolded where the directory is) and
 * handed on as <N>.
 *
 * debugfs reports a bad request on stderr but exits 0: anything it says
 * there beyond its version banner counts as the command's failure.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "debugfs.h"

/* The system tool; E2FOLD_SYSTEM_DEBUGFS names another (tests). */
static const char *system_debugfs(void)
{
	const char *p = getenv("E2FOLD_SYSTEM_DEBUGFS");

	return p && *p ? p : "debugfs";
}

/*
 * argv as one libss request line: an argument with blanks or quotes, or
 * an empty one, in double quotes, a quote inside doubled. Free it.
 */
static char *request_line(int argc, cmd_argv_t argv)
{
	size_t cap = 1;
	char *line, *p;
	int i;

	for (i = 0; i < argc; i++)
		cap += 2 * strlen(argv[i]) + 3;
	line = p = malloc(cap);
	if (!line)
		return NULL;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		int quote = !*a || strpbrk(a, " \t\"") != NULL;

		if (i)
			*p++ = ' ';
		if (quote)
			*p++ = '"';
		for (; *a; a++) {
			if (*a == '"')
				*p++ = '"';
			*p++ = *a;
		}
		if (quote)
			*p++ = '"';
	}
	*p = '\0';
	return line;
}

/* Forward what debugfs says on err_fd, less its banner; 1 if it said more. */
static int forward_errors(int err_fd)
{
	FILE *f = fdopen(err_fd, "r");
	char buf[1024];
	int said = 0, first = 1;

	if (!f) {
		close(err_fd);
		return 0;
	}
	while (fgets(buf, sizeof(buf), f)) {
		if (first && !strncmp(buf, "debugfs ", 8)) {
			first = 0;
			continue;
		}
		first = 0;
		fputs(buf, stderr);
		said = 1;
	}
	fclose(f);
	return said;
}

/*
 * Run debugfs [-w] -R line device, opened as the session is (-c -D -n
 * -i -d -b -s); 0, or an error to report.
 */
static errcode_t run_debugfs(const struct session *s, const char *line,
			     int writable, int *ret_said)
{
	const struct session_how *how = &s->how;
	const char *argv[16];
	char block_size[16], superblock[24];
	int pipefd[2], status, n = 0;
	pid_t pid;

	argv[n++] = system_debugfs();
	if (writable)
		argv[n++] = "-w";
	if (how->flags & EXT2_FLAG_SKIP_MMP)
		argv[n++] = "-c";
	if (how->flags & EXT2_FLAG_DIRECT_IO)
		argv[n++] = "-D";
	if (how->flags & EXT2_FLAG_IGNORE_CSUM_ERRORS)
		argv[n++] = "-n";
	if (how->flags & EXT2_FLAG_IMAGE_FILE)
		argv[n++] = "-i";
	if (how->data_source) {
		argv[n++] = "-d";
		argv[n++] = how->data_source;
	}
	if (how->superblock) {
		snprintf(block_size, sizeof(block_size), "%u", how->block_size);
		snprintf(superblock, sizeof(superblock), "%llu",
			 (unsigned long long)how->superblock);
		argv[n++] = "-b";
		argv[n++] = block_size;
		argv[n++] = "-s";
		argv[n++] = superblock;
	}
	argv[n++] = "-R";
	argv[n++] = line;
	argv[n++] = s->device;
	argv[n] = NULL;

	fflush(stdout);
	fflush(stderr);
	if (pipe(pipefd))
		return errno;
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return errno;
	}
	if (!pid) {
		close(pipefd[0]);
		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[1]);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(pipefd[1]);
	*ret_said = forward_errors(pipefd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return EXT2_ET_OP_NOT_SUPPORTED;
	if (WEXITSTATUS(status))
		*ret_said = 1;
	return 0;
}

/*
 * Close, run the request (read-write if writable), open again; the
 * session's state kept.
 */
static void hand_over(struct session *s, const char *cmd, const char *line,
		      int writable)
{
	const char *device = s->device;
	struct session_how how = s->how;
	ext2_ino_t cwd = s->cwd;
	int failed = s->failed, said = 0;
	errcode_t retval;

	retval = session_close(s);
	if (retval) {
		cmd_error(s, cmd, retval, "while committing before %s",
			  system_debugfs());
		failed = 1;
	} else {
		retval = run_debugfs(s, line, writable, &said);
		if (retval)
			cmd_error(s, cmd, retval, "while running %s",
				  system_debugfs());
	}
	failed |= retval || said;
	retval = session_open_how(s, device, &how);
	if (retval) {
		com_err(cmd, retval, "while opening %s again: stopping", device);
		exit(EXIT_FAILURE);
	}
	s->failed = failed;
	if (!ext2fs_check_directory(s->fs, cwd))
		s->cwd = cwd;
}

/*
 * argv, its inode argument (inode_arg: 0 for none) made <N> by our own
 * path lookup; as request_line, or NULL after reporting.
 */
static char *request_with_inode(struct session *s, int argc, cmd_argv_t argv,
				int inode_arg)
{
	const char *copy[8];
	char number[16];
	ext2_ino_t ino;
	int i;

	if (!inode_arg || argv[inode_arg][0] == '<' || argc > 8)
		return request_line(argc, argv);
	if (path_arg(s, argv[0], argv[inode_arg], 0, &ino))
		return NULL;
	snprintf(number, sizeof(number), "<%u>", ino);
	for (i = 0; i < argc; i++)
		copy[i] = i == inode_arg ? number : argv[i];
	return request_line(argc, (cmd_argv_t)copy);
}

/*
 * Run line in the system debugfs. One that writes needs -w, is refused
 * with -z (debugfs would change blocks our undo file does not hold) and
 * runs on the closed session. One that reads runs beside a read-only
 * session; a writable one is closed first, so that debugfs finds what
 * earlier commands wrote checkpointed, not pending in the journal.
 */
static void run_system(struct session *s, const char *cmd, const char *line,
		       int writes)
{
	int said = 0;
	errcode_t retval;

	if (writes && s->how.undo_file) {
		cmd_error(s, cmd, 0, "not done: with -z, the system debugfs "
			  "would change the filesystem without saving the "
			  "blocks in %s", s->how.undo_file);
		return;
	}
	if (writes && cmd_need_writable(s, cmd))
		return;
	if (s->writable) {
		hand_over(s, cmd, line, writes);
		return;
	}
	retval = run_debugfs(s, line, 0, &said);
	if (retval)
		cmd_error(s, cmd, retval, "while running %s", system_debugfs());
	s->failed |= said;
}

static void pass_through(struct session *s, int argc, cmd_argv_t argv,
			 int nargs, int inode_arg, const char *usage)
{
	int list = argc == 2 && !strcmp(argv[1], "-l"), said = 0;
	char *line;
	errcode_t retval;

	if (!list && argc != nargs + 1) {
		cmd_error(s, argv[0], 0, "usage: %s", usage);
		return;
	}
	line = request_with_inode(s, argc, argv, list ? 0 : inode_arg);
	if (!line)
		return;
	if (list) {
		/* Lists only: the session stays open. */
		retval = run_debugfs(s, line, 0, &said);
		if (retval)
			cmd_error(s, argv[0], retval, "while running %s",
				  system_debugfs());
		s->failed |= said;
	} else {
		run_system(s, argv[0], line, 1);
	}
	free(line);
}

DEBUGFS_CMD(do_set_inode_field)
{
	pass_through(infop, argc, argv, 3, 1,
		     "set_inode_field INODE FIELD VALUE | -l");
}

DEBUGFS_CMD(do_set_super_value)
{
	pass_through(infop, argc, argv, 2, 0, "set_super_value FIELD VALUE | -l");
}

/*
 * The commands of debugfs 1.47 where e2fold has nothing to add, handed
 * over as typed: their paths are debugfs's, from the root directory and
 * byte for byte (e2fold's cd does not reach them).
 */
static void system_request(struct session *s, int argc, cmd_argv_t argv,
			   int writes)
{
	char *line = request_line(argc, argv);

	if (!line) {
		cmd_error(s, argv[0], ENOMEM, "while running %s",
			  system_debugfs());
		return;
	}
	run_system(s, argv[0], line, writes);
	free(line);
}

DEBUGFS_CMD(do_system_read)
{
	system_request(infop, argc, argv, 0);
}

DEBUGFS_CMD(do_system_write)
{
	system_request(infop, argc, argv, 1);
}

/* feature lists without arguments and sets with; bmap -a allocates. */
DEBUGFS_CMD(do_system_maybe_write)
{
	int writes = strcmp(argv[0], "bmap") ? argc > 1 :
		argc > 1 && !strcmp(argv[1], "-a");

	system_request(infop, argc, argv, writes);
}

/*
 * debugfs's commands that keep state between requests of one debugfs
 * (another filesystem open, a root of its own, a journal transaction,
 * an extent cursor, the clock): a request handed to a new debugfs each
 * time cannot keep it.
 */
DEBUGFS_CMD(do_system_stateful)
{
	cmd_error(infop, argv[0], 0, "not available: it keeps state between "
		  "commands of one debugfs session; run the system debugfs "
		  "(e2fold-debugfs has nothing to add there)");
}

/* lcd DIR: the directory local paths (dump, rdump, write) start from. */
DEBUGFS_CMD(do_lcd)
{
	struct session *s = infop;

	if (argc != 2) {
		cmd_error(s, argv[0], 0, "usage: lcd DIRECTORY");
		return;
	}
	if (chdir(argv[1]))
		cmd_error(s, argv[0], errno, "while changing to %s", argv[1]);
}
