/*
 * tests/store/test_store.c - the results store on real databases.
 *
 * The backend-agnostic group (round trips of everything written, byte
 * strings with quotes, NULs, invalid UTF-8 and 1 MB outputs, grouping by
 * boot, transactions and their rollback, racing writers) runs against
 * SQLite files in a temporary directory and, when PERFREG_TEST_PG holds a
 * libpq connection string, against that PostgreSQL database too; every
 * test there uses campaign names of its own, so that a shared database
 * may hold other data.  The SQLite group creates the faults: a writer
 * killed with SIGKILL mid-session, a database locked by another
 * connection, read-only, corrupt, foreign and newer-schema files, and a
 * full disk through RLIMIT_FSIZE.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "perfreg/dataset.h"
#include "perfreg/env.h"
#include "perfreg/history.h"
#include "perfreg/store.h"
#include "store/db.h"
#include "store/str.h"

/* The temporary directory for SQLite files. */
static char g_dir[256];
/* The PostgreSQL target while the PostgreSQL group runs, else NULL. */
static const char *g_pg;
static unsigned g_seq;

/* A database target for a test: a fresh SQLite file, or the PostgreSQL
 * database.  Returns a static buffer. */
static const char *
target(const char *name)
{
	static char buf[512];

	if (g_pg != NULL)
		return g_pg;
	snprintf(buf, sizeof(buf), "%s/%s-%u.db", g_dir, name, g_seq++);
	return buf;
}

/* A campaign name unique to this process and call. */
static const char *
uniq(const char *base)
{
	static char buf[8][128];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%s-%ld-%u", base, (long)getpid(),
	    g_seq++);
	return buf[k];
}

static void
ok(enum pr_status rc, const struct pr_error *err)
{
	char buf[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	if (rc != PR_OK)
		fail_msg("%s", pr_error_format(err, buf, sizeof(buf)));
}

static struct pr_store *
open_new(const char *t)
{
	struct pr_store *st = NULL;
	struct pr_error err;

	ok(pr_store_open(t, PR_STORE_CREATE, &st, &err), &err);
	return st;
}

static int64_t
session(struct pr_store *st, const char *campaign, const char *boot,
    double started)
{
	struct pr_store_session_new s;
	struct pr_error err;
	int64_t id;

	memset(&s, 0, sizeof(s));
	s.campaign = pr_str_c(campaign);
	s.host = "testhost";
	s.boot_id = boot;
	s.started = started;
	ok(pr_store_session_begin(st, &s, &id, &err), &err);
	assert_true(id > 0);
	return id;
}

static int64_t
variant(struct pr_store *st, int64_t sid, const char *name)
{
	struct pr_error err;
	int64_t v;

	ok(pr_store_session_variant(st, sid, pr_str_c(name), "cmd --x", &v,
	       &err),
	    &err);
	assert_true(v > 0);
	return v;
}

/* Adds an ok run with metrics "wall" (s, lower) = x, "ops" (1/s,
 * higher) = 10 x. */
static enum pr_status
add_ok(struct pr_store *st, int64_t sid, int64_t vid, size_t seq, double x,
    struct pr_error *err)
{
	struct pr_store_run r;
	struct pr_dataset d;
	enum pr_status rc;

	pr_dataset_init(&d);
	assert_int_equal(pr_dataset_add(&d, "wall", "s", PR_BETTER_LOWER, x,
			     NULL),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d, "ops", "1/s", PR_BETTER_HIGHER,
			     10 * x, NULL),
	    PR_OK);
	memset(&r, 0, sizeof(r));
	r.variant = vid;
	r.round = seq / 2;
	r.seq = seq;
	r.ok = 1;
	r.outcome = "ok";
	r.reason = pr_str_c("");
	r.start_s = (double)seq;
	r.metrics = &d;
	rc = pr_store_add_run(st, sid, &r, err);
	pr_dataset_release(&d);
	return rc;
}

/* ---- each_run collection ---- */

struct runlog {
	size_t n;
	size_t seq[64];
	int ok[64], warmup[64], truncated[64];
	char variant[64][32];
	size_t nm[64];
	double v0[64];
	char m0[64][16];
	size_t outlen[64];
	unsigned char out_first[64], out_last[64];
	char reason[64][64];
	size_t reasonlen[64];
	char failed_in[64][16];
	int exit_status[64], sig[64];
	int stop_at;
};

static int
collect(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct runlog *l = arg;
	size_t k = l->n++;

	if (l->stop_at >= 0 && (size_t)l->stop_at == k) {
		pr_error_set(err, PR_EINVAL, "stop here");
		return 1;
	}
	assert_true(k < 64);
	l->seq[k] = r->seq;
	l->ok[k] = r->ok;
	l->warmup[k] = r->warmup;
	l->truncated[k] = r->truncated;
	snprintf(l->variant[k], sizeof(l->variant[k]), "%.*s",
	    (int)r->variant.n, r->variant.p);
	l->nm[k] = r->nm;
	if (r->nm > 0) {
		l->v0[k] = r->metric_values[0];
		snprintf(l->m0[k], sizeof(l->m0[k]), "%s", r->metric_names[0]);
	}
	l->outlen[k] = r->output.n;
	if (r->output.n > 0) {
		l->out_first[k] = (unsigned char)r->output.p[0];
		l->out_last[k] = (unsigned char)r->output.p[r->output.n - 1];
	}
	assert_true(r->reason.n < sizeof(l->reason[k]));
	memcpy(l->reason[k], r->reason.p, r->reason.n);
	l->reasonlen[k] = r->reason.n;
	snprintf(l->failed_in[k], sizeof(l->failed_in[k]), "%s",
	    r->failed_in != NULL ? r->failed_in : "(null)");
	l->exit_status[k] = r->exit_status;
	l->sig[k] = r->signal;
	return 0;
}

static size_t
count_runs(struct pr_store *st, int64_t sid)
{
	struct runlog *l = calloc(1, sizeof(*l));
	struct pr_error err;
	size_t n;

	assert_non_null(l);
	l->stop_at = -1;
	ok(pr_store_each_run(st, sid, collect, l, &err), &err);
	n = l->n;
	free(l);
	return n;
}

/* ---- backend-agnostic tests ---- */

