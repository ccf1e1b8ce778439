/*
 * store/store.c - the results store: schema, migrations and every query,
 * on top of the SQL driver interface (store/db.h) that SQLite and
 * PostgreSQL implement.
 *
 * Schema.  One DDL text serves both backends: @ID@, @BYTES@, @REAL@ and
 * @INT@ are replaced by the driver's type names, @NOROWID@ by "WITHOUT
 * ROWID" on SQLite.  doc/schema.md documents every table and column.
 * The schema version is the largest row of schema_version; a database
 * is perfreg's when its meta table says application = perfreg.
 * Migrations are steps from version k to k+1, each in its own write
 * transaction that first checks the version again, so that two
 * processes opening a new database at once create it once.
 *
 * Writes.  Statements are prepared once per connection and kept; metric
 * ids are cached in a hash table keyed by name and unit (dropped on
 * rollback, since ids made in a rolled-back transaction do not exist).
 * Each write call is one transaction unless the caller opened one with
 * pr_store_begin; an error rolls it back (or, inside an explicit
 * transaction, dooms it: pr_store_commit then refuses).  Get-or-create of
 * campaigns, hosts, variants and metrics is SELECT, then INSERT ... ON
 * CONFLICT DO NOTHING, then SELECT again, which is safe against another
 * writer creating the same row at the same moment on both backends.
 * A run is one INSERT and its metrics one more (up to RM_ROWS rows a
 * statement).  On PostgreSQL, inside pr_store_begin, runs take ids
 * reserved from the sequence in blocks (run_id), so that no statement
 * of an import waits for a reply: the driver pipelines them all.
 *
 * Durability on SQLite: WAL with synchronous=NORMAL, and the commit that
 * comes one second or more after the last synced one runs with
 * synchronous=FULL, which syncs the WAL and with it every earlier
 * commit; so a power loss loses at most about one second of runs
 * (doc/schema.md), without an fsync per run.
 *
 * Byte strings are bound as blobs (the SQLite driver stores valid UTF-8
 * as TEXT, see db_sqlite.c); strings the schema keeps as TEXT (host
 * names, boot ids, statuses, JSON) must be valid UTF-8 without NUL and
 * are checked before they are bound.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perfreg/buf.h"
#include "perfreg/store.h"
#include "store/db.h"
#include "store/str.h"

#include "core/bug.h"

#include "core/banned.h"

#define APPLICATION "perfreg"
/* PRAGMA application_id on SQLite: "PREG". */
#define SQLITE_APP_ID "1347568967"
/* A run's metric rows go in INSERTs of up to this many rows. */
#define RM_ROWS 8

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
	S_TAG_ADD,
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
	S_UNFINISHED,
	S_BEGIN,
	S_COMMIT,
	S_ROLLBACK,
	S_COUNT
};

#define SESSION_COLS \
	"SELECT s.id, c.name, h.name, s.boot_id, s.args_json, s.status, " \
	"s.started, s.elapsed_s, s.resumes FROM session s " \
	"JOIN campaign c ON c.id = s.campaign_id " \
	"JOIN host h ON h.id = s.host_id "

#define RM_ROW "(?, ?, ?, ?)"

