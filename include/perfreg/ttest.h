/*
 * perfreg/ttest.h - two-sample t tests on means.
 *
 * Student's t with pooled variance (what ministat prints) and Welch's t
 * with the Welch-Satterthwaite degrees of freedom.  Both compare the mean
 * of b ("new") with the mean of a ("base"): diff = mean(b) - mean(a), and
 * the interval is for that difference at confidence conf (0 < conf < 1),
 * diff -+ t_{(1+conf)/2, df} se.  p is two-sided, 2 P(T > |t|).
 *
 * Of a struct pr_summary only n, mean and var are read; var only when
 * n >= 2 (one value has no spread, whatever the field holds).  Student's
 * test needs na + nb >= 3 and works with one value on a side: the pooled
 * variance then comes from the other side alone and df = na + nb - 2.
 * Welch's test needs two values on each side.
 *
 * Zero spread is handled, not divided by: when the standard error is 0
 * (both samples without spread, or for Student's test one value against
 * a sample without spread) t is 0, the interval is the single point diff,
 * and p is 1 if the means are equal and 0 if they differ (the data leave
 * no doubt, within their resolution).  `degenerate` is set then, so that
 * reports can say so; df keeps the pooled value na + nb - 2.  When only
 * one side of Welch's test has spread, df is that side's n - 1.  No field
 * is ever NaN; t may be +-inf when diff exceeds DBL_MAX standard errors
 * (then p is 0).
 *
 * Errors: PR_EINVAL for conf outside (0, 1), a non-finite mean, or a
 * negative or non-finite var; PR_EUNDEF for too few values (the message
 * names the side); PR_ERANGE when diff or the interval overflows.  The
 * functions are pure and thread-safe.
 *
 * References: B. L. Welch, "The generalization of 'Student's' problem
 * when several different population variances are involved", Biometrika
 * 34, 1947; F. E. Satterthwaite, "An approximate distribution of
 * estimates of variance components", Biometrics Bulletin 2, 1946.
 */
#ifndef PERFREG_TTEST_H
#define PERFREG_TTEST_H

#include "perfreg/describe.h"
#include "perfreg/error.h"

struct pr_ttest {
	double diff;  /* mean(b) - mean(a) */
	double se;    /* standard error of diff */
	double t;     /* diff / se; 0 when degenerate */
	double df;    /* degrees of freedom */
	double p;     /* two-sided p-value */
	double ci_lo; /* interval for diff at the asked confidence */
	double ci_hi;
	double pooled_sd; /* Student only: the pooled standard deviation;
			   * 0 for Welch */
	int degenerate;   /* se == 0: see above */
};

/* PR_EUNDEF when na + nb < 3 (or a side is empty). */
enum pr_status pr_ttest_student(const struct pr_summary *a,
    const struct pr_summary *b, double conf, struct pr_ttest *out,
    struct pr_error *err);
/* PR_EUNDEF when either n < 2. */
enum pr_status pr_ttest_welch(const struct pr_summary *a,
    const struct pr_summary *b, double conf, struct pr_ttest *out,
    struct pr_error *err);

#endif /* PERFREG_TTEST_H */
