/*
 * report/explain.c - the explanation of a change (perfreg/explain.h):
 * each side metric's change by Welch's t (on the logs of its values
 * when all are above 0: one wild run hides less), the false discovery rate held
 * by Benjamini-Hochberg across them (Y. Benjamini and Y. Hochberg, "
 * Controlling the false discovery rate", JRSS B 57, 1995; pr_bh), and
 * the ranking of the changed ones by the share of the primary metric's
 * change they account for, from the pooled within-side regression of
 * the primary on each metric (the within-groups correlation of analysis
 * of covariance: G. W. Snedecor and W. G. Cochran, Statistical Methods,
 * 8th ed., ch. 18).  Within-side, so that the shift between the sides
 * does not make every changed metric look correlated with the primary:
 * only run-to-run co-movement counts.
 *
 * It also writes the explanation as a section of the report model
 * (pr_report_explain: text, Markdown and JSON), and builds it from a
 * session of `perfreg run` (pr_report_run_explain), the monitors'
 * figures and the side metrics of each run as the replicates.  A
 * section's data is one struct holding copies of everything it shows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "perfreg/describe.h"
#include "perfreg/distrib.h"
#include "perfreg/explain.h"
#include "perfreg/monitor.h"
#include "perfreg/report_run.h"
#include "perfreg/store.h"
#include "perfreg/ttest.h"
#include "perfreg/verdict.h"
#include "report/internal.h"

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
 * both are finite), of their logs when lg (all above 0); *n the count. */
static void
moments(const double *x, const double *y, size_t n, int lg, size_t *k,
    double *mean, double *var)
{
	double m = 0, s = 0, d, v;
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		if (isfinite(x[i]) && (y == NULL || isfinite(y[i]))) {
			v = lg ? log(x[i]) : x[i];
			c++;
			d = v - m;
			m += d / (double)c;
			s += d * (v - m);
		}
	*k = c;
	*mean = m;
	*var = c > 1 ? s / (double)(c - 1) : 0;
}

/* The summary Welch's t takes: moments() of x (of its logs when lg). */
static void
summary(const double *x, size_t n, int lg, struct pr_summary *s)
{
	memset(s, 0, sizeof(*s));
	moments(x, NULL, n, lg, &s->n, &s->mean, &s->var);
	s->stddev = sqrt(s->var);
	s->defined = PR_SUM_STDDEV;
}

/* Whether every finite x[i] is above 0 (and one is). */
static int
all_positive(const double *x, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isfinite(x[i])) {
			if (!(x[i] > 0))
				return 0;
			k++;
		}
	return k > 0;
}

/*
 * Welch's t on the logs of a and b, all above 0: its p into *p, 0; -1
 * when the logs do not vary.  A count's runs are skewed and a wild run
 * is a multiple of the others (2791 involuntary switches among runs of
 * 110 to 211): on the values it takes over the variance and hid a
 * change of +3000% (p 0.045, 0.11 after BH), on the logs it is one run
 * a little high (p 3e-16; tests/report/gen_explain_logt.py).
 */
static int
log_test(const double *a, size_t na, const double *b, size_t nb, double conf,
    double *p)
{
	struct pr_summary sa, sb;
	struct pr_ttest t;
	struct pr_error err;

	summary(a, na, 1, &sa);
	summary(b, nb, 1, &sb);
	if (sa.var == 0 && sb.var == 0)
		return -1;
	if (pr_ttest_welch(&sa, &sb, conf, &t, &err) != PR_OK)
		return -1;
	*p = t.p;
	return 0;
}

/* The change of x between the sides: the means' change with Fieller's
 * interval, and Welch's t on the logs (all values above 0) or else on the
 * values. */
static int
change(const double *a, size_t na, const double *b, size_t nb, double conf,
    struct pr_explain_item *it)
{
	struct pr_summary sa, sb;
	struct pr_ttest t;
	struct pr_error err;
	int positive;

	summary(a, na, 0, &sa);
	summary(b, nb, 0, &sb);
	if (sa.n < 2 || sb.n < 2 || (sa.var == 0 && sb.var == 0))
		return -1;
	if (pr_ttest_welch(&sa, &sb, conf, &t, &err) != PR_OK)
		return -1;
	it->nb = sa.n;
	it->nn = sb.n;
	it->base_mean = sa.mean;
	it->new_mean = sb.mean;
	it->p = t.p;
	positive = all_positive(a, na) && all_positive(b, nb);
	it->nonpositive = !positive;
	it->log_test = positive && log_test(a, na, b, nb, conf, &it->p) == 0;
	/*
	 * The change in the base's magnitude and Fieller's interval of it,
	 * as pr_compare gives the main metric: the difference's interval
	 * over the base mean leaves out the base mean's own error and went
	 * below -100% for a throughput ("sender_bitrate -91.8% [-158%,
	 * -25.2%]" in a run of iperf3 with 1 KiB writes).
	 */
	it->change = it->lo = it->hi = NAN;
	if (sa.mean != 0) {
		double q =
		    t.degenerate ? 0 : pr_t_quantile(0.5 + conf / 2, t.df);
		double m = fabs(sa.mean);

		it->change = t.diff / m;
		if (pr_fieller_pct(sa.mean, sb.mean,
			sa.stddev / sqrt((double)sa.n) / m,
			sb.stddev / sqrt((double)sb.n) / m, q, positive,
			&it->lo, &it->hi) == 0) {
			it->lo /= 100;
			it->hi /= 100;
		}
	}
	return 0;
}

/* The logs of x[0..n) (NaN stays NaN), or NULL with errno EDOM when a
 * value is not above 0, ENOMEM when out of memory. */
static double *
logs(const double *x, size_t n)
{
	double *l = malloc((n + 1) * sizeof(*l));
	size_t i;

	if (l == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (isfinite(x[i]) && !(x[i] > 0)) {
			free(l);
			errno = EDOM;
			return NULL;
		}
		l[i] = isfinite(x[i]) ? log(x[i]) : NAN;
	}
	return l;
}

/* Within-side sums of the side s: Sxy, Sxx, Syy about its own means. */
static void
within(const double *x, const double *y, size_t n, double *sxy, double *sxx,
    double *syy)
{
	double mx, my, v, d1, d2;
	size_t i, k;

	moments(x, y, n, 0, &k, &mx, &v);
	moments(y, x, n, 0, &k, &my, &v);
	for (i = 0; i < n; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			d1 = x[i] - mx;
			d2 = y[i] - my;
			*sxy += d1 * d2;
			*sxx += d1 * d1;
			*syy += d2 * d2;
		}
}

