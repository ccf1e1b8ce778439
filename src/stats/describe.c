/*
 * stats/describe.c - descriptive statistics of one sorted sample.
 *
 * The definitions are in perfreg/describe.h.  Method: the mean and the
 * variance are computed in two passes over the data shifted by its median
 * (the "corrected two-pass algorithm" of Chan, Golub and LeVeque, "Algorithms
 * for computing the sample variance", The American Statistician 37, 1983),
 * with compensated summation of the deviations (Neumaier's, by Knuth's
 * TwoSum), so that a large common offset (1e9 + noise) or 10^7 values
 * lose no accuracy.  Quantiles
 * interpolate linearly between order statistics (Hyndman and Fan, "Sample
 * quantiles in statistical packages", 1996, definition 7).  The median
 * absolute deviation needs no selection and no scratch memory: for sorted
 * data the deviations below the median, read downwards, and those above
 * it, read upwards, are two ascending runs, and their median is found by
 * binary search over the two runs for the middle rank, in O(log n) time.
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
#include "stats/grid.h"

#include "core/banned.h"

/*
 * Compensated summation: sum + comp is the running total.  Each step adds
 * the exact rounding error of sum + x, found by Knuth's TwoSum without a
 * branch; it is the error Neumaier's variant of Kahan summation finds by
 * comparing magnitudes, so the totals are the same to the bit, without a
 * branch mispredicted on data of mixed signs.
 */
struct ksum {
	double sum;
	double comp;
};

static void
kadd(struct ksum *k, double x)
{
	double t = k->sum + x;
	double bp = t - k->sum;

	k->comp += (k->sum - (t - bp)) + (x - bp);
	k->sum = t;
}

static double
kval(const struct ksum *k)
{
	return k->sum + k->comp;
}

/*
 * Two compensated sums side by side, lane by lane each exactly kadd's
 * operations (a vector of two doubles: packed SSE2 on x86-64, the same
 * IEEE operations, so the same bits), in half the instructions: the
 * second pass's two sums were limited by the floating-point adds they
 * issue, not by their chains.
 */
typedef double v2d __attribute__((vector_size(16)));

