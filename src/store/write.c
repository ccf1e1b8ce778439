/*
 * store/write.c - writing to the results store: transactions, the
 * get-or-create of campaigns, hosts, variants and metrics, sessions and
 * runs (store/store_int.h says how the store's files divide the work).
 *
 * Metric ids are cached in a hash table keyed by name and unit (dropped
 * on rollback, since ids made in a rolled-back transaction do not
 * exist).  Each write call is one transaction unless the caller opened
 * one with pr_store_begin; an error rolls it back (or, inside an
 * explicit transaction, dooms it: pr_store_commit then refuses).
 * Get-or-create is SELECT, then INSERT ... ON CONFLICT DO NOTHING, then
 * SELECT again, which is safe against another writer creating the same
 * row at the same moment on both backends.  A run is one INSERT and its
 * metrics one more (up to RM_ROWS rows a statement).  On PostgreSQL,
 * inside pr_store_begin, runs take ids reserved from the sequence in
 * blocks (run_id), so that no statement of an import waits for a reply:
 * the driver pipelines them all.
 *
 * Durability on SQLite: WAL with synchronous=NORMAL, and the commit that
 * comes one second or more after the last synced one runs with
 * synchronous=FULL, which syncs the WAL and with it every earlier
 * commit; so a power loss loses at most about one second of runs
 * (doc/schema.md), without an fsync per run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/env.h"
#include "perfreg/store.h"
#include "store/store_int.h"

#include "core/banned.h"

/* ---- metric id cache ---- */

static uint64_t
fnv1a(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603u;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211u;
	}
	return h;
}

void
st_mc_clear(struct pr_store *st)
{
	size_t i;

	for (i = 0; i < st->mc_cap; i++)
		free(st->mc[i].key);
	free(st->mc);
	st->mc = NULL;
	st->mc_cap = st->mc_n = 0;
}

static struct mcache_ent *
mc_find(struct pr_store *st, const char *key, size_t klen, uint64_t h)
{
	size_t i;

	if (st->mc_cap == 0)
		return NULL;
	for (i = h & (st->mc_cap - 1); st->mc[i].key != NULL;
	     i = (i + 1) & (st->mc_cap - 1))
		if (st->mc[i].hash == h && st->mc[i].klen == klen &&
		    memcmp(st->mc[i].key, key, klen) == 0)
			return &st->mc[i];
	return NULL;
}

static enum pr_status
mc_put(struct pr_store *st, const char *key, size_t klen, uint64_t h,
    int64_t id, int better, struct pr_error *err)
{
	struct mcache_ent *n, *old = st->mc;
	size_t cap, i, j, oldcap = st->mc_cap;
	char *k;

	if (2 * (st->mc_n + 1) > st->mc_cap) {
		cap = st->mc_cap ? 2 * st->mc_cap : 64;
		n = calloc(cap, sizeof(*n));
		if (n == NULL)
			return oom(err);
		for (i = 0; i < oldcap; i++) {
			if (old[i].key == NULL)
				continue;
			for (j = old[i].hash & (cap - 1); n[j].key != NULL;
			     j = (j + 1) & (cap - 1))
				;
			n[j] = old[i];
		}
		free(old);
		st->mc = n;
		st->mc_cap = cap;
	}
	/* NOLINTNEXTLINE(clang-analyzer-optin.portability.UnixAPI): klen holds two NULs */
	k = malloc(klen);
	if (k == NULL)
		return oom(err);
	memcpy(k, key, klen);
	for (i = h & (st->mc_cap - 1); st->mc[i].key != NULL;
	     i = (i + 1) & (st->mc_cap - 1))
		;
	st->mc[i].key = k;
	st->mc[i].klen = klen;
	st->mc[i].hash = h;
	st->mc[i].id = id;
	st->mc[i].better = better;
	st->mc_n++;
	return PR_OK;
}

/* ---- transactions ---- */

static void
rollback_quiet(struct pr_store *st)
{
	struct pr_error e;

	st_tx_exec(st, S_ROLLBACK, &e);
	/* Ids made in the transaction are gone. */
	st_mc_clear(st);
}

