/*
 * perfreg/report_sessions.h - the session-level comparison of `perfreg
 * suite`: each figure of the new session, its mean taken as one value,
 * against the means of the same figure in k >= 2 earlier sessions, by
 * the prediction test of perfreg/nested.h (pr_nested_predict), with
 * Holm's correction across the figures that were tested.
 *
 * The unit is the session because the samples of one session share its
 * load, clock and cache state: compared sample by sample, two sessions
 * of an unchanged system differ "significantly" in dozens of figures.
 * A figure enters the table when the new session has values for it and
 * at least two earlier sessions have; the others are left out.
 *
 * The result owns its arrays; its report metrics point into them and
 * into the datasets given (names, units), which must outlive it.
 * pr_report_sessions_release frees it and leaves it empty.  Reentrant.
 */
#ifndef PERFREG_REPORT_SESSIONS_H
#define PERFREG_REPORT_SESSIONS_H

#include <stddef.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/report.h"
#include "perfreg/verdict.h"

struct pr_report_sessions {
	/* One per figure in the table, in the order of the new session's
	 * dataset: the comparison is in metrics[i].cmp, the earlier means
	 * in metrics[i].base_values, the new mean in new_values. */
	struct pr_report_metric *metrics;
	size_t n;
	/* The largest Holm family a tested figure was adjusted in (0 when
	 * none was): what struct pr_report's holm_m wants. */
	size_t holm_m;
	double *means; /* storage of the values above */
};

/* The arithmetic mean of v (a running mean, so that it cannot overflow
 * where the values do not); 0 for n 0. */
double pr_report_mean(const double *v, size_t n);

/*
 * Fills out with the comparison of cur (the new session) against the
 * nh earlier sessions hist (oldest first).  o may be NULL for the
 * defaults.  Errors: PR_ENOMEM; any error of pr_nested_predict, with the
 * figure's name in front of its message ("copy.memcpy.64B: ...").  On
 * failure out is empty.
 */
enum pr_status pr_report_sessions_compare(struct pr_dataset *hist, size_t nh,
    const struct pr_dataset *cur, const struct pr_verdict_opts *o,
    struct pr_report_sessions *out, struct pr_error *err);

void pr_report_sessions_release(struct pr_report_sessions *s);

#endif /* PERFREG_REPORT_SESSIONS_H */