/* The rank's tier of a changed item: a share of at least
 * PR_EXPLAIN_SHARE_MIN first, then those with no spread (their share
 * cannot be measured, so it may be any), then the rest. */
static int
tier(const struct pr_explain_item *it)
{
	if (it->no_spread)
		return 1;
	return isfinite(it->share) && it->share >= PR_EXPLAIN_SHARE_MIN ? 0 : 2;
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
	if (tier(a) != tier(b))
		return tier(a) - tier(b);
	if (a->no_spread) {
		sa = isfinite(a->change) ? fabs(a->change) : INFINITY;
		sb = isfinite(b->change) ? fabs(b->change) : INFINITY;
		if (sa != sb)
			return sa < sb ? 1 : -1;
		return (a->metric > b->metric) - (a->metric < b->metric);
	}
	sa = isfinite(a->share) ? a->share : -INFINITY;
	sb = isfinite(b->share) ? b->share : -INFINITY;
	if (sa != sb)
		return sa < sb ? 1 : -1;
	if (fabs(a->r) != fabs(b->r))
		return fabs(a->r) < fabs(b->r) ? 1 : -1;
	return (a->metric > b->metric) - (a->metric < b->metric);
}

/* x[i] per second of its run, secs[i]: NaN where either is missing or
 * the time is not above 0. */
static void
per_second(const double *x, const double *secs, size_t n, double *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = isfinite(x[i]) && isfinite(secs[i]) && secs[i] > 0
		    ? x[i] / secs[i]
		    : NAN;
}