static enum pr_status
writable(struct pr_store *st, struct pr_error *err)
{
	if (st->mode == PR_STORE_READ)
		return st_dberr(st, PR_EIO, err,
		    "database is opened read-only; cannot write");
	return PR_OK;
}

/* Opens the transaction of one write call (unless the caller has one). */
static enum pr_status
tx_begin(struct pr_store *st, struct pr_error *err)
{
	enum pr_status rc;

	rc = writable(st, err);
	if (rc != PR_OK)
		return rc;
	if (st->explicit_tx) {
		if (st->tx_failed)
			return st_dberr(st, PR_EINVAL, err,
			    "an earlier write in this transaction failed; "
			    "roll it back");
		return PR_OK;
	}
	if (st->sqlite && now_mono() - st->last_sync >= 1.0) {
		rc = exec(st, "PRAGMA synchronous=FULL", err);
		if (rc != PR_OK)
			return rc;
		st->sync_full = 1;
	}
	rc = st_tx_exec(st, S_BEGIN, err);
	if (rc != PR_OK && st->sync_full) {
		exec(st, "PRAGMA synchronous=NORMAL", NULL);
		st->sync_full = 0;
	}
	return rc;
}

/* Ends the transaction of one write call: commits when rc is PR_OK,
 * else rolls back.  Returns the final status. */
static enum pr_status
tx_end(struct pr_store *st, enum pr_status rc, struct pr_error *err)
{
	if (st->explicit_tx) {
		if (rc != PR_OK)
			st->tx_failed = 1;
		return rc;
	}
	if (rc == PR_OK) {
		rc = st_tx_exec(st, S_COMMIT, err);
		if (rc != PR_OK)
			rollback_quiet(st);
		else if (st->sync_full)
			st->last_sync = now_mono();
	} else
		rollback_quiet(st);
	if (st->sync_full) {
		exec(st, "PRAGMA synchronous=NORMAL", NULL);
		st->sync_full = 0;
	}
	return rc;
}

enum pr_status
pr_store_begin(struct pr_store *st, struct pr_error *err)
{
	enum pr_status rc;

	if (st->explicit_tx)
		return st_dberr(st, PR_EINVAL, err,
		    "a transaction is already open");
	rc = tx_begin(st, err);
	if (rc != PR_OK)
		return rc;
	st->explicit_tx = 1;
	st->tx_failed = 0;
	/* Ids left from a block of an earlier transaction would be lower
	 * than those made since: take a new block. */
	st->ids_n = st->ids_next = 0;
	return PR_OK;
}

enum pr_status
pr_store_commit(struct pr_store *st, struct pr_error *err)
{
	enum pr_status rc;

	if (!st->explicit_tx)
		return st_dberr(st, PR_EINVAL, err, "no transaction is open");
	st->explicit_tx = 0;
	if (st->tx_failed) {
		st->tx_failed = 0;
		rollback_quiet(st);
		return st_dberr(st, PR_EINVAL, err,
		    "an earlier write in this transaction failed; "
		    "rolled back");
	}
	rc = tx_end(st, PR_OK, err);
	return rc;
}

void
pr_store_rollback(struct pr_store *st)
{
	if (!st->explicit_tx)
		return;
	st->explicit_tx = 0;
	st->tx_failed = 0;
	tx_end(st, PR_EINVAL, NULL);
}

/* ---- get-or-create ---- */

/*
 * The id of a row found by the bound SELECT get; when absent, runs the
 * bound INSERT ... ON CONFLICT DO NOTHING add and selects again (another
 * writer may have made it in between: then the INSERT does nothing and
 * the second SELECT finds theirs).
 */
static enum pr_status
get_or_add(struct pr_store *st, struct pr_db_stmt *get, struct pr_db_stmt *add,
    int64_t *id, struct pr_error *err)
{
	enum pr_status rc;
	int found = 0;

	rc = st_step_id(st, get, id, &found, err);
	stmt_done(st, get);
	if (rc != PR_OK || found)
		return rc;
	rc = step_done(st, add, err);
	stmt_done(st, add);
	if (rc != PR_OK)
		return rc;
	rc = st_step_id(st, get, id, &found, err);
	stmt_done(st, get);
	if (rc == PR_OK && !found)
		rc =
		    st_dberr(st, PR_EIO, err, "a row just inserted is missing");
	return rc;
}

