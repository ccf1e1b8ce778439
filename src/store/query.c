/*
 * store/query.c - reading the results store: campaigns, sessions,
 * variants, a variant's data for analysis, environment snapshots, runs,
 * and the session a --resume continues (store/store_int.h says how the
 * store's files divide the work).  Every function here only reads, so
 * all of them work on a store opened PR_STORE_READ.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/buf.h"
#include "perfreg/env.h"
#include "perfreg/store.h"
#include "store/store_int.h"

#include "core/banned.h"

/* ---- reading: campaigns ---- */

static int
strcmp_bytes(struct pr_str a, struct pr_str b)
{
	size_t n = a.n < b.n ? a.n : b.n;
	int c = n > 0 ? memcmp(a.p, b.p, n) : 0;

	if (c != 0)
		return c;
	return a.n < b.n ? -1 : a.n > b.n;
}

static int
campaign_cmp(const void *x, const void *y)
{
	const struct pr_store_campaign_info *a = x, *b = y;

	return strcmp_bytes(a->name, b->name);
}

enum pr_status
pr_store_campaigns(struct pr_store *st, struct pr_store_campaign_info **out,
    size_t *n, struct pr_error *err)
{
	struct pr_store_campaign_info *v = NULL, *c;
	struct pr_db_stmt *s;
	enum pr_status rc;
	size_t cap = 0, k = 0;
	int row;

	*out = NULL;
	*n = 0;
	rc = st_stmt_get(st, S_CAMPAIGNS, &s, err);
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = st_grow((void **)&v, &cap, k + 1, sizeof(*v), err);
		if (rc != PR_OK)
			break;
		c = &v[k];
		memset(c, 0, sizeof(*c));
		rc = col_str(st, s, 0, &c->name, err);
		if (rc != PR_OK)
			break;
		k++;
		c->nvariants = col_size(st, s, 1);
		c->nsessions = col_size(st, s, 2);
		c->nboots = col_size(st, s, 3);
		c->nhosts = col_size(st, s, 4);
		c->nruns_ok = col_size(st, s, 5);
		c->nruns_failed = col_size(st, s, 6);
		c->first = st->ops->column_real(s, 7);
		c->last = st->ops->column_real(s, 8);
	}
	stmt_done(st, s);
	if (rc != PR_OK) {
		pr_store_campaigns_free(v, k);
		return rc;
	}
	if (k > 1)
		qsort(v, k, sizeof(*v), campaign_cmp);
	*out = v;
	*n = k;
	return PR_OK;
}

void
pr_store_campaigns_free(struct pr_store_campaign_info *c, size_t n)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < n; i++)
		strfree(&c[i].name);
	free(c);
}

/* ---- reading: sessions ---- */

void
pr_store_session_info_release(struct pr_store_session_info *s)
{
	size_t i;

	if (s == NULL)
		return;
	strfree(&s->campaign);
	free(s->host);
	free(s->boot_id);
	free(s->args_json);
	free(s->status);
	for (i = 0; i < s->ntags; i++) {
		strfree(&s->tags[i].key);
		strfree(&s->tags[i].value);
	}
	free(s->tags);
	for (i = 0; i < s->nvariants; i++)
		strfree(&s->variants[i]);
	free(s->variants);
	for (i = 0; i < s->nprimary; i++)
		free(s->primary[i]);
	free(s->primary);
	memset(s, 0, sizeof(*s));
}

void
pr_store_sessions_free(struct pr_store_session_info *s, size_t n)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < n; i++)
		pr_store_session_info_release(&s[i]);
	free(s);
}

/*
 * The names in column 0 of the rows of statement k for id, appended to
 * *names (*n of them, capacity *cap), each once: a name already there is
 * left out.  The statement is reset.
 */
static enum pr_status
name_rows(struct pr_store *st, enum stmt k, int64_t id, char ***names,
    size_t *n, size_t *cap, struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	char *name = NULL;
	size_t i;
	int row;

	rc = st_stmt_get(st, k, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, id);
	rc = b.rc;
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = col_cstr(st, s, 0, 0, &name, err);
		for (i = 0; rc == PR_OK && i < *n; i++)
			if (strcmp((*names)[i], name) == 0)
				break;
		if (rc == PR_OK && i == *n)
			rc = st_grow((void **)names, cap, *n + 1,
			    sizeof(**names), err);
		if (rc == PR_OK && i == *n) {
			(*names)[(*n)++] = name;
			name = NULL;
		}
		free(name);
		name = NULL;
	}
	stmt_done(st, s);
	return rc;
}

