/*
 * store/history.c - a campaign's sessions as a series of points, one per
 * session: the mean of one metric of one variant over the session's
 * counted runs and the squared standard error of that mean
 * (perfreg/history.h).  It walks the store through its public interface
 * only (pr_store_sessions, pr_store_each_run).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/history.h"
#include "core/banned.h"

void
pr_history_query_init(struct pr_history_query *q, struct pr_str campaign)
{
	memset(q, 0, sizeof(*q));
	q->campaign = campaign;
	q->since = -1;
}

void
pr_history_release(struct pr_history *h)
{
	size_t i;

	for (i = 0; h->points != NULL && i < h->n; i++)
		free(h->points[i].key);
	free(h->points);
	free(h->variant);
	free(h->metric);
	memset(h, 0, sizeof(*h));
}

/* The figures the runner measures itself, not the benchmark's own. */
static int
runner_metric(const char *name)
{
	static const char *const own[] = { "wall_s", "user_s", "sys_s",
		"maxrss_kib", "ctxsw_vol", "ctxsw_invol", NULL };
	size_t i;

	for (i = 0; own[i] != NULL; i++)
		if (strcmp(own[i], name) == 0)
			return 1;
	return 0;
}

struct walk {
	struct pr_str variant;
	const char *metric; /* asked for; NULL: the default */
	struct pr_history *h;
	int better_set;
	double sum, sumsq; /* of the session being walked */
	size_t n;
	int oom;
};

static int
on_run(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct walk *w = arg;
	struct pr_history *h = w->h;
	const char *pick = NULL;
	size_t i;

	(void)err;
	if (r->warmup || !r->ok || r->variant.n != w->variant.n ||
	    memcmp(r->variant.p, w->variant.p, w->variant.n) != 0)
		return 0;
	if (h->metric == NULL) {
		if (w->metric != NULL) {
			for (i = 0; i < r->nm && pick == NULL; i++)
				if (strcmp(r->metric_names[i], w->metric) == 0)
					pick = w->metric;
		} else {
			for (i = 0; i < r->nm && pick == NULL; i++)
				if (!runner_metric(r->metric_names[i]))
					pick = r->metric_names[i];
			for (i = 0; i < r->nm && pick == NULL; i++)
				if (strcmp(r->metric_names[i], "wall_s") == 0)
					pick = r->metric_names[i];
		}
		if (pick == NULL)
			return 0;
		if ((h->metric = strdup(pick)) == NULL) {
			w->oom = 1;
			return -1;
		}
	}
	for (i = 0; i < r->nm; i++) {
		double v = r->metric_values[i];

		if (strcmp(h->metric, r->metric_names[i]) != 0 || !isfinite(v))
			continue;
		if (!w->better_set) {
			h->better = r->metric_better[i];
			w->better_set = 1;
		}
		w->sum += v;
		w->sumsq += v * v;
		w->n++;
		break;
	}
	return 0;
}

static int
ran_variant(const struct pr_store_session_info *s, struct pr_str v)
{
	size_t i;

	for (i = 0; i < s->nvariants; i++)
		if (s->variants[i].n == v.n &&
		    memcmp(s->variants[i].p, v.p, v.n) == 0)
			return 1;
	return 0;
}

/* The session's value of tag key, copied into *out (NULL when it has
 * none); -1 when the copy fails. */
static int
tag_of(const struct pr_store_session_info *s, const char *key, char **out)
{
	size_t i, kl = strlen(key);

	*out = NULL;
	for (i = 0; i < s->ntags; i++)
		if (s->tags[i].key.n == kl &&
		    memcmp(s->tags[i].key.p, key, kl) == 0) {
			*out = strndup(s->tags[i].value.p, s->tags[i].value.n);
			return *out == NULL ? -1 : 0;
		}
	return 0;
}

