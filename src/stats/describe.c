/*
 * stats/describe.c - descriptive statistics of one sorted sample.
 *
 * The definitions are in perfreg/describe.h.  Method: the mean and the
 * variance are computed in two passes over the data shifted by its median
 * (the "corrected two-pass algorithm" of Chan, Golub and LeVeque, "Algorithms
 * for computing the sample variance", The American Statistician 37, 1983),
 * with Neumaier's compensated summation of the deviations, so that a large
 * common offset (1e9 + noise) or 10^7 values lose no accuracy.  Quantiles
 * interpolate linearly between order statistics (Hyndman and Fan, "Sample
 * quantiles in statistical packages", 1996, definition 7).  The median
 * absolute deviation needs no selection and no scratch memory: for sorted
 * data the deviations below the median, read downwards, and those above
 * it, read upwards, are two ascending runs, and their median is found by
 * merging the runs up to the middle rank, in O(n) time.
 *
 * The deviations from the mean are scaled by a power of two that brings
 * the range of the data near 1 (exact), so that no square overflows or
 * underflows before the end.
 *
 * Invariants: every figure whose bit is clear in `defined` holds 0, never
 * NaN; nothing here allocates.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "perfreg/describe.h"

#include "core/banned.h"

/* Neumaier's variant of Kahan summation: sum + comp is the running total. */
struct ksum {
	double sum;
	double comp;
};

static void
kadd(struct ksum *k, double x)
{
	double t = k->sum + x;

	if (fabs(k->sum) >= fabs(x))
		k->comp += (k->sum - t) + x;
	else
		k->comp += (x - t) + k->sum;
	k->sum = t;
}

static double
kval(const struct ksum *k)
{
	return k->sum + k->comp;
}

/* The mean of a and b without overflow; exact halves, one rounding. */
static double
mid(double a, double b)
{
	return 0.5 * a + 0.5 * b;
}

double
pr_quantile_sorted(const double *sorted, size_t n, double p)
{
	double h, g, lo, hi;
	size_t j;

	if (n == 0 || !(p >= 0 && p <= 1))
		return NAN;
	h = (double)(n - 1) * p;
	j = (size_t)h;
	if (j >= n - 1)
		return sorted[n - 1];
	g = h - (double)j;
	lo = sorted[j];
	hi = sorted[j + 1];
	/*
	 * Interpolate from the nearer end, as numpy does, so that the result
	 * stays within [lo, hi] and equal neighbours give exactly their value.
	 */
	if (g < 0.5)
		return lo + (hi - lo) * g;
	return hi - (hi - lo) * (1 - g);
}

double
pr_median_sorted(const double *sorted, size_t n)
{
	if (n == 0)
		return NAN;
	if (n % 2 == 1)
		return sorted[n / 2];
	return mid(sorted[n / 2 - 1], sorted[n / 2]);
}

/*
 * The median of |x - med| over sorted data split at n / 2: indices below
 * the split give med - x[i], ascending as i goes down; the others give
 * x[i] - med, ascending as i goes up (all are >= 0 because med lies between
 * x[n/2 - 1] and x[n/2]).  Merging the two runs up to rank n / 2 yields the
 * middle element(s).
 */
static double
mad_sorted(const double *x, size_t n, double med)
{
	size_t want = n / 2, r;
	size_t lo = want; /* next lower index is lo - 1 */
	size_t hi = want; /* next upper index is hi */
	double prev = 0, cur = 0, dl, dh;

	for (r = 0; r <= want; r++) {
		prev = cur;
		dl = lo > 0 ? med - x[lo - 1] : INFINITY;
		dh = hi < n ? x[hi] - med : INFINITY;
		if (dl <= dh) {
			cur = dl;
			lo--;
		} else {
			cur = dh;
			hi++;
		}
	}
	if (n % 2 == 1)
		return cur;
	return mid(prev, cur);
}

