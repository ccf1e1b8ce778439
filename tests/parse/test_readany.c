/*
 * tests/parse/test_readany.c - one side of `perfreg compare` read by
 * pr_read_any (parse/readany.c): the seeds' raw outputs in examples/ (csh
 * and GNU time, openssl speed, iperf3) and an iperf3 -J capture read as
 * `perfreg parse` reads them, with the parsers' result marks; what the
 * formats of perfreg/read.h read (numbers, CSV, hyperfine) read as
 * before; a file no format recognises keeps the numbers reader's error;
 * a damaged tool output gets its parser's error; --parse FORMAT forces
 * one parser; --column keeps one parsed metric, or names the ones there
 * are.  Every value is compared with the captured text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfreg/dataset.h"
#include "perfreg/read.h"

static char tmpdir[64];

/* Reads path into d (initialised here) with column and parse. */
static enum pr_status
rd(const char *path, const char *column, const char *parse,
    struct pr_dataset *d, const char **used, struct pr_error *err)
{
	struct pr_read_opts o;

	pr_dataset_init(d);
	pr_read_opts_init(&o);
	o.column = column;
	pr_error_clear(err);
	return pr_read_any(path, &o, parse, d, used, err);
}

static void
ok(enum pr_status st, const struct pr_error *err)
{
	if (st != PR_OK)
		fail_msg("%s:%ld: %s", err->file, err->line, err->msg);
}

/* The metric called name of d, with n values. */
static const struct pr_metric *
metric(struct pr_dataset *d, const char *name, size_t n)
{
	const struct pr_metric *m = pr_dataset_find(d, name);

	if (m == NULL)
		fail_msg("no metric '%s'", name);
	assert_int_equal(m->values.n, n);
	return m;
}

