/*
 * stats/nested.c - two-level (boot, run) comparisons: the boot as the
 * unit of analysis.
 *
 * Method (T. Kalibera and R. Jones, "Rigorous Benchmarking in Reasonable
 * Time", ISMM 2013, revised version; perfreg/nested.h has the formulas).
 * Runs within a boot are correlated through the boot's state, so the
 * boot means are the independent observations: with at least 2 boots a
 * side the comparison is pr_compare's Welch t test and Fieller interval
 * on the boot means (each boot weight 1, however many runs it holds),
 * which is K&J's interval built from the variance of the execution
 * means, S_2^2 / n_2, extended to two samples by Welch (Biometrika 34,
 * 1947) and to a ratio by Fieller (JRSS B 16, 1954).  With one boot on a
 * side there is no estimate of the boot-to-boot variance and the runs
 * become the units, flagged single_boot.
 *
 * Variance components: one pass over each boot computes its mean (from
 * the deviations from its first run, so a large common offset loses
 * nothing) and a second its sum of squared deviations; the pooled within-boot
 * variance is their total over sum (r_j - 1), and the boot-to-boot
 * variance T_2^2 = S_2^2 - S_1^2 * mean(1 / r_j), which for unequal
 * boots keeps K&J's estimator unbiased (the mean of r_j independent
 * values with variance sigma^2 has variance sigma^2 / r_j).  The optimal
 * runs per boot minimise the variance of the grand mean,
 * tau^2 / g + sigma^2 / (g r), for a budget g (c_boot + r c_run), which
 * gives K&J's r = sqrt(c_boot sigma^2 / (c_run tau^2)).
 *
 * Prediction test (pr_nested_predict): one new session mean x against k
 * earlier ones.  Under no change x is a further draw from the
 * population of the base values, so (x - M) / (S sqrt(1 + 1/k)) has
 * Student's t distribution with k - 1 df: the prediction interval of a
 * single future observation (e.g. G. J. Hahn and W. Q. Meeker,
 * "Statistical Intervals", Wiley 1991, sec. 4.7), which is Student's
 * pooled t with a second sample of one value that adds no variance
 * estimate.  The interval of the ratio x / M is Fieller's (JRSS B 16,
 * 1954) with var(x) = S^2 and var(M) = S^2 / k, written as in
 * stats/verdict.c around d = x / M - 1.
 *
 * Invariants: the sides are only read; every figure not defined for the
 * data is 0 with its bit clear, never NaN; scratch memory is freed
 * before returning.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/describe.h"
#include "perfreg/distrib.h"
#include "perfreg/nested.h"
#include "perfreg/sample.h"
#include "perfreg/verdict.h"
#include "core/banned.h"

/*
 * The mean of x[0..n), summed as deviations from x[0]: a large common
 * offset (1e9 + noise) then costs no digits.
 */
static double
shifted_mean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 1; i < n; i++)
		sum += x[i] - x[0];
	return x[0] + sum / (double)n;
}

/* Checks a side and counts its boots. */
static enum pr_status
check_side(const struct pr_nested_side *s, const char *name, size_t *ng,
    struct pr_error *err)
{
	size_t i, g = 0;

	if (s == NULL || s->n == 0 || s->x == NULL || s->group == NULL)
		return pr_error_set(err, PR_EINVAL,
		    "%s has no values to compare", name);
	for (i = 0; i < s->n; i++) {
		if (!isfinite(s->x[i]))
			return pr_error_set(err, PR_EINVAL,
			    "%s value %zu is not finite", name, i + 1);
		if (i > 0 && s->group[i] < s->group[i - 1])
			return pr_error_set(err, PR_EINVAL,
			    "%s value %zu: boot %zu after boot %zu, values "
			    "must be ordered by boot",
			    name, i + 1, s->group[i], s->group[i - 1]);
		if (i == 0 || s->group[i] != s->group[i - 1])
			g++;
	}
	*ng = g;
	return PR_OK;
}

/*
 * Fills d from side s (checked) and writes its boot means, sorted
 * ascending, into means (room for the boots counted by check_side).
 */
