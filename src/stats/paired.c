/*
 * stats/paired.c - the paired t test on log-ratios, for interleaved runs.
 *
 * Method: the one-sample t test on d_i = log(new_i / base_i) (Student,
 * Biometrika 6, 1908; the log scale as in Kalibera and Jones, "Rigorous
 * benchmarking in reasonable time", ISMM 2013, which reports ratios of
 * execution times), with the interval mean(d) -+ t_{(1+conf)/2, n-1}
 * sd(d) / sqrt(n), both ends transformed by 100 (exp(x) - 1).  The mean
 * and the sum of squares are accumulated with Welford's update, which
 * stays accurate when the log-ratios are nearly equal.  The resolution
 * floor on the spread mirrors the one of stats/verdict.c (the variance
 * of rounding to a grid h is h^2/12, Sheppard's correction) carried
 * through the delta method to the log-ratio.  No division by a zero
 * standard error can happen: see perfreg/paired.h.
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "perfreg/distrib.h"
#include "perfreg/paired.h"
#include "core/banned.h"

static double
pct(double x)
{
	return 100.0 * expm1(x);
}

enum pr_status
pr_paired_logs(const double *d, size_t n, double conf, double sd_floor,
    struct pr_paired *out, struct pr_error *err)
{
	double mean = 0, m2 = 0, delta, sd, q;
	size_t i;

	if (n == 0)
		return pr_error_set(err, PR_EINVAL, "no pairs to compare");
	if (!(conf > 0 && conf < 1))
		return pr_error_set(err, PR_EINVAL,
		    "confidence %g is not between 0 and 1", conf);
	if (!(sd_floor >= 0) || !isfinite(sd_floor))
		return pr_error_set(err, PR_EINVAL,
		    "resolution floor %g is not a finite value >= 0", sd_floor);
	for (i = 0; i < n; i++) {
		if (!isfinite(d[i]))
			return pr_error_set(err, PR_EINVAL,
			    "log-ratio of round %zu is not finite", i + 1);
		delta = d[i] - mean;
		mean += delta / (double)(i + 1);
		m2 += delta * (d[i] - mean);
	}
	out->n = n;
	out->conf = conf;
	out->mean_log = mean;
	out->change_pct = pct(mean);
	out->df = (double)n - 1;
	out->have_t = 0;
	out->t = 0;
	out->p_value = 1;
	out->have_ci = 0;
	out->lo_log = out->hi_log = mean;
	out->ci_lo_pct = out->ci_hi_pct = out->change_pct;
	out->quantised = 0;
	out->degenerate = 0;
	out->sd_log = 0;
	out->se_log = 0;
	if (n < 2)
		return PR_OK;

	sd = sqrt(m2 > 0 ? m2 / (double)(n - 1) : 0);
	if (sd < sd_floor) {
		sd = sd_floor;
		out->quantised = 1;
	}
	out->sd_log = sd;
	out->se_log = sd / sqrt((double)n);
	out->have_ci = 1;
	if (!(out->se_log > 0)) {
		out->degenerate = 1;
		return PR_OK;
	}
	out->have_t = 1;
	out->t = mean / out->se_log;
	out->p_value = 2 * pr_t_sf(fabs(out->t), out->df);
	if (out->p_value > 1)
		out->p_value = 1;
	q = pr_t_quantile(0.5 + conf / 2, out->df);
	out->lo_log = mean - q * out->se_log;
	out->hi_log = mean + q * out->se_log;
	out->ci_lo_pct = pct(out->lo_log);
	out->ci_hi_pct = pct(out->hi_log);
	return PR_OK;
}

enum pr_status
pr_paired_compare(const double *base, const double *new_, size_t n, double conf,
    double resolution, struct pr_paired *out, struct pr_error *err)
{
	double *d, sb = 0, sn = 0, floor_sd = 0;
	enum pr_status st;
	size_t i;

	if (n == 0)
		return pr_error_set(err, PR_EINVAL, "no pairs to compare");
	if (!(resolution >= 0) || !isfinite(resolution))
		return pr_error_set(err, PR_EINVAL,
		    "resolution %g is not a finite value >= 0", resolution);
	for (i = 0; i < n; i++) {
		if (!(isfinite(base[i]) && base[i] > 0 && isfinite(new_[i]) &&
			new_[i] > 0))
			return pr_error_set(err, PR_EINVAL,
			    "round %zu: a log-ratio needs positive values, "
			    "got %g and %g",
			    i + 1, base[i], new_[i]);
		sb += base[i];
		sn += new_[i];
	}
	d = malloc(n * sizeof(*d));
	if (d == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		/*
		 * The ratio keeps the log-ratio accurate when the two are
		 * close; when it overflows or flushes to zero (1e300 /
		 * 1e-10), the difference of the logs is still finite.
		 */
		d[i] = new_[i] / base[i];
		if (isfinite(d[i]) && d[i] >= DBL_MIN)
			d[i] = log(d[i]);
		else
			d[i] = log(new_[i]) - log(base[i]);
	}
	if (resolution > 0) {
		sb /= (double)n;
		sn /= (double)n;
		floor_sd = resolution / sqrt(12.0) *
		    sqrt(1 / (sb * sb) + 1 / (sn * sn));
		if (!isfinite(floor_sd))
			floor_sd = 0;
	}
	st = pr_paired_logs(d, n, conf, floor_sd, out, err);
	free(d);
	return st;
}
