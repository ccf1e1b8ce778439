/*
 * src/stats/campaign.c - two variants compared over several hosts: a
 * nested comparison per host, the one-sample t test on the hosts'
 * log-ratios across them, and the F test of the host-by-variant
 * interaction that says whether the hosts agree (perfreg/campaign.h has
 * the formulas).
 *
 * The per-host subsets are copied out of the sides (values keep their
 * order, so each host's boots stay grouped), then handed to
 * pr_nested_compare; every figure across hosts is computed from those
 * results and from the log values of the units.  Nothing here is
 * iterative: the work is O(n + H) beyond pr_nested_compare's.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/campaign.h"
#include "perfreg/distrib.h"
#include "core/banned.h"

static enum pr_status
check_side(const struct pr_campaign_side *s, size_t nhosts, const char *name,
    struct pr_error *err)
{
	size_t i;

	if (s == NULL || s->n == 0 || s->x == NULL || s->boot == NULL ||
	    s->host == NULL)
		return pr_error_set(err, PR_EINVAL, "%s: no values", name);
	for (i = 0; i < s->n; i++) {
		if (!isfinite(s->x[i]))
			return pr_error_set(err, PR_EINVAL,
			    "%s: value %zu is not finite", name, i + 1);
		if (s->host[i] >= nhosts)
			return pr_error_set(err, PR_EINVAL,
			    "%s: value %zu: host %zu of %zu", name, i + 1,
			    s->host[i], nhosts);
		if (i > 0 && s->boot[i] < s->boot[i - 1])
			return pr_error_set(err, PR_EINVAL,
			    "%s: value %zu: boots decrease", name, i + 1);
	}
	return PR_OK;
}

/* The values of side s on host h into x and g (room for s->n); *n set. */
static void
subset(const struct pr_campaign_side *s, size_t h, double *x, size_t *g,
    size_t *n)
{
	size_t i, k = 0;

	for (i = 0; i < s->n; i++)
		if (s->host[i] == h) {
			x[k] = s->x[i];
			g[k++] = s->boot[i];
		}
	*n = k;
}

/*
 * Adds the log units of one cell (the values of x, grouped by g, n of
 * them) to the running sums: the number of units, their mean and the
 * sum of squares about it.  by_boot: each boot's mean is a unit, else
 * each value.  Returns 0 when a value or mean is <= 0.
 */
static int
cell_logs(const double *x, const size_t *g, size_t n, int by_boot,
    size_t *units, double *mean, double *ss)
{
	size_t i, j, k = 0;
	double m = 0, s = 0, u, d, bm;

	for (i = 0; i < n; i = j) {
		bm = 0;
		for (j = i; j < n && (!by_boot ? j == i : g[j] == g[i]); j++)
			bm += (x[j] - bm) / (double)(j - i + 1);
		if (!(bm > 0))
			return 0;
		u = log(bm);
		k++;
		d = u - m;
		m += d / (double)k;
		s += d * (u - m);
	}
	*units = k;
	*mean = m;
	*ss = s;
	return 1;
}

/* Counts boots in x's grouping. */
static size_t
nboots(const size_t *g, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (i == 0 || g[i] != g[i - 1])
			k++;
	return k;
}

struct cellsum {
	size_t nb, nn; /* units */
	double mb, mn; /* mean log unit */
	double ss;     /* within both cells */
};

/*
 * The interaction F test over the compared hosts: xb[h], gb[h] and cb[h]
 * are the base values, boots and count of compared host h, xn, gn, cn
 * the new ones; cs is scratch for the cells.
 */
static void
agreement(struct pr_campaign_result *out, const double *const *xb,
    const size_t *const *gb, const size_t *cb, const double *const *xn,
    const size_t *const *gn, const size_t *cn, struct cellsum *cs)
{
	size_t h, H = out->nhosts, N = 0, nbt = 0;
	double q = 0, sw = 0, ew = 0, ss = 0, w, e, s2;
	int by_boot;

	if (H < 2)
		return;
	for (h = 0; h < H; h++)
		nbt += nboots(gb[h], cb[h]) + nboots(gn[h], cn[h]);
	/* Boots as the units when some cell has a second boot. */
	by_boot = nbt > 2 * H;
	out->f_on_runs = !by_boot;
	for (h = 0; h < H; h++) {
		if (!cell_logs(xb[h], gb[h], cb[h], by_boot, &cs[h].nb,
			&cs[h].mb, &cs[h].ss) ||
		    !cell_logs(xn[h], gn[h], cn[h], by_boot, &cs[h].nn,
			&cs[h].mn, &w))
			return;
		cs[h].ss += w;
		N += cs[h].nb + cs[h].nn;
		ss += cs[h].ss;
	}
	if (N <= 2 * H)
		return;
	for (h = 0; h < H; h++) {
		w = 1 / (1 / (double)cs[h].nb + 1 / (double)cs[h].nn);
		sw += w;
		ew += w * (cs[h].mn - cs[h].mb);
	}
	ew /= sw;
	for (h = 0; h < H; h++) {
		w = 1 / (1 / (double)cs[h].nb + 1 / (double)cs[h].nn);
		e = cs[h].mn - cs[h].mb - ew;
		q += w * e * e;
	}
	out->df1 = (double)(H - 1);
	out->df2 = (double)(N - 2 * H);
	s2 = ss / out->df2;
	if (!(s2 > 0)) {
		if (q > 0)
			return;
		out->f = 0;
		out->f_p = 1;
		out->have_f = 1;
		return;
	}
	out->f = q / (out->df1 * s2);
	out->f_p = pr_betainc(out->df2 / 2, out->df1 / 2,
	    out->df2 / (out->df2 + out->df1 * out->f));
	out->have_f = isfinite(out->f_p);
}

