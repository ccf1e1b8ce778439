/*
 * perfreg/report_suite.h - the sections of `perfreg suite`'s report,
 * added to a report model (perfreg/report_model.h) and written by its
 * renderers: each probe's figures, and the comparison of sessions (or of
 * suite ab's processes) for a person: the summary line first, then what
 * is compared with what, then the figures that changed (every figure on
 * request) in a table that fits 100 columns, the notes said once with
 * the figures they apply to, and the method.
 *
 * Text: every line is at most PR_REPORT_SUITE_WIDTH columns (counted in
 * bytes, so that multi-byte characters only make it narrower): sentences
 * are wrapped at spaces, a figure is a row under the heading of its
 * group (the name before its last dot: "crypto.aes-128-gcm", then "16B"),
 * and a row name too long for its column gets a line of its own.  "+-"
 * means one thing, said in the header of the probes' figures: the
 * half-width of the 95% interval of a mean; the comparison table has no
 * "+-" (its change has an interval of its own).
 *
 * JSON: the probes' figures as an array ("probes"), the comparison as
 * "summary" (the counts and the line) and "comparison" (every figure,
 * in the form of perfreg/report.h's comparisons, with its session means
 * as "values").  CSV: the comparison only, every figure.
 *
 * Every byte from outside (figure names and units, probe notes, names of
 * sessions) reaches text through pr_report_escape, and Markdown through
 * report_md_escape too.
 *
 * Ownership: the probes section borrows the results until the model is
 * rendered for the last time; the comparison section borrows the
 * comparison and its figures likewise, and copies the strings it is
 * given.  Failure: PR_ENOMEM; the probes section leaves the model as it
 * was, the comparison may leave its first sections (each stands on its
 * own).  Nothing here prints, exits or reads the environment.
 */
#ifndef PERFREG_REPORT_SUITE_H
#define PERFREG_REPORT_SUITE_H

#include <stddef.h>

#include "perfreg/error.h"
#include "perfreg/report_model.h"
#include "perfreg/suite.h"

/* The widest line of the text form. */
#define PR_REPORT_SUITE_WIDTH 100

/*
 * Each probe's figures (r[0..n), borrowed): a header that names the
 * timers' resolutions (mono_res_ns, cpu_res_ns: CLOCK_MONOTONIC and
 * CLOCK_THREAD_CPUTIME_ID) and what the interval is, then per probe how
 * many samples it took and why it stopped, its notes, and a line per
 * figure (mean, unit, its 95% interval in percent of the mean on the log
 * scale, "[-26%, +36%]", direction).  JSON: an array of objects (probe,
 * samples, elapsed_s, converged, capped, notes, skipped, timer, metrics
 * [{name, unit, better, mean, halfwidth_pct, interval_pct, n}]).
 */
enum pr_status pr_report_suite_probes(struct pr_report_model *m,
    const char *key, int flags, const struct pr_suite_result *r, size_t n,
    double mono_res_ns, double cpu_res_ns, struct pr_error *err);

/* A comparison to report. */
struct pr_report_suite_cmp {
	const struct pr_suite_cmp *cmp;    /* borrowed */
	const struct pr_suite_figure *fig; /* cmp->index's figures */
	const char *base_name, *new_name;  /* "3 sessions, 1 to 3" */
	const char *unit;                  /* "session", "process" */
	/* What each unit's value of a figure is, plural, as the header
	 * and the method say it: "process bests"; NULL: "<unit> means". */
	const char *values;
	const char *intro; /* what is compared with what, a sentence
			      without its newline; NULL: none */
	int all;           /* every figure, not only the changed ones */
	int json_inline;   /* JSON: the comparison's members at the top
			      (suite ab), not under "comparison" */
};

/*
 * Adds the comparison c: the summary line ("83 figures: 2 regressions
 * (crypto.aes-128-gcm 16B..16384B -92%), 0 improvements, 78 unchanged
 * (within 1%), 3 inconclusive"; the figures of a group that agree
 * within 5 points given as one change), c->intro, the table of the
 * changed figures (all with c->all), the notes and the method; JSON
 * "summary" and "comparison".  Errors: PR_ENOMEM.
 */
enum pr_status pr_report_suite_compare(struct pr_report_model *m,
    const struct pr_report_suite_cmp *c, struct pr_error *err);

/*
 * Adds a paragraph of text (copied; several lines when it holds
 * newlines): in text each line wrapped to PR_REPORT_SUITE_WIDTH columns,
 * its continuation lines indented by indent, after an empty line when
 * blank_before; in Markdown as given.  JSON: a string under key (NULL:
 * not in JSON).  Errors: PR_ENOMEM.
 */
enum pr_status pr_report_suite_para(struct pr_report_model *m, const char *key,
    int flags, int blank_before, size_t indent, const char *text,
    struct pr_error *err);

/*
 * The summary line of c alone (as above, no newline), appended to out.
 * Errors: PR_ENOMEM/PR_ELIMIT.
 */
enum pr_status pr_report_suite_summary(struct pr_buf *out,
    const struct pr_suite_cmp *c, const struct pr_suite_figure *fig,
    struct pr_error *err);

#endif /* PERFREG_REPORT_SUITE_H */