static void
test_roundtrip(void **state)
{
	const char *camp = uniq("round");
	struct pr_store *st = open_new(target("round"));
	struct pr_store_session_info si;
	struct pr_store_variant_info *vi;
	struct pr_store_campaign_info *ci;
	struct pr_store_variant_data vd;
	struct pr_store_session_new sn;
	struct pr_store_tag tags[2];
	struct pr_store_run r;
	struct pr_env env, back;
	struct runlog *l;
	struct pr_error err;
	int64_t sid, v1, v2;
	size_t n, i, k;
	int found;

	(void)state;
	assert_string_equal(pr_store_backend(st),
	    g_pg != NULL ? "postgresql" : "sqlite");
	pr_env_init(&env);
	ok(pr_env_add(&env, "kernel.release", "kernel", "6.1.0-13", NULL, &err),
	    &err);
	ok(pr_env_add(&env, "cpu.microcode", "cpu", NULL,
	       "unavailable: permission denied", &err),
	    &err);
	tags[0].key = pr_str_c("kernel");
	tags[0].value = pr_str_c("6.1.0-13");
	tags[1].key = pr_str_c("git");
	tags[1].value = pr_str_c("abc123");
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c(camp);
	sn.host = "hostA";
	sn.boot_id = "boot-1";
	sn.args_json = "[\"run\",\"--campaign\",\"x\"]";
	sn.started = 1700000000.25;
	sn.env = &env;
	sn.tags = tags;
	sn.ntags = 2;
	ok(pr_store_session_begin(st, &sn, &sid, &err), &err);
	v1 = variant(st, sid, "base");
	v2 = variant(st, sid, "new");
	assert_true(v1 != v2);
	/* Asking again gives the same variant. */
	assert_int_equal(variant(st, sid, "base"), v1);
	for (i = 0; i < 6; i++)
		ok(add_ok(st, sid, i % 2 ? v2 : v1, i, 1.0 + (double)i, &err),
		    &err);
	/* A warm-up and a failed run with output. */
	memset(&r, 0, sizeof(r));
	r.variant = v1;
	r.seq = 6;
	r.round = 3;
	r.warmup = 1;
	r.ok = 1;
	r.outcome = "ok";
	ok(pr_store_add_run(st, sid, &r, &err), &err);
	r.seq = 7;
	r.warmup = 0;
	r.ok = 0;
	r.outcome = "exit";
	r.exit_status = 3;
	r.reason = pr_str_c("exit status 3");
	r.failed_in = "command";
	r.output = pr_str_c("error: it's \"broken\"\n");
	ok(pr_store_add_run(st, sid, &r, &err), &err);
	ok(pr_store_session_end(st, sid, "done", 12.5, &err), &err);

	/* Campaigns. */
	ok(pr_store_campaigns(st, &ci, &n, &err), &err);
	for (k = 0; k < n; k++)
		if (ci[k].name.n == strlen(camp) &&
		    memcmp(ci[k].name.p, camp, ci[k].name.n) == 0)
			break;
	assert_true(k < n);
	assert_int_equal(ci[k].nvariants, 2);
	assert_int_equal(ci[k].nsessions, 1);
	assert_int_equal(ci[k].nboots, 1);
	assert_int_equal(ci[k].nhosts, 1);
	assert_int_equal(ci[k].nruns_ok, 6);
	assert_int_equal(ci[k].nruns_failed, 1);
	assert_true(ci[k].first == 1700000000.25);
	assert_true(ci[k].last == 1700000000.25);
	for (i = 1; i < n; i++) {
		size_t m = ci[i - 1].name.n < ci[i].name.n ? ci[i - 1].name.n
							   : ci[i].name.n;
		int c = memcmp(ci[i - 1].name.p, ci[i].name.p, m);

		assert_true(
		    c < 0 || (c == 0 && ci[i - 1].name.n < ci[i].name.n));
	}
	pr_store_campaigns_free(ci, n);

	/* The session. */
	ok(pr_store_session_get(st, sid, &si, &err), &err);
	assert_int_equal(si.id, sid);
	assert_string_equal(si.campaign.p, camp);
	assert_string_equal(si.host, "hostA");
	assert_string_equal(si.boot_id, "boot-1");
	assert_string_equal(si.args_json, sn.args_json);
	assert_string_equal(si.status, "done");
	assert_true(si.started == 1700000000.25);
	assert_true(si.elapsed_s == 12.5);
	assert_int_equal(si.resumes, 0);
	assert_int_equal(si.ntags, 2);
	assert_string_equal(si.tags[0].key.p, "kernel");
	assert_string_equal(si.tags[0].value.p, "6.1.0-13");
	assert_string_equal(si.tags[1].key.p, "git");
	pr_store_session_info_release(&si);
	/* Tags learnt after the runs (the suite's verdicts on a session):
	 * after the others, one of the same key replaced, in one call. */
	tags[0].key = pr_str_c("regressions");
	tags[0].value = pr_str_c("3");
	tags[1].key = pr_str_c("git");
	tags[1].value = pr_str_c("def456");
	ok(pr_store_session_tags(st, sid, tags, 2, &err), &err);
	tags[0].value = pr_str_c("21");
	ok(pr_store_session_tags(st, sid, tags, 1, &err), &err);
	assert_int_equal(pr_store_session_tags(st, sid + 1000, tags, 1, &err),
	    PR_ENOTFOUND);
	ok(pr_store_session_get(st, sid, &si, &err), &err);
	assert_int_equal(si.ntags, 3);
	assert_string_equal(si.tags[0].key.p, "kernel");
	assert_string_equal(si.tags[1].key.p, "git");
	assert_string_equal(si.tags[1].value.p, "def456");
	assert_string_equal(si.tags[2].key.p, "regressions");
	assert_string_equal(si.tags[2].value.p, "21");
	assert_int_equal(si.nvariants, 2);
	assert_string_equal(si.variants[0].p, "base");
	assert_string_equal(si.variants[1].p, "new");
	assert_int_equal(si.nruns_ok, 6);
	assert_int_equal(si.nruns_failed, 1);
	assert_int_equal(si.nwarmup, 1);
	pr_store_session_info_release(&si);

	/* Variants, in order of creation. */
	ok(pr_store_variants(st, pr_str_c(camp), &vi, &n, &err), &err);
	assert_int_equal(n, 2);
	assert_string_equal(vi[0].name.p, "base");
	assert_int_equal(vi[0].id, v1);
	assert_string_equal(vi[0].command, "cmd --x");
	assert_int_equal(vi[0].nsessions, 1);
	assert_int_equal(vi[0].nboots, 1);
	assert_int_equal(vi[0].nruns_ok, 3);
	assert_int_equal(vi[0].nruns_failed, 1);
	assert_string_equal(vi[1].name.p, "new");
	assert_int_equal(vi[1].nruns_ok, 3);
	pr_store_variants_free(vi, n);

	/* Values for analysis: counted ok runs only. */
	ok(pr_store_load_variant(st, pr_str_c(camp), pr_str_c("base"), &vd,
	       &err),
	    &err);
	assert_int_equal(vd.nruns, 3);
	assert_int_equal(vd.nboots, 1);
	assert_string_equal(vd.boot_ids[0], "boot-1");
	assert_int_equal(vd.boot_session[0], sid);
	assert_int_equal(vd.nm, 2);
	assert_string_equal(vd.m[0].name, "wall");
	assert_string_equal(vd.m[0].unit, "s");
	assert_int_equal(vd.m[0].better, PR_BETTER_LOWER);
	assert_string_equal(vd.m[1].name, "ops");
	assert_int_equal(vd.m[1].better, PR_BETTER_HIGHER);
	assert_int_equal(vd.m[0].n, 3);
	assert_true(vd.m[0].value[0] == 1.0);
	assert_true(vd.m[0].value[1] == 3.0);
	assert_true(vd.m[0].value[2] == 5.0);
	assert_true(vd.m[1].value[2] == 50.0);
	pr_store_variant_data_release(&vd);

	/* The environment. */
	pr_env_init(&back);
	ok(pr_store_session_env(st, sid, &back, &found, &err), &err);
	assert_int_equal(found, 1);
	assert_int_equal(back.n, 2);
	assert_string_equal(back.items[0].key, "kernel.release");
	assert_string_equal(back.items[0].value, "6.1.0-13");
	assert_null(back.items[1].value);
	assert_string_equal(back.items[1].reason,
	    "unavailable: permission denied");
	pr_env_release(&back);
	pr_env_release(&env);

	/* Every run, in seq order, every field. */
	l = calloc(1, sizeof(*l));
	assert_non_null(l);
	l->stop_at = -1;
	ok(pr_store_each_run(st, sid, collect, l, &err), &err);
	assert_int_equal(l->n, 8);
	for (i = 0; i < 6; i++) {
		assert_int_equal(l->seq[i], i);
		assert_string_equal(l->variant[i], i % 2 ? "new" : "base");
		assert_int_equal(l->nm[i], 2);
		assert_string_equal(l->m0[i], "wall");
		assert_true(l->v0[i] == 1.0 + (double)i);
		assert_string_equal(l->failed_in[i], "(null)");
	}
	assert_int_equal(l->warmup[6], 1);
	assert_int_equal(l->nm[6], 0);
	assert_int_equal(l->ok[7], 0);
	assert_int_equal(l->exit_status[7], 3);
	assert_int_equal(l->reasonlen[7], strlen("exit status 3"));
	assert_memory_equal(l->reason[7], "exit status 3", 13);
	assert_string_equal(l->failed_in[7], "command");
	assert_int_equal(l->outlen[7], strlen("error: it's \"broken\"\n"));
	/* A callback that stops the walk. */
	memset(l, 0, sizeof(*l));
	l->stop_at = 2;
	assert_int_equal(pr_store_each_run(st, sid, collect, l, &err),
	    PR_EINVAL);
	assert_string_equal(err.msg, "stop here");
	/* One variant's runs only, in seq order, every field. */
	memset(l, 0, sizeof(*l));
	l->stop_at = -1;
	ok(pr_store_each_run_of(st, sid, pr_str_c("new"), collect, l, &err),
	    &err);
	assert_int_equal(l->n, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(l->seq[i], 2 * i + 1);
		assert_string_equal(l->variant[i], "new");
		assert_int_equal(l->nm[i], 2);
		assert_true(l->v0[i] == 2.0 + 2.0 * (double)i);
	}
	memset(l, 0, sizeof(*l));
	l->stop_at = -1;
	ok(pr_store_each_run_of(st, sid, pr_str_c("base"), collect, l, &err),
	    &err);
	assert_int_equal(l->n, 5);
	assert_int_equal(l->seq[3], 6);
	assert_int_equal(l->warmup[3], 1);
	assert_int_equal(l->nm[3], 0);
	assert_int_equal(l->ok[4], 0);
	assert_int_equal(l->exit_status[4], 3);
	assert_string_equal(l->failed_in[4], "command");
	assert_int_equal(l->outlen[4], strlen("error: it's \"broken\"\n"));
	/* A variant the campaign does not have, a prefix of one: none. */
	memset(l, 0, sizeof(*l));
	l->stop_at = -1;
	ok(pr_store_each_run_of(st, sid, pr_str_c("nosuch"), collect, l, &err),
	    &err);
	ok(pr_store_each_run_of(st, sid, pr_str_c("bas"), collect, l, &err),
	    &err);
	assert_int_equal(l->n, 0);
	assert_int_equal(pr_store_each_run_of(st, sid + 100000, pr_str_c("new"),
			     collect, l, &err),
	    PR_ENOTFOUND);
	l->stop_at = 1;
	assert_int_equal(pr_store_each_run_of(st, sid, pr_str_c("base"),
			     collect, l, &err),
	    PR_EINVAL);
	assert_string_equal(err.msg, "stop here");
	free(l);
	pr_store_close(st);
}

/* A history of many figures of one variant: the same points whether the
 * query lists the campaign's sessions and variants itself or is given
 * the lists (as `suite` does for its probes), and only that variant's
 * runs counted. */
static void
test_history_lists(void **state)
{
	const char *camp = uniq("hist");
	const char *names[2] = { "ops", "wall" };
	struct pr_store *st = open_new(target("hist"));
	struct pr_store_session_new sn;
	struct pr_store_session_info *ss;
	struct pr_store_variant_info *vs;
	struct pr_history_query q;
	struct pr_history a[2], b[2];
	struct pr_error err;
	int64_t sid, v1, v2;
	size_t i, j, nss, nvs;

	(void)state;
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c(camp);
	sn.host = "h";
	sn.boot_id = "b";
	for (i = 0; i < 3; i++) {
		sn.started = 1700000000.0 + 60.0 * (double)i;
		ok(pr_store_session_begin(st, &sn, &sid, &err), &err);
		v1 = variant(st, sid, "one");
		v2 = variant(st, sid, "two");
		for (j = 0; j < 4; j++)
			ok(add_ok(st, sid, j % 2 ? v2 : v1, j,
			       (double)(i + 1) * (j % 2 ? 100.0 : 1.0) +
				   (double)j,
			       &err),
			    &err);
		ok(pr_store_session_end(st, sid, "done", 1.0, &err), &err);
	}
	pr_history_query_init(&q, pr_str_c(camp));
	q.variant = "two";
	ok(pr_history_collect_many(st, &q, names, 2, a, &err), &err);
	ok(pr_store_sessions(st, pr_str_c(camp), &ss, &nss, &err), &err);
	ok(pr_store_variants(st, pr_str_c(camp), &vs, &nvs, &err), &err);
	q.sessions = ss;
	q.nsessions = nss;
	q.variants = vs;
	q.nvariants = nvs;
	ok(pr_history_collect_many(st, &q, names, 2, b, &err), &err);
	for (j = 0; j < 2; j++) {
		assert_int_equal(a[j].n, 3);
		assert_int_equal(b[j].n, 3);
		assert_string_equal(b[j].variant, "two");
		assert_string_equal(b[j].metric, names[j]);
		for (i = 0; i < 3; i++) {
			/* Runs 1 and 3 of session i: 100 (i + 1) + 1, + 3. */
			double mean = 100.0 * (double)(i + 1) + 2.0;

			assert_int_equal(b[j].points[i].session,
			    a[j].points[i].session);
			assert_int_equal(b[j].points[i].n, 2);
			assert_true(b[j].points[i].mean == a[j].points[i].mean);
			assert_true(b[j].points[i].var == a[j].points[i].var);
			assert_true(fabs(b[j].points[i].mean -
					(j == 0 ? 10.0 * mean : mean)) < 1e-9);
		}
		pr_history_release(&a[j]);
		pr_history_release(&b[j]);
	}
	/* A variant not among the lists given: not found, as without. */
	q.variant = "three";
	assert_int_equal(pr_history_collect_many(st, &q, names, 2, b, &err),
	    PR_ENOTFOUND);
	pr_store_sessions_free(ss, nss);
	pr_store_variants_free(vs, nvs);
	pr_store_close(st);
}