/* Tags, variants, run counts and primary metrics of o->id. */
static enum pr_status
session_details(struct pr_store *st, struct pr_store_session_info *o,
    struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	size_t cap = 0;
	int row;

	rc = st_stmt_get(st, S_SESSION_TAGS, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, o->id);
	rc = b.rc;
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = st_grow((void **)&o->tags, &cap, o->ntags + 1,
		    sizeof(*o->tags), err);
		if (rc != PR_OK)
			break;
		memset(&o->tags[o->ntags], 0, sizeof(*o->tags));
		o->ntags++;
		rc = col_str(st, s, 0, &o->tags[o->ntags - 1].key, err);
		if (rc == PR_OK)
			rc = col_str(st, s, 1, &o->tags[o->ntags - 1].value,
			    err);
	}
	stmt_done(st, s);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_SESSION_VARIANTS, &s, err);
	if (rc != PR_OK)
		return rc;
	cap = 0;
	binder_init(&b, st, s, err);
	b_int(&b, o->id);
	rc = b.rc;
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = st_grow((void **)&o->variants, &cap, o->nvariants + 1,
		    sizeof(*o->variants), err);
		if (rc != PR_OK)
			break;
		rc = col_str(st, s, 0, &o->variants[o->nvariants], err);
		if (rc == PR_OK)
			o->nvariants++;
	}
	stmt_done(st, s);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_SESSION_COUNTS, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, o->id);
	rc = b.rc;
	if (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		o->nruns_ok = col_size(st, s, 0);
		o->nruns_failed = col_size(st, s, 1);
		o->nwarmup = col_size(st, s, 2);
	}
	stmt_done(st, s);
	cap = 0;
	if (rc == PR_OK)
		rc = name_rows(st, S_SESSION_PRIMARY, o->id, &o->primary,
		    &o->nprimary, &cap, err);
	return rc;
}

/* The columns of SESSION_COLS into o (zeroed by the caller). */
static enum pr_status
session_row(struct pr_store *st, struct pr_db_stmt *s,
    struct pr_store_session_info *o, struct pr_error *err)
{
	enum pr_status rc;

	o->id = st->ops->column_int(s, 0);
	rc = col_str(st, s, 1, &o->campaign, err);
	if (rc == PR_OK)
		rc = col_cstr(st, s, 2, 0, &o->host, err);
	if (rc == PR_OK)
		rc = col_cstr(st, s, 3, 0, &o->boot_id, err);
	if (rc == PR_OK)
		rc = col_cstr(st, s, 4, 1, &o->args_json, err);
	if (rc == PR_OK)
		rc = col_cstr(st, s, 5, 0, &o->status, err);
	o->started = st->ops->column_real(s, 6);
	o->elapsed_s = st->ops->column_type(s, 7) == PR_DB_NULL
	    ? 0
	    : st->ops->column_real(s, 7);
	o->resumes = st->ops->column_type(s, 8) == PR_DB_NULL
	    ? 0
	    : st->ops->column_int(s, 8);
	o->imported = st->ops->column_int(s, 9) != 0;
	o->pid = st->ops->column_type(s, 10) == PR_DB_NULL
	    ? 0
	    : st->ops->column_int(s, 10);
	return rc;
}

enum pr_status
pr_store_sessions(struct pr_store *st, struct pr_str campaign,
    struct pr_store_session_info **out, size_t *n, struct pr_error *err)
{
	struct pr_store_session_info *v = NULL;
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	size_t cap = 0, k = 0, i;
	int64_t cid = 0;
	int row;

	*out = NULL;
	*n = 0;
	if (campaign.p != NULL) {
		rc = st_campaign_id(st, campaign, 0, &cid, err);
		if (rc != PR_OK)
			return rc;
	}
	rc = st_stmt_get(st,
	    campaign.p != NULL ? S_SESSIONS_OF : S_SESSIONS_ALL, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	if (campaign.p != NULL)
		b_int(&b, cid);
	rc = b.rc;
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = st_grow((void **)&v, &cap, k + 1, sizeof(*v), err);
		if (rc != PR_OK)
			break;
		memset(&v[k], 0, sizeof(*v));
		rc = session_row(st, s, &v[k++], err);
	}
	stmt_done(st, s);
	for (i = 0; rc == PR_OK && i < k; i++)
		rc = session_details(st, &v[i], err);
	if (rc != PR_OK) {
		pr_store_sessions_free(v, k);
		return rc;
	}
	*out = v;
	*n = k;
	return PR_OK;
}