static const char *const stmt_sql[S_COUNT] = {
	[S_CAMPAIGN_GET] = "SELECT id FROM campaign WHERE name = ?",
	[S_CAMPAIGN_ADD] = "INSERT INTO campaign (name, created) "
			   "VALUES (?, ?) ON CONFLICT DO NOTHING",
	[S_HOST_GET] = "SELECT id FROM host WHERE name = ?",
	[S_HOST_ADD] = "INSERT INTO host (name) VALUES (?) "
		       "ON CONFLICT DO NOTHING",
	[S_VARIANT_GET] = "SELECT id FROM variant "
			  "WHERE campaign_id = ? AND name = ?",
	[S_VARIANT_ADD] = "INSERT INTO variant (campaign_id, name, command) "
			  "VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
	[S_METRIC_GET] = "SELECT id, better FROM metric "
			 "WHERE name = ? AND unit = ?",
	[S_METRIC_ADD] = "INSERT INTO metric (name, unit, better) "
			 "VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
	[S_METRIC_BETTER] = "UPDATE metric SET better = ? "
			    "WHERE id = ? AND better = 0",
	[S_METRIC_ONE] = "SELECT name, unit, better FROM metric WHERE id = ?",
	[S_ENV_ADD] = "INSERT INTO env (json) VALUES (?)",
	[S_ENV_ITEM_ADD] = "INSERT INTO env_item "
			   "(env_id, pos, key, category, value, reason) "
			   "VALUES (?, ?, ?, ?, ?, ?)",
	[S_SESSION_ADD] =
	    "INSERT INTO session (campaign_id, host_id, "
	    "boot_id, args_json, status, started, elapsed_s, resumes, "
	    "env_id) VALUES (?, ?, ?, ?, 'running', ?, NULL, ?, ?)",
	[S_TAG_ADD] = "INSERT INTO tag (session_id, pos, key, value) "
		      "VALUES (?, ?, ?, ?)",
	[S_SESSION_CAMPAIGN] = "SELECT campaign_id FROM session WHERE id = ?",
	[S_SV_ADD] =
	    "INSERT INTO session_variant "
	    "(session_id, variant_id, pos, command) VALUES (?, ?, "
	    "(SELECT count(*) FROM session_variant WHERE session_id = ?), "
	    "?) ON CONFLICT DO NOTHING",
	[S_RUN_ADD] =
	    "INSERT INTO run (session_id, variant_id, round, seq, "
	    "warmup, ok, outcome, exit_status, signal, reason, failed_in, "
	    "output, output_len, truncated, start_s) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	/* PostgreSQL, inside pr_store_begin: runs with ids reserved in
	 * blocks (run_id), so that no insert waits for its RETURNING. */
	[S_RUN_ADD_ID] =
	    "INSERT INTO run (id, session_id, variant_id, round, "
	    "seq, warmup, ok, outcome, exit_status, signal, reason, "
	    "failed_in, output, output_len, truncated, start_s) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[S_RUN_IDS] = "SELECT nextval(pg_get_serial_sequence('run', 'id')) "
		      "FROM generate_series(1, CAST(? AS integer))",
	/* Followed by RM_ROW once per row (stmt_get). */
	[S_RUN_METRIC_ADD] = "INSERT INTO run_metric "
			     "(run_id, metric_id, pos, value) VALUES ",
	[S_SESSION_END] = "UPDATE session SET status = ?, elapsed_s = ? "
			  "WHERE id = ? RETURNING id",
	[S_CAMPAIGNS] =
	    "SELECT c.name, "
	    "(SELECT count(*) FROM variant v WHERE v.campaign_id = c.id), "
	    "(SELECT count(*) FROM session s WHERE s.campaign_id = c.id), "
	    "(SELECT count(DISTINCT s.boot_id) FROM session s "
	    "WHERE s.campaign_id = c.id), "
	    "(SELECT count(DISTINCT s.host_id) FROM session s "
	    "WHERE s.campaign_id = c.id), "
	    "(SELECT count(*) FROM session s JOIN run r "
	    "ON r.session_id = s.id WHERE s.campaign_id = c.id "
	    "AND r.warmup = 0 AND r.ok = 1), "
	    "(SELECT count(*) FROM session s JOIN run r "
	    "ON r.session_id = s.id WHERE s.campaign_id = c.id "
	    "AND r.warmup = 0 AND r.ok = 0), "
	    "(SELECT min(s.started) FROM session s "
	    "WHERE s.campaign_id = c.id), "
	    "(SELECT max(s.started) FROM session s "
	    "WHERE s.campaign_id = c.id) "
	    "FROM campaign c",
	[S_SESSIONS_ALL] = SESSION_COLS "ORDER BY s.started, s.id",
	[S_SESSIONS_OF] = SESSION_COLS "WHERE s.campaign_id = ? "
				       "ORDER BY s.started, s.id",
	[S_SESSION_ONE] = SESSION_COLS "WHERE s.id = ?",
	[S_SESSION_TAGS] = "SELECT key, value FROM tag WHERE session_id = ? "
			   "ORDER BY pos",
	[S_SESSION_VARIANTS] = "SELECT v.name FROM session_variant sv "
			       "JOIN variant v ON v.id = sv.variant_id "
			       "WHERE sv.session_id = ? ORDER BY sv.pos",
	[S_SESSION_COUNTS] = "SELECT "
			     "count(*) FILTER (WHERE warmup = 0 AND ok = 1), "
			     "count(*) FILTER (WHERE warmup = 0 AND ok = 0), "
			     "count(*) FILTER (WHERE warmup <> 0) "
			     "FROM run WHERE session_id = ?",
	[S_VARIANTS] =
	    "SELECT v.id, v.name, coalesce("
	    "(SELECT sv.command FROM session_variant sv "
	    "JOIN session s ON s.id = sv.session_id "
	    "WHERE sv.variant_id = v.id ORDER BY s.started DESC, s.id DESC "
	    "LIMIT 1), v.command), "
	    "(SELECT count(*) FROM session_variant sv "
	    "WHERE sv.variant_id = v.id), "
	    "(SELECT count(DISTINCT s.boot_id) FROM session_variant sv "
	    "JOIN session s ON s.id = sv.session_id "
	    "WHERE sv.variant_id = v.id), "
	    "(SELECT count(*) FROM run r WHERE r.variant_id = v.id "
	    "AND r.warmup = 0 AND r.ok = 1), "
	    "(SELECT count(*) FROM run r WHERE r.variant_id = v.id "
	    "AND r.warmup = 0 AND r.ok = 0) "
	    "FROM variant v WHERE v.campaign_id = ? ORDER BY v.id",
	[S_LOAD] = "SELECT r.session_id, s.boot_id, r.id, rm.metric_id, "
		   "rm.pos, rm.value FROM run r "
		   "JOIN session s ON s.id = r.session_id "
		   "LEFT JOIN run_metric rm ON rm.run_id = r.id "
		   "WHERE r.variant_id = ? AND r.warmup = 0 AND r.ok = 1 "
		   "ORDER BY r.id",
	[S_SESSION_ENV] = "SELECT s.env_id, e.json FROM session s "
			  "LEFT JOIN env e ON e.id = s.env_id WHERE s.id = ?",
	[S_RUNS_OF] =
	    "SELECT r.id, v.name, r.round, r.seq, r.warmup, r.ok, "
	    "r.outcome, r.exit_status, r.signal, r.reason, r.failed_in, "
	    "r.output, r.truncated, r.start_s FROM run r "
	    "JOIN variant v ON v.id = r.variant_id "
	    "WHERE r.session_id = ? ORDER BY r.seq, r.id",
	[S_RUN_METRICS_OF] =
	    "SELECT r.id, m.name, m.unit, m.better, "
	    "rm.value FROM run r JOIN run_metric rm ON rm.run_id = r.id "
	    "JOIN metric m ON m.id = rm.metric_id "
	    "WHERE r.session_id = ? ORDER BY r.seq, r.id, rm.pos",
	[S_UNFINISHED] =
	    "SELECT s.id FROM session s "
	    "JOIN campaign c ON c.id = s.campaign_id "
	    "JOIN host h ON h.id = s.host_id "
	    "WHERE c.name = ? AND h.name = ? "
	    "AND s.status IN ('running', 'interrupted', 'failed', "
	    "'max-failures') "
	    "AND NOT EXISTS (SELECT 1 FROM session n WHERE n.resumes = s.id) "
	    "ORDER BY s.started DESC, s.id DESC LIMIT 1",
	/* SQLite only (see tx_exec).  IMMEDIATE takes the write lock at
	 * once: a deferred transaction that reads and then writes fails
	 * with "locked" at once, without waiting, when another writer
	 * committed in between. */
	[S_BEGIN] = "BEGIN IMMEDIATE",
	[S_COMMIT] = "COMMIT",
	[S_ROLLBACK] = "ROLLBACK",
};

/*
 * Version 1.  Keep in step with doc/schema.md.  Columns holding byte
 * strings are @BYTES@; text columns hold valid UTF-8 only.  run_metric's
 * columns are not declared foreign keys: its rows are written only by
 * run_add, with the run's fresh id and a metric id just looked up, in
 * the run's transaction, and checking them cost a quarter of an
 * import's time (five rows a run).
 */
