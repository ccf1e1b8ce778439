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
#include "perfreg/monitor.h"
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

/* What one metric's walk gathers of the session being walked. */
struct acc {
	double sum, sumsq;
	size_t n;
	int better_set;
};

struct walk {
	struct pr_str variant;
	const char *const *names; /* k names asked for; NULL: the default */
	size_t k;
	struct pr_history *h; /* k histories */
	struct acc *acc;      /* k accumulators */
	int oom;
};

/* The default metric of the first counted run: the first figure of the
 * benchmark's own (never a monitor's, "mon.*"), else wall_s; NULL when
 * it has neither. */
static const char *
default_metric(const struct pr_store_run_rec *r)
{
	size_t i;

	for (i = 0; i < r->nm; i++)
		if (!runner_metric(r->metric_names[i]) &&
		    !pr_monitor_is_metric(r->metric_names[i]))
			return r->metric_names[i];
	for (i = 0; i < r->nm; i++)
		if (strcmp(r->metric_names[i], "wall_s") == 0)
			return r->metric_names[i];
	return NULL;
}

/* Adds the run's value of h->metric (when it has one) to a. */
static void
add_value(const struct pr_store_run_rec *r, struct pr_history *h, struct acc *a)
{
	size_t i;

	for (i = 0; i < r->nm; i++) {
		double v = r->metric_values[i];

		if (strcmp(h->metric, r->metric_names[i]) != 0 || !isfinite(v))
			continue;
		if (!a->better_set) {
			h->better = r->metric_better[i];
			a->better_set = 1;
		}
		a->sum += v;
		a->sumsq += v * v;
		a->n++;
		return;
	}
}

static int
on_run(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct walk *w = arg;
	size_t j;

	(void)err;
	if (r->warmup || !r->ok || r->variant.n != w->variant.n ||
	    memcmp(r->variant.p, w->variant.p, w->variant.n) != 0)
		return 0;
	for (j = 0; j < w->k; j++) {
		struct pr_history *h = &w->h[j];

		if (h->metric == NULL) {
			const char *pick = w->names ? w->names[j] : NULL;
			size_t i;

			if (pick == NULL)
				pick = default_metric(r);
			else {
				for (i = 0; i < r->nm; i++)
					/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): a stored run's metrics all have names */
					if (strcmp(r->metric_names[i], pick) ==
					    0)
						break;
				if (i == r->nm)
					pick = NULL;
			}
			if (pick == NULL)
				continue;
			if ((h->metric = strdup(pick)) == NULL) {
				w->oom = 1;
				return -1;
			}
		}
		add_value(r, h, &w->acc[j]);
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
	enum pr_status rc;
	size_t i, j;

	for (j = 0; j < w->k; j++)
		if ((w->h[j].points = calloc(nss ? nss : 1,
			 sizeof(*w->h[j].points))) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < nss; i++) {
		const struct pr_store_session_info *s = &ss[i];

		if (!ran_variant(s, w->variant) ||
		    (q->host != NULL && strcmp(s->host, q->host) != 0) ||
		    (q->since >= 0 && s->started < q->since))
			continue;
		memset(w->acc, 0, w->k * sizeof(*w->acc));
		if ((rc = pr_store_each_run_of(st, s->id, w->variant, on_run, w,
			 err)) != PR_OK)
			return w->oom
			    ? pr_error_set(err, PR_ENOMEM, "out of memory")
			    : rc;
		for (j = 0; j < w->k; j++) {
			struct pr_history *h = &w->h[j];
			struct pr_history_point *p = &h->points[h->n];
			const struct acc *a = &w->acc[j];
			double mean, ss2;

			h->matched++;
			if (a->n == 0) {
				h->skipped++;
				continue;
			}
			mean = a->sum / (double)a->n;
			ss2 = a->sumsq - (double)a->n * mean * mean;
			p->session = s->id;
			p->started = s->started;
			p->n = a->n;
			p->mean = mean;
			p->var = a->n >= 2 && ss2 > 0
			    ? ss2 / (double)(a->n - 1) / (double)a->n
			    : 0;
			if (q->tag != NULL && tag_of(s, q->tag, &p->key) < 0)
				return pr_error_set(err, PR_ENOMEM,
				    "out of memory");
			h->n++;
		}
	}
	return PR_OK;
}