enum pr_status
st_campaign_id(struct pr_store *st, struct pr_str name, int create, int64_t *id,
    struct pr_error *err)
{
	struct pr_db_stmt *get, *add;
	struct binder b;
	enum pr_status rc;
	char buf[300];
	int found = 0;

	rc = st_stmt_get(st, S_CAMPAIGN_GET, &get, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, get, err);
	b_bytes(&b, name);
	if (b.rc != PR_OK)
		return b.rc;
	if (!create) {
		rc = st_step_id(st, get, id, &found, err);
		stmt_done(st, get);
		if (rc == PR_OK && !found)
			rc = st_dberr(st, PR_ENOTFOUND, err, "no campaign '%s'",
			    st_shown(name, buf, sizeof(buf)));
		return rc;
	}
	rc = st_stmt_get(st, S_CAMPAIGN_ADD, &add, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, add, err);
	b_bytes(&b, name);
	b_real(&b, now_real());
	if (b.rc != PR_OK)
		return b.rc;
	return get_or_add(st, get, add, id, err);
}

static enum pr_status
host_id(struct pr_store *st, const char *name, int64_t *id,
    struct pr_error *err)
{
	struct pr_db_stmt *get, *add;
	struct binder b;
	enum pr_status rc;

	rc = st_stmt_get(st, S_HOST_GET, &get, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_HOST_ADD, &add, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, get, err);
	st_b_text(&b, "host name", name);
	if (b.rc != PR_OK)
		return b.rc;
	binder_init(&b, st, add, err);
	st_b_text(&b, "host name", name);
	if (b.rc != PR_OK)
		return b.rc;
	return get_or_add(st, get, add, id, err);
}

static enum pr_status
metric_id(struct pr_store *st, const struct pr_metric *m, int64_t *id,
    struct pr_error *err)
{
	struct pr_db_stmt *get, *add, *upd;
	struct mcache_ent *e;
	struct binder b;
	enum pr_status rc;
	size_t nl = strlen(m->name), ul = strlen(m->unit), klen = nl + ul + 2;
	uint64_t h;
	char *key;
	int better = (int)m->better, row;

	rc = pr_buf_grow(&st->scratch, klen, err);
	if (rc != PR_OK)
		return rc;
	key = st->scratch.data;
	memcpy(key, m->name, nl + 1);
	memcpy(key + nl + 1, m->unit, ul + 1);
	h = fnv1a(key, klen);
	e = mc_find(st, key, klen, h);
	if (e != NULL &&
	    (e->better != PR_BETTER_UNKNOWN || better == PR_BETTER_UNKNOWN)) {
		*id = e->id;
		return PR_OK;
	}
	if (e == NULL) {
		rc = st_stmt_get(st, S_METRIC_GET, &get, err);
		if (rc == PR_OK)
			rc = st_stmt_get(st, S_METRIC_ADD, &add, err);
		if (rc != PR_OK)
			return rc;
		binder_init(&b, st, get, err);
		b_bytes(&b, pr_str_c(m->name));
		b_bytes(&b, pr_str_c(m->unit));
		if (b.rc != PR_OK)
			return b.rc;
		binder_init(&b, st, add, err);
		b_bytes(&b, pr_str_c(m->name));
		b_bytes(&b, pr_str_c(m->unit));
		b_int(&b, better);
		if (b.rc != PR_OK)
			return b.rc;
		rc = get_or_add(st, get, add, id, err);
		if (rc != PR_OK)
			return rc;
		/* Read the direction the database has. */
		rc = step(st, get, &row, err);
		if (rc == PR_OK && row)
			better = (int)st->ops->column_int(get, 1);
		stmt_done(st, get);
		if (rc != PR_OK)
			return rc;
		rc = mc_put(st, key, klen, h, *id, better, err);
		if (rc != PR_OK)
			return rc;
		e = mc_find(st, key, klen, h);
		if (better != PR_BETTER_UNKNOWN ||
		    m->better == PR_BETTER_UNKNOWN)
			return PR_OK;
	}
	/* The metric was stored without a direction and now has one. */
	*id = e->id;
	rc = st_stmt_get(st, S_METRIC_BETTER, &upd, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, upd, err);
	b_int(&b, (int)m->better);
	b_int(&b, e->id);
	rc = run_bound(&b);
	if (rc == PR_OK)
		e->better = (int)m->better;
	return rc;
}