static void
test_bytes(void **state)
{
	static const char camp_raw[] = "it's \"q\"\0nul\xff\xfe;--";
	static const char var_raw[] = "v\0\x80\xc3";
	static const char key_raw[] = "k'\0";
	struct pr_str camp = { camp_raw, sizeof(camp_raw) - 1 };
	struct pr_str var = { var_raw, sizeof(var_raw) - 1 };
	char uniqcamp[128];
	struct pr_store *st = open_new(target("bytes"));
	struct pr_store_session_new sn;
	struct pr_store_session_info si;
	struct pr_store_variant_info *vi;
	struct pr_store_tag tag;
	struct pr_store_run r;
	struct runlog *l;
	struct pr_error err;
	int64_t sid, vid;
	char *big;
	size_t i, n, mb = 1u << 20;

	(void)state;
	/* Unique but still full of awkward bytes. */
	memcpy(uniqcamp, camp.p, camp.n);
	n = (size_t)snprintf(uniqcamp + camp.n, sizeof(uniqcamp) - camp.n, "%s",
	    uniq(""));
	camp.p = uniqcamp;
	camp.n += n;
	tag.key.p = key_raw;
	tag.key.n = sizeof(key_raw) - 1;
	tag.value.p = "\x00\x01\xff";
	tag.value.n = 3;
	memset(&sn, 0, sizeof(sn));
	sn.campaign = camp;
	sn.host = "h";
	sn.boot_id = "b";
	sn.tags = &tag;
	sn.ntags = 1;
	ok(pr_store_session_begin(st, &sn, &sid, &err), &err);
	ok(pr_store_session_variant(st, sid, var, "a\xff\"b", &vid, &err),
	    &err);

	big = malloc(PR_STORE_OUTPUT_MAX + 100);
	assert_non_null(big);
	for (i = 0; i < PR_STORE_OUTPUT_MAX + 100; i++)
		big[i] = (char)((i * 7 + i / 251) & 0xff);
	big[0] = '\0';
	memset(&r, 0, sizeof(r));
	r.variant = vid;
	r.outcome = "exit";
	r.reason.p = "bad \xff\0byte";
	r.reason.n = 10;
	r.output.p = big;
	r.output.n = mb;
	ok(pr_store_add_run(st, sid, &r, &err), &err);
	r.seq = 1;
	r.output.n = PR_STORE_OUTPUT_MAX + 100;
	ok(pr_store_add_run(st, sid, &r, &err), &err);

	ok(pr_store_session_get(st, sid, &si, &err), &err);
	assert_int_equal(si.campaign.n, camp.n);
	assert_memory_equal(si.campaign.p, camp.p, camp.n);
	assert_int_equal(si.campaign.p[camp.n], '\0');
	assert_int_equal(si.ntags, 1);
	assert_int_equal(si.tags[0].key.n, tag.key.n);
	assert_memory_equal(si.tags[0].key.p, tag.key.p, tag.key.n);
	assert_int_equal(si.tags[0].value.n, 3);
	assert_memory_equal(si.tags[0].value.p, tag.value.p, 3);
	assert_int_equal(si.nvariants, 1);
	assert_int_equal(si.variants[0].n, var.n);
	assert_memory_equal(si.variants[0].p, var.p, var.n);
	pr_store_session_info_release(&si);

	ok(pr_store_variants(st, camp, &vi, &n, &err), &err);
	assert_int_equal(n, 1);
	assert_memory_equal(vi[0].name.p, var.p, var.n);
	assert_string_equal(vi[0].command, "a\xff\"b");
	pr_store_variants_free(vi, n);

	l = calloc(1, sizeof(*l));
	assert_non_null(l);
	l->stop_at = -1;
	ok(pr_store_each_run(st, sid, collect, l, &err), &err);
	assert_int_equal(l->n, 2);
	assert_int_equal(l->reasonlen[0], 10);
	assert_memory_equal(l->reason[0], "bad \xff\0byte", 10);
	assert_int_equal(l->outlen[0], mb);
	assert_int_equal(l->out_first[0], 0);
	assert_int_equal(l->out_last[0], (unsigned char)big[mb - 1]);
	assert_int_equal(l->truncated[0], 0);
	assert_int_equal(l->outlen[1], PR_STORE_OUTPUT_MAX);
	assert_int_equal(l->out_last[1],
	    (unsigned char)big[PR_STORE_OUTPUT_MAX - 1]);
	assert_int_equal(l->truncated[1], 1);
	/* The runs of the variant whose name holds a NUL, by every byte. */
	memset(l, 0, sizeof(*l));
	l->stop_at = -1;
	ok(pr_store_each_run_of(st, sid, var, collect, l, &err), &err);
	assert_int_equal(l->n, 2);
	assert_int_equal(l->outlen[0], mb);
	memset(l, 0, sizeof(*l));
	l->stop_at = -1;
	ok(pr_store_each_run_of(st, sid, pr_str_c("v"), collect, l, &err),
	    &err);
	assert_int_equal(l->n, 0);
	free(l);
	free(big);
	pr_store_close(st);
}

/* The full 1 MB output compares equal byte for byte. */
struct exact {
	const char *want;
	size_t n;
	int seen;
};

static int
exact_cb(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct exact *x = arg;

	(void)err;
	assert_int_equal(r->output.n, x->n);
	assert_memory_equal(r->output.p, x->want, x->n);
	assert_int_equal(r->output.p[x->n], '\0');
	x->seen++;
	return 0;
}

static void
test_output_exact(void **state)
{
	struct pr_store *st = open_new(target("exact"));
	struct pr_store_run r;
	struct pr_error err;
	struct exact x;
	int64_t sid, vid;
	char *buf;
	size_t i, n = 1u << 20;
	unsigned v = 12345;

	(void)state;
	sid = session(st, uniq("exact"), "b", 1);
	vid = variant(st, sid, "v");
	buf = malloc(n);
	assert_non_null(buf);
	for (i = 0; i < n; i++) {
		v = v * 1103515245u + 12345u;
		buf[i] = (char)(v >> 16);
	}
	memset(&r, 0, sizeof(r));
	r.variant = vid;
	r.outcome = "ok";
	r.ok = 1;
	r.output.p = buf;
	r.output.n = n;
	ok(pr_store_add_run(st, sid, &r, &err), &err);
	x.want = buf;
	x.n = n;
	x.seen = 0;
	ok(pr_store_each_run(st, sid, exact_cb, &x, &err), &err);
	assert_int_equal(x.seen, 1);
	free(buf);
	pr_store_close(st);
}

/* Runs with more metrics than one INSERT of metric rows holds (RM_ROWS,
 * 8, in store_int.h): 0, 1, 8, 9 and 19 metrics, one of them without a value
 * (skipped), inside an explicit transaction and in one of their own. */
struct many {
	size_t seen;
};

static size_t
many_count(size_t seq)
{
	static const size_t counts[] = { 0, 1, 8, 9, 19 };

	return counts[seq % 5];
}

static int
many_cb(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct many *x = arg;
	size_t n = many_count(r->seq), i, k;
	char name[32];

	(void)err;
	/* Metric 3 has no value and is not stored. */
	assert_int_equal(r->nm, n > 3 ? n - 1 : n);
	for (i = 0, k = 0; i < n; i++) {
		if (i == 3)
			continue;
		snprintf(name, sizeof(name), "m%02zu", i);
		assert_string_equal(r->metric_names[k], name);
		assert_string_equal(r->metric_units[k], i % 2 ? "s" : "B");
		assert_true(r->metric_values[k] ==
		    (double)r->seq * 100 + (double)i + 0.25);
		k++;
	}
	x->seen++;
	return 0;
}

static void
test_many_metrics(void **state)
{
	const char *camp = uniq("many");
	struct pr_store *st = open_new(target("many"));
	struct pr_store_run r;
	struct pr_dataset d;
	struct pr_error err;
	struct many x;
	int64_t sid, vid;
	size_t seq, i, n;
	char name[32];

	(void)state;
	sid = session(st, camp, "b", 1);
	vid = variant(st, sid, "v");
	for (seq = 0; seq < 10; seq++) {
		if (seq == 5)
			ok(pr_store_begin(st, &err), &err);
		n = many_count(seq);
		pr_dataset_init(&d);
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "m%02zu", i);
			ok(pr_dataset_add(&d, name, i % 2 ? "s" : "B",
			       PR_BETTER_LOWER,
			       (double)seq * 100 + (double)i + 0.25, &err),
			    &err);
		}
		if (n > 3)
			d.metrics[3].values.n = 0;
		memset(&r, 0, sizeof(r));
		r.variant = vid;
		r.seq = seq;
		r.ok = 1;
		r.outcome = "ok";
		r.metrics = &d;
		ok(pr_store_add_run(st, sid, &r, &err), &err);
		if (n > 3)
			d.metrics[3].values.n = 1;
		pr_dataset_release(&d);
	}
	ok(pr_store_commit(st, &err), &err);
	x.seen = 0;
	ok(pr_store_each_run(st, sid, many_cb, &x, &err), &err);
	assert_int_equal(x.seen, 10);
	pr_store_close(st);
}

