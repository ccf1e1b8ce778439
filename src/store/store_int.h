/*
 * store/store_int.h - what the four files of the results store share:
 * the connection structure, the statement numbers, the binder and the
 * helpers they all use.  Not installed; only src/store includes it.
 *
 * The store is split along its sections: store/stmt.c holds every
 * statement's SQL, prepares them once per connection and binds and
 * steps them; store/schema.c opens a database, creates the schema and
 * migrates it; store/write.c holds the transactions, the get-or-create
 * of campaigns, hosts, variants and metrics, and the writes of sessions
 * and runs; store/query.c every read.  The short helpers are static
 * inline here; the larger ones shared between the files carry the st_
 * prefix and external linkage (library-internal: no header outside
 * src/store declares them).
 */
#ifndef PERFREG_STORE_STORE_INT_H
#define PERFREG_STORE_STORE_INT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perfreg/buf.h"
#include "perfreg/store.h"
#include "store/db.h"
#include "store/str.h"

/* A run's metric rows go in INSERTs of up to this many rows. */
#define RM_ROWS 8

/* The statements of stmt_sql[] (store/stmt.c), prepared on first use. */
enum stmt {
	S_CAMPAIGN_GET,
	S_CAMPAIGN_ADD,
	S_HOST_GET,
	S_HOST_ADD,
	S_VARIANT_GET,
	S_VARIANT_ADD,
	S_METRIC_GET,
	S_METRIC_ADD,
	S_METRIC_BETTER,
	S_METRIC_ONE,
	S_ENV_ADD,
	S_ENV_ITEM_ADD,
	S_SESSION_ADD,
	S_CLAIM_ADD,
	S_CLAIM_GET,
	S_RUN_SEQS,
	S_SESSION_STATUS,
	S_TAG_ADD,
	S_TAG_NEXT,
	S_TAG_DEL,
	S_PRIMARY_ADD,
	S_SESSION_PRIMARY,
	S_VARIANT_PRIMARY,
	S_SESSION_CAMPAIGN,
	S_SV_ADD,
	S_RUN_ADD,
	S_RUN_ADD_ID,
	S_RUN_IDS,
	/* RM_ROWS statements: S_RUN_METRIC_ADD + n - 1 inserts n rows. */
	S_RUN_METRIC_ADD,
	S_RUN_METRIC_ADD_MAX = S_RUN_METRIC_ADD + RM_ROWS - 1,
	S_SESSION_END,
	S_CAMPAIGNS,
	S_SESSIONS_ALL,
	S_SESSIONS_OF,
	S_SESSION_ONE,
	S_SESSION_TAGS,
	S_SESSION_VARIANTS,
	S_SESSION_COUNTS,
	S_VARIANTS,
	S_LOAD,
	S_SESSION_ENV,
	S_RUNS_OF,
	S_RUN_METRICS_OF,
	S_RUNS_OF_VARIANT,
	S_RUN_METRICS_OF_VARIANT,
	S_UNFINISHED,
	S_BEGIN,
	S_COMMIT,
	S_ROLLBACK,
	S_COUNT
};

/* A cached metric id (store/write.c). */
struct mcache_ent {
	char *key; /* name, NUL, unit, NUL */
	size_t klen;
	uint64_t hash;
	int64_t id;
	int better;
};

struct pr_store {
	const struct pr_db_ops *ops;
	struct pr_db *db;
	char *target;
	enum pr_store_mode mode;
	int sqlite;
	int explicit_tx;  /* pr_store_begin is open */
	int tx_failed;    /* a write inside it failed */
	int sync_full;    /* this transaction commits with FULL */
	double last_sync; /* monotonic seconds */
	struct pr_db_stmt *stmt[S_COUNT];
	/* PostgreSQL: run ids reserved from the sequence for the explicit
	 * transaction, ids[next..n) still unused. */
	int64_t *ids;
	size_t ids_n, ids_next, ids_cap;
	struct mcache_ent *mc; /* open addressing, power of two */
	size_t mc_cap, mc_n;
	struct pr_buf scratch;
};

/* Binds parameters left to right, keeping the first failure. */
struct binder {
	struct pr_store *st;
	struct pr_db_stmt *s;
	int i;
	enum pr_status rc;
	struct pr_error *err;
};

/* store/stmt.c */

/* A printable form of a byte string for messages: at most 60 bytes,
 * non-printable bytes as \xHH, in buf. */
const char *st_shown(struct pr_str s, char *buf, size_t size);
/* Makes room for need elements of size bytes in *p (capacity *cap). */
enum pr_status st_grow(void **p, size_t *cap, size_t need, size_t size,
    struct pr_error *err);
