/*
 * store/db_pg.c - the PostgreSQL driver under the results store (libpq).
 *
 * The store's SQL uses '?' for parameters; prepare rewrites them to $1,
 * $2... outside string literals ('...', E'...', $tag$...$tag$), quoted
 * identifiers and comments, and prepares the statement on the server
 * under a name unique on its connection.  A connection keeps the
 * statements it prepared in a small cache keyed by their text, so that a
 * store that prepares and finalizes the same statement for every run
 * pays the server's round trip once: finalize returns a statement to the
 * cache, and the least recently used ones beyond PG_CACHE_MAX are
 * deallocated.  Nothing is cached across connections.
 *
 * Parameters go in binary format where the bytes mean the same on both
 * sides: a bound integer as an 8-byte big-endian int8, a double as the
 * IEEE bits of a float8, text and blobs as their raw bytes (for bytea,
 * text and varchar parameters), so that NULs and invalid UTF-8 reach a
 * bytea column exactly.  The parameter types the server inferred are
 * read once per prepared statement (PQdescribePrepared); a value bound
 * to a parameter of another type (an integer for an int4, a double for a
 * numeric) is sent as text and converted by the server.  Results come as
 * text: integers are read with strtoll, doubles as the shortest text
 * that reads back to the same bits (extra_float_digits = 3), bytea as
 * hex, decoded on demand into a buffer per column.
 *
 * Inside a transaction block (BEGIN...COMMIT), a statement that returns
 * no rows (a plain INSERT or UPDATE) is sent in pipeline mode (libpq 14)
 * and step returns at once; the server's results are read when anything
 * else needs the connection: a statement that returns rows, exec (the
 * COMMIT), prepare, or PG_PIPE_MAX statements in flight.  A statement
 * that returns rows and a one-statement exec such as COMMIT go down the
 * pipeline behind the others, so that one round trip serves them all
 * (an insert RETURNING id and the five metric rows of the run before
 * it, say).  A failure of
 * such a statement is therefore reported by that later call (with its
 * own message and SQLSTATE), which is harmless because PostgreSQL aborts
 * the whole transaction on any error anyway; a COMMIT never succeeds
 * after it.  Bulk inserts then cost one round trip per PG_PIPE_MAX rows
 * instead of one per row.  Outside a transaction block every statement
 * runs and reports on its own.
 *
 * Errors carry the server's primary message prefixed with the target
 * named as postgresql://HOST:PORT/DB, never with the password.
 * last_was_conflict is 1 after a unique violation (SQLSTATE 23505) and
 * after a serialization failure or deadlock (40001, 40P01): each means
 * another writer got there first and the transaction may be retried.
 * Note that PostgreSQL, unlike SQLite, aborts the whole transaction on
 * any error: after a conflict inside BEGIN...COMMIT the caller must roll
 * back (or use INSERT ... ON CONFLICT DO NOTHING to avoid the error).
 * Server notices are dropped, never printed.  Bound bytes are copied.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#include "perfreg/numparse.h"
#include "store/db.h"
#include "core/banned.h"

/* Type OIDs of the built-in types (catalog/pg_type_d.h, fixed forever). */
enum {
	PG_BOOL = 16,
	PG_BYTEA = 17,
	PG_CHAR = 18,
	PG_NAME = 19,
	PG_INT8 = 20,
	PG_INT2 = 21,
	PG_INT4 = 23,
	PG_TEXT = 25,
	PG_OID = 26,
	PG_FLOAT4 = 700,
	PG_FLOAT8 = 701,
	PG_UNKNOWN = 705,
	PG_BPCHAR = 1042,
	PG_VARCHAR = 1043,
	PG_NUMERIC = 1700
};

#define PG_CACHE_MAX 64
/* Statements in flight at most: bounds the results the server writes
 * while nobody reads them. */
#define PG_PIPE_MAX 256
#define PG_MAX_PARAMS 65535 /* the protocol's limit */

/* A statement prepared on the server, owned by its connection. */
struct prep {
	struct prep *next;
	char *sql; /* as given to prepare, before rewriting */
	char name[32];
	int nparams;
	Oid *types;  /* as the server inferred them */
	int nfields; /* result columns: 0 for a plain INSERT */
	int in_use;
	unsigned long used; /* the connection's clock at the last use */
};

struct pr_db {
	PGconn *conn;
	char *name; /* postgresql://HOST:PORT/DB, for messages */
	struct prep *preps;
	int nprep;
	unsigned long clock;
	unsigned long next_id;
	char sqlstate[6];
	int piped;    /* statements sent in pipeline mode, results unread */
	int has_pend; /* one of them failed: pend is still to be reported */
	struct pr_error pend;
	char pend_state[6];
};

struct param {
	enum pr_db_type type;
	int64_t i;
	double r;
	char *p; /* text or blob bytes, NUL-terminated */
	size_t n, cap;
	char num[32]; /* binary or text encoding of a number */
};

struct colbuf {
	char *p;
	size_t cap;
	int row; /* the row decoded into p, -1 for none */
};

struct pr_db_stmt {
	struct pr_db *db;
	struct prep *prep;
	struct param *params;
	const char **values;
	int *lengths, *formats;
	PGresult *res;
	int executed;
	int row, nrows, ncols;
	struct colbuf *cols;
};

static void
quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* Length of the first line of s. */
static int
firstline(const char *s)
{
	size_t n = strcspn(s, "\n");

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	return n > INT_MAX ? INT_MAX : (int)n;
}

