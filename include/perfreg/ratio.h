/*
 * perfreg/ratio.h - confidence intervals for a relative change.
 *
 * The ratio new/base of the means or of the medians, with an interval at
 * confidence conf.  Two methods, chosen by size:
 *
 * - na + nb <= PR_RATIO_BOOT_MAX: a seeded percentile bootstrap.  Each
 *   replicate resamples each side with replacement (na draws from a, then
 *   nb draws from b, from one pr_rng seeded with `seed`), computes the
 *   statistic of each resample and their ratio; the interval is formed by
 *   the (1 - conf)/2 and (1 + conf)/2 quantiles (R type 7) of the sorted
 *   replicate ratios.  The same seed and data give the same interval on
 *   every machine.  The median of a resample is found without sorting,
 *   from the counts of the drawn indices into the sorted data.
 *
 * - larger samples: the delta method on the log ratio,
 *     log(r) -+ z_{(1+conf)/2} sqrt(se_b^2 / s_b^2 + se_a^2 / s_a^2),
 *   exponentiated, where s is the statistic of a side and se its standard
 *   error: s/sqrt(n) for a mean; for a median the distribution-free
 *   estimate of D. G. Bonett and R. M. Price ("Statistical inference for
 *   a linear function of medians", Psychological Methods 7, 2002; R. M.
 *   Price and D. G. Bonett, J. Statist. Comput. Simul. 68, 2001):
 *     se = (x_(n-c+1) - x_(c)) / (2 z0),  c = max(1, round(n/2 - sqrt n)),
 *     z0 = Phi^-1(1 - P(Bin(n, 1/2) <= c - 1)),
 *   the width of the order-statistic interval of the median divided by
 *   the normal quantile of its exact coverage.  O(1) on sorted data.
 *
 * `method` says which one produced the interval.  A bootstrap interval
 * describes uncertainty; it does not decide perfreg's verdict (a
 * percentile bootstrap with 3 values a side has about 10% false
 * positives at 95%), see perfreg/verdict.h.
 *
 * Negative data: the ratio is defined when both statistics are nonzero
 * and have the same sign (the log ratio then uses absolute values); a
 * bootstrap replicate whose base statistic is 0 or changes sign makes the
 * interval unbounded, which is reported as PR_EUNDEF.
 *
 * Thread-safe: no global state; each call has its own generator.
 */
#ifndef PERFREG_RATIO_H
#define PERFREG_RATIO_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/error.h"

#define PR_RATIO_BOOT_MAX 20000    /* na + nb above this: asymptotic */
#define PR_RATIO_BOOT_REPS 2000    /* default number of replicates */
#define PR_RATIO_BOOT_REPS_MIN 100 /* fewer is refused (PR_EINVAL) */
#define PR_RATIO_BOOT_REPS_MAX 100000

enum pr_ratio_kind { PR_RATIO_MEANS, PR_RATIO_MEDIANS };
enum pr_ratio_method { PR_RATIO_BOOTSTRAP, PR_RATIO_ASYMPTOTIC };

struct pr_ratio_ci {
	double ratio; /* statistic(b) / statistic(a) */
	double lo, hi;
	enum pr_ratio_method method;
	unsigned reps; /* bootstrap replicates used, 0 for asymptotic */
};

/*
 * a and b sorted ascending, finite, na, nb >= 2 (PR_EINVAL otherwise),
 * 0 < conf < 1.  reps 0 means PR_RATIO_BOOT_REPS; otherwise it must lie
 * in [PR_RATIO_BOOT_REPS_MIN, PR_RATIO_BOOT_REPS_MAX].  PR_EUNDEF when
 * the base statistic is 0, the two statistics have different signs, or
 * the interval is unbounded (see above).  Work is bounded: at most
 * reps * PR_RATIO_BOOT_MAX draws, O(na + nb) otherwise.  Scratch memory
 * O(max(na, nb) + reps) for the bootstrap, taken with malloc and freed
 * before returning (PR_ENOMEM when that fails); none otherwise.  On
 * failure *out is left zeroed.
 */
enum pr_status pr_ratio_ci(enum pr_ratio_kind kind, const double *a, size_t na,
    const double *b, size_t nb, double conf, uint64_t seed, unsigned reps,
    struct pr_ratio_ci *out, struct pr_error *err);

/*
 * The Bonett-Price standard error of the median of sorted x (n >= 1) as
 * described above; 0 when the two order statistics coincide.  Exposed for
 * the tests and for reports.
 */
double pr_median_se(const double *sorted, size_t n);

#endif /* PERFREG_RATIO_H */