/* ---- writing ---- */

static enum pr_status
add_env(struct pr_store *st, const struct pr_env *env, int64_t *id,
    struct pr_error *err)
{
	struct pr_db_stmt *s, *it;
	struct binder b;
	enum pr_status rc;
	size_t i;

	pr_buf_reset(&st->scratch);
	rc = pr_env_to_json(env, &st->scratch, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_ENV_ADD, &s, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_ENV_ITEM_ADD, &it, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	st_b_text(&b, "environment snapshot", st->scratch.data);
	rc = st_insert_bound(&b, id);
	for (i = 0; rc == PR_OK && i < env->n; i++) {
		binder_init(&b, st, it, err);
		b_int(&b, *id);
		b_int(&b, (int64_t)i);
		b_cbytes(&b, env->items[i].key);
		b_cbytes(&b, env->items[i].category);
		b_cbytes(&b, env->items[i].value);
		b_cbytes(&b, env->items[i].reason);
		rc = run_bound(&b);
	}
	return rc;
}

/*
 * Records that session `by` resumes session `of`: an INSERT that does
 * nothing when another session claimed it first (in a transaction that
 * committed before this one could take the write lock), which is then
 * an error naming that session.
 */
static enum pr_status
claim(struct pr_store *st, int64_t of, int64_t by, struct pr_error *err)
{
	struct pr_db_stmt *add, *get;
	struct binder b;
	enum pr_status rc;
	int64_t owner = 0;
	int found = 0;

	rc = st_stmt_get(st, S_CLAIM_ADD, &add, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_CLAIM_GET, &get, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, add, err);
	b_int(&b, of);
	b_int(&b, by);
	rc = run_bound(&b);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, get, err);
	b_int(&b, of);
	rc = b.rc;
	if (rc == PR_OK)
		rc = st_step_id(st, get, &owner, &found, err);
	stmt_done(st, get);
	if (rc == PR_OK && (!found || owner != by))
		rc = st_dberr(st, PR_EINVAL, err,
		    "session %lld is already resumed by session %lld",
		    (long long)of, (long long)owner);
	return rc;
}

static enum pr_status
session_add(struct pr_store *st, const struct pr_store_session_new *n,
    int64_t *id, struct pr_error *err)
{
	struct pr_db_stmt *s, *t;
	struct binder b;
	enum pr_status rc;
	int64_t cid = 0, hid = 0, eid = 0;
	size_t i;

	rc = st_campaign_id(st, n->campaign, 1, &cid, err);
	if (rc == PR_OK)
		rc = host_id(st, n->host != NULL ? n->host : "", &hid, err);
	if (rc == PR_OK && n->env != NULL)
		rc = add_env(st, n->env, &eid, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_SESSION_ADD, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, cid);
	b_int(&b, hid);
	st_b_text(&b, "boot id", n->boot_id != NULL ? n->boot_id : "");
	st_b_text(&b, "argument list", n->args_json);
	b_real(&b, n->started);
	if (n->resumes > 0)
		b_int(&b, n->resumes);
	else
		b_null(&b);
	if (n->env != NULL)
		b_int(&b, eid);
	else
		b_null(&b);
	b_int(&b, n->imported != 0);
	if (n->pid > 0)
		b_int(&b, n->pid);
	else
		b_null(&b);
	rc = st_insert_bound(&b, id);
	if (rc == PR_OK && n->resumes > 0 && !n->imported)
		rc = claim(st, n->resumes, *id, err);
	if (rc == PR_OK && n->ntags > 0)
		rc = st_stmt_get(st, S_TAG_ADD, &t, err);
	for (i = 0; rc == PR_OK && i < n->ntags; i++) {
		binder_init(&b, st, t, err);
		b_int(&b, *id);
		b_int(&b, (int64_t)i);
		b_bytes(&b, n->tags[i].key);
		b_bytes(&b, n->tags[i].value);
		rc = run_bound(&b);
	}
	if (rc == PR_OK && n->nprimary > 0)
		rc = st_stmt_get(st, S_PRIMARY_ADD, &t, err);
	for (i = 0; rc == PR_OK && i < n->nprimary; i++) {
		if (n->primary[i] == NULL || *n->primary[i] == '\0')
			return st_dberr(st, PR_EINVAL, err,
			    "empty primary metric name");
		binder_init(&b, st, t, err);
		b_int(&b, *id);
		b_int(&b, (int64_t)i);
		b_bytes(&b, pr_str_c(n->primary[i]));
		rc = run_bound(&b);
	}
	return rc;
}