static int
endswith(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Whether a side metric of in is a monitor's (mon.*): the input came
 * from `perfreg run --monitor`, not from a tool's own figures. */
static int
any_monitor(const struct pr_explain_input *in)
{
	size_t j;

	for (j = 0; j < in->nmetrics; j++)
		if (pr_monitor_is_metric(in->names[j]))
			return 1;
	return 0;
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
	double *p = NULL, *adj = NULL, *rb = NULL, *rnw = NULL, mb, mn, v;
	double *lb = NULL, *ln = NULL;
	const double *yb = in->base.primary, *yn = in->new_.primary;
	size_t j, k, nb, nn, ii = (size_t)-1, ci = (size_t)-1;
	enum pr_status st = PR_OK;

	pr_explain_init(e);
	if (in->log_primary) {
		if ((lb = logs(in->base.primary, in->base.n)) == NULL ||
		    (ln = logs(in->new_.primary, in->new_.n)) == NULL) {
			st = errno == EDOM
			    ? pr_error_set(err, PR_EINVAL,
				  "the explanation takes %s in logs: a value "
				  "is not above 0",
				  in->primary)
			    : pr_error_set(err, PR_ENOMEM, "out of memory");
			goto out;
		}
		yb = lb;
		yn = ln;
	}
	moments(yb, NULL, in->base.n, 0, &nb, &mb, &v);
	moments(yn, NULL, in->new_.n, 0, &nn, &mn, &v);
	if (nb < 2 || nn < 2) {
		st = pr_error_set(err, PR_EINVAL,
		    "the explanation needs 2 runs a side of %s (%zu and %zu)",
		    in->primary, nb, nn);
		goto out;
	}
	if (in->log_primary)
		e->primary_change = expm1(mn - mb);
	else
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
	if (in->base.seconds != NULL && in->new_.seconds != NULL &&
	    ((rb = malloc((in->base.n + 1) * sizeof(*rb))) == NULL ||
		(rnw = malloc((in->new_.n + 1) * sizeof(*rnw))) == NULL)) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	for (j = 0; j < in->nmetrics; j++) {
		struct pr_explain_item *it = &e->items[e->n];
		const double *xb = in->base.metric[j], *xn = in->new_.metric[j];
		double sxy = 0, sxx = 0, syy = 0;
		size_t df;
		int rate = rb != NULL && pr_monitor_is_rate(in->names[j]);

		if (endswith(in->names[j], "instructions"))
			ii = j;
		else if (endswith(in->names[j], "cycles"))
			ci = j;
		if (rate) {
			per_second(xb, in->base.seconds, in->base.n, rb);
			per_second(xn, in->new_.seconds, in->new_.n, rnw);
			xb = rb;
			xn = rnw;
		}
		if (change(xb, in->base.n, xn, in->new_.n, conf, it) != 0)
			continue;
		it->metric = j;
		it->per_second = rate;
		within(xb, yb, in->base.n, &sxy, &sxx, &syy);
		within(xn, yn, in->new_.n, &sxy, &sxx, &syy);
		it->r = sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0;
		/* The pooled within-side spread against the change: below
		 * 1% the slope is that of rounding, not of co-movement. */
		df = it->nb + it->nn > 2 ? it->nb + it->nn - 2 : 1;
		it->no_spread = !(sqrt(sxx / (double)df) >=
		    0.01 * fabs(it->new_mean - it->base_mean));
		it->share = !it->no_spread && sxx > 0 && mn != mb
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
	else if (any_monitor(in))
		snprintf(e->split, sizeof(e->split),
		    "no work/efficiency split: instructions and cycles were "
		    "not counted (no PMU, or --monitor without perf)");
	else
		snprintf(e->split, sizeof(e->split),
		    "no work/efficiency split: the inputs have no "
		    "instructions and cycles");
out:
	free(p);
	free(adj);
	free(rb);
	free(rnw);
	free(lb);
	free(ln);
	if (st != PR_OK)
		pr_explain_release(e);
	return st;
}

/* ---------------------------------------------------------------- *
 * The explanation as a section of the report model
 * ---------------------------------------------------------------- */

/* What a section shows: copies of the result, the names and the notes. */
struct explain_data {
	struct pr_explain e; /* items owned */
	char *primary;
	char **names, **units; /* nmetrics each; units[i] may be NULL */
	size_t nmetrics;
	char **notes;
	size_t nnotes;
	double conf;
	char *unit;  /* the replicates, in words */
	char *label; /* what is compared, or NULL */
};

static void
explain_free(void *data)
{
	struct explain_data *d = data;
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; d->names != NULL && i < d->nmetrics; i++) {
		free(d->names[i]);
		free(d->units[i]);
	}
	for (i = 0; d->notes != NULL && i < d->nnotes; i++)
		free(d->notes[i]);
	free(d->names);
	free(d->units);
	free(d->notes);
	free(d->primary);
	free(d->unit);
	free(d->label);
	pr_explain_release(&d->e);
	free(d);
}

/* Is this monitor figure system-wide (all but the child's counters)? */
static int
system_wide(const char *name)
{
	return pr_monitor_is_metric(name) &&
	    strncmp(name, PR_MON_PREFIX "perf.",
		strlen(PR_MON_PREFIX "perf.")) != 0;
}

/* Appends s escaped for a terminal, and for Markdown when md. */
static enum pr_status
word(struct pr_buf *out, const char *s, int md, struct pr_error *err)
{
	enum pr_status st;
	char *e;

	if (!md)
		return pr_report_escape(out, s, strlen(s), 0, err);
	if ((e = pr_report_escape_str(s, 0)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	st = report_md_escape(out, e, err);
	free(e);
	return st;
}

/* A relative change in percent, "n/a" when it is not defined: three
 * significant digits, whole percents from 1000% on, never "-0". */
static enum pr_status
pct(struct pr_buf *out, double x, struct pr_error *err)
{
	double v = 100 * x;

	if (!isfinite(v))
		return pr_buf_adds(out, "n/a", err);
	if (fabs(v) >= 999.5)
		return pr_buf_addf(out, err, "%+.0f%%", v);
	return pr_buf_addf(out, err, "%+.3g%%", v == 0 ? 0.0 : v);
}

/* How many of the tested side metrics got their p from the values (a
 * value not above 0, or logs that do not vary), not from the logs; of
 * them, how many for a value not above 0 into *np when np is not NULL. */
static size_t
on_values(const struct pr_explain *e, size_t *np)
{
	size_t k, nv = 0, n0 = 0;

	for (k = 0; k < e->n; k++)
		if (!e->items[k].log_test) {
			nv++;
			n0 += e->items[k].nonpositive != 0;
		}
	if (np != NULL)
		*np = n0;
	return nv;
}

/* Whether the test differs between the tested side metrics: then each
 * line tested on the values says so. */
static int
mixed(const struct pr_explain *e)
{
	size_t nv = on_values(e, NULL);

	return nv > 0 && nv < e->n;
}

/* The heading's words for the test: on the logs, on the values, or on
 * the logs but for the ones with a value not above 0 or whose logs do
 * not vary (then their lines say so). */
static void
method_words(const struct explain_data *d, char *buf, size_t size)
{
	size_t n0, nv = on_values(&d->e, &n0), nc = nv - n0;
	int units = strcmp(d->unit, "runs") != 0;
	const char *of = units ? " of the " : "", *u = units ? d->unit : "";

	if (nv == 0)
		snprintf(buf, size, "Welch's t on the logs%s%s", of, u);
	else if (nv == d->e.n)
		snprintf(buf, size, "Welch's t on the values%s%s", of, u);
	else if (nc == 0)
		snprintf(buf, size,
		    "Welch's t on the logs%s%s, on the values for %zu "
		    "metric%s with a value not above 0",
		    of, u, n0, n0 == 1 ? "" : "s");
	else if (n0 == 0)
		snprintf(buf, size,
		    "Welch's t on the logs%s%s, on the values for %zu "
		    "metric%s whose logs do not vary",
		    of, u, nc, nc == 1 ? "" : "s");
	else
		snprintf(buf, size,
		    "Welch's t on the logs%s%s, on the values for %zu "
		    "metric%s with a value not above 0 and %zu whose logs do "
		    "not vary",
		    of, u, n0, n0 == 1 ? "" : "s", nc);
}

static enum pr_status
item_text(struct pr_buf *out, const struct explain_data *d,
    const struct pr_explain_item *it, int md, struct pr_error *err)
{
	enum pr_status st;

	if ((st = pr_buf_adds(out, md ? "- " : "  ", err)) != PR_OK ||
	    (st = word(out, d->names[it->metric], md, err)) != PR_OK ||
	    (st = pr_buf_adds(out, it->per_second ? "/s " : " ", err)) !=
		PR_OK ||
	    (st = pct(out, it->change, err)) != PR_OK ||
	    (st = pr_buf_adds(out, " [", err)) != PR_OK ||
	    (st = pct(out, it->lo, err)) != PR_OK ||
	    (st = pr_buf_adds(out, ", ", err)) != PR_OK ||
	    (st = pct(out, it->hi, err)) != PR_OK ||
	    (st = pr_buf_addf(out, err, "] (%.4g -> %.4g)%s", it->base_mean,
		 it->new_mean,
		 mixed(&d->e) && !it->log_test ? ", t on the values" : "")) !=
		PR_OK)
		return st;
	if (it->no_spread)
		return pr_buf_adds(out,
		    ", next to the same in every run of a side: its share "
		    "of the change cannot be measured\n",
		    err);
	if ((st = pr_buf_addf(out, err, ", r = %.2f with ",
		 fabs(it->r) < 0.005 ? 0.0 : it->r)) != PR_OK ||
	    (st = word(out, d->primary, md, err)) != PR_OK)
		return st;
	if (isfinite(it->share))
		return pr_buf_addf(out, err, ", %.0f%% of its change\n",
		    fabs(it->share) < 0.005 ? 0.0 : 100 * it->share);
	return pr_buf_adds(out, "\n", err);
}

static enum pr_status
explain_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct explain_data *d = data;
	const struct pr_explain *e = &d->e;
	int md = f == PR_REPORT_MARKDOWN;
	const char *pre = md ? "- " : "  ";
	enum pr_status st;
	size_t k, shown = 0, sys = 0, rates = 0;
	char how[256];

	method_words(d, how, sizeof(how));
	for (k = 0; k < e->nchanged; k++) {
		sys += system_wide(d->names[e->items[k].metric]);
		rates += e->items[k].per_second;
	}
	if ((st = pr_buf_adds(out, md ? "\n**Explanation**" : "\nexplanation",
		 err)) != PR_OK ||
	    (d->label != NULL &&
		((st = pr_buf_adds(out, " of ", err)) != PR_OK ||
		    (st = word(out, d->label, md, err)) != PR_OK)) ||
	    (st = pr_buf_adds(out, ": ", err)) != PR_OK ||
	    (st = word(out, d->primary, md, err)) != PR_OK ||
	    (st = pr_buf_adds(out, " ", err)) != PR_OK ||
	    (st = pct(out, e->primary_change, err)) != PR_OK ||
	    (st = pr_buf_addf(out, err,
		 "; %zu of %zu side metrics changed (%s, Benjamini-Hochberg "
		 "at a %.3g%% false discovery rate)",
		 e->nchanged, e->n, how, 100 * (1 - d->conf))) != PR_OK)
		return st;
	if (e->nchanged == 0)
		st = pr_buf_adds(out,
		    ": nothing beside it explains the change\n", err);
	else
		st = pr_buf_addf(out, err,
		    ", ranked by the share of the change they account "
		    "for%s%s\n",
		    sys ? "; the mon.stat, softirq, irq, vm and sched figures "
			  "are system-wide (they include the machine's other "
			  "processes)"
			: "",
		    rates ? ", their counts per second of the run (/s)" : "");
	if (st != PR_OK || (md && (st = pr_buf_addc(out, '\n', err)) != PR_OK))
		return st;
	for (k = 0; k < e->nchanged && shown < PR_EXPLAIN_TOP; k++, shown++)
		if ((st = item_text(out, d, &e->items[k], md, err)) != PR_OK)
			return st;
	if (e->nchanged > shown &&
	    (st = pr_buf_addf(out, err, "%s%zu more in --json\n", pre,
		 e->nchanged - shown)) != PR_OK)
		return st;
	if ((st = pr_buf_addf(out, err, "%swork/efficiency: %s\n", pre,
		 e->split)) != PR_OK)
		return st;
	for (k = 0; k < d->nnotes; k++)
		if ((st = pr_buf_addf(out, err, "%snote: ", pre)) != PR_OK ||
		    (st = word(out, d->notes[k], md, err)) != PR_OK ||
		    (st = pr_buf_addc(out, '\n', err)) != PR_OK)
			return st;
	return PR_OK;
}

/* Sets key of o to v; 0, or -1 (v dropped) when either failed. */
static int
jset(json_t *o, const char *key, json_t *v)
{
	return v == NULL || json_object_set_new(o, key, v) != 0 ? -1 : 0;
}

static json_t *
item_json(const struct explain_data *d, const struct pr_explain_item *m)
{
	json_t *it = json_object();
	const char *name = d->names[m->metric], *unit = d->units[m->metric];
	char rate[128];

	if (unit != NULL && m->per_second) {
		snprintf(rate, sizeof(rate), "%.100s/s", unit);
		unit = rate;
	}
	if (it == NULL || jset(it, "metric", json_string(name)) != 0 ||
	    (unit != NULL && jset(it, "unit", json_string(unit)) != 0) ||
	    jset(it, "system_wide", json_boolean(system_wide(name))) != 0 ||
	    jset(it, "n_base", json_integer((json_int_t)m->nb)) != 0 ||
	    jset(it, "n_new", json_integer((json_int_t)m->nn)) != 0 ||
	    jset(it, "base_mean", report_json_num(m->base_mean)) != 0 ||
	    jset(it, "new_mean", report_json_num(m->new_mean)) != 0 ||
	    jset(it, "change", report_json_num(m->change)) != 0 ||
	    jset(it, "ci_low", report_json_num(m->lo)) != 0 ||
	    jset(it, "ci_high", report_json_num(m->hi)) != 0 ||
	    jset(it, "p", report_json_num(m->p)) != 0 ||
	    jset(it, "test",
		json_string(m->log_test ? "welch_log" : "welch")) != 0 ||
	    jset(it, "p_bh", report_json_num(m->p_adj)) != 0 ||
	    jset(it, "r", report_json_num(m->r)) != 0 ||
	    jset(it, "share", report_json_num(m->share)) != 0 ||
	    jset(it, "per_second", json_boolean(m->per_second)) != 0 ||
	    jset(it, "no_spread", json_boolean(m->no_spread)) != 0 ||
	    jset(it, "changed", json_boolean(m->changed)) != 0) {
		json_decref(it);
		return NULL;
	}
	return it;
}

static json_t *
explain_json(const void *data, struct pr_error *err)
{
	const struct explain_data *d = data;
	const struct pr_explain *e = &d->e;
	json_t *o = json_object(), *arr = json_array(), *sp = json_object(),
	       *notes = json_array(), *it;
	size_t k;

	if (o == NULL || jset(o, "metrics", arr) != 0 ||
	    jset(o, "work_efficiency", sp) != 0 ||
	    jset(o, "monitor_notes", notes) != 0)
		goto nomem;
	if ((d->label != NULL &&
		jset(o, "compared", json_string(d->label)) != 0) ||
	    jset(o, "primary", json_string(d->primary)) != 0 ||
	    jset(o, "primary_change", report_json_num(e->primary_change)) !=
		0 ||
	    jset(o, "method",
		json_string("Welch's t per side metric, on the logs of its "
			    "values when all are above 0, else on the values; "
			    "the change of the means with Fieller's interval; "
			    "Benjamini-Hochberg across them, ranked by the "
			    "share of the primary change from the pooled "
			    "within-side regression")) != 0 ||
	    jset(o, "fdr", json_real(round((1 - d->conf) * 1e9) / 1e9)) != 0 ||
	    jset(o, "unit", json_string(d->unit)) != 0 ||
	    jset(o, "tested", json_integer((json_int_t)e->n)) != 0 ||
	    jset(o, "changed", json_integer((json_int_t)e->nchanged)) != 0)
		goto nomem;
	for (k = 0; k < e->n; k++)
		if ((it = item_json(d, &e->items[k])) == NULL ||
		    json_array_append_new(arr, it) != 0)
			goto nomem;
	if (jset(sp, "possible", json_boolean(e->has_split)) != 0 ||
	    jset(sp, "text", json_string(e->split)) != 0 ||
	    (e->has_split &&
		(jset(sp, "instructions_change",
		     report_json_num(e->work_change)) != 0 ||
		    jset(sp, "cpi_change", report_json_num(e->cpi_change)) !=
			0)))
		goto nomem;
	for (k = 0; k < d->nnotes; k++)
		if (json_array_append_new(notes, json_string(d->notes[k])) != 0)
			goto nomem;
	return o;
nomem:
	if (o == NULL) {
		json_decref(arr);
		json_decref(sp);
		json_decref(notes);
	}
	json_decref(o);
	pr_error_set(err, PR_ENOMEM, "out of memory writing the explanation");
	return NULL;
}

static const struct report_writer explain_writer = { explain_text, explain_json,
	explain_free };

/* A relative change (a fraction) as "+8.3%", "-" when undefined. */
static const char *
hfrac(char *buf, size_t size, double x)
{
	if (!isfinite(x))
		snprintf(buf, size, "-");
	else
		report_fmt_pct(buf, size, 100 * x);
	return buf;
}

/* One row of the explanation's table. */
static enum pr_status
item_html(struct pr_buf *out, const struct explain_data *d,
    const struct pr_explain_item *it, size_t rank, struct pr_error *err)
{
	enum pr_status st;
	char a[32], b[48], p[32], q[32];

	if (rank > 0)
		st = pr_buf_addf(out, err,
		    "<tr class=\"changed\"><td "
		    "class=\"n\">%zu</td><td>",
		    rank);
	else
		st = pr_buf_adds(out, "<tr><td class=\"n\">-</td><td>", err);
	if (st != PR_OK ||
	    (st = report_html_esc(out, d->names[it->metric], err)) != PR_OK ||
	    (mixed(&d->e) && !it->log_test &&
		(st = pr_buf_adds(out, " (t on the values)", err)) != PR_OK))
		return st;
	if (d->units[it->metric] != NULL && d->units[it->metric][0] != '\0' &&
	    ((st = pr_buf_adds(out, " <span class=\"unit\">", err)) != PR_OK ||
		(st = report_html_esc(out, d->units[it->metric], err)) !=
		    PR_OK ||
		(st = pr_buf_adds(out, "</span>", err)) != PR_OK))
		return st;
	report_fmt_interval(b, sizeof(b), isfinite(it->lo) && isfinite(it->hi),
	    100 * it->lo, 100 * it->hi);
	report_fmt_p(p, sizeof(p), 1, it->p);
	report_fmt_p(q, sizeof(q), 1, it->p_adj);
	if ((st = pr_buf_addf(out, err,
		 "%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
		 "<td class=\"n\">%.4g &#8594; %.4g</td><td class=\"n\">%s</td>"
		 "<td class=\"n\">%s</td><td class=\"n\">%.2f</td>",
		 system_wide(d->names[it->metric]) ? " (system-wide)" : "",
		 hfrac(a, sizeof(a), it->change), b, it->base_mean,
		 it->new_mean, p, q, fabs(it->r) < 0.005 ? 0.0 : it->r)) !=
	    PR_OK)
		return st;
	if (isfinite(it->share))
		return pr_buf_addf(out, err, "<td class=\"n\">%.0f%%</td></tr>",
		    fabs(it->share) < 0.005 ? 0.0 : 100 * it->share);
	return pr_buf_adds(out, "<td class=\"n\">-</td></tr>", err);
}

static enum pr_status
explain_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct explain_data *d = data;
	const struct pr_explain *e = &d->e;
	static const char head[] =
	    "<thead><tr><th>rank</th><th>metric</th><th>change</th>"
	    "<th>95% interval</th><th>base &#8594; new</th><th>p</th>"
	    "<th>p BH</th><th>r with the primary</th><th>share of its "
	    "change</th></tr></thead><tbody>";
	enum pr_status st;
	size_t k;
	char a[32], how[256];

	method_words(d, how, sizeof(how));
	if ((st = pr_buf_adds(out,
		 "<section class=\"explanation\"><h3>explanation", err)) !=
		PR_OK ||
	    (d->label != NULL &&
		((st = pr_buf_adds(out, " of ", err)) != PR_OK ||
		    (st = report_html_esc(out, d->label, err)) != PR_OK)) ||
	    (st = pr_buf_adds(out, "</h3><p>", err)) != PR_OK ||
	    (st = report_html_esc(out, d->primary, err)) != PR_OK ||
	    (st = pr_buf_addf(out, err,
		 " %s; %zu of %zu side metrics changed (",
		 hfrac(a, sizeof(a), e->primary_change), e->nchanged, e->n)) !=
		PR_OK ||
	    (st = report_html_esc(out, how, err)) != PR_OK ||
	    (st = pr_buf_addf(out, err,
		 ", Benjamini-Hochberg at a %.3g%% false discovery rate)%s</p>",
		 100 * (1 - d->conf),
		 e->nchanged == 0
		     ? ": nothing beside it explains the change"
		     : ", ranked by the share of the change they account "
		       "for")) != PR_OK)
		return st;
	if (e->nchanged > 0) {
		if ((st = pr_buf_addf(out, err,
			 "<table class=\"explain sortable\">%s", head)) !=
		    PR_OK)
			return st;
		for (k = 0; k < e->nchanged; k++)
			if ((st = item_html(out, d, &e->items[k], k + 1,
				 err)) != PR_OK)
				return st;
		if ((st = pr_buf_adds(out, "</tbody></table>", err)) != PR_OK)
			return st;
	}
	/* The others, closed: they explain nothing, but they were tested. */
	if (e->n > e->nchanged) {
		if ((st = pr_buf_addf(out, err,
			 "<details><summary>the %zu other side metrics tested"
			 "</summary><table class=\"explain sortable\">%s",
			 e->n - e->nchanged, head)) != PR_OK)
			return st;
		for (k = e->nchanged; k < e->n; k++)
			if ((st = item_html(out, d, &e->items[k], 0, err)) !=
			    PR_OK)
				return st;
		if ((st = pr_buf_adds(out, "</tbody></table></details>",
			 err)) != PR_OK)
			return st;
	}
	if ((st = pr_buf_adds(out, "<p>work/efficiency: ", err)) != PR_OK ||
	    (st = report_html_esc(out, e->split, err)) != PR_OK ||
	    (st = pr_buf_adds(out, "</p>", err)) != PR_OK)
		return st;
	for (k = 0; k < d->nnotes; k++)
		if ((st = pr_buf_adds(out, "<p class=\"cap\">note: ", err)) !=
			PR_OK ||
		    (st = report_html_esc(out, d->notes[k], err)) != PR_OK ||
		    (st = pr_buf_adds(out, "</p>", err)) != PR_OK)
			return st;
	return pr_buf_adds(out, "</section>\n", err);
}

report_html_fn
report_explain_html(const struct report_writer *w)
{
	return w == &explain_writer ? explain_html : NULL;
}

/* A copy of s, or NULL (also for a NULL s). */
static char *
copy_str(const char *s)
{
	return s != NULL ? strdup(s) : NULL;
}

enum pr_status
pr_report_explain(struct pr_report_model *m, const char *key, int flags,
    const struct pr_explain *e, const struct pr_explain_input *in,
    const char *const *notes, size_t nnotes, struct pr_error *err)
{
	struct explain_data *d;
	size_t i;

	if ((d = calloc(1, sizeof(*d))) == NULL)
		goto nomem;
	d->e = *e;
	d->e.items = NULL;
	d->conf = in->conf > 0 ? in->conf : 0.95;
	d->nmetrics = in->nmetrics;
	if ((d->primary = copy_str(in->primary != NULL ? in->primary : "")) ==
		NULL ||
	    (d->unit = copy_str(in->unit != NULL ? in->unit : "runs")) ==
		NULL ||
	    (in->label != NULL && (d->label = copy_str(in->label)) == NULL) ||
	    (d->names = calloc(in->nmetrics + 1, sizeof(*d->names))) == NULL ||
	    (d->units = calloc(in->nmetrics + 1, sizeof(*d->units))) == NULL ||
	    (d->notes = calloc(nnotes + 1, sizeof(*d->notes))) == NULL ||
	    (e->n > 0 &&
		(d->e.items = malloc(e->n * sizeof(*e->items))) == NULL))
		goto nomem;
	if (e->n > 0)
		memcpy(d->e.items, e->items, e->n * sizeof(*e->items));
	for (i = 0; i < in->nmetrics; i++)
		if ((d->names[i] = copy_str(in->names[i])) == NULL ||
		    (in->units != NULL && in->units[i] != NULL &&
			(d->units[i] = copy_str(in->units[i])) == NULL))
			goto nomem;
	for (d->nnotes = 0; d->nnotes < nnotes; d->nnotes++)
		if ((d->notes[d->nnotes] = copy_str(notes[d->nnotes])) == NULL)
			goto nomem;
	return report_model_writer(m, key, flags, &explain_writer, d, err);
nomem:
	explain_free(d);
	return pr_error_set(err, PR_ENOMEM, "out of memory");
}

enum pr_status
report_explain_add(struct pr_report_model *m, const char *key, int flags,
    const struct pr_explain_input *in, const char *const *notes, size_t nnotes,
    struct pr_error *err)
{
	struct pr_explain e;
	struct pr_error why;
	enum pr_status st;

	pr_error_clear(&why);
	if ((st = pr_explain_compute(in, &e, &why)) == PR_OK)
		st = pr_report_explain(m, key, flags, &e, in, notes, nnotes,
		    err);
	else if (st == PR_ENOMEM)
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
	else
		st = PR_OK; /* too few units: no explanation */
	pr_explain_release(&e);
	return st;
}

/* ---------------------------------------------------------------- *
 * The explanation of a session of `perfreg run`
 * ---------------------------------------------------------------- */

/* The figure name of run r: its monitors', else its own metrics'. */
static double
run_value(const struct pr_run *r, const char *name)
{
	const struct pr_dataset *ds[2] = { &r->monitors, &r->metrics };
	size_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < ds[k]->n; i++)
			if (strcmp(ds[k]->metrics[i].name, name) == 0)
				return ds[k]->metrics[i].values.n == 1
				    ? ds[k]->metrics[i].values.v[0]
				    : NAN;
	return NAN;
}

