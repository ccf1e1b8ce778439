/*
 * cli/cmd_import.c - `perfreg import FILE...` reads exports (`perfreg
 * export`, JSON Lines, doc/export.md) into the results database, each
 * file in one transaction: all of it or nothing.
 *
 * Inputs are read as they are imported (pr_store_import_read), never
 * mapped: a file truncated while it is read is a truncated export, not
 * SIGBUS, and memory stays under one export line whatever the input
 * (/dev/zero fails at once).  A FIFO is read like a file; Ctrl-C ends a
 * wait for its writer, and the transaction is rolled back.
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
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "perfreg/store.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_import_entry;

static const struct opt options[] = {
	CLI_OPT_DB_JSON("print the counts as JSON"),
	OPT_END(),
};

/* The reader of an input: read(2) on fd, name for messages. */
struct input {
	int fd;
	const char *name;
};

static enum pr_status
read_input(void *arg, char *p, size_t size, size_t *n, struct pr_error *err)
{
	struct input *in = arg;
	ssize_t r;

	do
		r = read(in->fd, p, size);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		int e = errno;

		pr_error_at(err, e == EISDIR ? PR_EINVAL : PR_EIO, in->name, 0,
		    0, "cannot read: %s", strerror(e));
		if (err != NULL)
			err->sys_errno = e;
		return e == EISDIR ? PR_EINVAL : PR_EIO;
	}
	*n = (size_t)r;
	return PR_OK;
}

static int
exec_import(int argc, char **argv)
{
	struct pr_store_import_stats total, one;
	struct pr_store *st = NULL;
	struct pr_error err;
	enum pr_status s;
	struct input in;
	const char *db = NULL;
	int first, json = 0, rc, i;

	if ((first = cli_db_json_opts(argc, argv, &cmd_import_entry, &db,
		 &json)) < 0)
		return PR_EXIT_USAGE;
	if (first >= argc)
		return cli_usage_error(&cmd_import_entry,
		    "expected at least one file");
	memset(&total, 0, sizeof(total));
	rc = PR_EXIT_OK;
	for (i = first; i < argc && rc == PR_EXIT_OK; i++) {
		in.name = strcmp(argv[i], "-") == 0 ? "<stdin>" : argv[i];
		in.fd = strcmp(argv[i], "-") == 0
		    ? STDIN_FILENO
		    : open(argv[i], O_RDONLY | O_CLOEXEC);
		if (in.fd < 0) {
			cli_errorf("import: %s: %s", argv[i], strerror(errno));
			rc = PR_EXIT_USAGE;
			break;
		}
		/* Opened once the first file is open: a missing file does
		 * not leave a new empty database behind. */
		if (st == NULL &&
		    (rc = cli_store_open("import", db, PR_STORE_CREATE, &st)) !=
			PR_EXIT_OK) {
			if (in.fd != STDIN_FILENO)
				close(in.fd);
			break;
		}
		memset(&one, 0, sizeof(one));
		pr_error_clear(&err);
		s = pr_store_import_read(st, read_input, &in, in.name, &one,
		    &err);
		if (in.fd != STDIN_FILENO)
			close(in.fd);
		if (s != PR_OK) {
			char line[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 64];
			char kept[160] = "";

			/* What the chunks before the error committed. */
			if (one.sessions + one.runs > 0)
				snprintf(kept, sizeof(kept),
				    "; %zu session%s and %zu run%s before it "
				    "are stored (importing the file again adds "
				    "the rest)",
				    one.sessions, one.sessions == 1 ? "" : "s",
				    one.runs, one.runs == 1 ? "" : "s");
			if (err.file[0] != '\0')
				cli_errorf("%s%s",
				    pr_error_format(&err, line, sizeof(line)),
				    kept);
			else
				cli_errorf("import: %s%s",
				    err.msg[0] != '\0' ? err.msg
						       : pr_status_str(s),
				    kept);
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
	.synopsis = "[options] file...",
	.about =
	    "Reads exports made by `perfreg export` (\"-\" for standard "
	    "input) into the\n"
	    "results database, committing once per MiB read, so that other "
	    "writers wait\n"
	    "for one chunk at most.  An error keeps the chunks before it "
	    "and says so;\n"
	    "importing the file again adds the rest: sessions and runs "
	    "already present\n"
	    "(same campaign, host, boot id and start; same run) are "
	    "skipped.\n",
	.opts = options,
	.epilogue = "Exit status: 0 done, 2 bad usage, malformed input (one "
		    "line naming the\n"
		    "file and line) or a database that cannot be written, 3 "
		    "internal error.\n",
	.exec = exec_import };