enum pr_status
pr_store_session_begin(struct pr_store *st,
    const struct pr_store_session_new *s, int64_t *id, struct pr_error *err)
{
	enum pr_status rc;

	*id = 0;
	if (s->campaign.n == 0 || s->campaign.p == NULL)
		return st_dberr(st, PR_EINVAL, err, "empty campaign name");
	rc = tx_begin(st, err);
	if (rc != PR_OK)
		return rc;
	rc = tx_end(st, session_add(st, s, id, err), err);
	if (rc != PR_OK)
		*id = 0;
	return rc;
}

/* Statement k of one integer parameter, arg, stepped once: its first
 * row's column 0 into *id (*found 0: no row). */
static enum pr_status
id_of(struct pr_store *st, enum stmt k, int64_t arg, int64_t *id, int *found,
    struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;

	*found = 0;
	rc = st_stmt_get(st, k, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, arg);
	rc = b.rc;
	if (rc == PR_OK)
		rc = st_step_id(st, s, id, found, err);
	stmt_done(st, s);
	return rc;
}

/* The campaign of a session; PR_ENOTFOUND when there is no such session. */
enum pr_status
st_session_campaign(struct pr_store *st, int64_t session, int64_t *cid,
    struct pr_error *err)
{
	enum pr_status rc;
	int found = 0;

	rc = id_of(st, S_SESSION_CAMPAIGN, session, cid, &found, err);
	if (rc == PR_OK && !found)
		rc = st_dberr(st, PR_ENOTFOUND, err, "no session %lld",
		    (long long)session);
	return rc;
}

static enum pr_status
session_variant(struct pr_store *st, int64_t session, struct pr_str name,
    const char *command, int64_t *variant, struct pr_error *err)
{
	struct pr_db_stmt *s, *get, *add;
	struct binder b;
	enum pr_status rc;
	int64_t cid = 0;

	rc = st_session_campaign(st, session, &cid, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_VARIANT_GET, &get, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_VARIANT_ADD, &add, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, get, err);
	b_int(&b, cid);
	b_bytes(&b, name);
	if (b.rc != PR_OK)
		return b.rc;
	binder_init(&b, st, add, err);
	b_int(&b, cid);
	b_bytes(&b, name);
	b_cbytes(&b, command);
	if (b.rc != PR_OK)
		return b.rc;
	rc = get_or_add(st, get, add, variant, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_SV_ADD, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, session);
	b_int(&b, *variant);
	b_int(&b, session);
	b_cbytes(&b, command);
	rc = run_bound(&b);
	return rc;
}

enum pr_status
pr_store_session_variant(struct pr_store *st, int64_t session,
    struct pr_str name, const char *command, int64_t *variant,
    struct pr_error *err)
{
	enum pr_status rc;

	*variant = 0;
	if (name.n == 0 || name.p == NULL)
		return st_dberr(st, PR_EINVAL, err, "empty variant name");
	rc = tx_begin(st, err);
	if (rc != PR_OK)
		return rc;
	rc = tx_end(st,
	    session_variant(st, session, name, command, variant, err), err);
	if (rc != PR_OK)
		*variant = 0;
	return rc;
}

