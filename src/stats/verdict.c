/*
 * stats/verdict.c - the comparison of a metric and its verdict.
 *
 * The rule is summarised in perfreg/verdict.h; here is how and why.
 *
 * Primary method.  A t test on the raw values: Student's pooled t when
 * the sides have the same size (for equal sizes the pooled and Welch
 * statistics coincide, and the pooled df, na + nb - 2, keeps the power
 * of ministat's rule at 3 values a side), Welch's t otherwise.  The
 * change is the ratio of the means and its interval is Fieller's
 * (E. C. Fieller, "Some problems in interval estimation", JRSS B 16,
 * 1954): the ratios rho with (m_b - rho m_a)^2 <= q^2 (v_b + rho^2 v_a),
 * v the squared standard errors of the means and q the t quantile of the
 * test.  rho = 1 lies in it exactly when |t| <= q, so interval and
 * p-value never disagree.  The interval is bounded when
 * g = q^2 v_a / m_a^2 < 1 (the base mean is clearly not 0):
 *   rho = (r -+ (q / |m_a|) sqrt(v_b + r^2 v_a - g v_b)) / (1 - g).
 *
 * Adaptive choice.  With PR_VERDICT_ADAPT_MIN to PR_VERDICT_ADAPT_MAX
 * positive values a side, the shape of the pooled sample is measured by
 * Hogg's statistics (R. V. Hogg, D. M. Fisher and R. H. Randles, "A
 * two-sample adaptive distribution-free test", JASA 70, 1975):
 *   Q1 = (U05 - M50) / (M50 - L05)  (skewness; 1 for symmetric data),
 *   Q2 = (U05 - L05) / (U50 - L50)  (tail weight; 2.59 for normal),
 * U_p / L_p the mean of the largest / smallest fraction p and M50 the
 * mean of the middle half (fractional order statistics weighted).  As in
 * their paper the selector sees only the pooled values, not which side
 * each came from: with no change the permutation distribution used below
 * is then the same whatever the selector says, and the maximum test
 * keeps its level exactly (a selector on the residuals of each side, which
 * this code first used, raised the false positives of normal data at 10
 * a side from 4.9% to 5.1%).  A change between the sides flattens the
 * pooled sample, so large changes lean towards the t test, which is
 * where it is strongest.  When Q1 > PR_SKEW_MAX,
 * Q1 < 1 / PR_SKEW_MAX or Q2 > PR_TAIL_MAX, the t test gives way to a
 * maximum test (M. Neuhaeuser, H. Buening and L. A. Hothorn, "Maximum
 * test versus adaptive tests for the two-sample location problem",
 * J. Appl. Statist. 31, 2004): the statistic is the larger of |t|,
 * Student's pooled t of the values, and |z_r|, the standardised rank sum
 * of the new side (Wilcoxon-Mann-Whitney, mid-ranks for ties), and its
 * p-value comes from the permutation distribution of that maximum,
 * PR_VERDICT_PERMS random splits of the pooled values seeded with
 * opts.seed: p = (1 + #{splits at least as extreme}) / (B + 1) (B. Phipson
 * and G. K. Smyth, "Permutation p-values should never be zero", SAGMB 9,
 * 2010), exact for exchangeable data whatever their distribution.  When
 * no split is as extreme, p is the smaller of 1 / (B + 1) and the
 * Bonferroni bound 4 P(Z > S) of the normal limit.  Above
 * PR_VERDICT_PERM_MAX pooled values the permutation distribution is
 * replaced by its normal limit: the two sums are linear permutation
 * statistics, jointly normal in the limit (J. Hajek, Ann. Math. Statist.
 * 32, 1961) with the correlation of the pooled values with their ranks,
 * and P(max(|Z1|, |Z2|) >= S) is integrated numerically.
 *   Why not Mann-Whitney alone: ranks are far more powerful than t for
 * skewed or heavy-tailed noise at small changes (efficiency 1.9 for t
 * with 3 df, more for a mixture with a slow mode), but for a 20% slow
 * mode 10% above the main one a change of 8% moves the main mode next to
 * the slow one, where ranks lose to the means (bench/verdict-sim: 81% vs
 * 98% power at 10 a side).  The maximum test keeps both.  The statistic
 * takes t for the means and z for the ranks on purpose: t grows faster
 * than z for large changes, which tilts the maximum towards the means
 * where they are strong.
 *   The change and interval are those of the winner: Fieller's interval
 * of the ratio of means when |t| is the larger (method Student or
 * Welch), else the Hodges-Lehmann estimate of the ratio new/base (the
 * median of all pairwise ratios, computed as the shift of the log
 * values) with the distribution-free interval of the Mann-Whitney test
 * (method Mann-Whitney); PR_NOTE_MAXTEST says that p is the maximum
 * test's.  A verdict is never against its own interval: p < alpha with
 * an interval that contains 0 stays inconclusive.
 *   The thresholds, PR_SKEW_MAX = 1.8 and PR_TAIL_MAX = 3.0, were tuned
 * with bench/verdict-sim.  With no change, normal samples of 10 a side
 * switch in 21% of the trials (8% at 20, 4% at 30) and lose no
 * measurable power, as the maximum test is nearly as good as t there;
 * bimodal samples switch in 97-100% and t with 3 df in 60-74%.  The
 * measured rates are in bench/README.md: false positives within
 * simulation error of 5% in every cell (worst 5.11%, a cell where the
 * rule is ministat's own test), power never more than 0.11 points
 * below ministat's rule apart from the equivalence band's edge (see
 * there), and up to 44 points above it for skewed or heavy-tailed
 * noise.
 *
 * Resolution.  Values printed to a decimal grid (7.02) are rounded; equal
 * values show only that the spread is below the grid step h.  h is the
 * coarsest 10^-k (k = 0..9) on which all values of both sides lie (a
 * conservative guess when every value happens to be round: 7.10 and 7.20
 * give 0.1), 0 when there is none; each side's variance is raised to at
 * least h^2 / 12, the variance of a rounding error uniform on [-h/2,
 * h/2], before the t test.  Spreads larger than the grid are left alone
 * (they already contain the rounding noise), so continuous data are
 * unaffected.  The floor does not cover the rounding bias of a side
 * whose values all round alike, a bias that more runs do not shrink.
 *
 * Runs needed.  When inconclusive, with s the spread of one run relative
 * to the base (from the standard error of the primary method: for the
 * t test s^2 = se^2 / (1/na + 1/nb) divided by m_a^2; for Mann-Whitney
 * the interval width of the log shift divided by twice the normal
 * quantile, likewise scaled), d the observed relative change and e the
 * band, the runs per side are the fixed point of
 *   n = 2 s^2 (t_{1-alpha/2, 2n-2} + t_{power, 2n-2})^2 / D^2
 * (the usual approximation of the noncentral t power, e.g. Chow, Shao
 * and Wang, "Sample size calculations in clinical research", 2008,
 * sec. 3.2), with D = |d| (power to detect the change) or, when
 * |d| < e, D = e - |d| (an interval that fits in the band), the smaller
 * n of the two; at least one more than the larger side has now.  With m
 * metrics in a Holm family, alpha / m (Holm's first step) replaces
 * alpha, so that the runs would settle the question after the
 * correction too.
 *
 * Holm.  p-values of several metrics compared together are adjusted by
 * Holm's step-down method (S. Holm, "A simple sequentially rejective
 * multiple test procedure", Scand. J. Statist. 6, 1979):
 * adj_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)) over the sorted
 * p-values of the m tested comparisons.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfreg/describe.h"
#include "perfreg/distrib.h"
#include "perfreg/mwu.h"
#include "perfreg/ratio.h"
#include "perfreg/rng.h"
#include "perfreg/ttest.h"
#include "perfreg/verdict.h"
#include "stats/grid.h"
#include "core/banned.h"

/* Selector thresholds (see above and bench/README.md). */
#define PR_SKEW_MAX 1.8
#define PR_TAIL_MAX 3.0

