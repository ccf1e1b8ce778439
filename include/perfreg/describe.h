/*
 * perfreg/describe.h - descriptive statistics of one sample.
 *
 * Definitions (the man page repeats them):
 * - median: the middle value, or the mean of the two middle values for an
 *   even count (ministat takes the upper one; perfreg averages, as
 *   statistics texts do);
 * - quartiles q1, q3: linear interpolation between order statistics, the
 *   method of R's quantile(type = 7) and numpy's default;
 * - stddev: the sample standard deviation (divisor n - 1), computed in two
 *   passes for accuracy;
 * - mad: the raw median absolute deviation from the median (not scaled by
 *   1.4826);
 * - cv: stddev / |mean|, undefined when the mean is 0.
 *
 * A figure that is undefined for the data (the spread of one value, the cv
 * of a zero mean) has its bit cleared in `defined` and holds 0, never NaN.
 */
#ifndef PERFREG_DESCRIBE_H
#define PERFREG_DESCRIBE_H

#include <stddef.h>

#include "perfreg/error.h"

enum {
	PR_SUM_STDDEV = 1 << 0, /* needs n >= 2 */
	PR_SUM_CV = 1 << 1,     /* needs n >= 2 and mean != 0 */
	PR_SUM_QUARTILES = 1 << 2,
	PR_SUM_MAD = 1 << 3
};

struct pr_summary {
	size_t n;
	double min, max;
	double mean;
	double median;
	double q1, q3;
	double stddev;
	double var;
	double mad;
	double cv;
	unsigned defined; /* PR_SUM_* bits of the figures that are defined */
};

/*
 * Describes the n values in sorted (ascending, finite) into *out.
 *
 * n == 0 gives PR_EUNDEF.  n == 1 gives PR_OK with only n, min, max, mean,
 * median, quartiles and mad (0) defined.  Values that are not finite or
 * not in ascending order give PR_EINVAL (the message names the position);
 * a spread so large that the variance overflows (beyond about 1e154)
 * gives PR_ERANGE.  On failure *out is all zeros.
 *
 * Accuracy: mean, stddev and var are within a few ulps of the exactly
 * rounded values also for 10^7 values or a large common offset (1e9 +
 * noise): two compensated passes over deviations from a central value.
 * Cost: three passes over the data, no allocation (the mad merges the two
 * sorted runs of deviations around the median), so PR_ENOMEM never
 * happens.  Thread-safe; sorted is only read.
 */
enum pr_status pr_summary_compute(const double *sorted, size_t n,
    struct pr_summary *out, struct pr_error *err);

/*
 * The p-quantile of sorted data, R type 7: with h = (n - 1) p, the order
 * statistics x[floor h] and x[floor h + 1] interpolated linearly.  NaN for
 * n == 0 or p outside [0, 1].
 */
double pr_quantile_sorted(const double *sorted, size_t n, double p);

/* The median of sorted data, averaging the middle pair; NaN for n == 0. */
double pr_median_sorted(const double *sorted, size_t n);

#endif /* PERFREG_DESCRIBE_H */