static int
id_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The id of the next run on PostgreSQL inside pr_store_begin: taken from
 * a block reserved from run's sequence with one query, so that the run
 * INSERTs need no RETURNING and all go down libpq's pipeline.  Blocks
 * grow from RUN_IDS_MIN to RUN_IDS_MAX ids, so that a short transaction
 * wastes few.  Sequence values are unique across connections: writers
 * on other hosts never get the same ids; the unused ones of a block are
 * gaps, as those of a rolled-back insert are.
 */
#define RUN_IDS_MIN 16
#define RUN_IDS_MAX 1024

static enum pr_status
run_id(struct pr_store *st, int64_t *id, struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	size_t want, n = 0;
	int row;

	if (st->ids_next < st->ids_n) {
		*id = st->ids[st->ids_next++];
		return PR_OK;
	}
	want = st->ids_n == 0 ? RUN_IDS_MIN : 2 * st->ids_n;
	if (want > RUN_IDS_MAX)
		want = RUN_IDS_MAX;
	rc = st_grow((void **)&st->ids, &st->ids_cap, want, sizeof(*st->ids),
	    err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, S_RUN_IDS, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, (int64_t)want);
	rc = b.rc;
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row)
		if (n < want)
			st->ids[n++] = st->ops->column_int(s, 0);
	stmt_done(st, s);
	if (rc != PR_OK)
		return rc;
	if (n != want)
		return st_dberr(st, PR_EIO, err,
		    "reserved %zu run ids, not %zu", n, want);
	/* A query's nextval() calls come in order; sorted to be sure. */
	qsort(st->ids, n, sizeof(*st->ids), id_cmp);
	st->ids_n = n;
	st->ids_next = 1;
	*id = st->ids[0];
	return PR_OK;
}

/* Inserts the n metric rows of run rid in mid[], val[], fl[] (positions
 * pos0 on) with one statement. */
