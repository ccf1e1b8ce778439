/*
 * tests/store/test_export.c - pr_store_export and pr_store_import on real
 * SQLite files in a temporary directory: a round trip (export, import
 * into a fresh database, export again gives the same text, and the
 * values read back are bit-exact), a second import skipping what is
 * there, malformed inputs refused with the right line and the target
 * left unchanged, and, when PERFREG_TEST_PG names a PostgreSQL server,
 * SQLite -> PostgreSQL -> SQLite.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/env.h"
#include "perfreg/store.h"

static char tmpdir[64];
static int dbcount;

/* A new database file name in the temporary directory. */
static char *
db_path(void)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/db%d.sqlite", tmpdir, ++dbcount);
	return path;
}

static struct pr_store *
open_new(void)
{
	struct pr_store *st = NULL;
	struct pr_error err;

	if (pr_store_open(db_path(), PR_STORE_CREATE, &st, &err) != PR_OK)
		fail_msg("open: %s", err.msg);
	return st;
}

static enum pr_status
to_buf(void *arg, const char *p, size_t n, struct pr_error *err)
{
	return pr_buf_add(arg, p, n, err);
}

/* The export of st (the campaigns named, or all). */
static char *
export_all(struct pr_store *st, const struct pr_str *names, size_t n,
    size_t *len)
{
	struct pr_buf b = PR_BUF_INIT((size_t)1 << 30);
	struct pr_error err;
	enum pr_status s;

	s = pr_store_export(st, names, n, to_buf, &b, &err);
	if (s != PR_OK)
		fail_msg("export: %s", err.msg);
	return pr_buf_detach(&b, len);
}

/* A write function that fails once it has taken *arg bytes. */
static enum pr_status
fail_after(void *arg, const char *p, size_t n, struct pr_error *err)
{
	size_t *left = arg;

	(void)p;
	if (n > *left)
		return pr_error_set(err, PR_EIO, "disk full");
	*left -= n;
	return PR_OK;
}

/* Sessions plus every run, warm-ups included. */
static size_t
count_rows(struct pr_store *st)
{
	struct pr_store_session_info *s = NULL;
	struct pr_str all = { NULL, 0 };
	struct pr_error err;
	size_t n = 0, i, rows = 0;

	if (pr_store_sessions(st, all, &s, &n, &err) != PR_OK)
		fail_msg("sessions: %s", err.msg);
	for (i = 0; i < n; i++)
		rows += 1 + s[i].nruns_ok + s[i].nruns_failed + s[i].nwarmup;
	pr_store_sessions_free(s, n);
	return rows;
}

static const double odd_values[] = { 0.1, 1e-300, 5e-324, -0.0,
	1.7976931348623157e308, -2.2250738585072014e-308, 123456789.0,
	1.0 / 3.0 };
#define NODD (sizeof(odd_values) / sizeof(odd_values[0]))

static const char weird[] = "q\"u\\o\0te\xff\xfe\n\t\x01";
#define WEIRD_N (sizeof(weird) - 1)

static char *big_text, *big_bin;
#define BIG_N ((size_t)1 << 20)

static void
make_big(void)
{
	size_t i;
	uint32_t x = 12345;

	big_text = malloc(BIG_N);
	big_bin = malloc(BIG_N);
	assert_non_null(big_text);
	assert_non_null(big_bin);
	for (i = 0; i < BIG_N; i++) {
		x = x * 1103515245u + 12345u;
		big_text[i] = (char)(' ' + (x >> 16) % 95);
		if (i % 100 == 99)
			big_text[i] = '\n';
		big_bin[i] = (char)(x >> 24);
	}
}

static void
add_run(struct pr_store *st, int64_t sess, int64_t var, size_t seq, int warmup,
    int ok, struct pr_str output, double v)
{
	struct pr_store_run r;
	struct pr_dataset d;
	struct pr_error err;

	memset(&r, 0, sizeof(r));
	pr_dataset_init(&d);
	assert_int_equal(pr_dataset_add(&d, "wall", "s", PR_BETTER_LOWER, v,
			     &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d, "rate", "B/s", PR_BETTER_HIGHER,
			     1e9 + (double)seq, &err),
	    PR_OK);
	/* The benchmark's own result (schema 3: "results" in the export). */
	pr_dataset_find(&d, "rate")->flags = PR_METRIC_RESULT;
	assert_int_equal(pr_dataset_add(&d, "plain", "", PR_BETTER_UNKNOWN,
			     -0.0, &err),
	    PR_OK);
	r.variant = var;
	r.round = seq / 2;
	r.seq = seq;
	r.warmup = warmup;
	r.ok = ok;
	r.outcome = ok ? "ok" : "exit";
	r.exit_status = ok ? 0 : 3;
	r.signal = 0;
	r.reason = ok ? pr_str_c("") : (struct pr_str){ weird, WEIRD_N };
	r.failed_in = ok ? NULL : "command";
	r.output = output;
	r.start_s = 0.5 * (double)seq + 0.1;
	r.metrics = ok ? &d : NULL;
	if (pr_store_add_run(st, sess, &r, &err) != PR_OK)
		fail_msg("add_run: %s", err.msg);
	pr_dataset_release(&d);
}

