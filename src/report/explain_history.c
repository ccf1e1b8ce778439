/*
 * report/explain_history.c - the explanation of `perfreg history`'s
 * latest change (perfreg/explain.h, pr_report_history_explain): the
 * sessions of the segment before the change against those of the
 * segment after it, the session the unit as it is the history's (each
 * session's mean of a metric over its counted runs, perfreg/history.h),
 * every other metric stored with the variant's runs a side metric: the
 * monitors' figures of `run --campaign --monitor` and the runner's own.
 * The system-wide counters are taken per second of each session's mean
 * wall time, as a boot's are in `compare --campaign`.  Sessions on the
 * far side of an earlier or later change are left out: only the two
 * levels the detector put on either side of this change are compared.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/changepoint.h"
#include "perfreg/explain.h"
#include "perfreg/history.h"
#include "perfreg/monitor.h"
#include "perfreg/store.h"
#include "report/internal.h"

#include "core/banned.h"

/* A session and its place in the series. */
struct place {
	int64_t session;
	size_t i;
};

static int
by_session(const void *pa, const void *pb)
{
	const struct place *a = pa, *b = pb;

	return (a->session > b->session) - (a->session < b->session);
}

/* Each session's mean of h into the base side (places in [lo, mid)) or
 * the new side ([mid, hi)); NaN where a session has none. */
static void
spread(const struct pr_history *h, const struct place *pl, size_t n, size_t lo,
    size_t mid, size_t hi, double *base, double *new_)
{
	struct place key = { 0, 0 }, *f;
	size_t k;

	for (k = 0; k < mid - lo; k++)
		base[k] = NAN;
	for (k = 0; k < hi - mid; k++)
		new_[k] = NAN;
	for (k = 0; k < h->n; k++) {
		key.session = h->points[k].session;
		f = bsearch(&key, pl, n, sizeof(*pl), by_session);
		if (f == NULL || f->i < lo || f->i >= hi)
			continue;
		if (f->i < mid)
			base[f->i - lo] = h->points[k].mean;
		else
			new_[f->i - mid] = h->points[k].mean;
	}
}

enum pr_status
pr_report_history_explain(struct pr_report_model *m, const char *key, int flags,
    struct pr_store *st, const struct pr_history_query *q,
    const struct pr_history *h, const int64_t *ids, size_t n,
    const struct pr_cp_change *c, const char *at, struct pr_error *err)
{
	struct pr_store_variant_data d;
	struct pr_history_query hq = *q;
	struct pr_history *side = NULL;
	struct pr_explain_input in;
	struct place *pl = NULL;
	const char **names = NULL, **units = NULL;
	double **x[2] = { NULL, NULL }, *y[2] = { NULL, NULL };
	double *secs[2] = { NULL, NULL };
	size_t nb = c->index - c->seg_start, nn = c->seg_end - c->index;
	size_t i, k, nm = 0, wall = (size_t)-1;
	char label[320];
	enum pr_status s;
	int mon = 0;

	memset(&d, 0, sizeof(d));
	if (h->metric == NULL || nb < 2 || nn < 2 || c->seg_end > n)
		return PR_OK;
	hq.variant = h->variant;
	if ((s = pr_store_load_variant(st, q->campaign,
		 (struct pr_str){ h->variant, h->variant_len }, &d, err)) !=
	    PR_OK)
		return s == PR_ENOTFOUND ? PR_OK : s;
	names = calloc(d.nm + 1, sizeof(*names));
	units = calloc(d.nm + 1, sizeof(*units));
	pl = calloc(n + 1, sizeof(*pl));
	for (k = 0; k < 2; k++)
		x[k] = calloc(d.nm + 1, sizeof(double *));
	if (names == NULL || units == NULL || pl == NULL || x[0] == NULL ||
	    x[1] == NULL)
		goto nomem;
	/* The primary first, wall_s among the others (for the rates). */
	if (strcmp(h->metric, "wall_s") == 0)
		wall = 0;
	names[nm++] = h->metric;
	for (i = 0; i < d.nm; i++) {
		if (strcmp(d.m[i].name, h->metric) == 0)
			continue;
		mon |= pr_monitor_is_metric(d.m[i].name);
		if (strcmp(d.m[i].name, "wall_s") == 0)
			wall = nm;
		units[nm] = d.m[i].unit;
		names[nm++] = d.m[i].name;
	}
	if (!mon || nm < 2)
		goto out;
	if ((side = calloc(nm, sizeof(*side))) == NULL)
		goto nomem;
	if ((s = pr_history_collect_many(st, &hq, names, nm, side, err)) !=
	    PR_OK) {
		free(side);
		side = NULL;
		goto out;
	}
	for (i = 0; i < n; i++) {
		pl[i].session = ids[i];
		pl[i].i = i;
	}
	qsort(pl, n, sizeof(*pl), by_session);
	for (i = 0; i < nm; i++) {
		double *b = malloc((nb + 1) * sizeof(double)),
		       *w = malloc((nn + 1) * sizeof(double));

		if (b == NULL || w == NULL) {
			free(b);
			free(w);
			goto nomem;
		}
		spread(&side[i], pl, n, c->seg_start, c->index, c->seg_end, b,
		    w);
		if (i == 0) {
			y[0] = b;
			y[1] = w;
		} else {
			x[0][i - 1] = b;
			x[1][i - 1] = w;
		}
		if (i == wall) {
			secs[0] = b;
			secs[1] = w;
		}
	}
	snprintf(label, sizeof(label),
	    "the %zu sessions before %.180s against the %zu from it on", nb,
	    at != NULL ? at : "the change", nn);
	memset(&in, 0, sizeof(in));
	in.primary = h->metric;
	in.nmetrics = nm - 1;
	in.names = names + 1;
	in.units = units + 1;
	in.base.primary = y[0];
	in.base.metric = (const double *const *)x[0];
	in.base.n = nb;
	in.base.seconds = secs[0];
	in.new_.primary = y[1];
	in.new_.metric = (const double *const *)x[1];
	in.new_.n = nn;
	in.new_.seconds = secs[1];
	in.conf = 0.95;
	in.unit = "sessions";
	in.label = label;
	s = report_explain_add(m, key, flags, &in, NULL, 0, err);
	goto out;
nomem:
	s = pr_error_set(err, PR_ENOMEM, "out of memory");
out:
	for (k = 0; k < 2; k++) {
		for (i = 0; x[k] != NULL && i + 1 < nm; i++)
			free(x[k][i]);
		free(x[k]);
		free(y[k]);
	}
	for (i = 0; side != NULL && i < nm; i++)
		pr_history_release(&side[i]);
	free(side);
	free(pl);
	free(names);
	free(units);
	pr_store_variant_data_release(&d);
	return s;
}
