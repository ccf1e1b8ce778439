/*
 * store/schema.c - opening the results store: the schema, its
 * migrations, and the connection's life (store/store_int.h says how the
 * store's files divide the work).
 *
 * One DDL text serves both backends: @ID@, @BYTES@, @REAL@ and @INT@
 * are replaced by the driver's type names, @NOROWID@ by "WITHOUT ROWID"
 * on SQLite.  doc/schema.md documents every table and column.  The
 * schema version is the largest row of schema_version; a database is
 * perfreg's when its meta table says application = perfreg.  Migrations
 * are steps from version k to k+1, each in its own write transaction
 * that first checks the version again, so that two processes opening a
 * new database at once create it once.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/buf.h"
#include "perfreg/store.h"
#include "store/store_int.h"

#include "core/bug.h"

#include "core/banned.h"

#define APPLICATION "perfreg"
/* PRAGMA application_id on SQLite: "PREG". */
#define SQLITE_APP_ID "1347568967"

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

/*
 * Version 2 (issue 12).  session.imported: 1 for a session that import
 * wrote, which is never resumed (its recorded arguments came from
 * another database).  resume_claim: one row per resumed session, made
 * in the transaction that records the session resuming it, so that two
 * `run --resume` started together cannot both continue one session (the
 * second's INSERT conflicts).  A table rather than a unique index on
 * session.resumes, which a database written before this version may
 * break.  session.pid: the process that runs the session, so that a
 * resume can tell a live session of this boot from one that was cut
 * short.
 */
static const char schema_v2[] =
    "ALTER TABLE session ADD COLUMN imported @INT@ NOT NULL DEFAULT 0;\n"
    "ALTER TABLE session ADD COLUMN pid @INT@;\n"
    "CREATE TABLE resume_claim ("
    " session_id @INT@ PRIMARY KEY REFERENCES session (id),"
    " by_session @INT@ NOT NULL REFERENCES session (id));\n";

/*
 * Version 3 (issue 11).  run_metric.flags: the PR_METRIC_* bits the
 * parser gave the value (PR_METRIC_RESULT: the benchmark's own result),
 * 0 for the rows written before, whose flags nobody kept.
 * session_primary: the metrics the session was told are its primary
 * ones (`run --primary`), in the order given; none when it was not told.
 * Both feed `compare --campaign` the primary metrics `run` had.
 */
static const char schema_v3[] =
    "ALTER TABLE run_metric ADD COLUMN flags @INT@ NOT NULL DEFAULT 0;\n"
    "CREATE TABLE session_primary ("
    " session_id @INT@ NOT NULL REFERENCES session (id),"
    " pos @INT@ NOT NULL, name @BYTES@ NOT NULL,"
    " PRIMARY KEY (session_id, pos))@NOROWID@;\n";

/* Migration steps: steps[k] brings version k to k + 1. */
static const char *const steps[PR_STORE_SCHEMA_VERSION] = { schema_v1,
	schema_v2, schema_v3 };

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

/* ---- opening and the schema ---- */

enum pr_status
pr_store_default_target(const char *db, const char *xdg, const char *home,
    char **out, struct pr_error *err)
{
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
		    "no database: neither PERFREG_DB, XDG_DATA_HOME nor "
		    "HOME is set");
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
		return st_dberr(st, PR_EPARSE, err,
		    "not a perfreg database (it holds other tables)");
	rc = query_int(st, "SELECT max(version) FROM schema_version", ver,
	    &found, err);
	if (rc == PR_OK && !found)
		return st_dberr(st, PR_EPARSE, err,
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

	rc = st_tx_exec(st, S_BEGIN, err);
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
		st_b_text(&b, "version", vbuf);
		rc = b.rc;
	}
	if (rc == PR_OK)
		rc = step_done(st, s, err);
	if (s != NULL)
		st->ops->finalize(s);
out:
	if (rc == PR_OK)
		rc = st_tx_exec(st, S_COMMIT, err);
	if (rc != PR_OK)
		st_tx_exec(st, S_ROLLBACK, NULL);
	return rc;
}

void
pr_store_opts_init(struct pr_store_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->busy_ms = PR_STORE_BUSY_MS_DEFAULT;
}

enum pr_status
pr_store_open(const char *target, enum pr_store_mode mode,
    struct pr_store **out, struct pr_error *err)
{
	return pr_store_open_opts(target, mode, NULL, out, err);
}

enum pr_status
pr_store_open_opts(const char *target, enum pr_store_mode mode,
    const struct pr_store_opts *o, struct pr_store **out, struct pr_error *err)
{
	struct pr_store_opts def;
	struct pr_store *st;
	enum pr_status rc;
	int64_t ver = 0, v;
	int flags;

	*out = NULL;
	if (o == NULL) {
		pr_store_opts_init(&def);
		o = &def;
	}
	if (target == NULL || *target == '\0')
		return pr_error_set(err, PR_EINVAL, "empty database name");
	if (o->busy_ms < 0)
		return pr_error_set(err, PR_EINVAL,
		    "negative busy timeout %d ms", o->busy_ms);
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
	rc = st->ops->open(target, flags, o->busy_ms, &st->db, err);
	if (rc == PR_OK)
		rc = schema_version(st, &ver, err);
	if (rc != PR_OK)
		goto fail;
	if (ver > PR_STORE_SCHEMA_VERSION) {
		rc = st_dberr(st, PR_EINVAL, err,
		    "made by a newer perfreg (schema %lld, this one knows %d)",
		    (long long)ver, PR_STORE_SCHEMA_VERSION);
		goto fail;
	}
	if (ver == 0 && mode != PR_STORE_CREATE) {
		rc = st_dberr(st, PR_EPARSE, err,
		    "not a perfreg database (it is empty)");
		goto fail;
	}
	if (ver < PR_STORE_SCHEMA_VERSION && mode == PR_STORE_READ) {
		/* The reads need the current schema: bring it up to date
		 * through a connection that may write, when the file lets
		 * it, and read through a read-only one as asked. */
		pr_store_close(st);
		rc = pr_store_open_opts(target, PR_STORE_WRITE, o, &st, NULL);
		if (rc != PR_OK)
			return pr_error_at(err, PR_EINVAL, target, 0, 0,
			    "made by an older perfreg (schema %lld, this one "
			    "knows %d) and cannot be written to bring it up "
			    "to date",
			    (long long)ver, PR_STORE_SCHEMA_VERSION);
		pr_store_close(st);
		return pr_store_open_opts(target, mode, o, out, err);
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
pr_store_set_busy(struct pr_store *st, int busy_ms)
{
	if (st != NULL && st->db != NULL && busy_ms >= 0 &&
	    st->ops->set_busy != NULL)
		st->ops->set_busy(st->db, busy_ms);
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
	st_mc_clear(st);
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