/* A file in tmpdir holding text. */
static const char *
file_with(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Seed 003: csh time, three runs; elapsed is the result, cpu has no
 * direction. */
static void
test_csh_time(void **state)
{
	struct pr_dataset d;
	struct pr_error err;
	const struct pr_metric *m;
	const char *used;

	(void)state;
	ok(rd("examples/003-dragonfly-rdrand/rdrand-512.txt", NULL, NULL, &d,
	       &used, &err),
	    &err);
	assert_string_equal(used, "time");
	m = metric(&d, "user", 3);
	assert_true(m->values.v[0] == 7.258);
	assert_int_equal(m->flags, 0);
	m = metric(&d, "elapsed", 3);
	assert_true(m->values.v[0] == 7.69);
	assert_string_equal(m->unit, "s");
	assert_int_equal(m->better, PR_BETTER_LOWER);
	assert_int_equal(m->flags, PR_METRIC_RESULT);
	m = metric(&d, "cpu", 3);
	assert_int_equal(m->better, PR_BETTER_UNKNOWN);
	assert_string_equal(d.source,
	    "examples/003-dragonfly-rdrand/rdrand-512.txt");
	pr_dataset_release(&d);
}

/* Seed 002: GNU time's default output, three runs. */
static void
test_gnu_time(void **state)
{
	struct pr_dataset d;
	struct pr_error err;
	const struct pr_metric *m;
	const char *used;

	(void)state;
	ok(rd("examples/002-caam/tasklet-time.txt", NULL, NULL, &d, &used,
	       &err),
	    &err);
	assert_string_equal(used, "time");
	m = metric(&d, "elapsed", 3);
	assert_true(m->values.v[0] == 4.83);
	assert_true(m->values.v[1] == 5.16);
	assert_true(m->values.v[2] == 4.87);
	assert_int_equal(m->flags, PR_METRIC_RESULT);
	m = metric(&d, "sys", 3);
	assert_true(m->values.v[1] == 2.47);
	pr_dataset_release(&d);
	/* --column keeps one metric; one that is not there is named with
	 * the ones that are. */
	ok(rd("examples/002-caam/tasklet-time.txt", "sys", NULL, &d, &used,
	       &err),
	    &err);
	assert_int_equal(d.n, 1);
	metric(&d, "sys", 3);
	pr_dataset_release(&d);
	assert_int_equal(rd("examples/002-caam/tasklet-time.txt", "elapsd",
			     NULL, &d, &used, &err),
	    PR_ENOTFOUND);
	assert_string_equal(err.file, "examples/002-caam/tasklet-time.txt");
	assert_non_null(strstr(err.msg,
	    "no metric 'elapsd' in this time output (it has: user, sys, "
	    "elapsed, cpu,"));
	assert_int_equal(d.n, 0);
	pr_dataset_release(&d);
}

/* Seeds 000 and 001: openssl speed and iperf3, one run each. */
static void
test_openssl_iperf3(void **state)
{
	struct pr_dataset d;
	struct pr_error err;
	const struct pr_metric *m;
	const char *used;

	(void)state;
	ok(rd("examples/000-netbsd-crypto/netbsd-6.99.24.txt", NULL, NULL, &d,
	       &used, &err),
	    &err);
	assert_string_equal(used, "openssl");
	m = metric(&d, "des-ede3-cbc/16B", 1);
	assert_true(m->values.v[0] == 586200);
	assert_string_equal(m->unit, "B/s");
	assert_int_equal(m->flags, PR_METRIC_RESULT);
	m = metric(&d, "des-ede3-cbc/16B/ops_per_s", 1);
	assert_int_equal(m->flags, 0);
	pr_dataset_release(&d);

	ok(rd("examples/001-freebsd-erms/std-5416s.txt", NULL, NULL, &d, &used,
	       &err),
	    &err);
	assert_string_equal(used, "iperf3");
	m = metric(&d, "receiver_bitrate", 1);
	assert_true(m->values.v[0] == 37.2e9);
	assert_int_equal(m->flags, PR_METRIC_RESULT);
	metric(&d, "sender_retransmits", 1);
	pr_dataset_release(&d);

	/* iperf3 -J is JSON that the JSON readers of read.h refuse. */
	ok(rd("tests/data/iperf3/tcp-client.json", NULL, NULL, &d, &used, &err),
	    &err);
	assert_string_equal(used, "iperf3");
	assert_int_equal(pr_dataset_find(&d, "receiver_bitrate")->flags,
	    PR_METRIC_RESULT);
	pr_dataset_release(&d);
}

/* What the formats of perfreg/read.h read reads as before. */
static void
test_formats_first(void **state)
{
	struct pr_dataset d;
	struct pr_error err;
	const char *used = "x";

	(void)state;
	ok(rd("examples/002-caam/tasklet.csv", NULL, NULL, &d, &used, &err),
	    &err);
	assert_null(used);
	metric(&d, "elapsed", 3);
	pr_dataset_release(&d);
	ok(rd("tests/data/hyperfine/two.json", NULL, NULL, &d, &used, &err),
	    &err);
	assert_null(used);
	assert_true(d.n > 0);
	pr_dataset_release(&d);
	ok(rd(file_with("n.txt", "1\n2\n3\n"), NULL, NULL, &d, &used, &err),
	    &err);
	assert_null(used);
	metric(&d, "value", 3);
	pr_dataset_release(&d);
}

/* A file that is neither numbers nor a tool's output keeps the numbers
 * reader's error; a damaged time output gets time's. */
static void
test_errors(void **state)
{
	struct pr_dataset d;
	struct pr_error err;
	const char *used, *path;

	(void)state;
	path = file_with("junk.txt", "1\n2\nn/a\n");
	assert_int_equal(rd(path, NULL, NULL, &d, &used, &err), PR_EPARSE);
	assert_int_equal(err.line, 3);
	assert_non_null(strstr(err.msg, "expected a number, got 'n/a'"));
	assert_null(used);
	assert_int_equal(d.n, 0);
	pr_dataset_release(&d);

	/* GNU time's record with a word where its system time belongs. */
	path = file_with("bad-time.txt",
	    "0.08user 2.53system 0:04.83elapsed 54%CPU (0avgtext+0avgdata "
	    "2468maxresident)k\n"
	    "0.09user 2.x7system 0:05.16elapsed 49%CPU (0avgtext+0avgdata "
	    "2368maxresident)k\n");
	assert_int_equal(rd(path, NULL, NULL, &d, &used, &err), PR_EPARSE);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.file, path);
	assert_null(strstr(err.msg, "expected a number"));
	assert_int_equal(d.n, 0);
	pr_dataset_release(&d);

	/* Standard input gets no second try (it cannot be read twice). */
	assert_non_null(
	    freopen("examples/002-caam/tasklet-time.txt", "r", stdin));
	assert_int_equal(rd("-", NULL, NULL, &d, &used, &err), PR_EPARSE);
	assert_non_null(strstr(err.msg, "expected a number"));
	pr_dataset_release(&d);
}

/* --parse FORMAT: that parser alone, on any input it is given. */
static void
test_forced(void **state)
{
	struct pr_dataset d;
	struct pr_error err;
	const char *used;

	(void)state;
	ok(rd("examples/002-caam/tasklet-time.txt", NULL, "time", &d, &used,
	       &err),
	    &err);
	assert_string_equal(used, "time");
	metric(&d, "elapsed", 3);
	pr_dataset_release(&d);
	/* Forced, standard input is read by the parser. */
	assert_non_null(
	    freopen("examples/003-dragonfly-rdrand/rdrand-16.txt", "r", stdin));
	ok(rd("-", NULL, "auto", &d, &used, &err), &err);
	assert_string_equal(used, "time");
	assert_string_equal(d.source, "<stdin>");
	metric(&d, "elapsed", 3);
	pr_dataset_release(&d);
	/* A CSV file is not openssl's output. */
	assert_int_equal(rd("examples/002-caam/tasklet.csv", NULL, "openssl",
			     &d, &used, &err),
	    PR_EPARSE);
	assert_string_equal(err.file, "examples/002-caam/tasklet.csv");
	pr_dataset_release(&d);
	assert_int_equal(rd("examples/002-caam/tasklet.csv", NULL, "nosuch", &d,
			     &used, &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "unknown format 'nosuch'"));
	pr_dataset_release(&d);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfreg-readany-XXXXXX");
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csh_time),
		cmocka_unit_test(test_gnu_time),
		cmocka_unit_test(test_openssl_iperf3),
		cmocka_unit_test(test_formats_first),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_forced),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
