/*
 * stats/moderated.c - the empirical-Bayes moderated t of suite sessions
 * (perfreg/moderated.h has the model and the contract).
 *
 * Method: G. K. Smyth, "Linear models and empirical Bayes methods for
 * assessing differential expression in microarray experiments", SAGMB 3
 * (2004), article 3, as limma 3.54 implements it: fitFDist estimates the
 * prior's df d0 and scale s0^2 by the method of moments on
 * e = log s^2 - psi(d / 2) + log(d / 2), whose mean is log s0^2 -
 * psi(d0 / 2) + log(d0 / 2) and whose variance is psi'(d / 2) +
 * psi'(d0 / 2) (Smyth's equations 6 and 7); squeezeVar takes the posterior
 * variances; eBayes the moderated t with d0 + d df, capped at the pooled
 * df.  The step-up adjustment is Y. Benjamini and Y. Hochberg,
 * "Controlling the false discovery rate", JRSS B 57 (1995).
 *
 * Invariants: the values are logs of positive session means divided by a
 * scale of at least PR_MODERATED_SE_MIN, so every difference and variance
 * here is finite; an untested figure never enters the prior or the
 * family.  Reference values: tests/stats/gen_moderated.R (limma).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/describe.h"
#include "perfreg/distrib.h"
#include "perfreg/moderated.h"
#include "perfreg/sample.h"
#include "perfreg/ttest.h"

#include "core/banned.h"

void
pr_moderated_opts_init(struct pr_moderated_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->conf = 0.95;
	o->equivalence_pct = 1.0;
	o->adjust = PR_ADJUST_BH;
	o->prior = NULL;
	o->one_ratio = PR_MODERATED_ONE_RATIO;
	o->df_prior_max = PR_MODERATED_DF_PRIOR_MAX;
	o->df_max = PR_MODERATED_DF_MAX;
}

double
pr_trigamma_inv(double x)
{
	double y, tri, dif;
	int i;

	if (isnan(x) || !(x > 0))
		return NAN;
	/* limma's ends: psi'(y) ~ 1 / y^2 for small y, 1 / y for large. */
	if (x > 1e7)
		return 1 / sqrt(x);
	if (x < 1e-6)
		return 1 / x;
	/*
	 * Newton on 1 / psi'(y), which is nearly linear in y, from limma's
	 * start; the steps decrease y monotonically.  limma stops at a
	 * relative step of 1e-8; the next step is then below 1e-15, so this
	 * goes one step further (1e-12 is reachable: a step at the
	 * solution is rounding, a few ulps, or of the wrong sign).
	 */
	y = 0.5 + 1 / x;
	for (i = 0; i < 50; i++) {
		tri = pr_trigamma(y);
		dif = tri * (1 - tri / x) / pr_tetragamma(y);
		y += dif;
		if (-dif / y < 1e-12)
			break;
	}
	return y;
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* fitFDist's entries: a finite variance with df > 1e-15. */
static int
fit_ok(double var, double df)
{
	return isfinite(df) && df > 1e-15 && isfinite(var) && var > -1e-15;
}

