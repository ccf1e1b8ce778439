/*
 * report/campaign.c - the report of `perfreg compare --campaign`
 * (perfreg/report_campaign.h): one pair of variants at a time, from the
 * runs, hosts, sessions and environment snapshots the command loaded.
 *
 * The statistics decisions are here, where unit tests reach them with
 * synthetic data: the level (boots as the unit when each side ran in
 * two boots or more, each boot's mean one value), Welch's t on those
 * units unless --method says otherwise (without the rank tests and
 * bootstrap ratios that would only be printed aside), the variance
 * share of the boot (pr_nested_describe), a comparison per host and one
 * across hosts with the host as the unit (pr_campaign_hosts), and which
 * verdicts gate (across hosts the host is the unit: one host alone does
 * not gate).  Everything else is form, given to the report model: a
 * group per pair, sections with their own writers for the variance
 * table, the verdicts across hosts and the changes within a variant.
 *
 * Invariants: what a section borrows lives in a section of the same
 * group that only frees (a "keep" section), so that the model can be
 * rendered as long as it lives; the notes keep the order in which the
 * comparison met them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "perfreg/campaign.h"
#include "perfreg/explain.h"
#include "perfreg/monitor.h"
#include "perfreg/nested.h"
#include "perfreg/report_campaign.h"
#include "report/internal.h"
#include "core/banned.h"

#define NAME_MAX_LEN 512

#define cnote(c, err, ...) \
	report_note_add(&(c)->note, &(c)->nnote, (err), __VA_ARGS__)

void
pr_report_campaign_init(struct pr_report_campaign *c)
{
	memset(c, 0, sizeof(*c));
	pr_report_compare_opts_init(&c->cmp);
}

void
pr_report_campaign_release(struct pr_report_campaign *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nnote; i++)
		free(c->note[i]);
	free(c->note);
	c->note = NULL;
	c->nnote = 0;
}

static enum pr_status
nomem(struct pr_error *err)
{
	return pr_error_set(err, PR_ENOMEM, "out of memory");
}

/* ---------------------------------------------------------------- *
 * What a pair's sections borrow
 * ---------------------------------------------------------------- */

struct body_keep {
	struct pr_dataset base, new;
	struct pr_report_compare_result res;
	struct pr_envdiff diff;
	int have_diff;
	char na[NAME_MAX_LEN], nb[NAME_MAX_LEN];
	char *bn, *nn;  /* the variants' names (the report's sources) */
	char *cell_new; /* "new@host" */
	const char *cell[2];
	const char **primary; /* the pair's stored primaries (borrowed) */
};

static const char *const csv_head[2] = { "base", "new" };

static void
body_free(void *data)
{
	struct body_keep *k = data;

	if (k == NULL)
		return;
	pr_report_compare_result_release(&k->res);
	pr_dataset_release(&k->base);
	pr_dataset_release(&k->new);
	if (k->have_diff)
		pr_envdiff_release(&k->diff);
	free(k->bn);
	free(k->nn);
	free(k->cell_new);
	free(k->primary);
	free(k);
}

static const struct report_writer keep_writer = { NULL, NULL, body_free };

/* ---------------------------------------------------------------- *
 * The variance shares of the boot
 * ---------------------------------------------------------------- */

struct var_row {
	char *name;
	int have_b, have_n;
	double b, n;
};

struct var_rows {
	struct var_row *r;
	size_t n;
};

static void
var_free(void *data)
{
	struct var_rows *v = data;
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; i < v->n; i++)
		free(v->r[i].name);
	free(v->r);
	free(v);
}

static enum pr_status
var_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct var_rows *v = data;
	enum pr_status st = PR_OK;
	size_t i;
	char *e;

	(void)f;
	if (v->n > 0)
		st = pr_buf_adds(out,
		    "\nshare of a run's variance that comes from its boot "
		    "(base, new):\n",
		    err);
	for (i = 0; i < v->n && st == PR_OK; i++) {
		if ((e = pr_report_escape_str(v->r[i].name, 0)) == NULL)
			return nomem(err);
		st = pr_buf_addf(out, err, "  %-24s ", e);
		free(e);
		if (st == PR_OK)
			st = v->r[i].have_b
			    ? pr_buf_addf(out, err, "%5.1f%%", 100 * v->r[i].b)
			    : pr_buf_addf(out, err, "%6s", "-");
		if (st == PR_OK)
			st = v->r[i].have_n
			    ? pr_buf_addf(out, err, "  %5.1f%%\n",
				  100 * v->r[i].n)
			    : pr_buf_addf(out, err, "  %6s\n", "-");
	}
	return st;
}

static json_t *
var_json(const void *data, struct pr_error *err)
{
	const struct var_rows *v = data;
	json_t *arr, *o;
	size_t i;

	if ((arr = json_array()) == NULL)
		goto nomem;
	for (i = 0; i < v->n; i++) {
		o = json_pack("{s:s,s:o,s:o}", "metric", v->r[i].name,
		    "base_boot_share",
		    v->r[i].have_b ? json_real(v->r[i].b) : json_null(),
		    "new_boot_share",
		    v->r[i].have_n ? json_real(v->r[i].n) : json_null());
		if (o == NULL || json_array_append_new(arr, o) != 0)
			goto nomem;
	}
	return arr;
nomem:
	json_decref(arr);
	nomem(err);
	return NULL;
}

static const struct report_writer var_writer = { var_text, var_json, var_free };

