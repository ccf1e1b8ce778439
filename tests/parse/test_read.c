/*
 * tests/parse/test_read.c - the input readers of `perfreg compare`:
 * format names and detection, the csv, hyperfine, gobench and perfreg
 * JSON readers on output captured from the real tools (tests/data/, see
 * its README.md for the commands), and every kind of bad input, each
 * checked for its status, the file and the line of the error.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/read.h"
#include "perfreg/rng.h"
#include "perfreg/units.h"

/* A temporary directory for generated inputs, made once. */
static char tmpdir[256];

static int
setup_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/perfreg-test-read.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
teardown_tmp(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Writes len bytes to a file called name in tmpdir; returns its path
 * (static storage, overwritten by the next call). */
static const char *
put_file(const char *name, const void *data, size_t len)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	if (len > 0)
		assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

static const char *
put_str(const char *name, const char *s)
{
	return put_file(name, s, strlen(s));
}

static enum pr_status
read_as(const char *path, enum pr_format f, const char *column,
    struct pr_dataset *d, struct pr_error *err)
{
	struct pr_read_opts o;

	pr_read_opts_init(&o);
	o.format = f;
	o.column = column;
	pr_dataset_init(d);
	pr_error_clear(err);
	return pr_read_dataset(path, &o, d, err);
}

/* Reads path expecting success; the caller releases d. */
static void
read_ok(const char *path, enum pr_format f, const char *column,
    struct pr_dataset *d)
{
	struct pr_error err;
	char msg[1024];
	enum pr_status st;

	st = read_as(path, f, column, d, &err);
	if (st != PR_OK)
		fail_msg("%s: %s", path,
		    pr_error_format(&err, msg, sizeof(msg)));
}

/*
 * Reads path expecting status st with the error in file `file` (the path
 * when NULL) at line `line`, the message containing `text`.
 */
static void
read_fails(const char *path, enum pr_format f, const char *column,
    enum pr_status st, const char *file, long line, const char *text)
{
	struct pr_dataset d;
	struct pr_error err;
	char msg[1024];
	enum pr_status got;

	got = read_as(path, f, column, &d, &err);
	pr_error_format(&err, msg, sizeof(msg));
	if (got != st)
		fail_msg("%s: status %d, want %d (%s)", path, got, st, msg);
	assert_string_equal(err.file, file != NULL ? file : path);
	if (err.line != line)
		fail_msg("%s: line %ld, want %ld (%s)", path, err.line, line,
		    msg);
	if (strstr(err.msg, text) == NULL)
		fail_msg("%s: message '%s' lacks '%s'", path, msg, text);
	pr_dataset_release(&d);
}

/* A generated bad input and the error it must give. */
struct bad {
	const char *file; /* created in tmpdir */
	const char *text;
	enum pr_format format;
	enum pr_status status;
	long line;
	const char *msg; /* a part of the message */
};

static void
run_bad(const struct bad *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		read_fails(put_str(c[i].file, c[i].text), c[i].format, NULL,
		    c[i].status, NULL, c[i].line, c[i].msg);
}

#define RUN_BAD(cases) run_bad(cases, sizeof(cases) / sizeof(cases[0]))

static const struct pr_metric *
metric(struct pr_dataset *d, const char *name)
{
	const struct pr_metric *m = pr_dataset_find(d, name);

	if (m == NULL)
		fail_msg("no metric '%s'", name);
	return m;
}

static void
check_values(const struct pr_metric *m, const double *want, size_t n)
{
	size_t i;

	assert_int_equal(m->values.n, n);
	for (i = 0; i < n; i++)
		if (m->values.v[i] != want[i])
			fail_msg("%s: value %zu is %.17g, want %.17g", m->name,
			    i, m->values.v[i], want[i]);
}

/* --- format names and detection --- */

static void
test_format_names(void **state)
{
	char want[512], names[256];
	struct pr_error err;
	enum pr_format f;
	int i;

	(void)state;
	for (i = PR_FORMAT_AUTO; i <= PR_FORMAT_PERFREG; i++) {
		assert_int_equal(pr_format_parse(pr_format_str(
						     (enum pr_format)i),
				     &f, &err),
		    PR_OK);
		assert_int_equal(f, i);
	}
	assert_string_equal(pr_format_str(PR_FORMAT_GOBENCH), "gobench");
	assert_int_equal(pr_format_parse("yaml", &f, &err), PR_EINVAL);
	snprintf(want, sizeof(want), "unknown format 'yaml' (expected %s)",
	    pr_format_names(names, sizeof(names), 1));
	assert_string_equal(err.msg, want);
	assert_non_null(
	    strstr(err.msg, "auto, numbers, csv, hyperfine, gobench"));
	assert_string_equal(pr_format_str((enum pr_format)1000), "unknown");
	assert_int_equal(pr_format_parse("unknown", &f, &err), PR_EINVAL);
}

/*
 * The list of names for messages and help, from the registry's table: the
 * names in the table's order, the last after "or".  Only the first five
 * are pinned, so that a format added at the end needs no edit here.
 */
static void
test_format_list(void **state)
{
	char buf[256], all[256], small[20], last[64];
	const char *l;
	int n;

	(void)state;
	for (n = PR_FORMAT_PERFREG;
	     strcmp(pr_format_str((enum pr_format)(n + 1)), "unknown") != 0;
	     n++)
		continue;
	snprintf(last, sizeof(last), " or %s",
	    pr_format_str((enum pr_format)n));
	l = pr_format_names(buf, sizeof(buf), 0);
	assert_ptr_equal(l, buf);
	assert_int_equal(strncmp(buf, "numbers, csv, hyperfine, gobench", 32),
	    0);
	assert_string_equal(buf + strlen(buf) - strlen(last), last);
	if (n == PR_FORMAT_PERFREG)
		assert_string_equal(buf,
		    "numbers, csv, hyperfine, gobench or perfreg");
	/* With auto: the same list after "auto, ". */
	assert_string_equal(pr_format_names(buf, sizeof(buf), 1) + 6,
	    pr_format_names(all, sizeof(all), 0));
	assert_int_equal(strncmp(buf, "auto, numbers, csv", 18), 0);
	/* Cut at a name, never inside one. */
	assert_string_equal(pr_format_names(small, sizeof(small), 0),
	    "numbers, csv");
	assert_string_equal(pr_format_names(small, sizeof(small), 1),
	    "auto, numbers, csv");
	assert_string_equal(pr_format_names(small, 1, 1), "");
}

static enum pr_format
det(const char *s)
{
	return pr_format_detect(s, strlen(s));
}

static enum pr_format
det_file(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return pr_format_detect(buf, n);
}

static void
test_detect(void **state)
{
	(void)state;
	assert_int_equal(det(""), PR_FORMAT_AUTO);
	assert_int_equal(det(" \n\t\r\n"), PR_FORMAT_AUTO);
	assert_int_equal(det("{\"foo\": 1}"), PR_FORMAT_AUTO);
	assert_int_equal(det("1\n2\n3\n"), PR_FORMAT_NUMBERS);
	assert_int_equal(det("# comment\n\n 1.5 2\n"), PR_FORMAT_NUMBERS);
	/* A word without a delimiter: the numbers reader reports it. */
	assert_int_equal(det("time\n1\n"), PR_FORMAT_NUMBERS);
	assert_int_equal(det("n/a\n1\n"), PR_FORMAT_NUMBERS);
	/* Numbers with a label column are still numbers (ministat -C). */
	assert_int_equal(det("1.5\tfast\n"), PR_FORMAT_NUMBERS);
	assert_int_equal(det("1,2\n"), PR_FORMAT_NUMBERS);
	assert_int_equal(det("time,wall\n1,2\n"), PR_FORMAT_CSV);
	assert_int_equal(det("# c\n\nname;x\n"), PR_FORMAT_CSV);
	assert_int_equal(det("\xef\xbb\xbf\"a b\"\tc\n"), PR_FORMAT_CSV);
	assert_int_equal(det("{\"results\": [{\"command\": \"x\"}]}"),
	    PR_FORMAT_HYPERFINE);
	assert_int_equal(det("{\"metrics\": []}"), PR_FORMAT_PERFREG);
	/* The first of the two keys decides; a string value is no key. */
	assert_int_equal(det("{\"metrics\": [{\"name\": \"results\"}]}"),
	    PR_FORMAT_PERFREG);
	assert_int_equal(det("{\"x\": \"metrics\", \"results\" : []}"),
	    PR_FORMAT_HYPERFINE);
	assert_int_equal(det("goos: linux\n"), PR_FORMAT_GOBENCH);
	assert_int_equal(det("some log\nBenchmarkX-8 \t 100\t 12.5 ns/op\n"),
	    PR_FORMAT_GOBENCH);
	/* "Benchmarking" is a word, not a result; a CSV about benchmarks
	 * is a CSV. */
	assert_int_equal(det("Benchmarking 100 5 things\n"), PR_FORMAT_NUMBERS);
	assert_int_equal(det("Benchmark,ns/op\nX,5\n"), PR_FORMAT_CSV);

	assert_int_equal(det_file("tests/data/hyperfine/true.json"),
	    PR_FORMAT_HYPERFINE);
	assert_int_equal(det_file("tests/data/gobench/sum-count5.txt"),
	    PR_FORMAT_GOBENCH);
	assert_int_equal(det_file("tests/data/gobench/strs-verbose.txt"),
	    PR_FORMAT_GOBENCH);
	assert_int_equal(det_file("tests/data/csv/seed003-before.csv"),
	    PR_FORMAT_CSV);
	assert_int_equal(det_file("tests/data/csv/tabs.csv"), PR_FORMAT_CSV);
	assert_int_equal(det_file("tests/data/csv/semicolon.csv"),
	    PR_FORMAT_CSV);
	assert_int_equal(det_file("tests/data/perfreg/seed000-6.99.24.json"),
	    PR_FORMAT_PERFREG);
}

/* --- units --- */

static void
test_unit_direction(void **state)
{
	static const struct {
		const char *unit;
		enum pr_better want;
	} cases[] = {
		{ "s", PR_BETTER_LOWER },
		{ "ms", PR_BETTER_LOWER },
		{ "us", PR_BETTER_LOWER },
		{ "\xc2\xb5s", PR_BETTER_LOWER },
		{ "ns", PR_BETTER_LOWER },
		{ "sec", PR_BETTER_LOWER },
		{ "Seconds", PR_BETTER_LOWER },
		{ "ns/op", PR_BETTER_LOWER },
		{ "sec/op", PR_BETTER_LOWER },
		{ "B/op", PR_BETTER_LOWER },
		{ "allocs/op", PR_BETTER_LOWER },
		{ "cycles", PR_BETTER_LOWER },
		{ "ms/req", PR_BETTER_LOWER },
		{ "cycles/byte", PR_BETTER_LOWER },
		{ "MB/s", PR_BETTER_HIGHER },
		{ "B/s", PR_BETTER_HIGHER },
		{ "ops/s", PR_BETTER_HIGHER },
		{ "bits/s", PR_BETTER_HIGHER },
		{ "Gbits/sec", PR_BETTER_HIGHER },
		{ "kB/s", PR_BETTER_HIGHER },
		{ " req / min ", PR_BETTER_HIGHER },
		{ "bps", PR_BETTER_HIGHER },
		{ "Mbps", PR_BETTER_HIGHER },
		{ "GBps", PR_BETTER_HIGHER },
		{ "iops", PR_BETTER_HIGHER },
		{ "", PR_BETTER_UNKNOWN },
		{ "KiB", PR_BETTER_UNKNOWN },
		{ "bytes", PR_BETTER_UNKNOWN },
		{ "%", PR_BETTER_UNKNOWN },
		{ "GHz", PR_BETTER_UNKNOWN },
		{ "ps", PR_BETTER_UNKNOWN },
		{ "widgets", PR_BETTER_UNKNOWN },
		{ "widgets/fortnight", PR_BETTER_UNKNOWN },
	};
	enum pr_better b;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (pr_unit_direction(cases[i].unit) != cases[i].want)
			fail_msg("unit '%s': direction %d, want %d",
			    cases[i].unit, pr_unit_direction(cases[i].unit),
			    cases[i].want);
	assert_int_equal(pr_unit_direction(NULL), PR_BETTER_UNKNOWN);
	assert_true(pr_unit_known("KiB"));
	assert_true(pr_unit_known("%"));
	assert_true(pr_unit_known("ms"));
	assert_false(pr_unit_known("short"));
	assert_false(pr_unit_known(""));
	assert_int_equal(pr_better_from_str("Higher", &b), 0);
	assert_int_equal(b, PR_BETTER_HIGHER);
	assert_int_equal(pr_better_from_str("lower", &b), 0);
	assert_int_equal(b, PR_BETTER_LOWER);
	assert_int_equal(pr_better_from_str("", &b), 0);
	assert_int_equal(b, PR_BETTER_UNKNOWN);
	assert_int_equal(pr_better_from_str("faster", &b), -1);
}

static void
test_unit_label(void **state)
{
	static const struct {
		const char *label, *name, *unit;
	} cases[] = {
		{ "time (ms)", "time", "ms" },
		{ "  rate [MB/s] ", "rate", "MB/s" },
		{ "elapsed_s", "elapsed_s", "s" },
		{ "wall_ns", "wall_ns", "ns" },
		{ "rss_kib", "rss_kib", "KiB" },
		{ "size_bytes", "size_bytes", "bytes" },
		{ "tx_mbps", "tx_mbps", "Mbps" },
		{ "cpu_pct", "cpu_pct", "%" },
		{ "bytes_per_s", "bytes_per_s", "bytes/s" },
		{ "write_mb_per_sec", "write_mb_per_sec", "MB/s" },
		{ "allocs_per_op", "allocs_per_op", "allocs/op" },
		{ "variant", "variant", "" },
		{ "status", "status", "" },
		{ "per_s", "per_s", "s" },
		{ "_s", "_s", "" },
		{ "x_", "x_", "" },
		{ "(ms)", "(ms)", "" },
		{ "time ()", "time ()", "" },
		{ "", "", "" },
	};
	struct pr_unit_label ul;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *l = cases[i].label;

		pr_unit_from_label(l, strlen(l), &ul);
		if (ul.name_len != strlen(cases[i].name) ||
		    memcmp(l + ul.name_off, cases[i].name, ul.name_len) != 0 ||
		    strcmp(ul.unit, cases[i].unit) != 0)
			fail_msg("label '%s': name '%.*s' unit '%s', want "
				 "'%s' '%s'",
			    l, (int)ul.name_len, l + ul.name_off, ul.unit,
			    cases[i].name, cases[i].unit);
	}
}