static const char schema_v1[] =
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
    "CREATE TABLE schema_version (version @INT@ PRIMARY KEY,"
    " applied @REAL@ NOT NULL, perfreg TEXT NOT NULL);\n"
    "CREATE TABLE host (id @ID@, name TEXT NOT NULL UNIQUE);\n"
    "CREATE TABLE campaign (id @ID@, name @BYTES@ NOT NULL UNIQUE,"
    " created @REAL@ NOT NULL);\n"
    "CREATE TABLE variant (id @ID@,"
    " campaign_id @INT@ NOT NULL REFERENCES campaign (id),"
    " name @BYTES@ NOT NULL, command @BYTES@,"
    " UNIQUE (campaign_id, name));\n"
    "CREATE TABLE env (id @ID@, json TEXT NOT NULL);\n"
    "CREATE TABLE env_item (env_id @INT@ NOT NULL REFERENCES env (id),"
    " pos @INT@ NOT NULL, key @BYTES@ NOT NULL,"
    " category @BYTES@ NOT NULL, value @BYTES@, reason @BYTES@,"
    " PRIMARY KEY (env_id, pos))@NOROWID@;\n"
    "CREATE INDEX env_item_key ON env_item (key);\n"
    "CREATE TABLE session (id @ID@,"
    " campaign_id @INT@ NOT NULL REFERENCES campaign (id),"
    " host_id @INT@ NOT NULL REFERENCES host (id),"
    " boot_id TEXT NOT NULL, args_json TEXT, status TEXT NOT NULL,"
    " started @REAL@ NOT NULL, elapsed_s @REAL@,"
    " resumes @INT@ REFERENCES session (id),"
    " env_id @INT@ REFERENCES env (id));\n"
    "CREATE INDEX session_campaign ON session (campaign_id, started);\n"
    "CREATE INDEX session_resumes ON session (resumes);\n"
    "CREATE TABLE session_variant ("
    " session_id @INT@ NOT NULL REFERENCES session (id),"
    " variant_id @INT@ NOT NULL REFERENCES variant (id),"
    " pos @INT@ NOT NULL, command @BYTES@,"
    " PRIMARY KEY (session_id, variant_id))@NOROWID@;\n"
    "CREATE INDEX session_variant_variant ON session_variant"
    " (variant_id);\n"
    "CREATE TABLE run (id @ID@,"
    " session_id @INT@ NOT NULL REFERENCES session (id),"
    " variant_id @INT@ NOT NULL REFERENCES variant (id),"
    " round @INT@ NOT NULL, seq @INT@ NOT NULL,"
    " warmup @INT@ NOT NULL, ok @INT@ NOT NULL, outcome TEXT NOT NULL,"
    " exit_status @INT@ NOT NULL, signal @INT@ NOT NULL,"
    " reason @BYTES@ NOT NULL, failed_in TEXT,"
    " output @BYTES@ NOT NULL, output_len @INT@ NOT NULL,"
    " truncated @INT@ NOT NULL, start_s @REAL@ NOT NULL);\n"
    "CREATE INDEX run_session ON run (session_id, seq);\n"
    "CREATE INDEX run_variant ON run (variant_id, id);\n"
    "CREATE TABLE metric (id @ID@, name @BYTES@ NOT NULL,"
    " unit @BYTES@ NOT NULL, better @INT@ NOT NULL,"
    " UNIQUE (name, unit));\n"
    "CREATE TABLE run_metric (run_id @INT@ NOT NULL,"
    " metric_id @INT@ NOT NULL,"
    " pos @INT@ NOT NULL, value @REAL@ NOT NULL,"
    " PRIMARY KEY (run_id, metric_id))@NOROWID@;\n"
    "CREATE TABLE tag (session_id @INT@ NOT NULL REFERENCES session (id),"
    " pos @INT@ NOT NULL, key @BYTES@ NOT NULL, value @BYTES@ NOT NULL,"
    " PRIMARY KEY (session_id, pos))@NOROWID@;\n"
    "CREATE INDEX tag_key ON tag (key);\n";

/* Migration steps: steps[k] brings version k to k + 1. */
static const char *const steps[PR_STORE_SCHEMA_VERSION] = { schema_v1 };

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

/* ---- small helpers ---- */

static double
now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
now_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A printable form of a byte string for messages: at most 60 bytes,
 * non-printable bytes as \xHH. */
static const char *
shown(struct pr_str s, char *buf, size_t size)
{
	size_t i, o = 0;
	unsigned char c;

	for (i = 0; i < s.n && o + 5 < size; i++) {
		c = (unsigned char)s.p[i];
		if (i == 60) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (c >= 0x20 && c < 0x7f && c != '\\')
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
	}
	buf[o] = '\0';
	return buf;
}

static enum pr_status
oom(struct pr_error *err)
{
	return pr_error_set(err, PR_ENOMEM, "out of memory");
}

/* Copies p[0..n) to a NUL-terminated heap string. */
static char *
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

static enum pr_status
dupstr(struct pr_str *out, const char *p, size_t n, struct pr_error *err)
{
	char *d = dupn(p != NULL ? p : "", p != NULL ? n : 0);

	out->p = d;
	out->n = d != NULL && p != NULL ? n : 0;
	return d != NULL ? PR_OK : oom(err);
}

static void
strfree(struct pr_str *s)
{
	free((void *)s->p);
	s->p = NULL;
	s->n = 0;
}

/* Makes room for need elements of size bytes in *p (capacity *cap). */
static enum pr_status
grow(void **p, size_t *cap, size_t need, size_t size, struct pr_error *err)
{
	size_t c = *cap ? *cap : 16;
	void *t;

	if (need <= *cap)
		return PR_OK;
	while (c < need)
		c *= 2;
	t = realloc(*p, c * size);
	if (t == NULL)
		return oom(err);
	*p = t;
	*cap = c;
	return PR_OK;
}

/* The target for messages: a libpq URI or keyword string loses its
 * password. */
static char *
redact(const char *t)
{
	const char *at, *colon, *scheme, *pw, *end;
	struct pr_buf b = PR_BUF_INIT(1 << 16);

	scheme = strstr(t, "://");
	if (scheme != NULL && (at = strchr(scheme + 3, '@')) != NULL) {
		colon = memchr(scheme + 3, ':', (size_t)(at - scheme - 3));
		if (colon != NULL) {
			if (pr_buf_add(&b, t, (size_t)(colon - t), NULL) ||
			    pr_buf_adds(&b, at, NULL))
				goto fail;
			return pr_buf_detach(&b, NULL);
		}
	}
	pw = strstr(t, "password=");
	if (scheme == NULL && pw != NULL) {
		end = strchr(pw, ' ');
		if (pr_buf_add(&b, t, (size_t)(pw - t), NULL) ||
		    (end != NULL && pr_buf_adds(&b, end + 1, NULL)))
			goto fail;
		return pr_buf_detach(&b, NULL);
	}
	return dupn(t, strlen(t));
fail:
	pr_buf_release(&b);
	return NULL;
}

