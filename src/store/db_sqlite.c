/*
 * store/db_sqlite.c - the SQLite driver of the results store, and the
 * choice of driver for a target.
 *
 * A connection is one sqlite3 handle opened without SQLite's mutexes
 * (one connection per thread).  Opening for writing creates the parent
 * directories (mode 0700) when asked and sets the connection up the way
 * doc/schema.md explains: WAL journal, synchronous=NORMAL (the store
 * asks for FULL on the commit that closes each second), a checkpoint
 * every 4000 pages (16 MiB of WAL: a third of the fsyncs of SQLite's
 * default when every run commits), the WAL cut back to 64 MiB after a
 * checkpoint, foreign keys on, the busy timeout the store asks for
 * (PR_STORE_BUSY_MS_DEFAULT, 5000 ms, unless the caller chose another),
 * and a 32 MiB page cache.
 *
 * Byte strings are stored as TEXT when they are valid UTF-8 without NUL
 * and as BLOB otherwise, so that `sqlite3 perfreg.db "SELECT ... WHERE
 * name = 'ubsec'"` finds them while NULs and other bytes still round
 * trip exactly; a column declared BLOB keeps either kind unchanged, and
 * the same bytes always get the same kind, so equality and uniqueness
 * work on the bytes.  Bound bytes are not copied (SQLITE_STATIC): they
 * must stay valid until the statement is stepped, which the store does
 * at once.
 *
 * Every SQLite failure becomes a one-line error naming the database
 * file: locked, read-only, full, an I/O error with the system's reason,
 * corrupt or not a database (PR_EPARSE).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include <sqlite3.h>

#include "store/db.h"
#include "store/str.h"

#include "core/banned.h"

struct pr_db {
	sqlite3 *h;
	char *target;
	int busy_ms;
	struct timespec busy_since; /* the first refusal of this wait */
};

struct pr_db_stmt {
	sqlite3_stmt *s;
	struct pr_db *db;
};

/* The soft limit on the size of a file this process writes (ulimit -f),
 * in bytes; 0 when there is none. */
static unsigned long long
fsize_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	return (unsigned long long)rl.rlim_cur;
}

/* Whether a failed write (extended code rc) on db is the file size
 * limit: SQLite does not always keep the write's errno (EFBIG) until it
 * reports the failure, so an I/O error while the database, its WAL or
 * its journal is within a page (64 KiB at most) of a finite limit counts
 * as one. */
static int
fsize_limited(const struct pr_db *db, int rc)
{
	static const char *const side[] = { "", "-wal", "-journal" };
	unsigned long long lim = fsize_limit();
	char path[4096];
	struct stat sb;
	size_t i;

	if ((rc & 0xff) != SQLITE_IOERR || lim == 0)
		return 0;
	for (i = 0; i < sizeof(side) / sizeof(side[0]); i++) {
		if (snprintf(path, sizeof(path), "%s%s", db->target, side[i]) >=
		    (int)sizeof(path))
			return 0;
		if (stat(path, &sb) == 0 &&
		    (unsigned long long)sb.st_size + 65536 >= lim)
			return 1;
	}
	return 0;
}

/* A one-line error for SQLite result code rc on db. */
static enum pr_status
sqlerr(struct pr_db *db, int rc, struct pr_error *err)
{
	const char *msg =
	    db->h != NULL ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc);
	int sys = db->h != NULL ? sqlite3_system_errno(db->h) : 0;
	enum pr_status st;

	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		st = pr_error_at(err, PR_EIO, db->target, 0, 0,
		    "database is locked by another writer (waited %d ms)",
		    db->busy_ms);
		break;
	case SQLITE_READONLY:
		st = pr_error_at(err, PR_EIO, db->target, 0, 0,
		    "database is read-only (%s)", msg);
		break;
	case SQLITE_FULL:
		st = pr_error_at(err, PR_EIO, db->target, 0, 0,
		    "disk or file size limit full (%s)", msg);
		break;
	case SQLITE_IOERR:
	case SQLITE_CANTOPEN:
		if (sys == EFBIG || fsize_limited(db, rc)) {
			st = pr_error_at(err, PR_EIO, db->target, 0, 0,
			    "%s: file too large for this process's file size "
			    "limit (ulimit -f: %llu bytes)",
			    msg, fsize_limit());
			sys = EFBIG;
		} else if (sys != 0)
			st = pr_error_at(err, PR_EIO, db->target, 0, 0,
			    "%s: %s", msg, strerror(sys));
		else
			st = pr_error_at(err, PR_EIO, db->target, 0, 0, "%s",
			    msg);
		if (err != NULL)
			err->sys_errno = sys;
		break;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		st = pr_error_at(err, PR_EPARSE, db->target, 0, 0,
		    "not a database or corrupt (%s)", msg);
		break;
	case SQLITE_NOMEM:
		st = pr_error_at(err, PR_ENOMEM, db->target, 0, 0, "%s", msg);
		break;
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_RANGE:
	case SQLITE_TOOBIG:
		st = pr_error_at(err, PR_EINVAL, db->target, 0, 0, "%s", msg);
		break;
	default:
		st = pr_error_at(err, PR_EIO, db->target, 0, 0, "%s", msg);
		break;
	}
	return st;
}

