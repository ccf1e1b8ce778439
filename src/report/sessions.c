/*
 * report/sessions.c - the session-level table of `perfreg suite`
 * (perfreg/report_sessions.h): every figure's mean in the new session
 * against its means in the earlier sessions, by the prediction test of
 * stats/nested.c (pr_nested_predict: t with k - 1 degrees of freedom,
 * sqrt(1 + 1/k), a Fieller interval), Holm across the figures
 * (pr_compare_holm; Holm, Scand. J. Statist. 6 (1979) 65-70).
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

enum pr_status
pr_report_sessions_compare(struct pr_dataset *hist, size_t nh,
    const struct pr_dataset *cur, const struct pr_verdict_opts *o,
    struct pr_report_sessions *out, struct pr_error *err)
{
	struct pr_comparison *cmp = NULL;
	struct pr_verdict_opts vo;
	const struct pr_metric *m, *hm;
	enum pr_status st = PR_OK;
	double *bm, *xs;
	size_t i, h, k, nm = 0, total = cur->n;

	memset(out, 0, sizeof(*out));
	if (o == NULL) {
		pr_verdict_opts_init(&vo);
		o = &vo;
	}
	/* nh earlier means and the new one per figure, in one array. */
	out->metrics = calloc(total + 1, sizeof(*out->metrics));
	out->means = calloc((total + 1) * (nh + 1), sizeof(*out->means));
	cmp = calloc(total + 1, sizeof(*cmp));
	if (out->metrics == NULL || out->means == NULL || cmp == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < cur->n; i++) {
		m = &cur->metrics[i];
		if (m->values.n == 0)
			continue;
		bm = &out->means[nm * (nh + 1)];
		xs = bm + nh;
		for (h = 0, k = 0; h < nh; h++) {
			hm = pr_dataset_find(&hist[h], m->name);
			if (hm != NULL && hm->values.n > 0)
				bm[k++] =
				    pr_report_mean(hm->values.v, hm->values.n);
		}
		if (k < 2)
			continue;
		*xs = pr_report_mean(m->values.v, m->values.n);
		if ((st = pr_nested_predict(bm, k, *xs, m->better, o, &cmp[nm],
			 err)) != PR_OK) {
			/* The figure first, as the command shows it. */
			char msg[PR_ERROR_MSG_MAX];

			snprintf(msg, sizeof(msg), "%s",
			    err != NULL ? err->msg : "");
			pr_error_set(err, st, "%s: %s", m->name, msg);
			goto out;
		}
		out->metrics[nm].name = m->name;
		out->metrics[nm].unit = m->unit;
		out->metrics[nm].base_values = bm;
		out->metrics[nm].base_n = k;
		out->metrics[nm].new_values = xs;
		out->metrics[nm].new_n = 1;
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
