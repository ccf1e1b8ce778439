/*
 * tests/stats/test_primary.c - primary and side metrics (stats/primary.c):
 * the roles the parsers' marks give on real captured outputs (openssl
 * speed -elapsed, iperf3, csh time, dd, hyperfine, --metric and
 * --derive), the wall time when nothing is marked, every directed
 * metric of plain input, the user's --primary and its unknown name,
 * constant metrics, and the two families against R's p.adjust
 * (tests/stats/data/primary.txt from gen_primary.R): Holm over the
 * primaries, Benjamini-Hochberg over the side metrics, the metrics not
 * tested in neither.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/dataset.h"
#include "perfreg/parse.h"
#include "perfreg/primary.h"
#include "perfreg/verdict.h"

#define FIXTURE "tests/stats/data/primary.txt"

/* Parses path with format fmt (NULL: auto) and the given --metric and
 * --derive specs (may be NULL) into d, and fills role. */
static enum pr_role *
parse_roles(struct pr_dataset *d, const char *path, const char *fmt,
    const char *metric, const char *derive)
{
	struct pr_parser *p;
	struct pr_error err;
	enum pr_role *role;

	pr_dataset_init(d);
	assert_int_equal(pr_parser_new(&p, &err), PR_OK);
	if (fmt != NULL)
		assert_int_equal(pr_parser_set_format(p, fmt, &err), PR_OK);
	if (metric != NULL)
		assert_int_equal(pr_parser_add_metric(p, metric, &err), PR_OK);
	if (derive != NULL)
		assert_int_equal(pr_parser_add_derive(p, derive, &err), PR_OK);
	if (pr_parse_file(p, path, 0, d, NULL, &err) != PR_OK)
		fail_msg("%s: %s", path, err.msg);
	pr_parser_free(p);
	role = calloc(d->n + 1, sizeof(*role));
	assert_non_null(role);
	assert_int_equal(pr_primary_roles(d, NULL, 0, role, &err), PR_OK);
	return role;
}

/* The role of the metric called name (which must be there). */
static enum pr_role
role_of(struct pr_dataset *d, const enum pr_role *role, const char *name)
{
	struct pr_metric *m = pr_dataset_find(d, name);

	if (m == NULL)
		fail_msg("no metric '%s'", name);
	return role[m - d->metrics];
}

static size_t
count(const struct pr_dataset *d, const enum pr_role *role, enum pr_role r)
{
	size_t i, k = 0;

	for (i = 0; i < d->n; i++)
		k += role[i] == r;
	return k;
}

/* openssl speed -elapsed: the throughput table is the result; the
 * "Doing" lines' counts and rates are the same quantity, side. */
static void
test_openssl(void **state)
{
	struct pr_dataset d;
	enum pr_role *role;
	size_t i;

	(void)state;
	role = parse_roles(&d, "tests/data/openssl/speed-elapsed-des-ede3.txt",
	    NULL, NULL, NULL);
	assert_int_equal(role_of(&d, role, "des-ede3/16B"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "des-ede3/16B/ops"), PR_ROLE_SIDE);
	assert_int_equal(role_of(&d, role, "des-ede3/16B/ops_per_s"),
	    PR_ROLE_SIDE);
	for (i = 0; i < d.n; i++)
		assert_int_equal(role[i],
		    strstr(d.metrics[i].name, "/ops") == NULL &&
			    d.metrics[i].values.n > 0
			? PR_ROLE_PRIMARY
			: PR_ROLE_SIDE);
	assert_true(count(&d, role, PR_ROLE_PRIMARY) >= 5);
	free(role);
	pr_dataset_release(&d);
}

/* iperf3: the receiver's bitrate alone; the sender's (the same
 * quantity), the transfers, retransmits and CPU are side. */
