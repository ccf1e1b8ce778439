/*
 * cli/cmd_import.c - `perfreg import FILE...` reads exports (`perfreg
 * export`, JSON Lines, doc/export.md) into the results database, each
 * file in one transaction: all of it or nothing.
 *
 * Exit status: 0 done, 2 bad usage, malformed input (one line naming the
 * file and line) or a database that cannot be written, 3 internal error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "perfreg/store.h"
#include "core/banned.h"

/* Largest export read (the whole file is read before the import). */
#define IMPORT_MAX ((size_t)4 << 30)

static const char usage[] = "import [--db target] [--json] file...";

static const char help[] =
    "Reads exports made by `perfreg export` (\"-\" for standard input) "
    "into the\n"
    "results database, each file in one transaction: a malformed file "
    "changes\n"
    "nothing.  Sessions already present (same campaign, host, boot id and "
    "start)\n"
    "are skipped.\n"
    "\n"
    "options:\n"
    "  --db target   the database: a file (SQLite) or postgresql://...\n"
    "  --json        print the counts as JSON\n";

/* Reads the whole of path ("-": stdin) into *out (len bytes). */
static int
slurp(const char *path, char **out, size_t *len)
{
	struct pr_buf b = PR_BUF_INIT(IMPORT_MAX);
	struct pr_error err;
	ssize_t n;
	int fd;

	*out = NULL;
	fd = strcmp(path, "-") == 0 ? STDIN_FILENO
				    : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cli_errorf("import: %s: %s", path, strerror(errno));
		return PR_EXIT_USAGE;
	}
	pr_error_clear(&err);
	for (;;) {
		if (pr_buf_grow(&b, 1 << 20, &err) != PR_OK) {
			cli_errorf("import: %s: %s", path, err.msg);
			break;
		}
		n = read(fd, b.data + b.len, b.cap - b.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cli_errorf("import: %s: %s", path, strerror(errno));
			break;
		}
		if (n == 0) {
			if (fd != STDIN_FILENO)
				close(fd);
			*len = b.len;
			*out = pr_buf_detach(&b, NULL);
			if (*out == NULL && (*out = malloc(1)) == NULL) {
				cli_errorf("out of memory");
				return PR_EXIT_INTERNAL;
			}
			return PR_EXIT_OK;
		}
		b.len += (size_t)n;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	pr_buf_release(&b);
	return PR_EXIT_USAGE;
}

/*
 * The text of path: a regular file is mapped (MAP_POPULATE: one pass
 * of the kernel instead of read() into a fresh buffer, a third of an
 * import's time on a large file); anything else (stdin, a pipe) is read.
 * *mapped says which, for release_text.
 */
static int
get_text(const char *path, char **out, size_t *len, int *mapped)
{
	struct stat sb;
	void *p;
	int fd;

	*mapped = 0;
	if (strcmp(path, "-") != 0 &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    sb.st_size > 0 && (uintmax_t)sb.st_size <= IMPORT_MAX) {
			p = mmap(NULL, (size_t)sb.st_size, PROT_READ,
			    MAP_PRIVATE | MAP_POPULATE, fd, 0);
			if (p != MAP_FAILED) {
				close(fd);
				*out = p;
				*len = (size_t)sb.st_size;
				*mapped = 1;
				return PR_EXIT_OK;
			}
		}
		close(fd);
	}
	return slurp(path, out, len);
}

static void
release_text(char *text, size_t len, int mapped)
{
	if (mapped)
		munmap(text, len);
	else
		free(text);
}

static int
exec_import(int argc, char **argv)
{
	struct pr_store_import_stats total, one;
	struct pr_store *st = NULL;
	struct pr_error err;
	enum pr_status s;
	const char *db = NULL;
	char *text = NULL;
	size_t len = 0;
	int first, json = 0, rc, i, mapped = 0;

	if ((first = cli_db_json_opts(argc, argv, &cmd_import_entry, &db,
		 &json)) < 0)
		return cli_usage(&cmd_import_entry);
	if (first >= argc) {
		cli_errorf("import: expected at least one file");
		return cli_usage(&cmd_import_entry);
	}
	memset(&total, 0, sizeof(total));
	rc = PR_EXIT_OK;
	for (i = first; i < argc && rc == PR_EXIT_OK; i++) {
		if ((rc = get_text(argv[i], &text, &len, &mapped)) !=
		    PR_EXIT_OK)
			break;
		/* Opened once the first file is read: a missing file does
		 * not leave a new empty database behind. */
		if (st == NULL &&
		    (rc = cli_store_open("import", db, PR_STORE_CREATE, &st)) !=
			PR_EXIT_OK) {
			release_text(text, len, mapped);
			break;
		}
		memset(&one, 0, sizeof(one));
		pr_error_clear(&err);
		s = pr_store_import(st, text, len,
		    strcmp(argv[i], "-") == 0 ? "<stdin>" : argv[i], &one,
		    &err);
		release_text(text, len, mapped);
		text = NULL;
		if (s != PR_OK) {
			if (err.file[0] != '\0')
				cli_error(&err);
			else
				cli_errorf("import: %s",
				    err.msg[0] != '\0' ? err.msg
						       : pr_status_str(s));
			rc = cli_exit_for(s);
			break;
		}
		total.campaigns += one.campaigns;
		total.sessions += one.sessions;
		total.runs += one.runs;
		total.sessions_skipped += one.sessions_skipped;
		total.runs_skipped += one.runs_skipped;
	}
	if (rc == PR_EXIT_OK) {
		if (json)
			printf("{\"campaigns\": %zu, \"sessions\": %zu, "
			       "\"runs\": %zu, \"sessions_skipped\": %zu, "
			       "\"runs_skipped\": %zu}\n",
			    total.campaigns, total.sessions, total.runs,
			    total.sessions_skipped, total.runs_skipped);
		else
			printf("imported %zu campaign%s, %zu session%s, %zu "
			       "run%s into %s%s",
			    total.campaigns, total.campaigns == 1 ? "" : "s",
			    total.sessions, total.sessions == 1 ? "" : "s",
			    total.runs, total.runs == 1 ? "" : "s",
			    pr_store_target(st),
			    total.sessions_skipped > 0 ? "" : "\n");
		if (!json && total.sessions_skipped > 0)
			printf("; %zu session%s (%zu runs) already there, left "
			       "out\n",
			    total.sessions_skipped,
			    total.sessions_skipped == 1 ? "" : "s",
			    total.runs_skipped);
		if (fflush(stdout) != 0) {
			cli_errorf("cannot write the output");
			rc = PR_EXIT_INTERNAL;
		}
	}
	pr_store_close(st);
	return rc;
}

const struct cmd_entry cmd_import_entry = { .name = "import",
	.usage = usage,
	.help = help,
	.exec = exec_import };