void
pr_verdict_opts_init(struct pr_verdict_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->conf = 0.95;
	o->equivalence_pct = 1.0;
	o->method = PR_METHOD_AUTO;
	o->seed = 1;
	o->boot_reps = 0;
	o->flags = 0;
}

const char *
pr_verdict_str(enum pr_verdict v)
{
	switch (v) {
	case PR_VERDICT_INCONCLUSIVE:
		return "inconclusive";
	case PR_VERDICT_REGRESSION:
		return "regression";
	case PR_VERDICT_IMPROVEMENT:
		return "improvement";
	case PR_VERDICT_EQUIVALENT:
		return "equivalent";
	}
	return "?";
}

const char *
pr_method_str(enum pr_method m)
{
	switch (m) {
	case PR_METHOD_AUTO:
		return "automatic";
	case PR_METHOD_STUDENT:
		return "Student's t";
	case PR_METHOD_WELCH:
		return "Welch's t";
	case PR_METHOD_MWU:
		return "Mann-Whitney U";
	case PR_METHOD_NONE:
		return "none";
	case PR_METHOD_MODERATED:
		return "moderated t";
	case PR_METHOD_SESSION_BOUND:
		return "one-session bound";
	}
	return "?";
}

const char *
pr_better_str(enum pr_better b)
{
	switch (b) {
	case PR_BETTER_HIGHER:
		return "higher";
	case PR_BETTER_LOWER:
	case PR_BETTER_UNKNOWN:
		return "lower";
	}
	return "?";
}

/* Raises the variance of s to the rounding variance of grid step h. */
static int
floor_variance(struct pr_summary *s, double h)
{
	double q = h * h / 12;

	if (s->n < 2 || h == 0 || s->var >= q)
		return 0;
	s->var = q;
	s->stddev = sqrt(q);
	s->defined |= PR_SUM_STDDEV;
	return 1;
}

/* Checks that x is sorted ascending and finite. */
static enum pr_status
check_sorted(const double *x, size_t n, const char *name, struct pr_error *err)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return pr_error_set(err, PR_EINVAL,
			    "%s value %zu is not finite", name, i + 1);
		if (i > 0 && x[i] < x[i - 1])
			return pr_error_set(err, PR_EINVAL,
			    "%s values are not sorted at %zu", name, i + 1);
	}
	return PR_OK;
}

/*
 * What pr_compare first learns of each side: that it is sorted and
 * finite, its summary and its grid step, two passes over the values
 * (pr_summary_grid: the grid's scan rides on the summary's second).
 * With DESCRIBE_PAR_MIN values or more in all and more than one CPU
 * online, the new side is described on a second thread while the caller
 * describes the base: the same functions on the same data, so the same
 * figures, in about half the wall time at 10^7 values a side.  The error
 * reported is the one the sequential order (both checks, then both
 * summaries) would meet first.
 */
#define DESCRIBE_PAR_MIN ((size_t)1 << 18)

struct side {
	const double *x;
	size_t n;
	const char *name;
	struct pr_summary *sum; /* filled */
	double grid;            /* filled */
	enum pr_status check, st;
	struct pr_error err;
};

/*
 * The summary checks order and finiteness as it goes (it fails exactly
 * when check_sorted would), so check_sorted only runs after a failure,
 * for its message: one pass fewer over the values (80 MB a side at 10^7).
 */
