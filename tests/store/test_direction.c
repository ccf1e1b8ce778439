/*
 * tests/store/test_direction.c - how the store records a metric's
 * direction (lower or higher is better) that was first stored unknown.
 * A metric is one row per (name, unit); a run that knows the direction
 * fills in an unknown one, and once known the direction is never changed
 * by a later run that disagrees.  The cases the round-trip tests of
 * test_store.c do not reach: the direction learnt by a second connection
 * that finds the metric in the database rather than in its own cache, and
 * two connections whose caches disagree (the second one's stale view must
 * not overwrite what the first recorded).  SQLite files in a temporary
 * directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfreg/dataset.h"
#include "perfreg/store.h"

static char g_dir[] = "/tmp/perfreg-test-direction-XXXXXX";

static void
ok(enum pr_status rc, const struct pr_error *err)
{
	char buf[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	if (rc != PR_OK)
		fail_msg("%s", pr_error_format(err, buf, sizeof(buf)));
}

static struct pr_store *
open_db(const char *path, enum pr_store_mode mode)
{
	struct pr_store *st = NULL;
	struct pr_error err;

	ok(pr_store_open(path, mode, &st, &err), &err);
	return st;
}

/* A session of campaign "dir" with its variant "v"; the variant's id. */
static int64_t
begin(struct pr_store *st, int64_t *sid)
{
	struct pr_store_session_new s;
	struct pr_error err;
	int64_t vid;

	memset(&s, 0, sizeof(s));
	s.campaign = pr_str_c("dir");
	s.host = "testhost";
	s.boot_id = "boot";
	s.started = 1;
	ok(pr_store_session_begin(st, &s, sid, &err), &err);
	ok(pr_store_session_variant(st, *sid, pr_str_c("v"), "cmd", &vid, &err),
	    &err);
	return vid;
}

/* Adds one ok run with the metric "m" (ms) = x in the given direction. */
static void
add_run(struct pr_store *st, int64_t sid, int64_t vid, size_t seq,
    enum pr_better better, double x)
{
	struct pr_store_run r;
	struct pr_dataset d;
	struct pr_error err;

	pr_dataset_init(&d);
	ok(pr_dataset_add(&d, "m", "ms", better, x, &err), &err);
	memset(&r, 0, sizeof(r));
	r.variant = vid;
	r.round = seq;
	r.seq = seq;
	r.ok = 1;
	r.outcome = "ok";
	r.reason = pr_str_c("");
	r.metrics = &d;
	ok(pr_store_add_run(st, sid, &r, &err), &err);
	pr_dataset_release(&d);
}

/* The stored direction of "m" and its number of values, read afresh. */
static enum pr_better
stored(const char *path, size_t *n)
{
	struct pr_store_variant_data vd;
	struct pr_store *st = open_db(path, PR_STORE_READ);
	struct pr_error err;
	enum pr_better b;

	ok(pr_store_load_variant(st, pr_str_c("dir"), pr_str_c("v"), &vd, &err),
	    &err);
	assert_int_equal(vd.nm, 1);
	b = vd.m[0].better;
	*n = vd.m[0].n;
	pr_store_variant_data_release(&vd);
	pr_store_close(st);
	return b;
}

/* Stored unknown by one connection, then known by a new one (which finds
 * the metric in the database, not in its cache): recorded. */
static void
test_learnt_after_reopen(void **state)
{
	char path[sizeof(g_dir) + 16];
	struct pr_store *st;
	int64_t sid, vid;
	size_t n;

	(void)state;
	snprintf(path, sizeof(path), "%s/a.db", g_dir);
	st = open_db(path, PR_STORE_CREATE);
	vid = begin(st, &sid);
	add_run(st, sid, vid, 0, PR_BETTER_UNKNOWN, 1);
	pr_store_close(st);
	assert_int_equal(stored(path, &n), PR_BETTER_UNKNOWN);

	st = open_db(path, PR_STORE_WRITE);
	vid = begin(st, &sid);
	add_run(st, sid, vid, 0, PR_BETTER_HIGHER, 2);
	/* Unknown again later: the recorded direction stays. */
	add_run(st, sid, vid, 1, PR_BETTER_UNKNOWN, 3);
	pr_store_close(st);
	assert_int_equal(stored(path, &n), PR_BETTER_HIGHER);
	assert_int_equal(n, 3);
}

/* Two connections: A caches "m" as unknown, B records "higher", then A,
 * whose cache still says unknown, sees "lower": B's direction stays. */
static void
test_stale_cache_does_not_overwrite(void **state)
{
	char path[sizeof(g_dir) + 16];
	struct pr_store *a, *b;
	int64_t sa, va, sb, vb;
	size_t n;

	(void)state;
	snprintf(path, sizeof(path), "%s/b.db", g_dir);
	a = open_db(path, PR_STORE_CREATE);
	va = begin(a, &sa);
	add_run(a, sa, va, 0, PR_BETTER_UNKNOWN, 1);

	b = open_db(path, PR_STORE_WRITE);
	vb = begin(b, &sb);
	add_run(b, sb, vb, 0, PR_BETTER_HIGHER, 2);
	pr_store_close(b);
	assert_int_equal(stored(path, &n), PR_BETTER_HIGHER);

	add_run(a, sa, va, 1, PR_BETTER_LOWER, 3);
	pr_store_close(a);
	assert_int_equal(stored(path, &n), PR_BETTER_HIGHER);
	assert_int_equal(n, 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_learnt_after_reopen),
		cmocka_unit_test(test_stale_cache_does_not_overwrite),
	};
	char cmd[sizeof(g_dir) + 16];
	int rc;

	if (mkdtemp(g_dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_dir);
	if (system(cmd) != 0)
		rc = rc ? rc : 1;
	return rc;
}