/* --- hyperfine --- */

static void
test_hyperfine(void **state)
{
	/* The times of tests/data/hyperfine/true.json, as printed. */
	static const double true_times[] = { 0.0046731210000000006,
		0.0033004740000000003, 0.0033758380000000004, 0.003244518,
		0.004774222000000001, 0.002984374, 0.0047801630000000005,
		0.003462572, 0.003550048, 0.005332010000000001 };
	struct pr_dataset d;
	const struct pr_metric *m;

	(void)state;
	read_ok("tests/data/hyperfine/true.json", PR_FORMAT_AUTO, NULL, &d);
	/* The times, and the means of user and system time (issue 12:
	 * hyperfine records no per-run CPU times, only these). */
	assert_int_equal(d.n, 3);
	m = metric(&d, "true user");
	assert_string_equal(m->unit, "s");
	assert_int_equal(m->better, PR_BETTER_LOWER);
	assert_int_equal(m->values.n, 1);
	assert_true(m->values.v[0] == 0.0022570999999999997);
	assert_true(metric(&d, "true system")->values.v[0] == 0.0009877);
	m = metric(&d, "true");
	assert_string_equal(m->unit, "s");
	assert_int_equal(m->better, PR_BETTER_LOWER);
	check_values(m, true_times, 10);
	assert_string_equal(d.source, "tests/data/hyperfine/true.json");
	pr_dataset_release(&d);

	/* --command-name names the metrics; order is kept. */
	read_ok("tests/data/hyperfine/two.json", PR_FORMAT_HYPERFINE, NULL, &d);
	assert_int_equal(d.n, 6);
	assert_string_equal(d.metrics[0].name, "old");
	assert_string_equal(d.metrics[1].name, "old user");
	assert_string_equal(d.metrics[2].name, "old system");
	assert_string_equal(d.metrics[3].name, "new");
	assert_int_equal(d.metrics[0].values.n, 10);
	assert_int_equal(d.metrics[3].values.n, 10);
	assert_true(metric(&d, "new system")->values.v[0] == 0.0023612);
	pr_dataset_release(&d);

	/* A parameter scan: one metric per substituted command. */
	read_ok("tests/data/hyperfine/scan.json", PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(d.n, 9);
	assert_string_equal(d.metrics[0].name, "sleep 0.001");
	assert_string_equal(d.metrics[6].name, "sleep 0.003");
	assert_int_equal(d.metrics[6].values.n, 5);
	pr_dataset_release(&d);

	/* Runs that failed under -i are kept (exit codes are not read). */
	read_ok("tests/data/hyperfine/false.json", PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(metric(&d, "false")->values.n, 3);
	pr_dataset_release(&d);
}

static void
test_hyperfine_bad(void **state)
{
	static const struct bad cases[] = {
		{ "hf-word.json",
		    "{\n  \"results\": [\n    {\n      \"command\": \"x\",\n"
		    "      \"times\": [\n        0.5,\n        \"n/a\"\n"
		    "      ]\n    }\n  ]\n}\n",
		    PR_FORMAT_AUTO, PR_EPARSE, 7,
		    "expected a number, got the string 'n/a'" },
		{ "hf-notimes.json",
		    "{\"results\": [{\"command\": \"x\", \"mean\": 1}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 1, "no \"times\"" },
		{ "hf-empty-times.json",
		    "{\"results\": [\n{\"command\": \"x\", \"times\": []}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 2, "no values" },
		{ "hf-noresults.json", "{\"results\": []}", PR_FORMAT_AUTO,
		    PR_EPARSE, 1, "no results" },
		{ "hf-nocommand.json",
		    "{\"results\": [\n{\"times\": [1]},\n{\"command\": 5}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 2,
		    "\"command\" must be a non-empty string" },
		{ "hf-null.json",
		    "{\"results\": [{\"command\": \"x\",\n \"times\": [1, "
		    "null]}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 2,
		    "expected a number, got null" },
		/* NaN and 1e999 are not JSON numbers: jansson's error. */
		{ "hf-nan.json",
		    "{\"results\": [{\"command\": \"x\",\n\"times\": [NaN]}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 2, "invalid JSON" },
		{ "hf-inf.json",
		    "{\"results\": [{\"command\": \"x\",\n\n\"times\": "
		    "[1e999]}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 3, "invalid JSON" },
		/* Two benchmarks under one name are not pooled. */
		{ "hf-twice.json",
		    "{\"results\": [{\"command\": \"a\", \"times\": [1]},\n"
		    "{\"command\": \"a\", \"times\": [2]}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 2, "a second result named 'a'" },
	};

	(void)state;
	RUN_BAD(cases);
	/* Forced onto perfreg JSON. */
	read_fails("tests/data/perfreg/seed000-6.99.24.json",
	    PR_FORMAT_HYPERFINE, NULL, PR_EPARSE, NULL, 1, "no \"results\"");
}

/* --- gobench --- */

static void
test_gobench(void **state)
{
	static const double sum_ns[] = { 1609, 1756, 2425, 2487, 1798 };
	static const double sum_mbs[] = { 20366.34, 18664.40, 13514.57,
		13175.53, 18225.44 };
	static const double s16[] = { 3.501, 3.663, 3.585, 3.993, 4.435 };
	struct pr_dataset d;
	const struct pr_metric *m;

	(void)state;
	read_ok("tests/data/gobench/sum-count5.txt", PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(d.n, 10);
	assert_string_equal(d.metrics[0].name, "sum.Sum-2 ns/op");
	assert_string_equal(d.metrics[1].name, "sum.Sum-2 MB/s");
	assert_string_equal(d.metrics[2].name, "sum.Sum-2 B/op");
	assert_string_equal(d.metrics[3].name, "sum.Sum-2 allocs/op");
	assert_string_equal(d.metrics[4].name, "sum.SumSizes/size=16-2 ns/op");
	assert_string_equal(d.metrics[7].name,
	    "sum.SumSizes/size=1024-2 ns/op");
	m = metric(&d, "sum.Sum-2 ns/op");
	assert_string_equal(m->unit, "ns/op");
	assert_int_equal(m->better, PR_BETTER_LOWER);
	check_values(m, sum_ns, 5);
	m = metric(&d, "sum.Sum-2 MB/s");
	assert_string_equal(m->unit, "MB/s");
	assert_int_equal(m->better, PR_BETTER_HIGHER);
	check_values(m, sum_mbs, 5);
	m = metric(&d, "sum.Sum-2 allocs/op");
	assert_int_equal(m->better, PR_BETTER_LOWER);
	assert_int_equal(m->values.n, 5);
	assert_true(m->values.v[4] == 0);
	check_values(metric(&d, "sum.SumSizes/size=16-2 ns/op"), s16, 5);
	pr_dataset_release(&d);

	/* Two packages with a BenchmarkSum each: qualified names. */
	read_ok("tests/data/gobench/all-count3.txt", PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(metric(&d, "strs.Sum-2 ns/op")->values.n, 3);
	assert_int_equal(metric(&d, "sum.Sum-2 ns/op")->values.n, 3);
	assert_true(metric(&d, "sum.Sum-2 ns/op")->values.v[0] == 2882);
	assert_int_equal(metric(&d,
			     "strs.Concat-2 "
			     "words/op")
			     ->values.n,
	    3);
	assert_null(pr_dataset_find(&d, "Sum-2 ns/op"));
	pr_dataset_release(&d);

	/* go test -v: the name alone on a line, logs, "--- BENCH:". */
	read_ok("tests/data/gobench/strs-verbose.txt", PR_FORMAT_AUTO, NULL,
	    &d);
	assert_int_equal(d.n, 4);
	m = metric(&d, "strs.Concat-2 ns/op");
	assert_int_equal(m->values.n, 2);
	assert_true(m->values.v[1] == 390.7);
	pr_dataset_release(&d);
}

static void
test_gobench_units(void **state)
{
	static const struct bad cases[] = {
		{ "gb-unit-conflict.txt",
		    "Unit x/op better=higher\nUnit x/op better=lower\n"
		    "BenchmarkX 1 1 x/op\n",
		    PR_FORMAT_GOBENCH, PR_EPARSE, 2, "other direction" },
		{ "gb-unit-bad.txt",
		    "Unit x/op better=faster\nBenchmarkX 1 1 x/op\n",
		    PR_FORMAT_GOBENCH, PR_EPARSE, 1,
		    "better=higher or better=lower" },
		{ "gb-unit-kv.txt", "Unit x/op higher\nBenchmarkX 1 1 x/op\n",
		    PR_FORMAT_GOBENCH, PR_EPARSE, 1, "expected key=value" },
	};
	struct pr_dataset d;
	const char *p;

	(void)state;
	/* "Unit" metadata overrides the direction a unit implies, for
	 * metrics read before the line too. */
	p = put_str("gb-unit.txt",
	    "BenchmarkX 10 5 ns/op 3 hits/op\n"
	    "Unit hits/op better=higher assume=exact\n"
	    "Unit ns/op better=lower\n"
	    "BenchmarkX 10 6 ns/op 4 hits/op\n"
	    "Benchmark 1 2 things\n");
	read_ok(p, PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(d.n, 3);
	assert_int_equal(metric(&d, "X hits/op")->better, PR_BETTER_HIGHER);
	assert_int_equal(metric(&d, "X hits/op")->values.n, 2);
	assert_int_equal(metric(&d, "X ns/op")->better, PR_BETTER_LOWER);
	assert_int_equal(metric(&d, "Benchmark things")->better,
	    PR_BETTER_UNKNOWN);
	pr_dataset_release(&d);
	RUN_BAD(cases);
}

/* Package qualifiers: short, stable across inputs, whole on a clash. */
static void
test_gobench_packages(void **state)
{
	struct pr_dataset a, b;
	size_t i;
	const char *p;

	(void)state;
	/* A one-package file matches the same package in a file of two. */
	read_ok("tests/data/gobench/sum-count5.txt", PR_FORMAT_AUTO, NULL, &a);
	read_ok("tests/data/gobench/all-count3.txt", PR_FORMAT_AUTO, NULL, &b);
	for (i = 0; i < a.n; i++)
		if (pr_dataset_find(&b, a.metrics[i].name) == NULL)
			fail_msg("'%s' is not in all-count3.txt",
			    a.metrics[i].name);
	pr_dataset_release(&a);
	pr_dataset_release(&b);

	p = put_str("gb-pkgs.txt",
	    "pkg: example.com/a/util\nBenchmarkX 1 1 ns/op\n"
	    "pkg: example.com/b/util\nBenchmarkX 1 2 ns/op\n"
	    "pkg: example.com/m/v2\nBenchmarkX 1 3 ns/op\n"
	    "pkg: example.com/a/util\nBenchmarkX 1 4 ns/op\n"
	    "pkg:\nBenchmarkX 1 5 ns/op\n");
	read_ok(p, PR_FORMAT_AUTO, NULL, &a);
	assert_int_equal(a.n, 4);
	assert_int_equal(metric(&a, "example.com/a/util.X ns/op")->values.n, 2);
	assert_int_equal(metric(&a, "example.com/b/util.X ns/op")->values.n, 1);
	assert_true(metric(&a, "m.X ns/op")->values.v[0] == 3);
	/* "pkg:" with no value ends the qualification. */
	assert_true(metric(&a, "X ns/op")->values.v[0] == 5);
	pr_dataset_release(&a);
}

static void
test_gobench_bad(void **state)
{
	static const struct bad cases[] = {
		{ "gb-word.txt",
		    "goos: linux\nBenchmarkX-8 100 12 ns/op\n"
		    "BenchmarkX-8 100 n/a ns/op\n",
		    PR_FORMAT_AUTO, PR_EPARSE, 3,
		    "expected a number for benchmark 'X-8', got 'n/a'" },
		{ "gb-nan.txt", "BenchmarkX-8 100 NaN ns/op\n",
		    PR_FORMAT_GOBENCH, PR_EPARSE, 1,
		    "'NaN' for benchmark 'X-8' is not a finite number" },
		/* Issue 12: the last result cut short ("0 allocs/op" cut to
		 * "0 allocs/"), as `head -c -4` of a capture leaves it. */
		{ "gb-cut.txt",
		    "BenchmarkX-8 100 12 ns/op 0 B/op 0 allocs/op\n"
		    "BenchmarkX-8 100 13 ns/op 0 B/op 0 allocs/",
		    PR_FORMAT_AUTO, PR_EPARSE, 2, "a record cut short" },
		{ "gb-inf.txt",
		    "BenchmarkX-8 100 12 ns/op\nBenchmarkX-8 100 +Inf ns/op\n",
		    PR_FORMAT_GOBENCH, PR_EPARSE, 2, "not a finite number" },
		{ "gb-range.txt", "pkg: x\n\nBenchmarkX-8 100 1e999 ns/op\n",
		    PR_FORMAT_AUTO, PR_ERANGE, 3, "out of range: '1e999'" },
		{ "gb-iters.txt", "BenchmarkX-8 fast 12 ns/op\n",
		    PR_FORMAT_GOBENCH, PR_EPARSE, 1,
		    "expected an iteration count after 'BenchmarkX-8', got "
		    "'fast'" },
		{ "gb-nounit.txt", "BenchmarkX-8 100 12 ns/op 5\n",
		    PR_FORMAT_GOBENCH, PR_EPARSE, 1, "a value without a unit" },
		{ "gb-nomeas.txt", "goos: linux\nBenchmarkX-8 100\n",
		    PR_FORMAT_GOBENCH, PR_EPARSE, 2, "no measurements" },
		{ "gb-none.txt", "goos: linux\nPASS\nok x 1.0s\n",
		    PR_FORMAT_AUTO, PR_EPARSE, 0, "no Go benchmark results" },
	};

	(void)state;
	RUN_BAD(cases);
	/* Forced onto a CSV: no results. */
	read_fails("tests/data/csv/tabs.csv", PR_FORMAT_GOBENCH, NULL,
	    PR_EPARSE, NULL, 0, "no Go benchmark results");
}

/* --- csv --- */

static void
test_csv(void **state)
{
	static const double user[] = { 7.258, 7.222, 7.239 };
	static const double elapsed[] = { 7.69, 7.67, 7.69 };
	static const double user2[] = { 0.05, 0.06, 0.12 };
	struct pr_dataset d;
	const struct pr_metric *m;

	(void)state;
	read_ok("tests/data/csv/seed003-before.csv", PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(d.n, 4);
	assert_string_equal(d.metrics[0].name, "user_s");
	assert_string_equal(d.metrics[3].name, "cpu_pct");
	m = metric(&d, "user_s");
	assert_string_equal(m->unit, "s");
	assert_int_equal(m->better, PR_BETTER_LOWER);
	check_values(m, user, 3);
	check_values(metric(&d, "elapsed_s"), elapsed, 3);
	m = metric(&d, "cpu_pct");
	assert_string_equal(m->unit, "%");
	assert_int_equal(m->better, PR_BETTER_UNKNOWN);
	assert_null(pr_dataset_find(&d, "kernel"));
	pr_dataset_release(&d);

	/* Quoted header, "name (unit)", "name [unit]", CRLF. */
	read_ok("tests/data/csv/seed002-threaded.csv", PR_FORMAT_AUTO, NULL,
	    &d);
	assert_int_equal(d.n, 4);
	assert_string_equal(d.metrics[0].name, "user");
	assert_string_equal(d.metrics[0].unit, "s");
	m = metric(&d, "system");
	assert_int_equal(m->better, PR_BETTER_LOWER);
	check_values(metric(&d, "user"), user2, 3);
	m = metric(&d, "maxresident");
	assert_string_equal(m->unit, "KiB");
	assert_true(m->values.v[2] == 2460);
	pr_dataset_release(&d);

	/* Quoted fields with the delimiter, doubled quotes and a newline
	 * in them; spaces around numbers; unit suffixes. */
	read_ok("tests/data/csv/quoted.csv", PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(d.n, 3);
	m = metric(&d, "wall");
	assert_string_equal(m->unit, "ms");
	assert_true(m->values.n == 2 && m->values.v[1] == 13.25);
	m = metric(&d, "rss_kib");
	assert_string_equal(m->unit, "KiB");
	m = metric(&d, "bytes_per_s");
	assert_string_equal(m->unit, "bytes/s");
	assert_int_equal(m->better, PR_BETTER_HIGHER);
	assert_true(m->values.v[0] == 1.5e9 && m->values.v[1] == 1.4e9);
	pr_dataset_release(&d);

	read_ok("tests/data/csv/tabs.csv", PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(d.n, 2);
	assert_int_equal(metric(&d, "ops_per_s")->better, PR_BETTER_HIGHER);
	assert_string_equal(metric(&d, "ops_per_s")->unit, "ops/s");
	assert_int_equal(metric(&d, "wall_ns")->better, PR_BETTER_LOWER);
	pr_dataset_release(&d);

	read_ok("tests/data/csv/semicolon.csv", PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(d.n, 2);
	assert_int_equal(metric(&d, "rate")->better, PR_BETTER_HIGHER);
	assert_true(metric(&d, "time_ms")->values.v[1] == 1.75);
	pr_dataset_release(&d);
}

static void
test_csv_column(void **state)
{
	static const double elapsed[] = { 7.02, 7.02, 7.02 };
	struct pr_dataset d;

	(void)state;
	read_ok("tests/data/csv/seed003-after.csv", PR_FORMAT_AUTO, "elapsed_s",
	    &d);
	assert_int_equal(d.n, 1);
	check_values(metric(&d, "elapsed_s"), elapsed, 3);
	pr_dataset_release(&d);
	/* By the name without its unit, or the whole label. */
	read_ok("tests/data/csv/quoted.csv", PR_FORMAT_CSV, "wall", &d);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.metrics[0].unit, "ms");
	pr_dataset_release(&d);
	read_ok("tests/data/csv/quoted.csv", PR_FORMAT_CSV, "wall (ms)", &d);
	assert_int_equal(d.n, 1);
	pr_dataset_release(&d);

	read_fails("tests/data/csv/seed003-after.csv", PR_FORMAT_AUTO, "wall",
	    PR_ENOTFOUND, NULL, 2,
	    "no column 'wall' (the columns are 'kernel', 'user_s', 'sys_s', "
	    "'elapsed_s', 'cpu_pct')");
	/* Other formats: the metric of exactly that name. */
	read_ok("tests/data/gobench/sum-count5.txt", PR_FORMAT_AUTO,
	    "sum.Sum-2 MB/s", &d);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.metrics[0].values.n, 5);
	pr_dataset_release(&d);
	read_ok("tests/data/hyperfine/two.json", PR_FORMAT_AUTO, "new", &d);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.metrics[0].name, "new");
	pr_dataset_release(&d);
	read_fails("tests/data/perfreg/seed003-values.json", PR_FORMAT_AUTO,
	    "sys", PR_ENOTFOUND, NULL, 0,
	    "no metric 'sys' (the metrics are 'user', 'elapsed', 'cpu')");
	/* A label column chosen: its words are errors. */
	read_fails("tests/data/csv/seed003-after.csv", PR_FORMAT_AUTO, "kernel",
	    PR_EPARSE, NULL, 3,
	    "expected a number in column 'kernel', got 'rdrand16'");
}

/* A `run` column: a table of runs, the column a label, every metric
 * marked a row a run and kept in row order; --column run reads it. */
static void
test_csv_runs(void **state)
{
	static const double wall[] = { 0.7801, 0.7721, 0.6921 };
	static const double run[] = { 1, 2, 3 };
	struct pr_dataset d;
	size_t i;

	(void)state;
	read_ok("tests/data/explain/runs-base.csv", PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(d.n, 4);
	assert_null(pr_dataset_find(&d, "run"));
	for (i = 0; i < d.n; i++) {
		assert_true(d.metrics[i].flags & PR_METRIC_RUN_ROW);
		assert_int_equal(d.metrics[i].values.n, 12);
	}
	assert_string_equal(d.metrics[0].name, "wall_s");
	assert_memory_equal(d.metrics[0].values.v, wall, sizeof(wall));
	pr_dataset_release(&d);
	/* Any case; a unit makes it a metric like any other. */
	read_ok(put_str("runs.csv", "RUN,x\n1,5\n2,6\n"), PR_FORMAT_AUTO, NULL,
	    &d);
	assert_int_equal(d.n, 1);
	assert_true(d.metrics[0].flags & PR_METRIC_RUN_ROW);
	pr_dataset_release(&d);
	read_ok(put_str("runs.csv", "run_s,x\n1,5\n2,6\n"), PR_FORMAT_AUTO,
	    NULL, &d);
	assert_int_equal(d.n, 2);
	assert_false(d.metrics[0].flags & PR_METRIC_RUN_ROW);
	assert_false(d.metrics[1].flags & PR_METRIC_RUN_ROW);
	pr_dataset_release(&d);
	/* Without one: no mark. */
	read_ok("tests/data/explain/base.csv", PR_FORMAT_AUTO, NULL, &d);
	assert_false(d.metrics[0].flags & PR_METRIC_RUN_ROW);
	pr_dataset_release(&d);
	/* Selected, it is a metric. */
	read_ok("tests/data/explain/runs-base.csv", PR_FORMAT_AUTO, "run", &d);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.metrics[0].name, "run");
	assert_memory_equal(d.metrics[0].values.v, run, sizeof(run));
	pr_dataset_release(&d);
}

static void
test_csv_bad(void **state)
{
	static const struct bad cases[] = {
		{ "c-word.csv", "a,b\n1,2\n3,x\n", PR_FORMAT_AUTO, PR_EPARSE, 3,
		    "expected a number in column 'b', got 'x'" },
		{ "c-nan.csv", "name,t\nx,1\ny,nan\n", PR_FORMAT_AUTO,
		    PR_EPARSE, 3,
		    "'nan' in column 't' is not a finite number" },
		/* NaN first still makes the column numeric, and an error. */
		{ "c-nan1.csv", "name,t\nx,NaN\ny,1\n", PR_FORMAT_AUTO,
		    PR_EPARSE, 2, "not a finite number" },
		{ "c-inf.csv", "name,t\nx,1\ny,-Infinity\n", PR_FORMAT_AUTO,
		    PR_EPARSE, 3, "not a finite number" },
		{ "c-range.csv", "name,t\nx,1\n\ny,1e999\n", PR_FORMAT_AUTO,
		    PR_ERANGE, 4, "out of range: '1e999' in column 't'" },
		{ "c-empty-cell.csv", "name,t\nx,1\ny,\n", PR_FORMAT_AUTO,
		    PR_EPARSE, 3, "empty value in column 't'" },
		/* An empty cell before the column shows itself numeric. */
		{ "c-empty-first.csv", "name,t\nx, \ny,2\n", PR_FORMAT_AUTO,
		    PR_EPARSE, 2, "empty value in column 't'" },
		{ "c-fields.csv", "a,b\n1,2\n3\n", PR_FORMAT_AUTO, PR_EPARSE, 3,
		    "row has 1 field, the header has 2" },
		{ "c-quote.csv", "a,b\n1,2\n3,\"4\n5,6\n", PR_FORMAT_AUTO,
		    PR_EPARSE, 3, "quoted field not closed" },
		{ "c-after-quote.csv", "a,b\n1,\"2\"x\n", PR_FORMAT_AUTO,
		    PR_EPARSE, 2, "unexpected text after a closing quote" },
		{ "c-dup.csv", "time (s),time (ms)\n1,2\n", PR_FORMAT_AUTO,
		    PR_EPARSE, 1, "two columns named 'time'" },
		{ "c-norows.csv", "# x\na,b\n\n", PR_FORMAT_AUTO, PR_EPARSE, 2,
		    "no data rows" },
		{ "c-nonum.csv", "a,b\nx,y\n", PR_FORMAT_AUTO, PR_EPARSE, 1,
		    "no numeric column (the columns are 'a', 'b')" },
		{ "c-ctl.csv", "a,b\n1,2\x01\n", PR_FORMAT_AUTO, PR_EPARSE, 2,
		    "control character 0x01" },
		{ "c-utf8.csv", "a,b\xff\n1,2\n", PR_FORMAT_AUTO, PR_EPARSE, 1,
		    "invalid UTF-8" },
		{ "c-comments.csv", "# only\n\n# comments\n", PR_FORMAT_CSV,
		    PR_EPARSE, 0, "no header line" },
	};
	struct pr_dataset d;
	const char *p;

	(void)state;
	RUN_BAD(cases);
	/* A decimal comma under a unit label is an error, not a label. */
	read_fails("tests/data/csv/semicolon-decimal-comma.csv", PR_FORMAT_AUTO,
	    NULL, PR_EPARSE, NULL, 2,
	    "expected a number in column 'time_ms', got '1,5'");

	/* Tolerated: an index column without a label, blank lines, a
	 * label column with numbers later, quotes inside unquoted text. */
	p = put_str("c-ok.csv", ",v,t\n0,a\"b,1\n\n1,7,2\n   \n2,c,3\n");
	read_ok(p, PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(d.n, 1);
	assert_int_equal(metric(&d, "t")->values.n, 3);
	pr_dataset_release(&d);
}

/*
 * A header of 30,000 columns (issue 12: compare took 91 s, the pairwise
 * search for namesakes and the metric lookups being quadratic): read
 * whole, and the namesakes reported are the pair a scan from the left
 * meets first, as before.
 */
static void
test_csv_wide(void **state)
{
	struct pr_buf b = PR_BUF_INIT((size_t)1 << 26);
	struct pr_dataset d;
	const char *p;
	size_t i, n = 30000;

	(void)state;
	for (i = 0; i < n; i++)
		assert_int_equal(pr_buf_addf(&b, NULL, "%sc%zu", i ? "," : "",
				     i),
		    PR_OK);
	assert_int_equal(pr_buf_adds(&b, "\n", NULL), PR_OK);
	for (i = 0; i < n; i++)
		assert_int_equal(pr_buf_addf(&b, NULL, "%s%zu", i ? "," : "",
				     i),
		    PR_OK);
	assert_int_equal(pr_buf_adds(&b, "\n", NULL), PR_OK);
	p = put_file("wide.csv", b.data, b.len);
	read_ok(p, PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(d.n, n);
	assert_true(metric(&d, "c29999")->values.v[0] == 29999);
	assert_true(metric(&d, "c0")->values.v[0] == 0);
	pr_dataset_release(&d);

	/* Namesakes: c7 at 8 and (as "c7 (s)") 20001, c5 at 6, 25001 and
	 * 29001; the first pair met from the left is c7's, at 20001. */
	pr_buf_reset(&b);
	for (i = 0; i < n; i++) {
		if (i == 20000)
			p = "c7 (s)";
		else if (i == 25000 || i == 29000)
			p = "c5";
		else
			p = NULL;
		if (p != NULL)
			assert_int_equal(pr_buf_addf(&b, NULL, "%s%s",
					     i ? "," : "", p),
			    PR_OK);
		else
			assert_int_equal(pr_buf_addf(&b, NULL, "%sc%zu",
					     i ? "," : "", i),
			    PR_OK);
	}
	assert_int_equal(pr_buf_adds(&b, "\n1\n", NULL), PR_OK);
	p = put_file("wide-dup.csv", b.data, b.len);
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_EPARSE, NULL, 1,
	    "two columns named 'c7' (columns 8 and 20001)");
	pr_buf_release(&b);
}

/* Reading several inputs into one dataset; a failed read adds nothing. */
static void
test_accumulate(void **state)
{
	static const double user[] = { 7.258, 7.222, 7.239, 7.019, 7.019,
		7.028 };
	struct pr_dataset d;
	struct pr_error err;

	(void)state;
	pr_dataset_init(&d);
	assert_int_equal(pr_read_dataset("tests/data/csv/seed003-before.csv",
			     NULL, &d, &err),
	    PR_OK);
	assert_int_equal(pr_read_dataset("tests/data/csv/seed003-after.csv",
			     NULL, &d, &err),
	    PR_OK);
	assert_int_equal(d.n, 4);
	check_values(metric(&d, "user_s"), user, 6);
	assert_string_equal(d.source, "tests/data/csv/seed003-before.csv");
	/* The after file has a bad last row: nothing of it is added. */
	assert_int_equal(pr_read_dataset(put_str("acc-bad.csv",
					     "user_s,x_s\n1,2\n3,y\n"),
			     NULL, &d, &err),
	    PR_EPARSE);
	assert_int_equal(d.n, 4);
	check_values(metric(&d, "user_s"), user, 6);
	/* Same name, other unit: an error, and nothing added. */
	assert_int_equal(pr_read_dataset(put_str("acc-unit.csv",
					     "user_s (ms),z\n1,2\n"),
			     NULL, &d, &err),
	    PR_EPARSE);
	assert_int_equal(pr_read_dataset(put_str("acc-unit2.csv",
					     "user (ms),user_s\n1,2\n"),
			     NULL, &d, &err),
	    PR_OK);
	assert_int_equal(metric(&d, "user_s")->values.n, 7);
	assert_string_equal(metric(&d, "user")->unit, "ms");
	assert_int_equal(pr_read_dataset(put_str("acc-unit3.csv",
					     "user (s),q\n1,2\n"),
			     NULL, &d, &err),
	    PR_EPARSE);
	assert_non_null(strstr(err.msg, "has unit 's' here but 'ms'"));
	assert_int_equal(metric(&d, "user")->values.n, 1);
	pr_dataset_release(&d);
}

/* --- perfreg JSON --- */

static void
test_perfreg(void **state)
{
	static const double rx[] = { 35.9, 36.1, 36.0, 35.8 };
	struct pr_dataset d;
	const struct pr_metric *m;

	(void)state;
	read_ok("tests/data/perfreg/seed000-6.99.24.json", PR_FORMAT_AUTO, NULL,
	    &d);
	assert_int_equal(d.n, 5);
	assert_string_equal(d.metrics[0].name, "des-ede3-cbc 16 bytes");
	assert_string_equal(d.metrics[4].name, "des-ede3-cbc 8192 bytes");
	m = &d.metrics[4];
	assert_string_equal(m->unit, "kB/s");
	assert_int_equal(m->better, PR_BETTER_HIGHER);
	assert_int_equal(m->values.n, 1);
	assert_true(m->values.v[0] == 79916.91);
	pr_dataset_release(&d);

	read_ok("tests/data/perfreg/seed003-values.json", PR_FORMAT_AUTO, NULL,
	    &d);
	assert_int_equal(d.n, 3);
	assert_int_equal(metric(&d, "user")->better, PR_BETTER_LOWER);
	/* No "better": from the unit; null and "%": unknown. */
	assert_int_equal(metric(&d, "elapsed")->better, PR_BETTER_LOWER);
	assert_int_equal(metric(&d, "cpu")->better, PR_BETTER_UNKNOWN);
	assert_true(metric(&d, "cpu")->values.v[2] == 94);
	pr_dataset_release(&d);

	/* Repeated names accumulate, "value" and "values" alike. */
	read_ok("tests/data/perfreg/repeated.json", PR_FORMAT_PERFREG, NULL,
	    &d);
	assert_int_equal(d.n, 2);
	m = metric(&d, "rx");
	check_values(m, rx, 4);
	assert_int_equal(m->better, PR_BETTER_HIGHER);
	assert_int_equal(metric(&d, "tx")->values.n, 1);
	pr_dataset_release(&d);
}

static void
test_perfreg_bad(void **state)
{
	static const struct bad cases[] = {
		{ "p-word.json",
		    "{\"metrics\": [\n"
		    "  {\"name\": \"a\", \"values\": [1, 2]},\n"
		    "  {\"name\": \"b\",\n"
		    "   \"values\": [1,\n"
		    "      \"fast\"]}\n"
		    "]}\n",
		    PR_FORMAT_AUTO, PR_EPARSE, 5, "got the string 'fast'" },
		{ "p-both.json",
		    "{\"metrics\": [{\"name\": \"a\", \"value\": 1, "
		    "\"values\": [1]}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 1,
		    "exactly one of \"values\" and \"value\"" },
		{ "p-neither.json", "{\"metrics\": [\n\n{\"name\": \"a\"}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 3, "exactly one of" },
		{ "p-noname.json", "{\"metrics\": [{\"value\": 1}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 1,
		    "\"name\" must be a non-empty string" },
		{ "p-better.json",
		    "{\"metrics\": [{\"name\": \"a\", \"value\": 1,\n"
		    "\"better\": \"up\"}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 2,
		    "\"better\" must be \"higher\" or \"lower\"" },
		{ "p-unit-clash.json",
		    "{\"metrics\": [{\"name\": \"a\", \"value\": 1, \"unit\": "
		    "\"s\"},\n{\"name\": \"a\", \"value\": 1, \"unit\": "
		    "\"ms\"}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 2,
		    "appears again with unit 'ms' (was 's')" },
		{ "p-dir-clash.json",
		    "{\"metrics\": [{\"name\": \"a\", \"value\": 1, "
		    "\"better\": \"higher\"},\n{\"name\": \"a\", \"value\": "
		    "1, \"better\": \"lower\"}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 2, "other direction" },
		{ "p-value-str.json",
		    "{\"metrics\": [{\"name\": \"a\", \"value\": \"1\"}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 1,
		    "\"value\" must be a number" },
		{ "p-dupkey.json",
		    "{\"metrics\": [{\"name\": \"a\",\n \"value\": 1, "
		    "\"value\": 2}]}",
		    PR_FORMAT_AUTO, PR_EPARSE, 2, "duplicate object key" },
		{ "p-empty.json", "{\"metrics\": []}", PR_FORMAT_AUTO,
		    PR_EPARSE, 1, "no metrics" },
		{ "p-notarray.json", "{\"metrics\": {}}", PR_FORMAT_AUTO,
		    PR_EPARSE, 1, "\"metrics\" must be an array" },
		{ "p-array.json", "[1, 2]", PR_FORMAT_PERFREG, PR_EPARSE, 1,
		    "expected a JSON object" },
		{ "p-other.json", "{\"foo\": 1}", PR_FORMAT_AUTO, PR_EPARSE, 1,
		    "neither hyperfine's" },
	};
	struct pr_dataset d;
	const char *p;

	(void)state;
	RUN_BAD(cases);
	/* Big integers are doubles, not errors. */
	p = put_str("p-bigint.json",
	    "{\"metrics\": [{\"name\": \"a\", \"value\": "
	    "123456789012345678901234567890}]}");
	read_ok(p, PR_FORMAT_AUTO, NULL, &d);
	assert_true(
	    d.metrics[0].values.v[0] == 123456789012345678901234567890.0);
	pr_dataset_release(&d);
}

/* --- input-level bad input: every format --- */

static void
test_empty(void **state)
{
	static const enum pr_format fs[] = { PR_FORMAT_AUTO, PR_FORMAT_CSV,
		PR_FORMAT_HYPERFINE, PR_FORMAT_GOBENCH, PR_FORMAT_PERFREG };
	const char *p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
		p = put_file("empty.txt", "", 0);
		read_fails(p, fs[i], NULL, PR_EPARSE, NULL, 0, "empty input");
	}
	p = put_str("blank.txt", "\n  \n\t\n");
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_EPARSE, NULL, 0,
	    "only blank lines");
	read_fails(p, PR_FORMAT_PERFREG, NULL, PR_EPARSE, NULL, 0,
	    "only blank lines");
	/* A byte-order mark alone (and then blanks) is blank too, not JSON of
	 * no known kind, in detection and in the JSON readers. */
	p = put_str("bom.txt", "\xef\xbb\xbf");
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_EPARSE, NULL, 0,
	    "only blank lines");
	read_fails(p, PR_FORMAT_PERFREG, NULL, PR_EPARSE, NULL, 0,
	    "only blank lines");
	p = put_str("bom-blank.txt", "\xef\xbb\xbf \n\t\n");
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_EPARSE, NULL, 0,
	    "only blank lines");
	read_fails(p, PR_FORMAT_HYPERFINE, NULL, PR_EPARSE, NULL, 0,
	    "only blank lines");
}

/* A JSON file behind a UTF-8 byte-order mark reads as without one (its
 * detection skipped the mark, and jansson refuses it). */
static void
test_bom_json(void **state)
{
	static const char *const files[] = { "tests/data/hyperfine/true.json",
		"tests/cli/data/compare/higher.json" };
	static const enum pr_format fs[] = { PR_FORMAT_HYPERFINE,
		PR_FORMAT_PERFREG };
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct pr_dataset plain, bom;
		struct pr_error err;
		struct pr_buf b;
		FILE *f = fopen(files[i], "rb");
		char chunk[4096];
		size_t n;

		assert_non_null(f);
		pr_buf_init(&b, 1 << 20);
		assert_int_equal(pr_buf_add(&b, "\xef\xbb\xbf", 3, &err),
		    PR_OK);
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			assert_int_equal(pr_buf_add(&b, chunk, n, &err), PR_OK);
		fclose(f);
		read_ok(files[i], PR_FORMAT_AUTO, NULL, &plain);
		for (j = 0; j < 2; j++) {
			const char *p = put_file("bom.json", b.data, b.len);

			read_ok(p, j == 0 ? PR_FORMAT_AUTO : fs[i], NULL, &bom);
			assert_int_equal(bom.n, plain.n);
			assert_string_equal(bom.metrics[0].name,
			    plain.metrics[0].name);
			assert_int_equal(bom.metrics[0].values.n,
			    plain.metrics[0].values.n);
			assert_true(bom.metrics[0].values.v[0] ==
			    plain.metrics[0].values.v[0]);
			pr_dataset_release(&bom);
		}
		pr_dataset_release(&plain);
		pr_buf_release(&b);
	}
}

static void
test_missing_and_dir(void **state)
{
	struct pr_dataset d;
	struct pr_error err;
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/does-not-exist.csv", tmpdir);
	assert_int_equal(read_as(path, PR_FORMAT_AUTO, NULL, &d, &err),
	    PR_ENOTFOUND);
	assert_string_equal(err.file, path);
	assert_int_equal(err.sys_errno, ENOENT);
	assert_non_null(strstr(err.msg, "no such file"));
	pr_dataset_release(&d);
	assert_int_equal(read_as(path, PR_FORMAT_CSV, NULL, &d, &err),
	    PR_ENOTFOUND);
	pr_dataset_release(&d);

	assert_int_equal(read_as(tmpdir, PR_FORMAT_AUTO, NULL, &d, &err),
	    PR_EIO);
	assert_string_equal(err.file, tmpdir);
	assert_int_equal(err.sys_errno, EISDIR);
	assert_non_null(strstr(err.msg, "is a directory"));
	pr_dataset_release(&d);
	assert_int_equal(read_as(tmpdir, PR_FORMAT_HYPERFINE, NULL, &d, &err),
	    PR_EIO);
	pr_dataset_release(&d);
}

/* A 10 MB line: an error for the text formats, at its line. */
static void
test_long_line(void **state)
{
	size_t n = 10u << 20, i;
	char *buf = malloc(n + 64);
	const char *p;
	size_t at;

	(void)state;
	assert_non_null(buf);
	at = (size_t)snprintf(buf, 64, "a,b\n1,2\n3,");
	for (i = 0; i < n; i++)
		buf[at + i] = '7';
	buf[at + n] = '\n';
	p = put_file("long.csv", buf, at + n + 1);
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_ELIMIT, NULL, 3,
	    "line longer than");
	at = (size_t)snprintf(buf, 64, "goos: linux\nBenchmarkX 1 ");
	for (i = 0; i < n; i++)
		buf[at + i] = '7';
	memcpy(buf + at + n, " ns/op\n", 7);
	p = put_file("long.txt", buf, at + n + 7);
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_ELIMIT, NULL, 2,
	    "line longer than");
	/* JSON has no line limit, only the file cap: a 10 MB junk line is
	 * a syntax error at line 1. */
	at = (size_t)snprintf(buf, 64, "{\"metrics\": [");
	for (i = 0; i < n; i++)
		buf[at + i] = '7';
	buf[at + n] = 'x';
	p = put_file("long.json", buf, at + n + 1);
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_EPARSE, NULL, 1, "invalid JSON");
	free(buf);
}

static void
test_binary(void **state)
{
	static const enum pr_format fs[] = { PR_FORMAT_AUTO, PR_FORMAT_CSV,
		PR_FORMAT_HYPERFINE, PR_FORMAT_GOBENCH, PR_FORMAT_PERFREG };
	struct pr_dataset d;
	struct pr_error err;
	struct pr_rng r;
	unsigned char junk[4096];
	const char *p;
	size_t i, k;
	int round;

	(void)state;
	p = put_file("nul.csv", "a,b\n1,2\n3,\0\n", 12);
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_EPARSE, NULL, 3, "NUL byte");
	read_fails(p, PR_FORMAT_CSV, NULL, PR_EPARSE, NULL, 3, "NUL byte");
	p = put_file("nul.txt", "BenchmarkX 1 2 ns/op\n\0", 22);
	read_fails(p, PR_FORMAT_GOBENCH, NULL, PR_EPARSE, NULL, 2, "NUL byte");
	p = put_file("nul.json", "{\"metrics\": \n\0}", 15);
	read_fails(p, PR_FORMAT_PERFREG, NULL, PR_EPARSE, NULL, 2,
	    "invalid JSON");
	p = put_str("utf8.json",
	    "{\"metrics\": [{\"name\": \"a\xc3\x28\", \"value\": 1}]}");
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_EPARSE, NULL, 1, "invalid JSON");
	p = put_str("utf8.txt", "BenchmarkX\xfe 1 2 ns/op\n");
	read_fails(p, PR_FORMAT_GOBENCH, NULL, PR_EPARSE, NULL, 1,
	    "invalid UTF-8");

	/* Random junk in every format: an error, never a crash. */
	pr_rng_seed(&r, 20240601);
	for (round = 0; round < 50; round++) {
		for (i = 0; i < sizeof(junk); i++)
			junk[i] = (unsigned char)pr_rng_below(&r, 256);
		if (round % 2)
			junk[0] = '{';
		p = put_file("junk.bin", junk, sizeof(junk));
		for (k = 0; k < sizeof(fs) / sizeof(fs[0]); k++) {
			if (read_as(p, fs[k], NULL, &d, &err) == PR_OK)
				fail_msg("junk round %d read as %s", round,
				    pr_format_str(fs[k]));
			assert_string_equal(err.file, p);
			pr_dataset_release(&d);
		}
	}
}

static void
test_truncated_json(void **state)
{
	static char buf[1 << 16];
	FILE *f = fopen("tests/data/hyperfine/two.json", "rb");
	const char *p;
	size_t n, cut;
	struct pr_dataset d;
	struct pr_error err;

	(void)state;
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	/* Cut in the middle: jansson's error at the last line there is. */
	p = put_file("trunc.json", buf, n / 2);
	{
		long lines = 1;

		for (cut = 0; cut < n / 2; cut++)
			lines += buf[cut] == '\n';
		read_fails(p, PR_FORMAT_AUTO, NULL, PR_EPARSE, NULL, lines,
		    "invalid JSON");
	}
	/* Every cut of the file is an error at a line within the cut. */
	for (cut = 1; cut < n - 1; cut += 7) {
		p = put_file("trunc.json", buf, cut);
		assert_int_not_equal(read_as(p, PR_FORMAT_HYPERFINE, NULL, &d,
					 &err),
		    PR_OK);
		assert_string_equal(err.file, p);
		pr_dataset_release(&d);
	}
}

/* --- numbers (through pr_read_numbers), standard input, memory --- */

static void
test_numbers(void **state)
{
	static const double want[] = { 1.5, 2, 3e-3 };
	struct pr_read_opts o;
	struct pr_dataset d;
	struct pr_error err;
	const char *p;

	(void)state;
	p = put_str("n.txt", "# wall seconds\n1.5\n\n2\n3e-3\n");
	read_ok(p, PR_FORMAT_AUTO, NULL, &d);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.metrics[0].name, "value");
	assert_string_equal(d.metrics[0].unit, "");
	assert_int_equal(d.metrics[0].better, PR_BETTER_UNKNOWN);
	check_values(&d.metrics[0], want, 3);
	pr_dataset_release(&d);

	pr_read_opts_init(&o);
	o.name = "wall";
	o.format = PR_FORMAT_NUMBERS;
	pr_dataset_init(&d);
	assert_int_equal(pr_read_dataset(p, &o, &d, &err), PR_OK);
	check_values(metric(&d, "wall"), want, 3);
	/* Reading again into the same dataset accumulates. */
	o.format = PR_FORMAT_AUTO;
	assert_int_equal(pr_read_dataset(p, &o, &d, &err), PR_OK);
	assert_int_equal(d.n, 1);
	assert_int_equal(metric(&d, "wall")->values.n, 6);
	pr_dataset_release(&d);

	p = put_str("n-word.txt", "1\n2\nn/a\n");
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_EPARSE, NULL, 3, "n/a");
	p = put_str("n-word1.txt", "time\n2\n");
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_EPARSE, NULL, 1, "time");
	p = put_str("n-range.txt", "1\n1e999\n");
	read_fails(p, PR_FORMAT_AUTO, NULL, PR_ERANGE, NULL, 2, "1e999");
	p = put_str("n-comments.txt", "# nothing\n");
	assert_int_not_equal(read_as(p, PR_FORMAT_AUTO, NULL, &d, &err), PR_OK);
	assert_string_equal(err.file, p);
	pr_dataset_release(&d);
}