static void
describe_side(struct side *s)
{
	struct pr_error cerr;

	s->check = PR_OK;
	s->grid = 0;
	pr_error_clear(&s->err);
	s->st = pr_summary_grid(s->x, s->n, s->sum, &s->grid, &s->err);
	if (s->st != PR_OK) {
		pr_error_clear(&cerr);
		s->check = check_sorted(s->x, s->n, s->name, &cerr);
		if (s->check != PR_OK) {
			s->st = PR_OK;
			s->err = cerr;
		}
		return;
	}
}

static void *
describe_thread(void *arg)
{
	describe_side(arg);
	return NULL;
}

static enum pr_status
describe_both(struct side *a, struct side *b, struct pr_error *err)
{
	const struct side *bad = NULL;
	pthread_t tid;
	int threaded = 0;

	if ((a->n >= DESCRIBE_PAR_MIN || b->n >= DESCRIBE_PAR_MIN - a->n) &&
	    sysconf(_SC_NPROCESSORS_ONLN) > 1)
		threaded = pthread_create(&tid, NULL, describe_thread, b) == 0;
	describe_side(a);
	if (threaded)
		pthread_join(tid, NULL);
	else
		describe_side(b);
	if (a->check != PR_OK || (b->check == PR_OK && a->st != PR_OK))
		bad = a;
	else if (b->check != PR_OK || b->st != PR_OK)
		bad = b;
	if (bad == NULL)
		return PR_OK;
	if (err != NULL)
		*err = bad->err;
	return bad->check != PR_OK ? bad->check : bad->st;
}

/*
 * Accumulates the mean of the pooled values over rank ranges; a value
 * at rank j occupies [j, j + 1) and counts with its overlap.
 */
struct qacc {
	double lo, hi, sum;
};

static void
qacc_add(struct qacc *q, size_t j, double r)
{
	double a = (double)j, b = a + 1, w;

	if (b <= q->lo || a >= q->hi)
		return;
	w = (b < q->hi ? b : q->hi) - (a > q->lo ? a : q->lo);
	q->sum += w * r;
}

static double
qacc_mean(const struct qacc *q)
{
	return q->sum / (q->hi - q->lo);
}

/*
 * Hogg's Q1 and Q2 of the pooled values x and y (both sorted, so a merge
 * visits the pool in order, without copying).  Returns 0 when a
 * denominator is 0 (too many equal values to judge the shape).
 */
static int
hogg_q(const double *x, size_t nx, const double *y, size_t ny, double *q1,
    double *q2)
{
	double nn = (double)(nx + ny), r, l05, u05, l50, u50, m50;
	struct qacc acc[5];
	size_t i = 0, j = 0, k, t;

	acc[0] = (struct qacc){ 0, 0.05 * nn, 0 };
	acc[1] = (struct qacc){ 0.95 * nn, nn, 0 };
	acc[2] = (struct qacc){ 0, 0.5 * nn, 0 };
	acc[3] = (struct qacc){ 0.5 * nn, nn, 0 };
	acc[4] = (struct qacc){ 0.25 * nn, 0.75 * nn, 0 };
	for (k = 0; k < nx + ny; k++) {
		if (j >= ny || (i < nx && x[i] <= y[j]))
			r = x[i++];
		else
			r = y[j++];
		for (t = 0; t < 5; t++)
			qacc_add(&acc[t], k, r);
	}
	l05 = qacc_mean(&acc[0]);
	u05 = qacc_mean(&acc[1]);
	l50 = qacc_mean(&acc[2]);
	u50 = qacc_mean(&acc[3]);
	m50 = qacc_mean(&acc[4]);
	if (!(m50 - l05 > 0 && u05 - m50 > 0 && u50 - l50 > 0))
		return 0;
	*q1 = (u05 - m50) / (m50 - l05);
	*q2 = (u05 - l05) / (u50 - l50);
	return 1;
}

static int
sign_of(double v)
{
	return (v > 0) - (v < 0);
}

/* The verdict from p_adjusted, the interval and the direction. */
static void
decide(struct pr_comparison *c, double alpha, double eq)
{
	int worse;

	c->notes &= ~(unsigned)PR_NOTE_NEGLIGIBLE;
	if (!c->tested) {
		c->verdict = PR_VERDICT_INCONCLUSIVE;
		return;
	}
	if (c->have_ci && c->ci_lo_pct >= -eq && c->ci_hi_pct <= eq) {
		c->verdict = PR_VERDICT_EQUIVALENT;
		if (c->p_adjusted < alpha)
			c->notes |= PR_NOTE_NEGLIGIBLE;
		return;
	}
	/* Significant, and never against its own interval (the interval
	 * of the maximum test's winner may include 0 at a p just below
	 * alpha). */
	if (c->p_adjusted < alpha && c->direction != 0 &&
	    (!c->have_ci || c->ci_lo_pct > 0 || c->ci_hi_pct < 0)) {
		worse = c->better == PR_BETTER_HIGHER ? c->direction < 0
						      : c->direction > 0;
		c->verdict =
		    worse ? PR_VERDICT_REGRESSION : PR_VERDICT_IMPROVEMENT;
		return;
	}
	c->verdict = PR_VERDICT_INCONCLUSIVE;
}

void
pr_verdict_decide(struct pr_comparison *c)
{
	decide(c, 1 - c->conf, c->equivalence_pct);
}