static void
test_boots(void **state)
{
	const char *camp = uniq("boots");
	struct pr_store *st = open_new(target("boots"));
	struct pr_store_variant_data vd;
	struct pr_store_run r;
	struct pr_dataset d;
	struct pr_error err;
	int64_t s1, s2, s3, v1, v;
	size_t i;

	(void)state;
	/* Boot B first, then boot A, then boot B again (a resumed
	 * session): values come grouped by boot in order of first run. */
	s1 = session(st, camp, "B", 10);
	v1 = variant(st, s1, "v");
	ok(add_ok(st, s1, v1, 0, 1, &err), &err);
	ok(add_ok(st, s1, v1, 1, 2, &err), &err);
	s2 = session(st, camp, "A", 20);
	v = variant(st, s2, "v");
	assert_int_equal(v, v1);
	ok(add_ok(st, s2, v1, 0, 3, &err), &err);
	s3 = session(st, camp, "B", 30);
	variant(st, s3, "v");
	ok(add_ok(st, s3, v1, 0, 4, &err), &err);
	/* A run with an extra metric first seen here, placed before
	 * "wall" within its run. */
	pr_dataset_init(&d);
	ok(pr_dataset_add(&d, "extra", "", PR_BETTER_UNKNOWN, 7, &err), &err);
	ok(pr_dataset_add(&d, "wall", "s", PR_BETTER_LOWER, 5, &err), &err);
	memset(&r, 0, sizeof(r));
	r.variant = v1;
	r.seq = 1;
	r.ok = 1;
	r.outcome = "ok";
	r.metrics = &d;
	ok(pr_store_add_run(st, s2, &r, &err), &err);
	pr_dataset_release(&d);

	ok(pr_store_load_variant(st, pr_str_c(camp), pr_str_c("v"), &vd, &err),
	    &err);
	assert_int_equal(vd.nruns, 5);
	assert_int_equal(vd.nboots, 2);
	assert_string_equal(vd.boot_ids[0], "B");
	assert_string_equal(vd.boot_ids[1], "A");
	assert_int_equal(vd.boot_session[0], s1);
	assert_int_equal(vd.boot_session[1], s2);
	assert_int_equal(vd.nm, 3);
	assert_string_equal(vd.m[0].name, "wall");
	assert_string_equal(vd.m[1].name, "ops");
	assert_string_equal(vd.m[2].name, "extra");
	assert_int_equal(vd.m[2].better, PR_BETTER_UNKNOWN);
	assert_int_equal(vd.m[0].n, 5);
	/* Boot B: 1, 2, 4; boot A: 3, 5. */
	{
		static const double want[] = { 1, 2, 4, 3, 5 };
		static const size_t boot[] = { 0, 0, 0, 1, 1 };

		for (i = 0; i < 5; i++) {
			assert_true(vd.m[0].value[i] == want[i]);
			assert_int_equal(vd.m[0].boot[i], boot[i]);
		}
	}
	assert_int_equal(vd.m[2].n, 1);
	assert_int_equal(vd.m[2].boot[0], 1);
	pr_store_variant_data_release(&vd);

	/* Unknown names. */
	assert_int_equal(pr_store_load_variant(st, pr_str_c(camp),
			     pr_str_c("nope"), &vd, &err),
	    PR_ENOTFOUND);
	assert_non_null(strstr(err.msg, "no variant 'nope'"));
	assert_int_equal(pr_store_load_variant(st, pr_str_c(uniq("none")),
			     pr_str_c("v"), &vd, &err),
	    PR_ENOTFOUND);
	assert_non_null(strstr(err.msg, "no campaign"));
	pr_store_close(st);
}

static void
test_sessions_and_resume(void **state)
{
	const char *camp = uniq("resume");
	struct pr_store *st = open_new(target("resume"));
	struct pr_store_session_info *ss, si;
	struct pr_store_session_new sn;
	struct pr_error err;
	int64_t s1, s2, s3;
	size_t n;

	(void)state;
	s1 = session(st, camp, "b1", 100);
	ok(pr_store_session_end(st, s1, "done", 1, &err), &err);
	assert_int_equal(pr_store_find_unfinished(st, pr_str_c(camp),
			     "testhost", &si, &err),
	    PR_ENOTFOUND);
	s2 = session(st, camp, "b1", 200);
	ok(pr_store_session_end(st, s2, "interrupted", 1, &err), &err);
	ok(pr_store_find_unfinished(st, pr_str_c(camp), "testhost", &si, &err),
	    &err);
	assert_int_equal(si.id, s2);
	assert_string_equal(si.status, "interrupted");
	pr_store_session_info_release(&si);
	/* Another host's sessions are not ours to resume. */
	assert_int_equal(pr_store_find_unfinished(st, pr_str_c(camp),
			     "otherhost", &si, &err),
	    PR_ENOTFOUND);
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c(camp);
	sn.host = "testhost";
	sn.boot_id = "b2";
	sn.started = 300;
	sn.resumes = s2;
	ok(pr_store_session_begin(st, &sn, &s3, &err), &err);
	/* s2 is resumed now; s3 itself is running. */
	ok(pr_store_find_unfinished(st, pr_str_c(camp), "testhost", &si, &err),
	    &err);
	assert_int_equal(si.id, s3);
	assert_int_equal(si.resumes, s2);
	pr_store_session_info_release(&si);
	ok(pr_store_session_end(st, s3, "done", 2, &err), &err);
	assert_int_equal(pr_store_find_unfinished(st, pr_str_c(camp),
			     "testhost", &si, &err),
	    PR_ENOTFOUND);

	ok(pr_store_sessions(st, pr_str_c(camp), &ss, &n, &err), &err);
	assert_int_equal(n, 3);
	assert_int_equal(ss[0].id, s1);
	assert_int_equal(ss[1].id, s2);
	assert_int_equal(ss[2].id, s3);
	assert_string_equal(ss[2].boot_id, "b2");
	assert_null(ss[0].args_json);
	pr_store_sessions_free(ss, n);
	ok(pr_store_sessions(st, (struct pr_str){ NULL, 0 }, &ss, &n, &err),
	    &err);
	assert_true(n >= 3);
	pr_store_sessions_free(ss, n);

	assert_int_equal(pr_store_sessions(st, pr_str_c(uniq("none")), &ss, &n,
			     &err),
	    PR_ENOTFOUND);
	assert_int_equal(pr_store_session_get(st, 999999999, &si, &err),
	    PR_ENOTFOUND);
	assert_int_equal(pr_store_session_end(st, 999999999, "done", 1, &err),
	    PR_ENOTFOUND);
	assert_int_equal(pr_store_session_variant(st, 999999999, pr_str_c("v"),
			     "c", &s1, &err),
	    PR_ENOTFOUND);
	pr_store_close(st);
}

static void
test_transactions(void **state)
{
	const char *camp = uniq("tx");
	struct pr_store *st = open_new(target("tx"));
	struct pr_store_run r;
	struct pr_dataset d;
	struct pr_error err;
	int64_t sid, vid;

	(void)state;
	sid = session(st, camp, "b", 1);
	vid = variant(st, sid, "v");
	/* Rolled back: nothing stays. */
	ok(pr_store_begin(st, &err), &err);
	ok(add_ok(st, sid, vid, 0, 1, &err), &err);
	ok(add_ok(st, sid, vid, 1, 1, &err), &err);
	pr_store_rollback(st);
	assert_int_equal(count_runs(st, sid), 0);
	/* Committed: both stay. */
	ok(pr_store_begin(st, &err), &err);
	assert_int_equal(pr_store_begin(st, &err), PR_EINVAL);
	ok(add_ok(st, sid, vid, 0, 1, &err), &err);
	ok(add_ok(st, sid, vid, 1, 1, &err), &err);
	ok(pr_store_commit(st, &err), &err);
	assert_int_equal(count_runs(st, sid), 2);
	assert_int_equal(pr_store_commit(st, &err), PR_EINVAL);

	/* A run that fails half-way leaves nothing: its metric has two
	 * values, found after the run row was inserted. */
	pr_dataset_init(&d);
	ok(pr_dataset_add(&d, "wall", "s", PR_BETTER_LOWER, 1, &err), &err);
	ok(pr_dataset_add(&d, "twice", "s", PR_BETTER_LOWER, 1, &err), &err);
	ok(pr_dataset_add(&d, "twice", "s", PR_BETTER_LOWER, 2, &err), &err);
	memset(&r, 0, sizeof(r));
	r.variant = vid;
	r.seq = 2;
	r.ok = 1;
	r.outcome = "ok";
	r.metrics = &d;
	assert_int_equal(pr_store_add_run(st, sid, &r, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "'twice' has 2 values"));
	assert_int_equal(count_runs(st, sid), 2);
	/* Inside an explicit transaction the failure dooms it. */
	ok(pr_store_begin(st, &err), &err);
	ok(add_ok(st, sid, vid, 3, 1, &err), &err);
	assert_int_equal(pr_store_add_run(st, sid, &r, &err), PR_EINVAL);
	assert_int_equal(add_ok(st, sid, vid, 4, 1, &err), PR_EINVAL);
	assert_int_equal(pr_store_commit(st, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "rolled back"));
	assert_int_equal(count_runs(st, sid), 2);
	pr_dataset_release(&d);
	/* A variant that does not exist: the foreign key refuses it
	 * (PR_EINVAL on SQLite; PostgreSQL's driver says PR_EIO). */
	assert_int_not_equal(add_ok(st, sid, 999999999, 5, 1, &err), PR_OK);
	assert_non_null(strstr(err.msg, "FOREIGN KEY") != NULL
		? err.msg
		: strstr(err.msg, "foreign key"));
	assert_int_equal(count_runs(st, sid), 2);
	/* Still usable afterwards, and the metric cache survived the
	 * rollbacks correctly. */
	ok(add_ok(st, sid, vid, 6, 1, &err), &err);
	assert_int_equal(count_runs(st, sid), 3);
	pr_store_close(st);
}

