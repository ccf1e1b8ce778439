/*
 * report/explain_suite.c - the explanation of `perfreg suite --monitor`
 * and `suite ab --monitor` (perfreg/explain.h): for each figure of the
 * suite's comparison that changed, the monitors' figures read around
 * the samples of its probe (perfreg/suite.h: a result's monitors, one
 * value a sample) are tested and ranked against it as `run`'s are
 * against its primary metric, with the suite's unit, the process: each
 * process's value of the figure, by its probe's rule as the verdict
 * takes it (pr_suite_unit_value: its mean, or its best sample), and its
 * mean of every monitor figure are one value (for `suite ab` the caller
 * passes each process's values by that rule, pr_suite_ab_values) (a
 * sample is not an independent replicate, issue 10), and the
 * system-wide counters are taken per second of the samples (PR_MON_WALL,
 * each process's mean sample time).  For `suite` the processes are
 * those of the base sessions and of the new ones, read from the store
 * (each run of the probe's variant a sample, its round its process); for
 * `suite ab` those of A and of B, in memory.  The figure is taken in
 * logs (pr_explain_input.log_primary), as the verdict takes it, and the
 * heading gives the verdict's change.  A figure that no process
 * has monitor figures for, or with fewer than 2 processes a side, has no
 * explanation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/explain.h"
#include "perfreg/monitor.h"
#include "perfreg/store.h"
#include "perfreg/suite.h"

#include "core/banned.h"

/* The processes of one side: each one's samples of the probe's figures
 * (fig[u]) and of the monitors (mon[u]: the same dataset when both are
 * in one). */
struct side {
	struct pr_dataset **fig, **mon;
	size_t n;
};

/* Metric name's value in d by rule (pr_suite_unit_value), or NaN. */
static double
value_of(struct pr_dataset *d, const char *name, enum pr_probe_figure rule)
{
	struct pr_metric *m = pr_dataset_find(d, name);

	if (m == NULL || m->values.n == 0)
		return NAN;
	return pr_suite_unit_value(m->values.v, m->values.n, m->better, rule);
}

/* The values of one side: the processes that have the figure. */
struct vals {
	double *primary, *seconds, **metric;
	size_t n;
};

static void
vals_release(struct vals *v, size_t nmetrics)
{
	size_t j;

	free(v->primary);
	free(v->seconds);
	for (j = 0; v->metric != NULL && j < nmetrics; j++)
		free(v->metric[j]);
	free(v->metric);
	memset(v, 0, sizeof(*v));
}

static enum pr_status
vals_fill(struct vals *v, const struct side *s, const char *figure,
    enum pr_probe_figure rule, const struct pr_dataset *names,
    struct pr_error *err)
{
	size_t u, j;
	double y;
	int timed = 1;