/*
 * libpq is loaded when a postgresql:// store is first opened, not when
 * perfreg starts: linking it would load it and the twenty libraries it
 * needs (Kerberos, LDAP, GnuTLS...) into every command, about 8 ms of
 * start-up (bench/README.md, issue 16).  The functions used are listed
 * once here; each one's type is checked against libpq-fe.h at compile
 * time, so a mismatch with the header fails the build, not a run.
 */
#define PQ_FUNCS(X) \
	X(void, PQclear, (PGresult *)) \
	X(char *, PQcmdStatus, (PGresult *)) \
	X(PGconn *, PQconnectdbParams, \
	    (const char *const *, const char *const *, int)) \
	X(void, PQconninfoFree, (PQconninfoOption *)) \
	X(PQconninfoOption *, PQconninfoParse, (const char *, char **)) \
	X(PGresult *, PQdescribePrepared, (PGconn *, const char *)) \
	X(int, PQenterPipelineMode, (PGconn *)) \
	X(char *, PQerrorMessage, (const PGconn *)) \
	X(PGresult *, PQexec, (PGconn *, const char *)) \
	X(PGresult *, PQexecPrepared, \
	    (PGconn *, const char *, int, const char *const *, const int *, \
		const int *, int)) \
	X(int, PQexitPipelineMode, (PGconn *)) \
	X(void, PQfinish, (PGconn *)) \
	X(void, PQfreemem, (void *)) \
	X(Oid, PQftype, (const PGresult *, int)) \
	X(int, PQgetisnull, (const PGresult *, int, int)) \
	X(int, PQgetlength, (const PGresult *, int, int)) \
	X(PGresult *, PQgetResult, (PGconn *)) \
	X(char *, PQgetvalue, (const PGresult *, int, int)) \
	X(int, PQnfields, (const PGresult *)) \
	X(int, PQnparams, (const PGresult *)) \
	X(int, PQntuples, (const PGresult *)) \
	X(Oid, PQparamtype, (const PGresult *, int)) \
	X(int, PQpipelineSync, (PGconn *)) \
	X(PGresult *, PQprepare, \
	    (PGconn *, const char *, const char *, int, const Oid *)) \
	X(char *, PQresultErrorField, (const PGresult *, int)) \
	X(char *, PQresultErrorMessage, (const PGresult *)) \
	X(ExecStatusType, PQresultStatus, (const PGresult *)) \
	X(int, PQsendQueryParams, \
	    (PGconn *, const char *, int, const Oid *, const char *const *, \
		const int *, const int *, int)) \
	X(int, PQsendQueryPrepared, \
	    (PGconn *, const char *, int, const char *const *, const int *, \
		const int *, int)) \
	X(int, PQserverVersion, (const PGconn *)) \
	X(PQnoticeProcessor, PQsetNoticeProcessor, \
	    (PGconn *, PQnoticeProcessor, void *)) \
	X(ConnStatusType, PQstatus, (const PGconn *)) \
	X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *))

/* The header's declaration has the type listed (the operand of _Generic
 * is not evaluated: nothing is linked).  name is a function's name and
 * args a parameter list: neither can go in parentheses. */