/* Runs pr_read_dataset("-") with path as standard input. */
static enum pr_status
read_stdin(const char *path, enum pr_format f, struct pr_dataset *d,
    struct pr_error *err)
{
	int saved = dup(0), fd = open(path, O_RDONLY);
	enum pr_status st;

	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	st = read_as("-", f, NULL, d, err);
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
	return st;
}

static void
test_stdin(void **state)
{
	struct pr_dataset d;
	struct pr_error err;
	const char *p;
	int fds[2];
	pid_t pid;

	(void)state;
	assert_int_equal(read_stdin("tests/data/csv/seed003-before.csv",
			     PR_FORMAT_AUTO, &d, &err),
	    PR_OK);
	assert_int_equal(d.n, 4);
	assert_string_equal(d.source, "<stdin>");
	pr_dataset_release(&d);

	/* Numbers from a pipe: detected, then read from the copy. */
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static const char text[] = "4\n5\n6\n";

		close(fds[0]);
		_exit(write(fds[1], text, sizeof(text) - 1) ==
			    (ssize_t)sizeof(text) - 1
			? 0
			: 1);
	}
	close(fds[1]);
	{
		int saved = dup(0);

		assert_int_equal(dup2(fds[0], 0), 0);
		close(fds[0]);
		assert_int_equal(read_as("-", PR_FORMAT_AUTO, NULL, &d, &err),
		    PR_OK);
		assert_int_equal(dup2(saved, 0), 0);
		close(saved);
	}
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_int_equal(metric(&d, "value")->values.n, 3);
	assert_true(metric(&d, "value")->values.v[2] == 6);
	pr_dataset_release(&d);

	p = put_str("stdin-bad.txt", "1\n2\nx\n");
	assert_int_equal(read_stdin(p, PR_FORMAT_AUTO, &d, &err), PR_EPARSE);
	assert_string_equal(err.file, "<stdin>");
	assert_int_equal(err.line, 3);
	pr_dataset_release(&d);
	p = put_str("stdin-bad.csv", "a,b\n1,2\n3,x\n");
	assert_int_equal(read_stdin(p, PR_FORMAT_AUTO, &d, &err), PR_EPARSE);
	assert_string_equal(err.file, "<stdin>");
	assert_int_equal(err.line, 3);
	pr_dataset_release(&d);
}

