/*
 * perfreg/store.h - the results database: campaigns, sessions, runs,
 * their metrics, tags and environment snapshots, kept in SQLite (one
 * file, the default) or PostgreSQL (shared by a fleet of machines), with
 * one schema and one behaviour (doc/schema.md).
 *
 * Model.  A campaign (a name, "ubsec") gathers variants ("6.1.0-13",
 * "6.1.0-14") and sessions.  A session is one invocation of `perfreg
 * run` on one host in one boot (its boot id), with an environment
 * snapshot and tags; it runs one or more variants of its campaign.  A
 * run is one execution of a variant's command in a session: its outcome,
 * its output (failed runs; kept up to PR_STORE_OUTPUT_MAX bytes, longer
 * ones truncated and flagged) and its metrics, one value each.
 *
 * Durability.  pr_store_add_run commits the run in its own transaction
 * before it returns (unless the caller opened one with pr_store_begin):
 * a session killed at any moment leaves every finished run stored and
 * the database consistent.  SQLite runs in WAL mode with
 * synchronous=NORMAL, and the first commit one second or more after the
 * last synced one (and the end of a session) syncs the WAL: a power loss
 * loses at most the runs committed in about one second and never leaves
 * the file inconsistent (doc/schema.md says why this setting).
 *
 * Strings.  Campaign and variant names, tag keys and values, reasons and
 * outputs are byte strings (struct pr_str): they may hold quotes, NULs
 * and invalid UTF-8 and are read back exactly.  Strings the store hands
 * out are NUL-terminated one byte past n.  Host names, boot ids,
 * commands and statuses are ordinary C strings.
 *
 * Errors.  A database that is locked (after a busy timeout of 5 s, or
 * the one struct pr_store_opts gives), read-only,
 * corrupt, not a perfreg database, from a newer schema, or on a full
 * disk gives a one-line error naming the database (struct pr_error's
 * file), and the transaction in progress is rolled back: nothing
 * partial is left.
 *
 * Ownership: everything returned is the caller's, released with the
 * matching _free/_release.  Thread-safety: a struct pr_store is one
 * connection; use one per thread.  The library never prints and reads
 * no environment variable: the caller passes what they would say.
 */
#ifndef PERFREG_STORE_H
#define PERFREG_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/dataset.h"
#include "perfreg/env.h"
#include "perfreg/error.h"

/* The schema version this perfreg writes (doc/schema.md). */
#define PR_STORE_SCHEMA_VERSION 3
/* The most output bytes kept per run; longer output is truncated. */
#define PR_STORE_OUTPUT_MAX (4u << 20)

/* A byte string: p[0..n) (p may be NULL when n is 0). */
struct pr_str {
	const char *p;
	size_t n;
};

/* A C string as a pr_str (s may be NULL: the empty string). */
struct pr_str pr_str_c(const char *s);

struct pr_store;

enum pr_store_mode {
	PR_STORE_CREATE = 0, /* read-write; create the file and schema */
	PR_STORE_WRITE,      /* read-write; the database must exist */
	PR_STORE_READ        /* read-only */
};

/*
 * The default database, from the values of the environment variables
 * PERFREG_DB, XDG_DATA_HOME and HOME that the caller passes (NULL or ""
 * when unset): perfreg_db when set, else XDG_DATA_HOME/perfreg/
 * perfreg.db, else HOME/.local/share/perfreg/perfreg.db.  *out is the
 * caller's (free()).  PR_ENOTFOUND when none is set.
 */
enum pr_status pr_store_default_target(const char *perfreg_db,
    const char *xdg_data_home, const char *home, char **out,
    struct pr_error *err);

/* How long a writer waits for another writer's lock by default. */
#define PR_STORE_BUSY_MS_DEFAULT 5000

/* Options of pr_store_open_opts; pr_store_opts_init sets the defaults. */
struct pr_store_opts {
	/* How long a statement waits for another connection's write lock
	 * before it fails with "locked", in ms (SQLite; 0: fail at once). */
	int busy_ms;
};

void pr_store_opts_init(struct pr_store_opts *o);