enum pr_status
pr_store_session_get(struct pr_store *st, int64_t id,
    struct pr_store_session_info *out, struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	int row = 0;

	memset(out, 0, sizeof(*out));
	rc = st_stmt_get(st, S_SESSION_ONE, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, id);
	rc = b.rc;
	if (rc == PR_OK)
		rc = step(st, s, &row, err);
	if (rc == PR_OK && row)
		rc = session_row(st, s, out, err);
	stmt_done(st, s);
	if (rc == PR_OK && !row)
		rc = st_dberr(st, PR_ENOTFOUND, err, "no session %lld",
		    (long long)id);
	if (rc == PR_OK)
		rc = session_details(st, out, err);
	if (rc != PR_OK)
		pr_store_session_info_release(out);
	return rc;
}

/* ---- reading: variants ---- */

void
pr_store_variants_free(struct pr_store_variant_info *v, size_t n)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; i < n; i++) {
		strfree(&v[i].name);
		free(v[i].command);
	}
	free(v);
}

enum pr_status
pr_store_variants(struct pr_store *st, struct pr_str campaign,
    struct pr_store_variant_info **out, size_t *n, struct pr_error *err)
{
	struct pr_store_variant_info *v = NULL, *c;
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	size_t cap = 0, k = 0;
	int64_t cid = 0;
	int row;

	*out = NULL;
	*n = 0;
	rc = st_campaign_id(st, campaign, 0, &cid, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_VARIANTS, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, cid);
	rc = b.rc;
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = st_grow((void **)&v, &cap, k + 1, sizeof(*v), err);
		if (rc != PR_OK)
			break;
		c = &v[k++];
		memset(c, 0, sizeof(*c));
		c->id = st->ops->column_int(s, 0);
		rc = col_str(st, s, 1, &c->name, err);
		if (rc == PR_OK)
			rc = col_cstr(st, s, 2, 1, &c->command, err);
		c->nsessions = col_size(st, s, 3);
		c->nboots = col_size(st, s, 4);
		c->nruns_ok = col_size(st, s, 5);
		c->nruns_failed = col_size(st, s, 6);
	}
	stmt_done(st, s);
	if (rc != PR_OK) {
		pr_store_variants_free(v, k);
		return rc;
	}
	*out = v;
	*n = k;
	return PR_OK;
}

const struct pr_store_series *
pr_store_variant_series(const struct pr_store_variant_data *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nm; i++)
		if (strcmp(d->m[i].name, name) == 0)
			return &d->m[i];
	return NULL;
}

void
pr_store_variant_data_release(struct pr_store_variant_data *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->nboots; i++)
		free(d->boot_ids[i]);
	free(d->boot_ids);
	free(d->boot_session);
	for (i = 0; d->m != NULL && i < d->nm; i++) {
		free(d->m[i].name);
		free(d->m[i].unit);
		free(d->m[i].value);
		free(d->m[i].boot);
	}
	free(d->m);
	for (i = 0; i < d->nprimary; i++)
		free(d->primary[i]);
	free(d->primary);
	memset(d, 0, sizeof(*d));
}

/* A series while loading: its metric id and where it first appeared. */
struct lseries {
	int64_t metric;
	size_t first_run, first_pos;
	size_t cap;
	struct pr_store_series s;
};

static int
lseries_cmp(const void *x, const void *y)
{
	const struct lseries *a = x, *b = y;

	if (a->first_run != b->first_run)
		return a->first_run < b->first_run ? -1 : 1;
	if (a->first_pos != b->first_pos)
		return a->first_pos < b->first_pos ? -1 : 1;
	return (a->metric > b->metric) - (a->metric < b->metric);
}

/* Orders a series' values by boot, keeping run order within a boot
 * (a counting sort: O(n + boots)). */
