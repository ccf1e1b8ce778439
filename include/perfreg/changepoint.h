/*
 * perfreg/changepoint.h - where in a series did the level change?
 *
 * The detector takes a series of points in order (one a session, a
 * commit, a day) and finds the points where its level shifted, the single
 * points that stand out from their neighbours (spikes), and a possible
 * change in the last few points that is too recent to be sure of.  Its
 * defaults need no tuning per series: the noise is learned from the
 * series itself.
 *
 * Method (the man page's STATISTICAL METHODS repeats it):
 * 1. Spikes.  Each point is compared with the median of the 7 points
 *    centred on it (fewer at the ends); with s the scaled MAD (1.4826 x
 *    the median absolute deviation) of those residuals, a point further
 *    than 3 s from its running median is clipped to that bound for the
 *    steps below, and reported as a spike when it is further than z* s,
 *    z* = the normal quantile 1 - alpha / (2 n) (Bonferroni over the
 *    points).  A running median follows a step, so the points of a real
 *    shift are not clipped.
 * 2. Candidates: the exact minimum of the penalised cost
 *        sum over segments of sum_i w_i (y_i - mean_w(segment))^2
 *        + beta * (number of changes),
 *    over every segmentation whose segments hold at least min_segment
 *    points (optimal partitioning, pruned as PELT does and by the
 *    interval in which a candidate's last-segment cost can still be the
 *    lowest, both exact).  beta = 2 sigma^2 ln n with sigma the scaled MAD
 *    of neighbour differences over sqrt 2 (the standard deviation of the
 *    noise if the series were white noise around its steps).
 * 3. Confirmation.  The candidates come from a white-noise model; real
 *    series drift, trend and wander.  Each candidate c, between its
 *    neighbours a and b, is tested by two weighted least-squares fits over
 *    [a, b), y = level + slope t + step [t >= c] and the same with a
 *    curvature t^2: the step is what the local trend, a line or a
 *    parabola, does not explain, and the stronger test counts (the
 *    parabola finds a step on a curving trend, whose misfit the line
 *    takes for noise).  Its variance is the residual variance (the
 *    parabola's over the points less 4) times (1 + rho) / (1 - rho), rho
 *    the lag-1 autocorrelation of the residuals within each side (clipped
 *    to [0, 0.98]): the long-run variance of AR(1) noise, so that a series
 *    that wanders slowly needs a larger step.  The weakest candidate is
 *    removed while its z^2 = step^2 / var is below the Bonferroni
 *    threshold over the points and the two tests, the normal quantile
 *    1 - alpha / (4 n) squared (a family-wise false-alarm rate of alpha
 *    over the series), and its neighbours are tested again.
 * 4. A change in the last min_segment - 1 points cannot be confirmed:
 *    the strongest such step (by the line's test over the last segment,
 *    at z*) is reported as possible, with the number of points it still
 *    needs.
 *
 * Each change gets its change in percent with an interval (the step over
 * the level of the segment before it; the interval the step's, at conf,
 * from the same variance, so it holds the trend and autocorrelation
 * corrections), a Bonferroni-adjusted p-value, and a verdict: a change
 * whose whole interval lies within +-equivalence_pct is dropped (not a
 * regression, not reported), others are regressions or improvements by
 * the metric's direction, or PR_VERDICT_INCONCLUSIVE ("a change, of
 * unknown direction") when the direction is unknown.  Percentages are
 * defined only when the level before is positive; otherwise change_pct is
 * flagged absent and only the step is given.  When every point is
 * positive a level cannot fall by more than itself: a trend-adjusted step
 * below -100% (a trend extrapolated past zero) is then given as the change
 * of the two segments' levels, and an interval ends at -100%.
 *
 * The noise may be given instead (pr_cp_opts.noise_sd): for a stored
 * history, the spread between repeated sessions of one commit measures it
 * without any change between them (pr_cp_replicate_sd); it then replaces
 * sigma above, in the penalty, the threshold's scale and the weights.
 *
 * Points may carry their own variance (a session mean's squared standard
 * error): then w_i = 1 / (tau^2 + v_i), normalised to mean 1, tau^2 the
 * noise the points' own variances do not explain (sigma^2 - mean v, at
 * least 0; if that is 0, a tenth of sigma^2), so a boundary between two
 * noisy points is less sure than between two tight ones.  Without
 * variances every w_i is 1.
 *
 * Cost: O(n) memory; time about O(n log n) for series with few or many
 * changes (the pruning keeps a handful of candidates), O(n^2) in the worst
 * case.  Reentrant; no global state.  The result owns its arrays: release
 * it with pr_cp_result_release.
 */
#ifndef PERFREG_CHANGEPOINT_H
#define PERFREG_CHANGEPOINT_H

#include <stddef.h>

#include "perfreg/error.h"
#include "perfreg/verdict.h"

#define PR_CP_ALPHA_DEFAULT 0.01
#define PR_CP_MIN_SEGMENT_DEFAULT 5
/* Fewest points a series needs: two segments of 2 points. */
#define PR_CP_MIN_POINTS 4

struct pr_cp_opts {
	double alpha;           /* false-alarm rate over the series, (0, 1) */
	size_t min_segment;     /* points a confirmed segment holds, >= 2 */
	double conf;            /* interval confidence, (0, 1) */
	double equivalence_pct; /* changes inside +-this are dropped, >= 0 */
	enum pr_better better;  /* direction of the series' figure */
	double noise_sd;        /* the noise when known (> 0), else 0: learnt */
	size_t noise_df; /* the degrees of freedom of noise_sd (reported) */
};

