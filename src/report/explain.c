/*
 * report/explain.c - the explanation of a change (perfreg/explain.h):
 * each side metric's change by Welch's t, the false discovery rate held
 * by Benjamini-Hochberg across them (Y. Benjamini and Y. Hochberg, "
 * Controlling the false discovery rate", JRSS B 57, 1995; pr_bh), and
 * the ranking of the changed ones by the share of the primary metric's
 * change they account for, from the pooled within-side regression of
 * the primary on each metric (the within-groups correlation of analysis
 * of covariance: G. W. Snedecor and W. G. Cochran, Statistical Methods,
 * 8th ed., ch. 18).  Within-side, so that the shift between the sides
 * does not make every changed metric look correlated with the primary:
 * only run-to-run co-movement counts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/describe.h"
#include "perfreg/explain.h"
#include "perfreg/ttest.h"
#include "perfreg/verdict.h"

#include "core/banned.h"

void
pr_explain_init(struct pr_explain *e)
{
	memset(e, 0, sizeof(*e));
}

void
pr_explain_release(struct pr_explain *e)
{
	free(e->items);
	pr_explain_init(e);
}

/* Mean and variance of the finite x[i] (and, with y, of the runs where
 * both are finite); *n the count. */
static void
moments(const double *x, const double *y, size_t n, size_t *k, double *mean,
    double *var)
{
	double m = 0, s = 0, d;
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		if (isfinite(x[i]) && (y == NULL || isfinite(y[i]))) {
			c++;
			d = x[i] - m;
			m += d / (double)c;
			s += d * (x[i] - m);
		}
	*k = c;
	*mean = m;
	*var = c > 1 ? s / (double)(c - 1) : 0;
}

/* The change of x between the sides: Welch's t on the means. */
static int
change(const double *a, size_t na, const double *b, size_t nb, double conf,
    struct pr_explain_item *it)
{
	struct pr_summary sa, sb;
	struct pr_ttest t;
	struct pr_error err;
	double va, vb;

	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	moments(a, NULL, na, &sa.n, &sa.mean, &va);
	moments(b, NULL, nb, &sb.n, &sb.mean, &vb);
	if (sa.n < 2 || sb.n < 2 || (va == 0 && vb == 0))
		return -1;
	sa.var = va;
	sb.var = vb;
	sa.stddev = sqrt(va);
	sb.stddev = sqrt(vb);
	sa.defined = sb.defined = PR_SUM_STDDEV;
	if (pr_ttest_welch(&sa, &sb, conf, &t, &err) != PR_OK)
		return -1;
	it->nb = sa.n;
	it->nn = sb.n;
	it->base_mean = sa.mean;
	it->new_mean = sb.mean;
	it->p = t.p;
	if (sa.mean != 0) {
		it->change = t.diff / fabs(sa.mean);
		it->lo = t.ci_lo / fabs(sa.mean);
		it->hi = t.ci_hi / fabs(sa.mean);
	} else
		it->change = it->lo = it->hi = NAN;
	return 0;
}

/* Within-side sums of the side s: Sxy, Sxx, Syy about its own means. */
static void
within(const double *x, const double *y, size_t n, double *sxy, double *sxx,
    double *syy)
{
	double mx, my, v, d1, d2;
	size_t i, k;

	moments(x, y, n, &k, &mx, &v);
	moments(y, x, n, &k, &my, &v);
	for (i = 0; i < n; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			d1 = x[i] - mx;
			d2 = y[i] - my;
			*sxy += d1 * d2;
			*sxx += d1 * d1;
			*syy += d2 * d2;
		}
}

static int
byrank(const void *pa, const void *pb)
{
	const struct pr_explain_item *a = pa, *b = pb;
	double sa, sb;

	if (a->changed != b->changed)
		return b->changed - a->changed;
	if (!a->changed)
		return (a->p > b->p) - (a->p < b->p);
	sa = isfinite(a->share) ? a->share : -INFINITY;
	sb = isfinite(b->share) ? b->share : -INFINITY;
	if (sa != sb)
		return sa < sb ? 1 : -1;
	if (fabs(a->r) != fabs(b->r))
		return fabs(a->r) < fabs(b->r) ? 1 : -1;
	return (a->metric > b->metric) - (a->metric < b->metric);
}