static enum pr_status
by_boot(struct pr_store_series *s, size_t nboots, struct pr_error *err)
{
	size_t *start, i, b;
	double *v;
	size_t *bt;

	start = calloc(nboots + 1, sizeof(*start));
	v = malloc((s->n ? s->n : 1) * sizeof(*v));
	bt = malloc((s->n ? s->n : 1) * sizeof(*bt));
	if (start == NULL || v == NULL || bt == NULL) {
		free(start);
		free(v);
		free(bt);
		return oom(err);
	}
	for (i = 0; i < s->n; i++)
		start[s->boot[i] + 1]++;
	for (b = 0; b < nboots; b++)
		start[b + 1] += start[b];
	for (i = 0; i < s->n; i++) {
		b = s->boot[i];
		v[start[b]] = s->value[i];
		bt[start[b]++] = b;
	}
	free(start);
	free(s->value);
	free(s->boot);
	s->value = v;
	s->boot = bt;
	return PR_OK;
}

static enum pr_status
load_rows(struct pr_store *st, struct pr_db_stmt *s, const int64_t *only,
    size_t nonly, struct pr_store_variant_data *out, struct lseries **lsp,
    size_t *nls, struct pr_error *err)
{
	struct lseries *ls = NULL, *x;
	size_t lcap = 0, bcap = 0, nl = 0, boot = 0, runs = 0, i, hint = 0;
	int64_t sid, last_sid = -1, rid, last_rid = -1, mid, seen = -1;
	const char *p;
	enum pr_status rc;
	size_t len;
	int row, keep = 1;

	while ((rc = step(st, s, &row, err)) == PR_OK && row) {
		sid = st->ops->column_int(s, 0);
		if (only != NULL && sid != seen) {
			seen = sid;
			for (i = 0; i < nonly && only[i] != sid; i++)
				;
			keep = i < nonly;
		}
		if (!keep)
			continue;
		if (sid != last_sid) {
			last_sid = sid;
			p = st->ops->column_bytes(s, 1, &len);
			if (p == NULL)
				p = "";
			for (boot = 0; boot < out->nboots; boot++)
				if (strcmp(out->boot_ids[boot], p) == 0)
					break;
			if (boot == out->nboots) {
				i = bcap;
				rc = st_grow((void **)&out->boot_ids, &i,
				    boot + 1, sizeof(char *), err);
				if (rc == PR_OK)
					rc =
					    st_grow((void **)&out->boot_session,
						&bcap, boot + 1,
						sizeof(int64_t), err);
				if (rc != PR_OK)
					break;
				out->boot_ids[boot] = dupn(p, strlen(p));
				if (out->boot_ids[boot] == NULL) {
					rc = oom(err);
					break;
				}
				out->boot_session[boot] = sid;
				out->nboots++;
			}
		}
		rid = st->ops->column_int(s, 2);
		if (rid != last_rid) {
			last_rid = rid;
			runs++;
		}
		if (st->ops->column_type(s, 3) == PR_DB_NULL)
			continue;
		mid = st->ops->column_int(s, 3);
		if (hint >= nl || ls[hint].metric != mid)
			for (hint = 0; hint < nl; hint++)
				if (ls[hint].metric == mid)
					break;
		if (hint == nl) {
			rc = st_grow((void **)&ls, &lcap, nl + 1, sizeof(*ls),
			    err);
			if (rc != PR_OK)
				break;
			memset(&ls[nl], 0, sizeof(*ls));
			ls[nl].metric = mid;
			ls[nl].first_run = runs;
			ls[nl].first_pos = col_size(st, s, 4);
			nl++;
		}
		x = &ls[hint];
		i = x->cap;
		rc = st_grow((void **)&x->s.value, &i, x->s.n + 1,
		    sizeof(double), err);
		if (rc == PR_OK)
			rc = st_grow((void **)&x->s.boot, &x->cap, x->s.n + 1,
			    sizeof(size_t), err);
		if (rc != PR_OK)
			break;
		x->s.value[x->s.n] = st->ops->column_real(s, 5);
		x->s.flags |= (unsigned)st->ops->column_int(s, 6);
		x->s.boot[x->s.n++] = boot;
		hint++;
	}
	out->nruns = runs;
	*lsp = ls;
	*nls = nl;
	return rc;
}

enum pr_status
pr_store_load_variant(struct pr_store *st, struct pr_str campaign,
    struct pr_str variant, struct pr_store_variant_data *out,
    struct pr_error *err)
{
	return pr_store_load_variant_in(st, campaign, variant, NULL, 0, out,
	    err);
}

