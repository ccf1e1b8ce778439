/*
 * perfreg/report_run.h - the sections of `perfreg run`'s report, added
 * to a report model (perfreg/report_model.h) and written by its
 * renderers: the session (variants, order, seed, timer), the summaries
 * of a session of one variant, the paired analysis of the rounds, the
 * decisions of --until-decided, and the runs (every run in JSON, the
 * failed ones with the start of their output in text).
 *
 * Text and Markdown write every byte that comes from outside (variant
 * names and commands, metric names, reasons, the output of a failed
 * run) through pr_report_escape, so that no control byte reaches a
 * terminal.  None of these sections has a CSV form.
 *
 * Ownership: a section that takes a session borrows it (and everything
 * it points to) until the model is rendered for the last time; the
 * others copy what they are given.  Failure: PR_ENOMEM, the model left
 * as it was.  Nothing here prints, exits or reads the environment.
 */
#ifndef PERFREG_REPORT_RUN_H
#define PERFREG_REPORT_RUN_H

#include <stddef.h>

#include "perfreg/buf.h"
#include "perfreg/error.h"
#include "perfreg/paired.h"
#include "perfreg/primary.h"
#include "perfreg/report_model.h"
#include "perfreg/runner.h"
#include "perfreg/seq.h"

/*
 * The session: its variants with their commands and counts of runs,
 * rounds, order, seed, warm-up, time, how it stopped, the timer and
 * perfreg's own time per run (text: three lines, and a note on drift
 * in sequential order; JSON: an object).  Borrows s.
 */
enum pr_status pr_report_run_session(struct pr_report_model *m, const char *key,
    int flags, const struct pr_session *s, struct pr_error *err);

/* The summaries (mean, median, min, max, n) of every metric of the
 * baseline, for a session of one variant: text only. */
enum pr_status pr_report_run_summaries(struct pr_report_model *m, int flags,
    const struct pr_session *s, struct pr_error *err);

/*
 * The paired analysis, round by round, of variant vi against the
 * baseline on the n metrics names (pr_session_paired at 95%, each
 * metric on its own grid, pr_session_resolution), computed now: text
 * a heading and a line per metric, Markdown a table, JSON an array of
 * objects (name, pairs, change_pct, ci_pct, p_value, quantised, or
 * undefined and why).  The names are copied.
 */
enum pr_status pr_report_run_paired(struct pr_report_model *m, const char *key,
    int flags, const struct pr_session *s, size_t vi, const char *const *names,
    size_t n, struct pr_error *err);

/* One metric's sequential decision (undefined: NULL, or why there is
 * none). */
struct pr_report_seq_row {
	const char *name;
	const char *undefined;
	struct pr_seq_result r;
};

/* The decisions of --until-decided for one variant. */
struct pr_report_seq {
	const char *method; /* in words */
	double alpha;       /* the error rate of every decision */
	double equivalence_pct;
	const char *stopped; /* how the session ended, in words */
	const struct pr_report_seq_row *rows;
	size_t n;
};

/* The decisions (copied): text a heading, a line per metric and a note
 * on the tables that follow; Markdown the same as a table; JSON an
 * object with the method, alpha, equivalence_pct, stopped and metrics. */
enum pr_status pr_report_run_sequential(struct pr_report_model *m,
    const char *key, int flags, const struct pr_report_seq *q,
    struct pr_error *err);

/*
 * The explanation of variant vi against the baseline
 * (perfreg/explain.h), computed now: the primary metric is the first
 * metric of the baseline that role (one a metric of s->v[0].data, from
 * pr_primary_roles) marks PR_ROLE_PRIMARY (wall_s when none is), the
 * side metrics are the others marked PR_ROLE_SIDE and every monitor
 * figure of the runs (pr_run.monitors), one value a counted, successful
 * run.  Adds nothing (PR_OK) when the runs have no monitor figures or a
 * side has fewer than 2 runs of the primary.  The notes (the monitor's,
 * nnotes of them) are copied into the section.  PR_ENOMEM.
 */
enum pr_status pr_report_run_explain(struct pr_report_model *m, const char *key,
    int flags, const struct pr_session *s, size_t vi, const enum pr_role *role,
    const char *const *notes, size_t nnotes, struct pr_error *err);

/* The runs: JSON every run (pr_report_run_line's object, in order);
 * text and Markdown the failed runs, each with the start of its output.
 * Borrows s. */
enum pr_status pr_report_run_runs(struct pr_report_model *m, const char *key,
    int flags, const struct pr_session *s, struct pr_error *err);

/* Appends run r of s as one line of compact JSON (what --output
 * appends): variant, seq, round, warmup, ok, outcome, exit_status,
 * signal, reason, failed_in, start_s, metrics, the monitors' figures
 * ("monitors", when the run has any) and, when kept, output. */
enum pr_status pr_report_run_line(struct pr_buf *out,
    const struct pr_session *s, const struct pr_run *r, struct pr_error *err);

/*
 * When each value of metric name of variant vi was measured: *at (the
 * caller's, free) gets the start of the counted, successful run that gave
 * each value (pr_run.start_s), n of them in the order of the variant's
 * values (s->v[vi].data), or NULL (PR_OK) when the runs do not give
 * exactly n values of it.  PR_ENOMEM.
 */
enum pr_status pr_report_run_times(const struct pr_session *s, size_t vi,
    const char *name, size_t n, double **at, struct pr_error *err);

#endif /* PERFREG_REPORT_RUN_H */