/* Creates the parent directories of path (mode 0700). */
static enum pr_status
mkparents(const char *path, struct pr_error *err)
{
	size_t n = strlen(path), i;
	char *d;
	int e;

	d = malloc(n + 1);
	if (d == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	memcpy(d, path, n + 1);
	for (i = 1; i < n; i++) {
		if (d[i] != '/')
			continue;
		d[i] = '\0';
		if (mkdir(d, 0700) != 0 && errno != EEXIST) {
			e = errno;
			pr_error_at(err, PR_EIO, path, 0, 0,
			    "cannot create directory '%s': %s", d, strerror(e));
			if (err != NULL)
				err->sys_errno = e;
			free(d);
			return PR_EIO;
		}
		d[i] = '/';
	}
	free(d);
	return PR_OK;
}

static enum pr_status
sq_exec(struct pr_db *db, const char *sql, struct pr_error *err)
{
	int rc;

	rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return sqlerr(db, rc, err);
	return PR_OK;
}

static void
sq_close(struct pr_db *db)
{
	if (db == NULL)
		return;
	sqlite3_close_v2(db->h);
	free(db->target);
	free(db);
}

/* SQLite's count of the memory it uses takes a global mutex on every
 * allocation (several a statement); nothing here reads the count.  Set
 * before SQLite initialises; once it has (another user in the process),
 * sqlite3_config refuses and changes nothing, which is harmless. */
static void
sq_config(void)
{
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/* Milliseconds from *since to *now (both CLOCK_MONOTONIC). */
static double
ms_between(const struct timespec *since, const struct timespec *now)
{
	return (double)(now->tv_sec - since->tv_sec) * 1e3 +
	    (double)(now->tv_nsec - since->tv_nsec) / 1e6;
}

/*
 * SQLite's busy handler: called after the count-th refusal of a lock,
 * it sleeps and asks for another try until db->busy_ms have passed since
 * the first refusal.  It polls every millisecond (SQLite's own
 * sqlite3_busy_timeout sleeps up to 100 ms between tries), so that a
 * writer waiting behind an import gets the lock in the few milliseconds
 * that the import leaves it free between two of its chunks.
 */
static int
on_busy(void *arg, int count)
{
	static const struct timespec ms = { 0, 1000000 };
	struct pr_db *db = arg;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (count == 0)
		db->busy_since = now;
	if (ms_between(&db->busy_since, &now) >= db->busy_ms)
		return 0;
	nanosleep(&ms, NULL);
	return 1;
}

/*
 * sq_exec for a statement that SQLite may refuse with SQLITE_BUSY without
 * calling the busy handler: the switch to WAL reads the header and then
 * upgrades that read to a write, and SQLite gives up such an upgrade at
 * once when another connection holds the write lock (waiting could
 * deadlock a caller that holds its read).  Here nothing else is held, so
 * it is safe to try again, every millisecond until db->busy_ms have
 * passed, as on_busy does for the others.
 */
static enum pr_status
sq_exec_waiting(struct pr_db *db, const char *sql, struct pr_error *err)
{
	static const struct timespec ms = { 0, 1000000 };
	struct timespec first = { 0, 0 }, now;
	int rc, tries = 0;

	for (;;) {
		rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (tries++ == 0)
			first = now;
		else if (ms_between(&first, &now) >= db->busy_ms)
			break;
		nanosleep(&ms, NULL);
	}
	if (rc != SQLITE_OK)
		return sqlerr(db, rc, err);
	return PR_OK;
}

/*
 * Opens name (a path or a URI) on db and sets the connection up as the
 * paragraph at the top says.  *raw is SQLite's result code of the step
 * that failed (SQLITE_OK when none did).
 */
static enum pr_status
sq_connect(struct pr_db *db, const char *name, int flags, int *raw,
    struct pr_error *err)
{
	enum pr_status rc;
	int oflags, r;

	*raw = SQLITE_OK;
	oflags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
	if (flags & PR_DB_READONLY)
		oflags |= SQLITE_OPEN_READONLY;
	else
		oflags |= SQLITE_OPEN_READWRITE |
		    ((flags & PR_DB_CREATE) ? SQLITE_OPEN_CREATE : 0);
	r = sqlite3_open_v2(name, &db->h, oflags, NULL);
	if (r != SQLITE_OK) {
		*raw = r;
		return sqlerr(db, r, err);
	}
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_handler(db->h, on_busy, db);
	if (!(flags & PR_DB_READONLY) && sqlite3_db_readonly(db->h, "main")) {
		*raw = SQLITE_READONLY;
		return pr_error_at(err, PR_EIO, db->target, 0, 0,
		    "database is read-only (no permission to write the file)");
	}
	/* The first statements read the header: a file that is not a
	 * database fails here, with PR_EPARSE. */
	rc = sq_exec(db,
	    "PRAGMA foreign_keys=ON;"
	    "PRAGMA cache_size=-"
	    "32768"
	    ";",
	    err);
	if (rc == PR_OK && !(flags & PR_DB_READONLY))
		rc = sq_exec_waiting(db, "PRAGMA journal_mode=WAL;", err);
	if (rc == PR_OK && !(flags & PR_DB_READONLY))
		rc = sq_exec(db,
		    "PRAGMA synchronous=NORMAL;"
		    "PRAGMA wal_autocheckpoint=4000;"
		    "PRAGMA journal_size_limit=67108864;",
		    err);
	if (rc == PR_OK)
		rc = sq_exec(db, "SELECT count(*) FROM sqlite_master;", err);
	if (rc != PR_OK)
		*raw = sqlite3_extended_errcode(db->h);
	return rc;
}

/* The URI that opens path read-only and immutable: "file:" and the path
 * with every byte outside [A-Za-z0-9/._~-] percent-encoded. */
static enum pr_status
immutable_uri(const char *path, char **out, struct pr_error *err)
{
	static const char hex[] = "0123456789ABCDEF";
	static const char tail[] = "?mode=ro&immutable=1";
	size_t n = strlen(path), i, j = 0;
	unsigned char c;
	char *u;

	*out = NULL;
	u = malloc(5 + 3 * n + sizeof(tail));
	if (u == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	memcpy(u, "file:", 5);
	j = 5;
	/* "file://" would begin an authority: one leading slash. */
	for (i = 0; i + 1 < n && path[i] == '/' && path[i + 1] == '/'; i++)
		;
	for (; i < n; i++) {
		c = (unsigned char)path[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '/' || c == '.' ||
		    c == '_' || c == '~' || c == '-') {
			u[j++] = (char)c;
		} else {
			u[j++] = '%';
			u[j++] = hex[c >> 4];
			u[j++] = hex[c & 15];
		}
	}
	memcpy(u + j, tail, sizeof(tail));
	*out = u;
	return PR_OK;
}

static enum pr_status
sq_open(const char *target, int flags, int busy_ms, struct pr_db **out,
    struct pr_error *err)
{
	struct pr_db *db;
	struct stat sb;
	enum pr_status rc;
	char *uri = NULL;
	int r, raw, special;

	static pthread_once_t once = PTHREAD_ONCE_INIT;

	*out = NULL;
	pthread_once(&once, sq_config);
	special =
	    strcmp(target, ":memory:") == 0 || strncmp(target, "file:", 5) == 0;
	if (!special && (flags & PR_DB_CREATE) && !(flags & PR_DB_READONLY)) {
		rc = mkparents(target, err);
		if (rc != PR_OK)
			return rc;
	}
	if (!special && stat(target, &sb) != 0) {
		r = errno;
		if (r != ENOENT || !(flags & PR_DB_CREATE) ||
		    (flags & PR_DB_READONLY)) {
			rc = pr_error_at(err,
			    r == ENOENT ? PR_ENOTFOUND : PR_EIO, target, 0, 0,
			    "cannot open database: %s", strerror(r));
			if (err != NULL)
				err->sys_errno = r;
			return rc;
		}
	} else if (!special && !S_ISREG(sb.st_mode)) {
		/* SQLite would block forever on a FIFO that nobody writes
		 * and write its journal next to a device node. */
		return pr_error_at(err, PR_EINVAL, target, 0, 0,
		    "not a regular file (%s): a database must be one",
		    S_ISFIFO(sb.st_mode)       ? "a FIFO"
			: S_ISDIR(sb.st_mode)  ? "a directory"
			: S_ISCHR(sb.st_mode)  ? "a character device"
			: S_ISBLK(sb.st_mode)  ? "a block device"
			: S_ISSOCK(sb.st_mode) ? "a socket"
					       : "a special file");
	}
	db = calloc(1, sizeof(*db));
	if (db == NULL || (db->target = strdup(target)) == NULL) {
		free(db);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	db->busy_ms = busy_ms;
	rc = sq_connect(db, target, flags, &raw, err);
	if (rc != PR_OK && (flags & PR_DB_READONLY) && !special &&
	    ((raw & 0xff) == SQLITE_READONLY ||
		(raw & 0xff) == SQLITE_CANTOPEN)) {
		/* A WAL database in a directory this user cannot write:
		 * SQLite can neither make the -shm file nor read without
		 * it.  Nothing can write the file through this user either,
		 * so read it as immutable (see doc/schema.md). */
		sqlite3_close_v2(db->h);
		db->h = NULL;
		rc = immutable_uri(target, &uri, err);
		if (rc == PR_OK) {
			pr_error_clear(err);
			rc = sq_connect(db, uri, flags, &raw, err);
		}
		free(uri);
	}
	if (rc != PR_OK) {
		sq_close(db);
		return rc;
	}
	*out = db;
	return PR_OK;
}

static enum pr_status
sq_prepare(struct pr_db *db, const char *sql, struct pr_db_stmt **out,
    struct pr_error *err)
{
	struct pr_db_stmt *s;
	int r;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	s->db = db;
	r = sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->s,
	    NULL);
	if (r != SQLITE_OK) {
		free(s);
		return sqlerr(db, r, err);
	}
	*out = s;
	return PR_OK;
}

static enum pr_status
bound(struct pr_db_stmt *s, int r, struct pr_error *err)
{
	return r == SQLITE_OK ? PR_OK : sqlerr(s->db, r, err);
}

static enum pr_status
sq_bind_null(struct pr_db_stmt *s, int i, struct pr_error *err)
{
	return bound(s, sqlite3_bind_null(s->s, i), err);
}

static enum pr_status
sq_bind_int(struct pr_db_stmt *s, int i, int64_t v, struct pr_error *err)
{
	return bound(s, sqlite3_bind_int64(s->s, i, v), err);
}

static enum pr_status
sq_bind_real(struct pr_db_stmt *s, int i, double v, struct pr_error *err)
{
	return bound(s, sqlite3_bind_double(s->s, i, v), err);
}

static enum pr_status
sq_bind_text(struct pr_db_stmt *s, int i, const char *p, size_t n,
    struct pr_error *err)
{
	if (n > INT32_MAX)
		return pr_error_at(err, PR_ELIMIT, s->db->target, 0, 0,
		    "string of %zu bytes is too long", n);
	return bound(s,
	    sqlite3_bind_text(s->s, i, n ? p : "", (int)n, SQLITE_STATIC), err);
}

static enum pr_status
sq_bind_blob(struct pr_db_stmt *s, int i, const void *p, size_t n,
    struct pr_error *err)
{
	if (n > INT32_MAX)
		return pr_error_at(err, PR_ELIMIT, s->db->target, 0, 0,
		    "string of %zu bytes is too long", n);
	/* Text when it is text: see the paragraph at the top. */
	if (n == 0 || pr_store_utf8_text(p, n))
		return sq_bind_text(s, i, p, n, err);
	return bound(s, sqlite3_bind_blob(s->s, i, p, (int)n, SQLITE_STATIC),
	    err);
}

static enum pr_status
sq_step(struct pr_db_stmt *s, int *row, struct pr_error *err)
{
	int r;

	r = sqlite3_step(s->s);
	if (r == SQLITE_ROW) {
		*row = 1;
		return PR_OK;
	}
	*row = 0;
	if (r == SQLITE_DONE)
		return PR_OK;
	return sqlerr(s->db, r, err);
}

static enum pr_db_type
sq_column_type(struct pr_db_stmt *s, int i)
{
	switch (sqlite3_column_type(s->s, i)) {
	case SQLITE_INTEGER:
		return PR_DB_INT;
	case SQLITE_FLOAT:
		return PR_DB_REAL;
	case SQLITE_TEXT:
		return PR_DB_TEXT;
	case SQLITE_BLOB:
		return PR_DB_BLOB;
	default:
		return PR_DB_NULL;
	}
}

static int64_t
sq_column_int(struct pr_db_stmt *s, int i)
{
	return sqlite3_column_int64(s->s, i);
}

static double
sq_column_real(struct pr_db_stmt *s, int i)
{
	return sqlite3_column_double(s->s, i);
}

static const char *
sq_column_bytes(struct pr_db_stmt *s, int i, size_t *n)
{
	const unsigned char *p;

	/* sqlite3_column_text NUL-terminates a blob without changing its
	 * bytes (the database is UTF-8); the length comes after it. */
	p = sqlite3_column_text(s->s, i);
	*n = p != NULL ? (size_t)sqlite3_column_bytes(s->s, i) : 0;
	return (const char *)p;
}

static enum pr_status
sq_reset(struct pr_db_stmt *s, struct pr_error *err)
{
	/* sqlite3_reset repeats the error of the last step, which step
	 * has reported already. */
	(void)err;
	sqlite3_reset(s->s);
	return PR_OK;
}

static void
sq_finalize(struct pr_db_stmt *s)
{
	if (s == NULL)
		return;
	sqlite3_finalize(s->s);
	free(s);
}

static int
sq_last_was_conflict(struct pr_db *db)
{
	int x = sqlite3_extended_errcode(db->h);

	return x == SQLITE_CONSTRAINT_UNIQUE ||
	    x == SQLITE_CONSTRAINT_PRIMARYKEY;
}

static enum pr_status
sq_last_insert_id(struct pr_db *db, int64_t *id, struct pr_error *err)
{
	*id = sqlite3_last_insert_rowid(db->h);
	if (*id == 0)
		return pr_error_at(err, PR_EIO, db->target, 0, 0,
		    "no row was inserted on this connection");
	return PR_OK;
}

static void
sq_set_busy(struct pr_db *db, int busy_ms)
{
	db->busy_ms = busy_ms;
}

const struct pr_db_ops pr_db_sqlite = {
	.name = "sqlite",
	.type_id = "INTEGER PRIMARY KEY",
	.type_bytes = "BLOB",
	.type_real = "REAL",
	.type_int = "INTEGER",
	.open = sq_open,
	.close = sq_close,
	.exec = sq_exec,
	.prepare = sq_prepare,
	.bind_null = sq_bind_null,
	.bind_int = sq_bind_int,
	.bind_real = sq_bind_real,
	.bind_text = sq_bind_text,
	.bind_blob = sq_bind_blob,
	.step = sq_step,
	.column_type = sq_column_type,
	.column_int = sq_column_int,
	.column_real = sq_column_real,
	.column_bytes = sq_column_bytes,
	.reset = sq_reset,
	.finalize = sq_finalize,
	.last_was_conflict = sq_last_was_conflict,
	.last_insert_id = sq_last_insert_id,
	.set_busy = sq_set_busy,
};

const struct pr_db_ops *
pr_db_driver_for(const char *target)
{
	if (strncmp(target, "postgresql://", 13) == 0 ||
	    strncmp(target, "postgres://", 11) == 0 ||
	    strstr(target, "dbname=") != NULL ||
	    strstr(target, "host=") != NULL)
		return &pr_db_pg;
	return &pr_db_sqlite;
}