enum pr_status
pr_store_load_variant_in(struct pr_store *st, struct pr_str campaign,
    struct pr_str variant, const int64_t *sessions, size_t nsessions,
    struct pr_store_variant_data *out, struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct lseries *ls = NULL;
	struct binder b;
	enum pr_status rc;
	size_t nl = 0, i, cap = 0;
	int64_t cid = 0, vid = 0;
	int found, row;
	char buf[300], buf2[300];

	memset(out, 0, sizeof(*out));
	rc = st_campaign_id(st, campaign, 0, &cid, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_VARIANT_GET, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, cid);
	b_bytes(&b, variant);
	rc = b.rc;
	if (rc == PR_OK)
		rc = st_step_id(st, s, &vid, &found, err);
	stmt_done(st, s);
	if (rc == PR_OK && !found)
		rc = st_dberr(st, PR_ENOTFOUND, err,
		    "no variant '%s' in campaign '%s'",
		    st_shown(variant, buf, sizeof(buf)),
		    st_shown(campaign, buf2, sizeof(buf2)));
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_LOAD, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, vid);
	rc = b.rc;
	if (rc == PR_OK)
		rc = load_rows(st, s, sessions, nsessions, out, &ls, &nl, err);
	stmt_done(st, s);
	if (nl > 1)
		qsort(ls, nl, sizeof(*ls), lseries_cmp);
	if (nl > 0) {
		out->m = calloc(nl, sizeof(*out->m));
		if (out->m == NULL) {
			if (rc == PR_OK)
				rc = oom(err);
		} else {
			for (i = 0; i < nl; i++)
				out->m[i] = ls[i].s;
			out->nm = nl;
			nl = 0;
		}
	}
	for (i = 0; i < nl; i++) {
		free(ls[i].s.value);
		free(ls[i].s.boot);
	}
	/* Metric names, and values grouped by boot. */
	for (i = 0; rc == PR_OK && i < out->nm; i++) {
		rc = by_boot(&out->m[i], out->nboots, err);
		if (rc == PR_OK)
			rc = st_stmt_get(st, S_METRIC_ONE, &s, err);
		if (rc != PR_OK)
			break;
		binder_init(&b, st, s, err);
		/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): out->nm rows came from ls */
		b_int(&b, ls[i].metric);
		rc = b.rc;
		if (rc == PR_OK)
			rc = step(st, s, &row, err);
		if (rc == PR_OK && row) {
			rc = col_cstr(st, s, 0, 0, &out->m[i].name, err);
			if (rc == PR_OK)
				rc =
				    col_cstr(st, s, 1, 0, &out->m[i].unit, err);
			out->m[i].better =
			    (enum pr_better)st->ops->column_int(s, 2);
		} else if (rc == PR_OK)
			rc = st_dberr(st, PR_EIO, err, "metric %lld is missing",
			    (long long)ls[i].metric);
		stmt_done(st, s);
	}
	free(ls);
	if (rc == PR_OK)
		rc = name_rows(st, S_VARIANT_PRIMARY, vid, &out->primary,
		    &out->nprimary, &cap, err);
	if (rc != PR_OK)
		pr_store_variant_data_release(out);
	return rc;
}

/* ---- reading: environment, runs ---- */

enum pr_status
pr_store_session_env(struct pr_store *st, int64_t session, struct pr_env *e,
    int *found, struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	const char *p;
	size_t n;
	int row = 0;
	char name[64];

	*found = 0;
	rc = st_stmt_get(st, S_SESSION_ENV, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, session);
	rc = b.rc;
	if (rc == PR_OK)
		rc = step(st, s, &row, err);
	if (rc == PR_OK && !row)
		rc = st_dberr(st, PR_ENOTFOUND, err, "no session %lld",
		    (long long)session);
	if (rc == PR_OK && st->ops->column_type(s, 0) != PR_DB_NULL) {
		p = st->ops->column_bytes(s, 1, &n);
		snprintf(name, sizeof(name), "session %lld snapshot",
		    (long long)session);
		if (p == NULL)
			rc =
			    st_dberr(st, PR_EPARSE, err, "%s is missing", name);
		else
			rc = pr_env_from_json(e, p, n, name, err);
		*found = rc == PR_OK;
	}
	stmt_done(st, s);
	return rc;
}

/* The metrics of one run while walking: names copied, since the metric
 * cursor moves on before the callback runs. */
