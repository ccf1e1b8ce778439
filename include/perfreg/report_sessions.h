/*
 * perfreg/report_sessions.h - the session-level comparison of `perfreg
 * suite`: each figure's mean in a session taken as one value, the nb
 * base sessions' means against the nn new sessions' (perfreg/nested.h):
 * one new session by the prediction test (pr_nested_predict), several
 * by Welch's t on the session means (pr_nested_compare, one value a
 * group), Holm's correction across the figures that were tested.
 *
 * The unit is the session because the samples of one session share its
 * load, clock and cache state: compared sample by sample, two sessions
 * of an unchanged system differ "significantly" in dozens of figures.
 * A figure enters the table when at least two base sessions and one new
 * session have values for it; the others are left out.
 *
 * The result owns its arrays; its report metrics point into them and
 * into the figures given (names, units), which must outlive it.
 * pr_report_sessions_release frees it and leaves it empty.  Reentrant.
 */
#ifndef PERFREG_REPORT_SESSIONS_H
#define PERFREG_REPORT_SESSIONS_H

#include <stddef.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/report.h"
#include "perfreg/verdict.h"

/* One figure of the table: its name and unit as the rows show them and
 * the direction that is better. */
struct pr_report_figure {
	const char *name, *unit;
	enum pr_better better;
};

struct pr_report_sessions {
	/* One per figure in the table, in the order of the figures given:
	 * the comparison is in metrics[i].cmp, the base sessions' means in
	 * metrics[i].base_values, the new ones' in new_values. */
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
 * Fills out with the comparison, figure by figure (fig[0..nfig)), of the
 * new sessions nd[0..nn) against the base sessions bd[0..nb), each
 * session a dataset of its samples.  o may be NULL for the defaults.
 * Errors: PR_EINVAL for nn or nb above PR_REPORT_SESSIONS_MAX; PR_ENOMEM;
 * any error of pr_nested_predict or pr_nested_compare, with the figure's
 * name in front of its message ("copy.memcpy.64B: ...").  On failure out
 * is empty.
 */
#define PR_REPORT_SESSIONS_MAX 1024
enum pr_status pr_report_sessions_compare(struct pr_dataset *bd, size_t nb,
    struct pr_dataset *nd, size_t nn, const struct pr_report_figure *fig,
    size_t nfig, const struct pr_verdict_opts *o,
    struct pr_report_sessions *out, struct pr_error *err);

void pr_report_sessions_release(struct pr_report_sessions *s);

#endif /* PERFREG_REPORT_SESSIONS_H */
