/*
 * probes/compare.c - the suite's comparison of sessions (or of suite
 * ab's processes): each figure of each session reduced to its mean and
 * the standard error of its log mean, and every figure decided together
 * by the moderated t (perfreg/moderated.h): the between-session variance
 * of a figure is borrowed from all figures, the change is a ratio whose
 * interval never goes below -100%, and with one session a side the
 * documented bound decides.  See pr_suite_compare in perfreg/suite.h.
 *
 * The standard error of a session's log mean is sd / sqrt(n) / mean of
 * its samples; a session with one sample gives 0 (the moderated t floors
 * it at PR_MODERATED_SE_MIN).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/distrib.h"
#include "perfreg/suite.h"
#include "core/banned.h"

void
pr_suite_cmp_release(struct pr_suite_cmp *c)
{
	free(c->values);
	free(c->kb);
	free(c->kn);
	free(c->index);
	free(c->cmp);
	free(c->ungated);
	free(c->would);
	free(c->apart);
	memset(c, 0, sizeof(*c));
}

const char *const pr_suite_ungated[] = { "handoff.spin.*", NULL };

int
pr_suite_gated(const char *name)
{
	const char *pat, *star;
	size_t i, lp, ls, ln = strlen(name);

	for (i = 0; (pat = pr_suite_ungated[i]) != NULL; i++) {
		star = strchr(pat, '*');
		lp = star != NULL ? (size_t)(star - pat) : strlen(pat);
		ls = star != NULL ? strlen(star + 1) : 0;
		if (ln >= lp + ls && strncmp(name, pat, lp) == 0 &&
		    (star == NULL ? ln == lp
				  : strcmp(name + ln - ls, star + 1) == 0))
			return 0;
	}
	return 1;
}

enum pr_status
pr_suite_cmp_gate(struct pr_suite_cmp *c, const struct pr_suite_figure *fig,
    struct pr_error *err)
{
	unsigned char *u;
	enum pr_verdict *w;
	size_t i;

	u = calloc(c->n + 1, sizeof(*u));
	w = calloc(c->n + 1, sizeof(*w));
	if (u == NULL || w == NULL) {
		free(u);
		free(w);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	for (i = 0; i < c->n; i++) {
		struct pr_comparison *x = &c->cmp[i];

		if (pr_suite_gated(fig[c->index[i]].name))
			continue;
		u[i] = 1;
		w[i] = x->verdict;
		if (x->verdict == PR_VERDICT_REGRESSION ||
		    x->verdict == PR_VERDICT_IMPROVEMENT) {
			u[i] = 2;
			x->verdict = PR_VERDICT_INCONCLUSIVE;
			x->runs_needed = 0;
		}
	}
	free(c->ungated);
	free(c->would);
	c->ungated = u;
	c->would = w;
	return PR_OK;
}

/* The mean and the standard error of the log mean of v[0..n). */
static void
session_stats(const double *v, size_t n, double *mean, double *se)
{
	double m = 0, ss = 0, d;
	size_t i;

	for (i = 0; i < n; i++)
		m += (v[i] - m) / (double)(i + 1);
	for (i = 0; i < n; i++) {
		d = v[i] - m;
		ss += d * d;
	}
	*mean = m;
	*se = n >= 2 && m > 0 && isfinite(ss)
	    ? sqrt(ss / (double)(n - 1) / (double)n) / m
	    : 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* c_n: the standard deviation of the median of n normal values over that
 * of their mean, sqrt(n Var(median)) for a unit variance, computed by
 * integration over the order statistics (tests/probes/gen_suite_median.py,
 * scipy), 1 for n < 3 (the median is the mean); above 16 the limit
 * sqrt(pi / 2). */
static const double median_c[17] = { 1, 1, 1, 1.1602, 1.0922, 1.1976, 1.1351,
	1.2137, 1.1599, 1.2227, 1.1761, 1.2283, 1.1875, 1.2322, 1.1960, 1.2351,
	1.2025 };

enum pr_status
pr_suite_session_value(const double *v, size_t n, enum pr_suite_value rule,
    double *value, double *se, struct pr_error *err)
{
	double buf[PR_SUITE_PROCESSES_MAX], *x = buf, mean;

	session_stats(v, n, &mean, se);
	*value = mean;
	if (rule != PR_SUITE_VALUE_MEDIAN || n < 3)
		return PR_OK;
	if (n > PR_SUITE_PROCESSES_MAX && (x = malloc(n * sizeof(*x))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	memcpy(x, v, n * sizeof(*x));
	qsort(x, n, sizeof(*x), cmp_double);
	*value = n % 2 == 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
	if (x != buf)
		free(x);
	/* The mean's error of the log, sd / sqrt(n) / mean, times c_n:
	 * relative to the mean, not the median, so that it stays below
	 * c_n however far one process is (over the median it grew without
	 * bound, and a probe line's interval with it). */
	*se *= n < 17 ? median_c[n] : sqrt(2 * atan(1.0));
	return PR_OK;
}

/* The sessions of d[0..n) that have the figure: values and errors. */
static enum pr_status
side(struct pr_dataset *d, size_t n, const char *name, enum pr_suite_value rule,
    double *mean, double *se, size_t *k, struct pr_error *err)
{
	const struct pr_metric *m;
	enum pr_status st;
	size_t h;

	*k = 0;
	for (h = 0; h < n; h++) {
		m = pr_dataset_find(&d[h], name);
		if (m == NULL || m->values.n == 0)
			continue;
		if ((st = pr_suite_session_value(m->values.v, m->values.n, rule,
			 &mean[*k], &se[*k], err)) != PR_OK)
			return st;
		if (!isfinite(se[*k]))
			se[*k] = 0;
		(*k)++;
	}
	return PR_OK;
}

/* A call of figure i of c that the rule does not make: not called, its
 * verdict kept in c->apart[i]. */
static enum pr_status
uncall(struct pr_suite_cmp *c, size_t i, struct pr_error *err)
{
	struct pr_comparison *y;

	if (!pr_suite_changed(c, i))
		return PR_OK;
	if (c->apart == NULL &&
	    (c->apart = calloc(c->n + 1, sizeof(*c->apart))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	y = &c->cmp[i];
	c->apart[i] = y->verdict;
	y->verdict = PR_VERDICT_INCONCLUSIVE;
	y->runs_needed = 0;
	c->uncarried++;
	return PR_OK;
}

/*
 * PR_SUITE_VALUE_BOTH: out holds the comparison by the mean; a figure it
 * calls stays called only when the comparison by the median calls it the
 * same way.
 */
static enum pr_status
both_rule(struct pr_dataset *bd, size_t nb, struct pr_dataset *nd, size_t nn,
    const struct pr_suite_figure *fig, size_t nfig,
    const struct pr_moderated_opts *mo, struct pr_suite_cmp *out,
    struct pr_error *err)
{
	struct pr_suite_cmp med;
	enum pr_status st;
	size_t i, j = 0;

	if ((st = pr_suite_compare_value(bd, nb, nd, nn, fig, nfig, mo,
		 PR_SUITE_VALUE_MEDIAN, &med, err)) != PR_OK)
		return st;
	/* Both list the figures found on both sides, in fig's order. */
	for (i = 0; i < out->n; i++) {
		while (j < med.n && med.index[j] < out->index[i])
			j++;
		if ((j == med.n || med.index[j] != out->index[i] ||
			med.cmp[j].verdict != out->cmp[i].verdict) &&
		    (st = uncall(out, i, err)) != PR_OK)
			break;
	}
	pr_suite_cmp_release(&med);
	return st;
}

int
pr_suite_carried(const double *v, size_t n, double level, double conf)
{
	double mean = 0, ss = 0, top = fabs(level), d, t;
	size_t i;

	/* t does not change with the scale: values relative to the
	 * largest, so that no square overflows. */
	for (i = 0; i < n; i++)
		top = fmax(top, fabs(v[i]));
	if (n < 2 || !isfinite(top) || !(top > 0))
		return 1;
	for (i = 0; i < n; i++)
		mean += (v[i] / top - mean) / (double)(i + 1);
	for (i = 0; i < n; i++) {
		d = v[i] / top - mean;
		ss += d * d;
	}
	if (!(ss > 0))
		return 1;
	t = (mean - level / top) / sqrt(ss / (double)(n - 1) / (double)n);
	return 2 * pr_t_sf(fabs(t), (double)(n - 1)) < 1 - conf;
}

/*
 * PR_SUITE_VALUE_CARRIED: out holds the comparison by the mean; a figure
 * it calls stays called only when pr_suite_carried says the new sessions'
 * process values (all of them) differ from the base's level, the
 * geometric mean of its session values (what the change is relative to).
 */
static enum pr_status
carried_rule(struct pr_dataset *nd, size_t nn,
    const struct pr_suite_figure *fig, const struct pr_moderated_opts *mo,
    struct pr_suite_cmp *out, struct pr_error *err)
{
	const struct pr_metric *m;
	double conf = mo != NULL ? mo->conf : 0.95, lb, *v = NULL, *g;
	const double *bv;
	size_t i, h, j, n, cap = 0;

	for (i = 0; i < out->n; i++) {
		if (!pr_suite_changed(out, i))
			continue;
		bv = &out->values[i * out->base_stride];
		for (lb = 0, j = 0; j < out->kb[i]; j++)
			lb += log(bv[j]) / (double)out->kb[i];
		for (n = 0, h = 0; h < nn; h++) {
			m = pr_dataset_find(&nd[h], fig[out->index[i]].name);
			for (j = 0; m != NULL && j < m->values.n; j++) {
				if (n == cap) {
					cap = cap ? 2 * cap : 64;
					if ((g = realloc(v,
						 cap * sizeof(*v))) == NULL) {
						free(v);
						return pr_error_set(err,
						    PR_ENOMEM, "out of memory");
					}
					v = g;
				}
				v[n++] = m->values.v[j];
			}
		}
		if (!pr_suite_carried(v, n, exp(lb), conf) &&
		    uncall(out, i, err) != PR_OK) {
			free(v);
			return PR_ENOMEM;
		}
	}
	free(v);
	return PR_OK;
}

enum pr_status
pr_suite_compare(struct pr_dataset *bd, size_t nb, struct pr_dataset *nd,
    size_t nn, const struct pr_suite_figure *fig, size_t nfig,
    const struct pr_moderated_opts *mo, struct pr_suite_cmp *out,
    struct pr_error *err)
{
	return pr_suite_compare_value(bd, nb, nd, nn, fig, nfig, mo,
	    PR_SUITE_VALUE_MEAN, out, err);
}

enum pr_status
pr_suite_compare_value(struct pr_dataset *bd, size_t nb, struct pr_dataset *nd,
    size_t nn, const struct pr_suite_figure *fig, size_t nfig,
    const struct pr_moderated_opts *mo, enum pr_suite_value rule,
    struct pr_suite_cmp *out, struct pr_error *err)
{
	struct pr_moderated_figure *mf = NULL;
	struct pr_comparison *cmp = NULL;
	size_t i, k = 0, w = 2 * (nb + nn);
	double *v;
	enum pr_status st;

	memset(out, 0, sizeof(*out));
	if (nfig == 0 || nb == 0 || nn == 0)
		return pr_error_set(err, PR_EINVAL,
		    "no figures or sessions to "
		    "compare");
	out->values = calloc(nfig * w, sizeof(*out->values));
	out->kb = calloc(nfig, sizeof(*out->kb));
	out->kn = calloc(nfig, sizeof(*out->kn));
	out->index = calloc(nfig, sizeof(*out->index));
	out->cmp = calloc(nfig, sizeof(*out->cmp));
	mf = calloc(nfig, sizeof(*mf));
	cmp = calloc(nfig, sizeof(*cmp));
	if (out->values == NULL || out->kb == NULL || out->kn == NULL ||
	    out->index == NULL || out->cmp == NULL || mf == NULL ||
	    cmp == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto fail;
	}
	for (i = 0; i < nfig; i++) {
		/* Per figure: base means, new means, base errors, new. */
		v = &out->values[k * w];
		if ((st = side(bd, nb, fig[i].name, rule, v, v + nb + nn,
			 &out->kb[k], err)) != PR_OK ||
		    (st = side(nd, nn, fig[i].name, rule, v + nb,
			 v + nb + nn + nb, &out->kn[k], err)) != PR_OK)
			goto fail;
		if (out->kb[k] == 0 || out->kn[k] == 0)
			continue;
		mf[k].name = fig[i].name;
		mf[k].better = fig[i].better;
		mf[k].base = v;
		mf[k].kb = out->kb[k];
		mf[k].new_ = v + nb;
		mf[k].kn = out->kn[k];
		mf[k].base_se = v + nb + nn;
		mf[k].new_se = v + nb + nn + nb;
		out->index[k] = i;
		k++;
	}
	out->n = k;
	out->base_stride = w;
	out->nb = nb;
	out->nn = nn;
	if (k == 0) {
		free(mf);
		free(cmp);
		return PR_OK;
	}
	if ((st = pr_moderated_compare(mf, k, mo, cmp, NULL, &out->fit, err)) !=
	    PR_OK)
		goto fail;
	memcpy(out->cmp, cmp, k * sizeof(*cmp));
	free(mf);
	free(cmp);
	mf = NULL;
	cmp = NULL;
	if (rule == PR_SUITE_VALUE_BOTH)
		st = both_rule(bd, nb, nd, nn, fig, nfig, mo, out, err);
	else if (rule == PR_SUITE_VALUE_CARRIED)
		st = carried_rule(nd, nn, fig, mo, out, err);
	if (st != PR_OK)
		goto fail;
	return PR_OK;
fail:
	free(mf);
	free(cmp);
	pr_suite_cmp_release(out);
	return st;
}

int
pr_suite_starved(double pace, const double *base_pace, size_t nb, double *limit,
    double *largest)
{
	double big = 0, lim;
	size_t i;

	for (i = 0; i < nb; i++)
		if (isfinite(base_pace[i]) && base_pace[i] > big)
			big = base_pace[i];
	/* Above the level whatever the base's pace (review of s12, finding
	 * 1): a series starved alike in every session is not compared. */
	lim = big > 0 && PR_SUITE_PACE_FACTOR * big < PR_SUITE_PACE_LEVEL
	    ? PR_SUITE_PACE_FACTOR * big
	    : PR_SUITE_PACE_LEVEL;
	if (limit != NULL)
		*limit = lim;
	if (largest != NULL)
		*largest = big;
	return isfinite(pace) && pace > 0 && pace > lim;
}

void
pr_suite_cmp_pace(struct pr_suite_cmp *c, double pace, const double *base_pace,
    size_t nb)
{
	size_t i;

	c->pace = pace;
	c->starved = pr_suite_starved(pace, base_pace, nb, &c->pace_limit,
	    &c->base_pace);
	if (!c->starved)
		return;
	for (i = 0; i < c->n; i++) {
		c->cmp[i].verdict = PR_VERDICT_INCONCLUSIVE;
		c->cmp[i].runs_needed = 0;
	}
}

enum pr_status
pr_suite_figures(const struct pr_suite_result *r, size_t n,
    struct pr_suite_figure **fig, size_t *nfig, struct pr_error *err)
{
	const struct pr_metric *m;
	size_t i, k, total = 0, nf = 0;
	struct pr_suite_figure *f;

	*fig = NULL;
	*nfig = 0;
	for (i = 0; i < n; i++)
		if (r[i].skipped == NULL)
			total += r[i].data.n;
	if ((f = calloc(total + 1, sizeof(*f))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		if (r[i].skipped != NULL)
			continue;
		for (k = 0; k < r[i].data.n; k++) {
			m = &r[i].data.metrics[k];
			f[nf].name = m->name;
			f[nf].unit = m->unit;
			f[nf].better = m->better;
			nf++;
		}
	}
	*fig = f;
	*nfig = nf;
	return PR_OK;
}

void
pr_suite_figure_stats(const struct pr_metric *m, double *mean,
    double *halfwidth_pct)
{
	double se;

	session_stats(m->values.v, m->values.n, mean, &se);
	*halfwidth_pct = pr_suite_halfwidth_pct(m->values.v, m->values.n);
}

void
pr_suite_result_stats(const struct pr_suite_result *r,
    const struct pr_metric *m, double *mean, double *halfwidth_pct)
{
	double pm[PR_SUITE_PROCESSES_MAX], se;
	size_t u, j, lo, np = 0, nv;
	enum pr_probe_figure rule =
	    r->probe != NULL ? r->probe->figure : PR_PROBE_FIGURE_MEAN;

	if (r->processes < 2 || r->process == NULL) {
		if (rule == PR_PROBE_FIGURE_MEAN) {
			pr_suite_figure_stats(m, mean, halfwidth_pct);
			return;
		}
		/* One process: its blocks' bests, as a stored session of
		 * one process reads (pr_suite_unit_values). */
		np = m->values.n < PR_SUITE_BLOCKS ? m->values.n
						   : PR_SUITE_BLOCKS;
		for (u = 0; u < np; u++)
			pm[u] = pr_suite_unit_value(m->values.v +
				u * m->values.n / np,
			    (u + 1) * m->values.n / np - u * m->values.n / np,
			    m->better, rule);
	} else {
		/* Each process's mean or best, then their mean: a
		 * process's samples lie together (merge appends them). */
		nv = m->values.n < r->samples ? m->values.n : r->samples;
		for (lo = 0; lo < nv && np < PR_SUITE_PROCESSES_MAX; lo = j) {
			for (j = lo + 1;
			     j < nv && r->process[j] == r->process[lo]; j++)
				;
			pm[np++] = pr_suite_unit_value(m->values.v + lo, j - lo,
			    m->better, rule);
		}
	}
	/* The session's value by the suite's rule, as its comparison
	 * takes it (a median needs no scratch memory for np processes);
	 * the half-width the t quantile's times the error of its log. */
	/* No value (a figure left out in every process): 0 and no
	 * interval, as the mean of none was (the JSON has no NaN). */
	if (np < 1 ||
	    pr_suite_session_value(pm, np, PR_SUITE_VALUE_SESSIONS, mean, &se,
		NULL) != PR_OK) {
		*mean = 0;
		*halfwidth_pct = INFINITY;
		return;
	}
	*halfwidth_pct = np >= 2 && *mean != 0 && isfinite(se)
	    ? 100.0 * pr_t_quantile(0.975, (double)(np - 1)) * se
	    : INFINITY;
}

int
pr_suite_changed(const struct pr_suite_cmp *c, size_t i)
{
	return i < c->n &&
	    (c->cmp[i].verdict == PR_VERDICT_REGRESSION ||
		c->cmp[i].verdict == PR_VERDICT_IMPROVEMENT);
}

void
pr_suite_count(const struct pr_suite_cmp *c, struct pr_suite_counts *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->figures = c->n;
	for (i = 0; i < c->n; i++)
		switch (c->cmp[i].verdict) {
		case PR_VERDICT_REGRESSION:
			out->regressions++;
			break;
		case PR_VERDICT_IMPROVEMENT:
			out->improvements++;
			break;
		case PR_VERDICT_EQUIVALENT:
			out->unchanged++;
			break;
		default:
			out->inconclusive++;
			break;
		}
}
