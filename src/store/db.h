/*
 * store/db.h - the SQL driver interface under the results store.
 *
 * The store (src/store/stmt.c, schema.c, write.c and query.c) holds all
 * of perfreg's SQL: the schema, its migrations and every query.  It
 * talks to a database through this small driver interface, which
 * SQLite (db_sqlite.c) and PostgreSQL (db_pg.c) implement, so that both
 * backends run the same statements and behave the same.
 *
 * SQL given to prepare uses '?' for parameters (the PostgreSQL driver
 * rewrites them to $1, $2... outside string literals).  Every value is
 * bound, never spliced into the text.  Text and blob values are byte
 * strings with a length (they may hold NULs and invalid UTF-8); drivers
 * that cannot store such bytes in a text column keep those columns as
 * bytea/blob (see the DDL in schema.c).
 *
 * Statement lifecycle: prepare -> bind... -> step (repeatedly while
 * *row is 1) -> reset (to run it again, bindings kept until rebound) ->
 * finalize.  Column values returned by column_* are borrowed until the
 * next step, reset or finalize of that statement.
 *
 * Errors carry the database's own message ("database is locked",
 * "attempt to write a readonly database", "database disk image is
 * malformed", "could not connect to server: ...") prefixed with the
 * target name, as PR_EIO unless said otherwise.  Not thread-safe: one
 * connection per thread.
 */
#ifndef PERFREG_STORE_DB_H
#define PERFREG_STORE_DB_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/error.h"

struct pr_db;      /* a connection; each driver defines its own */
struct pr_db_stmt; /* a prepared statement */

enum pr_db_type {
	PR_DB_NULL = 0,
	PR_DB_INT,
	PR_DB_REAL,
	PR_DB_TEXT,
	PR_DB_BLOB
};

/* How to open: flags of pr_db_ops.open. */
#define PR_DB_READONLY 0x1 /* never write (SQLite: SQLITE_OPEN_READONLY) */
#define PR_DB_CREATE 0x2   /* SQLite: create the file when missing */

struct pr_db_ops {
	const char *name; /* "sqlite", "postgresql" */
	/* SQL type names the DDL uses, so that one schema text serves both:
	 * substituted for @ID@ (auto-increment 64-bit primary key), @BYTES@
	 * (exact byte strings), @REAL@ (double), @INT@ (64-bit integer). */
	const char *type_id, *type_bytes, *type_real, *type_int;

	/* target: a file name (SQLite) or a libpq connection string/URI;
	 * busy_ms: how long a statement waits for another connection's
	 * lock before it fails with "locked" (SQLite; PostgreSQL waits). */
	enum pr_status (*open)(const char *target, int flags, int busy_ms,
	    struct pr_db **out, struct pr_error *err);
	void (*close)(struct pr_db *db);
	/* How long statements wait for a lock from now on (busy_ms as in
	 * open; NULL: the driver always waits, as PostgreSQL does). */
	void (*set_busy)(struct pr_db *db, int busy_ms);

	/* Runs one or more statements without parameters or results
	 * (DDL, BEGIN, COMMIT, PRAGMA). */
	enum pr_status (
	    *exec)(struct pr_db *db, const char *sql, struct pr_error *err);

	enum pr_status (*prepare)(struct pr_db *db, const char *sql,
	    struct pr_db_stmt **out, struct pr_error *err);
	/* i is 1-based, as in SQL. */
	enum pr_status (
	    *bind_null)(struct pr_db_stmt *s, int i, struct pr_error *err);
	enum pr_status (*bind_int)(struct pr_db_stmt *s, int i, int64_t v,
	    struct pr_error *err);
	enum pr_status (*bind_real)(struct pr_db_stmt *s, int i, double v,
	    struct pr_error *err);
	/* Text (must be valid UTF-8 without NUL: the store checks) and
	 * byte strings; the bytes are copied or must stay valid until the
	 * next step (drivers say which; both are safe for the store). */
	enum pr_status (*bind_text)(struct pr_db_stmt *s, int i, const char *p,
	    size_t n, struct pr_error *err);
	enum pr_status (*bind_blob)(struct pr_db_stmt *s, int i, const void *p,
	    size_t n, struct pr_error *err);
	/* Executes (first call) or advances; *row is 1 when a row is
	 * available, 0 when done. */
	enum pr_status (
	    *step)(struct pr_db_stmt *s, int *row, struct pr_error *err);
	enum pr_db_type (*column_type)(struct pr_db_stmt *s, int i);
	/* i is 0-based, as in sqlite3_column_*. */
	int64_t (*column_int)(struct pr_db_stmt *s, int i);
	double (*column_real)(struct pr_db_stmt *s, int i);
	/* Text or bytes; *n gets the length; the result is NUL-terminated
	 * (one byte past n) and NULL for SQL NULL. */
	const char *(*column_bytes)(struct pr_db_stmt *s, int i, size_t *n);
	enum pr_status (*reset)(struct pr_db_stmt *s, struct pr_error *err);
	void (*finalize)(struct pr_db_stmt *s);
	/* 1 when the last error was a unique-constraint violation (lets
	 * concurrent writers retry a get-or-create). */
	int (*last_was_conflict)(struct pr_db *db);
	/* The id the last INSERT on this connection made (SQLite's rowid,
	 * PostgreSQL's lastval() of the sequence behind it); PR_EIO when
	 * none was made.  SQLite answers from memory; PostgreSQL asks the
	 * server, so the store reads ids there with RETURNING. */
	enum pr_status (*last_insert_id)(struct pr_db *db, int64_t *id,
	    struct pr_error *err);
};

extern const struct pr_db_ops pr_db_sqlite;
extern const struct pr_db_ops pr_db_pg;

/* The driver for a target: PostgreSQL for "postgresql://...",
 * "postgres://..." and libpq keyword strings ("host=... dbname=..."),
 * SQLite for anything else. */
const struct pr_db_ops *pr_db_driver_for(const char *target);

#endif /* PERFREG_STORE_DB_H */
