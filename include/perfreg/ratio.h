/*
 * perfreg/ratio.h - confidence intervals for a relative change.
 *
 * The ratio new/base of the means and of the medians, with an interval.
 * For small and moderate samples (na + nb <= PR_RATIO_BOOT_MAX) a
 * studentised-free percentile-t is not used: the interval is the BCa-free
 * plain percentile interval of a seeded bootstrap (resampling each side
 * with replacement, PR_RATIO_BOOT_REPS replicates by default), so the
 * same seed and data give the same interval on every machine.  For large
 * samples the asymptotic method is used: the delta method on the log
 * ratio, with the variance of a mean s^2/n and of a median
 * 1 / (4 n f(m)^2), f estimated by the Maritz-Jarrett/Price-Bonett
 * order-statistic method.  `method` says which one produced the
 * interval.  A bootstrap interval is a description of uncertainty, not
 * the basis of perfreg's verdict (a percentile bootstrap with 3 values a
 * side does not keep its coverage); see perfreg/verdict.h.
 */
#ifndef PERFREG_RATIO_H
#define PERFREG_RATIO_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/error.h"

#define PR_RATIO_BOOT_MAX 20000
#define PR_RATIO_BOOT_REPS 2000

enum pr_ratio_kind { PR_RATIO_MEANS, PR_RATIO_MEDIANS };
enum pr_ratio_method { PR_RATIO_BOOTSTRAP, PR_RATIO_ASYMPTOTIC };

struct pr_ratio_ci {
	double ratio; /* statistic(b) / statistic(a) */
	double lo, hi;
	enum pr_ratio_method method;
	unsigned reps; /* bootstrap replicates used, 0 for asymptotic */
};

/*
 * a and b sorted ascending, finite, na, nb >= 2.  PR_EUNDEF when the base
 * statistic is 0 or the two statistics have different signs (no ratio).
 * reps 0 means PR_RATIO_BOOT_REPS.  Work is bounded: at most
 * reps * PR_RATIO_BOOT_MAX draws.  Needs O(na + nb + reps) scratch memory.
 */
enum pr_status pr_ratio_ci(enum pr_ratio_kind kind, const double *a,
    size_t na, const double *b, size_t nb, double conf, uint64_t seed,
    unsigned reps, struct pr_ratio_ci *out, struct pr_error *err);

#endif /* PERFREG_RATIO_H */