/* The verdict across hosts from the paired analysis of the d_h. */
static enum pr_status
across(struct pr_campaign_result *out, enum pr_better better,
    const struct pr_verdict_opts *o, struct pr_error *err)
{
	struct pr_comparison *c = &out->across;
	double *d;
	size_t h, H = out->nhosts;
	enum pr_status st = PR_OK;
	int positive = 1;

	memset(c, 0, sizeof(*c));
	c->better = better;
	c->conf = o->conf;
	c->equivalence_pct = o->equivalence_pct;
	c->method = PR_METHOD_NONE;
	c->p_value = c->p_adjusted = 1;
	c->verdict = PR_VERDICT_INCONCLUSIVE;
	c->notes = PR_NOTE_UNTESTED | PR_NOTE_NO_CI;
	if (better == PR_BETTER_UNKNOWN)
		c->notes |= PR_NOTE_DIRECTION_ASSUMED;
	if (H < 2)
		return PR_OK;
	if ((d = malloc(H * sizeof(*d))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (h = 0; h < H; h++) {
		if (!(out->host[h].r.base.mean > 0) ||
		    !(out->host[h].r.new_.mean > 0)) {
			positive = 0;
			break;
		}
		d[h] = log(out->host[h].r.new_.mean / out->host[h].r.base.mean);
	}
	if (positive)
		st = pr_paired_logs(d, H, o->conf, 0, &out->paired, err);
	free(d);
	if (st != PR_OK || !positive) {
		if (!positive)
			c->notes |= PR_NOTE_NOT_POSITIVE;
		return st;
	}
	c->have_change = 1;
	c->change_pct = out->paired.change_pct;
	c->direction = out->paired.mean_log > 0 ? 1
	    : out->paired.mean_log < 0          ? -1
						: 0;
	if (out->paired.degenerate || !out->paired.have_t) {
		c->notes |= PR_NOTE_DEGENERATE;
		return PR_OK;
	}
	c->method = PR_METHOD_STUDENT;
	c->tested = 1;
	c->holm_m = 1;
	c->have_ci = out->paired.have_ci;
	c->ci_lo_pct = out->paired.ci_lo_pct;
	c->ci_hi_pct = out->paired.ci_hi_pct;
	c->p_value = c->p_adjusted = out->paired.p_value;
	c->primary_t.t = out->paired.t;
	c->primary_t.df = out->paired.df;
	c->primary_t.p = out->paired.p_value;
	c->primary_t.diff = out->paired.mean_log;
	c->primary_t.se = out->paired.se_log;
	c->notes &= ~(unsigned)(PR_NOTE_UNTESTED | PR_NOTE_NO_CI);
	if (!c->have_ci)
		c->notes |= PR_NOTE_NO_CI;
	pr_verdict_decide(c);
	return PR_OK;
}

enum pr_status
pr_campaign_hosts(const struct pr_campaign_side *base,
    const struct pr_campaign_side *new_, size_t nhosts, enum pr_better better,
    const struct pr_verdict_opts *o, double boot_cost,
    struct pr_campaign_result *out, struct pr_error *err)
{
	struct pr_verdict_opts def;
	struct pr_nested_side sb, sn;
	struct cellsum *cs = NULL;
	double *xb = NULL, *xn = NULL, **pxb = NULL, **pxn = NULL;
	size_t *gb = NULL, *gn = NULL, **pgb = NULL, **pgn = NULL;
	size_t *cb = NULL, *cn = NULL, h, ob = 0, on = 0, nb, nn, k;
	enum pr_status st;

	memset(out, 0, sizeof(*out));
	if (o == NULL) {
		pr_verdict_opts_init(&def);
		o = &def;
	}
	if ((st = check_side(base, nhosts, "base", err)) != PR_OK ||
	    (st = check_side(new_, nhosts, "new", err)) != PR_OK ||
	    (st = pr_verdict_opts_check(o, better, err)) != PR_OK)
		return st;
	st = PR_ENOMEM;
	if ((xb = malloc(base->n * sizeof(*xb))) == NULL ||
	    (gb = malloc(base->n * sizeof(*gb))) == NULL ||
	    (xn = malloc(new_->n * sizeof(*xn))) == NULL ||
	    (gn = malloc(new_->n * sizeof(*gn))) == NULL ||
	    (out->host = calloc(nhosts, sizeof(*out->host))) == NULL ||
	    (pxb = calloc(nhosts, sizeof(*pxb))) == NULL ||
	    (pxn = calloc(nhosts, sizeof(*pxn))) == NULL ||
	    (pgb = calloc(nhosts, sizeof(*pgb))) == NULL ||
	    (pgn = calloc(nhosts, sizeof(*pgn))) == NULL ||
	    (cb = calloc(nhosts, sizeof(*cb))) == NULL ||
	    (cn = calloc(nhosts, sizeof(*cn))) == NULL ||
	    (cs = calloc(nhosts, sizeof(*cs))) == NULL) {
		pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	for (h = 0; h < nhosts; h++) {
		subset(base, h, xb + ob, gb + ob, &nb);
		subset(new_, h, xn + on, gn + on, &nn);
		if (nb == 0 || nn == 0) {
			out->nhosts_one_side += nb + nn > 0;
			ob += nb;
			on += nn;
			continue;
		}
		k = out->nhosts++;
		out->host[k].host = h;
		out->host[k].nb = nb;
		out->host[k].nn = nn;
		pxb[k] = xb + ob;
		pgb[k] = gb + ob;
		cb[k] = nb;
		pxn[k] = xn + on;
		pgn[k] = gn + on;
		cn[k] = nn;
		sb.x = pxb[k];
		sb.group = pgb[k];
		sb.n = nb;
		sn.x = pxn[k];
		sn.group = pgn[k];
		sn.n = nn;
		if ((st = pr_nested_compare(&sb, &sn, better, o, boot_cost,
			 &out->host[k].r, err)) != PR_OK)
			goto out;
		out->nverdict[out->host[k].r.cmp.verdict]++;
		ob += nb;
		on += nn;
	}
	if ((st = across(out, better, o, err)) != PR_OK)
		goto out;
	agreement(out, (const double *const *)pxb, (const size_t *const *)pgb,
	    cb, (const double *const *)pxn, (const size_t *const *)pgn, cn, cs);
	for (h = 0; h < out->nhosts; h++)
		out->agreeing +=
		    out->host[h].r.cmp.verdict == out->across.verdict;
	out->consistent = !(out->have_f && out->f_p < 1 - o->conf);
	st = PR_OK;
out:
	free(xb);
	free(gb);
	free(xn);
	free(gn);
	free(pxb);
	free(pxn);
	free(pgb);
	free(pgn);
	free(cb);
	free(cn);
	free(cs);
	if (st != PR_OK)
		pr_campaign_hosts_release(out);
	return st;
}

void
pr_campaign_hosts_release(struct pr_campaign_result *out)
{
	if (out == NULL)
		return;
	free(out->host);
	memset(out, 0, sizeof(*out));
}

/* "regression on 2, inconclusive on 1": the verdicts, most hosts first. */
static enum pr_status
counts(const struct pr_campaign_result *r, struct pr_buf *b,
    struct pr_error *err)
{
	static const enum pr_verdict order[] = { PR_VERDICT_REGRESSION,
		PR_VERDICT_IMPROVEMENT, PR_VERDICT_EQUIVALENT,
		PR_VERDICT_INCONCLUSIVE };
	enum pr_status st = PR_OK;
	size_t i, n = 0;

	for (i = 0; i < 4 && st == PR_OK; i++) {
		if (r->nverdict[order[i]] == 0)
			continue;
		st = pr_buf_addf(b, err, "%s%s on %zu", n++ > 0 ? ", " : "",
		    pr_verdict_str(order[i]), r->nverdict[order[i]]);
	}
	return st;
}

enum pr_status
pr_campaign_hosts_summary(const struct pr_campaign_result *r, struct pr_buf *b,
    struct pr_error *err)
{
	enum pr_status st;

	if (r->nhosts < 2)
		return pr_buf_addf(b, err, "%zu host compared", r->nhosts);
	if (r->consistent)
		st = pr_buf_addf(b, err,
		    "consistent on %zu of %zu hosts: ", r->agreeing, r->nhosts);
	else
		st = pr_buf_adds(b, "differs between hosts: ", err);
	if (st == PR_OK)
		st = counts(r, b, err);
	if (st == PR_OK && r->have_f)
		st = pr_buf_addf(b, err,
		    " (host x variant F(%.0f, %.0f) = %.3g, p = %.2g%s)",
		    r->df1, r->df2, r->f, r->f_p,
		    r->f_on_runs ? ", runs as units" : "");
	if (st == PR_OK && !r->have_f)
		st = pr_buf_adds(b, " (no test of agreement: too few units)",
		    err);
	return st;
}