static void
test_mem(void **state)
{
	static const char csv[] = "a,b (ms)\n1,2\n3,4\n";
	static const char gob[] = "BenchmarkX-4 10 5.5 ns/op\n";
	struct pr_dataset d;
	struct pr_error err;

	(void)state;
	pr_dataset_init(&d);
	assert_int_equal(pr_read_dataset_mem("mem.csv", csv, sizeof(csv) - 1,
			     NULL, &d, &err),
	    PR_OK);
	assert_int_equal(d.n, 2);
	assert_string_equal(metric(&d, "b")->unit, "ms");
	assert_string_equal(d.source, "mem.csv");
	/* Not NUL-terminated: only len bytes are read ("... 5.5"). */
	assert_int_equal(pr_read_dataset_mem("mem.txt", gob, sizeof(gob) - 8,
			     NULL, &d, &err),
	    PR_EPARSE);
	assert_string_equal(err.file, "mem.txt");
	assert_int_equal(err.line, 1);
	assert_int_equal(pr_read_dataset_mem("mem.txt", gob, sizeof(gob) - 1,
			     NULL, &d, &err),
	    PR_OK);
	assert_true(metric(&d, "X-4 ns/op")->values.v[0] == 5.5);
	pr_dataset_release(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_format_list),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_unit_direction),
		cmocka_unit_test(test_unit_label),
		cmocka_unit_test(test_hyperfine),
		cmocka_unit_test(test_hyperfine_bad),
		cmocka_unit_test(test_gobench),
		cmocka_unit_test(test_gobench_units),
		cmocka_unit_test(test_gobench_packages),
		cmocka_unit_test(test_gobench_bad),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_csv_column),
		cmocka_unit_test(test_csv_runs),
		cmocka_unit_test(test_csv_bad),
		cmocka_unit_test(test_csv_wide),
		cmocka_unit_test(test_accumulate),
		cmocka_unit_test(test_perfreg),
		cmocka_unit_test(test_perfreg_bad),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_bom_json),
		cmocka_unit_test(test_missing_and_dir),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_truncated_json),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_mem),
	};

	return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