/* Runs per side for power PR_VERDICT_POWER to see a relative shift D. */
static double
runs_for(double s, double dd, double alpha)
{
	double n, prev = 0, q;
	int it;

	if (!(dd > 0) || !(s > 0))
		return INFINITY;
	q = pr_norm_quantile(1 - alpha / 2) +
	    pr_norm_quantile(PR_VERDICT_POWER);
	n = ceil(2 * s * s * q * q / (dd * dd));
	/* The t quantiles make n larger; iterate to the fixed point (it is
	 * reached in a few steps; 50 is a guard). */
	for (it = 0; it < 50 && n != prev && n < PR_VERDICT_RUNS_MAX; it++) {
		double df = n < 2 ? 2 : 2 * n - 2;

		prev = n;
		q = pr_t_quantile(1 - alpha / 2, df) +
		    pr_t_quantile(PR_VERDICT_POWER, df);
		n = ceil(2 * s * s * q * q / (dd * dd));
		if (n < 2)
			n = 2;
	}
	return n;
}

static void
estimate_runs(struct pr_comparison *c, double alpha, double eq_pct)
{
	double d, e = eq_pct / 100, n, n2;
	size_t have = c->base.n > c->new.n ? c->base.n : c->new.n;

	c->runs_needed = 0;
	if (c->verdict != PR_VERDICT_INCONCLUSIVE || !(c->rel_sd > 0) ||
	    !c->have_change)
		return;
	/* In a Holm family of m the first step tests at alpha / m. */
	if (c->holm_m > 1)
		alpha /= c->holm_m;
	d = fabs(c->change_pct) / 100;
	n = runs_for(c->rel_sd, d, alpha);
	if (d < e) {
		n2 = runs_for(c->rel_sd, e - d, alpha);
		if (n2 < n)
			n = n2;
	}
	if (!(n <= PR_VERDICT_RUNS_MAX))
		return;
	if (n < (double)have + 1)
		n = (double)have + 1;
	c->runs_needed = (size_t)n;
}

/* The t branch: test, Fieller interval, relative spread. */
static enum pr_status
primary_t(struct pr_comparison *c, enum pr_method method, double ha, double hb,
    struct pr_error *err)
{
	struct pr_summary sa = c->base, sb = c->new;
	struct pr_ttest *t = &c->primary_t;
	enum pr_status st;
	double ea, eb, q, ma;

	if (floor_variance(&sa, ha) | floor_variance(&sb, hb))
		c->notes |= PR_NOTE_QUANTISED;
	st = method == PR_METHOD_STUDENT
	    ? pr_ttest_student(&sa, &sb, c->conf, t, err)
	    : pr_ttest_welch(&sa, &sb, c->conf, t, err);
	if (st != PR_OK)
		return st;
	c->method = method;
	c->p_value = t->p;
	c->direction = sign_of(t->diff);
	if (t->degenerate)
		c->notes |= PR_NOTE_DEGENERATE;
	ma = sa.mean;
	/*
	 * A percentage of a base of 0 does not exist, and one between means
	 * of opposite signs ("400% lower" from 2 to -6) means nothing: the
	 * test stands, the change is given as a difference only.
	 */
	if (ma == 0 || (sb.mean != 0 && (sb.mean < 0) != (ma < 0))) {
		c->notes |= PR_NOTE_NO_CHANGE | PR_NOTE_NO_CI;
		return PR_OK;
	}
	/*
	 * The standard errors of the two means relative to the base mean,
	 * from the standard deviations: squares of tiny spreads (below
	 * 1e-154) would underflow, and so would ma * ma.
	 */
	if (method == PR_METHOD_STUDENT) {
		ea = t->pooled_sd / sqrt((double)sa.n) / fabs(ma);
		eb = t->pooled_sd / sqrt((double)sb.n) / fabs(ma);
	} else {
		ea = sa.stddev / sqrt((double)sa.n) / fabs(ma);
		eb = sb.stddev / sqrt((double)sb.n) / fabs(ma);
	}
	/*
	 * The change is the difference in percent of the base's magnitude,
	 * 100 (new - base) / |base|, so that its sign is always that of
	 * new - base: -5 to -4 is +20% (higher), never "-20%" for a value
	 * that rose (issue 12: "improvement: 11.6% higher (worse)").  For a
	 * negative base this is minus the ratio's change: the ratio's
	 * interval is worked out around (new - base) / base and flipped.
	 */
	c->have_change = 1;
	c->change_pct = 100 * (t->diff / fabs(ma));
	c->rel_sd =
	    t->se / fabs(ma) / sqrt(1 / (double)sa.n + 1 / (double)sb.n);
	q = t->degenerate ? 0 : pr_t_quantile(0.5 + c->conf / 2, t->df);
	c->have_ci =
	    pr_fieller_pct(ma, sb.mean, ea, eb, q, sa.min >= 0 && sb.min >= 0,
		&c->ci_lo_pct, &c->ci_hi_pct) == 0;
	if (!c->have_ci)
		c->notes |= PR_NOTE_NO_CI;
	return PR_OK;
}

int
pr_fieller_pct(double ma, double mb, double ea, double eb, double q,
    int positive, double *lo, double *hi)
{
	double g, r, root, d, l;

	*lo = *hi = NAN;
	g = q * ea * (q * ea);
	if (ma == 0 || !(g < 1))
		return -1;
	r = mb / ma;
	/* rho - 1 written around d = r - 1, which is exact where r is not. */
	d = (mb - ma) / ma;
	root = q * sqrt(eb * eb * (1 - g) + r * ea * (r * ea));
	*lo = 100 * (d + g - root) / (1 - g);
	*hi = 100 * (d + g + root) / (1 - g);
	if (ma < 0) {
		l = *lo;
		*lo = -*hi;
		*hi = -l;
	}
	/*
	 * Values none of which is negative (times, throughputs, counts)
	 * have a ratio of at least 0: Fieller's set is cut to it, so that the
	 * interval never goes below -100% (issue 10: [-104%, -81%] for a
	 * throughput).  The cut keeps 0% in or out as it was, so the
	 * interval and p still agree.  A new mean of 1e-173 against 0.6
	 * puts the upper end at -100.00000000000001 by rounding
	 * (fuzz_stats): below the cut, so at the cut, never below the
	 * lower end.
	 */
	if (positive && *lo < -100)
		*lo = -100;
	if (positive && *hi < -100)
		*hi = -100;
	if (!isfinite(*lo) || !isfinite(*hi)) {
		*lo = *hi = NAN;
		return -1;
	}
	return 0;
}

