/*
 * stats/ratio.c - intervals for the ratio of means or medians (new/base).
 *
 * Small and moderate samples (na + nb <= PR_RATIO_BOOT_MAX): a seeded
 * percentile bootstrap (B. Efron and R. J. Tibshirani, "An Introduction
 * to the Bootstrap", 1993, ch. 13).  Each replicate draws na indices into
 * a and then nb into b from one xoshiro256** stream; the mean of a
 * resample is a plain sum; its median is read from the counts of the
 * drawn indices, because the data are sorted: walking the counts in index
 * order visits the resample in ascending order, so the middle rank is
 * found in O(n) without sorting.  The interval is the pair of type-7
 * quantiles of the sorted replicate ratios.
 *
 * Large samples: the delta method on the log ratio with the standard
 * error of a mean (s/sqrt n) or of a median (Bonett and Price, 2002:
 * the order-statistic interval of the median, x_(c) .. x_(n-c+1) with
 * c = round(n/2 - sqrt n), divided by twice the normal quantile of its
 * exact binomial coverage).  Both need O(1) work on sorted data.
 *
 * Invariants: the result is finite or an error is returned; no state
 * outlives a call.
 */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/describe.h"
#include "perfreg/distrib.h"
#include "perfreg/ratio.h"
#include "perfreg/rng.h"
#include "perfreg/sample.h"
#include "core/banned.h"

static const char *
kind_str(enum pr_ratio_kind kind)
{
	return kind == PR_RATIO_MEANS ? "mean" : "median";
}

/* The mean of sorted x, with one compensated pass. */
static double
mean_of(const double *x, size_t n)
{
	double sum = 0, comp = 0, t;
	size_t i;

	for (i = 0; i < n; i++) {
		t = sum + x[i];
		if (fabs(sum) >= fabs(x[i]))
			comp += (sum - t) + x[i];
		else
			comp += (x[i] - t) + sum;
		sum = t;
	}
	return (sum + comp) / (double)n;
}

/* The sample standard deviation of x about m (n >= 2). */
static double
sd_of(const double *x, size_t n, double m)
{
	double ss = 0, d;
	size_t i;

	for (i = 0; i < n; i++) {
		d = x[i] - m;
		ss += d * d;
	}
	return sqrt(ss / (double)(n - 1));
}

static double
stat_of(enum pr_ratio_kind kind, const double *x, size_t n)
{
	return kind == PR_RATIO_MEANS ? mean_of(x, n) : pr_median_sorted(x, n);
}

/* P(Bin(n, 1/2) <= k) for k < n. */
static double
binom_half_cdf(size_t k, size_t n)
{
	return pr_betainc((double)(n - k), (double)k + 1, 0.5);
}

double
pr_median_se(const double *sorted, size_t n)
{
	double c, p, z0, w;
	size_t ci;

	if (n < 2)
		return 0;
	c = floor((double)n / 2 - sqrt((double)n) + 0.5);
	ci = c < 1 ? 1 : (size_t)c;
	w = sorted[n - ci] - sorted[ci - 1];
	if (w == 0)
		return 0;
	p = binom_half_cdf(ci - 1, n);
	z0 = -pr_norm_quantile(p);
	return w / (2 * z0);
}

/* The ratio of two statistics, or PR_EUNDEF. */
static enum pr_status
point_ratio(enum pr_ratio_kind kind, double sa, double sb, double *r,
    struct pr_error *err)
{
	if (sa == 0)
		return pr_error_set(err, PR_EUNDEF,
		    "ratio of %ss: the base %s is 0", kind_str(kind),
		    kind_str(kind));
	if ((sa < 0) != (sb < 0) || sb == 0)
		return pr_error_set(err, PR_EUNDEF,
		    "ratio of %ss: the %ss have different signs",
		    kind_str(kind), kind_str(kind));
	*r = sb / sa;
	if (!isfinite(*r))
		return pr_error_set(err, PR_ERANGE, "ratio of %ss overflows",
		    kind_str(kind));
	return PR_OK;
}

static enum pr_status
asymptotic(enum pr_ratio_kind kind, const double *a, size_t na, const double *b,
    size_t nb, double conf, double sa, double sb, struct pr_ratio_ci *out,
    struct pr_error *err)
{
	double sea, seb, ra, rb, se, z, lr;

	if (kind == PR_RATIO_MEANS) {
		sea = sd_of(a, na, sa) / sqrt((double)na);
		seb = sd_of(b, nb, sb) / sqrt((double)nb);
	} else {
		sea = pr_median_se(a, na);
		seb = pr_median_se(b, nb);
	}
	/* Relative errors first, so that huge or tiny scales cannot
	 * overflow the squares. */
	ra = sea / fabs(sa);
	rb = seb / fabs(sb);
	se = hypot(ra, rb);
	z = pr_norm_quantile(0.5 + conf / 2);
	lr = log(out->ratio);
	out->lo = exp(lr - z * se);
	out->hi = exp(lr + z * se);
	out->method = PR_RATIO_ASYMPTOTIC;
	out->reps = 0;
	if (!isfinite(out->lo) || !isfinite(out->hi) || out->lo <= 0)
		return pr_error_set(err, PR_ERANGE,
		    "interval of the ratio of %ss overflows", kind_str(kind));
	return PR_OK;
}

