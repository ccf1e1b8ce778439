/*
 * cli/cli_html.h - the --html FILE option that every reporting command
 * shares, and the writing of the page to its file.
 *
 * A command keeps the path in its options (CLI_OPT_HTML) and, once its
 * report is made, calls cli_html_model or cli_html_write: the page goes
 * to FILE ("-": standard output, instead of the text report), written
 * whole to FILE.tmp-PID and renamed over FILE, so that a reader never
 * sees half a page.  Errors name the file.
 */
#ifndef PERFREG_CLI_HTML_H
#define PERFREG_CLI_HTML_H

#include "perfreg/buf.h"
#include "perfreg/report_cp.h"
#include "perfreg/report_model.h"

/* Page sizes are capped: 5 MB is the target for 1,000 metrics. */
#define CLI_HTML_MAX ((size_t)256 << 20)

#define CLI_OPT_HTML(type, member) \
	OPT_STRING(0, "html", "file", \
	    "also write the report as one self-contained HTML page to file " \
	    "(- for standard output instead of the text report)", \
	    type, member, OPT_NONEMPTY, "a file name")

/* Whether the page can be written to path (its directory takes the
 * temporary file; a directory is refused): called before a command
 * measures, so that a typo costs nothing.  An exit status, said. */
int cli_html_check(const char *cmd, const char *path);

/* Writes the page in b to path; an exit status (cmd names the command
 * in messages). */
int cli_html_write(const char *cmd, const char *path, const struct pr_buf *b);

/* Renders m as a page titled title and writes it to path. */
int cli_html_model(const char *cmd, const char *path,
    const struct pr_report_model *m, const char *title);

/* Renders the n series of r as a page titled title and writes it to
 * path. */
int cli_html_cp(const char *cmd, const char *path, const struct pr_cp_report *r,
    size_t n, const double *const *var, const char *title);

#endif