/*
 * Two campaigns: "ubsec" with two variants, three sessions (one resumes
 * another, one still running), tags, an environment snapshot, outputs of
 * 1 MB of text and of binary, odd doubles; and a campaign whose name is
 * not text.  prefix makes the names unique (PostgreSQL).
 */
static void
populate(struct pr_store *st, const char *prefix)
{
	static const char *const primary[] = { "rate", "wall" };
	struct pr_store_session_new sn;
	struct pr_store_tag tags[3];
	struct pr_error err;
	struct pr_env env;
	char camp[64], camp2[64];
	size_t camp2n;
	int64_t s1, s2, s3, v1, v2, v3;
	size_t i;

	snprintf(camp, sizeof(camp), "%subsec", prefix);
	camp2n = (size_t)snprintf(camp2, sizeof(camp2), "%sodd", prefix);
	memcpy(camp2 + camp2n, "\0\xc3\x28", 3);
	camp2n += 3;
	pr_env_init(&env);
	assert_int_equal(pr_env_add(&env, "clocksource.current", "clock", "tsc",
			     NULL, &err),
	    PR_OK);
	assert_int_equal(pr_env_add(&env, "kernel.log", "kernel",
			     "line \"one\"\nline\ttwo \xc3\xa9", NULL, &err),
	    PR_OK);
	assert_int_equal(pr_env_add(&env, "cpu.governor", "cpu", NULL,
			     "unavailable: no cpufreq", &err),
	    PR_OK);
	tags[0].key = pr_str_c("kernel");
	tags[0].value = pr_str_c("6.1.0-13-amd64");
	tags[1].key = (struct pr_str){ weird, WEIRD_N };
	tags[1].value = (struct pr_str){ "", 0 };
	tags[2].key = pr_str_c("note");
	tags[2].value = (struct pr_str){ weird, WEIRD_N };

	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c(camp);
	sn.host = "bench1";
	sn.boot_id = "5e1c6b7a-0000-4000-8000-000000000001";
	sn.args_json = "[\"run\",\"--campaign\",\"ubsec\",\"--\",\"x\"]";
	sn.started = 1700000000.123456789;
	sn.env = &env;
	sn.tags = tags;
	sn.ntags = 3;
	sn.primary = primary;
	sn.nprimary = 2;
	assert_int_equal(pr_store_session_begin(st, &sn, &s1, &err), PR_OK);
	sn.primary = NULL;
	sn.nprimary = 0;
	assert_int_equal(pr_store_session_variant(st, s1, pr_str_c("6.1.0-13"),
			     "openssl speed", &v1, &err),
	    PR_OK);
	assert_int_equal(pr_store_session_variant(st, s1,
			     (struct pr_str){ weird, WEIRD_N }, "sh -c 'x'",
			     &v2, &err),
	    PR_OK);
	add_run(st, s1, v1, 0, 1, 1, pr_str_c(""), 1.0);
	for (i = 1; i <= NODD; i++)
		add_run(st, s1, i % 2 ? v1 : v2, i, 0, 1, pr_str_c(""),
		    odd_values[i - 1]);
	add_run(st, s1, v1, NODD + 1, 0, 0, (struct pr_str){ big_text, BIG_N },
	    0.0);
	add_run(st, s1, v2, NODD + 2, 0, 0, (struct pr_str){ big_bin, BIG_N },
	    0.0);
	assert_int_equal(pr_store_session_end(st, s1, "interrupted", 12.5,
			     &err),
	    PR_OK);

	sn.boot_id = "5e1c6b7a-0000-4000-8000-000000000002";
	sn.started += 100.0;
	sn.env = NULL;
	sn.ntags = 1;
	sn.args_json = NULL;
	sn.resumes = s1;
	assert_int_equal(pr_store_session_begin(st, &sn, &s2, &err), PR_OK);
	assert_int_equal(pr_store_session_variant(st, s2, pr_str_c("6.1.0-13"),
			     "openssl speed", &v1, &err),
	    PR_OK);
	add_run(st, s2, v1, 0, 0, 1, pr_str_c("output\n"), 2.5);
	assert_int_equal(pr_store_session_end(st, s2, "done", 3.25, &err),
	    PR_OK);

	sn.host = "bench2";
	sn.started += 100.0;
	sn.resumes = 0;
	sn.ntags = 0;
	assert_int_equal(pr_store_session_begin(st, &sn, &s3, &err), PR_OK);
	assert_int_equal(pr_store_session_variant(st, s3, pr_str_c("6.1.0-14"),
			     "openssl speed", &v3, &err),
	    PR_OK);
	add_run(st, s3, v3, 0, 0, 1, pr_str_c(""), 3.5);

	sn.campaign = (struct pr_str){ camp2, camp2n };
	sn.host = "bench1";
	sn.started += 1.0;
	assert_int_equal(pr_store_session_begin(st, &sn, &s1, &err), PR_OK);
	assert_int_equal(pr_store_session_variant(st, s1,
			     (struct pr_str){ camp2, camp2n }, NULL, &v1, &err),
	    PR_OK);
	add_run(st, s1, v1, 0, 0, 1, pr_str_c(""), 4.5);
	assert_int_equal(pr_store_session_end(st, s1, "done", 1.0, &err),
	    PR_OK);
	pr_env_release(&env);
}