static void
test_iperf3(void **state)
{
	static const char *const files[] = { "tests/data/iperf3/tcp-client.txt",
		"tests/data/iperf3/tcp-client.json",
		"tests/data/iperf3/tcp-server.txt" };
	struct pr_dataset d;
	enum pr_role *role;
	size_t f;

	(void)state;
	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		role = parse_roles(&d, files[f], NULL, NULL, NULL);
		assert_int_equal(role_of(&d, role, "receiver_bitrate"),
		    PR_ROLE_PRIMARY);
		if (pr_dataset_find(&d, "sender_bitrate") != NULL)
			assert_int_equal(role_of(&d, role, "sender_bitrate"),
			    PR_ROLE_SIDE);
		assert_int_equal(count(&d, role, PR_ROLE_PRIMARY), 1);
		free(role);
		pr_dataset_release(&d);
	}
}

/* csh time (captured with dd's summary, as seed 002 runs them): the
 * elapsed time and dd's rate; user, sys and the CPU share (whose
 * direction is assumed) are side. */
static void
test_csh_time(void **state)
{
	struct pr_dataset d;
	enum pr_role *role;

	(void)state;
	role =
	    parse_roles(&d, "tests/data/time/tcsh-time.txt", NULL, NULL, NULL);
	assert_int_equal(role_of(&d, role, "elapsed"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "user"), PR_ROLE_SIDE);
	assert_int_equal(role_of(&d, role, "cpu"), PR_ROLE_SIDE);
	assert_int_equal(role_of(&d, role, "dd_rate"), PR_ROLE_PRIMARY);
	assert_int_equal(count(&d, role, PR_ROLE_PRIMARY), 2);
	free(role);
	pr_dataset_release(&d);
}

/* dd: the rate; bytes and seconds are side. */
static void
test_dd(void **state)
{
	struct pr_dataset d;
	enum pr_role *role;

	(void)state;
	role = parse_roles(&d, "tests/data/dd/dd-100M.txt", NULL, NULL, NULL);
	assert_int_equal(role_of(&d, role, "dd_rate"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "dd_bytes"), PR_ROLE_SIDE);
	assert_int_equal(role_of(&d, role, "dd_seconds"), PR_ROLE_SIDE);
	free(role);
	pr_dataset_release(&d);
}

/* hyperfine: each command's time; the CPU means are side. */
static void
test_hyperfine(void **state)
{
	struct pr_dataset d;
	enum pr_role *role;
	size_t i;

	(void)state;
	role =
	    parse_roles(&d, "tests/data/hyperfine/two.json", NULL, NULL, NULL);
	assert_true(count(&d, role, PR_ROLE_PRIMARY) == 2);
	for (i = 0; i < d.n; i++) {
		const char *n = d.metrics[i].name;
		size_t len = strlen(n);
		int cpu = (len > 5 && strcmp(n + len - 5, " user") == 0) ||
		    (len > 7 && strcmp(n + len - 7, " system") == 0);

		assert_int_equal(role[i], cpu ? PR_ROLE_SIDE : PR_ROLE_PRIMARY);
	}
	free(role);
	pr_dataset_release(&d);
}

/* A --metric and a --derive figure are results: the user asked. */
static void
test_user_metrics(void **state)
{
	struct pr_dataset d;
	enum pr_role *role;

	(void)state;
	role = parse_roles(&d, "tests/data/time/tcsh-time.txt", "time",
	    "fault=([0-9]+)pf:count:lower", "per_user=elapsed/user:x:lower");
	assert_int_equal(role_of(&d, role, "fault"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "per_user"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "elapsed"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "sys"), PR_ROLE_SIDE);
	free(role);
	pr_dataset_release(&d);
}

/* Nothing marked: the wall time; no wall time either: every directed
 * metric, and every metric when no direction is known. */