/* The histories of k metrics (names NULL: the default, k 1). */
static enum pr_status
collect_many(struct pr_store *st, const struct pr_history_query *q,
    const char *const *names, size_t k, struct pr_history *out,
    struct pr_error *err)
{
	struct pr_store_session_info *ss = NULL;
	struct pr_store_variant_info *vs = NULL;
	const struct pr_store_session_info *css;
	const struct pr_store_variant_info *v, *cvs;
	size_t nss = 0, nvs = 0, j;
	struct walk w;
	enum pr_status rc;

	memset(out, 0, k * sizeof(*out));
	memset(&w, 0, sizeof(w));
	if (q->variants == NULL &&
	    (rc = pr_store_variants(st, q->campaign, &vs, &nvs, err)) != PR_OK)
		goto out;
	if (q->sessions == NULL &&
	    (rc = pr_store_sessions(st, q->campaign, &ss, &nss, err)) != PR_OK)
		goto out;
	if (q->variants != NULL) {
		cvs = q->variants;
		nvs = q->nvariants;
	} else
		cvs = vs;
	if (q->sessions != NULL) {
		css = q->sessions;
		nss = q->nsessions;
	} else
		css = ss;
	if (nvs == 0 || nss == 0) {
		rc = pr_error_set(err, PR_ENOTFOUND,
		    "campaign '%.*s' has no sessions",
		    (int)(q->campaign.n > 200 ? 200 : q->campaign.n),
		    q->campaign.p);
		goto out;
	}
	v = q->variant != NULL ? find_variant(cvs, nvs, q->variant) : &cvs[0];
	if (v == NULL) {
		rc = pr_error_set(err, PR_ENOTFOUND,
		    "campaign '%.*s' has no variant '%.200s'",
		    (int)(q->campaign.n > 200 ? 200 : q->campaign.n),
		    q->campaign.p, q->variant);
		goto out;
	}
	for (j = 0; j < k; j++) {
		struct pr_history *h = &out[j];

		/* A copy that keeps every byte of the name (it may hold a
		 * NUL). */
		if ((h->variant = malloc(v->name.n + 1)) == NULL) {
			rc = pr_error_set(err, PR_ENOMEM, "out of memory");
			goto out;
		}
		if (v->name.n > 0)
			memcpy(h->variant, v->name.p, v->name.n);
		h->variant[v->name.n] = '\0';
		h->variant_len = v->name.n;
	}
	if ((w.acc = calloc(k, sizeof(*w.acc))) == NULL) {
		rc = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	w.variant.p = out[0].variant;
	w.variant.n = v->name.n;
	w.names = names;
	w.k = k;
	w.h = out;
	rc = collect(st, q, css, nss, &w, err);
out:
	free(w.acc);
	if (ss != NULL)
		pr_store_sessions_free(ss, nss);
	if (vs != NULL)
		pr_store_variants_free(vs, nvs);
	if (rc != PR_OK)
		for (j = 0; j < k; j++)
			pr_history_release(&out[j]);
	return rc;
}

enum pr_status
pr_history_collect(struct pr_store *st, const struct pr_history_query *q,
    struct pr_history *h, struct pr_error *err)
{
	const char *name = q->metric;

	return collect_many(st, q, name ? &name : NULL, 1, h, err);
}

enum pr_status
pr_history_collect_many(struct pr_store *st, const struct pr_history_query *q,
    const char *const *names, size_t k, struct pr_history *out,
    struct pr_error *err)
{
	if (k == 0 || names == NULL)
		return pr_error_set(err, PR_EINVAL, "no metric asked for");
	return collect_many(st, q, names, k, out, err);
}
