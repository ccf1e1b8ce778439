/*
 * store/stmt.c - every SQL statement of the results store, prepared once
 * per connection on first use and kept, and the helpers that bind their
 * parameters and step them (store/store_int.h says how the store's files
 * divide the work).
 *
 * Statements are written once for both backends, with '?' parameters;
 * stmt_get adds what a backend needs (RETURNING id on PostgreSQL, where
 * SQLite asks its driver for the last rowid; the run_metric INSERTs of
 * one to RM_ROWS rows).  Byte strings are bound as blobs (the SQLite
 * driver stores valid UTF-8 as TEXT, see db_sqlite.c); strings the schema
 * keeps as TEXT (host names, boot ids, statuses, JSON) must be valid
 * UTF-8 without NUL and are checked before they are bound (st_b_text).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/store.h"
#include "store/store_int.h"

/* store_int.h's macro for the static analyzer would rename the definition. */
#undef st_dberr

#include "core/bug.h"

#include "core/banned.h"

#define SESSION_COLS \
	"SELECT s.id, c.name, h.name, s.boot_id, s.args_json, s.status, " \
	"s.started, s.elapsed_s, s.resumes, s.imported, s.pid " \
	"FROM session s " \
	"JOIN campaign c ON c.id = s.campaign_id " \
	"JOIN host h ON h.id = s.host_id "

#define RM_ROW "(?, ?, ?, ?, ?)"

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
	    "env_id, imported, pid) VALUES (?, ?, ?, ?, 'running', ?, NULL, ?, "
	    "?, ?, ?)",
	[S_CLAIM_ADD] = "INSERT INTO resume_claim (session_id, by_session) "
			"VALUES (?, ?) ON CONFLICT DO NOTHING",
	[S_CLAIM_GET] = "SELECT by_session FROM resume_claim "
			"WHERE session_id = ?",
	[S_RUN_SEQS] = "SELECT seq FROM run WHERE session_id = ? ORDER BY seq",
	[S_SESSION_STATUS] = "SELECT status FROM session WHERE id = ?",
	[S_TAG_ADD] = "INSERT INTO tag (session_id, pos, key, value) "
		      "VALUES (?, ?, ?, ?)",
	/* The position after a session's last tag (0: none); no row when
	 * there is no such session. */
	[S_TAG_NEXT] = "SELECT coalesce((SELECT max(t.pos) + 1 FROM tag t "
		       "WHERE t.session_id = s.id), 0) FROM session s "
		       "WHERE s.id = ?",
	[S_TAG_DEL] = "DELETE FROM tag WHERE session_id = ? AND key = ?",
	[S_PRIMARY_ADD] = "INSERT INTO session_primary (session_id, pos, "
			  "name) VALUES (?, ?, ?)",
	[S_SESSION_PRIMARY] = "SELECT name FROM session_primary "
			      "WHERE session_id = ? ORDER BY pos",
	/* The --primary names of a variant's sessions, each once, in the
	 * order of the sessions, then of the names. */
	[S_VARIANT_PRIMARY] = "SELECT sp.name FROM session_primary sp "
			      "JOIN session_variant sv "
			      "ON sv.session_id = sp.session_id "
			      "WHERE sv.variant_id = ? "
			      "ORDER BY sp.session_id, sp.pos",
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
			     "(run_id, metric_id, pos, value, flags) VALUES ",
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
		   "rm.pos, rm.value, rm.flags FROM run r "
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
	    "rm.value, rm.flags FROM run r "
	    "JOIN run_metric rm ON rm.run_id = r.id "
	    "JOIN metric m ON m.id = rm.metric_id "
	    "WHERE r.session_id = ? ORDER BY r.seq, r.id, rm.pos",
	/* The same two for one variant of the session (its id). */
	[S_RUNS_OF_VARIANT] =
	    "SELECT r.id, v.name, r.round, r.seq, r.warmup, r.ok, "
	    "r.outcome, r.exit_status, r.signal, r.reason, r.failed_in, "
	    "r.output, r.truncated, r.start_s FROM run r "
	    "JOIN variant v ON v.id = r.variant_id "
	    "WHERE r.session_id = ? AND r.variant_id = ? ORDER BY r.seq, r.id",
	[S_RUN_METRICS_OF_VARIANT] =
	    "SELECT r.id, m.name, m.unit, m.better, "
	    "rm.value, rm.flags FROM run r "
	    "JOIN run_metric rm ON rm.run_id = r.id "
	    "JOIN metric m ON m.id = rm.metric_id "
	    "WHERE r.session_id = ? AND r.variant_id = ? "
	    "ORDER BY r.seq, r.id, rm.pos",
	[S_UNFINISHED] =
	    "SELECT s.id FROM session s "
	    "JOIN campaign c ON c.id = s.campaign_id "
	    "JOIN host h ON h.id = s.host_id "
	    "WHERE c.name = ? AND h.name = ? "
	    "AND s.status IN ('running', 'interrupted', 'failed', "
	    "'max-failures') "
	    "AND s.imported = 0 "
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