struct seen {
	size_t runs, odd;
	int big_text, big_bin, denormal;
};

static int
check_run(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct seen *s = arg;
	size_t i;

	(void)err;
	s->runs++;
	if (r->output.n == BIG_N && memcmp(r->output.p, big_text, BIG_N) == 0)
		s->big_text = 1;
	if (r->output.n == BIG_N && memcmp(r->output.p, big_bin, BIG_N) == 0)
		s->big_bin = 1;
	if (!r->ok) {
		assert_int_equal(r->reason.n, WEIRD_N);
		assert_memory_equal(r->reason.p, weird, WEIRD_N);
	}
	for (i = 0; i < r->nm; i++) {
		double v = r->metric_values[i];

		assert_int_equal(r->metric_flags[i],
		    strcmp(r->metric_names[i], "rate") == 0 ? PR_METRIC_RESULT
							    : 0);
		if (strcmp(r->metric_names[i], "plain") == 0)
			assert_true(v == 0.0);
		if (strcmp(r->metric_names[i], "wall") == 0 && r->seq >= 1 &&
		    r->seq <= NODD) {
			double want = odd_values[r->seq - 1];

			/* Bit-exact, but for the sign of 0 (SQLite). */
			if (want == 0.0)
				assert_true(v == 0.0);
			else
				assert_memory_equal(&v, &want, sizeof(v));
			s->odd++;
			if (v == 5e-324)
				s->denormal = 1;
		}
	}
	return 0;
}

/* The values of the imported "ubsec" read back through the store. */
static void
check_values(struct pr_store *st, const char *camp)
{
	struct pr_store_session_info *s = NULL;
	struct seen seen;
	struct pr_error err;
	size_t n = 0, i;

	memset(&seen, 0, sizeof(seen));
	assert_int_equal(pr_store_sessions(st, pr_str_c(camp), &s, &n, &err),
	    PR_OK);
	assert_int_equal(n, 3);
	assert_int_equal(s[1].resumes, s[0].id);
	assert_string_equal(s[0].status, "interrupted");
	assert_true(s[0].started == 1700000000.123456789);
	assert_int_equal(s[0].ntags, 3);
	assert_int_equal(s[0].tags[1].key.n, WEIRD_N);
	assert_memory_equal(s[0].tags[1].key.p, weird, WEIRD_N);
	assert_int_equal(s[0].nprimary, 2);
	assert_string_equal(s[0].primary[0], "rate");
	assert_string_equal(s[0].primary[1], "wall");
	assert_int_equal(s[1].nprimary, 0);
	for (i = 0; i < n; i++)
		assert_int_equal(pr_store_each_run(st, s[i].id, check_run,
				     &seen, &err),
		    PR_OK);
	assert_int_equal(seen.runs, NODD + 5);
	assert_int_equal(seen.odd, NODD);
	assert_true(seen.big_text && seen.big_bin && seen.denormal);
	pr_store_sessions_free(s, n);
}

static void
import_ok(struct pr_store *st, const char *text, size_t len,
    struct pr_store_import_stats *stats)
{
	struct pr_error err;

	if (pr_store_import(st, text, len, "t.jsonl", stats, &err) != PR_OK) {
		char line[PR_ERROR_MSG_MAX + 300];

		fail_msg("import: %s",
		    pr_error_format(&err, line, sizeof(line)));
	}
}

