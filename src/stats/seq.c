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
 */
#include <math.h>
#include <stddef.h>

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
}

enum pr_status
pr_seq_init(struct pr_seq *s, const struct pr_seq_opts *o,
    struct pr_error *err)
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
		return pr_error_set(err, PR_EINVAL,
		    "unknown direction %d", (int)o->better);
	s->o = *o;
	s->n = 0;
	s->mean = 0;
	s->m2 = 0;
	return PR_OK;
}

enum pr_status
pr_seq_update(struct pr_seq *s, double d, struct pr_error *err)
{
	double delta;

	if (!isfinite(d))
		return pr_error_set(err, PR_EINVAL,
		    "log-ratio of round %zu is not finite", s->n + 1);
	if (s->n >= PR_SEQ_RUNS_MAX)
		return pr_error_set(err, PR_ELIMIT,
		    "more than %d rounds", PR_SEQ_RUNS_MAX);
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
		    "and %g", s->n + 1, base, new_);
	d = log(new_ / base);
	if (!isfinite(d))	/* 1e-300 against 1e300 */
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
	if (!isfinite(y))	/* |t| beyond 1e154: the supremum */
		return nu / 2 * log(a);
	return -0.5 * log(a) + (nu + 1) / 2 *
	    log1p(y * ((double)n * g / a) / (1 + y / a));
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
decide(const struct pr_seq_opts *o, size_t n, double mean, double sd,
    struct pr_seq_result *r)
{
	double floor_sd, se, c, g, band_lo, band_hi;
	int worse_up, pos;

	r->n = n;
	r->mean_log = mean;
	r->change_pct = 100 * expm1(mean);
	if (!isfinite(r->change_pct))	/* a change beyond e^709 */
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
	r->decision = n >= o->max_runs ? PR_SEQ_INCONCLUSIVE :
	    PR_SEQ_CONTINUE;
	if (n < 2)
		return;

	g = o->prior_scale * o->prior_scale;
	floor_sd = o->sd_floor > PR_SEQ_SD_MIN ? o->sd_floor : PR_SEQ_SD_MIN;
	if (!(sd >= floor_sd)) {
		sd = floor_sd;
		r->quantised = 1;
	}
	r->sd_log = sd;
	se = sd / sqrt((double)n);	/* > 0: sd >= PR_SEQ_SD_MIN */
	r->t = mean / se;
	r->log_bf = pr_seq_log_bf(n, r->t, g);
	c = pr_seq_t_bound(n, g, o->alpha);
	r->t_bound = c;
	if (!isfinite(c))
		return;
	r->bounded = 1;
	r->lo_log = mean - c * se;
	r->hi_log = mean + c * se;
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
		r->decision = pos == worse_up ? PR_SEQ_REGRESSION :
		    PR_SEQ_IMPROVEMENT;
	}
}

void
pr_seq_query(const struct pr_seq *s, struct pr_seq_result *r)
{
	decide(&s->o, s->n, s->mean, s->n > 1 && s->m2 > 0 ?
	    sqrt(s->m2 / (double)(s->n - 1)) : 0, r);
}

enum pr_status
pr_seq_decide(const struct pr_seq_opts *o, size_t n, double mean_log,
    double sd_log, struct pr_seq_result *r, struct pr_error *err)
{
	struct pr_seq s;
	enum pr_status st;

	if ((st = pr_seq_init(&s, o, err)) != PR_OK)
		return st;
	if (!isfinite(mean_log) || !(sd_log >= 0) || !isfinite(sd_log))
		return pr_error_set(err, PR_EINVAL,
		    "summary of %zu rounds is not finite (mean %g, "
		    "standard deviation %g)", n, mean_log, sd_log);
	if (n > PR_SEQ_RUNS_MAX)
		return pr_error_set(err, PR_ELIMIT,
		    "more than %d rounds", PR_SEQ_RUNS_MAX);
	decide(o, n, n > 0 ? mean_log : 0, n > 1 ? sd_log : 0, r);
	return PR_OK;
}