/* An error about the database: "TARGET: MSG". */
enum pr_status st_dberr(struct pr_store *st, enum pr_status code,
    struct pr_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#ifdef __clang_analyzer__
/* For the static analyzer only, as error.h does for pr_error_set: the
 * status given is the status returned. */
#define st_dberr(st, code, ...) (st_dberr((st), (code), __VA_ARGS__), (code))
#endif
/* The prepared statement k, prepared on first use. */
enum pr_status st_stmt_get(struct pr_store *st, enum stmt k,
    struct pr_db_stmt **out, struct pr_error *err);
/* A C string for a TEXT column (checked: valid UTF-8); NULL binds NULL.
 * what names it in the error. */
void st_b_text(struct binder *b, const char *what, const char *s);
/* Steps once and reads column 0 as an integer: *found 0 when no row. */
enum pr_status st_step_id(struct pr_store *st, struct pr_db_stmt *s,
    int64_t *id, int *found, struct pr_error *err);
/* Runs a bound INSERT that makes an id and reads the id; the statement
 * is reset. */
enum pr_status st_insert_id(struct pr_store *st, struct pr_db_stmt *s,
    int64_t *id, struct pr_error *err);
/* st_insert_id for the INSERT b has bound. */
enum pr_status st_insert_bound(struct binder *b, int64_t *id);
/* Runs BEGIN (S_BEGIN), COMMIT or ROLLBACK. */
enum pr_status st_tx_exec(struct pr_store *st, enum stmt k,
    struct pr_error *err);

/* store/write.c */

/* Drops the metric id cache (after a rollback: its ids are gone). */
void st_mc_clear(struct pr_store *st);
/* The id of the campaign called name, created when create is 1, else
 * PR_ENOTFOUND when absent. */
enum pr_status st_campaign_id(struct pr_store *st, struct pr_str name,
    int create, int64_t *id, struct pr_error *err);
/* The campaign of a session; PR_ENOTFOUND when there is no such session. */
enum pr_status st_session_campaign(struct pr_store *st, int64_t session,
    int64_t *cid, struct pr_error *err);

/* Helpers short enough to be inline in every file. */

static inline double
now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline double
now_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline enum pr_status
oom(struct pr_error *err)
{
	return pr_error_set(err, PR_ENOMEM, "out of memory");
}

/* Copies p[0..n) to a NUL-terminated heap string. */
static inline char *
dupn(const char *p, size_t n)
{
	char *d = malloc(n + 1);

	if (d == NULL)
		return NULL;
	if (n > 0)
		memcpy(d, p, n);
	d[n] = '\0';
	return d;
}

static inline enum pr_status
dupstr(struct pr_str *out, const char *p, size_t n, struct pr_error *err)
{
	char *d = dupn(p != NULL ? p : "", p != NULL ? n : 0);

	out->p = d;
	out->n = d != NULL && p != NULL ? n : 0;
	return d != NULL ? PR_OK : oom(err);
}

static inline void
strfree(struct pr_str *s)
{
	free((void *)s->p);
	s->p = NULL;
	s->n = 0;
}

static inline void
stmt_done(struct pr_store *st, struct pr_db_stmt *s)
{
	if (s != NULL)
		st->ops->reset(s, NULL);
}

static inline void
binder_init(struct binder *b, struct pr_store *st, struct pr_db_stmt *s,
    struct pr_error *err)
{
	b->st = st;
	b->s = s;
	b->i = 0;
	b->rc = PR_OK;
	b->err = err;
}

static inline void
b_int(struct binder *b, int64_t v)
{
	b->i++;
	if (b->rc == PR_OK)
		b->rc = b->st->ops->bind_int(b->s, b->i, v, b->err);
}

static inline void
b_real(struct binder *b, double v)
{
	b->i++;
	if (b->rc == PR_OK)
		b->rc = b->st->ops->bind_real(b->s, b->i, v, b->err);
}

static inline void
b_null(struct binder *b)
{
	b->i++;
	if (b->rc == PR_OK)
		b->rc = b->st->ops->bind_null(b->s, b->i, b->err);
}

static inline void
b_bytes(struct binder *b, struct pr_str v)
{
	b->i++;
	if (b->rc == PR_OK)
		b->rc = b->st->ops->bind_blob(b->s, b->i,
		    v.p != NULL ? v.p : "", v.p != NULL ? v.n : 0, b->err);
}

/* A C string for a @BYTES@ column; NULL binds SQL NULL. */
static inline void
b_cbytes(struct binder *b, const char *s)
{
	if (s == NULL)
		b_null(b);
	else
		b_bytes(b, pr_str_c(s));
}

/* Steps s once; *row says whether a row came. */
static inline enum pr_status
step(struct pr_store *st, struct pr_db_stmt *s, int *row, struct pr_error *err)
{
	return st->ops->step(s, row, err);
}

/* Runs a statement that returns no rows or whose rows are ignored. */
static inline enum pr_status
step_done(struct pr_store *st, struct pr_db_stmt *s, struct pr_error *err)
{
	enum pr_status rc;
	int row;

	do
		rc = step(st, s, &row, err);
	while (rc == PR_OK && row);
	return rc;
}

/* Runs the statement b has bound, ignoring any rows, and resets it. */
static inline enum pr_status
run_bound(struct binder *b)
{
	enum pr_status rc = b->rc;

	if (rc == PR_OK)
		rc = step_done(b->st, b->s, b->err);
	stmt_done(b->st, b->s);
	return rc;
}

static inline size_t
col_size(struct pr_store *st, struct pr_db_stmt *s, int i)
{
	int64_t v = st->ops->column_int(s, i);

	return v > 0 ? (size_t)v : 0;
}

static inline enum pr_status
col_str(struct pr_store *st, struct pr_db_stmt *s, int i, struct pr_str *out,
    struct pr_error *err)
{
	const char *p;
	size_t n;

	p = st->ops->column_bytes(s, i, &n);
	return dupstr(out, p, n, err);
}

/* A column as a heap C string (NULL stays NULL when nullable). */
static inline enum pr_status
col_cstr(struct pr_store *st, struct pr_db_stmt *s, int i, int nullable,
    char **out, struct pr_error *err)
{
	const char *p;
	size_t n;

	p = st->ops->column_bytes(s, i, &n);
	if (p == NULL && nullable) {
		*out = NULL;
		return PR_OK;
	}
	*out = dupn(p != NULL ? p : "", p != NULL ? n : 0);
	return *out != NULL ? PR_OK : oom(err);
}

static inline enum pr_status
exec(struct pr_store *st, const char *sql, struct pr_error *err)
{
	return st->ops->exec(st->db, sql, err);
}

#endif /* PERFREG_STORE_STORE_INT_H */