static int
counted(const struct pr_run *r, size_t vi)
{
	return r->variant == vi && r->ok && !r->warmup;
}

/* The values of name in the counted runs of variant vi, in run order,
 * NaN where a run has none; *n their count.  NULL when out of memory. */
static double *
run_values(const struct pr_session *s, size_t vi, const char *name, size_t *n)
{
	double *v = malloc((s->nruns + 1) * sizeof(*v));
	size_t i, k = 0;

	if (v == NULL)
		return NULL;
	for (i = 0; i < s->nruns; i++)
		if (counted(&s->runs[i], vi))
			v[k++] = run_value(&s->runs[i], name);
	*n = k;
	return v;
}

/* The explanation's names: nm of them, pointers into the session. */
struct run_names {
	const char **names, **units;
	double **base, **new_;
	size_t n;
};

static void
run_names_release(struct run_names *rn)
{
	size_t k;

	for (k = 0; rn->base != NULL && rn->new_ != NULL && k < rn->n; k++) {
		free(rn->base[k]);
		free(rn->new_[k]);
	}
	free(rn->names);
	free(rn->units);
	free(rn->base);
	free(rn->new_);
}

/* Whether name is among the first n names already taken. */
static int
taken(const struct run_names *rn, const char *name)
{
	size_t k;

	for (k = 0; k < rn->n; k++)
		if (strcmp(rn->names[k], name) == 0)
			return 1;
	return 0;
}