static enum pr_status
metric_rows(struct pr_store *st, int64_t rid, const int64_t *mid,
    const double *val, const unsigned *fl, size_t n, size_t pos0,
    struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	size_t i;

	rc = st_stmt_get(st, (enum stmt)(S_RUN_METRIC_ADD + (int)n - 1), &s,
	    err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	for (i = 0; i < n; i++) {
		b_int(&b, rid);
		b_int(&b, mid[i]);
		b_int(&b, (int64_t)(pos0 + i));
		b_real(&b, val[i]);
		b_int(&b, (int64_t)fl[i]);
	}
	return run_bound(&b);
}

static enum pr_status
run_add(struct pr_store *st, int64_t session, const struct pr_store_run *r,
    struct pr_error *err)
{
	struct pr_db_stmt *s;
	const struct pr_metric *m;
	struct binder b;
	struct pr_str out = r->output;
	enum pr_status rc = PR_OK;
	int64_t rid = 0, mid[RM_ROWS];
	double val[RM_ROWS];
	unsigned fl[RM_ROWS];
	size_t i, pos, n;
	int trunc = r->truncated != 0, pre;

	if (out.p == NULL)
		out.n = 0;
	if (out.n > PR_STORE_OUTPUT_MAX) {
		out.n = PR_STORE_OUTPUT_MAX;
		trunc = 1;
	}
	pre = !st->sqlite && st->explicit_tx;
	if (pre)
		rc = run_id(st, &rid, err);
	if (rc == PR_OK)
		rc = st_stmt_get(st, pre ? S_RUN_ADD_ID : S_RUN_ADD, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	if (pre)
		b_int(&b, rid);
	b_int(&b, session);
	b_int(&b, r->variant);
	b_int(&b, (int64_t)r->round);
	b_int(&b, (int64_t)r->seq);
	b_int(&b, r->warmup != 0);
	b_int(&b, r->ok != 0);
	st_b_text(&b, "outcome", r->outcome != NULL ? r->outcome : "");
	b_int(&b, r->exit_status);
	b_int(&b, r->signal);
	b_bytes(&b, r->reason);
	st_b_text(&b, "failure stage", r->failed_in);
	b_bytes(&b, out);
	b_int(&b, r->output.p != NULL ? (int64_t)r->output.n : 0);
	b_int(&b, trunc);
	b_real(&b, r->start_s);
	rc = pre ? run_bound(&b) : st_insert_bound(&b, &rid);
	if (rc != PR_OK || r->metrics == NULL)
		return rc;
	/* The rows go RM_ROWS at a time: one statement instead of one a
	 * metric. */
	for (i = 0, pos = 0, n = 0; i < r->metrics->n; i++) {
		m = &r->metrics->metrics[i];
		if (m->values.n == 0)
			continue;
		if (m->values.n != 1)
			return st_dberr(st, PR_EINVAL, err,
			    "metric '%s' has %zu values; a run has one",
			    m->name, m->values.n);
		rc = metric_id(st, m, &mid[n], err);
		if (rc != PR_OK)
			return rc;
		fl[n] = m->flags;
		val[n++] = m->values.v[0];
		if (n == RM_ROWS) {
			rc = metric_rows(st, rid, mid, val, fl, n, pos, err);
			if (rc != PR_OK)
				return rc;
			pos += n;
			n = 0;
		}
	}
	if (n > 0)
		rc = metric_rows(st, rid, mid, val, fl, n, pos, err);
	return rc;
}

enum pr_status
pr_store_add_run(struct pr_store *st, int64_t session,
    const struct pr_store_run *r, struct pr_error *err)
{
	enum pr_status rc;

	rc = tx_begin(st, err);
	if (rc != PR_OK)
		return rc;
	return tx_end(st, run_add(st, session, r, err), err);
}

/* The tags of n after the session's last, each replacing one of the
 * same key. */
static enum pr_status
tags_add(struct pr_store *st, int64_t session, const struct pr_store_tag *t,
    size_t n, struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc = PR_OK;
	int64_t pos = 0;
	size_t i;
	int found = 0;

	for (i = 0; rc == PR_OK && i < n; i++) {
		rc = st_stmt_get(st, S_TAG_DEL, &s, err);
		if (rc != PR_OK)
			break;
		binder_init(&b, st, s, err);
		b_int(&b, session);
		b_bytes(&b, t[i].key);
		rc = run_bound(&b);
	}
	if (rc == PR_OK)
		rc = id_of(st, S_TAG_NEXT, session, &pos, &found, err);
	if (rc == PR_OK && !found)
		return st_dberr(st, PR_ENOTFOUND, err, "no session %lld",
		    (long long)session);
	for (i = 0; rc == PR_OK && i < n; i++) {
		rc = st_stmt_get(st, S_TAG_ADD, &s, err);
		if (rc != PR_OK)
			break;
		binder_init(&b, st, s, err);
		b_int(&b, session);
		b_int(&b, pos + (int64_t)i);
		b_bytes(&b, t[i].key);
		b_bytes(&b, t[i].value);
		rc = run_bound(&b);
	}
	return rc;
}

enum pr_status
pr_store_session_tags(struct pr_store *st, int64_t session,
    const struct pr_store_tag *tags, size_t ntags, struct pr_error *err)
{
	enum pr_status rc;

	rc = tx_begin(st, err);
	if (rc != PR_OK)
		return rc;
	return tx_end(st, tags_add(st, session, tags, ntags, err), err);
}

enum pr_status
pr_store_session_end(struct pr_store *st, int64_t session, const char *status,
    double elapsed_s, struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	int64_t id = 0;
	int found = 0;

	/* The end of a session is always synced. */
	st->last_sync = now_mono() - 2.0;
	rc = tx_begin(st, err);
	if (rc != PR_OK)
		return rc;
	rc = st_stmt_get(st, S_SESSION_END, &s, err);
	if (rc == PR_OK) {
		binder_init(&b, st, s, err);
		st_b_text(&b, "status", status != NULL ? status : "");
		b_real(&b, elapsed_s);
		b_int(&b, session);
		rc = b.rc;
		if (rc == PR_OK)
			rc = st_step_id(st, s, &id, &found, err);
		if (rc == PR_OK)
			rc = step_done(st, s, err);
		stmt_done(st, s);
		if (rc == PR_OK && !found)
			rc = st_dberr(st, PR_ENOTFOUND, err, "no session %lld",
			    (long long)session);
	}
	return tx_end(st, rc, err);
}