struct runmets {
	char **names, **units;
	enum pr_better *better;
	double *values;
	unsigned *flags;
	size_t n, cap;
};

static void
runmets_clear(struct runmets *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->names[i]);
		free(m->units[i]);
	}
	m->n = 0;
}

static void
runmets_release(struct runmets *m)
{
	runmets_clear(m);
	free(m->names);
	free(m->units);
	free(m->better);
	free(m->values);
	free(m->flags);
}

static enum pr_status
runmets_add(struct pr_store *st, struct pr_db_stmt *ms, struct runmets *m,
    struct pr_error *err)
{
	size_t c;
	enum pr_status rc;

	if (m->n == m->cap) {
		c = m->cap;
		rc = st_grow((void **)&m->names, &c, m->n + 1, sizeof(char *),
		    err);
		c = m->cap;
		if (rc == PR_OK)
			rc = st_grow((void **)&m->units, &c, m->n + 1,
			    sizeof(char *), err);
		c = m->cap;
		if (rc == PR_OK)
			rc = st_grow((void **)&m->better, &c, m->n + 1,
			    sizeof(enum pr_better), err);
		c = m->cap;
		if (rc == PR_OK)
			rc = st_grow((void **)&m->flags, &c, m->n + 1,
			    sizeof(unsigned), err);
		if (rc == PR_OK)
			rc = st_grow((void **)&m->values, &m->cap, m->n + 1,
			    sizeof(double), err);
		if (rc != PR_OK)
			return rc;
	}
	m->names[m->n] = NULL;
	rc = col_cstr(st, ms, 1, 0, &m->names[m->n], err);
	if (rc != PR_OK)
		return rc;
	rc = col_cstr(st, ms, 2, 0, &m->units[m->n], err);
	if (rc != PR_OK) {
		free(m->names[m->n]);
		return rc;
	}
	m->better[m->n] = (enum pr_better)st->ops->column_int(ms, 3);
	m->values[m->n] = st->ops->column_real(ms, 4);
	m->flags[m->n] = (unsigned)st->ops->column_int(ms, 5);
	m->n++;
	return PR_OK;
}

static enum pr_status
each_run(struct pr_store *st, struct pr_db_stmt *rs, struct pr_db_stmt *ms,
    pr_store_run_cb *cb, void *arg, struct pr_error *err)
{
	struct pr_store_run_rec r;
	struct runmets m;
	enum pr_status rc;
	const char *p;
	size_t n;
	int row, mrow;

	memset(&m, 0, sizeof(m));
	rc = step(st, ms, &mrow, err);
	while (rc == PR_OK && (rc = step(st, rs, &row, err)) == PR_OK && row) {
		memset(&r, 0, sizeof(r));
		r.id = st->ops->column_int(rs, 0);
		runmets_clear(&m);
		while (
		    rc == PR_OK && mrow && st->ops->column_int(ms, 0) == r.id) {
			rc = runmets_add(st, ms, &m, err);
			if (rc == PR_OK)
				rc = step(st, ms, &mrow, err);
		}
		if (rc != PR_OK)
			break;
		p = st->ops->column_bytes(rs, 1, &n);
		r.variant.p = p != NULL ? p : "";
		r.variant.n = n;
		r.round = col_size(st, rs, 2);
		r.seq = col_size(st, rs, 3);
		r.warmup = st->ops->column_int(rs, 4) != 0;
		r.ok = st->ops->column_int(rs, 5) != 0;
		p = st->ops->column_bytes(rs, 6, &n);
		r.outcome = p != NULL ? p : "";
		r.exit_status = (int)st->ops->column_int(rs, 7);
		r.signal = (int)st->ops->column_int(rs, 8);
		p = st->ops->column_bytes(rs, 9, &n);
		r.reason.p = p != NULL ? p : "";
		r.reason.n = n;
		r.failed_in = st->ops->column_bytes(rs, 10, &n);
		p = st->ops->column_bytes(rs, 11, &n);
		r.output.p = p != NULL ? p : "";
		r.output.n = n;
		r.truncated = st->ops->column_int(rs, 12) != 0;
		r.start_s = st->ops->column_real(rs, 13);
		r.metric_names = (const char *const *)m.names;
		r.metric_units = (const char *const *)m.units;
		r.metric_better = m.better;
		r.metric_values = m.values;
		r.metric_flags = m.flags;
		r.nm = m.n;
		pr_error_clear(err);
		if (cb(arg, &r, err) != 0) {
			rc = PR_EINVAL;
			if (err != NULL && err->msg[0] == '\0')
				pr_error_set(err, PR_EINVAL,
				    "stopped while reading runs");
			if (err != NULL)
				err->status = PR_EINVAL;
		}
	}
	runmets_release(&m);
	return rc;
}