static void
take(struct run_names *rn, const char *name, const char *unit)
{
	if (taken(rn, name))
		return;
	rn->names[rn->n] = name;
	rn->units[rn->n++] = unit;
}

enum pr_status
pr_report_run_explain(struct pr_report_model *m, const char *key, int flags,
    const struct pr_session *s, size_t vi, const enum pr_role *role,
    const char *const *notes, size_t nnotes, struct pr_error *err)
{
	const struct pr_dataset *bd = &s->v[0].data;
	struct pr_explain_input in;
	struct run_names rn;
	double *pb = NULL, *pn = NULL, *wb = NULL, *wn = NULL;
	const char *primary = NULL;
	size_t i, j, k, cap = bd->n + 1, nb, nn;
	enum pr_status st = PR_OK;

	memset(&rn, 0, sizeof(rn));
	if (vi == 0 || vi >= s->nv)
		return pr_error_set(err, PR_EINVAL,
		    "no variant %zu to explain against the baseline", vi);
	/* The monitors' names: the union over the counted runs. */
	for (i = 0; i < s->nruns; i++)
		if (counted(&s->runs[i], 0) || counted(&s->runs[i], vi))
			cap += s->runs[i].monitors.n;
	if (cap == bd->n + 1)
		return PR_OK;
	for (i = 0; i < bd->n && primary == NULL; i++)
		if (role != NULL && role[i] == PR_ROLE_PRIMARY)
			primary = bd->metrics[i].name;
	if (primary == NULL)
		primary = "wall_s";
	rn.names = calloc(cap, sizeof(*rn.names));
	rn.units = calloc(cap, sizeof(*rn.units));
	if (rn.names == NULL || rn.units == NULL)
		goto nomem;
	for (i = 0; i < bd->n; i++)
		if (role != NULL && role[i] == PR_ROLE_SIDE &&
		    strcmp(bd->metrics[i].name, primary) != 0 &&
		    !pr_monitor_is_metric(bd->metrics[i].name))
			take(&rn, bd->metrics[i].name, bd->metrics[i].unit);
	for (i = 0; i < s->nruns; i++)
		if (counted(&s->runs[i], 0) || counted(&s->runs[i], vi))
			for (j = 0; j < s->runs[i].monitors.n; j++)
				take(&rn, s->runs[i].monitors.metrics[j].name,
				    s->runs[i].monitors.metrics[j].unit);
	rn.base = calloc(rn.n + 1, sizeof(*rn.base));
	rn.new_ = calloc(rn.n + 1, sizeof(*rn.new_));
	if (rn.base == NULL || rn.new_ == NULL ||
	    (pb = run_values(s, 0, primary, &nb)) == NULL ||
	    (pn = run_values(s, vi, primary, &nn)) == NULL ||
	    (wb = run_values(s, 0, "wall_s", &nb)) == NULL ||
	    (wn = run_values(s, vi, "wall_s", &nn)) == NULL)
		goto nomem;
	for (k = 0; k < rn.n; k++)
		if ((rn.base[k] = run_values(s, 0, rn.names[k], &nb)) == NULL ||
		    (rn.new_[k] = run_values(s, vi, rn.names[k], &nn)) == NULL)
			goto nomem;
	memset(&in, 0, sizeof(in));
	in.primary = primary;
	in.nmetrics = rn.n;
	in.names = rn.names;
	in.units = rn.units;
	in.base.primary = pb;
	in.base.metric = (const double *const *)rn.base;
	in.base.n = nb;
	in.new_.primary = pn;
	in.new_.metric = (const double *const *)rn.new_;
	in.new_.n = nn;
	in.base.seconds = wb;
	in.new_.seconds = wn;
	in.conf = 0.95;
	st = report_explain_add(m, key, flags, &in, notes, nnotes, err);
	goto out;
nomem:
	st = pr_error_set(err, PR_ENOMEM, "out of memory");
out:
	run_names_release(&rn);
	free(pb);
	free(pn);
	free(wb);
	free(wn);
	return st;
}

