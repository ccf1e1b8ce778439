/*
 * cli/cli_cp.h - the option rows that `perfreg changepoints` and
 * `perfreg history` share (src/cli/cmd_changepoints.c, cmd_history.c):
 * the detector's settings and the output formats, declared once.  T is
 * the command's options structure, with members cp (struct pr_cp_opts),
 * min_segment, json, csv, markdown, no_chart and html.
 */
#ifndef PERFREG_CLI_CLI_CP_H
#define PERFREG_CLI_CLI_CP_H

#include "cli/cli_html.h"
#include "cli/cmd.h"

/* --alpha, --min-segment and --equivalence; WHAT is what the series is
 * ("series", "history"), POINTS what its points are ("points"). */
#define CLI_CP_DETECTOR_ROWS(T, WHAT, POINTS) \
	OPT_DOUBLE(0, "alpha", "rate", \
	    "false-alarm rate over a " WHAT " without change (default 0.01)", \
	    T, cp.alpha, 0, 0.5, OPT_LO_OPEN, "a rate in (0, 0.5]"), \
	    OPT_INT(0, "min-segment", "n", \
		POINTS " a level must hold to be confirmed (default 5)", T, \
		min_segment, 2, 1000000, NULL), \
	    OPT_DOUBLE(0, "equivalence", "pct", \
		"changes whose interval lies within +-pct are not reported " \
		"(default 1)", \
		T, cp.equivalence_pct, 0, 100, OPT_HI_OPEN, \
		"a percentage from 0 to 100 (excluded)")

/* --json, --csv, --markdown, --html and --no-chart. */
#define CLI_CP_OUTPUT_ROWS(T) \
	OPT_FLAG(0, "json", "a JSON object with every figure", T, json, 1), \
	    OPT_FLAG(0, "csv", \
		"CSV, one row a change, spike or possible change", T, csv, 1), \
	    OPT_FLAG(0, "markdown", "markdown tables, for a bug report", T, \
		markdown, 1), \
	    CLI_OPT_HTML(T, html), \
	    OPT_FLAG(0, "no-chart", "leave the text chart out", T, no_chart, \
		1)

#endif /* PERFREG_CLI_CLI_CP_H */
