/*
 * report/sessions.c - the session-level table of `perfreg suite`
 * (perfreg/report_sessions.h): every figure's mean in the new sessions
 * against its means in the base sessions, by the prediction test of
 * stats/nested.c for one new session (pr_nested_predict: t with k - 1
 * degrees of freedom, sqrt(1 + 1/k), a Fieller interval) or Welch's t on
 * the session means for several (pr_nested_compare), Holm across the
 * figures (pr_compare_holm; Holm, Scand. J. Statist. 6 (1979) 65-70).
 *
 * The statistics are decided by src/stats; this file only chooses which
 * figures enter and what each side's values are, so that a unit test can
 * check that choice with synthetic sessions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/nested.h"
#include "perfreg/report_sessions.h"
#include "core/banned.h"

double
pr_report_mean(const double *v, size_t n)
{
	double m = 0;
	size_t i;

	for (i = 0; i < n; i++)
		m += (v[i] - m) / (double)(i + 1);
	return m;
}

void
pr_report_sessions_release(struct pr_report_sessions *s)
{
	if (s == NULL)
		return;
	free(s->metrics);
	free(s->means);
	memset(s, 0, sizeof(*s));
}

/* The means of figure name in the n sessions d[] that have it, into v;
 * their number. */
static size_t
session_means(struct pr_dataset *d, size_t n, const char *name, double *v)
{
	const struct pr_metric *m;
	size_t h, k = 0;

	for (h = 0; h < n; h++) {
		m = pr_dataset_find(&d[h], name);
		if (m != NULL && m->values.n > 0)
			v[k++] = pr_report_mean(m->values.v, m->values.n);
	}
	return k;
}

/*
 * One figure, sessions as the units: the kb base sessions' means bv
 * against the kn new ones' nv.  One new session: the prediction test;
 * several: Welch's t on the session means, each session its own group.
 */
static enum pr_status
compare_sessions(const double *bv, size_t kb, const double *nv, size_t kn,
    enum pr_better better, const struct pr_verdict_opts *o,
    struct pr_comparison *out, struct pr_error *err)
{
	struct pr_nested_result nr;
	struct pr_nested_side bs, ns;
	enum pr_status st;
	size_t *g, i;

	if (kn == 1)
		return pr_nested_predict(bv, kb, nv[0], better, o, out, err);
	if ((g = calloc(kb + kn, sizeof(*g))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < kb + kn; i++)
		g[i] = i;
	bs.x = bv;
	bs.group = g;
	bs.n = kb;
	ns.x = nv;
	ns.group = g;
	ns.n = kn;
	st = pr_nested_compare(&bs, &ns, better, o, 0, &nr, err);
	free(g);
	if (st == PR_OK)
		*out = nr.cmp;
	return st;
}

enum pr_status
pr_report_sessions_compare(struct pr_dataset *bd, size_t nb,
    struct pr_dataset *nd, size_t nn, const struct pr_report_figure *fig,
    size_t nfig, const struct pr_verdict_opts *o,
    struct pr_report_sessions *out, struct pr_error *err)
{
	struct pr_comparison *cmp = NULL;
	struct pr_verdict_opts vo;
	enum pr_status st = PR_OK;
	double *bm, *xs;
	size_t i, kb, kn, nm = 0;

	memset(out, 0, sizeof(*out));
	if (nb > PR_REPORT_SESSIONS_MAX || nn > PR_REPORT_SESSIONS_MAX)
		return pr_error_set(err, PR_EINVAL,
		    "more than %d sessions a side", PR_REPORT_SESSIONS_MAX);
	if (o == NULL) {
		pr_verdict_opts_init(&vo);
		o = &vo;
	}
	/* nb base means and nn new ones per figure, in one array. */
	out->metrics = calloc(nfig + 1, sizeof(*out->metrics));
	out->means = calloc((nfig + 1) * (nb + nn + 1), sizeof(*out->means));
	cmp = calloc(nfig + 1, sizeof(*cmp));
	if (out->metrics == NULL || out->means == NULL || cmp == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < nfig; i++) {
		bm = &out->means[nm * (nb + nn + 1)];
		xs = bm + nb;
		kb = session_means(bd, nb, fig[i].name, bm);
		kn = session_means(nd, nn, fig[i].name, xs);
		if (kb < 2 || kn < 1)
			continue;
		if ((st = compare_sessions(bm, kb, xs, kn, fig[i].better, o,
			 &cmp[nm], err)) != PR_OK) {
			/* The figure first, as the command shows it. */
			char msg[PR_ERROR_MSG_MAX];

			snprintf(msg, sizeof(msg), "%s",
			    err != NULL ? err->msg : "");
			pr_error_set(err, st, "%s: %s", fig[i].name, msg);
			goto out;
		}
		out->metrics[nm].name = fig[i].name;
		out->metrics[nm].unit = fig[i].unit;
		out->metrics[nm].base_values = bm;
		out->metrics[nm].base_n = kb;
		out->metrics[nm].new_values = xs;
		out->metrics[nm].new_n = kn;
		nm++;
	}
	if (nm > 1)
		pr_compare_holm(cmp, nm, o);
	for (i = 0; i < nm; i++) {
		out->metrics[i].cmp = cmp[i];
		if (cmp[i].tested && (size_t)cmp[i].holm_m > out->holm_m)
			out->holm_m = (size_t)cmp[i].holm_m;
	}
	out->n = nm;
out:
	free(cmp);
	if (st != PR_OK)
		pr_report_sessions_release(out);
	return st;
}