/* ---------------------------------------------------------------- *
 * The explanation of a stored pair of variants
 * ---------------------------------------------------------------- */

/*
 * The units of series m of d into v (d->nboots values with boots: each
 * boot's mean, NaN for a boot without a value; else m's values, which
 * must line up with the primary's p: same count and boots), *n their
 * count.  -1 when the series does not line up.
 */
static int
units_of(const struct pr_store_variant_data *d, const struct pr_store_series *m,
    const struct pr_store_series *p, int boots, double *v, size_t *n)
{
	size_t k, j, b, c;

	if (!boots) {
		if (m->n != p->n ||
		    (m->n > 0 &&
			memcmp(m->boot, p->boot, m->n * sizeof(*m->boot)) != 0))
			return -1;
		memcpy(v, m->value, m->n * sizeof(*v));
		*n = m->n;
		return 0;
	}
	for (b = 0; b < d->nboots; b++)
		v[b] = NAN;
	for (k = 0; k < m->n; k = j) {
		double mean = 0;

		b = m->boot[k];
		for (j = k, c = 0; j < m->n && m->boot[j] == b; j++, c++)
			mean += (m->value[j] - mean) / (double)(c + 1);
		if (b < d->nboots)
			v[b] = mean;
	}
	*n = d->nboots;
	return 0;
}