static void
test_fallbacks(void **state)
{
	struct pr_dataset d;
	struct pr_error err;
	enum pr_role role[4];

	(void)state;
	pr_dataset_init(&d);
	assert_int_equal(pr_dataset_add(&d, "wall_s", "s", PR_BETTER_LOWER, 1,
			     &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d, "user_s", "s", PR_BETTER_LOWER, 1,
			     &err),
	    PR_OK);
	assert_int_equal(pr_primary_roles(&d, NULL, 0, role, &err), PR_OK);
	assert_int_equal(role[0], PR_ROLE_PRIMARY);
	assert_int_equal(role[1], PR_ROLE_SIDE);
	pr_dataset_release(&d);

	pr_dataset_init(&d);
	assert_int_equal(pr_dataset_add(&d, "elapsed", "s", PR_BETTER_LOWER, 1,
			     &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d, "mystery", "", PR_BETTER_UNKNOWN, 1,
			     &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d, "MBps", "MB/s", PR_BETTER_HIGHER, 1,
			     &err),
	    PR_OK);
	/* No values: never primary. */
	assert_int_equal(pr_dataset_add(&d, "absent", "s", PR_BETTER_LOWER, 1,
			     &err),
	    PR_OK);
	d.metrics[3].values.n = 0;
	assert_int_equal(pr_primary_roles(&d, NULL, 0, role, &err), PR_OK);
	assert_int_equal(role[0], PR_ROLE_PRIMARY);
	assert_int_equal(role[1], PR_ROLE_SIDE);
	assert_int_equal(role[2], PR_ROLE_PRIMARY);
	assert_int_equal(role[3], PR_ROLE_SIDE);
	d.metrics[0].better = PR_BETTER_UNKNOWN;
	d.metrics[2].better = PR_BETTER_UNKNOWN;
	assert_int_equal(pr_primary_roles(&d, NULL, 0, role, &err), PR_OK);
	assert_int_equal(role[0], PR_ROLE_PRIMARY);
	assert_int_equal(role[1], PR_ROLE_PRIMARY);
	assert_int_equal(role[2], PR_ROLE_PRIMARY);
	pr_dataset_release(&d);
}

/* --primary chooses, even a metric whose direction is assumed; a name
 * that is not there is an error naming it. */
static void
test_chosen(void **state)
{
	static const char *const names[] = { "cpu", "sys" };
	static const char *const bad[] = { "elapsed", "elapsd" };
	struct pr_dataset d;
	struct pr_error err;
	enum pr_role *role;

	(void)state;
	role =
	    parse_roles(&d, "tests/data/time/tcsh-time.txt", NULL, NULL, NULL);
	assert_int_equal(pr_primary_roles(&d, names, 2, role, &err), PR_OK);
	assert_int_equal(role_of(&d, role, "cpu"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "sys"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "elapsed"), PR_ROLE_SIDE);
	assert_int_equal(count(&d, role, PR_ROLE_PRIMARY), 2);
	pr_error_clear(&err);
	assert_int_equal(pr_primary_roles(&d, bad, 2, role, &err),
	    PR_ENOTFOUND);
	assert_string_equal(err.msg, "--primary: no metric 'elapsd'");
	/* Unchanged on error. */
	assert_int_equal(role_of(&d, role, "cpu"), PR_ROLE_PRIMARY);
	free(role);
	pr_dataset_release(&d);
}

/* Beside perfreg's own wall_s (run --parse time), time's elapsed, the
 * same quantity at 0.01 s, is a side metric and wall_s primary; a dd
 * rate stays primary; without wall_s (a file) elapsed is primary. */
static void
test_tool_wall(void **state)
{
	struct pr_dataset d;
	struct pr_error err;
	enum pr_role *role;

	(void)state;
	role = parse_roles(&d, "examples/002-caam/tasklet-time.txt", "time",
	    NULL, NULL);
	assert_int_equal(role_of(&d, role, "elapsed"), PR_ROLE_PRIMARY);
	free(role);
	assert_int_equal(pr_dataset_add(&d, "wall_s", "s", PR_BETTER_LOWER, 4.9,
			     &err),
	    PR_OK);
	role = calloc(d.n + 1, sizeof(*role));
	assert_non_null(role);
	assert_int_equal(pr_primary_roles(&d, NULL, 0, role, &err), PR_OK);
	assert_int_equal(role_of(&d, role, "wall_s"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "elapsed"), PR_ROLE_SIDE);
	assert_int_equal(count(&d, role, PR_ROLE_PRIMARY), 1);
	free(role);
	pr_dataset_release(&d);

	role =
	    parse_roles(&d, "tests/data/time/tcsh-time.txt", NULL, NULL, NULL);
	free(role);
	assert_int_equal(pr_dataset_add(&d, "wall_s", "s", PR_BETTER_LOWER,
			     0.05, &err),
	    PR_OK);
	role = calloc(d.n + 1, sizeof(*role));
	assert_non_null(role);
	assert_int_equal(pr_primary_roles(&d, NULL, 0, role, &err), PR_OK);
	assert_int_equal(role_of(&d, role, "dd_rate"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "elapsed"), PR_ROLE_SIDE);
	assert_int_equal(role_of(&d, role, "wall_s"), PR_ROLE_SIDE);
	assert_int_equal(count(&d, role, PR_ROLE_PRIMARY), 1);
	free(role);
	pr_dataset_release(&d);
}

