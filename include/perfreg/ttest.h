/*
 * perfreg/ttest.h - two-sample t tests on means.
 *
 * Student's t with pooled variance (what ministat prints) and Welch's t
 * with the Welch-Satterthwaite degrees of freedom.  Both compare the mean
 * of b ("new") with the mean of a ("base"): diff = mean(b) - mean(a), and
 * the interval is for that difference at confidence conf (0 < conf < 1).
 * p is two-sided.
 *
 * Zero spread is handled, not divided by: when both samples have zero
 * variance the standard error is 0; then p is 1 and the interval is the
 * single point diff if the means are equal, and p is 0 with a point
 * interval if they differ (the data leave no doubt, within its resolution).
 * `degenerate` is set in both cases so that reports can say so.
 *
 * Reference: B. L. Welch, "The generalization of 'Student's' problem when
 * several different population variances are involved", Biometrika 34,
 * 1947.
 */
#ifndef PERFREG_TTEST_H
#define PERFREG_TTEST_H

#include "perfreg/describe.h"
#include "perfreg/error.h"

struct pr_ttest {
	double diff;      /* mean(b) - mean(a) */
	double se;        /* standard error of diff */
	double t;         /* diff / se; 0 when degenerate */
	double df;        /* degrees of freedom */
	double p;         /* two-sided p-value */
	double ci_lo;     /* interval for diff at the asked confidence */
	double ci_hi;
	double pooled_sd; /* Student only: the pooled standard deviation */
	int degenerate;   /* se == 0: see above */
};

/* PR_EUNDEF when either n < 2 (Welch) or na + nb < 3 (Student). */
enum pr_status pr_ttest_student(const struct pr_summary *a,
    const struct pr_summary *b, double conf, struct pr_ttest *out,
    struct pr_error *err);
enum pr_status pr_ttest_welch(const struct pr_summary *a,
    const struct pr_summary *b, double conf, struct pr_ttest *out,
    struct pr_error *err);

#endif /* PERFREG_TTEST_H */
