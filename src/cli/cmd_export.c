/*
 * cli/cmd_export.c - `perfreg export [CAMPAIGN...]` writes campaigns
 * from the results database as JSON Lines (doc/export.md), to move them
 * to another database (`perfreg import`), SQLite or PostgreSQL, on this
 * machine or another.
 *
 * -o FILE: a regular file (or a missing path) is replaced only when the
 * export is complete, by a temporary file in the same directory renamed
 * over it; anything else that exists (a device such as /dev/null, a
 * FIFO, a terminal) is opened and written directly, never replaced; a
 * symbolic link or a directory is refused (it would be a surprise to
 * write through the one or to replace the other).  The check is made on
 * the path itself (lstat) and again on what was opened (O_NOFOLLOW,
 * fstat), so that a link slipped in between is not followed.
 *
 * Exit status: 0 done, 2 bad usage, unknown campaign, unreadable
 * database or an -o that cannot be written to, 3 internal error or a
 * write that failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "perfreg/store.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_export_entry;

struct export_cli {
	const char *db, *path;
};

static const struct opt options[] = {
	CLI_OPT_DB(struct export_cli, db),
	OPT_STRING('o', "output", "file",
	    "write to file instead of standard output (a regular file is "
	    "replaced only when the export is complete; a device or FIFO is "
	    "written in place; a symbolic link is refused)",
	    struct export_cli, path, 0, NULL),
	OPT_END(),
};

static enum pr_status
write_file(void *arg, const char *p, size_t n, struct pr_error *err)
{
	FILE *f = arg;

	if (n > 0 && fwrite(p, 1, n, f) != n)
		return pr_error_set(err, PR_EIO, "cannot write the export: %s",
		    strerror(errno));
	return PR_OK;
}

/* How -o FILE is written. */
enum target {
	T_REPLACE, /* a regular file or nothing: a temporary file renamed */
	T_DIRECT   /* a device, FIFO or socket: written where it is */
};

/*
 * Decides how to write path, or prints why not and returns -1.  For
 * T_DIRECT, *fdp is the descriptor opened on it.
 */
static int
open_target(const char *path, enum target *how, int *fdp)
{
	struct stat sb, fb;
	int fd;

	*fdp = -1;
	if (path[0] == '\0') {
		cli_errorf("export: -o: empty file name");
		return -1;
	}
	if (lstat(path, &sb) != 0) {
		if (errno == ENOENT) {
			*how = T_REPLACE;
			return 0;
		}
		cli_errorf("export: %s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISREG(sb.st_mode)) {
		*how = T_REPLACE;
		return 0;
	}
	if (S_ISLNK(sb.st_mode)) {
		cli_errorf("export: %s: is a symbolic link; give the file it "
			   "points to",
		    path);
		return -1;
	}
	if (S_ISDIR(sb.st_mode)) {
		cli_errorf("export: %s: is a directory", path);
		return -1;
	}
	/* A device or a FIFO: written in place.  O_NONBLOCK would make a
	 * FIFO without a reader fail at once, but a reader that comes later
	 * is the point of a FIFO; Ctrl-C still ends the wait. */
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		cli_errorf("export: %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &fb) != 0 || fb.st_dev != sb.st_dev ||
	    fb.st_ino != sb.st_ino || S_ISREG(fb.st_mode)) {
		cli_errorf("export: %s: changed while it was opened", path);
		close(fd);
		return -1;
	}
	*how = T_DIRECT;
	*fdp = fd;
	return 0;
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
	enum target how = T_REPLACE;
	size_t n, i;
	struct export_cli o = { NULL, NULL };
	int first, rc, fd = -1;
	mode_t um;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	if ((first = opt_parse(&cmd_export_entry, argc, argv, &o, NULL)) < 0)
		return PR_EXIT_USAGE;
	db = o.db;
	path = o.path;
	n = (size_t)(argc - first);
	if (n > 0 && (names = calloc(n, sizeof(*names))) == NULL) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	for (i = 0; i < n; i++)
		names[i] = pr_str_c(argv[first + (int)i]);
	if ((rc = cli_store_open("export", db, PR_STORE_READ, &st)) !=
	    PR_EXIT_OK)
		goto out;
	if (path != NULL && open_target(path, &how, &fd) != 0) {
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (path != NULL && how == T_DIRECT) {
		if ((f = fdopen(fd, "w")) == NULL) {
			cli_errorf("export: %s: %s", path, strerror(errno));
			close(fd);
			f = stdout;
			rc = PR_EXIT_INTERNAL;
			goto out;
		}
	} else if (path != NULL) {
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
	if (f != stdout && tmp == NULL) {
		if (fclose(f) != 0 && rc == PR_EXIT_OK) {
			cli_errorf("export: cannot write %s: %s", path,
			    strerror(errno));
			rc = PR_EXIT_INTERNAL;
		}
		f = stdout;
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
	.synopsis = "[options] [campaign...]",
	.about = "Writes the campaigns named (default: every campaign) as JSON "
		 "Lines:\n"
		 "sessions with hosts, boot ids, tags and environment "
		 "snapshots, variants,\n"
		 "and every run with its outcome, output and metrics.  Names "
		 "and outputs\n"
		 "are kept byte for byte.  `perfreg import` reads it back.\n",
	.opts = options,
	.epilogue = "Exit status: 0 done, 2 bad usage, unknown campaign or "
		    "unreadable\n"
		    "database, 3 internal error.\n",
	.exec = exec_export };
