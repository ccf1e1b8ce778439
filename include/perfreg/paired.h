/*
 * perfreg/paired.h - the paired analysis of interleaved runs: each round
 * ran the baseline and the variant once, side by side, so each round
 * gives one log-ratio log(new / base), and slow drift of the machine's
 * speed, which moves both runs of a round alike, cancels.
 *
 * The method is the one-sample t test on the log-ratios (the paired t
 * test on the log scale): mean m, sample standard deviation s, standard
 * error s / sqrt(n), t = m / se on n - 1 degrees of freedom, the
 * two-sided p = 2 P(T > |t|), and the interval m -+ q se with q the
 * (1 + conf)/2 quantile of t.  The change is reported as a percentage of
 * the baseline, 100 (exp(m) - 1), the geometric mean ratio, with the
 * interval transformed the same way (so it is not symmetric).
 *
 * Zero spread (all log-ratios equal, common when a timer's resolution is
 * coarse compared with the spread) is never divided by.  The caller may
 * give the resolution h of the raw values: s is then never taken below
 * the spread that rounding to that grid alone would give a log-ratio,
 * sqrt(h^2/12 (1/mean_base^2 + 1/mean_new^2)), and `quantised` says so.
 * Without a resolution, zero spread gives `degenerate`: no test (have_t
 * is 0, p_value 1) and an interval that is the point estimate.
 *
 * Thread-safety: reentrant, no global state.  No memory is held.
 */
#ifndef PERFREG_PAIRED_H
#define PERFREG_PAIRED_H

#include <stddef.h>

#include "perfreg/error.h"

struct pr_paired {
	size_t n; /* pairs */
	double conf;
	double mean_log; /* mean of log(new/base) */
	double sd_log;   /* sample sd used (after the floor); 0 for n 1 */
	double se_log;
	double df;      /* n - 1 */
	int have_t;     /* a test was possible: n >= 2, se > 0 */
	double t;       /* mean_log / se_log when have_t, else 0 */
	double p_value; /* two-sided when have_t, else 1 */
	int have_ci;    /* n >= 2 (a point when degenerate) */
	double lo_log, hi_log;
	double change_pct; /* 100 (exp(mean_log) - 1) */
	double ci_lo_pct, ci_hi_pct;
	int quantised;  /* the resolution floor raised sd_log */
	int degenerate; /* zero spread and no resolution: no test */
};

/*
 * Analyses n pairs: base[i] and new_[i] are the two runs of round i,
 * both finite and > 0 (PR_EINVAL otherwise, naming the round: a
 * log-ratio needs positive values).  conf in (0, 1).  resolution >= 0
 * is the grid the values were measured on (0: unknown).  n >= 1; with
 * n = 1 there is no interval and no test.
 */
enum pr_status pr_paired_compare(const double *base, const double *new_,
    size_t n, double conf, double resolution, struct pr_paired *out,
    struct pr_error *err);

/*
 * The same on log-ratios given directly (d[i] finite), with the floor
 * sd_floor >= 0 on the standard deviation (0: none).
 */
enum pr_status pr_paired_logs(const double *d, size_t n, double conf,
    double sd_floor, struct pr_paired *out, struct pr_error *err);

#endif /* PERFREG_PAIRED_H */