/* The variant named v among vs, or NULL. */
static const struct pr_store_variant_info *
find_variant(const struct pr_store_variant_info *vs, size_t n, const char *v)
{
	size_t i, l = strlen(v);

	for (i = 0; i < n; i++)
		if (vs[i].name.n == l && memcmp(vs[i].name.p, v, l) == 0)
			return &vs[i];
	return NULL;
}

static enum pr_status
collect(struct pr_store *st, const struct pr_history_query *q,
    const struct pr_store_session_info *ss, size_t nss, struct walk *w,
    struct pr_error *err)
{
	struct pr_history *h = w->h;
	enum pr_status rc;
	size_t i;

	if ((h->points = calloc(nss, sizeof(*h->points))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < nss; i++) {
		const struct pr_store_session_info *s = &ss[i];
		struct pr_history_point *p = &h->points[h->n];
		double mean, ss2;

		if (!ran_variant(s, w->variant) ||
		    (q->host != NULL && strcmp(s->host, q->host) != 0) ||
		    (q->since >= 0 && s->started < q->since))
			continue;
		h->matched++;
		w->sum = w->sumsq = 0;
		w->n = 0;
		if ((rc = pr_store_each_run(st, s->id, on_run, w, err)) !=
		    PR_OK)
			return w->oom
			    ? pr_error_set(err, PR_ENOMEM, "out of memory")
			    : rc;
		if (w->n == 0) {
			h->skipped++;
			continue;
		}
		mean = w->sum / (double)w->n;
		ss2 = w->sumsq - (double)w->n * mean * mean;
		p->session = s->id;
		p->started = s->started;
		p->n = w->n;
		p->mean = mean;
		p->var = w->n >= 2 && ss2 > 0
		    ? ss2 / (double)(w->n - 1) / (double)w->n
		    : 0;
		if (q->tag != NULL && tag_of(s, q->tag, &p->key) < 0)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		h->n++;
	}
	return PR_OK;
}

enum pr_status
pr_history_collect(struct pr_store *st, const struct pr_history_query *q,
    struct pr_history *h, struct pr_error *err)
{
	struct pr_store_session_info *ss = NULL;
	struct pr_store_variant_info *vs = NULL;
	const struct pr_store_variant_info *v;
	size_t nss = 0, nvs = 0;
	struct walk w;
	enum pr_status rc;

	memset(h, 0, sizeof(*h));
	memset(&w, 0, sizeof(w));
	if ((rc = pr_store_variants(st, q->campaign, &vs, &nvs, err)) !=
		PR_OK ||
	    (rc = pr_store_sessions(st, q->campaign, &ss, &nss, err)) != PR_OK)
		goto out;
	if (nvs == 0 || nss == 0) {
		rc = pr_error_set(err, PR_ENOTFOUND,
		    "campaign '%.*s' has no sessions",
		    (int)(q->campaign.n > 200 ? 200 : q->campaign.n),
		    q->campaign.p);
		goto out;
	}
	v = q->variant != NULL ? find_variant(vs, nvs, q->variant) : &vs[0];
	if (v == NULL) {
		rc = pr_error_set(err, PR_ENOTFOUND,
		    "campaign '%.*s' has no variant '%.200s'",
		    (int)(q->campaign.n > 200 ? 200 : q->campaign.n),
		    q->campaign.p, q->variant);
		goto out;
	}
	/* A copy that keeps every byte of the name (it may hold a NUL). */
	if ((h->variant = malloc(v->name.n + 1)) == NULL) {
		rc = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	if (v->name.n > 0)
		memcpy(h->variant, v->name.p, v->name.n);
	h->variant[v->name.n] = '\0';
	h->variant_len = v->name.n;
	w.variant.p = h->variant;
	w.variant.n = v->name.n;
	w.metric = q->metric;
	w.h = h;
	rc = collect(st, q, ss, nss, &w, err);
out:
	if (ss != NULL)
		pr_store_sessions_free(ss, nss);
	if (vs != NULL)
		pr_store_variants_free(vs, nvs);
	if (rc != PR_OK)
		pr_history_release(h);
	return rc;
}