/* A session whose --primary names (schema 3) and runs whose result flags
 * (PR_METRIC_RESULT) are stored: read back by session, by variant (the
 * names of all its sessions, each once, in order) and by run. */
struct flaglog {
	size_t n;
	unsigned wall[8], ops[8];
};

static int
collect_flags(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct flaglog *l = arg;
	size_t i;

	(void)err;
	assert_true(l->n < 8);
	assert_non_null(r->metric_flags);
	for (i = 0; i < r->nm; i++) {
		if (strcmp(r->metric_names[i], "wall") == 0)
			l->wall[l->n] = r->metric_flags[i];
		if (strcmp(r->metric_names[i], "ops") == 0)
			l->ops[l->n] = r->metric_flags[i];
	}
	l->n++;
	return 0;
}

static void
add_flagged(struct pr_store *st, int64_t sid, int64_t vid, size_t seq,
    unsigned ops_flags)
{
	struct pr_store_run r;
	struct pr_dataset d;
	struct pr_metric *m;
	struct pr_error err;

	pr_dataset_init(&d);
	ok(pr_dataset_add(&d, "wall", "s", PR_BETTER_LOWER, 1.0 + (double)seq,
	       &err),
	    &err);
	ok(pr_dataset_add(&d, "ops", "1/s", PR_BETTER_HIGHER, 5.0, &err), &err);
	m = pr_dataset_find(&d, "ops");
	assert_non_null(m);
	m->flags = ops_flags;
	memset(&r, 0, sizeof(r));
	r.variant = vid;
	r.seq = seq;
	r.ok = 1;
	r.outcome = "ok";
	r.reason = pr_str_c("");
	r.metrics = &d;
	ok(pr_store_add_run(st, sid, &r, &err), &err);
	pr_dataset_release(&d);
}

static void
test_primary_flags(void **state)
{
	static const char *const p1[] = { "ops", "nosuch" };
	static const char *const p2[] = { "wall", "ops" };
	static const char *const empty[] = { "" };
	const char *camp = uniq("primary");
	struct pr_store *st = open_new(target("primary"));
	struct pr_store_session_new sn;
	struct pr_store_session_info si, *ss = NULL;
	struct pr_store_variant_data vd;
	struct flaglog l;
	struct pr_error err;
	int64_t s1, s2, s3, v;
	size_t i;

	(void)state;
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c(camp);
	sn.host = "testhost";
	sn.boot_id = "b1";
	sn.started = 1;
	sn.primary = p1;
	sn.nprimary = 2;
	ok(pr_store_session_begin(st, &sn, &s1, &err), &err);
	v = variant(st, s1, "base");
	add_flagged(st, s1, v, 0, PR_METRIC_RESULT);
	add_flagged(st, s1, v, 1, 0);
	sn.boot_id = "b2";
	sn.started = 2;
	sn.primary = p2;
	ok(pr_store_session_begin(st, &sn, &s2, &err), &err);
	assert_int_equal(variant(st, s2, "base"), v);
	add_flagged(st, s2, v, 0, 0);
	/* A session without --primary stores none. */
	s3 = session(st, camp, "b3", 3);

	memset(&si, 0, sizeof(si));
	ok(pr_store_session_get(st, s1, &si, &err), &err);
	assert_int_equal(si.nprimary, 2);
	assert_string_equal(si.primary[0], "ops");
	assert_string_equal(si.primary[1], "nosuch");
	pr_store_session_info_release(&si);
	ok(pr_store_session_get(st, s3, &si, &err), &err);
	assert_int_equal(si.nprimary, 0);
	assert_null(si.primary);
	pr_store_session_info_release(&si);

	ok(pr_store_load_variant(st, pr_str_c(camp), pr_str_c("base"), &vd,
	       &err),
	    &err);
	assert_int_equal(vd.nprimary, 3);
	assert_string_equal(vd.primary[0], "ops");
	assert_string_equal(vd.primary[1], "nosuch");
	assert_string_equal(vd.primary[2], "wall");
	assert_int_equal(vd.nm, 2);
	for (i = 0; i < vd.nm; i++)
		assert_int_equal(vd.m[i].flags,
		    strcmp(vd.m[i].name, "ops") == 0 ? PR_METRIC_RESULT : 0);
	pr_store_variant_data_release(&vd);

	memset(&l, 0, sizeof(l));
	ok(pr_store_each_run(st, s1, collect_flags, &l, &err), &err);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.ops[0], PR_METRIC_RESULT);
	assert_int_equal(l.ops[1], 0);
	assert_int_equal(l.wall[0], 0);

	/* An empty name is refused, and nothing of that session stays. */
	sn.boot_id = "b4";
	sn.primary = empty;
	sn.nprimary = 1;
	pr_error_clear(&err);
	assert_int_equal(pr_store_session_begin(st, &sn, &s3, &err), PR_EINVAL);
	assert_string_equal(err.msg, "empty primary metric name");
	ok(pr_store_sessions(st, pr_str_c(camp), &ss, &i, &err), &err);
	assert_int_equal(i, 3);
	pr_store_sessions_free(ss, i);
	pr_store_close(st);
}

static void
test_metric_direction(void **state)
{
	const char *camp = uniq("dir");
	const char *t = target("dir");
	struct pr_store *st = open_new(t);
	struct pr_store_variant_data vd;
	struct pr_store_run r;
	struct pr_dataset d;
	struct pr_error err;
	int64_t sid, vid;
	char mname[64];

	(void)state;
	snprintf(mname, sizeof(mname), "m-%s", camp);
	sid = session(st, camp, "b", 1);
	vid = variant(st, sid, "v");
	memset(&r, 0, sizeof(r));
	r.variant = vid;
	r.ok = 1;
	r.outcome = "ok";
	r.metrics = &d;
	/* First without a direction, then with one: the direction is
	 * recorded. */
	pr_dataset_init(&d);
	ok(pr_dataset_add(&d, mname, "ms", PR_BETTER_UNKNOWN, 1, &err), &err);
	ok(pr_store_add_run(st, sid, &r, &err), &err);
	pr_dataset_release(&d);
	pr_dataset_init(&d);
	ok(pr_dataset_add(&d, mname, "ms", PR_BETTER_HIGHER, 2, &err), &err);
	r.seq = 1;
	ok(pr_store_add_run(st, sid, &r, &err), &err);
	pr_dataset_release(&d);
	pr_store_close(st);
	ok(pr_store_open(t, PR_STORE_READ, &st, &err), &err);
	ok(pr_store_load_variant(st, pr_str_c(camp), pr_str_c("v"), &vd, &err),
	    &err);
	assert_int_equal(vd.nm, 1);
	assert_int_equal(vd.m[0].better, PR_BETTER_HIGHER);
	assert_int_equal(vd.m[0].n, 2);
	pr_store_variant_data_release(&vd);
	pr_store_close(st);
}

/* A run of test_racing_writers: its "wall" is 100 * its session's start
 * + its seq, so that a metric row given to another run shows. */
static int
race_cb(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	const double *started = arg;

	(void)err;
	assert_int_equal(r->nm, 2);
	assert_string_equal(r->metric_names[0], "wall");
	assert_true(r->metric_values[0] == *started * 100 + (double)r->seq);
	assert_true(r->metric_values[1] == 10 * r->metric_values[0]);
	return 0;
}

/* Two processes create the same campaign, host, variant and metrics at
 * once, many times: one row each, every run kept.  Each session also
 * writes runs in a transaction of its own (pr_store_begin: on PostgreSQL
 * with run ids reserved in blocks), which both writers do at once. */