/* How much of a run's variance comes from its boot, metric by metric. */
static enum pr_status
variance_part(struct pr_report_model *g, const struct pr_report_campaign *c,
    const struct pr_store_variant_data *bd,
    const struct pr_store_variant_data *nd, struct pr_error *err)
{
	const struct pr_store_series *bm, *nm;
	struct pr_nested_side sb, sn;
	struct pr_nested_desc db, dn;
	struct pr_error e;
	struct var_rows *v;
	struct var_row *r;
	size_t i;

	if ((v = calloc(1, sizeof(*v))) == NULL ||
	    (v->r = calloc(bd->nm + 1, sizeof(*v->r))) == NULL) {
		free(v);
		return nomem(err);
	}
	for (i = 0; i < bd->nm; i++) {
		bm = &bd->m[i];
		if ((nm = pr_store_variant_series(nd, bm->name)) == NULL ||
		    !report_compare_wanted(&c->cmp, bm->name))
			continue;
		sb.x = bm->value;
		sb.group = bm->boot;
		sb.n = bm->n;
		sn.x = nm->value;
		sn.group = nm->boot;
		sn.n = nm->n;
		if (pr_nested_describe(&sb, "base", 0, &db, &e) != PR_OK ||
		    pr_nested_describe(&sn, "new", 0, &dn, &e) != PR_OK)
			continue;
		if (!(db.defined & PR_NESTED_ICC) &&
		    !(dn.defined & PR_NESTED_ICC))
			continue;
		r = &v->r[v->n];
		if ((r->name = strdup(bm->name)) == NULL) {
			var_free(v);
			return nomem(err);
		}
		v->n++;
		r->have_b = (db.defined & PR_NESTED_ICC) != 0;
		r->b = db.icc;
		r->have_n = (dn.defined & PR_NESTED_ICC) != 0;
		r->n = dn.icc;
	}
	return report_model_writer(g, "variance", 0, &var_writer, v, err);
}

/* ---------------------------------------------------------------- *
 * The environment
 * ---------------------------------------------------------------- */

/* The session called id, or NULL. */
static const struct pr_report_campaign_session *
session_of(const struct pr_report_campaign *c, int64_t id)
{
	size_t i;

	for (i = 0; i < c->nsess; i++)
		if (c->sess[i].id == id)
			return &c->sess[i];
	return NULL;
}

/* The diff of the two sides' first sessions. */
static enum pr_status
env_first(struct pr_report_model *g, const struct pr_report_campaign *c,
    const struct pr_store_variant_data *bd,
    const struct pr_store_variant_data *nd, const char *bn, const char *nn,
    struct body_keep *k, struct pr_error *err)
{
	const struct pr_report_campaign_session *a, *b;
	enum pr_status st;

	if (bd->nboots == 0 || nd->nboots == 0)
		return PR_OK;
	a = session_of(c, bd->boot_session[0]);
	b = session_of(c, nd->boot_session[0]);
	if (a == NULL || b == NULL || a->env == NULL || b->env == NULL)
		return pr_report_model_textf(g, PR_SECTION_TEXT, NULL, 0, err,
		    "\nenvironment: no snapshot stored on one side\n");
	if ((st = pr_env_diff(a->env, b->env, &k->diff, err)) != PR_OK)
		return st;
	k->have_diff = 1;
	snprintf(k->na, sizeof(k->na), "%s (session %lld)", bn,
	    (long long)bd->boot_session[0]);
	snprintf(k->nb, sizeof(k->nb), "%s (session %lld)", nn,
	    (long long)nd->boot_session[0]);
	if ((st = pr_report_model_textf(g, PR_SECTION_TEXT, NULL, 0, err,
		 "\nenvironment: what differs between %s and %s\n", k->na,
		 k->nb)) != PR_OK)
		return st;
	return pr_report_model_envdiff(g, "env_diff", 0, &k->diff, k->na, k->nb,
	    20, err);
}

struct within_e {
	char *variant;
	long boot_a, boot_b; /* from 1 */
	int64_t session_a, session_b;
	struct pr_envdiff diff;
	char na[64], nb[64];
};

struct within {
	struct within_e *e;
	size_t n, cap;
};

static void
within_free(void *data)
{
	struct within *w = data;
	size_t i;

	if (w == NULL)
		return;
	for (i = 0; i < w->n; i++) {
		free(w->e[i].variant);
		pr_envdiff_release(&w->e[i].diff);
	}
	free(w->e);
	free(w);
}

static enum pr_status
within_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct within *w = data;
	const struct within_e *e;
	enum pr_status st = PR_OK;
	size_t i;

	(void)f;
	for (i = 0; i < w->n && st == PR_OK; i++) {
		e = &w->e[i];
		st = e->boot_a != e->boot_b
		    ? pr_buf_addf(out, err,
			  "\nenvironment: differs within variant %s between "
			  "boots %ld and %ld (sessions %lld and %lld)\n",
			  e->variant, e->boot_a, e->boot_b,
			  (long long)e->session_a, (long long)e->session_b)
		    : pr_buf_addf(out, err,
			  "\nenvironment: differs within variant %s in boot "
			  "%ld between sessions %lld and %lld\n",
			  e->variant, e->boot_b, (long long)e->session_a,
			  (long long)e->session_b);
		if (st == PR_OK)
			st = pr_envdiff_format_text(&e->diff, e->na, e->nb, 20,
			    out, err);
	}
	return st;
}