/* The primaries stored with a campaign's sessions: used when the user
 * names none, left out when the data lack them, the rules when none of
 * them is there; the user's names override them. */
static void
test_stored(void **state)
{
	static const char *const stored[] = { "nosuch", "sys", "cpu" };
	static const char *const absent[] = { "nosuch" };
	static const char *const user[] = { "user" };
	struct pr_dataset d;
	struct pr_error err;
	enum pr_role *role, rule[64];

	(void)state;
	role =
	    parse_roles(&d, "tests/data/time/tcsh-time.txt", NULL, NULL, NULL);
	assert_true(d.n <= 64);
	pr_error_clear(&err);
	assert_int_equal(pr_primary_roles_stored(&d, NULL, 0, stored, 3, role,
			     &err),
	    PR_OK);
	assert_int_equal(role_of(&d, role, "sys"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "cpu"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "elapsed"), PR_ROLE_SIDE);
	assert_int_equal(count(&d, role, PR_ROLE_PRIMARY), 2);
	/* Only a name the data lack: the parser's marks decide (elapsed). */
	assert_int_equal(pr_primary_roles_stored(&d, NULL, 0, absent, 1, role,
			     &err),
	    PR_OK);
	assert_int_equal(role_of(&d, role, "elapsed"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "sys"), PR_ROLE_SIDE);
	assert_int_equal(pr_primary_roles(&d, NULL, 0, rule, &err), PR_OK);
	assert_memory_equal(role, rule, d.n * sizeof(*role));
	/* The user's --primary comes first. */
	assert_int_equal(pr_primary_roles_stored(&d, user, 1, stored, 3, role,
			     &err),
	    PR_OK);
	assert_int_equal(role_of(&d, role, "user"), PR_ROLE_PRIMARY);
	assert_int_equal(role_of(&d, role, "sys"), PR_ROLE_SIDE);
	assert_int_equal(count(&d, role, PR_ROLE_PRIMARY), 1);
	assert_int_equal(pr_primary_roles_stored(&d, absent, 1, stored, 3, role,
			     &err),
	    PR_ENOTFOUND);
	free(role);
	pr_dataset_release(&d);
}

/* The summary of the n sorted values v. */
static struct pr_summary
sum(const double *v, size_t n)
{
	struct pr_summary s;

	memset(&s, 0, sizeof(s));
	if (n > 0)
		assert_int_equal(pr_summary_compute(v, n, &s, NULL), PR_OK);
	return s;
}

static void
test_constant(void **state)
{
	static const double z[] = { 0, 0, 0 }, five[] = { 5, 5 },
			    v[] = { 5, 5, 5.5 };
	struct pr_summary sz = sum(z, 3), sf = sum(five, 2), sv = sum(v, 3),
			  s0 = sum(z, 0);

	(void)state;
	assert_true(pr_primary_constant(&sz, &sz));
	assert_true(pr_primary_constant(&sf, &sf));
	assert_false(pr_primary_constant(&sz, &sf));
	assert_false(pr_primary_constant(&sf, &sv));
	assert_false(pr_primary_constant(&sv, &sf));
	assert_false(pr_primary_constant(&s0, &s0));
	assert_string_equal(pr_role_str(PR_ROLE_NOT_TESTED), "not tested");
}

/* A tested comparison with p-value p, 10% slower (so significant unless
 * its adjusted p says otherwise). */