static int
skipped(const char *name, const char *const *skip, size_t nskip)
{
	size_t i;

	for (i = 0; i < nskip; i++)
		if (strcmp(skip[i], name) == 0)
			return 1;
	return 0;
}

enum pr_status
pr_report_store_explain(struct pr_report_model *m, const char *key, int flags,
    const struct pr_store_variant_data *bd,
    const struct pr_store_variant_data *nd, int boots, const char *primary,
    const char *const *skip, size_t nskip, const char *label,
    const char *const *notes, size_t nnotes, struct pr_error *err)
{
	const struct pr_store_series *pb = pr_store_variant_series(bd, primary),
				     *pn = pr_store_variant_series(nd, primary),
				     *xb, *xn;
	const struct pr_store_variant_data *sd[2] = { bd, nd };
	const struct pr_store_series *ps[2] = { pb, pn };
	struct pr_explain_input in;
	const char **names = NULL, **units = NULL;
	double *y[2] = { NULL, NULL }, **x[2] = { NULL, NULL };
	double *secs[2] = { NULL, NULL };
	size_t i, k, s, nm = 0, ny[2] = { 0, 0 }, cap[2], nx;
	enum pr_status st = PR_OK;
	int mon = 0, wall = 1;

	if (pb == NULL || pn == NULL)
		return PR_OK;
	for (i = 0; i < bd->nm && !mon; i++)
		mon = pr_monitor_is_metric(bd->m[i].name) &&
		    pr_store_variant_series(nd, bd->m[i].name) != NULL;
	if (!mon)
		return PR_OK;
	for (s = 0; s < 2; s++)
		cap[s] = (boots ? sd[s]->nboots : ps[s]->n) + 1;
	names = calloc(bd->nm + 1, sizeof(*names));
	units = calloc(bd->nm + 1, sizeof(*units));
	for (s = 0; s < 2; s++) {
		/* Zeroed: clang-analyzer does not follow units_of's copy
		 * (every value read is written there first). */
		y[s] = calloc(cap[s], sizeof(double));
		x[s] = calloc(bd->nm + 1, sizeof(double *));
	}
	if (names == NULL || units == NULL || y[0] == NULL || y[1] == NULL ||
	    x[0] == NULL || x[1] == NULL)
		goto nomem;
	for (s = 0; s < 2; s++)
		(void)units_of(sd[s], ps[s], ps[s], boots, y[s], &ny[s]);
	/* The wall time of each unit, for the system-wide counters' rates:
	 * a boot's rate is its mean count over its mean time. */
	for (s = 0; s < 2 && wall; s++) {
		const struct pr_store_series *w =
		    pr_store_variant_series(sd[s], "wall_s");

		if (w == NULL ||
		    (secs[s] = calloc(cap[s], sizeof(double))) == NULL ||
		    units_of(sd[s], w, ps[s], boots, secs[s], &nx) != 0)
			wall = 0;
	}
	for (i = 0; i < bd->nm; i++) {
		xb = &bd->m[i];
		if (strcmp(xb->name, primary) == 0 ||
		    skipped(xb->name, skip, nskip) ||
		    (xn = pr_store_variant_series(nd, xb->name)) == NULL)
			continue;
		for (s = 0; s < 2; s++)
			if ((x[s][nm] = calloc(cap[s], sizeof(double))) == NULL)
				goto nomem;
		if (units_of(bd, xb, pb, boots, x[0][nm], &nx) != 0 ||
		    units_of(nd, xn, pn, boots, x[1][nm], &nx) != 0) {
			free(x[0][nm]);
			free(x[1][nm]);
			x[0][nm] = x[1][nm] = NULL;
			continue;
		}
		names[nm] = xb->name;
		units[nm++] = xb->unit;
	}
	memset(&in, 0, sizeof(in));
	in.primary = primary;
	in.nmetrics = nm;
	in.names = names;
	in.units = units;
	in.base.primary = y[0];
	in.base.metric = (const double *const *)x[0];
	in.base.n = ny[0];
	in.new_.primary = y[1];
	in.new_.metric = (const double *const *)x[1];
	in.new_.n = ny[1];
	in.base.seconds = wall ? secs[0] : NULL;
	in.new_.seconds = wall ? secs[1] : NULL;
	in.conf = 0.95;
	in.unit = boots ? "boots" : "runs";
	in.label = label;
	st = report_explain_add(m, key, flags, &in, notes, nnotes, err);
	goto out;
nomem:
	st = pr_error_set(err, PR_ENOMEM, "out of memory");
out:
	for (s = 0; s < 2; s++) {
		for (k = 0; x[s] != NULL && k < bd->nm; k++)
			free(x[s][k]);
		free(x[s]);
		free(y[s]);
		free(secs[s]);
	}
	free(names);
	free(units);
	return st;
}