static enum pr_status
components(const struct pr_nested_side *s, const char *name, double boot_cost,
    double *means, struct pr_nested_desc *d, struct pr_error *err)
{
	struct pr_summary sm;
	enum pr_status st;
	double m, dev, ssw = 0, hm = 0, ratio, r;
	size_t i, j, k = 0, dfw = 0, len;

	for (i = 0; i < s->n; i = j) {
		for (j = i + 1; j < s->n && s->group[j] == s->group[i]; j++)
			;
		len = j - i;
		m = shifted_mean(s->x + i, len);
		for (dev = 0; i < j; i++)
			dev += (s->x[i] - m) * (s->x[i] - m);
		ssw += dev;
		dfw += len - 1;
		hm += 1 / (double)len;
		if (k == 0 || len < d->runs_min)
			d->runs_min = len;
		if (len > d->runs_max)
			d->runs_max = len;
		means[k++] = m;
	}
	d->n = s->n;
	d->ngroups = k;
	hm /= (double)k;
	if (!isfinite(ssw))
		return pr_error_set(err, PR_ERANGE,
		    "%s: the spread within boots overflows", name);
	pr_sort_doubles(means, k);
	if ((st = pr_summary_compute(means, k, &sm, err)) != PR_OK)
		return st;
	d->mean = sm.mean;
	if (k >= 2) {
		d->var_means = sm.var;
		d->defined |= PR_NESTED_VAR_MEANS;
	}
	if (dfw > 0) {
		d->var_within = ssw / (double)dfw;
		d->defined |= PR_NESTED_VAR_WITHIN;
	}
	if (k < 2 || dfw == 0)
		return PR_OK;
	d->var_between = d->var_means - d->var_within * hm;
	d->defined |= PR_NESTED_VAR_BETWEEN;
	r = d->var_between > 0 ? d->var_between : 0;
	if (r + d->var_within > 0) {
		d->icc = r / (r + d->var_within);
		d->defined |= PR_NESTED_ICC;
	}
	if (!(boot_cost > 0) || !(d->var_between > 0))
		return PR_OK;
	ratio = ceil(sqrt(boot_cost * (d->var_within / d->var_between)));
	if (!(ratio >= 1))
		ratio = 1;
	d->runs_per_boot_opt =
	    ratio < PR_NESTED_RUNS_MAX ? (size_t)ratio : PR_NESTED_RUNS_MAX;
	d->defined |= PR_NESTED_RUNS_OPT;
	return PR_OK;
}

static enum pr_status
check_cost(double boot_cost, struct pr_error *err)
{
	if (!(boot_cost >= 0 && isfinite(boot_cost)))
		return pr_error_set(err, PR_EINVAL,
		    "cost of a boot must be a finite number of runs >= 0, "
		    "got %g",
		    boot_cost);
	return PR_OK;
}