static json_t *
within_json(const void *data, struct pr_error *err)
{
	const struct within *w = data;
	const struct within_e *e;
	json_t *arr, *o, *d;
	size_t i;

	if ((arr = json_array()) == NULL)
		goto nomem;
	for (i = 0; i < w->n; i++) {
		e = &w->e[i];
		if ((d = report_envdiff_json(&e->diff)) == NULL)
			goto nomem;
		o = json_pack("{s:s,s:I,s:I,s:I,s:I,s:o}", "variant",
		    e->variant, "boot_a", (json_int_t)e->boot_a, "boot_b",
		    (json_int_t)e->boot_b, "session_a",
		    (json_int_t)e->session_a, "session_b",
		    (json_int_t)e->session_b, "diff", d);
		if (o == NULL || json_array_append_new(arr, o) != 0)
			goto nomem;
	}
	return arr;
nomem:
	json_decref(arr);
	nomem(err);
	return NULL;
}

static const struct report_writer within_writer = { within_text, within_json,
	within_free };

static int
str_eq(struct pr_str a, struct pr_str b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

/* The index of session si's boot among d's boots, or -1. */
static long
session_boot(const struct pr_store_variant_data *d,
    const struct pr_report_campaign_session *si, struct pr_str var)
{
	size_t i;
	int ran = 0;

	for (i = 0; i < si->nvariants && !ran; i++)
		ran = str_eq(si->variants[i], var);
	for (i = 0; ran && i < d->nboots; i++)
		if (strcmp(d->boot_ids[i], si->boot_id) == 0)
			return (long)i;
	return -1;
}

/*
 * What changed between consecutive sessions of one variant (every
 * session of d's boots that ran var, in order of start, with a
 * snapshot): each diff that holds a changed item or a relevant kernel
 * log line.
 */
static enum pr_status
within_part(struct within *w, const struct pr_report_campaign *c,
    const struct pr_store_variant_data *d, struct pr_str var, const char *name,
    struct pr_error *err)
{
	const struct pr_report_campaign_session *prev = NULL;
	struct within_e *e;
	struct pr_envdiff diff;
	enum pr_status st;
	size_t i, cap;
	long pb = -1, boot;

	for (i = 0; i < c->nsess; i++) {
		if ((boot = session_boot(d, &c->sess[i], var)) < 0 ||
		    c->sess[i].env == NULL)
			continue;
		if (prev != NULL) {
			if ((st = pr_env_diff(prev->env, c->sess[i].env, &diff,
				 err)) != PR_OK)
				return st;
			if (diff.n == 0 && diff.nrel_a + diff.nrel_b == 0) {
				pr_envdiff_release(&diff);
			} else {
				if (w->n == w->cap) {
					cap = w->cap > 0 ? 2 * w->cap : 4;
					if ((e = realloc(w->e,
						 cap * sizeof(*e))) == NULL) {
						pr_envdiff_release(&diff);
						return nomem(err);
					}
					w->e = e;
					w->cap = cap;
				}
				e = &w->e[w->n];
				memset(e, 0, sizeof(*e));
				e->diff = diff;
				if ((e->variant = strdup(name)) == NULL) {
					pr_envdiff_release(&e->diff);
					return nomem(err);
				}
				w->n++;
				e->boot_a = pb + 1;
				e->boot_b = boot + 1;
				e->session_a = prev->id;
				e->session_b = c->sess[i].id;
				if (pb != boot) {
					snprintf(e->na, sizeof(e->na),
					    "boot %ld", pb + 1);
					snprintf(e->nb, sizeof(e->nb),
					    "boot %ld", boot + 1);
				} else {
					snprintf(e->na, sizeof(e->na),
					    "session %lld",
					    (long long)prev->id);
					snprintf(e->nb, sizeof(e->nb),
					    "session %lld",
					    (long long)c->sess[i].id);
				}
			}
		}
		prev = &c->sess[i];
		pb = boot;
	}
	return PR_OK;
}

/* ---------------------------------------------------------------- *
 * One comparison of two sets of runs
 * ---------------------------------------------------------------- */

/*
 * The dataset of one variant: each boot's mean when boots (boot level),
 * else every run.  The monitors' figures ("mon.*", perfreg/monitor.h)
 * are left out: the explanation ranks them (pr_report_store_explain).
 */
static enum pr_status
side_dataset(const struct pr_store_variant_data *d, int boots,
    struct pr_dataset *out, struct pr_error *err)
{
	const struct pr_store_series *m;
	enum pr_status st = PR_OK;
	size_t i, k, j, b;
	double mean;

	for (i = 0; i < d->nm && st == PR_OK; i++) {
		m = &d->m[i];
		if (pr_monitor_is_metric(m->name))
			continue;
		for (k = 0; !boots && k < m->n && st == PR_OK; k++)
			st = pr_dataset_add(out, m->name, m->unit, m->better,
			    m->value[k], err);
		for (k = 0; boots && k < m->n && st == PR_OK; k = j) {
			b = m->boot[k];
			mean = 0;
			for (j = k; j < m->n && m->boot[j] == b; j++)
				mean +=
				    (m->value[j] - mean) / (double)(j - k + 1);
			st = pr_dataset_add(out, m->name, m->unit, m->better,
			    mean, err);
		}
		/* The parsers' result marks, as the runs were stored. */
		if (st == PR_OK && m->n > 0)
			pr_dataset_find(out, m->name)->flags |= m->flags;
	}
	return st;
}

/*
 * The --primary names stored with the sessions of both variants (full,
 * not one host's), each once, base's first, into *out (borrowed names;
 * the array is the caller's).
 */
static enum pr_status
stored_primary(const struct pr_store_variant_data *b,
    const struct pr_store_variant_data *n, const char ***out, size_t *nout,
    struct pr_error *err)
{
	const struct pr_store_variant_data *side[2] = { b, n };
	size_t s, i, j;

	*nout = 0;
	if (b->nprimary + n->nprimary == 0)
		return PR_OK;
	if ((*out = calloc(b->nprimary + n->nprimary, sizeof(**out))) == NULL)
		return nomem(err);
	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s]->nprimary; i++) {
			for (j = 0; j < *nout; j++)
				if (strcmp((*out)[j], side[s]->primary[i]) == 0)
					break;
			if (j == *nout)
				(*out)[(*nout)++] = side[s]->primary[i];
		}
	return PR_OK;
}