/*
 * Opens (and with PR_STORE_CREATE creates, parent directories included,
 * mode 0700) the database at target: a file name for SQLite, or
 * "postgresql://..." / "postgres://..." / a libpq keyword string for
 * PostgreSQL.  Brings an older schema up to date by its migrations
 * (PR_STORE_READ: refuses instead).  Errors: PR_ENOTFOUND (no such
 * file, PR_STORE_WRITE/READ), PR_EPARSE (not a perfreg database,
 * corrupt), PR_EINVAL (schema newer than this perfreg: "made by a newer
 * perfreg (schema N, this one knows M)"), PR_EIO (locked, read-only,
 * cannot connect), PR_ENOMEM.
 */
enum pr_status pr_store_open(const char *target, enum pr_store_mode mode,
    struct pr_store **out, struct pr_error *err);
/* pr_store_open with options (o NULL: the defaults).  PR_EINVAL for a
 * negative busy_ms. */
enum pr_status pr_store_open_opts(const char *target, enum pr_store_mode mode,
    const struct pr_store_opts *o, struct pr_store **out, struct pr_error *err);
void pr_store_close(struct pr_store *st);
/* From now on, a statement waits up to busy_ms (0 or more; a negative
 * value changes nothing) for another writer's lock before it fails
 * (SQLite; PostgreSQL waits as it always does). */
void pr_store_set_busy(struct pr_store *st, int busy_ms);

/* "sqlite" or "postgresql". */
const char *pr_store_backend(const struct pr_store *st);
/* The target as given to pr_store_open, password removed. */
const char *pr_store_target(const struct pr_store *st);

/* Explicit transactions (import): while one is open, pr_store_add_run
 * and pr_store_session_* do not commit on their own.  A write that fails
 * inside one dooms it: later writes and pr_store_commit fail (commit
 * rolls back), and the caller should pr_store_rollback.  Closing a store
 * with a transaction open rolls it back. */
enum pr_status pr_store_begin(struct pr_store *st, struct pr_error *err);
enum pr_status pr_store_commit(struct pr_store *st, struct pr_error *err);
void pr_store_rollback(struct pr_store *st);

/* ---- writing a session ---- */

struct pr_store_tag {
	struct pr_str key, value;
};

struct pr_store_session_new {
	struct pr_str campaign; /* required, non-empty */
	const char *host;       /* host name */
	const char *boot_id;    /* /proc/sys/kernel/random/boot_id */
	/* perfreg's arguments as a JSON array of strings: what --resume
	 * re-runs.  May be NULL. */
	const char *args_json;
	double started;           /* Unix time, seconds */
	const struct pr_env *env; /* the snapshot, or NULL */
	const struct pr_store_tag *tags;
	size_t ntags;
	int64_t resumes; /* the session this one continues, or 0 */
	/* 1: written by import, never resumable (its args_json came from
	 * elsewhere); such a session claims nothing it resumes. */
	int imported;
	/* The process running the session on host (getpid()), or 0: lets
	 * a resume tell a live session from one cut short. */
	int64_t pid;
	/* The metrics the session was told are primary (`run --primary`),
	 * in order, each non-empty; nprimary 0 (primary may be NULL): none,
	 * the rule of perfreg/primary.h picks them when compared. */
	const char *const *primary;
	size_t nprimary;
};

/* Records a new session (creating the campaign and host as needed) with
 * status "running"; *id gets its id.  One transaction.  A session that
 * resumes another (not imported) claims it in the same transaction: a
 * second claim of one session fails with PR_EINVAL "session N is
 * already resumed by session M". */
enum pr_status pr_store_session_begin(struct pr_store *st,
    const struct pr_store_session_new *s, int64_t *id, struct pr_error *err);

/* The id of the variant called name in the session's campaign, created
 * (with the command line) when absent; records that the session runs it
 * with that command.  A variant's runs may come from many sessions. */
enum pr_status pr_store_session_variant(struct pr_store *st, int64_t session,
    struct pr_str name, const char *command, int64_t *variant,
    struct pr_error *err);

struct pr_store_run {
	int64_t variant;   /* from pr_store_session_variant */
	size_t round, seq; /* as struct pr_run */
	int warmup, ok;
	const char *outcome; /* pr_spawn_outcome_str() */
	int exit_status, signal;
	struct pr_str reason;  /* "" when ok */
	const char *failed_in; /* NULL, "prepare", "command", "parse" */
	struct pr_str output;  /* may be empty */
	int truncated;         /* the output was cut before the store */
	double start_s;        /* seconds after the session started */
	const struct pr_dataset *metrics; /* one value per metric, or NULL */
};