static int
endswith(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The work / efficiency split from instructions (ii) and cycles (ci). */
static void
split(const struct pr_explain_input *in, size_t ii, size_t ci, double conf,
    double alpha, struct pr_explain *e)
{
	struct pr_explain_item w, c;
	double *cpi[2] = { NULL, NULL };
	const struct pr_explain_side *sd[2] = { &in->base, &in->new_ };
	size_t s, i;

	memset(&w, 0, sizeof(w));
	memset(&c, 0, sizeof(c));
	for (s = 0; s < 2; s++) {
		if ((cpi[s] = malloc((sd[s]->n + 1) * sizeof(double))) == NULL)
			goto out;
		for (i = 0; i < sd[s]->n; i++) {
			double ins = sd[s]->metric[ii][i],
			       cyc = sd[s]->metric[ci][i];

			cpi[s][i] = ins > 0 ? cyc / ins : NAN;
		}
	}
	if (change(in->base.metric[ii], in->base.n, in->new_.metric[ii],
		in->new_.n, conf, &w) != 0 ||
	    change(cpi[0], in->base.n, cpi[1], in->new_.n, conf, &c) != 0) {
		snprintf(e->split, sizeof(e->split),
		    "no work/efficiency split: instructions or cycles do not "
		    "vary enough to test");
		goto out;
	}
	e->has_split = 1;
	e->work_change = w.change;
	e->work_lo = w.lo;
	e->work_hi = w.hi;
	e->cpi_change = c.change;
	e->cpi_lo = c.lo;
	e->cpi_hi = c.hi;
	e->work_changed = w.p <= alpha;
	e->cpi_changed = c.p <= alpha;
	if (e->work_changed && !e->cpi_changed)
		snprintf(e->split, sizeof(e->split),
		    "%s work done (instructions %+.1f%%), same cycles per "
		    "instruction: nothing specific explains it",
		    w.change > 0 ? "more" : "less", 100 * w.change);
	else if (!e->work_changed && e->cpi_changed)
		snprintf(e->split, sizeof(e->split),
		    "same work, %s per instruction (CPI %+.1f%%)",
		    c.change > 0 ? "slower" : "faster", 100 * c.change);
	else if (e->work_changed)
		snprintf(e->split, sizeof(e->split),
		    "both: instructions %+.1f%% and CPI %+.1f%%",
		    100 * w.change, 100 * c.change);
	else
		snprintf(e->split, sizeof(e->split),
		    "neither work (instructions %+.1f%%) nor CPI (%+.1f%%) "
		    "changed detectably",
		    100 * w.change, 100 * c.change);
out:
	free(cpi[0]);
	free(cpi[1]);
}

enum pr_status
pr_explain_compute(const struct pr_explain_input *in, struct pr_explain *e,
    struct pr_error *err)
{
	double conf = in->conf > 0 ? in->conf : 0.95, alpha = 1 - conf;
	double *p = NULL, *adj = NULL, mb, mn, v;
	size_t j, k, nb, nn, ii = (size_t)-1, ci = (size_t)-1;
	enum pr_status st = PR_OK;

	pr_explain_init(e);
	moments(in->base.primary, NULL, in->base.n, &nb, &mb, &v);
	moments(in->new_.primary, NULL, in->new_.n, &nn, &mn, &v);
	if (nb < 2 || nn < 2)
		return pr_error_set(err, PR_EINVAL,
		    "the explanation needs 2 runs a side of %s (%zu and %zu)",
		    in->primary, nb, nn);
	e->primary_change = mb != 0 ? (mn - mb) / fabs(mb) : NAN;
	if (in->nmetrics == 0)
		goto split;
	e->items = calloc(in->nmetrics, sizeof(*e->items));
	p = malloc(in->nmetrics * sizeof(*p));
	adj = malloc(in->nmetrics * sizeof(*adj));
	if (e->items == NULL || p == NULL || adj == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	for (j = 0; j < in->nmetrics; j++) {
		struct pr_explain_item *it = &e->items[e->n];
		double sxy = 0, sxx = 0, syy = 0;

		if (endswith(in->names[j], "instructions"))
			ii = j;
		else if (endswith(in->names[j], "cycles"))
			ci = j;
		if (change(in->base.metric[j], in->base.n, in->new_.metric[j],
			in->new_.n, conf, it) != 0)
			continue;
		it->metric = j;
		within(in->base.metric[j], in->base.primary, in->base.n, &sxy,
		    &sxx, &syy);
		within(in->new_.metric[j], in->new_.primary, in->new_.n, &sxy,
		    &sxx, &syy);
		it->r = sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0;
		it->share = sxx > 0 && mn != mb
		    ? sxy / sxx * (it->new_mean - it->base_mean) / (mn - mb)
		    : NAN;
		p[e->n++] = it->p;
	}
	pr_bh(p, e->n, adj);
	for (k = 0; k < e->n; k++) {
		e->items[k].p_adj = adj[k];
		e->items[k].changed = adj[k] <= alpha;
		e->nchanged += e->items[k].changed;
	}
	qsort(e->items, e->n, sizeof(*e->items), byrank);
split:
	if (ii != (size_t)-1 && ci != (size_t)-1)
		split(in, ii, ci, conf, alpha, e);
	else
		snprintf(e->split, sizeof(e->split),
		    "no work/efficiency split: instructions and cycles were "
		    "not counted (no PMU, or --monitor without perf)");
out:
	free(p);
	free(adj);
	if (st != PR_OK)
		pr_explain_release(e);
	return st;
}