/* The error for sorted[i], which is not finite or out of order. */
static enum pr_status
badvalue(const double *sorted, size_t i, struct pr_error *err)
{
	if (!isfinite(sorted[i]))
		return pr_error_set(err, PR_EINVAL, "value %zu is not finite",
		    i + 1);
	return pr_error_set(err, PR_EINVAL,
	    "values are not sorted: value %zu is below the one before", i + 1);
}

enum pr_status
pr_summary_compute(const double *sorted, size_t n, struct pr_summary *out,
    struct pr_error *err)
{
	struct ksum s1, s2, sc;
	double shift, mean, d, var, scale;
	size_t i;
	int e;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return pr_error_set(err, PR_EUNDEF, "no values to describe");
	/*
	 * With finite ends, ascending order (checked in the first pass,
	 * where a NaN fails the comparison too) makes every value finite.
	 */
	if (!isfinite(sorted[0]))
		return badvalue(sorted, 0, err);
	if (!isfinite(sorted[n - 1]))
		return badvalue(sorted, n - 1, err);

	out->n = n;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = pr_median_sorted(sorted, n);
	out->q1 = pr_quantile_sorted(sorted, n, 0.25);
	out->q3 = pr_quantile_sorted(sorted, n, 0.75);
	out->defined = PR_SUM_QUARTILES | PR_SUM_MAD;
	if (n == 1) {
		out->mean = sorted[0];
		return PR_OK;
	}

	/*
	 * Deviations are scaled by a power of two (exactly) that brings the
	 * range near 1, so that neither they nor their squares overflow or
	 * underflow whatever the magnitude of the data.
	 */
	(void)frexp(0.5 * out->max - 0.5 * out->min, &e);
	/* A subnormal range would ask for a scale beyond DBL_MAX: 2^1000
	 * already lifts it far from underflow. */
	if (-(e + 1) > 1000)
		e = -1001;
	scale = ldexp(1, -(e + 1));
	if (out->max == out->min)
		scale = 1;

	/* First pass: the mean of the values shifted by a central one. */
	shift = sorted[n / 2];
	memset(&s1, 0, sizeof(s1));
	kadd(&s1, sorted[0] * scale - shift * scale);
	for (i = 1; i < n; i++) {
		if (!(sorted[i] >= sorted[i - 1])) {
			memset(out, 0, sizeof(*out));
			return badvalue(sorted, i, err);
		}
		kadd(&s1, sorted[i] * scale - shift * scale);
	}
	mean = shift + kval(&s1) / (double)n / scale;

	/*
	 * Second pass: squared deviations from that mean, and their plain
	 * sum, which would be 0 in exact arithmetic and corrects both the
	 * mean and the variance for the rounding of the first pass.
	 */
	memset(&s2, 0, sizeof(s2));
	memset(&sc, 0, sizeof(sc));
	for (i = 0; i < n; i++) {
		d = sorted[i] * scale - mean * scale;
		kadd(&sc, d);
		kadd(&s2, d * d);
	}
	d = kval(&sc);
	var = (kval(&s2) - d * d / (double)n) / (double)(n - 1);
	mean += d / (double)n / scale;
	if (var < 0)
		var = 0;
	/* The mean of values all in [min, max] lies there too. */
	out->mean = fmin(fmax(mean, out->min), out->max);
	out->stddev = sqrt(var) / scale;
	out->var = var / scale / scale;
	if (!isfinite(out->var)) {
		memset(out, 0, sizeof(*out));
		return pr_error_set(err, PR_ERANGE,
		    "the values are too spread out: their variance overflows");
	}
	out->defined |= PR_SUM_STDDEV;
	out->mad = mad_sorted(sorted, n, out->median);
	/* A mean that is 0, or so small that the ratio overflows. */
	out->cv = out->mean != 0 ? out->stddev / fabs(out->mean) : 0;
	if (isfinite(out->cv) && out->mean != 0)
		out->defined |= PR_SUM_CV;
	else
		out->cv = 0;
	return PR_OK;
}