static void
test_round_trip(void **state)
{
	struct pr_store *a, *b;
	struct pr_store_import_stats stats;
	struct pr_env env;
	struct pr_error err;
	char *t1, *t2;
	size_t n1, n2;
	int found = 0;

	(void)state;
	a = open_new();
	populate(a, "");
	t1 = export_all(a, NULL, 0, &n1);
	/* What the format promises, visible in the text. */
	assert_non_null(strstr(t1,
	    "{\"format\":\"perfreg-export\","
	    "\"version\":1,"));
	assert_non_null(strstr(t1, "{\"base64\":\""));
	/* SQLite keeps -0.0 as 0 (a REAL with an integral value is
	 * stored as an integer); PostgreSQL keeps the sign. */
	assert_non_null(strstr(t1, ",0]"));
	assert_non_null(strstr(t1, "4.9406564584124654e-324"));
	assert_non_null(strstr(t1, "0.10000000000000001"));
	assert_non_null(strstr(t1,
	    "{\"type\":\"end\",\"campaigns\":2,"
	    "\"sessions\":4,\"runs\":"));

	b = open_new();
	memset(&stats, 0xff, sizeof(stats));
	import_ok(b, t1, n1, &stats);
	assert_int_equal(stats.campaigns, 2);
	assert_int_equal(stats.sessions, 4);
	assert_int_equal(stats.runs, NODD + 6);
	assert_int_equal(stats.sessions_skipped, 0);
	assert_int_equal(stats.runs_skipped, 0);
	t2 = export_all(b, NULL, 0, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(t1, t2, n1);
	check_values(b, "ubsec");

	/* The environment snapshot came through whole. */
	{
		struct pr_store_session_info *s = NULL;
		size_t n = 0;

		assert_int_equal(pr_store_sessions(b, pr_str_c("ubsec"), &s, &n,
				     &err),
		    PR_OK);
		pr_env_init(&env);
		assert_int_equal(pr_store_session_env(b, s[0].id, &env, &found,
				     &err),
		    PR_OK);
		assert_int_equal(found, 1);
		assert_int_equal(env.n, 3);
		assert_string_equal(pr_env_get(&env, "kernel.log")->value,
		    "line \"one\"\nline\ttwo \xc3\xa9");
		assert_null(pr_env_get(&env, "cpu.governor")->value);
		pr_env_release(&env);
		pr_store_sessions_free(s, n);
	}

	/* One campaign by name. */
	free(t2);
	{
		struct pr_str name = pr_str_c("ubsec");

		t2 = export_all(b, &name, 1, &n2);
		assert_non_null(strstr(t2, "\"campaigns\":1,\"sessions\":3,"));
	}
	/* An unknown campaign, and a write that fails midway. */
	{
		struct pr_str name = pr_str_c("nosuch");
		struct pr_buf sink = PR_BUF_INIT(1 << 20);
		size_t left = n1 / 2;

		assert_int_equal(pr_store_export(b, &name, 1, to_buf, &sink,
				     &err),
		    PR_ENOTFOUND);
		pr_buf_release(&sink);
		assert_int_equal(pr_store_export(b, NULL, 0, fail_after, &left,
				     &err),
		    PR_EIO);
		assert_string_equal(err.msg, "disk full");
	}
	free(t1);
	free(t2);
	pr_store_close(a);
	pr_store_close(b);
}

static void
test_import_twice(void **state)
{
	struct pr_store *a, *b;
	struct pr_store_import_stats stats;
	char *t1, *t2;
	size_t n1, n2, rows;

	(void)state;
	a = open_new();
	populate(a, "");
	t1 = export_all(a, NULL, 0, &n1);
	b = open_new();
	import_ok(b, t1, n1, &stats);
	rows = count_rows(b);
	assert_int_equal(rows, 4 + NODD + 6);
	import_ok(b, t1, n1, &stats);
	assert_int_equal(stats.sessions, 0);
	assert_int_equal(stats.runs, 0);
	assert_int_equal(stats.sessions_skipped, 4);
	assert_int_equal(stats.runs_skipped, NODD + 6);
	assert_int_equal(count_rows(b), rows);
	t2 = export_all(b, NULL, 0, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(t1, t2, n1);
	/* The source gains nothing from its own export either. */
	import_ok(a, t1, n1, &stats);
	assert_int_equal(stats.sessions_skipped, 4);
	assert_int_equal(count_rows(a), rows);
	free(t1);
	free(t2);
	pr_store_close(a);
	pr_store_close(b);
}

/* ---- malformed inputs ---- */

static char *good;
static size_t goodn;

/* The start of line k (1-based) of good, and its length. */
static const char *
line_of(size_t k, size_t *len)
{
	const char *p = good, *e;

	while (--k > 0)
		p = strchr(p, '\n') + 1;
	e = strchr(p, '\n');
	*len = (size_t)(e - p);
	return p;
}

/* The number of the first line holding s. */
static long
line_with(const char *s)
{
	const char *p = strstr(good, s), *q;
	long k = 1;

	assert_non_null(p);
	for (q = good; q < p; q++)
		k += *q == '\n';
	return k;
}

static size_t
nlines(void)
{
	size_t k = 0, i;

	for (i = 0; i < goodn; i++)
		k += good[i] == '\n';
	return k;
}

/* good with cut bytes at offset at replaced by n bytes of repl. */
static char *
splice(size_t at, size_t cut, const char *repl, size_t n, size_t *outn)
{
	char *t = malloc(goodn - cut + n + 1);

	assert_non_null(t);
	memcpy(t, good, at);
	memcpy(t + at, repl, n);
	memcpy(t + at + n, good + at + cut, goodn - at - cut);
	*outn = goodn - cut + n;
	t[*outn] = '\0';
	return t;
}

/* good with line k replaced by n bytes of repl. */
static char *
replace_line(size_t k, const char *repl, size_t n, size_t *outn)
{
	size_t len;
	const char *p = line_of(k, &len);

	return splice((size_t)(p - good), len, repl, n, outn);
}

/* good with the first occurrence of from in line k replaced by to. */
static char *
edit(size_t k, const char *from, const char *to, size_t *outn)
{
	size_t len, nf = strlen(from);
	const char *p = line_of(k, &len), *q;

	q = strstr(p, from);
	assert_non_null(q);
	assert_true(q + nf <= p + len);
	return splice((size_t)(q - good), nf, to, strlen(to), outn);
}

/* Imports text into a database that holds one import already, expects
 * PR_EPARSE at line, a message holding want, and no change. */
static void
expect_bad(const char *text, size_t n, long line, const char *want)
{
	static struct pr_store *st;
	static size_t rows;
	struct pr_store_import_stats stats;
	struct pr_error err;
	enum pr_status s;

	if (st == NULL) {
		st = open_new();
		import_ok(st, good, goodn, &stats);
		rows = count_rows(st);
	}
	if (text == NULL) {
		pr_store_close(st);
		st = NULL;
		return;
	}
	/* A fresh campaign name, so that nothing is skipped. */
	s = pr_store_import(st, text, n, "bad.jsonl", &stats, &err);
	if (s != PR_EPARSE || err.line != line || strstr(err.msg, want) == NULL)
		fail_msg("want line %ld '%s', got status %d line %ld '%s'",
		    line, want, (int)s, err.line, err.msg);
	assert_string_equal(err.file, "bad.jsonl");
	assert_int_equal(count_rows(st), rows);
}

/* Edits of a run line, each making it wrong: what the error says. */
static const struct {
	const char *from, *to, *want;
} run_edits[] = {
	{ "\"type\":\"run\"", "\"type\":\"rum\"", "unknown line type 'rum'" },
	{ "\"seq\":", "\"sq\":", "missing 'seq'" },
	/* A name with a NUL in it is another name (found by fuzzing:
	 * it was compared past the end of "seq"). */
	{ "\"seq\":", "\"seq\\u0000\":", "missing 'seq'" },
	{ "\"seq\":", "\"seq\":\"1\",\"x\":", "'seq' must be an integer" },
	{ "\"output\":\"\"", "\"output\":{\"base64\":\"QQ=A\"}",
	    "bad base64 in 'output'" },
	{ "\"output\":\"\"", "\"output\":{\"base64\":\"QUJDR\"}",
	    "not a multiple of 4" },
	{ "\"output\":\"\"", "\"output\":{\"hex\":\"00\"}",
	    "'output' must be a string or {\"base64\":...}" },
	{ "\"session\":", "\"session\":99", "no session line before it" },
	{ "\"ok\":true", "\"ok\":true,\"ok\":false", "'ok' appears twice" },
	{ "\"lower\"", "\"down\"", "direction must be" },
	{ "\"start_s\":", "\"start_s\":1e999,\"x\":",
	    "'start_s' is out of range" },
	{ "\"round\":", "\"round\":-1", "'round' is out of range" },
	{ "\"outcome\":\"ok\"", "\"outcome\":\"o\\u0000k\"",
	    "'outcome' holds a NUL byte" },
	{ "\"outcome\":\"ok\"", "\"outcome\":\"o\\ud800k\"",
	    "lone UTF-16 surrogate" },
	{ "\"outcome\":\"ok\"", "\"outcome\":\"o\xc3\"", "invalid UTF-8" },
	{ "\"warmup\":false", "\"warmup\":0", "must be true or false" },
	{ "\"metrics\":[",
	    "\"metrics\":[[\"a\",\"s\",null,1],[\"a\",\"s\","
	    "null,2],",
	    "metric 'a' appears twice" },
	{ "\"metrics\":[", "\"metrics\":[[\"a\",\"s\",null],",
	    "must be an array of 4" },
	{ "\"variant\":", "\"variant\":\"nosuch\",\"x\":",
	    "'nosuch' is not among the variants" },
	{ "\"results\":[\"rate\"]", "\"results\":[\"nosuch\"]",
	    "'results' names 'nosuch', which is not one of the run's metrics" },
	{ "\"results\":[\"rate\"]", "\"results\":[\"rate\",\"rate\"]",
	    "'results' names 'rate' twice" },
	{ "\"results\":[\"rate\"]", "\"results\":[\"\"]",
	    "'results' holds an empty name" },
	{ "\"results\":[\"rate\"]", "\"results\":\"rate\"",
	    "'results' must be an array" },
};

static void
test_malformed(void **state)
{
	struct pr_store *a;
	size_t n, len, k, last, runl;
	const char *p;
	char *t;
	long r;

	(void)state;
	a = open_new();
	populate(a, "x");
	good = export_all(a, NULL, 0, &goodn);
	pr_store_close(a);
	last = nlines();
	/* A counted run of seq 0: output "", ok, metrics. */
	runl = (size_t)line_with("\"start_s\":0.10000000000000001");

	expect_bad("", 0, 0, "empty file");
	expect_bad("\x7f"
		   "ELF\x01\x02\0\0junk",
	    12, 1, "not a perfreg export");
	expect_bad("{\"format\":\"other\"}\n", 19, 1, "not a perfreg export");
	t = edit(1, "\"version\":1", "\"version\":2", &n);
	expect_bad(t, n, 1, "version 2 is newer");
	free(t);

	/* A line cut short, then a cut at a line boundary. */
	p = line_of(runl, &len);
	n = (size_t)(p - good) + len / 2;
	expect_bad(good, n, (long)runl, "at column");
	n = (size_t)(line_of(last, &len) - good);
	expect_bad(good, n, (long)last, "end line is missing");

	for (k = 0; k < sizeof(run_edits) / sizeof(run_edits[0]); k++) {
		t = edit(runl, run_edits[k].from, run_edits[k].to, &n);
		expect_bad(t, n, (long)runl, run_edits[k].want);
		free(t);
	}
	t = edit(last, "\"runs\":", "\"runs\":1", &n);
	expect_bad(t, n, (long)last, "the end line counts");
	free(t);
	{
		const char *q = good;

		while ((q = strstr(q, "\"resumes\":")) != NULL &&
		    strncmp(q + 10, "null", 4) == 0)
			q++;
		assert_non_null(q);
		r = 1;
		for (p = good; p < q; p++)
			r += *p == '\n';
	}
	t = edit((size_t)r, "\"resumes\":", "\"resumes\":7", &n);
	expect_bad(t, n, r, "which no session line before it declares");
	free(t);
	r = line_with("\"primary\":[\"rate\",\"wall\"]");
	t = edit((size_t)r, "\"primary\":[\"rate\"", "\"primary\":[7", &n);
	expect_bad(t, n, r, "'primary' must be a string");
	free(t);
	t = edit((size_t)r, "\"primary\":[\"rate\"", "\"primary\":[\"wall\"",
	    &n);
	expect_bad(t, n, r, "'primary' names 'wall' twice");
	free(t);

	/* A NUL byte in the middle of a line, outside and inside a
	 * string, and invalid UTF-8 in a string. */
	p = line_of(runl, &len);
	t = malloc(len);
	memcpy(t, p, len);
	t[len / 2] = '\0';
	k = runl;
	{
		char *u = replace_line(k, t, len, &n);

		expect_bad(u, n, (long)k, "at column");
		free(u);
	}
	free(t);

	/* A 10 MB line. */
	{
		size_t big = (size_t)10 << 20;
		char *u;

		t = malloc(big);
		memset(t, 'a', big);
		memcpy(t, "{\"type\":\"run\",\"output\":\"", 24);
		t[big - 2] = '"';
		t[big - 1] = '}';
		u = replace_line(runl, t, big, &n);
		expect_bad(u, n, (long)runl, "longer than an export line");
		free(u);
		free(t);
	}
	/* Nesting deep enough to exhaust a naive parser's stack. */
	{
		size_t deep = 100000;
		char *u;

		t = malloc(deep + 16);
		memcpy(t, "{\"x\":", 5);
		memset(t + 5, '[', deep);
		u = replace_line(runl, t, deep + 5, &n);
		expect_bad(u, n, (long)runl, "nested too deeply");
		free(u);
		free(t);
	}
	expect_bad(NULL, 0, 0, NULL);
	free(good);
	good = NULL;
}

/* An export written before schema 3 (no "primary" on its session lines,
 * no "results" on its run lines) imports as before: no primaries, no
 * result flags. */
static const char old_export[] =
    "{\"format\":\"perfreg-export\",\"version\":1,\"schema\":2}\n"
    "{\"type\":\"campaign\",\"name\":\"old\"}\n"
    "{\"type\":\"variant\",\"campaign\":\"old\",\"name\":\"a\","
    "\"command\":null}\n"
    "{\"type\":\"session\",\"key\":1,\"campaign\":\"old\",\"host\":\"h\","
    "\"boot_id\":\"b\",\"args\":null,\"status\":\"done\",\"started\":1,"
    "\"elapsed_s\":1,\"resumes\":null,\"tags\":[],\"variants\":[[\"a\","
    "null]],\"env\":null}\n"
    "{\"type\":\"run\",\"session\":1,\"variant\":\"a\",\"round\":0,"
    "\"seq\":0,\"warmup\":false,\"ok\":true,\"outcome\":\"ok\","
    "\"exit_status\":0,\"signal\":0,\"reason\":\"\",\"failed_in\":null,"
    "\"truncated\":false,\"start_s\":0,\"metrics\":[[\"rate\",\"B/s\","
    "\"higher\",5]],\"output\":\"\"}\n"
    "{\"type\":\"end\",\"campaigns\":1,\"sessions\":1,\"runs\":1}\n";

static void
test_old_lines(void **state)
{
	struct pr_store *st;
	struct pr_store_import_stats stats;
	struct pr_store_variant_data vd;
	struct pr_store_session_info *s = NULL;
	struct pr_error err;
	size_t n = 0;

	(void)state;
	st = open_new();
	import_ok(st, old_export, sizeof(old_export) - 1, &stats);
	assert_int_equal(stats.runs, 1);
	assert_int_equal(pr_store_load_variant(st, pr_str_c("old"),
			     pr_str_c("a"), &vd, &err),
	    PR_OK);
	assert_int_equal(vd.nm, 1);
	assert_int_equal(vd.m[0].flags, 0);
	assert_int_equal(vd.nprimary, 0);
	pr_store_variant_data_release(&vd);
	assert_int_equal(pr_store_sessions(st, pr_str_c("old"), &s, &n, &err),
	    PR_OK);
	assert_int_equal(n, 1);
	assert_int_equal(s[0].nprimary, 0);
	pr_store_sessions_free(s, n);
	pr_store_close(st);
}

/* An empty database exports to a header and an end line, which import;
 * a session whose line would pass the line limit is refused by export,
 * not written for import to refuse. */
static void
test_limits(void **state)
{
	struct pr_store *st;
	struct pr_store_session_new sn;
	struct pr_store_import_stats stats;
	struct pr_error err;
	struct pr_buf sink = PR_BUF_INIT((size_t)1 << 30);
	struct pr_env env;
	char *t, *log;
	size_t n, big = PR_STORE_EXPORT_LINE_MAX + 16;
	int64_t id;

	(void)state;
	st = open_new();
	t = export_all(st, NULL, 0, &n);
	assert_string_equal(t,
	    "{\"format\":\"perfreg-export\",\"version\":1,"
	    "\"schema\":3}\n{\"type\":\"end\",\"campaigns\":0,\"sessions\":0,"
	    "\"runs\":0}\n");
	import_ok(st, t, n, &stats);
	assert_int_equal(stats.campaigns + stats.sessions + stats.runs, 0);
	free(t);

	log = malloc(big + 1);
	assert_non_null(log);
	memset(log, 'x', big);
	log[big] = '\0';
	pr_env_init(&env);
	assert_int_equal(pr_env_add(&env, "kernel.log", "kernel", log, NULL,
			     &err),
	    PR_OK);
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c("huge");
	sn.host = "h";
	sn.boot_id = "b";
	sn.env = &env;
	assert_int_equal(pr_store_session_begin(st, &sn, &id, &err), PR_OK);
	assert_int_equal(pr_store_export(st, NULL, 0, to_buf, &sink, &err),
	    PR_ELIMIT);
	if (strstr(err.msg, "more than the") == NULL)
		fail_msg("%s", err.msg);
	pr_buf_release(&sink);
	pr_env_release(&env);
	free(log);
	pr_store_close(st);
}

/* A reader of an export in memory, at most 1 MiB a call; on its second
 * call (the first MiB imported), another connection stores a session
 * with a run, waiting at most 200 ms for the write lock. */
struct feed {
	const char *p;
	size_t n, off;
	int calls;
	const char *db;
	enum pr_status other; /* what the other writer got */
	char other_msg[PR_ERROR_MSG_MAX];
};

static enum pr_status
other_writer(const char *db, char *msg, size_t size)
{
	struct pr_store_opts o;
	struct pr_store_session_new sn;
	struct pr_store_run r;
	struct pr_store *st = NULL;
	struct pr_error err;
	enum pr_status s;
	int64_t sess = 0, var = 0;

	pr_store_opts_init(&o);
	o.busy_ms = 200;
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c("meanwhile");
	sn.host = "h";
	sn.boot_id = "b";
	memset(&r, 0, sizeof(r));
	r.ok = 1;
	r.outcome = "ok";
	r.reason = pr_str_c("");
	r.output = pr_str_c("");
	pr_error_clear(&err);
	s = pr_store_open_opts(db, PR_STORE_WRITE, &o, &st, &err);
	if (s == PR_OK)
		s = pr_store_session_begin(st, &sn, &sess, &err);
	if (s == PR_OK)
		s = pr_store_session_variant(st, sess, pr_str_c("v"), NULL,
		    &var, &err);
	r.variant = var;
	if (s == PR_OK)
		s = pr_store_add_run(st, sess, &r, &err);
	if (s == PR_OK)
		s = pr_store_session_end(st, sess, "done", 1.0, &err);
	snprintf(msg, size, "%s", err.msg);
	pr_store_close(st);
	return s;
}

static enum pr_status
feed_read(void *arg, char *p, size_t size, size_t *n, struct pr_error *err)
{
	struct feed *f = arg;
	size_t k = f->n - f->off;

	(void)err;
	if (++f->calls == 2 && f->db != NULL)
		f->other =
		    other_writer(f->db, f->other_msg, sizeof(f->other_msg));
	if (k > size)
		k = size;
	if (k > ((size_t)1 << 20))
		k = (size_t)1 << 20;
	memcpy(p, f->p + f->off, k);
	f->off += k;
	*n = k;
	return PR_OK;
}

/*
 * An import read as it comes commits a chunk at a time (issue 12): a
 * writer that comes during the import gets the lock between two chunks
 * instead of waiting for the whole import (before, it failed "database
 * is locked" with the import's lock never released); an import that
 * fails keeps the chunks before the error, and importing the whole file
 * again completes it run by run.
 */
static void
test_import_chunks(void **state)
{
	struct pr_store *a, *b;
	struct pr_store_import_stats stats;
	struct pr_error err;
	struct feed f;
	char path[128], *t;
	size_t n, rows;

	(void)state;
	a = open_new();
	populate(a, "");
	t = export_all(a, NULL, 0, &n);
	rows = count_rows(a);
	assert_true(n > 2 * ((size_t)1 << 20));
	pr_store_close(a);

	snprintf(path, sizeof(path), "%s", db_path());
	assert_int_equal(pr_store_open(path, PR_STORE_CREATE, &b, &err), PR_OK);
	memset(&f, 0, sizeof(f));
	f.p = t;
	f.n = n;
	f.db = path;
	f.other = PR_EINVAL;
	if (pr_store_import_read(b, feed_read, &f, "t.jsonl", &stats, &err) !=
	    PR_OK)
		fail_msg("import: %s", err.msg);
	assert_true(f.calls > 2);
	if (f.other != PR_OK)
		fail_msg("a writer during the import: %s", f.other_msg);
	/* The import's rows and the other writer's session with its run. */
	assert_int_equal(count_rows(b), rows + 2);
	check_values(b, "ubsec");
	pr_store_close(b);

	/* Truncated (no end line): the chunks before the end are kept. */
	b = open_new();
	memset(&f, 0, sizeof(f));
	f.p = t;
	f.n = n - 40;
	pr_error_clear(&err);
	assert_int_equal(pr_store_import_read(b, feed_read, &f, "t.jsonl",
			     &stats, &err),
	    PR_EPARSE);
	assert_true(stats.runs > 0);
	assert_true(count_rows(b) > stats.runs);
	assert_true(count_rows(b) < rows);
	memset(&f, 0, sizeof(f));
	f.p = t;
	f.n = n;
	if (pr_store_import_read(b, feed_read, &f, "t.jsonl", &stats, &err) !=
	    PR_OK)
		fail_msg("import again: %s", err.msg);
	assert_int_equal(count_rows(b), rows);
	check_values(b, "ubsec");
	pr_store_close(b);
	free(t);
}

/* SQLite -> PostgreSQL -> SQLite gives the same export. */
static void
test_postgresql(void **state)
{
	const char *pg = getenv("PERFREG_TEST_PG");
	struct pr_store *a, *p, *b;
	struct pr_store_import_stats stats;
	struct pr_error err;
	struct pr_str names[2];
	char prefix[64], ubsec[80], odd[80], *t1, *t2, *t3;
	size_t n1, n2, n3, oddn;

	(void)state;
	if (pg == NULL || *pg == '\0')
		skip();
	snprintf(prefix, sizeof(prefix), "export-%ld-%d-", (long)getpid(),
	    rand());
	a = open_new();
	populate(a, prefix);
	t1 = export_all(a, NULL, 0, &n1);
	if (pr_store_open(pg, PR_STORE_CREATE, &p, &err) != PR_OK)
		fail_msg("open %s: %s", pg, err.msg);
	import_ok(p, t1, n1, &stats);
	assert_int_equal(stats.sessions, 4);
	/* In the order an export of everything writes them (by name). */
	oddn = (size_t)snprintf(odd, sizeof(odd), "%sodd", prefix);
	memcpy(odd + oddn, "\0\xc3\x28", 3);
	names[0].p = odd;
	names[0].n = oddn + 3;
	snprintf(ubsec, sizeof(ubsec), "%subsec", prefix);
	names[1] = pr_str_c(ubsec);
	t2 = export_all(p, names, 2, &n2);
	b = open_new();
	import_ok(b, t2, n2, &stats);
	t3 = export_all(b, NULL, 0, &n3);
	assert_int_equal(n1, n2);
	assert_memory_equal(t1, t2, n1);
	assert_int_equal(n1, n3);
	assert_memory_equal(t1, t3, n1);
	check_values(b, ubsec);
	free(t1);
	free(t2);
	free(t3);
	pr_store_close(a);
	pr_store_close(p);
	pr_store_close(b);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pr_export.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	make_big();
	return 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	free(big_text);
	free(big_bin);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_import_twice),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_old_lines),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_import_chunks),
		cmocka_unit_test(test_postgresql),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