/* Stores a run and its metrics: each metric of r->metrics with one
 * value (none: left out; more: PR_EINVAL) and its flags (PR_METRIC_*,
 * perfreg/dataset.h: whether it is the benchmark's own result).  A
 * metric is one (name, unit) pair, recorded once; its direction is the
 * first one known.  Output
 * longer than PR_STORE_OUTPUT_MAX is cut and flagged truncated.
 * Committed before it returns; on any error nothing of the run stays. */
enum pr_status pr_store_add_run(struct pr_store *st, int64_t session,
    const struct pr_store_run *r, struct pr_error *err);

/* Marks a session finished: status "done", "interrupted",
 * "max-failures", "decided", "undecided" (--until-decided stopped at its
 * budget) or "failed"; elapsed_s its duration. */
enum pr_status pr_store_session_end(struct pr_store *st, int64_t session,
    const char *status, double elapsed_s, struct pr_error *err);

/* Adds tags to a stored session, after its last, each replacing the
 * session's tag of the same key (what a session learns after its runs:
 * the suite's verdicts on it).  One transaction.  PR_ENOTFOUND for no
 * such session. */
enum pr_status pr_store_session_tags(struct pr_store *st, int64_t session,
    const struct pr_store_tag *tags, size_t ntags, struct pr_error *err);

/* ---- reading ---- */

struct pr_store_campaign_info {
	struct pr_str name;
	size_t nvariants, nsessions, nboots, nhosts;
	size_t nruns_ok, nruns_failed; /* counted runs, warm-ups excluded */
	double first, last;            /* session start times, Unix s */
};

/* Every campaign, by name.  *out is the caller's. */
enum pr_status pr_store_campaigns(struct pr_store *st,
    struct pr_store_campaign_info **out, size_t *n, struct pr_error *err);
void pr_store_campaigns_free(struct pr_store_campaign_info *c, size_t n);

struct pr_store_session_info {
	int64_t id;
	struct pr_str campaign;
	char *host, *boot_id;
	char *args_json; /* NULL when not recorded */
	char *status;
	double started, elapsed_s;
	int64_t resumes; /* 0: none */
	int imported;    /* 1: written by import */
	int64_t pid;     /* the process that ran it, 0 when unknown */
	struct pr_store_tag *tags;
	size_t ntags;
	struct pr_str *variants; /* the variants it ran, in order */
	size_t nvariants;
	size_t nruns_ok, nruns_failed, nwarmup;
	char **primary; /* its --primary metrics, in order (none: 0) */
	size_t nprimary;
};

/* The sessions of a campaign in order of start (campaign.p NULL: every
 * session).  PR_ENOTFOUND for an unknown campaign. */
enum pr_status pr_store_sessions(struct pr_store *st, struct pr_str campaign,
    struct pr_store_session_info **out, size_t *n, struct pr_error *err);
/* One session by id; PR_ENOTFOUND when absent. */
enum pr_status pr_store_session_get(struct pr_store *st, int64_t id,
    struct pr_store_session_info *out, struct pr_error *err);
void pr_store_session_info_release(struct pr_store_session_info *s);
void pr_store_sessions_free(struct pr_store_session_info *s, size_t n);

struct pr_store_variant_info {
	int64_t id;
	struct pr_str name;
	char *command; /* of its latest session */
	size_t nsessions, nboots;
	size_t nruns_ok, nruns_failed;
};

/* The variants of a campaign in order of creation (the first is the
 * baseline of `compare --campaign`).  PR_ENOTFOUND for an unknown
 * campaign. */
enum pr_status pr_store_variants(struct pr_store *st, struct pr_str campaign,
    struct pr_store_variant_info **out, size_t *n, struct pr_error *err);
void pr_store_variants_free(struct pr_store_variant_info *v, size_t n);