/* One resample of x (sorted, n values) and its statistic. */
static double
resample(enum pr_ratio_kind kind, const double *x, size_t n, struct pr_rng *rng,
    uint32_t *count)
{
	double sum = 0;
	size_t i, seen, lo_rank, hi_rank, lo_i;

	if (kind == PR_RATIO_MEANS) {
		for (i = 0; i < n; i++)
			sum += x[pr_rng_below(rng, n)];
		return sum / (double)n;
	}
	assert(count != NULL); /* the caller allocates it for medians */
	memset(count, 0, n * sizeof(*count));
	for (i = 0; i < n; i++)
		count[pr_rng_below(rng, n)]++;
	/* The 0-based ranks of the middle value(s) of the resample; the
	 * counts, read in index order, list the resample in ascending
	 * order. */
	lo_rank = (n - 1) / 2;
	hi_rank = n / 2;
	seen = 0;
	lo_i = n;
	for (i = 0; i < n; i++) {
		seen += count[i];
		if (lo_i == n && seen > lo_rank)
			lo_i = i;
		if (seen > hi_rank)
			break;
	}
	if (lo_rank == hi_rank)
		return x[i];
	return 0.5 * x[lo_i] + 0.5 * x[i];
}

static enum pr_status
bootstrap(enum pr_ratio_kind kind, const double *a, size_t na, const double *b,
    size_t nb, double conf, uint64_t seed, unsigned reps, double sa,
    struct pr_ratio_ci *out, struct pr_error *err)
{
	struct pr_rng rng;
	uint32_t *count = NULL;
	double *r = NULL, ra, rb;
	size_t nmax = na > nb ? na : nb;
	unsigned i;
	enum pr_status st = PR_OK;

	r = malloc(reps * sizeof(*r));
	if (kind == PR_RATIO_MEDIANS)
		count = malloc(nmax * sizeof(*count));
	if (r == NULL || (kind == PR_RATIO_MEDIANS && count == NULL)) {
		st = pr_error_set(err, PR_ENOMEM,
		    "out of memory for the bootstrap of the ratio");
		goto out;
	}
	pr_rng_seed(&rng, seed);
	for (i = 0; i < reps; i++) {
		ra = resample(kind, a, na, &rng, count);
		rb = resample(kind, b, nb, &rng, count);
		if (ra == 0 || (ra < 0) != (sa < 0)) {
			st = pr_error_set(err, PR_EUNDEF,
			    "ratio of %ss: the interval is unbounded "
			    "(the base %s can be 0)",
			    kind_str(kind), kind_str(kind));
			goto out;
		}
		r[i] = rb / ra;
		if (!isfinite(r[i])) {
			st = pr_error_set(err, PR_ERANGE,
			    "ratio of %ss overflows", kind_str(kind));
			goto out;
		}
	}
	pr_sort_doubles(r, reps);
	out->lo = pr_quantile_sorted(r, reps, 0.5 - conf / 2);
	out->hi = pr_quantile_sorted(r, reps, 0.5 + conf / 2);
	out->method = PR_RATIO_BOOTSTRAP;
	out->reps = reps;
out:
	free(count);
	free(r);
	return st;
}

enum pr_status
pr_ratio_ci(enum pr_ratio_kind kind, const double *a, size_t na,
    const double *b, size_t nb, double conf, uint64_t seed, unsigned reps,
    struct pr_ratio_ci *out, struct pr_error *err)
{
	enum pr_status st;
	double sa, sb;

	memset(out, 0, sizeof(*out));
	if (kind != PR_RATIO_MEANS && kind != PR_RATIO_MEDIANS)
		return pr_error_set(err, PR_EINVAL, "unknown ratio kind %d",
		    (int)kind);
	if (a == NULL || b == NULL || na < 2 || nb < 2)
		return pr_error_set(err, PR_EINVAL,
		    "ratio interval needs at least 2 values a side, "
		    "got %zu and %zu",
		    na, nb);
	if (!(conf > 0 && conf < 1))
		return pr_error_set(err, PR_EINVAL,
		    "confidence must lie strictly between 0 and 1, got %g",
		    conf);
	if (reps == 0)
		reps = PR_RATIO_BOOT_REPS;
	if (reps < PR_RATIO_BOOT_REPS_MIN || reps > PR_RATIO_BOOT_REPS_MAX)
		return pr_error_set(err, PR_EINVAL,
		    "bootstrap replicates must lie in [%d, %d], got %u",
		    PR_RATIO_BOOT_REPS_MIN, PR_RATIO_BOOT_REPS_MAX, reps);
	sa = stat_of(kind, a, na);
	sb = stat_of(kind, b, nb);
	if ((st = point_ratio(kind, sa, sb, &out->ratio, err)) != PR_OK)
		goto fail;
	if (na + nb <= PR_RATIO_BOOT_MAX)
		st = bootstrap(kind, a, na, b, nb, conf, seed, reps, sa, out,
		    err);
	else
		st = asymptotic(kind, a, na, b, nb, conf, sa, sb, out, err);
	if (st == PR_OK)
		return PR_OK;
fail:
	memset(out, 0, sizeof(*out));
	return st;
}
