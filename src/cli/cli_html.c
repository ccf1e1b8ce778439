/*
 * cli/cli_html.c - writing an HTML page (perfreg/report_html.h) to the
 * file of --html (cli/cli_html.h).
 *
 * The page is made whole in memory, then written to a temporary file
 * next to the target and renamed over it: an interrupted write leaves
 * the old page or none, never a part.  "-" writes to standard output; a
 * path that is not a regular file (/dev/null, a pipe) is written in
 * place.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_html.h"
#include "cli/cmd.h"
#include "perfreg/report_html.h"
#include "core/banned.h"

/* Writes b to the file file (path in messages); an exit status. */
static int
write_to(const char *cmd, const char *path, const char *file,
    const struct pr_buf *b)
{
	FILE *f;
	int e, ok;

	if ((f = fopen(file, "w")) == NULL) {
		cli_errorf("%s: --html: cannot write %s: %s", cmd, path,
		    strerror(errno));
		return PR_EXIT_USAGE;
	}
	/* fclose also when the write failed. */
	ok = b->len == 0 || fwrite(b->data, 1, b->len, f) == b->len;
	if (fclose(f) != 0)
		ok = 0;
	if (!ok) {
		e = errno;
		cli_errorf("%s: --html: cannot write %s: %s", cmd, path,
		    strerror(e));
		return PR_EXIT_INTERNAL;
	}
	return PR_EXIT_OK;
}

int
cli_html_write(const char *cmd, const char *path, const struct pr_buf *b)
{
	struct stat sb;
	char tmp[4096];
	int e, rc;

	if (strcmp(path, "-") == 0)
		return cli_write(b);
	/* Not a regular file (/dev/null, a pipe): written in place, never
	 * renamed over. */
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
		return write_to(cmd, path, path, b);
	if (snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", path, (long)getpid()) >=
	    (int)sizeof(tmp)) {
		cli_errorf("%s: --html: %s: file name too long", cmd, path);
		return PR_EXIT_USAGE;
	}
	if ((rc = write_to(cmd, path, tmp, b)) != PR_EXIT_OK) {
		(void)remove(tmp);
		return rc;
	}
	if (rename(tmp, path) != 0) {
		e = errno;
		(void)remove(tmp);
		cli_errorf("%s: --html: cannot write %s: %s", cmd, path,
		    strerror(e));
		return PR_EXIT_USAGE;
	}
	return PR_EXIT_OK;
}

int
cli_html_check(const char *cmd, const char *path)
{
	struct stat sb;
	char tmp[4096];
	FILE *f;
	int e;

	if (path == NULL || strcmp(path, "-") == 0)
		return PR_EXIT_OK;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		cli_errorf("%s: --html: cannot write %s: %s", cmd, path,
		    strerror(EISDIR));
		return PR_EXIT_USAGE;
	}
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		if (access(path, W_OK) == 0)
			return PR_EXIT_OK;
		e = errno;
		cli_errorf("%s: --html: cannot write %s: %s", cmd, path,
		    strerror(e));
		return PR_EXIT_USAGE;
	}
	/* The file the page will be written to, made and removed. */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", path, (long)getpid()) >=
	    (int)sizeof(tmp)) {
		cli_errorf("%s: --html: %s: file name too long", cmd, path);
		return PR_EXIT_USAGE;
	}
	if ((f = fopen(tmp, "w")) == NULL) {
		e = errno;
		cli_errorf("%s: --html: cannot write %s: %s", cmd, path,
		    strerror(e));
		return PR_EXIT_USAGE;
	}
	(void)fclose(f);
	(void)remove(tmp);
	return PR_EXIT_OK;
}

/* Writes the page that render made into b (or its error). */
static int
finish(const char *cmd, const char *path, struct pr_buf *b, enum pr_status st,
    const struct pr_error *err)
{
	int rc;

	if (st != PR_OK) {
		cli_error(err);
		pr_buf_release(b);
		return PR_EXIT_INTERNAL;
	}
	rc = cli_html_write(cmd, path, b);
	pr_buf_release(b);
	return rc;
}

int
cli_html_model(const char *cmd, const char *path,
    const struct pr_report_model *m, const char *title)
{
	struct pr_buf b = PR_BUF_INIT(CLI_HTML_MAX);
	struct pr_error err;

	pr_error_clear(&err);
	return finish(cmd, path, &b, pr_report_html(&b, m, title, &err), &err);
}

int
cli_html_cp(const char *cmd, const char *path, const struct pr_cp_report *r,
    size_t n, const double *const *var, const char *title)
{
	struct pr_buf b = PR_BUF_INIT(CLI_HTML_MAX);
	struct pr_error err;

	pr_error_clear(&err);
	return finish(cmd, path, &b,
	    pr_report_html_cp(&b, r, n, var, title, &err), &err);
}
