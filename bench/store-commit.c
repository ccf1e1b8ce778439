/*
 * bench/store-commit.c - what committing one run costs: pr_store_add_run
 * (one transaction per run, as `perfreg run --campaign` does) against a
 * raw SQLite floor that writes the same rows (one run row, six metric
 * rows) in one transaction per run through prepared statements, with the
 * same settings (WAL, synchronous=NORMAL) and no perfreg code at all.
 * Prints microseconds per run for both and their ratio; bench/store.sh
 * runs it and bench/README.md records the figures.
 *
 * usage: store-commit DIR [RUNS]   (DIR: a scratch directory)
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perfreg/dataset.h"
#include "perfreg/store.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const names[6] = { "wall_s", "user_s", "sys_s", "maxrss_kib",
	"ctxsw_vol", "ctxsw_invol" };

static double
floor_run(const char *path, size_t n)
{
	sqlite3 *db;
	sqlite3_stmt *ir, *im;
	double t0, t;
	size_t i, k;

	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db,
		"PRAGMA journal_mode=WAL;"
		"PRAGMA synchronous=NORMAL;"
		"CREATE TABLE run(id INTEGER PRIMARY KEY, session INTEGER,"
		" variant INTEGER, round INTEGER, seq INTEGER, warmup INTEGER,"
		" ok INTEGER, outcome TEXT, output BLOB, start_s REAL);"
		"CREATE INDEX run_session ON run(session, seq);"
		"CREATE TABLE run_metric(run_id INTEGER, metric_id INTEGER,"
		" value REAL, PRIMARY KEY(run_id, metric_id)) WITHOUT ROWID;",
		NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db,
		"INSERT INTO run(session, variant, round,"
		" seq, warmup, ok, outcome, output, start_s)"
		" VALUES(1, 1, ?, ?, 0, 1, 'ok', x'', ?)",
		-1, &ir, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO run_metric VALUES(?, ?, ?)", -1,
		&im, NULL) != SQLITE_OK) {
		fprintf(stderr, "store-commit: %s: %s\n", path,
		    sqlite3_errmsg(db));
		exit(1);
	}
	t0 = now();
	for (i = 0; i < n; i++) {
		sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
		sqlite3_bind_int64(ir, 1, (sqlite3_int64)i);
		sqlite3_bind_int64(ir, 2, (sqlite3_int64)i);
		sqlite3_bind_double(ir, 3, (double)i * 1e-3);
		if (sqlite3_step(ir) != SQLITE_DONE)
			exit(1);
		sqlite3_reset(ir);
		for (k = 0; k < 6; k++) {
			sqlite3_bind_int64(im, 1,
			    sqlite3_last_insert_rowid(db));
			sqlite3_bind_int64(im, 2, (sqlite3_int64)k + 1);
			sqlite3_bind_double(im, 3, 1e-3 * (double)(i + k));
			if (sqlite3_step(im) != SQLITE_DONE)
				exit(1);
			sqlite3_reset(im);
		}
		if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
			exit(1);
	}
	t = now() - t0;
	sqlite3_finalize(ir);
	sqlite3_finalize(im);
	sqlite3_close(db);
	return t;
}

static double
store_run(const char *path, size_t n)
{
	struct pr_store_session_new sn;
	struct pr_store_run r;
	struct pr_dataset d;
	struct pr_store *st;
	struct pr_error err;
	int64_t sid, vid;
	double t0, t;
	size_t i, k;

	pr_error_clear(&err);
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c("bench");
	sn.host = "bench";
	sn.boot_id = "b";
	sn.started = 1.7e9;
	if (pr_store_open(path, PR_STORE_CREATE, &st, &err) != PR_OK ||
	    pr_store_session_begin(st, &sn, &sid, &err) != PR_OK ||
	    pr_store_session_variant(st, sid, pr_str_c("v"), "true", &vid,
		&err) != PR_OK) {
		fprintf(stderr, "store-commit: %s\n", err.msg);
		exit(1);
	}
	t0 = now();
	for (i = 0; i < n; i++) {
		pr_dataset_init(&d);
		for (k = 0; k < 6; k++)
			pr_dataset_add(&d, names[k], "s", PR_BETTER_LOWER,
			    1e-3 * (double)(i + k), &err);
		memset(&r, 0, sizeof(r));
		r.variant = vid;
		r.round = i;
		r.seq = i;
		r.ok = 1;
		r.outcome = "ok";
		r.reason = pr_str_c("");
		r.start_s = (double)i * 1e-3;
		r.metrics = &d;
		if (pr_store_add_run(st, sid, &r, &err) != PR_OK) {
			fprintf(stderr, "store-commit: %s\n", err.msg);
			exit(1);
		}
		pr_dataset_release(&d);
	}
	t = now() - t0;
	pr_store_close(st);
	return t;
}

int
main(int argc, char **argv)
{
	char a[4096], b[4096];
	size_t n = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 10000;
	double tf, ts;

	if (argc < 2 || n == 0) {
		fprintf(stderr, "usage: store-commit DIR [RUNS]\n");
		return 2;
	}
	snprintf(a, sizeof(a), "%s/floor.db", argv[1]);
	snprintf(b, sizeof(b), "%s/store.db", argv[1]);
	tf = floor_run(a, n);
	ts = store_run(b, n);
	printf("raw sqlite3, a transaction per run: %.1f us a run\n",
	    1e6 * tf / (double)n);
	printf("pr_store_add_run:                   %.1f us a run\n",
	    1e6 * ts / (double)n);
	printf("ratio store/raw: %.2f\n", ts / tf);
	return 0;
}