static void
test_racing_writers(void **state)
{
	const char *camp = uniq("race");
	char t[512];
	struct pr_store *st;
	struct pr_store_variant_info *vi;
	struct pr_store_campaign_info *ci;
	struct pr_error err;
	struct pr_store_session_info *si;
	pid_t pid[2];
	size_t n, k, i;
	int status, c;

	(void)state;
	snprintf(t, sizeof(t), "%s", target("race"));
	st = open_new(t);
	pr_store_close(st);
	for (c = 0; c < 2; c++) {
		pid[c] = fork();
		assert_true(pid[c] >= 0);
		if (pid[c] == 0) {
			int64_t sid, vid;
			int j, q;

			if (pr_store_open(t, PR_STORE_WRITE, &st, &err))
				_exit(10);
			for (j = 0; j < 20; j++) {
				struct pr_store_session_new sn;

				memset(&sn, 0, sizeof(sn));
				sn.campaign = pr_str_c(camp);
				sn.host = c ? "h1" : "h2";
				sn.boot_id = "b";
				sn.started = j;
				if (pr_store_session_begin(st, &sn, &sid,
					&err) ||
				    pr_store_session_variant(st, sid,
					pr_str_c("v"), "c", &vid, &err) ||
				    add_ok(st, sid, vid, 0, j * 100, &err))
					_exit(11);
				if (pr_store_begin(st, &err))
					_exit(12);
				for (q = 1; q < 8; q++)
					if (add_ok(st, sid, vid, (size_t)q,
						j * 100 + q, &err))
						_exit(13);
				if (pr_store_commit(st, &err))
					_exit(14);
			}
			pr_store_close(st);
			_exit(0);
		}
	}
	for (c = 0; c < 2; c++) {
		assert_int_equal(waitpid(pid[c], &status, 0), pid[c]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	ok(pr_store_open(t, PR_STORE_READ, &st, &err), &err);
	ok(pr_store_campaigns(st, &ci, &n, &err), &err);
	for (k = 0, i = 0; i < n; i++)
		if (strcmp(ci[i].name.p, camp) == 0) {
			k++;
			assert_int_equal(ci[i].nsessions, 40);
			assert_int_equal(ci[i].nhosts, 2);
			assert_int_equal(ci[i].nruns_ok, 320);
		}
	assert_int_equal(k, 1);
	pr_store_campaigns_free(ci, n);
	ok(pr_store_variants(st, pr_str_c(camp), &vi, &n, &err), &err);
	assert_int_equal(n, 1);
	assert_int_equal(vi[0].nruns_ok, 320);
	pr_store_variants_free(vi, n);
	ok(pr_store_sessions(st, pr_str_c(camp), &si, &n, &err), &err);
	assert_int_equal(n, 40);
	for (i = 0; i < n; i++) {
		assert_int_equal(si[i].nruns_ok, 8);
		ok(pr_store_each_run(st, si[i].id, race_cb, &si[i].started,
		       &err),
		    &err);
	}
	pr_store_sessions_free(si, n);
	pr_store_close(st);
}

/* The target a store names drops the password (PostgreSQL only). */
static void
test_target_redacted(void **state)
{
	struct pr_store *st;
	struct pr_error err;
	char t[600];

	(void)state;
	/* A URI gets the password as user:password@. */
	if (strstr(g_pg, "://") != NULL || strstr(g_pg, "@") != NULL ||
	    strstr(g_pg, "password") != NULL) {
		skip();
		return;
	}
	snprintf(t, sizeof(t), "%s password=sekret", g_pg);
	ok(pr_store_open(t, PR_STORE_WRITE, &st, &err), &err);
	assert_null(strstr(pr_store_target(st), "sekret"));
	assert_non_null(strstr(pr_store_target(st), "dbname="));
	pr_store_close(st);
}

/* ---- SQLite: opening, faults ---- */

static int
sql_exec(const char *path, const char *sql)
{
	sqlite3 *db;
	int rc;

	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

/* The integer an SQL query gives, or -1. */
static long
sql_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	long v = -1;

	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			v = (long)sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	return v;
}

/* PRAGMA integrity_check through the sqlite3 API: 1 when "ok". */
static int
integrity_ok(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	int good = 0;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK)
		return 0;
	if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL) ==
	    SQLITE_OK) {
		good = sqlite3_step(s) == SQLITE_ROW &&
		    strcmp((const char *)sqlite3_column_text(s, 0), "ok") ==
			0 &&
		    sqlite3_step(s) == SQLITE_DONE;
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	return good;
}

