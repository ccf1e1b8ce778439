/*
 * stats/ttest.c - two-sample t tests on the difference of means.
 *
 * Student's test pools the two variances,
 *   s_p^2 = ((na - 1) var_a + (nb - 1) var_b) / (na + nb - 2),
 *   se = s_p sqrt(1/na + 1/nb),  df = na + nb - 2,
 * which is what ministat prints; a side with one value contributes no
 * spread but still counts in 1/n, so 1 + 2 values are enough.  Welch's
 * test does not pool,
 *   se^2 = var_a/na + var_b/nb,
 *   df = se^4 / ((var_a/na)^2/(na - 1) + (var_b/nb)^2/(nb - 1)),
 * the Welch-Satterthwaite approximation (B. L. Welch, Biometrika 34,
 * 1947; F. E. Satterthwaite, Biometrics Bulletin 2, 1946).  Both give
 * t = diff / se, the two-sided p = 2 P(T > |t|) and the interval
 * diff -+ t_{(1+conf)/2, df} se, with T Student's t on df degrees of
 * freedom from stats/distrib.c.
 *
 * Both work from the standard deviations, not the variances: a spread
 * below about 1e-154 has a variance that underflows to 0 or to a
 * subnormal of a few digits (describe.c computes the standard deviation
 * on scaled data, where it is exact to a few ulps), so the pooled s, the
 * standard error and the Welch df are formed from the deviations scaled
 * by the larger one, which neither overflows nor underflows for any
 * finite input.  A standard error of zero is never divided by: see the
 * header for what is reported then.
 */
#include <math.h>
#include <stddef.h>

#include "perfreg/distrib.h"
#include "perfreg/ttest.h"
#include "core/banned.h"

/* Checks what both tests need of one side; name is "base" or "new". */
static enum pr_status
check_side(const struct pr_summary *s, const char *name, size_t min_n,
    struct pr_error *err)
{
	if (s->n < min_n)
		return pr_error_set(err, PR_EUNDEF,
		    "t test needs at least %zu value%s in %s, got %zu", min_n,
		    min_n == 1 ? "" : "s", name, s->n);
	if (!isfinite(s->mean))
		return pr_error_set(err, PR_EINVAL,
		    "t test: mean of %s is not finite", name);
	if (s->n >= 2 &&
	    (!isfinite(s->var) || s->var < 0 || !isfinite(s->stddev) ||
		s->stddev < 0))
		return pr_error_set(err, PR_EINVAL,
		    "t test: variance of %s is negative or not finite", name);
	return PR_OK;
}

static enum pr_status
check_conf(double conf, struct pr_error *err)
{
	if (!(conf > 0 && conf < 1))
		return pr_error_set(err, PR_EINVAL,
		    "confidence must lie strictly between 0 and 1, got %g",
		    conf);
	return PR_OK;
}

/* The standard deviation of a side; one value has no spread. */
static double
side_sd(const struct pr_summary *s)
{
	return s->n >= 2 ? s->stddev : 0.0;
}

/*
 * Fills t, p and the interval from diff, se and df.  se == 0 is the
 * degenerate case described in the header.
 */
static enum pr_status
finish(struct pr_ttest *out, double conf, struct pr_error *err)
{
	double q, half;

	if (!isfinite(out->diff) || !isfinite(out->se))
		return pr_error_set(err, PR_ERANGE,
		    "t test: difference of means overflows");
	if (out->se == 0) {
		out->degenerate = 1;
		out->t = 0;
		out->p = out->diff == 0 ? 1.0 : 0.0;
		out->ci_lo = out->diff;
		out->ci_hi = out->diff;
		return PR_OK;
	}
	out->degenerate = 0;
	out->t = out->diff / out->se;
	/* |t| may overflow to inf for a tiny se: then p is 0, not NaN. */
	out->p = 2 * pr_t_sf(fabs(out->t), out->df);
	if (out->p > 1)
		out->p = 1;
	q = pr_t_quantile(0.5 + conf / 2, out->df);
	half = q * out->se;
	out->ci_lo = out->diff - half;
	out->ci_hi = out->diff + half;
	if (!isfinite(out->ci_lo) || !isfinite(out->ci_hi) ||
	    !(out->p >= 0 && out->p <= 1))
		return pr_error_set(err, PR_ERANGE,
		    "t test: interval of the difference overflows");
	return PR_OK;
}

enum pr_status
pr_ttest_student(const struct pr_summary *a, const struct pr_summary *b,
    double conf, struct pr_ttest *out, struct pr_error *err)
{
	enum pr_status st;
	double df, sa, sb, big;

	if ((st = check_conf(conf, err)) != PR_OK ||
	    (st = check_side(a, "base", 1, err)) != PR_OK ||
	    (st = check_side(b, "new", 1, err)) != PR_OK)
		return st;
	if (a->n + b->n < 3)
		return pr_error_set(err, PR_EUNDEF,
		    "pooled t test needs at least 3 values in all, got %zu",
		    a->n + b->n);
	df = (double)a->n + (double)b->n - 2;
	/* Sums of squares, each sd^2 (n - 1), scaled by the larger sd. */
	sa = side_sd(a);
	sb = side_sd(b);
	big = sa > sb ? sa : sb;
	if (big == 0)
		out->pooled_sd = 0;
	else {
		sa /= big;
		sb /= big;
		out->pooled_sd = big *
		    sqrt(sa * sa / df * ((double)a->n - 1) +
			sb * sb / df * ((double)b->n - 1));
	}
	out->diff = b->mean - a->mean;
	out->df = df;
	out->se = out->pooled_sd * sqrt(1 / (double)a->n + 1 / (double)b->n);
	return finish(out, conf, err);
}

enum pr_status
pr_ttest_welch(const struct pr_summary *a, const struct pr_summary *b,
    double conf, struct pr_ttest *out, struct pr_error *err)
{
	enum pr_status st;
	double ea, eb, big, ra, rb;

	if ((st = check_conf(conf, err)) != PR_OK ||
	    (st = check_side(a, "base", 2, err)) != PR_OK ||
	    (st = check_side(b, "new", 2, err)) != PR_OK)
		return st;
	ea = a->stddev / sqrt((double)a->n);
	eb = b->stddev / sqrt((double)b->n);
	out->pooled_sd = 0;
	out->diff = b->mean - a->mean;
	out->se = hypot(ea, eb);
	big = ea > eb ? ea : eb;
	if (big == 0) {
		/* No spread anywhere: df is not defined by the formula;
		 * report the pooled value, which nothing uses. */
		out->df = (double)a->n + (double)b->n - 2;
	} else {
		ra = ea / big;
		ra *= ra;
		rb = eb / big;
		rb *= rb;
		out->df = (ra + rb) * (ra + rb) /
		    (ra * ra / ((double)a->n - 1) +
			rb * rb / ((double)b->n - 1));
	}
	return finish(out, conf, err);
}