/* ---------------------------------------------------------------- *
 * The explanation of two inputs of `perfreg compare`
 * ---------------------------------------------------------------- */

enum pr_status
pr_explain_strip_monitors(const struct pr_dataset *in, struct pr_dataset *out,
    struct pr_error *err)
{
	const struct pr_metric *a;
	struct pr_metric *b;
	enum pr_status st;
	size_t i, k;

	for (i = 0; i < in->n; i++) {
		a = &in->metrics[i];
		if (pr_monitor_is_metric(a->name))
			continue;
		if ((st = pr_dataset_get(out, a->name, a->unit, a->better, &b,
			 err)) != PR_OK)
			return st;
		b->flags |= a->flags;
		for (k = 0; k < a->values.n; k++)
			if ((st = pr_sample_push(&b->values, a->values.v[k],
				 err)) != PR_OK)
				return st;
	}
	return PR_OK;
}

int
pr_explain_has_monitors(struct pr_dataset *base, struct pr_dataset *new_)
{
	size_t i;

	for (i = 0; i < base->n; i++)
		if (pr_monitor_is_metric(base->metrics[i].name) &&
		    pr_dataset_find(new_, base->metrics[i].name) != NULL)
			return 1;
	return 0;
}

/* Whether d has a metric of a table of runs. */
static int
run_rows(const struct pr_dataset *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->metrics[i].flags & PR_METRIC_RUN_ROW)
			return 1;
	return 0;
}

int
pr_explain_runs_table(const struct pr_dataset *base,
    const struct pr_dataset *new_)
{
	return run_rows(base) && run_rows(new_);
}

/* The values of metric name of d when it has n (the primary's), else
 * NULL: borrowed. */
static const double *
aligned(struct pr_dataset *d, const char *name, size_t n)
{
	struct pr_metric *x = pr_dataset_find(d, name);

	return x != NULL && x->values.n == n ? x->values.v : NULL;
}

/* Whether name is one of the rows of r after the first. */
static int
other_row(const struct pr_report *r, const char *name)
{
	size_t i;

	for (i = 1; i < r->n; i++)
		if (strcmp(r->metrics[i].name, name) == 0)
			return 1;
	return 0;
}

/* pr_report_dataset_explain, or with need_mon 0 its _parsed form. */
static enum pr_status
dataset_explain(struct pr_report_model *m, const char *key, int flags,
    struct pr_dataset *base, struct pr_dataset *new_, const struct pr_report *r,
    int need_mon, struct pr_error *err)
{
	const char *primary = r->n > 0 ? r->metrics[0].name : "";
	struct pr_metric *pb = pr_dataset_find(base, primary),
			 *pn = pr_dataset_find(new_, primary);
	struct pr_explain_input in;
	const char **names = NULL, **units = NULL;
	const double **xb = NULL, **xn = NULL;
	size_t i, nm = 0;
	enum pr_status st = PR_OK;

	if (pb == NULL || pn == NULL ||
	    (need_mon && !pr_explain_has_monitors(base, new_)))
		return PR_OK;
	names = calloc(base->n + 1, sizeof(*names));
	units = calloc(base->n + 1, sizeof(*units));
	xb = calloc(base->n + 1, sizeof(*xb));
	xn = calloc(base->n + 1, sizeof(*xn));
	if (names == NULL || units == NULL || xb == NULL || xn == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < base->n; i++) {
		const char *name = base->metrics[i].name;

		if (strcmp(name, primary) == 0 || other_row(r, name) ||
		    (xb[nm] = aligned(base, name, pb->values.n)) == NULL ||
		    (xn[nm] = aligned(new_, name, pn->values.n)) == NULL)
			continue;
		names[nm] = name;
		units[nm++] = base->metrics[i].unit;
	}
	if (nm == 0)
		goto out; /* nothing beside the primary metrics */
	memset(&in, 0, sizeof(in));
	in.primary = primary;
	in.nmetrics = nm;
	in.names = names;
	in.units = units;
	in.base.primary = pb->values.v;
	in.base.metric = xb;
	in.base.n = pb->values.n;
	in.new_.primary = pn->values.v;
	in.new_.metric = xn;
	in.new_.n = pn->values.n;
	in.base.seconds = aligned(base, "wall_s", pb->values.n);
	in.new_.seconds = aligned(new_, "wall_s", pn->values.n);
	in.conf = 0.95;
	st = report_explain_add(m, key, flags, &in, NULL, 0, err);
out:
	free(names);
	free(units);
	free(xb);
	free(xn);
	return st;
}

enum pr_status
pr_report_dataset_explain(struct pr_report_model *m, const char *key, int flags,
    struct pr_dataset *base, struct pr_dataset *new_, const struct pr_report *r,
    struct pr_error *err)
{
	return dataset_explain(m, key, flags, base, new_, r, 1, err);
}

enum pr_status
pr_report_dataset_explain_parsed(struct pr_report_model *m, const char *key,
    int flags, struct pr_dataset *base, struct pr_dataset *new_,
    const struct pr_report *r, struct pr_error *err)
{
	return dataset_explain(m, key, flags, base, new_, r, 0, err);
}