enum pr_status
pr_moderated_squeeze(const double *var, const double *df, size_t n,
    double *df_prior, double *var_prior, double *var_post, struct pr_error *err)
{
	double *x, med, emean = 0, evar = 0, tmean = 0, xmean = 0, e, d0, s0;
	size_t i, k = 0;

	*df_prior = *var_prior = 0;
	x = malloc((n ? n : 1) * sizeof(*x));
	if (x == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory for %zu variances", n);
	for (i = 0; i < n; i++)
		if (fit_ok(var[i], df[i]))
			x[k++] = var[i] > 0 ? var[i] : 0;
	if (k < 2) {
		free(x);
		return pr_error_set(err, PR_EINVAL,
		    "the prior needs at least 2 variances with degrees of "
		    "freedom, got %zu",
		    k);
	}
	qsort(x, k, sizeof(*x), cmp_dbl);
	med = k % 2 ? x[k / 2] : 0.5 * (x[k / 2 - 1] + x[k / 2]);
	free(x);
	/* limma: more than half exactly 0 takes the median as 1. */
	if (med == 0)
		med = 1;
	for (i = 0, k = 0; i < n; i++) {
		if (!fit_ok(var[i], df[i]))
			continue;
		e = fmax(fmax(var[i], 0), 1e-5 * med);
		xmean += e;
		e = log(e) - pr_digamma(df[i] / 2) + log(df[i] / 2);
		/* Welford's running mean and sum of squares. */
		k++;
		tmean += pr_trigamma(df[i] / 2);
		{
			double delta = e - emean;

			emean += delta / (double)k;
			evar += delta * (e - emean);
		}
	}
	xmean /= (double)k;
	evar = evar / (double)(k - 1) - tmean / (double)k;
	if (evar > 0) {
		d0 = 2 * pr_trigamma_inv(evar);
		s0 = exp(emean + pr_digamma(d0 / 2) - log(d0 / 2));
	} else {
		d0 = INFINITY;
		s0 = xmean;
	}
	*df_prior = d0;
	*var_prior = s0;
	if (var_post != NULL)
		for (i = 0; i < n; i++) {
			double v = df[i] > 0 ? var[i] : 0;

			var_post[i] = isinf(d0)
			    ? s0
			    : (df[i] * v + d0 * s0) / (df[i] + d0);
		}
	return PR_OK;
}

/* R's quantile type 7 of sorted x[n] at probability q. */
static double
quantile7(const double *x, size_t n, double q)
{
	double h = (double)(n - 1) * q, lo = floor(h);
	size_t i = (size_t)lo;

	if (i + 1 >= n)
		return x[n - 1];
	return x[i] + (h - lo) * (x[i + 1] - x[i]);
}

#define TREND_MAXDF 4

/*
 * The natural cubic spline basis of t on knots xi[0..K) (K >= 2,
 * increasing): 1, t and d_k(t) - d_{K-2}(t), d_k(t) = ((t - xi_k)+^3 -
 * (t - xi_{K-1})+^3) / (xi_{K-1} - xi_k), k = 0..K-3 (Hastie, Tibshirani,
 * Friedman, ESL 5.2.1): the space of ns(df = K, intercept = TRUE), linear
 * beyond the boundary knots as ns's predictions are.
 */
static void
ns_basis(double t, const double *xi, size_t K, double *b)
{
	size_t k;
	double last, c;

#define CUBE_POS(u) ((u) > 0 ? (u) * (u) * (u) : 0)
	b[0] = 1;
	b[1] = t;
	if (K < 3)
		return;
	c = CUBE_POS(t - xi[K - 1]);
	last = (CUBE_POS(t - xi[K - 2]) - c) / (xi[K - 1] - xi[K - 2]);
	for (k = 0; k + 2 < K; k++)
		b[2 + k] =
		    (CUBE_POS(t - xi[k]) - c) / (xi[K - 1] - xi[k]) - last;
#undef CUBE_POS
}

enum pr_status
pr_moderated_squeeze_trend(const double *var, const double *df,
    const double *cov, size_t n, double *df_prior, double *var_prior,
    double *var_post, struct pr_error *err)
{
	double *x = NULL, *q = NULL, *e = NULL, med, lo, hi, xi[TREND_MAXDF];
	double r[TREND_MAXDF][TREND_MAXDF], coef[TREND_MAXDF], b[TREND_MAXDF];
	double nrm0[TREND_MAXDF], tmean = 0, rss, evar, d0, v;
	int keep[TREND_MAXDF];
	size_t i, j, l, k = 0, K, uniq, p, rank = 0;
	enum pr_status st = PR_OK;

	*df_prior = 0;
	for (i = 0; i < n; i++)
		if (var_prior != NULL)
			var_prior[i] = 0;
	for (i = 0; i < n; i++)
		if (!isfinite(cov[i]))
			return pr_error_set(err, PR_EINVAL,
			    "covariate %zu is not finite", i + 1);
	x = malloc((n ? n : 1) * sizeof(*x));
	e = malloc((n ? n : 1) * sizeof(*e));
	q = malloc((n ? n : 1) * TREND_MAXDF * sizeof(*q));
	if (x == NULL || e == NULL || q == NULL) {
		st = pr_error_set(err, PR_ENOMEM,
		    "out of memory for %zu variances", n);
		goto out;
	}
	for (i = 0; i < n; i++)
		if (fit_ok(var[i], df[i]))
			x[k++] = var[i] > 0 ? var[i] : 0;
	if (k < 2) {
		st = pr_error_set(err, PR_EINVAL,
		    "the prior needs at least 2 variances with degrees of "
		    "freedom, got %zu",
		    k);
		goto out;
	}
	qsort(x, k, sizeof(*x), cmp_dbl);
	med = k % 2 ? x[k / 2] : 0.5 * (x[k / 2 - 1] + x[k / 2]);
	if (med == 0)
		med = 1;
	/* The covariates that enter the fit, sorted: knots and df. */
	for (i = 0, k = 0; i < n; i++)
		if (fit_ok(var[i], df[i]))
			x[k++] = cov[i];
	qsort(x, k, sizeof(*x), cmp_dbl);
	for (i = 1, uniq = 1; i < k; i++)
		uniq += x[i] != x[i - 1];
	K = 1 + (k >= 3) + (k >= 6) + (k >= 30);
	if (K > uniq)
		K = uniq;
	if (K < 2) {
		/* limma: no trend to fit, the plain prior. */
		free(x);
		free(e);
		free(q);
		st = pr_moderated_squeeze(var, df, n, df_prior, &v, var_post,
		    err);
		for (i = 0; st == PR_OK && var_prior != NULL && i < n; i++)
			var_prior[i] = v;
		return st;
	}
	lo = x[0];
	hi = x[k - 1];
	for (j = 0; j < K; j++)
		xi[j] = (quantile7(x, k, (double)j / (double)(K - 1)) - lo) /
		    (hi - lo);
	xi[0] = 0;
	xi[K - 1] = 1;
	p = K;
	/* e and the basis rows of the entries that enter the fit. */
	for (i = 0, k = 0; i < n; i++) {
		double y;

		if (!fit_ok(var[i], df[i]))
			continue;
		y = fmax(fmax(var[i], 0), 1e-5 * med);
		e[k] = log(y) - pr_digamma(df[i] / 2) + log(df[i] / 2);
		tmean += pr_trigamma(df[i] / 2);
		ns_basis((cov[i] - lo) / (hi - lo), xi, K, b);
		for (j = 0; j < p; j++)
			q[j * n + k] = b[j];
		k++;
	}
	tmean /= (double)k;
	/*
	 * Least squares by modified Gram-Schmidt, a column that is (within
	 * 1e-7 of its norm, lm.fit's tolerance) in the span of the earlier
	 * ones dropped: the fitted values and rank lm.fit has.
	 */
	for (j = 0; j < p; j++) {
		double *cj = &q[j * n], nr = 0;

		for (i = 0; i < k; i++)
			nr += cj[i] * cj[i];
		nrm0[j] = sqrt(nr);
		for (l = 0; l < j; l++) {
			double *cl = &q[l * n], dot = 0;

			r[l][j] = 0;
			if (!keep[l])
				continue;
			for (i = 0; i < k; i++)
				dot += cl[i] * cj[i];
			r[l][j] = dot;
			for (i = 0; i < k; i++)
				cj[i] -= dot * cl[i];
		}
		for (i = 0, nr = 0; i < k; i++)
			nr += cj[i] * cj[i];
		nr = sqrt(nr);
		keep[j] = nr > 1e-7 * nrm0[j];
		r[j][j] = nr;
		if (keep[j]) {
			rank++;
			for (i = 0; i < k; i++)
				cj[i] /= nr;
		}
	}
	if (rank >= k) {
		/* No residual df (lm.fit: evar is NaN, limma fails). */
		st = pr_error_set(err, PR_EINVAL,
		    "the trend leaves no residual degrees of freedom (%zu "
		    "variances)",
		    k);
		goto out;
	}
	/* Q^T e into coef, the residuals' sum of squares, back-solve. */
	for (j = 0; j < p; j++) {
		double dot = 0;

		coef[j] = 0;
		if (!keep[j])
			continue;
		for (i = 0; i < k; i++)
			dot += q[j * n + i] * e[i];
		coef[j] = dot;
	}
	for (i = 0, rss = 0; i < k; i++) {
		double f = 0;

		for (j = 0; j < p; j++)
			if (keep[j])
				f += coef[j] * q[j * n + i];
		rss += (e[i] - f) * (e[i] - f);
	}
	for (j = p; j-- > 0;) {
		if (!keep[j])
			continue;
		for (l = j + 1; l < p; l++)
			if (keep[l])
				coef[j] -= r[j][l] * coef[l];
		coef[j] /= r[j][j];
	}
	evar = rss / (double)(k - rank) - tmean;
	d0 = evar > 0 ? 2 * pr_trigamma_inv(evar) : INFINITY;
	*df_prior = d0;
	for (i = 0; i < n; i++) {
		double f = 0, s0;

		ns_basis((cov[i] - lo) / (hi - lo), xi, K, b);
		for (j = 0; j < p; j++)
			if (keep[j])
				f += coef[j] * b[j];
		s0 = isinf(d0) ? exp(f)
			       : exp(f + pr_digamma(d0 / 2) - log(d0 / 2));
		if (var_prior != NULL)
			var_prior[i] = s0;
		if (var_post != NULL) {
			v = df[i] > 0 ? var[i] : 0;
			var_post[i] = isinf(d0)
			    ? s0
			    : (df[i] * v + d0 * s0) / (df[i] + d0);
		}
	}
out:
	free(x);
	free(e);
	free(q);
	return st;
}

/* The name of figure i for messages. */
static const char *
fig_name(const struct pr_moderated_figure *f, size_t i, char *buf, size_t size)
{
	if (f->name != NULL)
		return f->name;
	snprintf(buf, size, "figure %zu", i + 1);
	return buf;
}

static enum pr_status
check_side(const struct pr_moderated_figure *f, size_t i, const char *side,
    const double *v, const double *se, size_t k, struct pr_error *err)
{
	char nb[32];
	size_t j;

	if (v == NULL || k == 0)
		return pr_error_set(err, PR_EINVAL, "%s: no %s sessions",
		    fig_name(f, i, nb, sizeof(nb)), side);
	for (j = 0; j < k; j++) {
		if (!isfinite(v[j]))
			return pr_error_set(err, PR_EINVAL,
			    "%s: %s session %zu: mean is not finite",
			    fig_name(f, i, nb, sizeof(nb)), side, j + 1);
		if (se != NULL && !(isfinite(se[j]) && se[j] >= 0))
			return pr_error_set(err, PR_EINVAL,
			    "%s: %s session %zu: standard error %g is not a "
			    "finite number >= 0",
			    fig_name(f, i, nb, sizeof(nb)), side, j + 1, se[j]);
	}
	return PR_OK;
}

static enum pr_status
check_figure(const struct pr_moderated_figure *f, size_t i,
    struct pr_error *err)
{
	char nb[32];
	enum pr_status st;

	if ((f->base_se == NULL) != (f->new_se == NULL))
		return pr_error_set(err, PR_EINVAL,
		    "%s: standard errors given for one side only",
		    fig_name(f, i, nb, sizeof(nb)));
	if ((st = check_side(f, i, "base", f->base, f->base_se, f->kb, err)) !=
		PR_OK ||
	    (st = check_side(f, i, "new", f->new_, f->new_se, f->kn, err)) !=
		PR_OK)
		return st;
	if (f->better != PR_BETTER_UNKNOWN && f->better != PR_BETTER_HIGHER &&
	    f->better != PR_BETTER_LOWER)
		return pr_error_set(err, PR_EINVAL, "%s: unknown direction %d",
		    fig_name(f, i, nb, sizeof(nb)), (int)f->better);
	return PR_OK;
}

static int
all_positive(const double *v, size_t k)
{
	size_t j;

	for (j = 0; j < k; j++)
		if (!(v[j] > 0))
			return 0;
	return 1;
}

/* Sum of squares of log(v) / w about its mean; the mean into *mean. */
static double
log_ss(const double *v, size_t k, double w, double *mean)
{
	double m = 0, ss = 0, d, y;
	size_t j;

	for (j = 0; j < k; j++) {
		y = log(v[j]) / w;
		d = y - m;
		m += d / (double)(j + 1);
		ss += d * (y - m);
	}
	*mean = m;
	return ss;
}

/*
 * opts.weighted: the weighted sum of squares of log(v) / w about the
 * weighted mean, weights w^2 / max(se, PR_MODERATED_SE_MIN)^2; the mean
 * into *mean, the sum of the weights into *wsum.
 */
static double
log_wss(const double *v, const double *se, size_t k, double w, double *mean,
    double *wsum)
{
	double sw = 0, m = 0, ss = 0, y, a, d;
	size_t j;

	for (j = 0; j < k; j++) {
		a = fmax(se[j], PR_MODERATED_SE_MIN) / w;
		a = 1 / (a * a);
		y = log(v[j]) / w;
		/* West's weighted running mean and sum of squares. */
		sw += a;
		d = y - m;
		m += d * a / sw;
		ss += a * d * (y - m);
	}
	*mean = m;
	*wsum = sw;
	return ss;
}

/* The scale w of a figure: the rms of its standard errors, floored. */
static double
fig_scale(const struct pr_moderated_figure *f)
{
	double s = 0;
	size_t j;

	for (j = 0; j < f->kb; j++)
		s += f->base_se[j] * f->base_se[j];
	for (j = 0; j < f->kn; j++)
		s += f->new_se[j] * f->new_se[j];
	s = sqrt(s / (double)(f->kb + f->kn));
	return s > PR_MODERATED_SE_MIN ? s : PR_MODERATED_SE_MIN;
}

/* Summaries of the natural session means into c->base, c->new. */
static enum pr_status
summaries(const struct pr_moderated_figure *f, double *tmp,
    struct pr_comparison *c, struct pr_error *err)
{
	enum pr_status st;

	memcpy(tmp, f->base, f->kb * sizeof(*tmp));
	pr_sort_doubles(tmp, f->kb);
	if ((st = pr_summary_compute(tmp, f->kb, &c->base, err)) != PR_OK)
		return st;
	memcpy(tmp, f->new_, f->kn * sizeof(*tmp));
	pr_sort_doubles(tmp, f->kn);
	return pr_summary_compute(tmp, f->kn, &c->new, err);
}

static enum pr_status
check_opts(const struct pr_moderated_opts *o, struct pr_error *err)
{
	struct pr_verdict_opts vo;
	enum pr_status st;

	pr_verdict_opts_init(&vo);
	vo.conf = o->conf;
	vo.equivalence_pct = o->equivalence_pct;
	if ((st = pr_verdict_opts_check(&vo, PR_BETTER_LOWER, err)) != PR_OK)
		return st;
	if (o->adjust != PR_ADJUST_BH && o->adjust != PR_ADJUST_HOLM)
		return pr_error_set(err, PR_EINVAL,
		    "unknown multiple-comparison adjustment %d",
		    (int)o->adjust);
	if (!(o->one_ratio > 0) || !isfinite(o->one_ratio))
		return pr_error_set(err, PR_EINVAL,
		    "the one-session ratio must be a positive number, got %g",
		    o->one_ratio);
	if (!(o->df_prior_max > 0) || !(o->df_max > 0))
		return pr_error_set(err, PR_EINVAL,
		    "the caps on the degrees of freedom must be > 0, got %g "
		    "and %g",
		    o->df_prior_max, o->df_max);
	if (o->prior != NULL &&
	    (!(o->prior->df > 0) || !(o->prior->var > 0) ||
		!isfinite(o->prior->var)))
		return pr_error_set(err, PR_EINVAL,
		    "the prior needs df > 0 and a finite variance > 0, got "
		    "df %g, variance %g",
		    o->prior->df, o->prior->var);
	return PR_OK;
}

/* The interval, change and direction of c from D and its half-width. */
static void
set_change(struct pr_comparison *c, double d, double half)
{
	struct pr_ttest *t = &c->primary_t;

	t->diff = d;
	t->ci_lo = d - half;
	t->ci_hi = d + half;
	c->direction = (d > 0) - (d < 0);
	c->have_change = 1;
	c->change_pct = 100 * expm1(d);
	if (!isfinite(c->change_pct)) {
		/* A ratio beyond DBL_MAX: the test stands. */
		c->have_change = 0;
		c->change_pct = 0;
		c->notes |= PR_NOTE_NO_CI;
		return;
	}
	c->ci_lo_pct = 100 * expm1(t->ci_lo);
	c->ci_hi_pct = 100 * expm1(t->ci_hi);
	c->have_ci = isfinite(c->ci_lo_pct) && isfinite(c->ci_hi_pct);
	if (!c->have_ci) {
		c->ci_lo_pct = c->ci_hi_pct = 0;
		c->notes |= PR_NOTE_NO_CI;
	}
}

/*
 * Welch's t on the log values of figure f (kb, kn >= 2), when the prior
 * cannot be had (moderated.h): the test, the change and its interval into
 * c.  A figure whose log values have no spread on either side is not
 * tested (there is nothing to test its change against).  tmp holds
 * kb + kn doubles.
 */
static enum pr_status
welch_figure(const struct pr_moderated_figure *f, double conf, double *tmp,
    struct pr_comparison *c, struct pr_moderated_stat *sv, struct pr_error *err)
{
	struct pr_summary a, b;
	struct pr_ttest *t = &c->primary_t;
	enum pr_status st;
	size_t j;

	for (j = 0; j < f->kb; j++)
		tmp[j] = log(f->base[j]);
	for (j = 0; j < f->kn; j++)
		tmp[f->kb + j] = log(f->new_[j]);
	pr_sort_doubles(tmp, f->kb);
	pr_sort_doubles(tmp + f->kb, f->kn);
	if ((st = pr_summary_compute(tmp, f->kb, &a, err)) != PR_OK ||
	    (st = pr_summary_compute(tmp + f->kb, f->kn, &b, err)) != PR_OK ||
	    (st = pr_ttest_welch(&a, &b, conf, t, err)) != PR_OK)
		return st;
	sv->scale = 1;
	sv->df = t->df;
	sv->df_total = t->df;
	sv->logfc = t->diff;
	if (t->degenerate) {
		c->tested = 0;
		c->notes |= PR_NOTE_UNTESTED | PR_NOTE_NO_CI;
		set_change(c, t->diff, 0);
		c->have_ci = 0;
		c->ci_lo_pct = c->ci_hi_pct = 0;
		return PR_OK;
	}
	c->method = PR_METHOD_WELCH;
	if (t->p > 1)
		t->p = 1;
	c->p_value = c->p_adjusted = t->p;
	set_change(c, t->diff, t->ci_hi - t->diff);
	sv->t = t->t;
	sv->p = t->p;
	return PR_OK;
}

/* The adjustment across the tested figures, then the verdicts. */
static enum pr_status
adjust(struct pr_comparison *c, size_t m, enum pr_adjust how,
    struct pr_error *err)
{
	double *p;
	size_t i, k, n = 0;

	for (i = 0; i < m; i++)
		n += c[i].tested != 0;
	if (n > 0) {
		p = malloc(2 * n * sizeof(*p));
		if (p == NULL)
			return pr_error_set(err, PR_ENOMEM,
			    "out of memory for %zu p-values", n);
		for (i = 0, k = 0; i < m; i++)
			if (c[i].tested)
				p[k++] = c[i].p_value;
		if (how == PR_ADJUST_BH)
			pr_bh(p, n, p + n);
		else
			pr_holm(p, n, p + n);
		for (i = 0, k = 0; i < m; i++) {
			if (!c[i].tested)
				continue;
			c[i].p_adjusted = p[n + k++];
			c[i].holm_m = (int)n;
			if (n > 1)
				c[i].notes |= how == PR_ADJUST_BH
				    ? PR_NOTE_BH
				    : PR_NOTE_HOLM;
		}
		free(p);
	}
	for (i = 0; i < m; i++)
		pr_verdict_decide(&c[i]);
	return PR_OK;
}

enum pr_status
pr_moderated_compare(const struct pr_moderated_figure *f, size_t m,
    const struct pr_moderated_opts *o, struct pr_comparison *out,
    struct pr_moderated_stat *stat, struct pr_moderated_fit *fit,
    struct pr_error *err)
{
	struct pr_moderated_opts def;
	struct pr_moderated_stat *sv = NULL;
	struct pr_moderated_fit fv;
	double *tmp = NULL, *var = NULL, *df = NULL, d0 = 0, s0 = 0, pooled = 0;
	double *cov, *s0v, *unitv;
	double mb, mn, ss, q, sd, half, postv;
	size_t i, kmax = 1, nfit = 0;
	int scaled = 1, bound, noprior;
	enum pr_status st;

	if (out != NULL && m > 0)
		memset(out, 0, m * sizeof(*out));
	memset(&fv, 0, sizeof(fv));
	if (o == NULL) {
		pr_moderated_opts_init(&def);
		o = &def;
	}
	if (f == NULL || out == NULL || m == 0) {
		st = pr_error_set(err, PR_EINVAL, "no figures to compare");
		goto fail;
	}
	if ((st = check_opts(o, err)) != PR_OK)
		goto fail;
	for (i = 0; i < m; i++) {
		if ((st = check_figure(&f[i], i, err)) != PR_OK)
			goto fail;
		if (f[i].kb > kmax)
			kmax = f[i].kb;
		if (f[i].kn > kmax)
			kmax = f[i].kn;
		if (f[i].base_se == NULL)
			scaled = 0;
	}
	sv = stat != NULL ? stat : calloc(m, sizeof(*sv));
	tmp = malloc(2 * kmax * sizeof(*tmp));
	var = malloc(5 * m * sizeof(*var));
	if (sv == NULL || tmp == NULL || var == NULL) {
		st = pr_error_set(err, PR_ENOMEM,
		    "out of memory for %zu figures", m);
		goto fail;
	}
	memset(sv, 0, m * sizeof(*sv));
	df = var + m;
	cov = var + 2 * m;
	s0v = var + 3 * m;
	unitv = var + 4 * m;
	fv.figures = m;
	fv.scaled = scaled;
	/* The scaled log values: D, s^2 and d of every positive figure. */
	for (i = 0; i < m; i++) {
		struct pr_comparison *c = &out[i];

		c->better = f[i].better;
		c->conf = o->conf;
		c->equivalence_pct = o->equivalence_pct;
		c->p_value = c->p_adjusted = 1;
		c->method = PR_METHOD_NONE;
		if (f[i].better == PR_BETTER_UNKNOWN)
			c->notes |= PR_NOTE_DIRECTION_ASSUMED;
		if ((st = summaries(&f[i], tmp, c, err)) != PR_OK)
			goto fail;
		var[i] = 0;
		df[i] = 0;
		cov[i] = 0;
		unitv[i] = sqrt(1 / (double)f[i].kb + 1 / (double)f[i].kn);
		if (!all_positive(f[i].base, f[i].kb) ||
		    !all_positive(f[i].new_, f[i].kn)) {
			c->notes |= PR_NOTE_NOT_POSITIVE | PR_NOTE_UNTESTED |
			    PR_NOTE_NO_CHANGE | PR_NOTE_NO_CI;
			continue;
		}
		c->tested = 1;
		sv[i].scale = scaled ? fig_scale(&f[i]) : 1;
		if (o->weighted && scaled) {
			double wb, wn;

			ss = log_wss(f[i].base, f[i].base_se, f[i].kb,
				 sv[i].scale, &mb, &wb) +
			    log_wss(f[i].new_, f[i].new_se, f[i].kn,
				sv[i].scale, &mn, &wn);
			unitv[i] = sqrt(1 / wb + 1 / wn);
		} else {
			ss = log_ss(f[i].base, f[i].kb, sv[i].scale, &mb) +
			    log_ss(f[i].new_, f[i].kn, sv[i].scale, &mn);
		}
		cov[i] = log(sv[i].scale);
		sv[i].df = (double)(f[i].kb + f[i].kn - 2);
		sv[i].s2 = sv[i].df > 0 ? ss / sv[i].df : 0;
		sv[i].logfc = (mn - mb) * sv[i].scale;
		var[i] = sv[i].s2;
		df[i] = sv[i].df;
		pooled += sv[i].df;
		nfit += sv[i].df > 0;
	}
	/*
	 * The prior: the caller's, or from the figures, or none: then a
	 * figure with two or more sessions a side is tested on its own
	 * (Welch), the others against the bound.
	 */
	bound = 0;
	noprior = 0;
	if (o->prior != NULL) {
		d0 = o->prior->df;
		s0 = o->prior->var;
		fv.prior_given = 1;
	} else if (nfit >= 2 && o->trend && scaled) {
		if ((st = pr_moderated_squeeze_trend(var, df, cov, m, &d0, s0v,
			 NULL, err)) != PR_OK)
			goto fail;
		fv.fitted = nfit;
		fv.trend = 1;
		/* The fit's summary: the geometric mean of the scales. */
		for (i = 0, s0 = 0; i < m; i++)
			s0 += df[i] > 0 ? log(s0v[i]) / (double)nfit : 0;
		s0 = exp(s0);
	} else if (nfit >= 2) {
		if ((st = pr_moderated_squeeze(var, df, m, &d0, &s0, NULL,
			 err)) != PR_OK)
			goto fail;
		fv.fitted = nfit;
	} else {
		noprior = 1;
	}
	fv.df_prior_fitted = d0;
	if (!fv.trend)
		for (i = 0; i < m; i++)
			s0v[i] = s0;
	/* The caps (moderated.h): a prior borrowed with fewer df. */
	if (d0 > o->df_prior_max)
		d0 = o->df_prior_max;
	fv.df_prior = d0;
	fv.var_prior = s0;
	for (i = 0; i < m; i++) {
		struct pr_comparison *c = &out[i];
		struct pr_ttest *t = &c->primary_t;
		double unit = unitv[i];

		if (!c->tested)
			continue;
		if (noprior && f[i].kb >= 2 && f[i].kn >= 2) {
			if ((st = welch_figure(&f[i], o->conf, tmp, c, &sv[i],
				 err)) != PR_OK)
				goto fail;
			fv.welch++;
			continue;
		}
		if (noprior) {
			bound = 1;
			c->notes |= PR_NOTE_ONE_SESSION;
			if (!scaled) {
				c->tested = 0;
				c->notes |= PR_NOTE_UNTESTED;
				set_change(c, sv[i].logfc, 0);
				c->have_ci = 0;
				c->ci_lo_pct = c->ci_hi_pct = 0;
				c->notes |= PR_NOTE_NO_CI;
				continue;
			}
			c->method = PR_METHOD_SESSION_BOUND;
			sd = o->one_ratio * sv[i].scale;
			t->pooled_sd = sd;
			t->se = sd * unit;
			t->df = INFINITY;
			t->t = sv[i].logfc / t->se;
			t->p = 2 * pr_norm_sf(fabs(t->t));
			q = pr_norm_quantile(0.5 + o->conf / 2);
			sv[i].df_total = INFINITY;
		} else {
			c->method = PR_METHOD_MODERATED;
			if (fv.prior_given)
				c->notes |= PR_NOTE_PRIOR;
			postv = isinf(d0)
			    ? s0v[i]
			    : (sv[i].df * sv[i].s2 + d0 * s0v[i]) /
				(sv[i].df + d0);
			sv[i].s2_post = postv;
			t->df = sv[i].df + d0;
			if (!fv.prior_given && t->df > pooled)
				t->df = pooled;
			if (t->df > o->df_max)
				t->df = o->df_max;
			sv[i].df_total = t->df;
			t->pooled_sd = sv[i].scale * sqrt(postv);
			t->se = t->pooled_sd * unit;
			t->t = sv[i].logfc / t->se;
			t->p = 2 * pr_t_sf(fabs(t->t), t->df);
			q = pr_t_quantile(0.5 + o->conf / 2, t->df);
			if (f[i].kb == 1 && f[i].kn == 1)
				c->notes |= PR_NOTE_ONE_SESSION;
		}
		if (t->p > 1)
			t->p = 1;
		c->p_value = c->p_adjusted = t->p;
		half = q * t->se;
		set_change(c, sv[i].logfc, half);
		sv[i].t = t->t;
		sv[i].p = t->p;
	}
	fv.one_session = bound;
	for (i = 0; i < m; i++)
		fv.tested += out[i].tested != 0;
	if ((st = adjust(out, m, o->adjust, err)) != PR_OK)
		goto fail;
	if (fit != NULL)
		*fit = fv;
	if (sv != stat)
		free(sv);
	free(tmp);
	free(var);
	return PR_OK;
fail:
	if (out != NULL && m > 0)
		memset(out, 0, m * sizeof(*out));
	if (stat != NULL && m > 0)
		memset(stat, 0, m * sizeof(*stat));
	if (fit != NULL)
		memset(fit, 0, sizeof(*fit));
	if (sv != stat)
		free(sv);
	free(tmp);
	free(var);
	return st;
}

enum pr_status
pr_moderated_prior_fit(const struct pr_moderated_figure *hist, size_t n,
    struct pr_moderated_prior *out, struct pr_error *err)
{
	double *var = NULL, *df, w, mean, d0, s0;
	size_t i, j, k = 0;
	int scaled = 1;
	enum pr_status st;
	char nb[32];

	memset(out, 0, sizeof(*out));
	if (hist == NULL || n == 0)
		return pr_error_set(err, PR_EINVAL, "no history to fit");
	for (i = 0; i < n; i++) {
		if (hist[i].base == NULL || hist[i].kb == 0)
			return pr_error_set(err, PR_EINVAL, "%s: no sessions",
			    fig_name(&hist[i], i, nb, sizeof(nb)));
		for (j = 0; j < hist[i].kb; j++)
			if (!isfinite(hist[i].base[j]) ||
			    (hist[i].base_se != NULL &&
				!(isfinite(hist[i].base_se[j]) &&
				    hist[i].base_se[j] >= 0)))
				return pr_error_set(err, PR_EINVAL,
				    "%s: session %zu: mean or standard error "
				    "is not a finite number",
				    fig_name(&hist[i], i, nb, sizeof(nb)),
				    j + 1);
		if (hist[i].base_se == NULL)
			scaled = 0;
	}
	var = malloc(2 * n * sizeof(*var));
	if (var == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory for %zu series", n);
	df = var + n;
	for (i = 0; i < n; i++) {
		var[i] = df[i] = 0;
		if (hist[i].kb < 2 || !all_positive(hist[i].base, hist[i].kb))
			continue;
		w = 1;
		if (scaled) {
			w = 0;
			for (j = 0; j < hist[i].kb; j++)
				w += hist[i].base_se[j] * hist[i].base_se[j];
			w = sqrt(w / (double)hist[i].kb);
			if (w < PR_MODERATED_SE_MIN)
				w = PR_MODERATED_SE_MIN;
		}
		df[i] = (double)(hist[i].kb - 1);
		var[i] = log_ss(hist[i].base, hist[i].kb, w, &mean) / df[i];
		k++;
	}
	if (k < 2) {
		free(var);
		return pr_error_set(err, PR_EINVAL,
		    "the history has %zu series of 2 or more positive "
		    "sessions; the prior needs 2",
		    k);
	}
	st = pr_moderated_squeeze(var, df, n, &d0, &s0, NULL, err);
	free(var);
	if (st != PR_OK)
		return st;
	out->df = d0;
	out->var = s0;
	return PR_OK;
}