/* The explanation of the comparison r by the monitors' figures, against
 * its first primary metric (perfreg/explain.h). */
static enum pr_status
explain_part(struct pr_report_model *g, const struct pr_report *r,
    const struct pr_store_variant_data *bd,
    const struct pr_store_variant_data *nd, int boots, struct pr_error *err)
{
	const char **skip;
	enum pr_status st;
	size_t i;

	if (r->n == 0)
		return PR_OK;
	if ((skip = calloc(r->n, sizeof(*skip))) == NULL)
		return nomem(err);
	for (i = 1; i < r->n; i++)
		skip[i - 1] = r->metrics[i].name;
	st = pr_report_store_explain(g, "explanation", 0, bd, nd, boots,
	    r->metrics[0].name, skip, r->n - 1, NULL, NULL, 0, err);
	free(skip);
	return st;
}

/* Moves the notes of a comparison to the campaign's. */
static enum pr_status
take_notes(struct pr_report_campaign *c, struct pr_report_compare_result *res,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;
	size_t i;

	for (i = 0; i < res->nnote && st == PR_OK; i++)
		st = cnote(c, err, "%s", res->note[i]);
	return st;
}

/*
 * One comparison of bd and nd (of one host, or pooled when the pair ran
 * on one): the level, the comparison, the variance shares and the
 * environment, into the group g.  host names the host (escaped), NULL
 * for none; pair_hosts is the number of hosts of the pair.
 */
static enum pr_status
pair_body(struct pr_report_model *g, struct pr_report_campaign *c,
    const struct pr_report_campaign_variant *bv,
    const struct pr_report_campaign_variant *nv,
    const struct pr_store_variant_data *bd,
    const struct pr_store_variant_data *nd, const char *host, size_t pair_hosts,
    struct pr_error *err)
{
	struct pr_report_compare_opts o;
	struct body_keep *k;
	struct within *w;
	enum pr_status st;
	const char *bn, *nn;
	int boots;
	char hb[NAME_MAX_LEN];

	if (bd->nruns == 0 || nd->nruns == 0)
		return pr_error_set(err, PR_EINVAL,
		    "compare: campaign variant '%s' has no successful run "
		    "stored%s%s",
		    bd->nruns == 0 ? bv->name : nv->name,
		    host != NULL ? " on host " : "", host != NULL ? host : "");
	snprintf(hb, sizeof(hb), "%s%s", host != NULL ? "on host " : "",
	    host != NULL ? host : "");
	bn = bv->name;
	nn = nv->name;
	boots = bd->nboots >= 2 && nd->nboots >= 2;
	if (!boots &&
	    (st = cnote(c, err,
		 "warning: %s%s%s has %zu boot%s and %s has %zu: runs are "
		 "treated as independent, and the noise a reboot adds is "
		 "unknown; run each variant in two boots or more",
		 hb, host != NULL ? ", " : "", bn, bd->nboots,
		 bd->nboots == 1 ? "" : "s", nn, nd->nboots)) != PR_OK)
		return st;
	if ((k = calloc(1, sizeof(*k))) == NULL)
		return nomem(err);
	pr_dataset_init(&k->base);
	pr_dataset_init(&k->new);
	if ((st = report_model_writer(g, NULL,
		 PR_SECTION_NO_TEXT | PR_SECTION_NO_CSV, &keep_writer, k,
		 err)) != PR_OK)
		return st;
	if ((k->bn = strdup(bv->name)) == NULL ||
	    (k->nn = strdup(nv->name)) == NULL)
		return nomem(err);
	bn = k->bn;
	nn = k->nn;
	if ((st = side_dataset(bd, boots, &k->base, err)) != PR_OK ||
	    (st = side_dataset(nd, boots, &k->new, err)) != PR_OK)
		return st;
	if ((st = pr_report_model_string(g, "base", 0, bn, err)) != PR_OK ||
	    (st = pr_report_model_string(g, "new", 0, nn, err)) != PR_OK ||
	    (st = pr_report_model_string(g, "level", 0, boots ? "boot" : "run",
		 err)) != PR_OK ||
	    (st = pr_report_model_integer(g, "base_boots", 0, 1,
		 (int64_t)bd->nboots, err)) != PR_OK ||
	    (st = pr_report_model_integer(g, "new_boots", 0, 1,
		 (int64_t)nd->nboots, err)) != PR_OK ||
	    (st = pr_report_model_integer(g, "base_runs", 0, 1,
		 (int64_t)bd->nruns, err)) != PR_OK ||
	    (st = pr_report_model_integer(g, "new_runs", 0, 1,
		 (int64_t)nd->nruns, err)) != PR_OK ||
	    (host != NULL &&
		(st = pr_report_model_string(g, "host", 0, host, err)) !=
		    PR_OK))
		return st;
	if ((st = pr_report_model_textf(g, PR_SECTION_TEXT, NULL, 0, err,
		 "%s%s against %s%s%s: %s level, %zu boot%s (%zu runs) and "
		 "%zu boot%s (%zu runs)%s\n\n",
		 c->nbodies > 0 ? "\n" : "", nn, bn, host != NULL ? " " : "",
		 hb, boots ? "boot" : "run", bd->nboots,
		 bd->nboots == 1 ? "" : "s", bd->nruns, nd->nboots,
		 nd->nboots == 1 ? "" : "s", nd->nruns,
		 boots ? "; each boot's mean is one value"
		       : "; WARNING: one boot a side cannot show the noise "
			 "of a reboot")) != PR_OK)
		return st;
	c->nbodies++;
	/* Welch's t on the units, as perfreg/nested.h describes, unless
	 * --method says otherwise. */
	o = c->cmp;
	if (o.verdict.method == PR_METHOD_AUTO)
		o.verdict.method = PR_METHOD_WELCH;
	/* Welch decides: the rank tests and bootstrap ratios that would
	 * only be printed aside cost seconds at 10^5 runs a variant. */
	if (o.verdict.method == PR_METHOD_WELCH)
		o.verdict.flags |= PR_VERDICT_NO_RATIO | PR_VERDICT_NO_RANKS;
	o.units = boots ? "boots" : NULL;
	if (o.nprimary == 0) {
		if ((st = stored_primary(bv->data, nv->data, &k->primary,
			 &o.nstored_primary, err)) != PR_OK)
			return st;
		o.stored_primary = k->primary;
	}
	/* Across hosts the host is the unit: one host alone does not gate. */
	if (host != NULL && pair_hosts > 1)
		o.gate = 0;
	st = pr_report_compare_datasets(&k->base, &k->new, bn, nn, &o, &k->res,
	    err);
	if (take_notes(c, &k->res, err) != PR_OK)
		return PR_ENOMEM;
	if (st != PR_OK)
		return st;
	if (k->res.regression)
		c->regression = 1;
	if (host != NULL) {
		if ((k->cell_new = malloc(strlen(nn) + strlen(host) + 2)) ==
		    NULL)
			return nomem(err);
		memcpy(k->cell_new, nn, strlen(nn));
		k->cell_new[strlen(nn)] = '@';
		memcpy(k->cell_new + strlen(nn) + 1, host, strlen(host) + 1);
	}
	k->cell[0] = bn;
	k->cell[1] = host != NULL ? k->cell_new : nn;
	if ((st = pr_report_model_comparison(g, "report", 0, &k->res.report,
		 err)) != PR_OK ||
	    (st = pr_report_model_csv_columns(g, csv_head, k->cell, 2, err)) !=
		PR_OK ||
	    (st = explain_part(g, &k->res.report, bd, nd, boots, err)) !=
		PR_OK ||
	    (st = variance_part(g, c, bd, nd, err)) != PR_OK ||
	    (st = env_first(g, c, bd, nd, bn, nn, k, err)) != PR_OK)
		return st;
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return nomem(err);
	if ((st = report_model_writer(g, "env_within", 0, &within_writer, w,
		 err)) != PR_OK)
		return st;
	if ((st = within_part(w, c, bd, bv->raw, bn, err)) != PR_OK)
		return st;
	return within_part(w, c, nd, nv->raw, nn, err);
}