static void
kadd2(v2d *sum, v2d *comp, v2d x)
{
	v2d t = *sum + x;
	v2d bp = t - *sum;

	*comp += (*sum - (t - bp)) + (x - bp);
	*sum = t;
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
 * The median of |x - med| over sorted data split at h = n / 2: indices
 * below the split give the run lo(j) = med - x[h - 1 - j], j = 0..h-1,
 * and the others the run hi(j) = x[h + j] - med, j = 0..n-h-1, both
 * ascending (and >= 0, because med lies between x[h - 1] and x[h]; a
 * rounded difference is monotone in x).  The element of rank k (0-based)
 * of the two runs merged is found by binary search on how many of the
 * k + 1 smallest come from the lower run, in O(log n).
 */
static double
mad_lo(const double *x, size_t h, double med, size_t j)
{
	return med - x[h - 1 - j];
}

static double
mad_hi(const double *x, size_t h, double med, size_t j)
{
	return x[h + j] - med;
}

static double
mad_rank(const double *x, size_t n, double med, size_t k)
{
	size_t h = n / 2, nl = h, nh = n - h;
	size_t lo = k + 1 > nh ? k + 1 - nh : 0;
	size_t hi = k + 1 < nl ? k + 1 : nl;
	size_t i, j;
	double a, b;

	/* The smallest i such that the (k + 1 - i)-th of the upper run is
	 * not above the (i + 1)-th of the lower: then the k + 1 smallest
	 * are i of the lower run and k + 1 - i of the upper. */
	while (lo < hi) {
		i = lo + (hi - lo) / 2;
		j = k + 1 - i;
		if (mad_hi(x, h, med, j - 1) > mad_lo(x, h, med, i))
			lo = i + 1;
		else
			hi = i;
	}
	i = lo;
	j = k + 1 - i;
	a = i > 0 ? mad_lo(x, h, med, i - 1) : -INFINITY;
	b = j > 0 ? mad_hi(x, h, med, j - 1) : -INFINITY;
	return a > b ? a : b;
}

static double
mad_sorted(const double *x, size_t n, double med)
{
	size_t want = n / 2;

	if (n % 2 == 1)
		return mad_rank(x, n, med, want);
	return mid(mad_rank(x, n, med, want - 1), mad_rank(x, n, med, want));
}

/*
 * y rounded to the nearest integer, ties to even, for |y| <= 2^52: what
 * nearbyint gives in the default rounding mode, inline (the grid pass
 * rounds every value up to ten times).  Adding 2^52 leaves no fraction
 * bits (2^52 of y's sign), so the sum is rounded to an integer; taking
 * it away is exact.
 */
static double
round_near(double y)
{
	double big = copysign(4503599627370496.0, y); /* 2^52 */

	return (y + big) - big;
}

/*
 * The grid step of x: the largest 10^-k, k = 0..9, such that every value
 * is an integer multiple of it (to within the error of reading a decimal
 * into a double), or 0 when there is none.  Values beyond 10^12 grid
 * units cannot be told from continuous ones and end the search.  The
 * tolerance is relative only: reading a decimal and scaling it by an
 * exact 10^k err by a few ulps of y, and an absolute one would take any
 * value below it (3.2e-7 s) for a multiple of 1.
 */
double
pr_grid_step(const double *x, size_t n)
{
	double scale = 1, y;
	size_t i;
	int k;

	/* NOLINTNEXTLINE(cert-flp30-c): k counts the loop; scale follows it */
	for (k = 0; k <= 9; k++, scale *= 10) {
		for (i = 0; i < n; i++) {
			y = x[i] * scale;
			if (fabs(y) > 1e12)
				return 0;
			if (fabs(y - round_near(y)) > 1e-14 * fabs(y))
				break;
		}
		if (i == n)
			return 1 / scale;
	}
	return 0;
}

/* x scaled by 10^k is on the grid and within its range. */
static inline int
on_grid(double x, double scale)
{
	double y = x * scale;

	return !(fabs(y) > 1e12) &&
	    !(fabs(y - round_near(y)) > 1e-14 * fabs(y));
}

/*
 * pr_grid_step's search, one value at a time in the order of its scans:
 * x[0, i) are on the grid at k (scale = 10^k, scaled as pr_grid_step
 * scales: times 10 a step); done once the step is known.
 */
struct grid {
	double scale, step;
	int k, done;
};

/*
 * x[i] is off the grid at g->k, or beyond its range: what pr_grid_step's
 * scan at k meets first after x[0, i).  Beyond the range ends the search
 * with 0; off the grid moves to the next k, whose scan starts again at 0
 * and goes up to i (x[0, i] are then on the grid) or stops at a value
 * that is not, which is judged the same way.
 */
static void
grid_miss(struct grid *g, const double *x, size_t i)
{
	size_t j = i;

	for (;;) {
		if (fabs(x[j] * g->scale) > 1e12 || ++g->k > 9) {
			g->done = 1;
			g->step = 0;
			return;
		}
		g->scale *= 10;
		for (j = 0; j <= i && on_grid(x[j], g->scale); j++)
			;
		if (j > i)
			return;
	}
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

/*
 * pr_summary_compute, and with grid not NULL pr_summary_grid: inlined
 * into each, so that the summary alone keeps its loop without the grid's
 * test.
 */
static inline __attribute__((always_inline)) enum pr_status
summary(const double *sorted, size_t n, struct pr_summary *out, double *grid,
    struct pr_error *err)
{
	struct ksum s1, s2, sc;
	v2d sum2, comp2;
	struct grid g = { 1, 0, 0, 0 };
	double shift, mean, d, var, scale;
	size_t i;
	int e;

	if (grid != NULL)
		*grid = 0;
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
		if (grid != NULL)
			*grid = pr_grid_step(sorted, n);
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
	sum2 = (v2d){ 0, 0 };
	comp2 = (v2d){ 0, 0 };
	for (i = 0; i < n; i++) {
		d = sorted[i] * scale - mean * scale;
		kadd2(&sum2, &comp2, (v2d){ d, d * d });
		if (grid != NULL && !g.done && !on_grid(sorted[i], g.scale))
			grid_miss(&g, sorted, i);
	}
	sc.sum = sum2[0];
	sc.comp = comp2[0];
	s2.sum = sum2[1];
	s2.comp = comp2[1];
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
	if (grid != NULL)
		*grid = g.done ? g.step : 1 / g.scale;
	return PR_OK;
}

enum pr_status
pr_summary_compute(const double *sorted, size_t n, struct pr_summary *out,
    struct pr_error *err)
{
	return summary(sorted, n, out, NULL, err);
}

enum pr_status
pr_summary_grid(const double *sorted, size_t n, struct pr_summary *out,
    double *grid, struct pr_error *err)
{
	return summary(sorted, n, out, grid, err);
}