static struct pr_comparison
cmp_with(double p)
{
	struct pr_comparison c;

	memset(&c, 0, sizeof(c));
	c.tested = 1;
	c.p_value = c.p_adjusted = p;
	c.holm_m = 1;
	c.have_ci = 1;
	c.ci_lo_pct = 2;
	c.ci_hi_pct = 18;
	c.change_pct = 10;
	c.have_change = 1;
	c.direction = 1;
	c.better = PR_BETTER_LOWER;
	c.conf = 0.95;
	c.equivalence_pct = 1;
	c.verdict = PR_VERDICT_REGRESSION;
	return c;
}

/* The families against R: primaries {0.01, 0.04, 0.03} by Holm, side
 * {0.01, 0.02, 0.03, 0.5} by BH, interleaved with a metric not tested
 * (p 0.001, untouched) and a comparison without a test. */
static void
test_families(void **state)
{
	enum pr_role role[9];
	struct pr_comparison c[9];
	double want[9], p, adj;
	size_t i, mp, ms, kp = 0, ks = 0;
	const size_t at_p[] = { 0, 3, 5 }, at_s[] = { 1, 2, 6, 8 };
	char fam[16];
	FILE *fp;

	(void)state;
	fp = fopen(FIXTURE, "r");
	assert_non_null(fp);
	for (i = 0; i < 9; i++) {
		role[i] = PR_ROLE_SIDE;
		want[i] = -1;
	}
	while (fscanf(fp, "%15s", fam) == 1) {
		if (fam[0] == '#') {
			while (
			    (i = (size_t)fgetc(fp)) != '\n' && i != (size_t)EOF)
				;
			continue;
		}
		assert_int_equal(fscanf(fp, "%lf %lf", &p, &adj), 2);
		if (strcmp(fam, "holm") == 0) {
			assert_true(kp < 3);
			i = at_p[kp++];
			role[i] = PR_ROLE_PRIMARY;
		} else {
			assert_true(ks < 4);
			i = at_s[ks++];
		}
		c[i] = cmp_with(p);
		want[i] = adj;
	}
	fclose(fp);
	assert_int_equal(kp, 3);
	assert_int_equal(ks, 4);
	c[4] = cmp_with(0.001);
	role[4] = PR_ROLE_NOT_TESTED;
	c[7] = cmp_with(1);
	c[7].tested = 0;
	c[7].verdict = PR_VERDICT_INCONCLUSIVE;
	role[7] = PR_ROLE_PRIMARY;
	pr_primary_correct(c, role, 9, NULL, &mp, &ms);
	assert_int_equal(mp, 3);
	assert_int_equal(ms, 4);
	for (i = 0; i < 9; i++) {
		if (want[i] < 0)
			continue;
		if (!(fabs(c[i].p_adjusted - want[i]) <= 1e-12 * want[i]))
			fail_msg("comparison %zu: adjusted %.17g, R %.17g", i,
			    c[i].p_adjusted, want[i]);
		assert_int_equal(c[i].holm_m,
		    role[i] == PR_ROLE_PRIMARY ? 3 : 4);
		assert_int_equal((c[i].notes & PR_NOTE_HOLM) != 0,
		    role[i] == PR_ROLE_PRIMARY);
		assert_int_equal((c[i].notes & PR_NOTE_BH) != 0,
		    role[i] == PR_ROLE_SIDE);
		assert_int_equal(c[i].verdict,
		    want[i] < 0.05 ? PR_VERDICT_REGRESSION
				   : PR_VERDICT_INCONCLUSIVE);
	}
	/* Not tested and untested: as they were. */
	assert_true(c[4].p_adjusted == 0.001);
	assert_int_equal(c[4].holm_m, 1);
	assert_int_equal(c[7].verdict, PR_VERDICT_INCONCLUSIVE);
	assert_int_equal(c[7].holm_m, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_openssl),
		cmocka_unit_test(test_iperf3),
		cmocka_unit_test(test_csh_time),
		cmocka_unit_test(test_dd),
		cmocka_unit_test(test_hyperfine),
		cmocka_unit_test(test_user_metrics),
		cmocka_unit_test(test_fallbacks),
		cmocka_unit_test(test_chosen),
		cmocka_unit_test(test_stored),
		cmocka_unit_test(test_tool_wall),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_families),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