/* ---------------------------------------------------------------- *
 * Hosts
 * ---------------------------------------------------------------- */

/*
 * The runs of d on host h (hob: each boot's host) into out, a copy that
 * pr_store_variant_data_release frees.  out->nruns is the most values
 * of a metric, since the store counts runs for the whole variant only.
 */
static enum pr_status
variant_subset(const struct pr_store_variant_data *d, const size_t *hob,
    size_t h, struct pr_store_variant_data *out, struct pr_error *err)
{
	const struct pr_store_series *m;
	struct pr_store_series *o;
	size_t *map = NULL, i, k, n;

	memset(out, 0, sizeof(*out));
	if ((map = calloc(d->nboots + 1, sizeof(*map))) == NULL ||
	    (out->boot_ids = calloc(d->nboots + 1, sizeof(char *))) == NULL ||
	    (out->boot_session = calloc(d->nboots + 1, sizeof(int64_t))) ==
		NULL ||
	    (out->m = calloc(d->nm + 1, sizeof(*out->m))) == NULL)
		goto nomem;
	for (i = 0; i < d->nboots; i++) {
		if (hob[i] != h)
			continue;
		map[i] = out->nboots;
		out->boot_session[out->nboots] = d->boot_session[i];
		if ((out->boot_ids[out->nboots++] = strdup(d->boot_ids[i])) ==
		    NULL)
			goto nomem;
	}
	for (i = 0; i < d->nm; i++) {
		m = &d->m[i];
		for (k = 0, n = 0; k < m->n; k++)
			n += hob[m->boot[k]] == h;
		if (n == 0)
			continue;
		o = &out->m[out->nm++];
		o->better = m->better;
		o->flags = m->flags;
		if ((o->name = strdup(m->name)) == NULL ||
		    (o->unit = strdup(m->unit)) == NULL ||
		    (o->value = malloc(n * sizeof(double))) == NULL ||
		    (o->boot = malloc(n * sizeof(size_t))) == NULL)
			goto nomem;
		for (k = 0; k < m->n; k++)
			if (hob[m->boot[k]] == h) {
				o->value[o->n] = m->value[k];
				o->boot[o->n++] = map[m->boot[k]];
			}
		if (o->n > out->nruns)
			out->nruns = o->n;
	}
	free(map);
	return PR_OK;
nomem:
	free(map);
	pr_store_variant_data_release(out);
	return nomem(err);
}

struct across_row {
	char *name, *summary;
	struct pr_comparison c;
	size_t nhosts, nhosts_one_side, agreeing;
	int consistent, have_f, f_on_runs;
	double f, df1, df2, f_p;
};

struct across_rows {
	char *bn, *nn;
	struct across_row *r;
	size_t n;
};

