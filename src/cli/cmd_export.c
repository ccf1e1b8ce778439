/*
 * cli/cmd_export.c - `perfreg export [CAMPAIGN...]` writes campaigns
 * from the results database as JSON Lines (doc/export.md), to move them
 * to another database (`perfreg import`), SQLite or PostgreSQL, on this
 * machine or another.
 *
 * Exit status: 0 done, 2 bad usage, unknown campaign or unreadable
 * database, 3 internal error or a write that failed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "perfreg/store.h"
#include "core/banned.h"

static const char usage[] = "export [--db target] [-o file] [campaign...]";

static const char help[] =
    "Writes the campaigns named (default: every campaign) as JSON Lines:\n"
    "sessions with hosts, boot ids, tags and environment snapshots, "
    "variants,\n"
    "and every run with its outcome, output and metrics.  Names and "
    "outputs\n"
    "are kept byte for byte.  `perfreg import` reads it back.\n"
    "\n"
    "options:\n"
    "  --db target   the database: a file (SQLite) or postgresql://...\n"
    "  -o file       write to file instead of standard output (replaced "
    "only\n"
    "                when the export is complete)\n";

enum { OPT_DB = 256 };

static const struct option longopts[] = { { "db", required_argument, NULL,
					      OPT_DB },
	{ "output", required_argument, NULL, 'o' }, { NULL, 0, NULL, 0 } };

static enum pr_status
write_file(void *arg, const char *p, size_t n, struct pr_error *err)
{
	FILE *f = arg;

	if (n > 0 && fwrite(p, 1, n, f) != n)
		return pr_error_set(err, PR_EIO, "cannot write the export: %s",
		    strerror(errno));
	return PR_OK;
}

static int
exec_export(int argc, char **argv)
{
	struct pr_store *st = NULL;
	struct pr_str *names = NULL;
	struct pr_error err;
	enum pr_status s;
	const char *db = NULL, *path = NULL;
	char *tmp = NULL;
	FILE *f = stdout;
	size_t n, i;
	int ch, rc, fd;
	mode_t um;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_DB:
			db = optarg;
			break;
		case 'o':
			path = optarg;
			break;
		default:
			cli_errorf("export: unknown option or missing argument "
				   "'%s'",
			    argv[optind - 1]);
			return cli_usage(&cmd_export_entry);
		}
	}
	n = (size_t)(argc - optind);
	if (n > 0 && (names = calloc(n, sizeof(*names))) == NULL) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	for (i = 0; i < n; i++)
		names[i] = pr_str_c(argv[optind + (int)i]);
	if ((rc = cli_store_open("export", db, PR_STORE_READ, &st)) !=
	    PR_EXIT_OK)
		goto out;
	if (path != NULL) {
		if ((tmp = malloc(strlen(path) + 16)) == NULL) {
			cli_errorf("out of memory");
			rc = PR_EXIT_INTERNAL;
			goto out;
		}
		snprintf(tmp, strlen(path) + 16, "%s.tmp-XXXXXX", path);
		um = umask(0);
		umask(um);
		/* The mode a plain `> file` gives, not mkstemp's 0600. */
		if ((fd = mkstemp(tmp)) < 0 || fchmod(fd, 0666 & ~um) != 0 ||
		    (f = fdopen(fd, "w")) == NULL) {
			cli_errorf("export: cannot create %s: %s", tmp,
			    strerror(errno));
			if (fd >= 0) {
				close(fd);
				remove(tmp);
			}
			free(tmp);
			tmp = NULL;
			f = stdout;
			rc = PR_EXIT_USAGE;
			goto out;
		}
	}
	pr_error_clear(&err);
	s = pr_store_export(st, names, n, write_file, f, &err);
	if (s == PR_OK && (fflush(f) != 0 || ferror(f)))
		s = pr_error_set(&err, PR_EIO, "cannot write the export: %s",
		    strerror(errno));
	if (s != PR_OK) {
		cli_errorf("export: %s", pr_error_format(&err, eb, sizeof(eb)));
		rc = s == PR_EIO || s == PR_ENOMEM ? PR_EXIT_INTERNAL
						   : PR_EXIT_USAGE;
	}
	if (tmp != NULL) {
		if (fclose(f) != 0 && rc == PR_EXIT_OK) {
			cli_errorf("export: cannot write %s: %s", tmp,
			    strerror(errno));
			rc = PR_EXIT_INTERNAL;
		}
		f = stdout;
		if (rc == PR_EXIT_OK && rename(tmp, path) != 0) {
			cli_errorf("export: cannot rename %s to %s: %s", tmp,
			    path, strerror(errno));
			rc = PR_EXIT_INTERNAL;
		}
		if (rc != PR_EXIT_OK)
			remove(tmp);
	}
out:
	free(tmp);
	free(names);
	pr_store_close(st);
	return rc;
}

const struct cmd_entry cmd_export_entry = { .name = "export",
	.usage = usage,
	.help = help,
	.exec = exec_export };