/* One metric's values in a variant, grouped by boot. */
struct pr_store_series {
	char *name, *unit;
	enum pr_better better;
	/* PR_METRIC_* bits of any of its values (a result in one run is a
	 * result); 0 for runs stored before schema 3. */
	unsigned flags;
	double *value; /* n values, ordered by boot, then run */
	size_t *boot;  /* boot index of each value */
	size_t n;
};

struct pr_store_variant_data {
	char **boot_ids;       /* nboots, in order of first run */
	int64_t *boot_session; /* the first session of each boot */
	size_t nboots;
	struct pr_store_series *m; /* metrics in order of first appearance */
	size_t nm;
	size_t nruns; /* counted, successful runs */
	/* The --primary metrics of the variant's sessions, each name once,
	 * in the order of the sessions and then of the names (none: 0). */
	char **primary;
	size_t nprimary;
};

/* Loads the counted (not warm-up), successful runs of a variant for
 * analysis.  PR_ENOTFOUND for an unknown campaign or variant.  Reads
 * with one query ordered by boot: O(n log n) at most. */
enum pr_status pr_store_load_variant(struct pr_store *st,
    struct pr_str campaign, struct pr_str variant,
    struct pr_store_variant_data *out, struct pr_error *err);
/* The same, of the runs of sessions[0..nsessions) only (sessions NULL:
 * every session's): a variant with no such run loads empty (nruns 0). */
enum pr_status pr_store_load_variant_in(struct pr_store *st,
    struct pr_str campaign, struct pr_str variant, const int64_t *sessions,
    size_t nsessions, struct pr_store_variant_data *out, struct pr_error *err);
void pr_store_variant_data_release(struct pr_store_variant_data *d);
/* The series called name of d, or NULL (a linear search: d->nm is the
 * number of metrics of one variant). */
const struct pr_store_series *pr_store_variant_series(
    const struct pr_store_variant_data *d, const char *name);

/* The environment snapshot of a session into e (initialised, empty);
 * *found is 0 (and e left empty) when the session has none. */
enum pr_status pr_store_session_env(struct pr_store *st, int64_t session,
    struct pr_env *e, int *found, struct pr_error *err);

/* A stored run, as read back. */
struct pr_store_run_rec {
	int64_t id, session;
	struct pr_str variant;
	size_t round, seq;
	int warmup, ok;
	const char *outcome;
	int exit_status, signal;
	struct pr_str reason;
	const char *failed_in; /* NULL when ok */
	struct pr_str output;
	int truncated;
	double start_s;
	const char *const *metric_names; /* nm names, units, directions */
	const char *const *metric_units;
	const enum pr_better *metric_better;
	const double *metric_values;
	const unsigned *metric_flags; /* PR_METRIC_* bits */
	size_t nm;
};

/* Calls cb for every run of the session, in seq order; the record is
 * borrowed for the call.  A non-zero return from cb stops the walk and
 * is returned as PR_EINVAL with cb's error (cb fills err; err is
 * cleared before each call).  cb may read the store (other functions)
 * but must not call pr_store_each_run on it.  PR_ENOTFOUND for an
 * unknown session. */
typedef int pr_store_run_cb(void *arg, const struct pr_store_run_rec *r,
    struct pr_error *err);
enum pr_status pr_store_each_run(struct pr_store *st, int64_t session,
    pr_store_run_cb *cb, void *arg, struct pr_error *err);
/* pr_store_each_run for the runs of one variant of the session only (its
 * name, every byte compared): the others are not read.  None (PR_OK, cb
 * never called) when the session's campaign has no such variant. */
enum pr_status pr_store_each_run_of(struct pr_store *st, int64_t session,
    struct pr_str variant, pr_store_run_cb *cb, void *arg,
    struct pr_error *err);

/* The seq numbers of the runs stored for a session, ascending (*seq is
 * the caller's, free(); NULL when n is 0).  PR_ENOTFOUND is not
 * returned: an unknown session has none. */
enum pr_status pr_store_run_seqs(struct pr_store *st, int64_t session,
    size_t **seq, size_t *n, struct pr_error *err);

/* ---- resuming ---- */

/* The latest session of the campaign on this host that did not finish
 * (status "running", "interrupted", "failed" or "max-failures"), was
 * not already resumed and was not imported, or PR_ENOTFOUND. */
enum pr_status pr_store_find_unfinished(struct pr_store *st,
    struct pr_str campaign, const char *host, struct pr_store_session_info *out,
    struct pr_error *err);