static void
across_free(void *data)
{
	struct across_rows *a = data;
	size_t i;

	if (a == NULL)
		return;
	for (i = 0; i < a->n; i++) {
		free(a->r[i].name);
		free(a->r[i].summary);
	}
	free(a->r);
	free(a->bn);
	free(a->nn);
	free(a);
}

static enum pr_status
across_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct across_rows *a = data;
	const struct across_row *r;
	enum pr_status st = PR_OK;
	size_t i;
	char *e;

	(void)f;
	if (a->n > 0)
		st = pr_buf_addf(out, err,
		    "\n%s against %s across %zu hosts, the host as the unit "
		    "(one-sample t on the hosts' log-ratios of their "
		    "means):\n",
		    a->nn, a->bn, a->r[0].nhosts);
	for (i = 0; i < a->n && st == PR_OK; i++) {
		r = &a->r[i];
		if ((e = pr_report_escape_str(r->name, 0)) == NULL)
			return nomem(err);
		st = r->c.tested
		    ? pr_buf_addf(out, err,
			  "  %-24s %+.1f%% [%+.1f%%, %+.1f%%] p = %.2g  %s\n",
			  e, r->c.change_pct, r->c.ci_lo_pct, r->c.ci_hi_pct,
			  r->c.p_value, pr_verdict_str(r->c.verdict))
		    : pr_buf_addf(out, err, "  %-24s untested (%s)\n", e,
			  r->nhosts < 2 ? "fewer than 2 hosts ran both"
					: "no spread or a mean <= 0");
		free(e);
		if (st == PR_OK)
			st = pr_buf_addf(out, err, "    %s\n", r->summary);
	}
	return st;
}

static json_t *
across_json(const void *data, struct pr_error *err)
{
	const struct across_rows *a = data;
	const struct across_row *r;
	json_t *arr, *e;
	size_t i;

	if ((arr = json_array()) == NULL)
		goto nomem;
	for (i = 0; i < a->n; i++) {
		r = &a->r[i];
		e = json_pack("{s:s,s:I,s:I,s:b,s:s,s:s,s:I,s:b}", "metric",
		    r->name, "hosts", (json_int_t)r->nhosts, "hosts_one_side",
		    (json_int_t)r->nhosts_one_side, "tested", r->c.tested,
		    "verdict", pr_verdict_str(r->c.verdict), "summary",
		    r->summary, "agreeing", (json_int_t)r->agreeing,
		    "consistent", r->consistent);
		if (e == NULL || json_array_append_new(arr, e) != 0)
			goto nomem;
		if (r->c.tested &&
		    (json_object_set_new(e, "change_pct",
			 json_real(r->c.change_pct)) != 0 ||
			json_object_set_new(e, "ci_lo_pct",
			    json_real(r->c.ci_lo_pct)) != 0 ||
			json_object_set_new(e, "ci_hi_pct",
			    json_real(r->c.ci_hi_pct)) != 0 ||
			json_object_set_new(e, "p_value",
			    json_real(r->c.p_value)) != 0 ||
			json_object_set_new(e, "df",
			    json_real(r->c.primary_t.df)) != 0))
			goto nomem;
		if (r->have_f &&
		    json_object_set_new(e, "agreement",
			json_pack("{s:f,s:f,s:f,s:f,s:s}", "f", r->f, "df1",
			    r->df1, "df2", r->df2, "p_value", r->f_p, "units",
			    r->f_on_runs ? "runs" : "boots")) != 0)
			goto nomem;
	}
	return arr;
nomem:
	json_decref(arr);
	nomem(err);
	return NULL;
}

static const struct report_writer across_writer = { across_text, across_json,
	across_free };

/* ---------------------------------------------------------------- *
 * The HTML forms of the sections above (perfreg/report_html.h)
 * ---------------------------------------------------------------- */

static const char *
var_name(const void *data, size_t i)
{
	return ((const struct var_rows *)data)->r[i].name;
}

static enum pr_status
var_cells(struct pr_buf *out, const void *data, size_t i, struct pr_error *err)
{
	const struct var_row *r = &((const struct var_rows *)data)->r[i];
	enum pr_status st;

	if ((st = r->have_b
		    ? pr_buf_addf(out, err, "<td class=\"n\">%.1f%%</td>",
			  100 * r->b)
		    : pr_buf_adds(out, "<td class=\"n\">-</td>", err)) != PR_OK)
		return st;
	return r->have_n
	    ? pr_buf_addf(out, err, "<td class=\"n\">%.1f%%</td>", 100 * r->n)
	    : pr_buf_adds(out, "<td class=\"n\">-</td>", err);
}

static enum pr_status
var_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct var_rows *v = data;
	const struct report_html_table t = {
		"<table class=\"variance\"><caption>share of a run's "
		"variance that comes from its boot</caption><thead><tr>"
		"<th>metric</th><th>base</th><th>new</th></tr></thead>"
		"<tbody>",
		"</tbody></table>\n", v->n, data, var_name, var_cells
	};

	if (v->n == 0)
		return PR_OK;
	return report_html_table(out, &t, err);
}

