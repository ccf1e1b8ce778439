/*
 * perfreg/report_bisect.h - the report of `perfreg bisect`, added to a
 * report model (perfreg/report_model.h): a headline with the verdict,
 * then the bisection (range, metric, culprit with its change, interval
 * and confirmation, the posterior of its neighbours, runs and builds,
 * skipped commits, the commits measured) in text, Markdown and JSON.
 *
 * Text and Markdown write what comes from outside (commit subjects,
 * metric names, reasons) through pr_report_escape.  No CSV form.
 * Ownership: the section borrows the job until the model is rendered
 * for the last time.  Failure: PR_ENOMEM, the model left as it was.
 */
#ifndef PERFREG_REPORT_BISECT_H
#define PERFREG_REPORT_BISECT_H

#include "perfreg/bisect_job.h"
#include "perfreg/error.h"
#include "perfreg/report_model.h"

/* Adds the headline (JSON "headline") and the bisection (JSON: its
 * members at the top level). */
enum pr_status pr_report_bisect(struct pr_report_model *m,
    const struct pr_bisect_job *j, struct pr_error *err);

/* What a step of `git bisect run` answers (pr_bisect_job_step): 0 good,
 * 1 bad, 125 skip (git's exit codes). */
int pr_report_bisect_step_answer(const struct pr_bisect_job *j);

/* The report of a step: a headline ("bad: HASH "subject": +5.2% [...]
 * against --good HASH, regression (7 interleaved rounds)") and, in JSON,
 * answer, exit, commit, subject, good, decision, change_pct, ci_pct,
 * rounds and reason (why a skip). */
enum pr_status pr_report_bisect_step(struct pr_report_model *m,
    const struct pr_bisect_job *j, struct pr_error *err);

#endif /* PERFREG_REPORT_BISECT_H */