/* The fewest degrees of freedom of repeated measurements for their noise
 * to be taken instead of the series' own estimate (perfreg history). */
#define PR_CP_REPLICATE_DF_MIN 5

/* Fills *o with the defaults: alpha 0.01, min_segment 5, conf 0.95,
 * equivalence 1%, direction unknown, the noise learnt from the series. */
void pr_cp_opts_init(struct pr_cp_opts *o);

/*
 * The noise of repeated measurements: the pooled standard deviation of
 * y[0..n-1] within each run of adjacent points with equal, non-NULL
 * keys (the sessions of one commit), sqrt(sum of squares about each
 * run's mean / df), into *sd, and its degrees of freedom df (the points
 * in such runs minus the runs) into *df; both 0 when no key repeats.
 * The squares are taken in units of the largest deviation, so sd is
 * finite whenever it fits a double.
 */
void pr_cp_replicate_sd(const double *y, const char *const *key, size_t n,
    double *sd, size_t *df);

/*
 * Whether pr_cp_detect takes sd as the noise given (pr_cp_opts.noise_sd)
 * for the finite y[0..n-1]: sd above 0 and finite, and in range for the
 * values' magnitude (see pr_cp_detect's errors).  A caller that derived
 * sd (pr_cp_replicate_sd) learns the noise instead when it is not.
 */
int pr_cp_noise_usable(const double *y, size_t n, double sd);

/* Bits of pr_cp_change.defined. */
enum {
	PR_CP_PCT = 1 << 0 /* change_pct and its interval are defined */
};

struct pr_cp_change {
	size_t index;            /* first point of the new level, 0-based */
	size_t seg_start;        /* first point of the segment before */
	size_t seg_end;          /* one past the last of the segment after */
	double before, after;    /* weighted means of the two segments */
	double step;             /* the trend-adjusted step at index */
	double step_lo, step_hi; /* its interval at conf */
	double change_pct;       /* 100 step / before */
	double ci_lo_pct, ci_hi_pct;
	double z;          /* step / its standard error */
	double p_adjusted; /* min(1, 4 n P(|Z| > |z|)): n points, 2 tests */
	enum pr_verdict verdict;
	unsigned defined; /* PR_CP_* */
};

struct pr_cp_spike {
	size_t index;
	double value;    /* as given */
	double expected; /* the running median at that point */
	double z;        /* (value - expected) / s */
};

struct pr_cp_tail {
	int possible;      /* 1: the last points may start a change */
	size_t index;      /* its first point */
	size_t needs;      /* points still needed to confirm it */
	double step;       /* the step, as for a change */
	double change_pct; /* defined when before > 0 (have_pct) */
	int have_pct;
	double z;
};

struct pr_cp_result {
	size_t n;
	struct pr_cp_change *changes; /* in order of index */
	size_t nchanges;
	struct pr_cp_spike *spikes; /* in order of index */
	size_t nspikes;
	struct pr_cp_tail tail;
	double sigma;      /* the noise: from neighbour differences, or
			      the one given (noise_given) */
	int noise_given;   /* sigma is pr_cp_opts.noise_sd */
	double threshold;  /* |z| a change is confirmed at (step 3) */
	size_t candidates; /* changes step 2 found before confirmation */
	int constant;      /* no noise: every point is the one before plus
			      the same amount (all equal, or a straight
			      line): nothing is detected */
	int all_equal;     /* constant, and every point is the same value:
			      bad input for the commands (nothing to
			      detect), unlike a straight line */
};

/*
 * Detects the changes of y[0..n-1] (finite values) as described above.
 * var may be NULL, or holds n variances >= 0 of the points.  o may be
 * NULL for the defaults.  Errors: PR_EINVAL for a value or variance that
 * is not finite (the message names its 1-based position), options outside
 * their domain, or n < PR_CP_MIN_POINTS ("at least 4 points"), a noise
 * given (noise_sd) out of range for the series' magnitude (one that,
 * taken in units of a power of two near the largest |y|, is 0 or beyond
 * a finite square); PR_ENOMEM.
 * On failure *out is zeroed and holds nothing.
 */
enum pr_status pr_cp_detect(const double *y, const double *var, size_t n,
    const struct pr_cp_opts *o, struct pr_cp_result *out, struct pr_error *err);

/* Frees what *r holds and zeroes it; a zeroed result is a no-op. */
void pr_cp_result_release(struct pr_cp_result *r);

/*
 * Step 2 alone, for tests and for callers with their own penalty: the
 * segmentation of y (weights w, NULL for all 1) minimising the penalised
 * cost above with segments of at least min_segment >= 1 points.  The
 * changes (first points of each new segment, ascending) are written to
 * *cps, allocated (the caller frees it; NULL when there are none), their
 * number to *ncps, and the minimum cost (without the -beta of the first
 * segment: sum of the segments' costs + beta * changes) to *cost.  Ties
 * between equal costs go to the earliest last change, as a search of every
 * segmentation in order would.  n >= min_segment; penalty >= 0 and finite.
 */
enum pr_status pr_cp_segment(const double *y, const double *w, size_t n,
    double penalty, size_t min_segment, size_t **cps, size_t *ncps,
    double *cost, struct pr_error *err);

#endif