static enum pr_status
within_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct within *w = data;
	const struct within_e *e;
	enum pr_status st;
	size_t i;
	char what[160];

	for (i = 0; i < w->n; i++) {
		e = &w->e[i];
		if (e->boot_a != e->boot_b)
			snprintf(what, sizeof(what),
			    "between boots %ld and %ld (sessions %lld and "
			    "%lld)",
			    e->boot_a, e->boot_b, (long long)e->session_a,
			    (long long)e->session_b);
		else
			snprintf(what, sizeof(what),
			    "in boot %ld between sessions %lld and %lld",
			    e->boot_b, (long long)e->session_a,
			    (long long)e->session_b);
		if ((st = pr_buf_adds(out,
			 "<p class=\"warning\">the environment differs within "
			 "variant ",
			 err)) != PR_OK ||
		    (st = report_html_esc(out, e->variant, err)) != PR_OK ||
		    (st = pr_buf_addf(out, err, " %s</p>", what)) != PR_OK ||
		    (st = report_html_envdiff(out, &e->diff, e->na, e->nb, 20,
			 err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

static const char *
across_name(const void *data, size_t i)
{
	return ((const struct across_rows *)data)->r[i].name;
}

static enum pr_status
across_cells(struct pr_buf *out, const void *data, size_t i,
    struct pr_error *err)
{
	const struct across_row *r = &((const struct across_rows *)data)->r[i];
	enum pr_status st;
	char c[32], ci[64], p[32];

	if (r->c.tested) {
		report_fmt_pct(c, sizeof(c), r->c.change_pct);
		report_fmt_interval(ci, sizeof(ci), 1, r->c.ci_lo_pct,
		    r->c.ci_hi_pct);
		report_fmt_p(p, sizeof(p), 1, r->c.p_value);
		st = pr_buf_addf(out, err,
		    "<td class=\"n\">%s</td><td class=\"n\">%s</td><td "
		    "class=\"n\">%s</td><td class=\"verdict v-%s\">%s</td>",
		    c, ci, p, pr_verdict_str(r->c.verdict),
		    pr_verdict_str(r->c.verdict));
	} else
		st = pr_buf_addf(out, err,
		    "<td colspan=\"4\">untested (%s)</td>",
		    r->nhosts < 2 ? "fewer than 2 hosts ran both"
				  : "no spread or a mean <= 0");
	if (st != PR_OK ||
	    (st = pr_buf_addf(out, err, "<td class=\"n\">%zu</td><td>",
		 r->nhosts)) != PR_OK ||
	    (st = report_html_esc(out, r->summary, err)) != PR_OK)
		return st;
	return pr_buf_adds(out, "</td>", err);
}

static enum pr_status
across_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct across_rows *a = data;
	const struct report_html_table t = { NULL,
		"</tbody></table></section>\n", a->n, data, across_name,
		across_cells };
	enum pr_status st;

	if (a->n == 0)
		return PR_OK;
	if ((st = pr_buf_adds(out, "<section class=\"across\"><h3>", err)) !=
		PR_OK ||
	    (st = report_html_esc(out, a->nn, err)) != PR_OK ||
	    (st = pr_buf_adds(out, " against ", err)) != PR_OK ||
	    (st = report_html_esc(out, a->bn, err)) != PR_OK ||
	    (st = pr_buf_addf(out, err,
		 " across %zu hosts</h3><p class=\"cap\">the host as the unit: "
		 "a one-sample t on the hosts' log-ratios of their means</p>"
		 "<table class=\"across sortable\"><thead><tr><th>metric</th>"
		 "<th>change</th><th>95%% interval</th><th>p</th>"
		 "<th>verdict</th><th>hosts</th><th>the hosts</th></tr>"
		 "</thead><tbody>",
		 a->r[0].nhosts)) != PR_OK)
		return st;
	return report_html_table(out, &t, err);
}

report_html_fn
report_campaign_html(const struct report_writer *w)
{
	if (w == &var_writer)
		return var_html;
	if (w == &within_writer)
		return within_html;
	if (w == &across_writer)
		return across_html;
	return NULL;
}

/* The host of each value of series m of a side whose boots have hosts
 * hob. */
static void
campaign_side(const struct pr_store_series *m, const size_t *hob, size_t *host,
    struct pr_campaign_side *s)
{
	size_t k;

	for (k = 0; k < m->n; k++)
		host[k] = hob[m->boot[k]];
	s->x = m->value;
	s->boot = m->boot;
	s->host = host;
	s->n = m->n;
}

/* The verdicts across hosts, metric by metric; gates on a regression
 * across hosts. */
static enum pr_status
across_part(struct pr_report_model *g, struct pr_report_campaign *c,
    const struct pr_report_campaign_variant *bv,
    const struct pr_report_campaign_variant *nv, struct pr_error *err)
{
	const struct pr_store_variant_data *bd = bv->data, *nd = nv->data;
	const struct pr_store_series *bm, *nm;
	struct pr_campaign_side sb, sn;
	struct pr_campaign_result r;
	struct pr_buf line = PR_BUF_INIT(4096);
	struct pr_error e;
	struct across_rows *a;
	struct across_row *ar;
	enum pr_status st = PR_OK;
	size_t i, *hostb = NULL, *hostn = NULL;
	enum pr_better better;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	memset(&r, 0, sizeof(r));
	if ((a = calloc(1, sizeof(*a))) == NULL ||
	    (a->r = calloc(bd->nm + 1, sizeof(*a->r))) == NULL ||
	    (a->bn = strdup(bv->name)) == NULL ||
	    (a->nn = strdup(nv->name)) == NULL) {
		across_free(a);
		return nomem(err);
	}
	if ((st = report_model_writer(g, "across_hosts", 0, &across_writer, a,
		 err)) != PR_OK)
		return st;
	for (i = 0; i < bd->nm && st == PR_OK; i++) {
		bm = &bd->m[i];
		if ((nm = pr_store_variant_series(nd, bm->name)) == NULL ||
		    bm->n == 0 || nm->n == 0 ||
		    !report_compare_wanted(&c->cmp, bm->name))
			continue;
		free(hostb);
		free(hostn);
		hostb = malloc(bm->n * sizeof(*hostb));
		hostn = malloc(nm->n * sizeof(*hostn));
		if (hostb == NULL || hostn == NULL) {
			st = nomem(err);
			break;
		}
		campaign_side(bm, bv->boot_host, hostb, &sb);
		campaign_side(nm, nv->boot_host, hostn, &sn);
		better = c->cmp.force_better != PR_BETTER_UNKNOWN
		    ? c->cmp.force_better
		    : bm->better;
		pr_error_clear(&e);
		if ((st = pr_campaign_hosts(&sb, &sn, c->nhosts, better,
			 &c->cmp.verdict, 0, &r, &e)) != PR_OK) {
			st = pr_error_set(err, st == PR_ENOMEM ? st : PR_EINVAL,
			    "compare: %s: %s", bm->name,
			    pr_error_format(&e, eb, sizeof(eb)));
			break;
		}
		line.len = 0;
		ar = &a->r[a->n];
		if ((st = pr_campaign_hosts_summary(&r, &line, err)) != PR_OK ||
		    (st = pr_buf_addc(&line, '\0', err)) != PR_OK)
			break;
		if ((ar->name = strdup(bm->name)) == NULL ||
		    (ar->summary = strdup(line.data)) == NULL) {
			free(ar->name);
			st = nomem(err);
			break;
		}
		a->n++;
		ar->c = r.across;
		ar->nhosts = r.nhosts;
		ar->nhosts_one_side = r.nhosts_one_side;
		ar->agreeing = r.agreeing;
		ar->consistent = r.consistent;
		ar->have_f = r.have_f;
		ar->f_on_runs = r.f_on_runs;
		ar->f = r.f;
		ar->df1 = r.df1;
		ar->df2 = r.df2;
		ar->f_p = r.f_p;
		if (c->cmp.gate && ar->c.verdict == PR_VERDICT_REGRESSION &&
		    fabs(ar->c.change_pct) > c->cmp.threshold_pct) {
			if ((st = cnote(c, err,
				 "regression across hosts: %s %+.1f%%",
				 bm->name, ar->c.change_pct)) != PR_OK)
				break;
			c->regression = 1;
		}
		pr_campaign_hosts_release(&r);
	}
	pr_campaign_hosts_release(&r);
	pr_buf_release(&line);
	free(hostb);
	free(hostn);
	return st;
}

enum pr_status
pr_report_campaign_pair(struct pr_report_model *m, struct pr_report_campaign *c,
    const struct pr_report_campaign_variant *bv,
    const struct pr_report_campaign_variant *nv, struct pr_error *err)
{
	const struct pr_store_variant_data *bd = bv->data, *nd = nv->data;
	struct pr_store_variant_data sb, sn;
	struct pr_report_model *g, *hg;
	enum pr_status st = PR_OK;
	size_t h, sel = SIZE_MAX, *used = NULL, pair_hosts = 0;

	memset(&sb, 0, sizeof(sb));
	memset(&sn, 0, sizeof(sn));
	if (c->host != NULL) {
		for (h = 0; h < c->nhosts && sel == SIZE_MAX; h++)
			if (strcmp(c->hosts_raw[h], c->host) == 0)
				sel = h;
		if (sel == SIZE_MAX)
			return pr_error_set(err, PR_EINVAL,
			    "compare: campaign '%s' has no run of %s or %s on "
			    "host '%s'",
			    c->campaign, bv->name, nv->name, c->host);
	}
	/* The hosts this pair ran on (after --host). */
	if ((used = calloc(c->nhosts + 1, sizeof(*used))) == NULL)
		return nomem(err);
	for (h = 0; h < bd->nboots; h++)
		used[bv->boot_host[h]] |= 1;
	for (h = 0; h < nd->nboots; h++)
		used[nv->boot_host[h]] |= 2;
	for (h = 0; h < c->nhosts; h++)
		pair_hosts += used[h] != 0 && (sel == SIZE_MAX || h == sel);
	if ((st = pr_report_model_group(m, "comparisons", PR_SECTION_LIST, &g,
		 err)) != PR_OK)
		goto out;
	if (pair_hosts <= 1 && sel == SIZE_MAX) {
		st = pair_body(g, c, bv, nv, bd, nd, NULL, pair_hosts, err);
		goto out;
	}
	if ((st = pr_report_model_string(g, "base", 0, bv->name, err)) !=
		PR_OK ||
	    (st = pr_report_model_string(g, "new", 0, nv->name, err)) !=
		PR_OK ||
	    (st = pr_report_model_list(g, "per_host", 0, err)) != PR_OK)
		goto out;
	for (h = 0; h < c->nhosts; h++) {
		if (sel != SIZE_MAX ? h != sel : used[h] != 3) {
			if (sel == SIZE_MAX && used[h] != 0 &&
			    (st = cnote(c, err,
				 "warning: host %s ran only %s: not compared",
				 c->hosts[h],
				 used[h] == 1 ? bv->name : nv->name)) != PR_OK)
				goto out;
			continue;
		}
		if ((st = variant_subset(bd, bv->boot_host, h, &sb, err)) !=
			PR_OK ||
		    (st = variant_subset(nd, nv->boot_host, h, &sn, err)) !=
			PR_OK ||
		    (st = pr_report_model_group(g, "per_host", PR_SECTION_LIST,
			 &hg, err)) != PR_OK ||
		    (st = pair_body(hg, c, bv, nv, &sb, &sn, c->hosts[h],
			 pair_hosts, err)) != PR_OK)
			goto out;
		pr_store_variant_data_release(&sb);
		pr_store_variant_data_release(&sn);
	}
	if (sel == SIZE_MAX)
		st = across_part(g, c, bv, nv, err);
out:
	pr_store_variant_data_release(&sb);
	pr_store_variant_data_release(&sn);
	free(used);
	return st;
}