/*
 * The Hodges-Lehmann ratio: the shift of the log values, its interval
 * and the relative spread it implies.  Sets the change, not p.
 */
static enum pr_status
hl_ratio(struct pr_comparison *c, const double *base, size_t nb,
    const double *new_, size_t nn, struct pr_error *err)
{
	double *la, *lb, z;
	size_t i;
	enum pr_status st;

	la = malloc((nb + nn) * sizeof(*la));
	if (la == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory for the Hodges-Lehmann ratio");
	lb = la + nb;
	for (i = 0; i < nb; i++)
		la[i] = log(base[i]);
	for (i = 0; i < nn; i++)
		lb[i] = log(new_[i]);
	st = pr_hodges_lehmann(la, nb, lb, nn, c->conf, &c->hl_ratio, err);
	free(la);
	if (st != PR_OK && st != PR_EUNDEF)
		return st;
	c->have_hl_ratio = 1;
	c->have_change = 1;
	c->change_pct = 100 * expm1(c->hl_ratio.estimate);
	c->direction = sign_of(c->hl_ratio.estimate);
	if (st == PR_EUNDEF) {
		c->notes |= PR_NOTE_NO_CI;
		return PR_OK;
	}
	c->have_ci = 1;
	c->ci_lo_pct = 100 * expm1(c->hl_ratio.lo);
	c->ci_hi_pct = 100 * expm1(c->hl_ratio.hi);
	z = pr_norm_quantile(0.5 + c->hl_ratio.achieved_conf / 2);
	if (z > 0)
		c->rel_sd = (c->hl_ratio.hi - c->hl_ratio.lo) / (2 * z) /
		    sqrt(1 / (double)nb + 1 / (double)nn);
	return PR_OK;
}

/* Forced Mann-Whitney: p from U, change from the Hodges-Lehmann ratio. */
static enum pr_status
primary_mwu(struct pr_comparison *c, const double *base, size_t nb,
    const double *new_, size_t nn, struct pr_error *err)
{
	enum pr_status st;

	st = pr_mwu_test(base, nb, new_, nn, &c->mwu, err);
	if (st != PR_OK)
		return st;
	c->have_mwu = 1;
	c->method = PR_METHOD_MWU;
	c->p_value = c->mwu.p;
	return hl_ratio(c, base, nb, new_, nn, err);
}

/*
 * P(max(|Z1|, |Z2|) >= s) for standard normals with correlation rho,
 * as 2 P(Z1 >= s) plus the integral over |z| < s of phi(z) P(|Z2| >= s |
 * Z1 = z) (composite Simpson, 2000 panels; every term is a small
 * positive number, so small p-values keep their digits).
 */
static double
max_normal_sf(double s, double rho)
{
	double w2 = 1 - rho * rho, w, h, z, f, sum = 0;
	int i, k = 2000;

	if (!(s > 0))
		return 1;
	if (w2 < 1e-12)
		return 2 * pr_norm_sf(s);
	w = sqrt(w2);
	h = 2 * s / k;
	for (i = 0; i <= k; i++) {
		z = -s + i * h;
		f = exp(-0.5 * z * z) *
		    (pr_norm_cdf((-s - rho * z) / w) +
			pr_norm_sf((s - rho * z) / w));
		sum += f * (i == 0 || i == k ? 1 : i % 2 ? 4 : 2);
	}
	sum *= h / 3 / sqrt(2 * M_PI);
	f = 2 * pr_norm_sf(s) + sum;
	return f < 1 ? f : 1;
}

/*
 * Student's pooled t of a split whose standardised sum is z (n values in
 * all): t^2 = z^2 (n - 2) / (n - 1 - z^2), the textbook identity between
 * the permutation z of the mean difference and the t statistic.
 */
static double
student(double z, size_t n)
{
	double d = (double)n - 1 - z * z;

	if (!(d > 0))
		return z >= 0 ? INFINITY : -INFINITY;
	return z * sqrt(((double)n - 2) / d);
}

/*
 * The maximum test: the larger of |t|, Student's t of the values, and
 * |z_r|, the rank sum of the new side standardised by its permutation
 * variance, against its permutation distribution (see the file
 * comment).  *which is 0 when t gives the maximum, 1 when the ranks do.
 */
static enum pr_status
maxtest(const double *a, size_t na, const double *b, size_t nb, uint64_t seed,
    double *p, int *which, struct pr_error *err)
{
	size_t n = na + nb, i = 0, j = 0, k, t, run, *idx = NULL;
	double *x, *r, mx, mr, sxx = 0, srr = 0, sxr = 0, bx = 0, br = 0;
	double f, vx, vr, tx, zr, s0, sx, sr, s1;
	unsigned char *inb;
	struct pr_rng rng;
	unsigned ge = 0, rep;

	x = malloc(n * (2 * sizeof(*x) + 1));
	if (x == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory for the maximum test");
	r = x + n;
	inb = (unsigned char *)(r + n);
	/* Merge, and give each run of equal values its mean rank. */
	for (k = 0; k < n; k++) {
		if (j >= nb || (i < na && a[i] <= b[j])) {
			x[k] = a[i++];
			inb[k] = 0;
		} else {
			x[k] = b[j++];
			inb[k] = 1;
		}
	}
	for (k = 0; k < n; k = run) {
		for (run = k + 1; run < n && x[run] == x[k]; run++)
			;
		for (t = k; t < run; t++)
			r[t] = 0.5 * (double)(k + run + 1);
	}
	mx = 0;
	for (k = 0; k < n; k++)
		mx += x[k];
	mx /= (double)n;
	mr = 0.5 * (double)(n + 1);
	for (k = 0; k < n; k++) {
		sxx += (x[k] - mx) * (x[k] - mx);
		srr += (r[k] - mr) * (r[k] - mr);
		sxr += (x[k] - mx) * (r[k] - mr);
		if (inb[k]) {
			bx += x[k] - mx;
			br += r[k] - mr;
		}
	}
	/* The permutation variance of a sum of nb of the n values c is
	 * na nb / (n (n - 1)) sum (c - mean c)^2. */
	f = (double)na * (double)nb / ((double)n * (double)(n - 1));
	vx = sqrt(f * sxx);
	vr = sqrt(f * srr);
	tx = student(vx > 0 ? bx / vx : 0, n);
	zr = vr > 0 ? br / vr : 0;
	*which = fabs(zr) > fabs(tx);
	s0 = fabs(tx) > fabs(zr) ? fabs(tx) : fabs(zr);
	if (n > PR_VERDICT_PERM_MAX) {
		*p = max_normal_sf(s0,
		    sxx > 0 && srr > 0 ? sxr / sqrt(sxx * srr) : 1);
		free(x);
		return PR_OK;
	}
	idx = malloc(n * sizeof(*idx));
	if (idx == NULL) {
		free(x);
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory for the maximum test");
	}
	for (k = 0; k < n; k++)
		idx[k] = k;
	pr_rng_seed(&rng, seed);
	for (rep = 0; rep < PR_VERDICT_PERMS; rep++) {
		/* A random nb-subset: a partial Fisher-Yates shuffle of a
		 * permutation that is itself uniformly random. */
		sx = sr = 0;
		for (k = 0; k < nb; k++) {
			t = k + (size_t)pr_rng_below(&rng, n - k);
			i = idx[k];
			idx[k] = idx[t];
			idx[t] = i;
			sx += x[idx[k]] - mx;
			sr += r[idx[k]] - mr;
		}
		sx = fabs(student(vx > 0 ? sx / vx : 0, n));
		sr = vr > 0 ? fabs(sr / vr) : 0;
		s1 = sx > sr ? sx : sr;
		ge += s1 >= s0 * (1 - 1e-12);
	}
	*p = (1.0 + ge) / (PR_VERDICT_PERMS + 1.0);
	if (ge == 0) {
		/* Beyond the resolution of the permutations: the Bonferroni
		 * bound of the normal limit, never above 1 / (B + 1). */
		f = 4 * pr_norm_sf(s0);
		if (f < *p)
			*p = f;
	}
	free(idx);
	free(x);
	return PR_OK;
}

/* The non-normal branch: maximum test, change from the winner. */
static enum pr_status
primary_max(struct pr_comparison *c, const double *base, size_t nb,
    const double *new_, size_t nn, double ha, double hb, uint64_t seed,
    struct pr_error *err)
{
	enum pr_status st;
	double p = 1;
	int which = 0;

	st = maxtest(base, nb, new_, nn, seed, &p, &which, err);
	if (st != PR_OK)
		return st;
	c->notes |= PR_NOTE_MAXTEST;
	if (which) {
		c->method = PR_METHOD_MWU;
		st = hl_ratio(c, base, nb, new_, nn, err);
	} else {
		st =
		    primary_t(c, nb == nn ? PR_METHOD_STUDENT : PR_METHOD_WELCH,
			ha, hb, err);
	}
	c->p_value = p;
	return st;
}

/* One value on a side: the plain change, and what can be said. */
static void
untested(struct pr_comparison *c)
{
	const struct pr_summary *two = c->base.n >= 2 ? &c->base
	    : c->new.n >= 2                           ? &c->new
						      : NULL;

	c->method = PR_METHOD_NONE;
	c->notes |= PR_NOTE_UNTESTED;
	c->p_value = 1;
	c->p_adjusted = 1;
	c->holm_m = 0;
	if (c->base.mean != 0 &&
	    (c->new.mean == 0 || (c->new.mean < 0) == (c->base.mean < 0))) {
		c->have_change = 1;
		c->change_pct =
		    100 * (c->new.mean - c->base.mean) / fabs(c->base.mean);
	} else {
		c->notes |= PR_NOTE_NO_CHANGE;
	}
	c->direction = sign_of(c->new.mean - c->base.mean);
	/* A side with repeated runs gives the spread for runs_needed. */
	if (two != NULL && c->base.mean != 0)
		c->rel_sd = two->stddev / fabs(c->base.mean);
}

static enum pr_status
secondary(struct pr_comparison *c, const double *base, size_t nb,
    const double *new_, size_t nn, const struct pr_verdict_opts *o,
    struct pr_error *err)
{
	enum pr_status st;

	c->have_student = pr_ttest_student(&c->base, &c->new, c->conf,
			      &c->student, NULL) == PR_OK;
	c->have_welch = pr_ttest_welch(&c->base, &c->new, c->conf, &c->welch,
			    NULL) == PR_OK;
	if ((o->flags & PR_VERDICT_NO_RANKS) || nb > PR_VERDICT_RANKS_MAX ||
	    nn > PR_VERDICT_RANKS_MAX)
		goto ratios;
	if (!c->have_mwu) {
		st = pr_mwu_test(base, nb, new_, nn, &c->mwu, err);
		if (st == PR_ENOMEM)
			return st;
		c->have_mwu = st == PR_OK;
	}
	st = pr_hodges_lehmann(base, nb, new_, nn, c->conf, &c->hl, err);
	if (st == PR_ENOMEM)
		return st;
	/* PR_EUNDEF still sets the estimate and the extreme differences. */
	c->have_hl = st == PR_OK || st == PR_EUNDEF;
ratios:
	if (o->flags & PR_VERDICT_NO_RATIO)
		return PR_OK;
	st = pr_ratio_ci(PR_RATIO_MEANS, base, nb, new_, nn, c->conf, o->seed,
	    o->boot_reps, &c->ratio_means, err);
	if (st == PR_ENOMEM || st == PR_EINVAL)
		return st;
	c->have_ratio_means = st == PR_OK;
	st = pr_ratio_ci(PR_RATIO_MEDIANS, base, nb, new_, nn, c->conf, o->seed,
	    o->boot_reps, &c->ratio_medians, err);
	if (st == PR_ENOMEM || st == PR_EINVAL)
		return st;
	c->have_ratio_medians = st == PR_OK;
	pr_error_clear(err);
	return PR_OK;
}

static enum pr_status
check_opts(const struct pr_verdict_opts *o, enum pr_better better,
    struct pr_error *err)
{
	if (!(o->conf > 0 && o->conf < 1))
		return pr_error_set(err, PR_EINVAL,
		    "confidence must lie strictly between 0 and 1, got %g",
		    o->conf);
	if (!(o->equivalence_pct >= 0 && isfinite(o->equivalence_pct)))
		return pr_error_set(err, PR_EINVAL,
		    "equivalence band must be a finite percentage >= 0, "
		    "got %g",
		    o->equivalence_pct);
	if ((unsigned)o->method > (unsigned)PR_METHOD_MWU)
		return pr_error_set(err, PR_EINVAL, "unknown method %d",
		    (int)o->method);
	if ((unsigned)better > (unsigned)PR_BETTER_LOWER)
		return pr_error_set(err, PR_EINVAL, "unknown direction %d",
		    (int)better);
	if (o->boot_reps != 0 &&
	    (o->boot_reps < PR_RATIO_BOOT_REPS_MIN ||
		o->boot_reps > PR_RATIO_BOOT_REPS_MAX))
		return pr_error_set(err, PR_EINVAL,
		    "bootstrap replicates must lie in [%d, %d], got %u",
		    PR_RATIO_BOOT_REPS_MIN, PR_RATIO_BOOT_REPS_MAX,
		    o->boot_reps);
	return PR_OK;
}

enum pr_status
pr_verdict_opts_check(const struct pr_verdict_opts *o, enum pr_better better,
    struct pr_error *err)
{
	return check_opts(o, better, err);
}

enum pr_status
pr_compare(const double *base, size_t nb, const double *new_, size_t nn,
    enum pr_better better, const struct pr_verdict_opts *o,
    struct pr_comparison *out, struct pr_error *err)
{
	struct pr_verdict_opts def;
	struct side sa, sn;
	enum pr_method method;
	enum pr_status st;
	double ha, hb, q1, q2;
	size_t nmin = nb < nn ? nb : nn, nmax = nb > nn ? nb : nn;
	int positive;

	memset(out, 0, sizeof(*out));
	if (o == NULL) {
		pr_verdict_opts_init(&def);
		o = &def;
	}
	if (base == NULL || new_ == NULL || nb == 0 || nn == 0)
		return pr_error_set(err, PR_EINVAL,
		    "comparison needs at least one value a side, got %zu "
		    "and %zu",
		    nb, nn);
	if ((st = check_opts(o, better, err)) != PR_OK)
		return st;
	sa.x = base;
	sa.n = nb;
	sa.name = "base";
	sa.sum = &out->base;
	sn.x = new_;
	sn.n = nn;
	sn.name = "new";
	sn.sum = &out->new;
	if ((st = describe_both(&sa, &sn, err)) != PR_OK)
		goto fail;
	out->better = better;
	out->conf = o->conf;
	out->equivalence_pct = o->equivalence_pct;
	if (better == PR_BETTER_UNKNOWN)
		out->notes |= PR_NOTE_DIRECTION_ASSUMED;
	/* The grids are nested powers of 10: the joint one is the finer. */
	ha = sa.grid;
	hb = sn.grid;
	out->resolution = ha < hb ? ha : hb;
	ha = hb = out->resolution;
	if (nmin < 2) {
		untested(out);
		out->verdict = PR_VERDICT_INCONCLUSIVE;
		estimate_runs(out, 1 - o->conf, o->equivalence_pct);
		return PR_OK;
	}
	out->tested = 1;
	out->holm_m = 1;
	positive = base[0] > 0 && new_[0] > 0;
	method = o->method;
	if (method == PR_METHOD_AUTO) {
		method = nb == nn ? PR_METHOD_STUDENT : PR_METHOD_WELCH;
		if (positive && nmin >= PR_VERDICT_ADAPT_MIN &&
		    nmax <= PR_VERDICT_ADAPT_MAX &&
		    hogg_q(base, nb, new_, nn, &q1, &q2)) {
			out->notes |= PR_NOTE_ADAPTIVE;
			out->skewness = q1;
			out->tail_weight = q2;
			if (q1 > PR_SKEW_MAX || q1 < 1 / PR_SKEW_MAX ||
			    q2 > PR_TAIL_MAX)
				out->notes |= PR_NOTE_NONNORMAL;
		}
	} else if (method == PR_METHOD_MWU && !positive) {
		out->notes |= PR_NOTE_FALLBACK;
		method = nb == nn ? PR_METHOD_STUDENT : PR_METHOD_WELCH;
	}
	if (out->notes & PR_NOTE_NONNORMAL)
		st = primary_max(out, base, nb, new_, nn, ha, hb, o->seed, err);
	else if (method == PR_METHOD_MWU)
		st = primary_mwu(out, base, nb, new_, nn, err);
	else
		st = primary_t(out, method, ha, hb, err);
	if (st != PR_OK)
		goto fail;
	out->p_adjusted = out->p_value;
	if (!(o->flags & PR_VERDICT_PRIMARY_ONLY) &&
	    (st = secondary(out, base, nb, new_, nn, o, err)) != PR_OK)
		goto fail;
	decide(out, 1 - o->conf, o->equivalence_pct);
	if (!(o->flags & PR_VERDICT_PRIMARY_ONLY))
		estimate_runs(out, 1 - o->conf, o->equivalence_pct);
	return PR_OK;
fail:
	memset(out, 0, sizeof(*out));
	return st;
}

struct pidx {
	double p;
	size_t i;
};

static int
pidx_cmp(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/*
 * Holm's adjustment without memory, for when malloc fails: visits the
 * p-values in ascending order (ties by index) by an O(n) search for the
 * next one each time.  O(n^2); adj must not overlap p.
 */
static void
holm_quadratic(const double *p, size_t n, double *adj)
{
	double run = 0, v;
	size_t rank, j, best, prev = 0;

	for (rank = 0; rank < n; rank++) {
		best = n;
		for (j = 0; j < n; j++) {
			if (rank > 0 &&
			    /* cppcheck-suppress arrayIndexThenCheck ; j < n
			     * bounds j, j <= prev orders ties */
			    (p[j] < p[prev] || (p[j] == p[prev] && j <= prev)))
				continue;
			if (best == n || p[j] < p[best])
				best = j;
		}
		v = (double)(n - rank) * p[best];
		if (v > run)
			run = v;
		adj[best] = run < 1 ? run : 1;
		prev = best;
	}
}

/* The p-values with their indices, sorted ascending (ties by index);
 * NULL when n is 0 or memory cannot be had. */
static struct pidx *
sorted_p(const double *p, size_t n)
{
	struct pidx *s;
	size_t i;

	if (n == 0 || (s = malloc(n * sizeof(*s))) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		s[i].p = p[i];
		s[i].i = i;
	}
	qsort(s, n, sizeof(*s), pidx_cmp);
	return s;
}

void
pr_holm(const double *p, size_t n, double *adj)
{
	struct pidx *s;
	double run = 0, v;
	size_t i;

	if (n == 0)
		return;
	if ((s = sorted_p(p, n)) == NULL) {
		holm_quadratic(p, n, adj);
		return;
	}
	for (i = 0; i < n; i++) {
		v = (double)(n - i) * s[i].p;
		if (v > run)
			run = v;
		s[i].p = run < 1 ? run : 1;
	}
	for (i = 0; i < n; i++)
		adj[s[i].i] = s[i].p;
	free(s);
}

void
pr_bh(const double *p, size_t n, double *adj)
{
	struct pidx *s;
	double run = 1, v;
	size_t i;

	if (n == 0)
		return;
	if ((s = sorted_p(p, n)) == NULL) {
		/* Bonferroni: never below BH. */
		for (i = 0; i < n; i++) {
			v = (double)n * p[i];
			adj[i] = v < 1 ? v : 1;
		}
		return;
	}
	/* From the largest p down, the running minimum of n p / rank. */
	for (i = n; i-- > 0;) {
		v = (double)n / (double)(i + 1) * s[i].p;
		if (v < run)
			run = v;
		s[i].p = run;
	}
	for (i = 0; i < n; i++)
		adj[s[i].i] = s[i].p;
	free(s);
}

void
pr_compare_holm(struct pr_comparison *c, size_t n,
    const struct pr_verdict_opts *o)
{
	struct pr_verdict_opts def;
	double *p, v;
	size_t i, m = 0, k;

	if (o == NULL) {
		pr_verdict_opts_init(&def);
		o = &def;
	}
	for (i = 0; i < n; i++)
		m += c[i].tested != 0;
	if (m == 0)
		return;
	p = malloc(2 * m * sizeof(*p));
	for (i = 0, k = 0; i < n; i++) {
		if (!c[i].tested)
			continue;
		if (p != NULL) {
			p[k++] = c[i].p_value;
		} else {
			/* No memory: Bonferroni, never below Holm. */
			v = (double)m * c[i].p_value;
			c[i].p_adjusted = v < 1 ? v : 1;
		}
	}
	if (p != NULL) {
		pr_holm(p, m, p + m);
		for (i = 0, k = 0; i < n; i++)
			if (c[i].tested)
				/* NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign): pr_holm wrote p[m..2m), and k < m: m counts the tested */
				c[i].p_adjusted = p[m + k++];
		free(p);
	}
	for (i = 0; i < n; i++) {
		if (!c[i].tested)
			continue;
		c[i].holm_m = (int)m;
		if (m > 1)
			c[i].notes |= PR_NOTE_HOLM;
		else
			c[i].notes &= ~(unsigned)PR_NOTE_HOLM;
		decide(&c[i], 1 - o->conf, o->equivalence_pct);
		estimate_runs(&c[i], 1 - o->conf, o->equivalence_pct);
	}
}