enum pr_status
pr_nested_describe(const struct pr_nested_side *s, const char *name,
    double boot_cost, struct pr_nested_desc *out, struct pr_error *err)
{
	enum pr_status st;
	double *means;
	size_t g;

	memset(out, 0, sizeof(*out));
	if (name == NULL)
		name = "sample";
	if ((st = check_cost(boot_cost, err)) != PR_OK ||
	    (st = check_side(s, name, &g, err)) != PR_OK)
		return st;
	means = malloc(g * sizeof(*means));
	if (means == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory for the boot means of %s", name);
	st = components(s, name, boot_cost, means, out, err);
	free(means);
	if (st != PR_OK)
		memset(out, 0, sizeof(*out));
	return st;
}

/* A sorted copy of all the values of s into v (room for s->n). */
static void
all_runs(const struct pr_nested_side *s, double *v)
{
	memcpy(v, s->x, s->n * sizeof(*v));
	pr_sort_doubles(v, s->n);
}

enum pr_status
pr_nested_compare(const struct pr_nested_side *base,
    const struct pr_nested_side *new_, enum pr_better better,
    const struct pr_verdict_opts *o, double boot_cost,
    struct pr_nested_result *out, struct pr_error *err)
{
	struct pr_verdict_opts opts;
	enum pr_status st;
	double *mb = NULL, *mn, *rb = NULL, *rn;
	size_t gb, gn;

	memset(out, 0, sizeof(*out));
	if (o != NULL)
		opts = *o;
	else
		pr_verdict_opts_init(&opts);
	opts.method = PR_METHOD_WELCH;
	opts.flags |= PR_VERDICT_NO_RATIO | PR_VERDICT_NO_RANKS;
	if ((st = check_cost(boot_cost, err)) != PR_OK ||
	    (st = check_side(base, "base", &gb, err)) != PR_OK ||
	    (st = check_side(new_, "new", &gn, err)) != PR_OK)
		return st;
	mb = malloc((gb + gn) * sizeof(*mb));
	if (mb == NULL) {
		st = pr_error_set(err, PR_ENOMEM,
		    "out of memory for the boot means");
		goto out;
	}
	mn = mb + gb;
	if ((st = components(base, "base", boot_cost, mb, &out->base, err)) !=
		PR_OK ||
	    (st = components(new_, "new", boot_cost, mn, &out->new_, err)) !=
		PR_OK)
		goto out;
	if (gb >= 2 && gn >= 2) {
		st = pr_compare(mb, gb, mn, gn, better, &opts, &out->cmp, err);
		goto out;
	}
	/* No boot-to-boot variance on a side: the runs are the units. */
	out->single_boot = 1;
	/* NOLINTNEXTLINE(clang-analyzer-optin.portability.UnixAPI): check_side refused empty sides */
	rb = malloc((base->n + new_->n) * sizeof(*rb));
	if (rb == NULL) {
		st = pr_error_set(err, PR_ENOMEM,
		    "out of memory for a copy of the runs");
		goto out;
	}
	rn = rb + base->n;
	all_runs(base, rb);
	all_runs(new_, rn);
	st =
	    pr_compare(rb, base->n, rn, new_->n, better, &opts, &out->cmp, err);
out:
	free(rb);
	free(mb);
	if (st != PR_OK)
		memset(out, 0, sizeof(*out));
	return st;
}

static enum pr_status
check_predict(const double *base, size_t k, double x, enum pr_better better,
    const struct pr_verdict_opts *o, struct pr_error *err)
{
	size_t i;

	if (base == NULL || k < 2)
		return pr_error_set(err, PR_EINVAL,
		    "the prediction test needs at least 2 base sessions, "
		    "got %zu",
		    base == NULL ? (size_t)0 : k);
	for (i = 0; i < k; i++)
		if (!isfinite(base[i]))
			return pr_error_set(err, PR_EINVAL,
			    "base session %zu: mean is not finite", i + 1);
	if (!isfinite(x))
		return pr_error_set(err, PR_EINVAL,
		    "new session: mean is not finite");
	return pr_verdict_opts_check(o, better, err);
}

/* The summaries of the k base values (via a sorted copy) and of x. */
static enum pr_status
predict_summaries(const double *base, size_t k, double x,
    struct pr_comparison *c, struct pr_error *err)
{
	enum pr_status st;
	double *sorted;

	sorted = malloc(k * sizeof(*sorted));
	if (sorted == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory for a copy of %zu session means", k);
	memcpy(sorted, base, k * sizeof(*sorted));
	pr_sort_doubles(sorted, k);
	st = pr_summary_compute(sorted, k, &c->base, err);
	free(sorted);
	if (st != PR_OK)
		return st;
	return pr_summary_compute(&x, 1, &c->new, err);
}

/* Fieller's interval of x / M with var(x) = S^2, var(M) = S^2 / k. */
static void
predict_fieller(struct pr_comparison *c, double q, size_t k)
{
	double m = c->base.mean, s = c->base.stddev, ea, eb, g, r, d, root;

	/* Standard errors relative to M from the standard deviation, so
	 * that tiny spreads do not underflow when squared. */
	ea = s / sqrt((double)k) / fabs(m);
	eb = s / fabs(m);
	d = c->primary_t.diff / m;
	g = q * ea * (q * ea);
	if (!(g < 1)) {
		c->notes |= PR_NOTE_NO_CI;
		return;
	}
	r = c->new.mean / m;
	root = q * sqrt(eb * eb * (1 - g) + r * ea * (r * ea));
	c->ci_lo_pct = 100 * (d + g - root) / (1 - g);
	c->ci_hi_pct = 100 * (d + g + root) / (1 - g);
	if (m < 0) {
		double lo = c->ci_lo_pct;

		c->ci_lo_pct = -c->ci_hi_pct;
		c->ci_hi_pct = -lo;
	}
	/* Positive values: a positive ratio, never below -100%. */
	if (c->base.min > 0 && c->new.mean > 0 && c->ci_lo_pct < -100)
		c->ci_lo_pct = -100;
	c->have_ci = isfinite(c->ci_lo_pct) && isfinite(c->ci_hi_pct);
	if (!c->have_ci) {
		c->ci_lo_pct = c->ci_hi_pct = 0;
		c->notes |= PR_NOTE_NO_CI;
	}
}

enum pr_status
pr_nested_predict(const double *base, size_t k, double x, enum pr_better better,
    const struct pr_verdict_opts *o, struct pr_comparison *out,
    struct pr_error *err)
{
	struct pr_verdict_opts def;
	struct pr_ttest *t = &out->primary_t;
	enum pr_status st;
	double m, s, q, half;

	memset(out, 0, sizeof(*out));
	if (o == NULL) {
		pr_verdict_opts_init(&def);
		o = &def;
	}
	if ((st = check_predict(base, k, x, better, o, err)) != PR_OK ||
	    (st = predict_summaries(base, k, x, out, err)) != PR_OK)
		goto fail;
	out->better = better;
	out->conf = o->conf;
	out->equivalence_pct = o->equivalence_pct;
	if (better == PR_BETTER_UNKNOWN)
		out->notes |= PR_NOTE_DIRECTION_ASSUMED;
	m = out->base.mean;
	s = out->base.stddev;
	t->diff = x - m;
	t->df = (double)(k - 1);
	t->pooled_sd = s;
	t->se = s * sqrt(1 + 1 / (double)k);
	if (!isfinite(t->diff) || !isfinite(t->se)) {
		st = pr_error_set(err, PR_ERANGE,
		    "new session mean %g minus base mean %g overflows", x, m);
		goto fail;
	}
	out->direction = (t->diff > 0) - (t->diff < 0);
	/* As in pr_compare: no percentage of 0 or across signs. */
	if (m == 0 || (x != 0 && (x < 0) != (m < 0))) {
		out->notes |= PR_NOTE_NO_CHANGE | PR_NOTE_NO_CI;
	} else {
		/* In percent of |M|: its sign is that of x - M. */
		out->change_pct = 100 * (t->diff / fabs(m));
		out->have_change = isfinite(out->change_pct);
		if (!out->have_change) {
			out->change_pct = 0;
			out->notes |= PR_NOTE_NO_CI;
		}
	}
	if (!(s > 0)) {
		/* Equal base sessions: no spread, no test (see nested.h). */
		out->method = PR_METHOD_NONE;
		out->notes |=
		    PR_NOTE_UNTESTED | PR_NOTE_DEGENERATE | PR_NOTE_NO_CI;
		out->p_value = out->p_adjusted = t->p = 1;
		t->degenerate = 1;
		t->ci_lo = t->ci_hi = t->diff;
		pr_verdict_decide(out);
		return PR_OK;
	}
	out->method = PR_METHOD_STUDENT;
	out->tested = 1;
	out->holm_m = 1;
	t->t = t->diff / t->se;
	/* |t| may be inf for a tiny S: then p is 0, not NaN. */
	t->p = 2 * pr_t_sf(fabs(t->t), t->df);
	if (t->p > 1)
		t->p = 1;
	q = pr_t_quantile(0.5 + o->conf / 2, t->df);
	half = q * t->se;
	t->ci_lo = t->diff - half;
	t->ci_hi = t->diff + half;
	if (!isfinite(t->ci_lo) || !isfinite(t->ci_hi)) {
		st = pr_error_set(err, PR_ERANGE,
		    "prediction test: interval of the difference overflows");
		goto fail;
	}
	out->p_value = out->p_adjusted = t->p;
	if (out->have_change)
		predict_fieller(out, q, k);
	pr_verdict_decide(out);
	return PR_OK;
fail:
	memset(out, 0, sizeof(*out));
	return st;
}