/* ---- small helpers ---- */

/* A printable form of a byte string for messages: at most 60 bytes,
 * non-printable bytes as \xHH. */
const char *
st_shown(struct pr_str s, char *buf, size_t size)
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

/* Makes room for need elements of size bytes in *p (capacity *cap). */
enum pr_status
st_grow(void **p, size_t *cap, size_t need, size_t size, struct pr_error *err)
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

/* An error about the database: "TARGET: MSG". */
enum pr_status
st_dberr(struct pr_store *st, enum pr_status code, struct pr_error *err,
    const char *fmt, ...)
{
	char msg[PR_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pr_error_at(err, code, st->target, 0, 0, "%s", msg);
}

/* ---- statements and binding ---- */

/* 1 for the INSERTs whose new id insert_id reads. */
static int
makes_id(enum stmt k)
{
	return k == S_ENV_ADD || k == S_SESSION_ADD || k == S_RUN_ADD;
}

enum pr_status
st_stmt_get(struct pr_store *st, enum stmt k, struct pr_db_stmt **out,
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

/* A C string for a TEXT column (checked: valid UTF-8); NULL binds NULL. */
void
st_b_text(struct binder *b, const char *what, const char *s)
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
		b->rc = st_dberr(b->st, PR_EINVAL, b->err,
		    "the %s is not valid UTF-8 text", what);
		return;
	}
	b->rc = b->st->ops->bind_text(b->s, b->i, s, n, b->err);
}

/* Steps once and reads column 0 as an integer: *found 0 when no row. */
enum pr_status
st_step_id(struct pr_store *st, struct pr_db_stmt *s, int64_t *id, int *found,
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
enum pr_status
st_insert_id(struct pr_store *st, struct pr_db_stmt *s, int64_t *id,
    struct pr_error *err)
{
	enum pr_status rc;
	int found = 0;

	if (!st->sqlite)
		rc = st_step_id(st, s, id, &found, err);
	else {
		rc = step_done(st, s, err);
		if (rc == PR_OK)
			rc = st->ops->last_insert_id(st->db, id, err);
		found = rc == PR_OK;
	}
	stmt_done(st, s);
	if (rc == PR_OK && !found)
		rc = st_dberr(st, PR_EIO, err, "no id for the new row");
	return rc;
}

/* insert_id for the INSERT b has bound. */
enum pr_status
st_insert_bound(struct binder *b, int64_t *id)
{
	if (b->rc != PR_OK) {
		stmt_done(b->st, b->s);
		return b->rc;
	}
	return st_insert_id(b->st, b->s, id, b->err);
}

/*
 * Runs BEGIN (S_BEGIN), COMMIT or ROLLBACK.  SQLite keeps them prepared:
 * sqlite3_exec would parse them again for every run.  PostgreSQL's
 * driver gets them as text, as its pipelining wants.
 */
enum pr_status
st_tx_exec(struct pr_store *st, enum stmt k, struct pr_error *err)
{
	struct pr_db_stmt *s;
	enum pr_status rc;

	if (!st->sqlite)
		return exec(st, k == S_BEGIN ? "BEGIN" : stmt_sql[k], err);
	rc = st_stmt_get(st, k, &s, err);
	if (rc != PR_OK)
		return rc;
	rc = step_done(st, s, err);
	stmt_done(st, s);
	return rc;
}