/* ---- moving campaigns (src/store/export.c) ---- */

/* The export format version this perfreg writes and reads (and older). */
#define PR_STORE_EXPORT_VERSION 1
/* The longest line an export holds, newline excluded.  Export writes
 * long outputs in base64 when escaping would make them longer, so that a
 * run's line stays under this; import refuses longer lines. */
#define PR_STORE_EXPORT_LINE_MAX (8u << 20)

/* Where export writes: returns PR_OK or an error (PR_EIO). */
typedef enum pr_status pr_store_write_fn(void *arg, const char *p, size_t n,
    struct pr_error *err);

/*
 * Writes the campaigns named (n 0: every campaign, by name) as JSON
 * Lines (doc/export.md): a header {"format":"perfreg-export",
 * "version":1,"schema":N}, then per campaign a campaign line, its
 * variant lines in order of creation, and each session (with tags and
 * environment snapshot) followed by its runs with their metrics; last an
 * end line with the counts, so that a truncated file is recognised.
 * Byte strings that are valid UTF-8 without NUL are JSON strings, others
 * {"base64":"..."}; doubles round-trip bit-exactly.  write gets pieces of
 * about 1 MiB.  Errors: the store's (PR_ENOTFOUND for an unknown
 * campaign), write's, PR_ELIMIT when a session's line would exceed
 * PR_STORE_EXPORT_LINE_MAX (an environment snapshot over 8 MiB).  After
 * an error part of the export may have been written.
 */
enum pr_status pr_store_export(struct pr_store *st,
    const struct pr_str *campaigns, size_t n, pr_store_write_fn *write,
    void *arg, struct pr_error *err);

struct pr_store_import_stats {
	size_t campaigns;      /* campaign lines read */
	size_t sessions, runs; /* imported */
	/* already in the database (same campaign, host, boot id and start
	 * time), left out with their runs */
	size_t sessions_skipped, runs_skipped;
};

/*
 * Reads an export (len bytes of text; name for messages "FILE:LINE:
 * ...", NULL: "import") into st in one transaction: all or nothing.
 * Sessions keep their hosts, boot ids, times, status, tags, environment
 * snapshots and the sessions they resume; a campaign that exists gains
 * the sessions (a session already present, same campaign, host, boot id
 * and start time, is skipped with its runs and counted in stats).
 * Errors: PR_EPARSE "FILE:LINE: what" for malformed input (not an
 * export, a newer format version, a truncated file, a line over
 * PR_STORE_EXPORT_LINE_MAX, a value the store refuses), the store's
 * errors (PR_EIO, PR_ENOMEM) otherwise; the database is then as before.
 * stats (may be NULL) is filled on success only.
 */
enum pr_status pr_store_import(struct pr_store *st, const char *text,
    size_t len, const char *name, struct pr_store_import_stats *stats,
    struct pr_error *err);

/* Where pr_store_import_read reads: up to size bytes into p, *n the
 * count (0: the end of the input).  Returns PR_OK or an error (which
 * the import returns, after rolling back). */
typedef enum pr_status pr_store_read_fn(void *arg, char *p, size_t size,
    size_t *n, struct pr_error *err);

/*
 * pr_store_import of what read gives, read as it is imported: memory
 * stays under one line (PR_STORE_EXPORT_LINE_MAX) and 1 MiB of input
 * whatever the size of the input, so that a huge or endless input
 * (/dev/zero) fails at its first line over the limit instead of being
 * buffered, and a file that shrinks while it is read is a truncated
 * export, not a fault.  Unlike pr_store_import it is not one
 * transaction: it commits once per MiB of input (read asks for at most
 * 1 MiB at a time), leaving the write lock free for a few milliseconds
 * between two chunks, so that other writers wait for one chunk at most,
 * and an error rolls back only the chunk it is in.  stats is filled on
 * error too, with what the committed chunks hold; importing the same
 * input again adds the rest (runs already there are left out).
 */
enum pr_status pr_store_import_read(struct pr_store *st, pr_store_read_fn *read,
    void *arg, const char *name, struct pr_store_import_stats *stats,
    struct pr_error *err);

#endif /* PERFREG_STORE_H */