/* NOLINTBEGIN(bugprone-macro-parentheses): see above */
#define PQ_CHECK(ret, name, args) \
	_Static_assert(_Generic(&name, ret(*) args : 1, default : 0), \
	    "libpq-fe.h declares " #name " with another type");
PQ_FUNCS(PQ_CHECK)

#define PQ_FIELD(ret, name, args) ret(*name) args;
/* NOLINTEND(bugprone-macro-parentheses) */
struct pq_api {
	PQ_FUNCS(PQ_FIELD)
};

#define PQ_SONAME "libpq.so.5"

/* Filled once by pq_load; pq_why says why it could not be, when not
 * empty. */
static struct pq_api pq;
static char pq_why[256];
static pthread_once_t pq_once = PTHREAD_ONCE_INIT;

static void
pq_load_once(void)
{
	struct pq_api api;
	const char *why;
	void *lib, *fn;

	lib = dlopen(PQ_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		why = dlerror();
		if (why == NULL)
			why = "not found";
		snprintf(pq_why, sizeof(pq_why),
		    "cannot load %s (the libpq5 package): %.*s", PQ_SONAME,
		    firstline(why), why);
		return;
	}
	/* ISO C has no cast from void * to a function pointer; POSIX
	 * guarantees they have the same representation. */
#define PQ_SYM(ret, name, args) \
	fn = dlsym(lib, #name); \
	if (fn == NULL) { \
		snprintf(pq_why, sizeof(pq_why), \
		    "%s has no %s: libpq 14 or newer is needed", PQ_SONAME, \
		    #name); \
		dlclose(lib); \
		return; \
	} \
	memcpy(&api.name, &fn, sizeof(api.name));
	PQ_FUNCS(PQ_SYM)
#undef PQ_SYM
	pq = api; /* lib stays loaded for the life of the process */
}

/* Loads libpq, once; PR_EIO with a one-line reason when it cannot. */
static enum pr_status
pq_load(struct pr_error *err)
{
	pthread_once(&pq_once, pq_load_once);
	if (pq_why[0] != '\0')
		return pr_error_set(err, PR_EIO, "postgresql: %s", pq_why);
	return PR_OK;
}

/* Records a failed result: its SQLSTATE and primary message. */
static enum pr_status
result_error(struct pr_db *db, const PGresult *res, struct pr_error *err)
{
	const char *state = NULL, *msg = NULL;

	if (res != NULL) {
		state = pq.PQresultErrorField(res, PG_DIAG_SQLSTATE);
		msg = pq.PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
		if (msg == NULL)
			msg = pq.PQresultErrorMessage(res);
	}
	if (msg == NULL || *msg == '\0')
		msg = pq.PQerrorMessage(db->conn);
	if (msg == NULL || *msg == '\0')
		msg = "unknown error";
	snprintf(db->sqlstate, sizeof(db->sqlstate), "%s",
	    state != NULL ? state : "");
	if (strncmp(db->sqlstate, "40", 2) == 0)
		return pr_error_set(err, PR_EIO, "%s: %.*s (SQLSTATE %s)",
		    db->name, firstline(msg), msg, db->sqlstate);
	return pr_error_set(err, PR_EIO, "%s: %.*s", db->name, firstline(msg),
	    msg);
}

static enum pr_status
nomem(struct pr_error *err)
{
	return pr_error_set(err, PR_ENOMEM, "out of memory");
}

/*
 * Leaves pipeline mode, if on: reads the results of the statements sent
 * ahead.  The first failure among them is kept in db->pend until flush
 * reports it.  When out is not NULL, the result of statement number want
 * (0-based, in the order sent) is kept in *out (NULL when there is none);
 * the caller clears it.
 */
static void
drain_to(struct pr_db *db, int want, PGresult **out)
{
	PGresult *res;
	int q = 0; /* the statement whose results come next */

	if (out != NULL)
		*out = NULL;
	if (!db->piped)
		return;
	if (pq.PQpipelineSync(db->conn) != 1)
		q = db->piped + 1; /* the connection is gone */
	while (q <= db->piped) {
		res = pq.PQgetResult(db->conn);
		if (res == NULL) {
			/* One NULL ends each statement's results. */
			if (pq.PQstatus(db->conn) == CONNECTION_BAD)
				break;
			q++;
			continue;
		}
		if (pq.PQresultStatus(res) == PGRES_PIPELINE_SYNC) {
			pq.PQclear(res);
			break;
		}
		if (pq.PQresultStatus(res) == PGRES_FATAL_ERROR &&
		    !db->has_pend) {
			result_error(db, res, &db->pend);
			memcpy(db->pend_state, db->sqlstate,
			    sizeof(db->sqlstate));
			db->has_pend = 1;
		}
		if (out != NULL && q == want && *out == NULL)
			*out = res;
		else
			pq.PQclear(res);
	}
	if (pq.PQexitPipelineMode(db->conn) != 1 && !db->has_pend) {
		result_error(db, NULL, &db->pend);
		db->pend_state[0] = '\0';
		db->has_pend = 1;
	}
	db->piped = 0;
}

static void
drain(struct pr_db *db)
{
	drain_to(db, -1, NULL);
}

/* Drains the pipeline and reports a failure of the statements that were
 * in it, once. */
static enum pr_status
flush(struct pr_db *db, struct pr_error *err)
{
	drain(db);
	if (!db->has_pend)
		return PR_OK;
	db->has_pend = 0;
	memcpy(db->sqlstate, db->pend_state, sizeof(db->sqlstate));
	if (err != NULL)
		*err = db->pend;
	return db->pend.status;
}

/* postgresql://HOST:PORT/DB from a conninfo or URI, without user or
 * password; NULL when the target does not parse (*msg then says why). */
static char *
display_name(const char *target, char **msg)
{
	PQconninfoOption *opts, *o;
	const char *host = "", *port = "", *dbname = "", *hostaddr = "";
	char *name;
	size_t n;

	opts = pq.PQconninfoParse(target, msg);
	if (opts == NULL)
		return NULL;
	for (o = opts; o->keyword != NULL; o++) {
		if (o->val == NULL)
			continue;
		if (strcmp(o->keyword, "host") == 0)
			host = o->val;
		else if (strcmp(o->keyword, "hostaddr") == 0)
			hostaddr = o->val;
		else if (strcmp(o->keyword, "port") == 0)
			port = o->val;
		else if (strcmp(o->keyword, "dbname") == 0)
			dbname = o->val;
	}
	if (*host == '\0')
		host = hostaddr;
	n = strlen(host) + strlen(port) + strlen(dbname) + 32;
	name = malloc(n);
	if (name != NULL)
		snprintf(name, n, "postgresql://%s%s%s/%s", host,
		    *port != '\0' ? ":" : "", port, dbname);
	pq.PQconninfoFree(opts);
	return name;
}

static void
pg_close(struct pr_db *db)
{
	struct prep *p, *next;

	if (db == NULL)
		return;
	if (db->conn != NULL)
		drain(db);
	for (p = db->preps; p != NULL; p = next) {
		next = p->next;
		free(p->sql);
		free(p->types);
		free(p);
	}
	if (db->conn != NULL)
		pq.PQfinish(db->conn);
	free(db->name);
	free(db);
}

/* Length of the first word of sql (after *skip blanks). */
static size_t
first_word(const char *sql, size_t *skip)
{
	*skip = strspn(sql, " \t\r\n");
	return strspn(sql + *skip,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
}

/* 1 when sql starts with the word a or the word b. */
static int
is_word(const char *sql, const char *a, const char *b)
{
	size_t skip, n = first_word(sql, &skip);

	return (n == strlen(a) && strncasecmp(sql + skip, a, n) == 0) ||
	    (n == strlen(b) && strncasecmp(sql + skip, b, n) == 0);
}

/* The status of the result res of exec(sql); clears res. */
static enum pr_status
exec_result(struct pr_db *db, const char *sql, PGresult *res,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;

	if (res == NULL)
		return result_error(db, NULL, err);
	switch (pq.PQresultStatus(res)) {
	case PGRES_COMMAND_OK:
		/* COMMIT of a transaction that an error aborted rolls it
		 * back and says so only in the command tag. */
		if (strcmp(pq.PQcmdStatus(res), "ROLLBACK") == 0 &&
		    is_word(sql, "COMMIT", "END"))
			st = pr_error_set(err, PR_EIO,
			    "%s: the transaction "
			    "failed earlier and was rolled back",
			    db->name);
		break;
	case PGRES_TUPLES_OK:
	case PGRES_EMPTY_QUERY:
		break;
	default:
		st = result_error(db, res, err);
	}
	pq.PQclear(res);
	return st;
}

static enum pr_status
pg_exec_raw(struct pr_db *db, const char *sql, struct pr_error *err)
{
	db->sqlstate[0] = '\0';
	return exec_result(db, sql, pq.PQexec(db->conn, sql), err);
}

/* Sends one more statement down the pipeline, ends it and takes that
 * statement's result: one round trip for it and those before it. */
static enum pr_status
pipe_last(struct pr_db *db, PGresult **res, struct pr_error *err)
{
	enum pr_status st;

	db->sqlstate[0] = '\0';
	drain_to(db, db->piped++, res);
	st = flush(db, err);
	if (st != PR_OK) {
		pq.PQclear(*res);
		*res = NULL;
	}
	return st;
}

static enum pr_status
pg_open(const char *target, int flags, int busy_ms, struct pr_db **out,
    struct pr_error *err)
{
	/* Later keywords override the ones the expanded dbname sets, and
	 * the connection string overrides the connect_timeout before it. */
	const char *const keys[] = { "connect_timeout", "dbname",
		"client_encoding", "fallback_application_name", NULL };
	const char *vals[] = { "10", target, "UTF8", "perfreg", NULL };
	struct pr_db *db;
	char *msg = NULL;
	enum pr_status st;

	/* A statement waits for a lock as long as the server lets it. */
	(void)busy_ms;
	*out = NULL;
	st = pq_load(err);
	if (st != PR_OK)
		return st;
	db = calloc(1, sizeof(*db));
	if (db == NULL)
		return nomem(err);
	db->name = display_name(target, &msg);
	if (db->name == NULL) {
		if (msg == NULL) {
			free(db);
			return nomem(err);
		}
		st = pr_error_set(err, PR_EINVAL,
		    "postgresql: bad connection string: %.*s", firstline(msg),
		    msg);
		pq.PQfreemem(msg);
		free(db);
		return st;
	}
	db->conn = pq.PQconnectdbParams(keys, vals, 1);
	if (db->conn == NULL) {
		pg_close(db);
		return nomem(err);
	}
	if (pq.PQstatus(db->conn) != CONNECTION_OK) {
		msg = pq.PQerrorMessage(db->conn);
		st = pr_error_set(err, PR_EIO, "%s: could not connect: %.*s",
		    db->name, firstline(msg), msg);
		pg_close(db);
		return st;
	}
	pq.PQsetNoticeProcessor(db->conn, quiet, NULL);
	if (pq.PQserverVersion(db->conn) < 100000) {
		st = pr_error_set(err, PR_EIO,
		    "%s: server version %d is too old: PostgreSQL 10 or newer "
		    "is needed",
		    db->name, pq.PQserverVersion(db->conn));
		pg_close(db);
		return st;
	}
	st = pg_exec_raw(db,
	    "SET standard_conforming_strings = on; "
	    "SET extra_float_digits = 3; SET bytea_output = 'hex'",
	    err);
	if (st == PR_OK && (flags & PR_DB_READONLY))
		st = pg_exec_raw(db, "SET default_transaction_read_only = on",
		    err);
	if (st != PR_OK) {
		pg_close(db);
		return st;
	}
	*out = db;
	return PR_OK;
}

/* Deallocates the cached statements no statement handle uses, all of
 * them (after DDL) or only the least recently used beyond the limit. */
static void
trim_cache(struct pr_db *db, int all)
{
	struct prep **pp, *p, **oldest;
	char sql[64];

	drain(db);
	while (db->nprep > (all ? 0 : PG_CACHE_MAX)) {
		oldest = NULL;
		for (pp = &db->preps; *pp != NULL; pp = &(*pp)->next)
			if (!(*pp)->in_use &&
			    (oldest == NULL || (*pp)->used < (*oldest)->used))
				oldest = pp;
		if (oldest == NULL)
			return;
		p = *oldest;
		*oldest = p->next;
		db->nprep--;
		/* Fails only in an aborted transaction or on a lost
		 * connection; the statement then lives until disconnect. */
		snprintf(sql, sizeof(sql), "DEALLOCATE %s", p->name);
		pq.PQclear(pq.PQexec(db->conn, sql));
		free(p->sql);
		free(p->types);
		free(p);
	}
}

/* 1 for statements that cannot change a table's columns. */
static int
is_txn_control(const char *sql)
{
	static const char *const words[] = { "BEGIN", "COMMIT", "ROLLBACK",
		"END", "SAVEPOINT", "RELEASE", "START", "SET", NULL };
	const char *semi;
	size_t n, skip;
	int i;

	n = first_word(sql, &skip);
	sql += skip;
	semi = strchr(sql + n, ';');
	if (semi != NULL && semi[1 + strspn(semi + 1, " \t\r\n")] != '\0')
		return 0;
	for (i = 0; words[i] != NULL; i++)
		if (n == strlen(words[i]) && strncasecmp(sql, words[i], n) == 0)
			return 1;
	return 0;
}

static enum pr_status
pg_exec(struct pr_db *db, const char *sql, struct pr_error *err)
{
	PGresult *res;
	enum pr_status st;

	/* A rollback ends the transaction a failure in the pipeline
	 * aborted: that failure no longer matters. */
	if (is_word(sql, "ROLLBACK", "ABORT")) {
		drain(db);
		db->has_pend = 0;
	}
	/* COMMIT (one statement) goes down the pipeline, if one is open:
	 * the statements before it and it in one round trip. */
	if (db->piped > 0 && is_txn_control(sql) && strchr(sql, ';') == NULL) {
		if (pq.PQsendQueryParams(db->conn, sql, 0, NULL, NULL, NULL,
			NULL, 0) != 1) {
			drain(db);
			return result_error(db, NULL, err);
		}
		st = pipe_last(db, &res, err);
		if (st != PR_OK)
			return st;
		return exec_result(db, sql, res, err);
	}
	st = flush(db, err);
	if (st != PR_OK)
		return st;
	/* A statement prepared before a table changed may no longer fit
	 * it ("cached plan must not change result type"). */
	if (!is_txn_control(sql))
		trim_cache(db, 1);
	return pg_exec_raw(db, sql, err);
}

static int
is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || (unsigned char)c >= 0x80;
}

/*
 * Copies sql to a new string with each '?' outside literals, quoted
 * identifiers and comments replaced by $1, $2...; *nparams gets their
 * count.  Unterminated literals are copied as they are, for the server
 * to reject.
 */
static enum pr_status
rewrite(const char *sql, char **out, int *nparams, struct pr_error *err)
{
	size_t len = strlen(sql), q = 0, i, j, k, o = 0, taglen;
	char *s;
	int n = 0, depth;

	for (i = 0; i < len; i++)
		q += sql[i] == '?';
	if (q > PG_MAX_PARAMS)
		return pr_error_set(err, PR_ELIMIT,
		    "postgresql: more than %d parameters in one statement",
		    PG_MAX_PARAMS);
	s = malloc(len + q * 5 + 1);
	if (s == NULL)
		return nomem(err);
	for (i = 0; i < len;) {
		char c = sql[i];

		if (c == '\'' || c == '"') {
			/* E'...' takes backslash escapes. */
			int esc = c == '\'' && i > 0 &&
			    (sql[i - 1] == 'E' || sql[i - 1] == 'e') &&
			    (i == 1 || !is_ident(sql[i - 2]));

			for (j = i + 1; j < len; j++) {
				if (esc && sql[j] == '\\' && j + 1 < len)
					j++;
				else if (sql[j] == c) {
					if (j + 1 < len && sql[j + 1] == c)
						j++;
					else
						break;
				}
			}
			j = j < len ? j + 1 : len;
		} else if (c == '-' && i + 1 < len && sql[i + 1] == '-') {
			j = i + strcspn(sql + i, "\n");
		} else if (c == '/' && i + 1 < len && sql[i + 1] == '*') {
			/* Block comments nest in PostgreSQL. */
			depth = 1;
			for (j = i + 2; j < len && depth > 0; j++) {
				if (sql[j] == '/' && sql[j + 1] == '*')
					depth++, j++;
				else if (sql[j] == '*' && sql[j + 1] == '/')
					depth--, j++;
			}
		} else if (c == '$' && (i == 0 || !is_ident(sql[i - 1])) &&
		    (sql[i + 1] == '$' ||
			((is_ident(sql[i + 1]) &&
			    !(sql[i + 1] >= '0' && sql[i + 1] <= '9'))))) {
			/* $tag$ ... $tag$ */
			for (k = i + 1; k < len && is_ident(sql[k]); k++)
				;
			if (k >= len || sql[k] != '$') {
				s[o++] = sql[i++];
				continue;
			}
			taglen = k - i + 1;
			j = k + 1;
			while (j < len &&
			    (sql[j] != '$' ||
				strncmp(sql + j, sql + i, taglen) != 0))
				j++;
			j = j < len ? j + taglen : len;
		} else if (c == '?') {
			o += (size_t)snprintf(s + o, 7, "$%d", ++n);
			i++;
			continue;
		} else {
			s[o++] = sql[i++];
			continue;
		}
		memcpy(s + o, sql + i, j - i);
		o += j - i;
		i = j;
	}
	s[o] = '\0';
	*out = s;
	*nparams = n;
	return PR_OK;
}

/* Prepares sql on the server, or takes it from the cache. */
static enum pr_status
get_prep(struct pr_db *db, const char *sql, struct prep **out,
    struct pr_error *err)
{
	struct prep *p;
	PGresult *res;
	char *text = NULL;
	enum pr_status st;
	int i, n;

	st = flush(db, err);
	if (st != PR_OK)
		return st;
	for (p = db->preps; p != NULL; p = p->next)
		if (!p->in_use && strcmp(p->sql, sql) == 0) {
			*out = p;
			return PR_OK;
		}
	st = rewrite(sql, &text, &n, err);
	if (st != PR_OK)
		return st;
	p = calloc(1, sizeof(*p));
	if (p == NULL || (p->sql = strdup(sql)) == NULL ||
	    (p->types = calloc((size_t)n + 1, sizeof(Oid))) == NULL) {
		st = nomem(err);
		goto out;
	}
	snprintf(p->name, sizeof(p->name), "pr_%lu", ++db->next_id);
	p->nparams = n;
	db->sqlstate[0] = '\0';
	res = pq.PQprepare(db->conn, p->name, text, 0, NULL);
	if (res == NULL || pq.PQresultStatus(res) != PGRES_COMMAND_OK) {
		st = result_error(db, res, err);
		pq.PQclear(res);
		goto out;
	}
	pq.PQclear(res);
	res = pq.PQdescribePrepared(db->conn, p->name);
	if (res == NULL || pq.PQresultStatus(res) != PGRES_COMMAND_OK ||
	    pq.PQnparams(res) != n) {
		st = result_error(db, res, err);
		pq.PQclear(res);
		goto out;
	}
	for (i = 0; i < n; i++)
		p->types[i] = pq.PQparamtype(res, i);
	p->nfields = pq.PQnfields(res);
	pq.PQclear(res);
	p->next = db->preps;
	db->preps = p;
	db->nprep++;
	*out = p;
	p = NULL;
out:
	if (p != NULL) {
		free(p->sql);
		free(p->types);
		free(p);
	}
	free(text);
	return st;
}

static void
pg_finalize(struct pr_db_stmt *s)
{
	int i;

	if (s == NULL)
		return;
	pq.PQclear(s->res);
	if (s->params != NULL)
		for (i = 0; i < s->prep->nparams; i++)
			free(s->params[i].p);
	if (s->cols != NULL)
		for (i = 0; i < s->ncols; i++)
			free(s->cols[i].p);
	s->prep->in_use = 0;
	s->prep->used = ++s->db->clock;
	trim_cache(s->db, 0);
	free(s->params);
	free(s->values);
	free(s->lengths);
	free(s->formats);
	free(s->cols);
	free(s);
}

static enum pr_status
pg_prepare(struct pr_db *db, const char *sql, struct pr_db_stmt **out,
    struct pr_error *err)
{
	struct pr_db_stmt *s;
	struct prep *p = NULL;
	enum pr_status st;
	size_t n;

	*out = NULL;
	st = get_prep(db, sql, &p, err);
	if (st != PR_OK)
		return st;
	/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): get_prep set p, it returned PR_OK */
	p->in_use = 1;
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		p->in_use = 0;
		return nomem(err);
	}
	s->db = db;
	s->prep = p;
	n = (size_t)p->nparams + 1;
	s->params = calloc(n, sizeof(*s->params));
	s->values = calloc(n, sizeof(*s->values));
	s->lengths = calloc(n, sizeof(*s->lengths));
	s->formats = calloc(n, sizeof(*s->formats));
	if (s->params == NULL || s->values == NULL || s->lengths == NULL ||
	    s->formats == NULL) {
		pg_finalize(s);
		return nomem(err);
	}
	*out = s;
	return PR_OK;
}

static enum pr_status
param_at(struct pr_db_stmt *s, int i, struct param **out, struct pr_error *err)
{
	*out = NULL;
	if (i < 1 || i > s->prep->nparams)
		return pr_error_set(err, PR_EINVAL,
		    "%s: parameter %d out of range 1..%d", s->db->name, i,
		    s->prep->nparams);
	*out = &s->params[i - 1];
	return PR_OK;
}

static enum pr_status
pg_bind_null(struct pr_db_stmt *s, int i, struct pr_error *err)
{
	struct param *p;
	enum pr_status st = param_at(s, i, &p, err);

	if (st == PR_OK)
		p->type = PR_DB_NULL;
	return st;
}

static enum pr_status
pg_bind_int(struct pr_db_stmt *s, int i, int64_t v, struct pr_error *err)
{
	struct param *p;
	enum pr_status st = param_at(s, i, &p, err);

	if (st == PR_OK) {
		p->type = PR_DB_INT;
		p->i = v;
	}
	return st;
}

static enum pr_status
pg_bind_real(struct pr_db_stmt *s, int i, double v, struct pr_error *err)
{
	struct param *p;
	enum pr_status st = param_at(s, i, &p, err);

	if (st == PR_OK) {
		p->type = PR_DB_REAL;
		p->r = v;
	}
	return st;
}

static enum pr_status
bind_bytes(struct pr_db_stmt *s, int i, enum pr_db_type type, const void *v,
    size_t n, struct pr_error *err)
{
	struct param *p;
	enum pr_status st = param_at(s, i, &p, err);
	char *grown;

	if (st != PR_OK)
		return st;
	if (n > INT_MAX - 1)
		return pr_error_set(err, PR_ELIMIT,
		    "%s: parameter %d: %zu bytes is more than a value can "
		    "hold",
		    s->db->name, i, n);
	if (p->p == NULL || p->cap < n + 1) {
		grown = realloc(p->p, n + 1);
		if (grown == NULL)
			return nomem(err);
		p->p = grown;
		p->cap = n + 1;
	}
	if (n > 0)
		memcpy(p->p, v, n);
	p->p[n] = '\0';
	p->n = n;
	p->type = type;
	return PR_OK;
}

static enum pr_status
pg_bind_text(struct pr_db_stmt *s, int i, const char *v, size_t n,
    struct pr_error *err)
{
	return bind_bytes(s, i, PR_DB_TEXT, v, n, err);
}

static enum pr_status
pg_bind_blob(struct pr_db_stmt *s, int i, const void *v, size_t n,
    struct pr_error *err)
{
	return bind_bytes(s, i, PR_DB_BLOB, v, n, err);
}

static void
put_be64(char *b, uint64_t v)
{
	int k;

	for (k = 7; k >= 0; k--) {
		b[k] = (char)(v & 0xff);
		v >>= 8;
	}
}

/* Fills values/lengths/formats for parameter i from its binding and the
 * type the server gave the parameter. */
static enum pr_status
encode(struct pr_db_stmt *s, int i, struct pr_error *err)
{
	struct param *p = &s->params[i];
	Oid t = s->prep->types[i];
	uint64_t bits;

	s->formats[i] = 0;
	s->lengths[i] = 0;
	switch (p->type) {
	case PR_DB_NULL:
		s->values[i] = NULL;
		return PR_OK;
	case PR_DB_INT:
		if (t == PG_INT8) {
			put_be64(p->num, (uint64_t)p->i);
			s->formats[i] = 1;
			s->lengths[i] = 8;
		} else
			snprintf(p->num, sizeof(p->num), "%" PRId64, p->i);
		s->values[i] = p->num;
		return PR_OK;
	case PR_DB_REAL:
		if (t == PG_FLOAT8) {
			memcpy(&bits, &p->r, sizeof(bits));
			put_be64(p->num, bits);
			s->formats[i] = 1;
			s->lengths[i] = 8;
		} else if (isnan(p->r))
			snprintf(p->num, sizeof(p->num), "NaN");
		else if (isinf(p->r))
			snprintf(p->num, sizeof(p->num), "%sInfinity",
			    p->r < 0 ? "-" : "");
		else
			snprintf(p->num, sizeof(p->num), "%.17g", p->r);
		s->values[i] = p->num;
		return PR_OK;
	case PR_DB_TEXT:
	case PR_DB_BLOB:
		s->values[i] = p->p;
		if (t == PG_BYTEA || t == PG_TEXT || t == PG_VARCHAR ||
		    t == PG_BPCHAR || t == PG_NAME || t == PG_UNKNOWN) {
			s->formats[i] = 1;
			s->lengths[i] = (int)p->n;
		} else if (memchr(p->p, '\0', p->n) != NULL)
			return pr_error_set(err, PR_EINVAL,
			    "%s: parameter %d: bytes with a NUL for a "
			    "parameter of type %u",
			    s->db->name, i + 1, (unsigned)t);
		return PR_OK;
	}
	return pr_error_set(err, PR_EINVAL, "%s: parameter %d: bad type",
	    s->db->name, i + 1);
}

/* Sends a statement that returns no rows in pipeline mode, without
 * waiting for its result. */
static enum pr_status
send_ahead(struct pr_db_stmt *s, struct pr_error *err)
{
	struct pr_db *db = s->db;

	if (db->piped == 0 && pq.PQenterPipelineMode(db->conn) != 1)
		return result_error(db, NULL, err);
	pq.PQclear(s->res);
	s->res = NULL;
	s->executed = 1;
	s->row = -1;
	s->nrows = 0;
	if (pq.PQsendQueryPrepared(db->conn, s->prep->name, s->prep->nparams,
		s->values, s->lengths, s->formats, 0) != 1) {
		/* Nothing was sent: the pipeline may be empty. */
		if (db->piped == 0)
			pq.PQexitPipelineMode(db->conn);
		return result_error(db, NULL, err);
	}
	db->piped++;
	if (db->piped >= PG_PIPE_MAX)
		return flush(db, err);
	return PR_OK;
}

static enum pr_status
pg_step(struct pr_db_stmt *s, int *row, struct pr_error *err)
{
	enum pr_status st;
	int i;

	*row = 0;
	if (!s->executed) {
		for (i = 0; i < s->prep->nparams; i++) {
			st = encode(s, i, err);
			if (st != PR_OK)
				return st;
		}
		if (s->prep->nfields == 0 &&
		    (s->db->piped > 0 ||
			pq.PQtransactionStatus(s->db->conn) == PQTRANS_INTRANS))
			return send_ahead(s, err);
		pq.PQclear(s->res);
		s->res = NULL;
		if (s->db->piped > 0) {
			/* Behind the statements sent ahead, in the same
			 * round trip. */
			if (pq.PQsendQueryPrepared(s->db->conn, s->prep->name,
				s->prep->nparams, s->values, s->lengths,
				s->formats, 0) != 1) {
				drain(s->db);
				return result_error(s->db, NULL, err);
			}
			st = pipe_last(s->db, &s->res, err);
			if (st != PR_OK)
				return st;
		} else {
			st = flush(s->db, err);
			if (st != PR_OK)
				return st;
			s->db->sqlstate[0] = '\0';
			s->res = pq.PQexecPrepared(s->db->conn, s->prep->name,
			    s->prep->nparams, s->values, s->lengths, s->formats,
			    0);
		}
		s->executed = 1;
		s->row = -1;
		s->nrows = 0;
		switch (s->res != NULL ? pq.PQresultStatus(s->res)
				       : PGRES_FATAL_ERROR) {
		case PGRES_COMMAND_OK:
		case PGRES_EMPTY_QUERY:
			break;
		case PGRES_TUPLES_OK:
			s->nrows = pq.PQntuples(s->res);
			break;
		default:
			st = result_error(s->db, s->res, err);
			pq.PQclear(s->res);
			s->res = NULL;
			return st;
		}
		if (s->res != NULL && pq.PQnfields(s->res) > s->ncols) {
			struct colbuf *c = realloc(s->cols,
			    (size_t)pq.PQnfields(s->res) * sizeof(*c));

			if (c == NULL)
				return nomem(err);
			for (i = s->ncols; i < pq.PQnfields(s->res); i++) {
				c[i].p = NULL;
				c[i].cap = 0;
			}
			s->cols = c;
			s->ncols = pq.PQnfields(s->res);
		}
		for (i = 0; i < s->ncols; i++)
			s->cols[i].row = -1;
	}
	if (s->row < s->nrows)
		s->row++;
	*row = s->row < s->nrows;
	return PR_OK;
}

/* 1 when column i of the current row exists and is not NULL. */
static int
has_value(struct pr_db_stmt *s, int i)
{
	return s->res != NULL && s->row >= 0 && s->row < s->nrows && i >= 0 &&
	    i < pq.PQnfields(s->res) && !pq.PQgetisnull(s->res, s->row, i);
}

static enum pr_db_type
pg_column_type(struct pr_db_stmt *s, int i)
{
	if (!has_value(s, i))
		return PR_DB_NULL;
	switch (pq.PQftype(s->res, i)) {
	case PG_BOOL:
	case PG_INT2:
	case PG_INT4:
	case PG_INT8:
	case PG_OID:
		return PR_DB_INT;
	case PG_FLOAT4:
	case PG_FLOAT8:
	case PG_NUMERIC:
		return PR_DB_REAL;
	case PG_BYTEA:
		return PR_DB_BLOB;
	default:
		return PR_DB_TEXT;
	}
}

static double
text_to_double(const char *v)
{
	double d;

	if (strcmp(v, "NaN") == 0)
		return NAN;
	if (strcmp(v, "Infinity") == 0)
		return INFINITY;
	if (strcmp(v, "-Infinity") == 0)
		return -INFINITY;
	if (pr_parse_double_all(v, v + strlen(v), &d, NULL) != PR_OK)
		return 0;
	return d;
}

static int64_t
pg_column_int(struct pr_db_stmt *s, int i)
{
	const char *v;
	char *end;
	long long n;
	double d;

	if (!has_value(s, i))
		return 0;
	v = pq.PQgetvalue(s->res, s->row, i);
	if (pq.PQftype(s->res, i) == PG_BOOL)
		return v[0] == 't';
	n = strtoll(v, &end, 10);
	if (*end == '\0')
		return n;
	/* A numeric or float: truncated toward zero, clamped. */
	d = text_to_double(v);
	if (isnan(d))
		return 0;
	if (d >= 9223372036854775807.0)
		return INT64_MAX;
	if (d <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)d;
}

static double
pg_column_real(struct pr_db_stmt *s, int i)
{
	if (!has_value(s, i))
		return 0;
	return text_to_double(pq.PQgetvalue(s->res, s->row, i));
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static const char *
pg_column_bytes(struct pr_db_stmt *s, int i, size_t *n)
{
	struct colbuf *c;
	const char *v;
	size_t len, k, m;
	int hi, lo;

	*n = 0;
	if (!has_value(s, i))
		return NULL;
	v = pq.PQgetvalue(s->res, s->row, i);
	len = (size_t)pq.PQgetlength(s->res, s->row, i);
	if (pq.PQftype(s->res, i) != PG_BYTEA || len < 2 || v[0] != '\\' ||
	    v[1] != 'x') {
		*n = len;
		return v;
	}
	c = &s->cols[i];
	m = (len - 2) / 2;
	if (c->row != s->row) {
		if (c->p == NULL || c->cap < m + 1) {
			char *grown = realloc(c->p, m + 1);

			if (grown == NULL)
				return NULL;
			c->p = grown;
			c->cap = m + 1;
		}
		for (k = 0; k < m; k++) {
			hi = hexval(v[2 + 2 * k]);
			lo = hexval(v[3 + 2 * k]);
			if (hi < 0 || lo < 0)
				return NULL;
			c->p[k] = (char)(hi << 4 | lo);
		}
		c->p[m] = '\0';
		c->row = s->row;
	}
	*n = m;
	return c->p;
}

static enum pr_status
pg_reset(struct pr_db_stmt *s, struct pr_error *err)
{
	(void)err;
	pq.PQclear(s->res);
	s->res = NULL;
	s->executed = 0;
	s->row = -1;
	s->nrows = 0;
	return PR_OK;
}

static int
pg_last_was_conflict(struct pr_db *db)
{
	return strcmp(db->sqlstate, "23505") == 0 ||
	    strcmp(db->sqlstate, "40001") == 0 ||
	    strcmp(db->sqlstate, "40P01") == 0;
}

static enum pr_status
pg_last_insert_id(struct pr_db *db, int64_t *id, struct pr_error *err)
{
	PGresult *res;
	enum pr_status st;

	*id = 0;
	st = flush(db, err);
	if (st != PR_OK)
		return st;
	db->sqlstate[0] = '\0';
	res = pq.PQexec(db->conn, "SELECT lastval()");
	if (res == NULL || pq.PQresultStatus(res) != PGRES_TUPLES_OK ||
	    pq.PQntuples(res) != 1 || pq.PQgetisnull(res, 0, 0)) {
		st = result_error(db, res, err);
		pq.PQclear(res);
		return st;
	}
	*id = strtoll(pq.PQgetvalue(res, 0, 0), NULL, 10);
	pq.PQclear(res);
	return PR_OK;
}

const struct pr_db_ops pr_db_pg = {
	.name = "postgresql",
	.type_id = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
	.type_bytes = "BYTEA",
	.type_real = "DOUBLE PRECISION",
	.type_int = "BIGINT",
	.open = pg_open,
	.close = pg_close,
	.exec = pg_exec,
	.prepare = pg_prepare,
	.bind_null = pg_bind_null,
	.bind_int = pg_bind_int,
	.bind_real = pg_bind_real,
	.bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob,
	.step = pg_step,
	.column_type = pg_column_type,
	.column_int = pg_column_int,
	.column_real = pg_column_real,
	.column_bytes = pg_column_bytes,
	.reset = pg_reset,
	.finalize = pg_finalize,
	.last_was_conflict = pg_last_was_conflict,
	.last_insert_id = pg_last_insert_id,
};
