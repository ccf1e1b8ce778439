/*
 * cli/cmd_changepoints.c - `perfreg changepoints [options] [file ...]`:
 * where in a series did the level change?
 *
 * Reads each file as one series (perfreg/series.h: a value a line, a
 * column by number or header name, or label,value pairs; standard input
 * without a file or for "-"), runs the detector (perfreg/changepoint.h)
 * and writes the report (perfreg/report_cp.h) as text with a chart,
 * markdown, CSV or JSON.  Exit status: 0 done, 1 a regression found when
 * --fail-on-regression was given, 2 bad usage or input, 3 internal
 * failure (doc/perfreg.1).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_html.h"
#include "cli/cli_cp.h"
#include "cli/cmd.h"
#include "perfreg/changepoint.h"
#include "perfreg/report_cp.h"
#include "perfreg/series.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_changepoints_entry;

#define REPORT_MAX ((size_t)256 << 20)

struct cp_cli {
	struct pr_cp_opts cp;
	struct pr_series_opts in;
	int index;
	int higher, lower;
	int json, csv, markdown, no_chart, fail;
	const char *html;
	size_t min_segment;
};

static const struct opt options[] = {
	OPT_INT('C', NULL, "field",
	    "the value is this field of each line (1-based; default: the "
	    "last)",
	    struct cp_cli, index, 1, INT_MAX, NULL),
	OPT_STRING(0, "column", "name",
	    "the value is the column with this name in the header",
	    struct cp_cli, in.column, OPT_NONEMPTY, "a column name"),
	OPT_STRING('d', NULL, "delimiters",
	    "the characters between fields (default comma, tab, spaces)",
	    struct cp_cli, in.delims, OPT_NONEMPTY, "at least one delimiter"),
	OPT_GROUP(),
	OPT_FLAG(0, "higher-is-better", "a fall is a regression (throughput)",
	    struct cp_cli, higher, 1),
	OPT_FLAG(0, "lower-is-better", "a rise is a regression (times)",
	    struct cp_cli, lower, 1),
	CLI_CP_DETECTOR_ROWS(struct cp_cli, "series", "points"),
	OPT_DOUBLE(0, "confidence", "pct",
	    "the intervals' confidence (default 95)", struct cp_cli, cp.conf,
	    50, 100, OPT_HI_OPEN | OPT_PCT_SIGN,
	    "a percentage from 50 to 100 (excluded)"),
	OPT_FLAG(0, "fail-on-regression",
	    "exit 1 when a change is a regression (needs a direction)",
	    struct cp_cli, fail, 1),
	OPT_GROUP(),
	CLI_CP_OUTPUT_ROWS(struct cp_cli),
	OPT_END(),
};

static int
exec_changepoints(int argc, char **argv)
{
	static char *const stdin_only[] = { "-", NULL };
	struct pr_buf out = PR_BUF_INIT(REPORT_MAX);
	struct pr_series *series = NULL;
	struct pr_cp_result *res = NULL;
	struct pr_cp_report *rep = NULL;
	struct pr_error err;
	struct cp_cli o;
	enum pr_status rc;
	enum pr_cp_format fmt = PR_CP_TEXT;
	char *const *files;
	size_t n, i, k;
	int first, status = PR_EXIT_OK, regressions = 0;

	memset(&o, 0, sizeof(o));
	pr_cp_opts_init(&o.cp);
	o.cp.conf = 95;
	o.min_segment = PR_CP_MIN_SEGMENT_DEFAULT;
	if ((first = opt_parse(&cmd_changepoints_entry, argc, argv, &o, NULL)) <
	    0)
		return PR_EXIT_USAGE;
	if (o.json + o.csv + o.markdown > 1)
		return cli_usage_error(&cmd_changepoints_entry,
		    "--json, --csv and --markdown exclude each other");
	if (o.higher && o.lower)
		return cli_usage_error(&cmd_changepoints_entry,
		    "--higher-is-better and --lower-is-better exclude each "
		    "other");
	if (o.in.column != NULL && o.index > 0)
		return cli_usage_error(&cmd_changepoints_entry,
		    "-C and --column exclude each other");
	if (o.fail && !o.higher && !o.lower)
		return cli_usage_error(&cmd_changepoints_entry,
		    "--fail-on-regression needs --higher-is-better or "
		    "--lower-is-better");
	o.cp.conf /= 100;
	o.cp.min_segment = o.min_segment;
	o.cp.better = o.higher ? PR_BETTER_HIGHER
	    : o.lower          ? PR_BETTER_LOWER
			       : PR_BETTER_UNKNOWN;
	o.in.index = o.index;
	fmt = o.json     ? PR_CP_JSON
	    : o.csv      ? PR_CP_CSV
	    : o.markdown ? PR_CP_MARKDOWN
			 : PR_CP_TEXT;
	files = first < argc ? argv + first : stdin_only;
	n = first < argc ? (size_t)(argc - first) : 1;
	series = calloc(n, sizeof(*series));
	res = calloc(n, sizeof(*res));
	rep = calloc(n, sizeof(*rep));
	if (series == NULL || res == NULL || rep == NULL) {
		cli_errorf("out of memory");
		status = PR_EXIT_INTERNAL;
		goto out;
	}
	pr_error_clear(&err);
	for (i = 0; i < n; i++) {
		const char *name =
		    strcmp(files[i], "-") == 0 ? "<stdin>" : files[i];

		pr_series_init(&series[i]);
		if ((rc = pr_series_read(files[i], &o.in, &series[i], &err)) !=
		    PR_OK) {
			cli_error(&err);
			status = cli_exit_for(rc);
			goto out;
		}
		rc = pr_cp_detect(series[i].y, NULL, series[i].n, &o.cp,
		    &res[i], &err);
		if (rc != PR_OK) {
			cli_errorf("%s: %s", name, err.msg);
			status = cli_exit_for(rc);
			goto out;
		}
		if (res[i].all_equal) {
			cli_errorf("%s: %zu points, all equal: nothing to "
				   "detect",
			    name, series[i].n);
			status = PR_EXIT_USAGE;
			goto out;
		}
		rep[i].name = name;
		rep[i].series = &series[i];
		rep[i].result = &res[i];
		rep[i].opts = &o.cp;
		for (k = 0; k < res[i].nchanges; k++)
			regressions +=
			    res[i].changes[k].verdict == PR_VERDICT_REGRESSION;
	}
	if (o.html != NULL &&
	    (status = cli_html_cp("changepoints", o.html, rep, n, NULL,
		 "perfreg changepoints")) != PR_EXIT_OK)
		goto out;
	if (o.html != NULL && strcmp(o.html, "-") == 0)
		status = PR_EXIT_OK;
	else if ((rc = pr_cp_format(rep, n, fmt, !o.no_chart, &out, &err)) !=
	    PR_OK) {
		cli_error(&err);
		status = PR_EXIT_INTERNAL;
		goto out;
	} else
		status = cli_write(&out);
	if (status == PR_EXIT_OK && o.fail && regressions > 0)
		status = PR_EXIT_REGRESSION;
out:
	for (i = 0; series != NULL && i < n; i++) {
		pr_series_release(&series[i]);
		pr_cp_result_release(&res[i]);
	}
	free(series);
	free(res);
	free(rep);
	pr_buf_release(&out);
	return status;
}

static const char about[] =
    "Finds where the level of each series changed, the single points that "
    "stand out\n"
    "(spikes), and a change in the last points that is too recent to "
    "confirm.  A\n"
    "series is one value a line, a field of each line (-C), the column "
    "of a header\n"
    "(--column), or label,value pairs (dates, commits); '#' starts a "
    "comment.\n"
    "Without a file, or for \"-\", standard input is read.  The noise is "
    "learned from\n"
    "the series itself; the defaults need no tuning.\n";

static const char epilogue[] =
    "Each change: the levels before and after, the change in percent "
    "with its\n"
    "interval, the p-value adjusted over the series' points, and a "
    "verdict by the\n"
    "direction given (else \"change (up)\" or \"(down)\").  Exit status: "
    "0 done, 1 a\n"
    "regression with --fail-on-regression, 2 bad usage or input, 3 "
    "internal error.\n";

const struct cmd_entry cmd_changepoints_entry = { .name = "changepoints",
	.synopsis = "[options] [file ...]",
	.about = about,
	.opts = options,
	.epilogue = epilogue,
	.exec = exec_changepoints };