/* The runs of a session, or of one variant of it (vid > 0). */
static enum pr_status
runs_of(struct pr_store *st, int64_t session, int64_t vid, pr_store_run_cb *cb,
    void *arg, struct pr_error *err)
{
	struct pr_db_stmt *rs, *ms;
	struct binder b;
	enum pr_status rc;

	rc = st_stmt_get(st, vid > 0 ? S_RUNS_OF_VARIANT : S_RUNS_OF, &rs, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st,
		    vid > 0 ? S_RUN_METRICS_OF_VARIANT : S_RUN_METRICS_OF, &ms,
		    err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, rs, err);
	b_int(&b, session);
	if (vid > 0)
		b_int(&b, vid);
	rc = b.rc;
	if (rc == PR_OK) {
		binder_init(&b, st, ms, err);
		b_int(&b, session);
		if (vid > 0)
			b_int(&b, vid);
		rc = b.rc;
	}
	if (rc == PR_OK)
		rc = each_run(st, rs, ms, cb, arg, err);
	stmt_done(st, rs);
	stmt_done(st, ms);
	return rc;
}

enum pr_status
pr_store_each_run(struct pr_store *st, int64_t session, pr_store_run_cb *cb,
    void *arg, struct pr_error *err)
{
	enum pr_status rc;
	int64_t id = 0;

	rc = st_session_campaign(st, session, &id, err);
	return rc != PR_OK ? rc : runs_of(st, session, 0, cb, arg, err);
}

enum pr_status
pr_store_each_run_of(struct pr_store *st, int64_t session,
    struct pr_str variant, pr_store_run_cb *cb, void *arg, struct pr_error *err)
{
	struct pr_db_stmt *get;
	struct binder b;
	enum pr_status rc;
	int64_t cid = 0, vid = 0;
	int found = 0;

	rc = st_session_campaign(st, session, &cid, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_VARIANT_GET, &get, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, get, err);
	b_int(&b, cid);
	b_bytes(&b, variant);
	rc = b.rc;
	if (rc == PR_OK)
		rc = st_step_id(st, get, &vid, &found, err);
	stmt_done(st, get);
	if (rc != PR_OK || !found || vid <= 0)
		return rc;
	return runs_of(st, session, vid, cb, arg, err);
}

enum pr_status
pr_store_run_seqs(struct pr_store *st, int64_t session, size_t **seq, size_t *n,
    struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	size_t *v = NULL, cap = 0, k = 0;
	int row;

	*seq = NULL;
	*n = 0;
	rc = st_stmt_get(st, S_RUN_SEQS, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, session);
	rc = b.rc;
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = st_grow((void **)&v, &cap, k + 1, sizeof(*v), err);
		if (rc == PR_OK)
			v[k++] = col_size(st, s, 0);
	}
	stmt_done(st, s);
	if (rc != PR_OK) {
		free(v);
		return rc;
	}
	*seq = v;
	*n = k;
	return PR_OK;
}

/* ---- resuming ---- */

enum pr_status
pr_store_find_unfinished(struct pr_store *st, struct pr_str campaign,
    const char *host, struct pr_store_session_info *out, struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	int64_t id = 0;
	int found = 0;
	char buf[300];

	memset(out, 0, sizeof(*out));
	rc = st_stmt_get(st, S_UNFINISHED, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_bytes(&b, campaign);
	st_b_text(&b, "host name", host != NULL ? host : "");
	rc = b.rc;
	if (rc == PR_OK)
		rc = st_step_id(st, s, &id, &found, err);
	stmt_done(st, s);
	if (rc == PR_OK && !found)
		return st_dberr(st, PR_ENOTFOUND, err,
		    "no unfinished session of campaign '%s' on host '%s'",
		    st_shown(campaign, buf, sizeof(buf)),
		    host != NULL ? host : "");
	if (rc != PR_OK)
		return rc;
	return pr_store_session_get(st, id, out, err);
}
