/*
 * stats/seq.c - the anytime-valid sequential test of `perfreg run
 * --until-decided`: a confidence sequence for the mean log-ratio from
 * the scale-invariant Bayes-factor t test.
 *
 * Method (perfreg/seq.h has the whole argument): the Bayes factor of
 * the maximal scale invariant t with a N(0, g) prior on the effect size
 * is a test martingale under the null, for any sigma (Lai, "On
 * confidence sequences", Ann. Stat. 4, 1976; Pérez-Ortiz, Lardy, de
 * Heide and Grünwald, Ann. Stat. 52, 2024), and Ville's inequality
 * bounds the chance that it ever reaches 1/alpha by alpha.  Inverting
 * it at every mu0 gives the confidence sequence mean -+ c_n s/sqrt(n).
 *
 * Under the alternative, t / sqrt(1 + n g) has Student's t distribution
 * on n - 1 degrees of freedom (the sample mean is N(0, sigma^2 (1/n +
 * g)) once delta is integrated out, independent of s), so the Bayes
 * factor is a ratio of two t densities and needs no quadrature:
 *
 *   log BF = -log(a)/2 + (nu+1)/2 log((1 + y) / (1 + y/a)),
 *   y = t^2 / nu, a = 1 + n g,
 *
 * and (1 + y) / (1 + y/a) = 1 + y (1 - 1/a) / (1 + y/a) is taken
 * through log1p, which neither overflows for large t nor loses digits
 * for small t.  Solving log BF = log(1/alpha) for y gives c_n: with
 * u = expm1(2 (log(1/alpha) + log(a)/2) / (nu + 1)),
 * y = u / (1 - (1 + u)/a), defined when 1 + u < a (otherwise the
 * factor cannot reach 1/alpha at this n).  tests/stats/gen_seq_fixtures.py
 * checks both against a numerical integral over delta of the noncentral
 * t density (scipy).
 *
 * The mean and the sum of squared deviations are kept with Welford's
 * update, so nearly equal log-ratios lose no digits.  The standard
 * deviation is floored (perfreg/seq.h): a larger s only lowers |t|, so
 * the floor keeps the guarantee.
 *
 * The sign method (PR_SEQ_METHOD_SIGN) keeps the log-ratios sorted.
 * Its acceptance set {theta : sign-test factor at theta < 1/alpha},
 * ties with theta dropped, is taken as the closed hull of: the open gaps
 * between consecutive order statistics where the factor (k = values
 * above the gap, m = n) stays below 1/alpha, which form a run around
 * the middle because the factor is symmetric in k and grows away from
 * m/2; and the values themselves that are accepted once their ties are
 * dropped (many equal log-ratios of a coarse timer).  A hull is never
 * smaller than the set, so the guarantee holds.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/seq.h"
#include "core/banned.h"

void
pr_seq_opts_init(struct pr_seq_opts *o)
{
	o->alpha = 0.05;
	o->equivalence_pct = 1.0;
	o->better = PR_BETTER_LOWER;
	o->max_runs = 200;
	o->prior_scale = PR_SEQ_PRIOR_SCALE;
	o->sd_floor = 0;
	o->method = PR_SEQ_METHOD_T;
}

enum pr_status
pr_seq_init(struct pr_seq *s, const struct pr_seq_opts *o, struct pr_error *err)
{
	if (!(o->alpha > 0 && o->alpha < 1))
		return pr_error_set(err, PR_EINVAL,
		    "error rate %g is not between 0 and 1", o->alpha);
	if (!(o->equivalence_pct >= 0 && o->equivalence_pct < 100))
		return pr_error_set(err, PR_EINVAL,
		    "equivalence band %g%% is not in [0, 100)",
		    o->equivalence_pct);
	if (o->max_runs < 1 || o->max_runs > PR_SEQ_RUNS_MAX)
		return pr_error_set(err, PR_EINVAL,
		    "maximum of %zu rounds is not in [1, %d]", o->max_runs,
		    PR_SEQ_RUNS_MAX);
	if (!(o->prior_scale > 0 && o->prior_scale <= 1e6))
		return pr_error_set(err, PR_EINVAL,
		    "prior scale %g is not in (0, 1e6]", o->prior_scale);
	if (!(o->sd_floor >= 0 && o->sd_floor <= 1e6))
		return pr_error_set(err, PR_EINVAL,
		    "resolution floor %g is not in [0, 1e6]", o->sd_floor);
	if (o->better != PR_BETTER_UNKNOWN && o->better != PR_BETTER_LOWER &&
	    o->better != PR_BETTER_HIGHER)
		return pr_error_set(err, PR_EINVAL, "unknown direction %d",
		    (int)o->better);
	if (o->method != PR_SEQ_METHOD_T && o->method != PR_SEQ_METHOD_SIGN)
		return pr_error_set(err, PR_EINVAL,
		    "unknown sequential method %d", (int)o->method);
	if (o->method == PR_SEQ_METHOD_SIGN &&
	    o->max_runs > PR_SEQ_SIGN_RUNS_MAX)
		return pr_error_set(err, PR_EINVAL,
		    "the sign method takes at most %d rounds, not %zu",
		    PR_SEQ_SIGN_RUNS_MAX, o->max_runs);
	s->o = *o;
	s->n = 0;
	s->mean = 0;
	s->m2 = 0;
	s->sorted = NULL;
	s->cap = 0;
	return PR_OK;
}

void
pr_seq_release(struct pr_seq *s)
{
	free(s->sorted);
	s->sorted = NULL;
	s->cap = 0;
	s->n = 0;
	s->mean = 0;
	s->m2 = 0;
}

/* The first index of x[0..n) whose value is >= v (strict: > v). */
static size_t
bound(const double *x, size_t n, double v, int strict)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strict ? x[mid] <= v : x[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static enum pr_status
sign_insert(struct pr_seq *s, double d, struct pr_error *err)
{
	size_t at, ncap;
	double *p;

	if (s->n >= PR_SEQ_SIGN_RUNS_MAX)
		return pr_error_set(err, PR_ELIMIT,
		    "the sign method takes at most %d rounds",
		    PR_SEQ_SIGN_RUNS_MAX);
	if (s->n == s->cap) {
		ncap = s->cap ? 2 * s->cap : 64;
		p = realloc(s->sorted, ncap * sizeof(*p));
		if (p == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		s->sorted = p;
		s->cap = ncap;
	}
	at = bound(s->sorted, s->n, d, 1);
	memmove(s->sorted + at + 1, s->sorted + at,
	    (s->n - at) * sizeof(*s->sorted));
	s->sorted[at] = d;
	return PR_OK;
}

enum pr_status
pr_seq_update(struct pr_seq *s, double d, struct pr_error *err)
{
	enum pr_status st;
	double delta;

	if (!isfinite(d))
		return pr_error_set(err, PR_EINVAL,
		    "log-ratio of round %zu is not finite", s->n + 1);
	if (s->n >= PR_SEQ_RUNS_MAX)
		return pr_error_set(err, PR_ELIMIT, "more than %d rounds",
		    PR_SEQ_RUNS_MAX);
	if (s->o.method == PR_SEQ_METHOD_SIGN &&
	    (st = sign_insert(s, d, err)) != PR_OK)
		return st;
	s->n++;
	delta = d - s->mean;
	s->mean += delta / (double)s->n;
	s->m2 += delta * (d - s->mean);
	return PR_OK;
}

enum pr_status
pr_seq_update_pair(struct pr_seq *s, double base, double new_,
    struct pr_error *err)
{
	double d;

	if (!(isfinite(base) && base > 0 && isfinite(new_) && new_ > 0))
		return pr_error_set(err, PR_EINVAL,
		    "round %zu: a log-ratio needs positive values, got %g "
		    "and %g",
		    s->n + 1, base, new_);
	d = log(new_ / base);
	if (!isfinite(d)) /* 1e-300 against 1e300 */
		return pr_error_set(err, PR_ERANGE,
		    "round %zu: the ratio of %g and %g is out of range",
		    s->n + 1, new_, base);
	return pr_seq_update(s, d, err);
}

double
pr_seq_log_bf(size_t n, double t, double g)
{
	double nu, a, y;

	if (n < 2 || !(g > 0))
		return 0;
	nu = (double)n - 1;
	a = 1 + (double)n * g;
	y = t * t / nu;
	if (!isfinite(y)) /* |t| beyond 1e154: the supremum */
		return nu / 2 * log(a);
	return -0.5 * log(a) +
	    (nu + 1) / 2 * log1p(y * ((double)n * g / a) / (1 + y / a));
}

double
pr_seq_t_bound(size_t n, double g, double alpha)
{
	double nu, a, u, den;

	if (n < 2 || !(g > 0) || !(alpha > 0 && alpha < 1))
		return HUGE_VAL;
	nu = (double)n - 1;
	a = 1 + (double)n * g;
	u = expm1(2 * (-log(alpha) + 0.5 * log(a)) / (nu + 1));
	/* 1 - (1 + u)/a, written so that it is exact when u is small. */
	den = ((double)n * g - u) / a;
	if (!(den > 0) || !isfinite(u))
		return HUGE_VAL;
	return sqrt(nu * u / den);
}

double
pr_seq_sign_log_bf(size_t k, size_t m)
{
	double kk = (double)k, mm = (double)m;

	if (m == 0 || k > m)
		return 0;
	/* B(1/2, 1/2) = pi. */
	return mm * log(2.0) + lgamma(kk + 0.5) + lgamma(mm - kk + 0.5) -
	    lgamma(mm + 1) - log(M_PI);
}

const char *
pr_seq_decision_str(enum pr_seq_decision d)
{
	switch (d) {
	case PR_SEQ_CONTINUE:
		return "continue";
	case PR_SEQ_REGRESSION:
		return "regression";
	case PR_SEQ_IMPROVEMENT:
		return "improvement";
	case PR_SEQ_EQUIVALENT:
		return "equivalent";
	case PR_SEQ_INCONCLUSIVE:
		return "inconclusive";
	}
	return "unknown";
}

/*
 * The decision from the sufficient statistics; sd is the sample
 * standard deviation before the floor (the caller checked its inputs).
 */
static void
reset(const struct pr_seq_opts *o, size_t n, double mean,
    struct pr_seq_result *r)
{
	r->n = n;
	r->mean_log = mean;
	r->change_pct = 100 * expm1(mean);
	if (!isfinite(r->change_pct)) /* a change beyond e^709 */
		r->change_pct = HUGE_VAL;
	r->sd_log = 0;
	r->quantised = 0;
	r->bounded = 0;
	r->lo_log = -HUGE_VAL;
	r->hi_log = HUGE_VAL;
	r->lo_pct = -100;
	r->hi_pct = HUGE_VAL;
	r->t_bound = HUGE_VAL;
	r->t = 0;
	r->log_bf = 0;
	r->decision = n >= o->max_runs ? PR_SEQ_INCONCLUSIVE : PR_SEQ_CONTINUE;
}

/* The decision from the interval [r->lo_log, r->hi_log]. */
static void
verdict(const struct pr_seq_opts *o, struct pr_seq_result *r)
{
	double band_lo, band_hi;
	int worse_up, pos;

	r->bounded = 1;
	r->lo_pct = 100 * expm1(r->lo_log);
	r->hi_pct = 100 * expm1(r->hi_log);
	if (!isfinite(r->hi_pct))
		r->hi_pct = HUGE_VAL;
	band_lo = log1p(-o->equivalence_pct / 100);
	band_hi = log1p(o->equivalence_pct / 100);
	worse_up = o->better != PR_BETTER_HIGHER;
	if (o->equivalence_pct > 0 && r->lo_log >= band_lo &&
	    r->hi_log <= band_hi) {
		r->decision = PR_SEQ_EQUIVALENT;
	} else if (r->lo_log > 0 || r->hi_log < 0) {
		pos = r->lo_log > 0;
		r->decision =
		    pos == worse_up ? PR_SEQ_REGRESSION : PR_SEQ_IMPROVEMENT;
	}
}

static void
decide(const struct pr_seq_opts *o, size_t n, double mean, double sd,
    struct pr_seq_result *r)
{
	double floor_sd, se, c, g;

	reset(o, n, mean, r);
	if (n < 2)
		return;

	g = o->prior_scale * o->prior_scale;
	floor_sd = o->sd_floor > PR_SEQ_SD_MIN ? o->sd_floor : PR_SEQ_SD_MIN;
	if (!(sd >= floor_sd)) {
		sd = floor_sd;
		r->quantised = 1;
	}
	r->sd_log = sd;
	se = sd / sqrt((double)n); /* > 0: sd >= PR_SEQ_SD_MIN */
	r->t = mean / se;
	r->log_bf = pr_seq_log_bf(n, r->t, g);
	c = pr_seq_t_bound(n, g, o->alpha);
	r->t_bound = c;
	if (!isfinite(c))
		return;
	r->lo_log = mean - c * se;
	r->hi_log = mean + c * se;
	verdict(o, r);
}

/* Whether theta = x[i], a data value, is accepted with its ties
 * dropped. */
static int
point_ok(const double *x, size_t n, size_t i, double lim)
{
	size_t below = bound(x, n, x[i], 0), above = n - bound(x, n, x[i], 1);

	return pr_seq_sign_log_bf(above, below + above) < lim;
}

static void
decide_sign(const struct pr_seq *s, struct pr_seq_result *r)
{
	const double *x = s->sorted;
	size_t n = s->n, jl, i, j, pos, neg;
	double lim = -log(s->o.alpha), med, lo, hi;

	med = n == 0 ? 0 : n % 2 ? x[n / 2] : x[n / 2 - 1] / 2 + x[n / 2] / 2;
	reset(&s->o, n, med, r);
	if (n == 0)
		return;
	pos = n - bound(x, n, 0, 1);
	neg = bound(x, n, 0, 0);
	r->log_bf = pr_seq_sign_log_bf(pos, pos + neg);
	/* Gap j lies between x[j-1] and x[j] (x[-1] = -inf, x[n] = +inf)
	 * and has n - j values above it; the accepted ones are jl..n-jl,
	 * of which only those that are not empty (ties) count. */
	for (jl = 0; jl <= n / 2 + 1; jl++)
		if (pr_seq_sign_log_bf(n - jl, n) < lim)
			break;
	if (jl == 0)
		return; /* (-inf, x[0]) accepted: the whole line */
	lo = HUGE_VAL;
	hi = -HUGE_VAL;
	for (j = jl; j <= n - jl && j <= n; j++)
		if (x[j - 1] < x[j]) {
			lo = x[j - 1];
			break;
		}
	for (j = n - jl; j >= jl && j >= 1; j--)
		if (x[j - 1] < x[j]) {
			hi = x[j];
			break;
		}
	/* Values below / above that, accepted once their ties are
	 * dropped (with every gap empty, the only accepted points). */
	for (i = 0; i < n && x[i] < lo; i++)
		if ((i == 0 || x[i] != x[i - 1]) && point_ok(x, n, i, lim)) {
			lo = x[i];
			break;
		}
	for (i = n; i > 0 && x[i - 1] > hi; i--)
		if ((i == n || x[i - 1] != x[i]) &&
		    point_ok(x, n, i - 1, lim)) {
			hi = x[i - 1];
			break;
		}
	if (!(lo <= hi)) /* nothing accepted: cannot happen */
		lo = hi = med;
	r->lo_log = lo;
	r->hi_log = hi;
	r->t_bound = HUGE_VAL;
	verdict(&s->o, r);
}

void
pr_seq_query(const struct pr_seq *s, struct pr_seq_result *r)
{
	if (s->o.method == PR_SEQ_METHOD_SIGN) {
		decide_sign(s, r);
		return;
	}
	decide(&s->o, s->n, s->mean,
	    s->n > 1 && s->m2 > 0 ? sqrt(s->m2 / (double)(s->n - 1)) : 0, r);
}

enum pr_status
pr_seq_decide(const struct pr_seq_opts *o, size_t n, double mean_log,
    double sd_log, struct pr_seq_result *r, struct pr_error *err)
{
	struct pr_seq s;
	enum pr_status st;

	if ((st = pr_seq_init(&s, o, err)) != PR_OK)
		return st;
	if (o->method == PR_SEQ_METHOD_SIGN)
		return pr_error_set(err, PR_EINVAL,
		    "the sign method needs the log-ratios, not a summary");
	if (!isfinite(mean_log) || !(sd_log >= 0) || !isfinite(sd_log))
		return pr_error_set(err, PR_EINVAL,
		    "summary of %zu rounds is not finite (mean %g, "
		    "standard deviation %g)",
		    n, mean_log, sd_log);
	if (n > PR_SEQ_RUNS_MAX)
		return pr_error_set(err, PR_ELIMIT, "more than %d rounds",
		    PR_SEQ_RUNS_MAX);
	decide(o, n, n > 0 ? mean_log : 0, n > 1 ? sd_log : 0, r);
	return PR_OK;
}
