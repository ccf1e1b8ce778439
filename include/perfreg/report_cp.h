/*
 * perfreg/report_cp.h - writing change points: text with a chart,
 * markdown, CSV and JSON.
 *
 * A report is one or more series, each with its points (values and labels,
 * perfreg/series.h) and the detector's result (perfreg/changepoint.h).
 * Text: per series a summary line, a table of the changes (where, the
 * levels before and after, the change in percent with its interval, the
 * adjusted p-value, the verdict), the spikes, the possible change at the
 * end, and a chart of at most 80 columns with the changes marked.
 * Markdown: the same tables.  CSV: one row a change, spike or possible
 * change.  JSON: one object with every figure.  Every label and name from
 * the input is escaped: control bytes as \xNN in text, '|' in markdown,
 * spreadsheet formulas neutralised in CSV, invalid UTF-8 replaced in JSON.
 * The writers append to a struct pr_buf; they never print.
 */
#ifndef PERFREG_REPORT_CP_H
#define PERFREG_REPORT_CP_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/buf.h"
#include "perfreg/changepoint.h"
#include "perfreg/error.h"
#include "perfreg/history.h"
#include "perfreg/series.h"

struct pr_cp_report {
	const char *name; /* the series' name (its file) */
	const struct pr_series *series;
	const struct pr_cp_result *result;
	const struct pr_cp_opts *opts; /* as detected with */
	/* Sections that follow the series' report (`perfreg history`'s
	 * explanation of its latest change), or NULL: their text or
	 * Markdown after the series', their JSON keys in the series'
	 * object; not in CSV. */
	const struct pr_report_model *more;
};

enum pr_cp_format { PR_CP_TEXT = 0, PR_CP_MARKDOWN, PR_CP_CSV, PR_CP_JSON };

/* Appends the report of the n series in r to out in format f; chart 0
 * leaves the text chart out.  PR_ENOMEM or PR_ELIMIT from out. */
enum pr_status pr_cp_format(const struct pr_cp_report *r, size_t n,
    enum pr_cp_format f, int chart, struct pr_buf *out, struct pr_error *err);

/*
 * What storing a new session says about the history of one figure:
 * y[0..n-1] the sessions' means in order (the new session last), var
 * their variances (or NULL), ids each point's session id, what the
 * figure's name ("campaign 'c', variant a, ops_per_s"; escaped here).
 * The series is detected with o on all n points and on the first n - 1:
 * a change found now and not before (within 2 points) is one the new
 * session confirms; a possible change at the end says how many more
 * sessions would tell.  Appends one line for each ("history of WHAT:
 * ...\n"), nothing when neither holds or n <= PR_CP_MIN_POINTS.
 * Errors: pr_cp_detect's, PR_ENOMEM or PR_ELIMIT from out.
 */
enum pr_status pr_cp_session_note(const char *what, const double *y,
    const double *var, const int64_t *ids, size_t n, const struct pr_cp_opts *o,
    struct pr_buf *out, struct pr_error *err);

/*
 * pr_cp_session_note over a stored history (perfreg/history.h) whose
 * last point is session: nothing when it is not, or the history holds
 * PR_CP_MIN_POINTS points or fewer.  o NULL: the defaults with the
 * metric's direction.
 */
enum pr_status pr_history_note(const struct pr_history *h, int64_t session,
    const char *what, const struct pr_cp_opts *o, struct pr_buf *out,
    struct pr_error *err);

#endif