static enum pr_status dberr(struct pr_store *st, enum pr_status code,
    struct pr_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* An error about the database: "TARGET: MSG". */
static enum pr_status
dberr(struct pr_store *st, enum pr_status code, struct pr_error *err,
    const char *fmt, ...)
{
	char msg[PR_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pr_error_at(err, code, st->target, 0, 0, "%s", msg);
}
#ifdef __clang_analyzer__
/* The static analyzer does not follow variadic functions: say what dberr
 * returns (as include/perfreg/error.h does for pr_error_set). */
#define dberr(st, code, ...) (dberr((st), (code), __VA_ARGS__), (code))
#endif

/* ---- statements and binding ---- */

/* 1 for the INSERTs whose new id insert_id reads. */
static int
makes_id(enum stmt k)
{
	return k == S_ENV_ADD || k == S_SESSION_ADD || k == S_RUN_ADD;
}

static enum pr_status
stmt_get(struct pr_store *st, enum stmt k, struct pr_db_stmt **out,
    struct pr_error *err)
{
	enum pr_status rc;
	char sql[1024];
	size_t n, i;

	*out = NULL;
	if (st->stmt[k] == NULL) {
		/* PostgreSQL returns new ids with RETURNING.  SQLite runs
		 * RETURNING as a trigger, which costs a statement journal
		 * (a 64 KiB allocation and a savepoint) per insert, so it
		 * asks the driver for the last rowid instead. */
		if (makes_id(k) && !st->sqlite)
			n = (size_t)snprintf(sql, sizeof(sql),
			    "%s RETURNING id", stmt_sql[k]);
		else if (k >= S_RUN_METRIC_ADD && k <= S_RUN_METRIC_ADD_MAX) {
			/* SQLite gives an INSERT of several rows that may
			 * abort a statement journal, to undo its first rows;
			 * OR FAIL keeps them, which costs nothing here: a
			 * failed write rolls back or dooms its transaction
			 * anyway. */
			n = (size_t)snprintf(sql, sizeof(sql), "%s%s",
			    st->sqlite ? "INSERT OR FAIL" : "INSERT",
			    stmt_sql[S_RUN_METRIC_ADD] + strlen("INSERT"));
			for (i = 0; i <= (size_t)(k - S_RUN_METRIC_ADD); i++)
				n += (size_t)snprintf(sql + n, sizeof(sql) - n,
				    "%s" RM_ROW, i > 0 ? ", " : "");
		} else
			n = (size_t)snprintf(sql, sizeof(sql), "%s",
			    stmt_sql[k]);
		if (n >= sizeof(sql))
			PR_BUG("statement %d is longer than its buffer",
			    (int)k);
		rc = st->ops->prepare(st->db, sql, &st->stmt[k], err);
		if (rc != PR_OK)
			return rc;
	}
	*out = st->stmt[k];
	return PR_OK;
}

static void
stmt_done(struct pr_store *st, struct pr_db_stmt *s)
{
	if (s != NULL)
		st->ops->reset(s, NULL);
}

/* Binds parameters left to right, keeping the first failure. */
struct binder {
	struct pr_store *st;
	struct pr_db_stmt *s;
	int i;
	enum pr_status rc;
	struct pr_error *err;
};

static void
binder_init(struct binder *b, struct pr_store *st, struct pr_db_stmt *s,
    struct pr_error *err)
{
	b->st = st;
	b->s = s;
	b->i = 0;
	b->rc = PR_OK;
	b->err = err;
}

static void
b_int(struct binder *b, int64_t v)
{
	b->i++;
	if (b->rc == PR_OK)
		b->rc = b->st->ops->bind_int(b->s, b->i, v, b->err);
}

static void
b_real(struct binder *b, double v)
{
	b->i++;
	if (b->rc == PR_OK)
		b->rc = b->st->ops->bind_real(b->s, b->i, v, b->err);
}

static void
b_null(struct binder *b)
{
	b->i++;
	if (b->rc == PR_OK)
		b->rc = b->st->ops->bind_null(b->s, b->i, b->err);
}

static void
b_bytes(struct binder *b, struct pr_str v)
{
	b->i++;
	if (b->rc == PR_OK)
		b->rc = b->st->ops->bind_blob(b->s, b->i,
		    v.p != NULL ? v.p : "", v.p != NULL ? v.n : 0, b->err);
}

/* A C string for a @BYTES@ column; NULL binds SQL NULL. */
static void
b_cbytes(struct binder *b, const char *s)
{
	if (s == NULL)
		b_null(b);
	else
		b_bytes(b, pr_str_c(s));
}

/* A C string for a TEXT column (checked: valid UTF-8); NULL binds NULL. */
static void
b_text(struct binder *b, const char *what, const char *s)
{
	size_t n;

	b->i++;
	if (b->rc != PR_OK)
		return;
	if (s == NULL) {
		b->rc = b->st->ops->bind_null(b->s, b->i, b->err);
		return;
	}
	n = strlen(s);
	if (!pr_store_utf8_text(s, n)) {
		b->rc = dberr(b->st, PR_EINVAL, b->err,
		    "the %s is not valid UTF-8 text", what);
		return;
	}
	b->rc = b->st->ops->bind_text(b->s, b->i, s, n, b->err);
}

/* Steps s once; *row says whether a row came. */
static enum pr_status
step(struct pr_store *st, struct pr_db_stmt *s, int *row, struct pr_error *err)
{
	return st->ops->step(s, row, err);
}

/* Runs a statement that returns no rows or whose rows are ignored. */
static enum pr_status
step_done(struct pr_store *st, struct pr_db_stmt *s, struct pr_error *err)
{
	enum pr_status rc;
	int row;

	do
		rc = step(st, s, &row, err);
	while (rc == PR_OK && row);
	return rc;
}

/* Steps once and reads column 0 as an integer: *found 0 when no row. */
static enum pr_status
step_id(struct pr_store *st, struct pr_db_stmt *s, int64_t *id, int *found,
    struct pr_error *err)
{
	enum pr_status rc;
	int row;

	rc = step(st, s, &row, err);
	*found = rc == PR_OK && row;
	if (*found)
		*id = st->ops->column_int(s, 0);
	return rc;
}

/* Runs a bound INSERT that makes an id (makes_id) and reads the id; the
 * statement is reset. */
static enum pr_status
insert_id(struct pr_store *st, struct pr_db_stmt *s, int64_t *id,
    struct pr_error *err)
{
	enum pr_status rc;
	int found = 0;

	if (!st->sqlite)
		rc = step_id(st, s, id, &found, err);
	else {
		rc = step_done(st, s, err);
		if (rc == PR_OK)
			rc = st->ops->last_insert_id(st->db, id, err);
		found = rc == PR_OK;
	}
	stmt_done(st, s);
	if (rc == PR_OK && !found)
		rc = dberr(st, PR_EIO, err, "no id for the new row");
	return rc;
}

/* Runs the statement b has bound, ignoring any rows, and resets it. */
static enum pr_status
run_bound(struct binder *b)
{
	enum pr_status rc = b->rc;

	if (rc == PR_OK)
		rc = step_done(b->st, b->s, b->err);
	stmt_done(b->st, b->s);
	return rc;
}

/* insert_id for the INSERT b has bound. */
static enum pr_status
insert_bound(struct binder *b, int64_t *id)
{
	if (b->rc != PR_OK) {
		stmt_done(b->st, b->s);
		return b->rc;
	}
	return insert_id(b->st, b->s, id, b->err);
}

static size_t
col_size(struct pr_store *st, struct pr_db_stmt *s, int i)
{
	int64_t v = st->ops->column_int(s, i);

	return v > 0 ? (size_t)v : 0;
}

static enum pr_status
col_str(struct pr_store *st, struct pr_db_stmt *s, int i, struct pr_str *out,
    struct pr_error *err)
{
	const char *p;
	size_t n;

	p = st->ops->column_bytes(s, i, &n);
	return dupstr(out, p, n, err);
}

/* A column as a heap C string (NULL stays NULL when nullable). */
static enum pr_status
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

static enum pr_status
exec(struct pr_store *st, const char *sql, struct pr_error *err)
{
	return st->ops->exec(st->db, sql, err);
}

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

static void
mc_clear(struct pr_store *st)
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

/*
 * Runs BEGIN (S_BEGIN), COMMIT or ROLLBACK.  SQLite keeps them prepared:
 * sqlite3_exec would parse them again for every run.  PostgreSQL's
 * driver gets them as text, as its pipelining wants.
 */
static enum pr_status
tx_exec(struct pr_store *st, enum stmt k, struct pr_error *err)
{
	struct pr_db_stmt *s;
	enum pr_status rc;

	if (!st->sqlite)
		return exec(st, k == S_BEGIN ? "BEGIN" : stmt_sql[k], err);
	rc = stmt_get(st, k, &s, err);
	if (rc != PR_OK)
		return rc;
	rc = step_done(st, s, err);
	stmt_done(st, s);
	return rc;
}

static void
rollback_quiet(struct pr_store *st)
{
	struct pr_error e;

	tx_exec(st, S_ROLLBACK, &e);
	/* Ids made in the transaction are gone. */
	mc_clear(st);
}

static enum pr_status
writable(struct pr_store *st, struct pr_error *err)
{
	if (st->mode == PR_STORE_READ)
		return dberr(st, PR_EIO, err,
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
			return dberr(st, PR_EINVAL, err,
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
	rc = tx_exec(st, S_BEGIN, err);
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
		rc = tx_exec(st, S_COMMIT, err);
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
		return dberr(st, PR_EINVAL, err,
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
		return dberr(st, PR_EINVAL, err, "no transaction is open");
	st->explicit_tx = 0;
	if (st->tx_failed) {
		st->tx_failed = 0;
		rollback_quiet(st);
		return dberr(st, PR_EINVAL, err,
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

/* ---- opening and the schema ---- */

enum pr_status
pr_store_default_target(char **out, struct pr_error *err)
{
	const char *db = getenv("PERFREG_DB");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	struct pr_buf b = PR_BUF_INIT(1 << 16);
	enum pr_status rc;

	*out = NULL;
	if (db != NULL && *db != '\0')
		rc = pr_buf_adds(&b, db, err);
	else if (xdg != NULL && *xdg != '\0')
		rc = pr_buf_addf(&b, err, "%s/perfreg/perfreg.db", xdg);
	else if (home != NULL && *home != '\0')
		rc = pr_buf_addf(&b, err, "%s/.local/share/perfreg/perfreg.db",
		    home);
	else
		return pr_error_set(err, PR_ENOTFOUND,
		    "no database: set PERFREG_DB, XDG_DATA_HOME or HOME, "
		    "or give --db");
	if (rc == PR_OK && (*out = pr_buf_detach(&b, NULL)) == NULL)
		rc = oom(err);
	pr_buf_release(&b);
	return rc;
}

/* One integer from a query without parameters (prepared on the spot). */
static enum pr_status
query_int(struct pr_store *st, const char *sql, int64_t *v, int *found,
    struct pr_error *err)
{
	struct pr_db_stmt *s;
	enum pr_status rc;
	int row;

	*found = 0;
	rc = st->ops->prepare(st->db, sql, &s, err);
	if (rc != PR_OK)
		return rc;
	rc = step(st, s, &row, err);
	if (rc == PR_OK && row && st->ops->column_type(s, 0) != PR_DB_NULL) {
		*found = 1;
		*v = st->ops->column_int(s, 0);
	}
	st->ops->finalize(s);
	return rc;
}

/* The schema version of the database: 0 when it has no tables at all. */
static enum pr_status
schema_version(struct pr_store *st, int64_t *ver, struct pr_error *err)
{
	const char *tables, *meta;
	struct pr_db_stmt *s;
	enum pr_status rc;
	int64_t n = 0;
	int found, row, ours = 0;
	const char *p;
	size_t len;

	if (st->sqlite) {
		tables = "SELECT count(*) FROM sqlite_master "
			 "WHERE type = 'table'";
		meta = "SELECT count(*) FROM sqlite_master "
		       "WHERE type = 'table' AND name = 'meta'";
	} else {
		tables = "SELECT count(*) FROM information_schema.tables "
			 "WHERE table_schema = current_schema()";
		meta = "SELECT count(*) FROM information_schema.tables "
		       "WHERE table_schema = current_schema() "
		       "AND table_name = 'meta'";
	}
	*ver = 0;
	rc = query_int(st, tables, &n, &found, err);
	if (rc != PR_OK || n == 0)
		return rc;
	rc = query_int(st, meta, &n, &found, err);
	if (rc != PR_OK)
		return rc;
	if (n == 1) {
		rc = st->ops->prepare(st->db,
		    "SELECT value FROM meta "
		    "WHERE key = 'application'",
		    &s, err);
		if (rc != PR_OK)
			return rc;
		rc = step(st, s, &row, err);
		if (rc == PR_OK && row) {
			p = st->ops->column_bytes(s, 0, &len);
			ours = p != NULL && len == strlen(APPLICATION) &&
			    memcmp(p, APPLICATION, len) == 0;
		}
		st->ops->finalize(s);
		if (rc != PR_OK)
			return rc;
	}
	if (!ours)
		return dberr(st, PR_EPARSE, err,
		    "not a perfreg database (it holds other tables)");
	rc = query_int(st, "SELECT max(version) FROM schema_version", ver,
	    &found, err);
	if (rc == PR_OK && !found)
		return dberr(st, PR_EPARSE, err,
		    "not a perfreg database (no schema version)");
	return rc;
}

/* The DDL with the driver's types. */
static enum pr_status
ddl(struct pr_store *st, const char *text, struct pr_buf *out,
    struct pr_error *err)
{
	static const char *const names[] = { "@ID@", "@BYTES@", "@REAL@",
		"@INT@", "@NOROWID@" };
	const char *vals[5];
	const char *p = text, *at;
	enum pr_status rc = PR_OK;
	size_t k, len;

	vals[0] = st->ops->type_id;
	vals[1] = st->ops->type_bytes;
	vals[2] = st->ops->type_real;
	vals[3] = st->ops->type_int;
	vals[4] = st->sqlite ? " WITHOUT ROWID" : "";
	pr_buf_reset(out);
	while (rc == PR_OK && (at = strchr(p, '@')) != NULL) {
		rc = pr_buf_add(out, p, (size_t)(at - p), err);
		for (k = 0; k < 5; k++) {
			len = strlen(names[k]);
			if (strncmp(at, names[k], len) == 0)
				break;
		}
		if (k == 5)
			PR_BUG("unknown placeholder in the schema: %.20s", at);
		if (rc == PR_OK)
			rc = pr_buf_adds(out, vals[k], err);
		p = at + len;
	}
	if (rc == PR_OK)
		rc = pr_buf_adds(out, p, err);
	return rc;
}

/* Brings the database from version `from` to `from + 1`. */
static enum pr_status
migrate_step(struct pr_store *st, int64_t from, struct pr_error *err)
{
	struct pr_db_stmt *s = NULL;
	struct binder b;
	enum pr_status rc;
	int64_t ver = 0;
	char vbuf[32];

	rc = tx_exec(st, S_BEGIN, err);
	if (rc != PR_OK)
		return rc;
	/* Two processes may create the database at once: the second waits
	 * for the first and then finds the step done. */
	if (!st->sqlite)
		rc = exec(st, "SELECT pg_advisory_xact_lock(1347568967)", err);
	if (rc == PR_OK)
		rc = schema_version(st, &ver, err);
	if (rc != PR_OK || ver != from)
		goto out;
	rc = ddl(st, steps[from], &st->scratch, err);
	if (rc == PR_OK)
		rc = exec(st, st->scratch.data, err);
	if (rc == PR_OK && from == 0) {
		rc = exec(st,
		    "INSERT INTO meta (key, value) "
		    "VALUES ('application', '" APPLICATION "')",
		    err);
		if (rc == PR_OK && st->sqlite)
			rc = exec(st, "PRAGMA application_id = " SQLITE_APP_ID,
			    err);
	}
	if (rc == PR_OK)
		rc = st->ops->prepare(st->db,
		    "INSERT INTO schema_version "
		    "(version, applied, perfreg) VALUES (?, ?, ?)",
		    &s, err);
	if (rc == PR_OK) {
		snprintf(vbuf, sizeof(vbuf), "%s", PERFREG_VERSION);
		binder_init(&b, st, s, err);
		b_int(&b, from + 1);
		b_real(&b, now_real());
		b_text(&b, "version", vbuf);
		rc = b.rc;
	}
	if (rc == PR_OK)
		rc = step_done(st, s, err);
	if (s != NULL)
		st->ops->finalize(s);
out:
	if (rc == PR_OK)
		rc = tx_exec(st, S_COMMIT, err);
	if (rc != PR_OK)
		tx_exec(st, S_ROLLBACK, NULL);
	return rc;
}

enum pr_status
pr_store_open(const char *target, enum pr_store_mode mode,
    struct pr_store **out, struct pr_error *err)
{
	struct pr_store *st;
	enum pr_status rc;
	int64_t ver = 0, v;
	int flags;

	*out = NULL;
	if (target == NULL || *target == '\0')
		return pr_error_set(err, PR_EINVAL, "empty database name");
	st = calloc(1, sizeof(*st));
	if (st == NULL)
		return oom(err);
	pr_buf_init(&st->scratch, (size_t)64 << 20);
	st->ops = pr_db_driver_for(target);
	st->sqlite = st->ops == &pr_db_sqlite;
	st->mode = mode;
	st->last_sync = now_mono();
	st->target = redact(target);
	if (st->target == NULL) {
		free(st);
		return oom(err);
	}
	flags = mode == PR_STORE_READ ? PR_DB_READONLY
	    : mode == PR_STORE_CREATE ? PR_DB_CREATE
				      : 0;
	rc = st->ops->open(target, flags, &st->db, err);
	if (rc == PR_OK)
		rc = schema_version(st, &ver, err);
	if (rc != PR_OK)
		goto fail;
	if (ver > PR_STORE_SCHEMA_VERSION) {
		rc = dberr(st, PR_EINVAL, err,
		    "made by a newer perfreg (schema %lld, this one knows %d)",
		    (long long)ver, PR_STORE_SCHEMA_VERSION);
		goto fail;
	}
	if (ver == 0 && mode != PR_STORE_CREATE) {
		rc = dberr(st, PR_EPARSE, err,
		    "not a perfreg database (it is empty)");
		goto fail;
	}
	if (ver < PR_STORE_SCHEMA_VERSION && mode == PR_STORE_READ) {
		rc = dberr(st, PR_EINVAL, err,
		    "made by an older perfreg (schema %lld, this one knows "
		    "%d); open it for writing once to bring it up to date",
		    (long long)ver, PR_STORE_SCHEMA_VERSION);
		goto fail;
	}
	for (v = ver; v < PR_STORE_SCHEMA_VERSION; v++) {
		rc = migrate_step(st, v, err);
		if (rc != PR_OK)
			goto fail;
	}
	*out = st;
	return PR_OK;
fail:
	pr_store_close(st);
	return rc;
}

void
pr_store_close(struct pr_store *st)
{
	size_t i;

	if (st == NULL)
		return;
	if (st->explicit_tx)
		pr_store_rollback(st);
	for (i = 0; i < S_COUNT; i++)
		if (st->stmt[i] != NULL)
			st->ops->finalize(st->stmt[i]);
	if (st->db != NULL)
		st->ops->close(st->db);
	mc_clear(st);
	free(st->ids);
	pr_buf_release(&st->scratch);
	free(st->target);
	free(st);
}

const char *
pr_store_backend(const struct pr_store *st)
{
	return st->ops->name;
}

const char *
pr_store_target(const struct pr_store *st)
{
	return st->target;
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

	rc = step_id(st, get, id, &found, err);
	stmt_done(st, get);
	if (rc != PR_OK || found)
		return rc;
	rc = step_done(st, add, err);
	stmt_done(st, add);
	if (rc != PR_OK)
		return rc;
	rc = step_id(st, get, id, &found, err);
	stmt_done(st, get);
	if (rc == PR_OK && !found)
		rc = dberr(st, PR_EIO, err, "a row just inserted is missing");
	return rc;
}

static enum pr_status
campaign_id(struct pr_store *st, struct pr_str name, int create, int64_t *id,
    struct pr_error *err)
{
	struct pr_db_stmt *get, *add;
	struct binder b;
	enum pr_status rc;
	char buf[300];
	int found = 0;

	rc = stmt_get(st, S_CAMPAIGN_GET, &get, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, get, err);
	b_bytes(&b, name);
	if (b.rc != PR_OK)
		return b.rc;
	if (!create) {
		rc = step_id(st, get, id, &found, err);
		stmt_done(st, get);
		if (rc == PR_OK && !found)
			rc = dberr(st, PR_ENOTFOUND, err, "no campaign '%s'",
			    shown(name, buf, sizeof(buf)));
		return rc;
	}
	rc = stmt_get(st, S_CAMPAIGN_ADD, &add, err);
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

	rc = stmt_get(st, S_HOST_GET, &get, err);
	if (rc == PR_OK)
		rc = stmt_get(st, S_HOST_ADD, &add, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, get, err);
	b_text(&b, "host name", name);
	if (b.rc != PR_OK)
		return b.rc;
	binder_init(&b, st, add, err);
	b_text(&b, "host name", name);
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
		rc = stmt_get(st, S_METRIC_GET, &get, err);
		if (rc == PR_OK)
			rc = stmt_get(st, S_METRIC_ADD, &add, err);
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
	rc = stmt_get(st, S_METRIC_BETTER, &upd, err);
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
		rc = stmt_get(st, S_ENV_ADD, &s, err);
	if (rc == PR_OK)
		rc = stmt_get(st, S_ENV_ITEM_ADD, &it, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_text(&b, "environment snapshot", st->scratch.data);
	rc = insert_bound(&b, id);
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

static enum pr_status
session_add(struct pr_store *st, const struct pr_store_session_new *n,
    int64_t *id, struct pr_error *err)
{
	struct pr_db_stmt *s, *t;
	struct binder b;
	enum pr_status rc;
	int64_t cid = 0, hid = 0, eid = 0;
	size_t i;

	rc = campaign_id(st, n->campaign, 1, &cid, err);
	if (rc == PR_OK)
		rc = host_id(st, n->host != NULL ? n->host : "", &hid, err);
	if (rc == PR_OK && n->env != NULL)
		rc = add_env(st, n->env, &eid, err);
	if (rc == PR_OK)
		rc = stmt_get(st, S_SESSION_ADD, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, cid);
	b_int(&b, hid);
	b_text(&b, "boot id", n->boot_id != NULL ? n->boot_id : "");
	b_text(&b, "argument list", n->args_json);
	b_real(&b, n->started);
	if (n->resumes > 0)
		b_int(&b, n->resumes);
	else
		b_null(&b);
	if (n->env != NULL)
		b_int(&b, eid);
	else
		b_null(&b);
	rc = insert_bound(&b, id);
	if (rc == PR_OK && n->ntags > 0)
		rc = stmt_get(st, S_TAG_ADD, &t, err);
	for (i = 0; rc == PR_OK && i < n->ntags; i++) {
		binder_init(&b, st, t, err);
		b_int(&b, *id);
		b_int(&b, (int64_t)i);
		b_bytes(&b, n->tags[i].key);
		b_bytes(&b, n->tags[i].value);
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
		return dberr(st, PR_EINVAL, err, "empty campaign name");
	rc = tx_begin(st, err);
	if (rc != PR_OK)
		return rc;
	rc = tx_end(st, session_add(st, s, id, err), err);
	if (rc != PR_OK)
		*id = 0;
	return rc;
}

/* The campaign of a session; PR_ENOTFOUND when there is no such session. */
static enum pr_status
session_campaign(struct pr_store *st, int64_t session, int64_t *cid,
    struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	int found = 0;

	rc = stmt_get(st, S_SESSION_CAMPAIGN, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, session);
	rc = b.rc;
	if (rc == PR_OK)
		rc = step_id(st, s, cid, &found, err);
	stmt_done(st, s);
	if (rc == PR_OK && !found)
		rc = dberr(st, PR_ENOTFOUND, err, "no session %lld",
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

	rc = session_campaign(st, session, &cid, err);
	if (rc == PR_OK)
		rc = stmt_get(st, S_VARIANT_GET, &get, err);
	if (rc == PR_OK)
		rc = stmt_get(st, S_VARIANT_ADD, &add, err);
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
		rc = stmt_get(st, S_SV_ADD, &s, err);
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
		return dberr(st, PR_EINVAL, err, "empty variant name");
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
	rc = grow((void **)&st->ids, &st->ids_cap, want, sizeof(*st->ids), err);
	if (rc == PR_OK)
		rc = stmt_get(st, S_RUN_IDS, &s, err);
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
		return dberr(st, PR_EIO, err, "reserved %zu run ids, not %zu",
		    n, want);
	/* A query's nextval() calls come in order; sorted to be sure. */
	qsort(st->ids, n, sizeof(*st->ids), id_cmp);
	st->ids_n = n;
	st->ids_next = 1;
	*id = st->ids[0];
	return PR_OK;
}

/* Inserts the n metric rows of run rid in mid[], val[] (positions pos0
 * on) with one statement. */
static enum pr_status
metric_rows(struct pr_store *st, int64_t rid, const int64_t *mid,
    const double *val, size_t n, size_t pos0, struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	size_t i;

	rc = stmt_get(st, (enum stmt)(S_RUN_METRIC_ADD + (int)n - 1), &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	for (i = 0; i < n; i++) {
		b_int(&b, rid);
		b_int(&b, mid[i]);
		b_int(&b, (int64_t)(pos0 + i));
		b_real(&b, val[i]);
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
		rc = stmt_get(st, pre ? S_RUN_ADD_ID : S_RUN_ADD, &s, err);
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
	b_text(&b, "outcome", r->outcome != NULL ? r->outcome : "");
	b_int(&b, r->exit_status);
	b_int(&b, r->signal);
	b_bytes(&b, r->reason);
	b_text(&b, "failure stage", r->failed_in);
	b_bytes(&b, out);
	b_int(&b, r->output.p != NULL ? (int64_t)r->output.n : 0);
	b_int(&b, trunc);
	b_real(&b, r->start_s);
	rc = pre ? run_bound(&b) : insert_bound(&b, &rid);
	if (rc != PR_OK || r->metrics == NULL)
		return rc;
	/* The rows go RM_ROWS at a time: one statement instead of one a
	 * metric. */
	for (i = 0, pos = 0, n = 0; i < r->metrics->n; i++) {
		m = &r->metrics->metrics[i];
		if (m->values.n == 0)
			continue;
		if (m->values.n != 1)
			return dberr(st, PR_EINVAL, err,
			    "metric '%s' has %zu values; a run has one",
			    m->name, m->values.n);
		rc = metric_id(st, m, &mid[n], err);
		if (rc != PR_OK)
			return rc;
		val[n++] = m->values.v[0];
		if (n == RM_ROWS) {
			rc = metric_rows(st, rid, mid, val, n, pos, err);
			if (rc != PR_OK)
				return rc;
			pos += n;
			n = 0;
		}
	}
	if (n > 0)
		rc = metric_rows(st, rid, mid, val, n, pos, err);
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
	rc = stmt_get(st, S_SESSION_END, &s, err);
	if (rc == PR_OK) {
		binder_init(&b, st, s, err);
		b_text(&b, "status", status != NULL ? status : "");
		b_real(&b, elapsed_s);
		b_int(&b, session);
		rc = b.rc;
		if (rc == PR_OK)
			rc = step_id(st, s, &id, &found, err);
		if (rc == PR_OK)
			rc = step_done(st, s, err);
		stmt_done(st, s);
		if (rc == PR_OK && !found)
			rc = dberr(st, PR_ENOTFOUND, err, "no session %lld",
			    (long long)session);
	}
	return tx_end(st, rc, err);
}

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
	rc = stmt_get(st, S_CAMPAIGNS, &s, err);
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = grow((void **)&v, &cap, k + 1, sizeof(*v), err);
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

/* Tags, variants and run counts of o->id. */
static enum pr_status
session_details(struct pr_store *st, struct pr_store_session_info *o,
    struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct binder b;
	enum pr_status rc;
	size_t cap = 0;
	int row;

	rc = stmt_get(st, S_SESSION_TAGS, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, o->id);
	rc = b.rc;
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = grow((void **)&o->tags, &cap, o->ntags + 1,
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
		rc = stmt_get(st, S_SESSION_VARIANTS, &s, err);
	if (rc != PR_OK)
		return rc;
	cap = 0;
	binder_init(&b, st, s, err);
	b_int(&b, o->id);
	rc = b.rc;
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = grow((void **)&o->variants, &cap, o->nvariants + 1,
		    sizeof(*o->variants), err);
		if (rc != PR_OK)
			break;
		rc = col_str(st, s, 0, &o->variants[o->nvariants], err);
		if (rc == PR_OK)
			o->nvariants++;
	}
	stmt_done(st, s);
	if (rc == PR_OK)
		rc = stmt_get(st, S_SESSION_COUNTS, &s, err);
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
		rc = campaign_id(st, campaign, 0, &cid, err);
		if (rc != PR_OK)
			return rc;
	}
	rc = stmt_get(st, campaign.p != NULL ? S_SESSIONS_OF : S_SESSIONS_ALL,
	    &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	if (campaign.p != NULL)
		b_int(&b, cid);
	rc = b.rc;
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = grow((void **)&v, &cap, k + 1, sizeof(*v), err);
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
	rc = stmt_get(st, S_SESSION_ONE, &s, err);
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
		rc = dberr(st, PR_ENOTFOUND, err, "no session %lld",
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
	rc = campaign_id(st, campaign, 0, &cid, err);
	if (rc == PR_OK)
		rc = stmt_get(st, S_VARIANTS, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, cid);
	rc = b.rc;
	while (rc == PR_OK && (rc = step(st, s, &row, err)) == PR_OK && row) {
		rc = grow((void **)&v, &cap, k + 1, sizeof(*v), err);
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
load_rows(struct pr_store *st, struct pr_db_stmt *s,
    struct pr_store_variant_data *out, struct lseries **lsp, size_t *nls,
    struct pr_error *err)
{
	struct lseries *ls = NULL, *x;
	size_t lcap = 0, bcap = 0, nl = 0, boot = 0, runs = 0, i, hint = 0;
	int64_t sid, last_sid = -1, rid, last_rid = -1, mid;
	const char *p;
	enum pr_status rc;
	size_t len;
	int row;

	while ((rc = step(st, s, &row, err)) == PR_OK && row) {
		sid = st->ops->column_int(s, 0);
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
				rc = grow((void **)&out->boot_ids, &i, boot + 1,
				    sizeof(char *), err);
				if (rc == PR_OK)
					rc = grow((void **)&out->boot_session,
					    &bcap, boot + 1, sizeof(int64_t),
					    err);
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
			rc =
			    grow((void **)&ls, &lcap, nl + 1, sizeof(*ls), err);
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
		rc = grow((void **)&x->s.value, &i, x->s.n + 1, sizeof(double),
		    err);
		if (rc == PR_OK)
			rc = grow((void **)&x->s.boot, &x->cap, x->s.n + 1,
			    sizeof(size_t), err);
		if (rc != PR_OK)
			break;
		x->s.value[x->s.n] = st->ops->column_real(s, 5);
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
	struct pr_db_stmt *s;
	struct lseries *ls = NULL;
	struct binder b;
	enum pr_status rc;
	size_t nl = 0, i;
	int64_t cid = 0, vid = 0;
	int found, row;
	char buf[300], buf2[300];

	memset(out, 0, sizeof(*out));
	rc = campaign_id(st, campaign, 0, &cid, err);
	if (rc == PR_OK)
		rc = stmt_get(st, S_VARIANT_GET, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, cid);
	b_bytes(&b, variant);
	rc = b.rc;
	if (rc == PR_OK)
		rc = step_id(st, s, &vid, &found, err);
	stmt_done(st, s);
	if (rc == PR_OK && !found)
		rc = dberr(st, PR_ENOTFOUND, err,
		    "no variant '%s' in campaign '%s'",
		    shown(variant, buf, sizeof(buf)),
		    shown(campaign, buf2, sizeof(buf2)));
	if (rc == PR_OK)
		rc = stmt_get(st, S_LOAD, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, vid);
	rc = b.rc;
	if (rc == PR_OK)
		rc = load_rows(st, s, out, &ls, &nl, err);
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
			rc = stmt_get(st, S_METRIC_ONE, &s, err);
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
			rc = dberr(st, PR_EIO, err, "metric %lld is missing",
			    (long long)ls[i].metric);
		stmt_done(st, s);
	}
	free(ls);
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
	rc = stmt_get(st, S_SESSION_ENV, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_int(&b, session);
	rc = b.rc;
	if (rc == PR_OK)
		rc = step(st, s, &row, err);
	if (rc == PR_OK && !row)
		rc = dberr(st, PR_ENOTFOUND, err, "no session %lld",
		    (long long)session);
	if (rc == PR_OK && st->ops->column_type(s, 0) != PR_DB_NULL) {
		p = st->ops->column_bytes(s, 1, &n);
		snprintf(name, sizeof(name), "session %lld snapshot",
		    (long long)session);
		if (p == NULL)
			rc = dberr(st, PR_EPARSE, err, "%s is missing", name);
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
}

static enum pr_status
runmets_add(struct pr_store *st, struct pr_db_stmt *ms, struct runmets *m,
    struct pr_error *err)
{
	size_t c;
	enum pr_status rc;

	if (m->n == m->cap) {
		c = m->cap;
		rc =
		    grow((void **)&m->names, &c, m->n + 1, sizeof(char *), err);
		c = m->cap;
		if (rc == PR_OK)
			rc = grow((void **)&m->units, &c, m->n + 1,
			    sizeof(char *), err);
		c = m->cap;
		if (rc == PR_OK)
			rc = grow((void **)&m->better, &c, m->n + 1,
			    sizeof(enum pr_better), err);
		if (rc == PR_OK)
			rc = grow((void **)&m->values, &m->cap, m->n + 1,
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

enum pr_status
pr_store_each_run(struct pr_store *st, int64_t session, pr_store_run_cb *cb,
    void *arg, struct pr_error *err)
{
	struct pr_db_stmt *rs, *ms;
	struct binder b;
	enum pr_status rc;
	int64_t id = 0;

	rc = session_campaign(st, session, &id, err);
	if (rc == PR_OK)
		rc = stmt_get(st, S_RUNS_OF, &rs, err);
	if (rc == PR_OK)
		rc = stmt_get(st, S_RUN_METRICS_OF, &ms, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, rs, err);
	b_int(&b, session);
	rc = b.rc;
	if (rc == PR_OK) {
		binder_init(&b, st, ms, err);
		b_int(&b, session);
		rc = b.rc;
	}
	if (rc == PR_OK)
		rc = each_run(st, rs, ms, cb, arg, err);
	stmt_done(st, rs);
	stmt_done(st, ms);
	return rc;
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
	rc = stmt_get(st, S_UNFINISHED, &s, err);
	if (rc != PR_OK)
		return rc;
	binder_init(&b, st, s, err);
	b_bytes(&b, campaign);
	b_text(&b, "host name", host != NULL ? host : "");
	rc = b.rc;
	if (rc == PR_OK)
		rc = step_id(st, s, &id, &found, err);
	stmt_done(st, s);
	if (rc == PR_OK && !found)
		return dberr(st, PR_ENOTFOUND, err,
		    "no unfinished session of campaign '%s' on host '%s'",
		    shown(campaign, buf, sizeof(buf)),
		    host != NULL ? host : "");
	if (rc != PR_OK)
		return rc;
	return pr_store_session_get(st, id, out, err);
}