	memset(v, 0, sizeof(*v));
	v->primary = calloc(s->n + 1, sizeof(*v->primary));
	v->seconds = calloc(s->n + 1, sizeof(*v->seconds));
	v->metric = calloc(names->n + 1, sizeof(*v->metric));
	if (v->primary == NULL || v->seconds == NULL || v->metric == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (j = 0; j < names->n; j++)
		if ((v->metric[j] = calloc(s->n + 1, sizeof(double))) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (u = 0; u < s->n; u++) {
		if (isnan(y = value_of(s->fig[u], figure, rule)))
			continue;
		v->primary[v->n] = y;
		v->seconds[v->n] =
		    value_of(s->mon[u], PR_MON_WALL, PR_PROBE_FIGURE_MEAN);
		if (!(v->seconds[v->n] > 0))
			timed = 0;
		for (j = 0; j < names->n; j++)
			v->metric[j][v->n] = value_of(s->mon[u],
			    names->metrics[j].name, PR_PROBE_FIGURE_MEAN);
		v->n++;
	}
	if (!timed) {
		free(v->seconds);
		v->seconds = NULL;
	}
	return PR_OK;
}

/* Adds to names every monitor figure of the side's processes but the
 * sample time. */
static enum pr_status
names_add(struct pr_dataset *names, const struct side *s, struct pr_error *err)
{
	const struct pr_metric *m;
	struct pr_metric *got;
	size_t u, k;

	for (u = 0; u < s->n; u++)
		for (k = 0; k < s->mon[u]->n; k++) {
			m = &s->mon[u]->metrics[k];
			if (!pr_monitor_is_metric(m->name) ||
			    strcmp(m->name, PR_MON_WALL) == 0 ||
			    m->values.n == 0)
				continue;
			if (pr_dataset_get(names, m->name, m->unit, m->better,
				&got, err) != PR_OK)
				return PR_ENOMEM;
		}
	return PR_OK;
}

/* The explanation of figure between the sides, each process's figure
 * taken by rule, added to m (nothing when it cannot be made). */
static enum pr_status
explain_figure(struct pr_report_model *m, const char *key, int flags,
    const char *figure, enum pr_probe_figure rule,
    const struct pr_comparison *verdict, const struct side *b,
    const struct side *n, const char *const *notes, size_t nnotes,
    struct pr_error *err)
{
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_dataset names;
	struct vals vb, vn;
	struct pr_error why;
	const char **nm = NULL, **un = NULL;
	enum pr_status st;
	size_t j;

	memset(&vb, 0, sizeof(vb));
	memset(&vn, 0, sizeof(vn));
	pr_dataset_init(&names);
	pr_explain_init(&e);
	if ((st = names_add(&names, b, err)) != PR_OK ||
	    (st = names_add(&names, n, err)) != PR_OK)
		goto out;
	if (names.n == 0)
		goto out;
	if ((st = vals_fill(&vb, b, figure, rule, &names, err)) != PR_OK ||
	    (st = vals_fill(&vn, n, figure, rule, &names, err)) != PR_OK)
		goto out;
	if (vb.n < 2 || vn.n < 2)
		goto out;
	nm = calloc(names.n, sizeof(*nm));
	un = calloc(names.n, sizeof(*un));
	if (nm == NULL || un == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	for (j = 0; j < names.n; j++) {
		nm[j] = names.metrics[j].name;
		un[j] = names.metrics[j].unit;
	}
	memset(&in, 0, sizeof(in));
	in.primary = figure;
	in.nmetrics = names.n;
	in.names = nm;
	in.units = un;
	in.base.primary = vb.primary;
	in.base.metric = (const double *const *)vb.metric;
	in.base.n = vb.n;
	/* Per second only when both sides have every sample time. */
	in.base.seconds = vn.seconds != NULL ? vb.seconds : NULL;
	in.new_.primary = vn.primary;
	in.new_.metric = (const double *const *)vn.metric;
	in.new_.n = vn.n;
	in.new_.seconds = vb.seconds != NULL ? vn.seconds : NULL;
	in.conf = 0.95;
	in.unit = "processes";
	in.log_primary = 1;
	pr_error_clear(&why);
	if ((st = pr_explain_compute(&in, &e, &why)) == PR_OK) {
		/* The heading gives the verdict's change: the same figure
		 * where the units are the verdict's (suite ab's processes),
		 * and the one the table shows where they are not (suite's
		 * sessions, whose processes are the units here, each one's
		 * value by the same rule); the shares stay of the
		 * processes' log change. */
		if (verdict->have_change)
			e.primary_change = verdict->change_pct / 100;
		st = pr_report_explain(m, key, flags, &e, &in, notes, nnotes,
		    err);
	} else if (st == PR_ENOMEM)
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
	else
		st = PR_OK; /* too few processes: no explanation */
out:
	free(nm);
	free(un);
	vals_release(&vb, names.n);
	vals_release(&vn, names.n);
	pr_explain_release(&e);
	pr_dataset_release(&names);
	return st;
}

/* ---------------------------------------------------------------- *
 * suite: the processes of stored sessions
 * ---------------------------------------------------------------- */

/* The processes of one probe's variant in the sessions read so far. */
struct loaded {
	const char *label;
	struct pr_dataset *unit;
	struct pr_dataset **ptr;
	size_t *round, n, cap, first; /* first: this session's first */
	int failed;
};

static void
loaded_release(struct loaded *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		pr_dataset_release(&l->unit[i]);
	free(l->unit);
	free(l->ptr);
	free(l->round);
	memset(l, 0, sizeof(*l));
}

static int
load_run(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct loaded *l = arg;
	struct pr_dataset *d = NULL;
	size_t i;

	if (!r->ok || r->warmup || strlen(l->label) != r->variant.n ||
	    memcmp(l->label, r->variant.p, r->variant.n) != 0)
		return 0;
	for (i = l->first; i < l->n && d == NULL; i++)
		if (l->round[i] == r->round)
			d = &l->unit[i];
	if (d == NULL) {
		if (l->n == l->cap) {
			size_t cap = l->cap ? 2 * l->cap : 16, *nr;
			struct pr_dataset *nu;

			if ((nr = realloc(l->round, cap * sizeof(*nr))) ==
			    NULL) {
				pr_error_set(err, PR_ENOMEM, "out of memory");
				return 1;
			}
			l->round = nr;
			if ((nu = realloc(l->unit, cap * sizeof(*nu))) ==
			    NULL) {
				pr_error_set(err, PR_ENOMEM, "out of memory");
				return 1;
			}
			l->unit = nu;
			l->cap = cap;
		}
		l->round[l->n] = r->round;
		d = &l->unit[l->n++];
		pr_dataset_init(d);
	}
	for (i = 0; i < r->nm; i++)
		if (pr_dataset_add(d, r->metric_names[i], r->metric_units[i],
			r->metric_better[i], r->metric_values[i], err) != PR_OK)
			return 1;
	return 0;
}

/* Reads the processes of variant label in sessions ids[0..n) into l
 * and points side s at them. */
static enum pr_status
load_side(struct pr_store *st, const int64_t *ids, size_t n, const char *label,
    struct loaded *l, struct side *s, struct pr_error *err)
{
	enum pr_status rc;
	size_t h, u;

	memset(l, 0, sizeof(*l));
	l->label = label;
	for (h = 0; h < n; h++) {
		l->first = l->n;
		if ((rc = pr_store_each_run_of(st, ids[h], pr_str_c(label),
			 load_run, l, err)) != PR_OK)
			return rc;
	}
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	if ((l->ptr = calloc(l->n + 1, sizeof(*l->ptr))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (u = 0; u < l->n; u++)
		l->ptr[u] = &l->unit[u];
	s->fig = s->mon = l->ptr;
	s->n = l->n;
	return PR_OK;
}

/* The result of r[0..nr) that has figure name (and monitor figures). */
static const struct pr_suite_result *
result_of(const struct pr_suite_result *r, size_t nr, const char *name)
{
	size_t i, k;

	for (i = 0; i < nr; i++) {
		if (r[i].skipped != NULL || r[i].monitors.n == 0)
			continue;
		for (k = 0; k < r[i].data.n; k++)
			if (strcmp(r[i].data.metrics[k].name, name) == 0)
				return &r[i];
	}
	return NULL;
}

enum pr_status
pr_report_suite_explain(struct pr_report_model *m, const char *key, int flags,
    struct pr_store *st, const int64_t *base, size_t nb, const int64_t *new_,
    size_t nn, const struct pr_suite_result *r, size_t nr,
    const struct pr_suite_cmp *c, const struct pr_suite_figure *fig,
    const char *const *notes, size_t nnotes, struct pr_error *err)
{
	const struct pr_suite_result *res;
	struct loaded lb, ln;
	struct side sb, sn;
	enum pr_status rc = PR_OK;
	size_t i;

	memset(&lb, 0, sizeof(lb));
	memset(&ln, 0, sizeof(ln));
	for (i = 0; i < c->n && rc == PR_OK; i++) {
		const char *name = fig[c->index[i]].name;

		if (!pr_suite_changed(c, i) ||
		    (res = result_of(r, nr, name)) == NULL)
			continue;
		if ((rc = load_side(st, base, nb, res->label, &lb, &sb, err)) ==
			PR_OK &&
		    (rc = load_side(st, new_, nn, res->label, &ln, &sn, err)) ==
			PR_OK)
			rc = explain_figure(m, key, flags, name,
			    res->probe != NULL ? res->probe->figure
					       : PR_PROBE_FIGURE_MEAN,
			    &c->cmp[i], &sb, &sn, notes, nnotes, err);
		loaded_release(&lb);
		loaded_release(&ln);
	}
	return rc;
}

/* ---------------------------------------------------------------- *
 * suite ab: A's and B's processes, in memory
 * ---------------------------------------------------------------- */

enum pr_status
pr_report_suite_ab_explain(struct pr_report_model *m, const char *key,
    int flags, struct pr_dataset *fa, struct pr_dataset *ma,
    struct pr_dataset *fb, struct pr_dataset *mb, size_t np,
    const struct pr_suite_cmp *c, const struct pr_suite_figure *fig,
    const char *const *notes, size_t nnotes, struct pr_error *err)
{
	struct pr_dataset **p;
	struct side sa, sb;
	enum pr_status rc = PR_OK;
	size_t i, u;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	if ((p = calloc(4 * np + 1, sizeof(*p))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (u = 0; u < np; u++) {
		p[u] = &fa[u];
		p[np + u] = &ma[u];
		p[2 * np + u] = &fb[u];
		p[3 * np + u] = &mb[u];
	}
	sa.fig = p;
	sa.mon = p + np;
	sb.fig = p + 2 * np;
	sb.mon = p + 3 * np;
	sa.n = sb.n = np;
	for (i = 0; i < c->n && rc == PR_OK; i++)
		if (pr_suite_changed(c, i))
			rc = explain_figure(m, key, flags,
			    fig[c->index[i]].name, PR_PROBE_FIGURE_MEAN,
			    &c->cmp[i], &sa, &sb, notes, nnotes, err);
	free(p);
	return rc;
}