static void
test_open_modes(void **state)
{
	struct pr_store *st;
	struct pr_error err;
	struct stat sb;
	char path[600], dir[512];
	char *def;
	sqlite3 *db;
	sqlite3_stmt *s;

	(void)state;
	/* CREATE makes the missing directories, mode 0700. */
	snprintf(dir, sizeof(dir), "%s/new/sub", g_dir);
	snprintf(path, sizeof(path), "%s/perfreg.db", dir);
	assert_int_equal(pr_store_open(path, PR_STORE_WRITE, &st, &err),
	    PR_ENOTFOUND);
	assert_string_equal(err.file, path);
	assert_int_equal(pr_store_open(path, PR_STORE_READ, &st, &err),
	    PR_ENOTFOUND);
	ok(pr_store_open(path, PR_STORE_CREATE, &st, &err), &err);
	assert_string_equal(pr_store_target(st), path);
	pr_store_close(st);
	assert_int_equal(stat(dir, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	/* WAL, the application id and the meta rows are there. */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(
	    sqlite3_prepare_v2(db,
		"SELECT "
		"(SELECT journal_mode FROM pragma_journal_mode), "
		"(SELECT application_id FROM pragma_application_id), "
		"(SELECT value FROM meta WHERE key = 'application'), "
		"(SELECT max(version) FROM schema_version)",
		-1, &s, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_string_equal(sqlite3_column_text(s, 0), "wal");
	assert_int_equal(sqlite3_column_int(s, 1), 0x50524547);
	assert_string_equal(sqlite3_column_text(s, 2), "perfreg");
	assert_int_equal(sqlite3_column_int(s, 3), PR_STORE_SCHEMA_VERSION);
	sqlite3_finalize(s);
	/* Names that are text are stored as TEXT, so that sqlite3 users
	 * find them with a plain string. */
	sqlite3_close(db);
	ok(pr_store_open(path, PR_STORE_WRITE, &st, &err), &err);
	session(st, "plain", "b", 1);
	pr_store_close(st);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
			     "SELECT count(*) FROM "
			     "campaign WHERE name = 'plain'",
			     -1, &s, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(s, 0), 1);
	sqlite3_finalize(s);
	sqlite3_close(db);

	/* The default target, from the values the caller passes; the
	 * library reads no environment variable (an unset PERFREG_DB in the
	 * environment must not matter). */
	setenv("PERFREG_DB", "/from/the/environment.db", 1);
	ok(pr_store_default_target("/x/y.db", "/data", "/home/u", &def, &err),
	    &err);
	assert_string_equal(def, "/x/y.db");
	free(def);
	ok(pr_store_default_target("", "/data", "/home/u", &def, &err), &err);
	assert_string_equal(def, "/data/perfreg/perfreg.db");
	free(def);
	ok(pr_store_default_target(NULL, NULL, "/home/u", &def, &err), &err);
	assert_string_equal(def, "/home/u/.local/share/perfreg/perfreg.db");
	free(def);
	assert_int_equal(pr_store_default_target(NULL, "", NULL, &def, &err),
	    PR_ENOTFOUND);
	unsetenv("PERFREG_DB");
}

/* A database of schema 2 (tests/store/data/schema-v2.sql, written by the
 * perfreg before schema 3) is brought to the current schema when it is
 * opened: its runs read as before, without result flags or stored
 * primaries, and new sessions store both. */
static void
test_migrate_v2(void **state)
{
	static const char *const prim[] = { "ops" };
	struct pr_store *st;
	struct pr_store_variant_data vd;
	struct pr_store_session_new sn;
	struct pr_error err;
	char path[512], *sql;
	int64_t sid, v;
	size_t i, len;
	FILE *f;

	(void)state;
	f = fopen("tests/store/data/schema-v2.sql", "rb");
	assert_non_null(f);
	sql = calloc(1, 1 << 16);
	assert_non_null(sql);
	len = fread(sql, 1, (1 << 16) - 1, f);
	fclose(f);
	assert_true(len > 0 && len < (1 << 16) - 1);
	snprintf(path, sizeof(path), "%s/v2.db", g_dir);
	assert_int_equal(sql_exec(path, sql), SQLITE_OK);
	free(sql);
	assert_int_equal(sql_int(path,
			     "SELECT max(version) FROM "
			     "schema_version"),
	    2);
	/* A reading open migrates too (through a writing connection). */
	ok(pr_store_open(path, PR_STORE_READ, &st, &err), &err);
	assert_int_equal(sql_int(path,
			     "SELECT max(version) FROM "
			     "schema_version"),
	    PR_STORE_SCHEMA_VERSION);
	ok(pr_store_load_variant(st, pr_str_c("old"), pr_str_c("base"), &vd,
	       &err),
	    &err);
	assert_int_equal(vd.nruns, 3);
	assert_int_equal(vd.nprimary, 0);
	assert_int_equal(vd.nm, 7);
	for (i = 0; i < vd.nm; i++) {
		assert_int_equal(vd.m[i].flags, 0);
		assert_int_equal(vd.m[i].n, 3);
	}
	assert_string_equal(vd.m[6].name, "ops");
	assert_true(vd.m[6].value[0] == 100);
	pr_store_variant_data_release(&vd);
	pr_store_close(st);
	assert_int_equal(sql_int(path,
			     "SELECT count(*) FROM run_metric "
			     "WHERE flags <> 0"),
	    0);

	/* New sessions in the migrated database keep their primaries and
	 * flags. */
	ok(pr_store_open(path, PR_STORE_WRITE, &st, &err), &err);
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c("old");
	sn.host = "bench1";
	sn.boot_id = "boot-2";
	sn.started = 2e9;
	sn.primary = prim;
	sn.nprimary = 1;
	ok(pr_store_session_begin(st, &sn, &sid, &err), &err);
	v = variant(st, sid, "base");
	add_flagged(st, sid, v, 0, PR_METRIC_RESULT);
	ok(pr_store_load_variant(st, pr_str_c("old"), pr_str_c("base"), &vd,
	       &err),
	    &err);
	assert_int_equal(vd.nruns, 4);
	assert_int_equal(vd.nprimary, 1);
	assert_string_equal(vd.primary[0], "ops");
	for (i = 0; i < vd.nm; i++)
		if (strcmp(vd.m[i].name, "ops") == 0)
			assert_int_equal(vd.m[i].flags, PR_METRIC_RESULT);
	pr_store_variant_data_release(&vd);
	pr_store_close(st);
}

static void
test_driver_for(void **state)
{
	(void)state;
	assert_ptr_equal(pr_db_driver_for("postgresql://u@h/db"), &pr_db_pg);
	assert_ptr_equal(pr_db_driver_for("postgres://h/db"), &pr_db_pg);
	assert_ptr_equal(pr_db_driver_for("host=/tmp dbname=x"), &pr_db_pg);
	assert_ptr_equal(pr_db_driver_for("dbname=x"), &pr_db_pg);
	assert_ptr_equal(pr_db_driver_for("/var/lib/perfreg.db"),
	    &pr_db_sqlite);
	assert_ptr_equal(pr_db_driver_for("results.db"), &pr_db_sqlite);
	assert_int_equal(pr_store_utf8_text("abc\xc3\xa9", 5), 1);
	assert_int_equal(pr_store_utf8_text("a\0b", 3), 0);
	assert_int_equal(pr_store_utf8_text("\xff", 1), 0);
	assert_int_equal(pr_store_utf8_text("\xc0\xaf", 2), 0);
	assert_int_equal(pr_store_utf8_text("\xed\xa0\x80", 3), 0);
	assert_int_equal(pr_store_utf8_text("\xf4\x90\x80\x80", 4), 0);
	assert_int_equal(pr_store_utf8_text("\xf0\x9f\x98\x80", 4), 1);
	assert_int_equal(pr_store_utf8_text("\xe2\x82", 2), 0);
}

static void
test_foreign_corrupt_newer(void **state)
{
	struct pr_store *st;
	struct pr_error err;
	char path[512];
	FILE *f;
	int i;

	(void)state;
	/* Junk. */
	snprintf(path, sizeof(path), "%s/junk.db", g_dir);
	f = fopen(path, "w");
	assert_non_null(f);
	for (i = 0; i < 2000; i++)
		fputs("this is not a database ", f);
	fclose(f);
	assert_int_equal(pr_store_open(path, PR_STORE_CREATE, &st, &err),
	    PR_EPARSE);
	assert_string_equal(err.file, path);
	assert_non_null(strstr(err.msg, "not a database"));
	assert_int_equal(pr_store_open(path, PR_STORE_READ, &st, &err),
	    PR_EPARSE);

	/* Another program's SQLite database. */
	snprintf(path, sizeof(path), "%s/foreign.db", g_dir);
	assert_int_equal(sql_exec(path,
			     "CREATE TABLE t (x); "
			     "INSERT INTO t VALUES (1);"),
	    SQLITE_OK);
	assert_int_equal(pr_store_open(path, PR_STORE_CREATE, &st, &err),
	    PR_EPARSE);
	assert_string_equal(err.file, path);
	assert_string_equal(err.msg,
	    "not a perfreg database (it holds other tables)");
	/* It was left alone. */
	assert_int_equal(sql_exec(path, "SELECT x FROM t"), SQLITE_OK);
	assert_int_equal(sql_exec(path, "SELECT * FROM meta"), SQLITE_ERROR);

	/* An empty file is made a database by CREATE, refused otherwise. */
	snprintf(path, sizeof(path), "%s/empty.db", g_dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(pr_store_open(path, PR_STORE_READ, &st, &err),
	    PR_EPARSE);
	assert_non_null(strstr(err.msg, "not a perfreg database"));
	assert_int_equal(pr_store_open(path, PR_STORE_WRITE, &st, &err),
	    PR_EPARSE);
	ok(pr_store_open(path, PR_STORE_CREATE, &st, &err), &err);
	pr_store_close(st);

	/* A newer schema. */
	snprintf(path, sizeof(path), "%s/newer.db", g_dir);
	st = open_new(path);
	pr_store_close(st);
	assert_int_equal(sql_exec(path,
			     "INSERT INTO schema_version "
			     "VALUES (99, 0, 'x')"),
	    SQLITE_OK);
	assert_int_equal(pr_store_open(path, PR_STORE_WRITE, &st, &err),
	    PR_EINVAL);
	assert_string_equal(err.file, path);
	assert_string_equal(err.msg,
	    "made by a newer perfreg (schema 99, this one knows 3)");
	assert_int_equal(pr_store_open(path, PR_STORE_READ, &st, &err),
	    PR_EINVAL);

	/* A real database truncated to its first page. */
	snprintf(path, sizeof(path), "%s/trunc.db", g_dir);
	st = open_new(path);
	session(st, "c", "b", 1);
	pr_store_close(st);
	assert_int_equal(truncate(path, 4096), 0);
	assert_int_equal(pr_store_open(path, PR_STORE_WRITE, &st, &err),
	    PR_EPARSE);
	assert_string_equal(err.file, path);
	assert_non_null(strstr(err.msg, "corrupt"));
}

/* Three processes create one new database at once: it is created once
 * (one schema_version row) and each writes its session. */
static void
test_create_race(void **state)
{
	struct pr_store *st;
	struct pr_store_session_info *ss;
	struct pr_error err;
	char path[512];
	pid_t pid[3];
	size_t n;
	int c, status;

	(void)state;
	snprintf(path, sizeof(path), "%s/race/new.db", g_dir);
	for (c = 0; c < 3; c++) {
		pid[c] = fork();
		assert_true(pid[c] >= 0);
		if (pid[c] == 0) {
			struct pr_store_session_new sn;
			int64_t id;

			if (pr_store_open(path, PR_STORE_CREATE, &st, &err))
				_exit(10);
			memset(&sn, 0, sizeof(sn));
			sn.campaign = pr_str_c("c");
			sn.host = "h";
			sn.boot_id = "b";
			sn.started = c;
			if (pr_store_session_begin(st, &sn, &id, &err))
				_exit(11);
			pr_store_close(st);
			_exit(0);
		}
	}
	for (c = 0; c < 3; c++) {
		assert_int_equal(waitpid(pid[c], &status, 0), pid[c]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	ok(pr_store_open(path, PR_STORE_READ, &st, &err), &err);
	ok(pr_store_sessions(st, pr_str_c("c"), &ss, &n, &err), &err);
	assert_int_equal(n, 3);
	pr_store_sessions_free(ss, n);
	pr_store_close(st);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM schema_version"),
	    PR_STORE_SCHEMA_VERSION);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM campaign"), 1);
	assert_true(integrity_ok(path));
}

/*
 * A creator that finds another connection holding the write lock on the
 * still empty file waits for it, as it waits for any writer: SQLite does
 * not call the busy handler when the switch to WAL upgrades its read of
 * the header to a write, so the open must retry that switch itself (a
 * race test_create_race lost about once in 100 runs under load).
 */
static void
test_create_behind_writer(void **state)
{
	struct pr_store_opts o;
	struct pr_store *st;
	struct pr_error err;
	char path[512], c;
	int fd[2], status;
	pid_t pid;

	(void)state;
	snprintf(path, sizeof(path), "%s/behind.db", g_dir);
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static const struct timespec hold = { 0, 300000000 };
		sqlite3 *db;

		close(fd[0]);
		if (sqlite3_open(path, &db) != SQLITE_OK ||
		    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
			SQLITE_OK)
			_exit(10);
		if (write(fd[1], "x", 1) != 1)
			_exit(11);
		nanosleep(&hold, NULL);
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close(db);
		_exit(0);
	}
	close(fd[1]);
	assert_int_equal(read(fd[0], &c, 1), 1);
	close(fd[0]);
	pr_store_opts_init(&o);
	o.busy_ms = 20000;
	ok(pr_store_open_opts(path, PR_STORE_CREATE, &o, &st, &err), &err);
	pr_store_close(st);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM schema_version"),
	    PR_STORE_SCHEMA_VERSION);
	assert_true(integrity_ok(path));
}

/* Opens a file the caller cannot write: 0 when refused clearly. */
static int
ro_open(const char *path)
{
	struct pr_store *st;
	struct pr_error err;

	if (pr_store_open(path, PR_STORE_WRITE, &st, &err) != PR_EIO) {
		pr_store_close(st);
		return 1;
	}
	if (strcmp(err.file, path) != 0)
		return 2;
	if (strcmp(err.msg,
		"database is read-only (no permission to "
		"write the file)") != 0)
		return 3;
	/* Reading it still works. */
	if (pr_store_open(path, PR_STORE_READ, &st, &err) != PR_OK)
		return 4;
	pr_store_close(st);
	return 0;
}

static void
test_read_only(void **state)
{
	struct pr_store *st;
	struct pr_store_session_new sn;
	struct pr_error err;
	char path[512];
	int64_t id;

	(void)state;
	snprintf(path, sizeof(path), "%s/ro.db", g_dir);
	st = open_new(path);
	pr_store_close(st);
	/* PR_STORE_READ refuses to write, with a clear error. */
	ok(pr_store_open(path, PR_STORE_READ, &st, &err), &err);
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c("c");
	sn.host = "h";
	sn.boot_id = "b";
	assert_int_equal(pr_store_session_begin(st, &sn, &id, &err), PR_EIO);
	assert_string_equal(err.file, path);
	assert_non_null(strstr(err.msg, "read-only"));
	assert_int_equal(pr_store_begin(st, &err), PR_EIO);
	pr_store_close(st);

	/* A file without write permission.  chmod does not stop root, so
	 * root checks it as "nobody" in a child. */
	assert_int_equal(chmod(path, 0444), 0);
	if (geteuid() != 0) {
		assert_int_equal(ro_open(path), 0);
	} else {
		pid_t pid;
		int status;

		assert_int_equal(chmod(g_dir, 0711), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			if (setgid(65534) != 0 || setuid(65534) != 0)
				_exit(20);
			_exit(ro_open(path));
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
		assert_int_equal(chmod(g_dir, 0700), 0);
	}
	assert_int_equal(chmod(path, 0644), 0);
}

static void
test_locked(void **state)
{
	struct pr_store_opts o;
	struct pr_store *st, *st2 = NULL;
	struct pr_store_campaign_info *ci;
	struct pr_error err;
	char path[512];
	sqlite3 *db;
	int64_t sid, vid;
	size_t n;

	(void)state;
	snprintf(path, sizeof(path), "%s/locked.db", g_dir);
	st = open_new(path);
	sid = session(st, "c", "b", 1);
	vid = variant(st, sid, "v");
	pr_store_close(st);

	/* The busy timeout comes from the options, never from the
	 * environment. */
	setenv("PERFREG_DB_BUSY_MS", "60000", 1);
	pr_store_opts_init(&o);
	o.busy_ms = 100;
	ok(pr_store_open_opts(path, PR_STORE_WRITE, &o, &st, &err), &err);
	/* Another connection holds the write lock. */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(add_ok(st, sid, vid, 0, 1, &err), PR_EIO);
	assert_string_equal(err.file, path);
	assert_string_equal(err.msg,
	    "database is locked by another writer (waited 100 ms)");
	{
		struct pr_store_session_new sn;
		int64_t id;

		memset(&sn, 0, sizeof(sn));
		sn.campaign = pr_str_c("other");
		sn.host = "h";
		sn.boot_id = "b";
		assert_int_equal(pr_store_session_begin(st, &sn, &id, &err),
		    PR_EIO);
		assert_non_null(strstr(err.msg, "locked"));
	}
	/* pr_store_set_busy changes the wait from then on (what the suite
	 * does before storing a long measurement); a negative one keeps
	 * it. */
	pr_store_set_busy(st, 30);
	assert_int_equal(add_ok(st, sid, vid, 0, 1, &err), PR_EIO);
	assert_string_equal(err.msg,
	    "database is locked by another writer (waited 30 ms)");
	pr_store_set_busy(st, -5);
	assert_int_equal(add_ok(st, sid, vid, 0, 1, &err), PR_EIO);
	assert_string_equal(err.msg,
	    "database is locked by another writer (waited 30 ms)");
	pr_store_set_busy(NULL, 30);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(db);
	unsetenv("PERFREG_DB_BUSY_MS");
	o.busy_ms = -1;
	assert_int_equal(pr_store_open_opts(path, PR_STORE_WRITE, &o, &st2,
			     &err),
	    PR_EINVAL);
	/* Nothing partial, and the store works again. */
	assert_int_equal(count_runs(st, sid), 0);
	ok(add_ok(st, sid, vid, 0, 1, &err), &err);
	assert_int_equal(count_runs(st, sid), 1);
	ok(pr_store_campaigns(st, &ci, &n, &err), &err);
	assert_int_equal(n, 1);
	pr_store_campaigns_free(ci, n);
	pr_store_close(st);
}

/* Reads lines "N\n" from fd until EOF; returns the last N (or -1). */
static long
last_line(int fd)
{
	char buf[4096];
	long last = -1;
	size_t len = 0;
	ssize_t k;
	char *nl, *p;

	for (;;) {
		k = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (k <= 0)
			break;
		len += (size_t)k;
		buf[len] = '\0';
		p = buf;
		while ((nl = strchr(p, '\n')) != NULL) {
			*nl = '\0';
			last = strtol(p, NULL, 10);
			p = nl + 1;
		}
		len = strlen(p);
		memmove(buf, p, len);
	}
	return last;
}

static void
test_sigkill(void **state)
{
	struct pr_store *st;
	struct pr_error err;
	struct runlog *l;
	char path[512], line[64];
	int fd[2], status;
	long last = -1, got;
	pid_t pid;
	size_t i;
	char c;
	int64_t sid = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/killed.db", g_dir);
	st = open_new(path);
	pr_store_close(st);
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int64_t s, v;
		long k;

		close(fd[0]);
		if (pr_store_open(path, PR_STORE_WRITE, &st, &err))
			_exit(10);
		s = session(st, "killed", "b", 1);
		v = variant(st, s, "v");
		for (k = 0;; k++) {
			if (add_ok(st, s, v, (size_t)k, (double)k, &err))
				_exit(11);
			snprintf(line, sizeof(line), "%ld\n", k);
			if (write(fd[1], line, strlen(line)) < 0)
				_exit(12);
		}
	}
	close(fd[1]);
	/* Let it commit a few hundred runs, then kill it mid-stream. */
	for (i = 0; i < 300;) {
		if (read(fd[0], &c, 1) != 1)
			break;
		if (c == '\n')
			i++;
	}
	kill(pid, SIGKILL);
	got = last_line(fd[0]);
	last = got >= 0 ? got : 299;
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);

	assert_true(integrity_ok(path));
	ok(pr_store_open(path, PR_STORE_WRITE, &st, &err), &err);
	{
		struct pr_store_session_info *ss;
		size_t n;

		ok(pr_store_sessions(st, pr_str_c("killed"), &ss, &n, &err),
		    &err);
		assert_int_equal(n, 1);
		sid = ss[0].id;
		assert_string_equal(ss[0].status, "running");
		/* Every run reported committed is there; at most one more
		 * (committed, killed before it said so). */
		assert_true(ss[0].nruns_ok >= (size_t)last + 1);
		assert_true(ss[0].nruns_ok <= (size_t)last + 2);
		pr_store_sessions_free(ss, n);
	}
	l = calloc(1, sizeof(*l));
	assert_non_null(l);
	l->stop_at = -1;
	/* The first 64 are in order (the log holds 64). */
	l->stop_at = 64;
	assert_int_equal(pr_store_each_run(st, sid, collect, l, &err),
	    PR_EINVAL);
	for (i = 0; i < 64; i++)
		assert_int_equal(l->seq[i], i);
	free(l);
	pr_store_close(st);
}

static void
test_full_disk(void **state)
{
	struct pr_store *st;
	struct pr_store_session_info *ss;
	struct pr_error err;
	char path[512], msg[1024];
	int fd[2], status;
	long committed = -1;
	ssize_t k;
	size_t len = 0, n;
	pid_t pid;
	char *nl, *p;

	(void)state;
	snprintf(path, sizeof(path), "%s/full.db", g_dir);
	st = open_new(path);
	pr_store_close(st);
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl;
		struct pr_store_run r;
		char *out, buf[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 16];
		int64_t s, v;
		long i;

		close(fd[0]);
		signal(SIGXFSZ, SIG_IGN);
		if (pr_store_open(path, PR_STORE_WRITE, &st, &err))
			_exit(10);
		s = session(st, "full", "b", 1);
		v = variant(st, s, "v");
		rl.rlim_cur = rl.rlim_max = 1u << 20;
		if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
			_exit(12);
		out = malloc(20000);
		if (out == NULL)
			_exit(13);
		memset(out, 'x', 20000);
		memset(&r, 0, sizeof(r));
		r.variant = v;
		r.ok = 1;
		r.outcome = "ok";
		r.output.p = out;
		r.output.n = 20000;
		for (i = 0; i < 100000; i++) {
			r.seq = (size_t)i;
			if (pr_store_add_run(st, s, &r, &err) != PR_OK) {
				snprintf(msg, sizeof(msg), "E %s\n",
				    pr_error_format(&err, buf, sizeof(buf)));
				if (write(fd[1], msg, strlen(msg)) < 0)
					_exit(14);
				free(out);
				pr_store_close(st);
				_exit(0);
			}
			snprintf(msg, sizeof(msg), "%ld\n", i);
			if (write(fd[1], msg, strlen(msg)) < 0)
				_exit(14);
		}
		_exit(15);
	}
	close(fd[1]);
	msg[0] = '\0';
	for (;;) {
		k = read(fd[0], msg + len, sizeof(msg) - 1 - len);
		if (k <= 0)
			break;
		len += (size_t)k;
		msg[len] = '\0';
		p = msg;
		while ((nl = strchr(p, '\n')) != NULL && p[0] != 'E') {
			*nl = '\0';
			committed = strtol(p, NULL, 10);
			p = nl + 1;
		}
		len = strlen(p);
		memmove(msg, p, len + 1);
	}
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* A clear error naming the database. */
	assert_true(strncmp(msg, "E ", 2) == 0);
	assert_non_null(strstr(msg, path));
	assert_true(strstr(msg, "File too large") != NULL ||
	    strstr(msg, "full") != NULL);
	assert_true(committed > 10);

	assert_true(integrity_ok(path));
	ok(pr_store_open(path, PR_STORE_WRITE, &st, &err), &err);
	ok(pr_store_sessions(st, pr_str_c("full"), &ss, &n, &err), &err);
	assert_int_equal(n, 1);
	assert_int_equal(ss[0].nruns_ok, (size_t)committed + 1);
	pr_store_sessions_free(ss, n);
	pr_store_close(st);
}

/* ---- main ---- */

static int
rm_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

int
main(void)
{
	const struct CMUnitTest common[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_history_lists),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_output_exact),
		cmocka_unit_test(test_boots),
		cmocka_unit_test(test_many_metrics),
		cmocka_unit_test(test_sessions_and_resume),
		cmocka_unit_test(test_transactions),
		cmocka_unit_test(test_metric_direction),
		cmocka_unit_test(test_primary_flags),
		cmocka_unit_test(test_racing_writers),
	};
	const struct CMUnitTest pg_only[] = {
		cmocka_unit_test(test_target_redacted),
	};
	const struct CMUnitTest sqlite_only[] = {
		cmocka_unit_test(test_open_modes),
		cmocka_unit_test(test_create_race),
		cmocka_unit_test(test_driver_for),
		cmocka_unit_test(test_migrate_v2),
		cmocka_unit_test(test_foreign_corrupt_newer),
		cmocka_unit_test(test_read_only),
		cmocka_unit_test(test_create_behind_writer),
		cmocka_unit_test(test_locked),
		cmocka_unit_test(test_sigkill),
		cmocka_unit_test(test_full_disk),
	};
	const char *pg = getenv("PERFREG_TEST_PG");
	int fails;

	snprintf(g_dir, sizeof(g_dir), "/tmp/perfreg-store-XXXXXX");
	if (mkdtemp(g_dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	fails =
	    cmocka_run_group_tests_name("store (sqlite)", common, NULL, NULL);
	fails += cmocka_run_group_tests_name("store faults (sqlite)",
	    sqlite_only, NULL, NULL);
	if (pg != NULL && *pg != '\0') {
		g_pg = pg;
		fails += cmocka_run_group_tests_name("store (postgresql)",
		    common, NULL, NULL);
		fails += cmocka_run_group_tests_name("store target "
						     "(postgresql)",
		    pg_only, NULL, NULL);
		g_pg = NULL;
	}
	rm_tree(g_dir);
	return fails != 0;
}
