/*
 * perfreg/mwu.h - the Mann-Whitney U (Wilcoxon rank-sum) test and the
 * Hodges-Lehmann shift estimate with its distribution-free interval.
 *
 * U counts the pairs (a_i, b_j) with b_j > a_i, plus one half for each
 * tie: U = 0 when every b is below every a.  p is two-sided.  Without ties
 * and with na, nb <= PR_MWU_EXACT_MAX the p-value comes from the exact null
 * distribution (the recursion of Mann and Whitney, 1947); otherwise from
 * the normal approximation with the tie correction of the variance and a
 * continuity correction of 0.5.  This matches R's wilcox.test(exact=NULL,
 * correct=TRUE) and scipy's mannwhitneyu(method="auto") conventions for
 * the two-sided p-value.
 *
 * The Hodges-Lehmann estimate of the shift b - a is the median of the
 * na*nb pairwise differences b_j - a_i; its interval is formed by order
 * statistics of those differences chosen from the exact U distribution
 * (small samples) or its normal approximation (Lehmann, "Nonparametrics",
 * 1975; Bauer, JASA 67, 1972).  The differences are never materialised:
 * the k-th smallest is found by bisection on the value with an O(na + nb)
 * count of the differences at or below it, so large samples take
 * O((na + nb) log) time and O(1) extra memory.
 */
#ifndef PERFREG_MWU_H
#define PERFREG_MWU_H

#include <stddef.h>

#include "perfreg/error.h"

#define PR_MWU_EXACT_MAX 50

struct pr_mwu {
	double u;     /* U statistic of b, as described above */
	double z;     /* standardised statistic (normal method), else 0 */
	double p;     /* two-sided p-value */
	int exact;    /* 1: exact null distribution; 0: normal approx. */
	int ties;     /* 1 when any value occurs in both or twice */
};

struct pr_shift {
	double estimate;      /* median of the pairwise differences b - a */
	double lo, hi;        /* interval for the shift */
	double achieved_conf; /* the exact coverage of the chosen order
			       * statistics (>= the asked confidence), or
			       * the asked one for the normal method */
	int exact;
};

/* a and b sorted ascending, finite; na, nb >= 1.  ENOMEM possible for
 * the exact distribution table. */
enum pr_status pr_mwu_test(const double *a, size_t na, const double *b,
    size_t nb, struct pr_mwu *out, struct pr_error *err);

/* The exact two-sided p-value of U = u for sizes m, n without ties. */
enum pr_status pr_mwu_exact_p(double u, size_t m, size_t n, double *p,
    struct pr_error *err);

/* a and b sorted ascending; PR_EUNDEF when the interval needs more data
 * than there is (then estimate is set, lo = -inf / hi = +inf are NOT
 * used: lo and hi equal the extreme differences and achieved_conf says
 * what they cover). */
enum pr_status pr_hodges_lehmann(const double *a, size_t na, const double *b,
    size_t nb, double conf, struct pr_shift *out, struct pr_error *err);

#endif /* PERFREG_MWU_H */
