/*
 * tests/report/test_report_stat.c - the report of `perfreg stat`:
 * ministat's table of critical values (against the values measured from
 * ministat, tests/data/stat/ministat_t.txt), the confidence levels and
 * symbols, the plot (ministat's geometry, stacking for three or more
 * samples, scaling of tall stacks), undefined figures, the JSON writer,
 * and bad arguments.  The figures are compared with ministat itself by
 * tests/cli/stat_vs_ministat.sh.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "perfreg/buf.h"
#include "perfreg/report_stat.h"

#define FIXTURE "tests/data/stat/ministat_t.txt"

static void
test_t_table(void **state)
{
	FILE *f = fopen(FIXTURE, "r");
	char line[256];
	double t[PR_STAT_NCONF];
	int df, rows = 0, i;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (line[0] == '#')
			continue;
		assert_int_equal(sscanf(line, "%d %lf %lf %lf %lf %lf %lf", &df,
				     &t[0], &t[1], &t[2], &t[3], &t[4], &t[5]),
		    7);
		for (i = 0; i < PR_STAT_NCONF; i++)
			assert_true(pr_stat_ministat_t((size_t)df, i) == t[i]);
		rows++;
		/* Row 101 stands for every df above 100. */
		if (df == 101)
			for (i = 0; i < PR_STAT_NCONF; i++) {
				assert_true(pr_stat_ministat_t(150, i) == t[i]);
				assert_true(
				    pr_stat_ministat_t(100000, i) == t[i]);
			}
	}
	fclose(f);
	assert_int_equal(rows, 101);
	/* The quirks the table keeps: 99.5% is 99.8%, df 10 is off. */
	assert_true(pr_stat_ministat_t(1, 5) == 318.309);
	assert_true(pr_stat_ministat_t(10, 5) == 4.143);
	assert_true(pr_stat_ministat_t(4, 2) == 2.776);
	assert_true(pr_stat_ministat_t(0, 2) == 0);
	assert_true(pr_stat_ministat_t(5, 6) == 0);
	assert_true(pr_stat_ministat_t(5, -1) == 0);
}

static void
test_conf_and_symbols(void **state)
{
	static const double pct[] = { 80, 90, 95, 98, 99, 99.5 };
	int i;

	(void)state;
	for (i = 0; i < PR_STAT_NCONF; i++) {
		assert_int_equal(pr_stat_conf_index(pct[i]), i);
		assert_true(pr_stat_conf_pct(i) == pct[i]);
	}
	assert_int_equal(pr_stat_conf_index(97), -1);
	assert_int_equal(pr_stat_conf_index(99.4), -1);
	assert_int_equal(pr_stat_conf_index(0), -1);
	assert_true(isnan(pr_stat_conf_pct(6)));
	assert_int_equal(pr_stat_conf_index(95.0), PR_STAT_CONF_DEFAULT);
	assert_int_equal(pr_stat_symbol(0), 'x');
	assert_int_equal(pr_stat_symbol(1), '+');
	assert_int_equal(pr_stat_symbol(2), '*');
	assert_int_equal(pr_stat_symbol(6), 'O');
	assert_int_equal(pr_stat_symbol(7), 'o');
	assert_int_equal(pr_stat_symbol(15), 'Z');
	assert_int_equal(pr_stat_symbol(16), 'x');
	assert_int_equal(pr_stat_symbol(17), '+');
}

/* Runs the analysis and the text writer; returns the report. */
static char *
report(const struct pr_stat_input *in, size_t n, const struct pr_stat_opts *o,
    int json)
{
	struct pr_buf b = PR_BUF_INIT(1 << 24);
	struct pr_error err;
	struct pr_stat st;
	char *s;

	assert_int_equal(pr_stat_analyse(in, n, o, &st, &err), PR_OK);
	if (json)
		assert_int_equal(pr_stat_format_json(&st, &b, &err), PR_OK);
	else
		assert_int_equal(pr_stat_format_text(&st, &b, &err), PR_OK);
	pr_stat_release(&st);
	s = pr_buf_detach(&b, NULL);
	assert_non_null(s);
	return s;
}

/* The JSON report of in, parsed; the caller json_decref()s it. */
static json_t *
report_json(const struct pr_stat_input *in, size_t n,
    const struct pr_stat_opts *o)
{
	json_error_t jerr;
	json_t *root;
	char *s;

	s = report(in, n, o, 1);
	root = json_loads(s, 0, &jerr);
	free(s);
	assert_non_null(root);
	return root;
}

/* The "ministat" object of comparison 0 in root. */
static json_t *
ministat_of(json_t *root)
{
	return json_object_get(json_array_get(json_object_get(root,
						  "comparisons"),
				   0),
	    "ministat");
}

/* The plot of one sample, by hand: 1 2 3 in 5 columns. */
static void
test_plot_one(void **state)
{
	static const double v[] = { 1, 2, 3 };
	struct pr_stat_input in = { "a", v, 3 };
	struct pr_stat_opts o;
	char *s;

	(void)state;
	pr_stat_opts_init(&o);
	o.width = 5;
	s = report(&in, 1, &o, 0);
	/*
	 * lo = 2 - 1 = 1, hi = 3: dx = 0.5, x0 = 0.75, so 1, 2 and 3 fall in
	 * columns 0, 2 and 4, and the bar spans them with M and A on 2.
	 */
	assert_string_equal(s,
	    "x a\n"
	    "+-----+\n"
	    "|x x x|\n"
	    "||_A_||\n"
	    "+-----+\n"
	    "    N           Min           Max        Median           Avg"
	    "        Stddev\n"
	    "x   3             1             3             2             2"
	    "             1\n");
	free(s);
}

/* Two samples overlap as '*'; with -s each gets its own bar line. */
static void
test_plot_two(void **state)
{
	static const double a[] = { 1, 1, 5 }, b[] = { 1, 5, 5, 5 };
	struct pr_stat_input in[] = { { "a", a, 3 }, { "b", b, 4 } };
	struct pr_stat_opts o;
	char *s;

	(void)state;
	pr_stat_opts_init(&o);
	o.width = 9;
	o.tests = 0;
	o.separate_bars = 1;
	s = report(in, 2, &o, 0);
	/*
	 * ministat -n -s -w 9 draws exactly this: the range is widened by
	 * a's mean - stddev (0.02) and b's mean + stddev (6), so 1 and 5 fall
	 * in columns 1 and 7; column 1 holds two x and one + (a '*' under an
	 * 'x'), column 7 one x and three +.
	 */
	assert_non_null(strstr(s,
	    "x a\n"
	    "+ b\n"
	    "+---------+\n"
	    "|       + |\n"
	    "| x     + |\n"
	    "| *     * |\n"
	    "||M_A__|  |\n"
	    "|   |_A_M||\n"
	    "+---------+\n"));
	assert_null(strstr(s, "Difference"));
	assert_null(strstr(s, "No difference"));
	free(s);
}

/* Three or more samples stack in a column, each with its own symbol. */
static void
test_plot_stacked(void **state)
{
	static const double a[] = { 1, 2 }, b[] = { 1, 2 }, c[] = { 1, 1, 2 };
	struct pr_stat_input in[] = { { "a", a, 2 }, { "b", b, 2 },
		{ "c", c, 3 } };
	struct pr_stat_opts o;
	char *s;

	(void)state;
	pr_stat_opts_init(&o);
	o.tests = 0;
	o.width = 2;
	s = report(in, 3, &o, 0);
	/*
	 * Both columns hold a, b, c from the bottom up; column 0 has two c.
	 * The range is [1 - sd, 2 + sd] of the widest sample, so 1 and 2 fall
	 * in columns 0 and 1 of 2.
	 */
	assert_non_null(strstr(s,
	    "+--+\n"
	    "|* |\n"
	    "|**|\n"
	    "|++|\n"
	    "|xx|\n"));
	free(s);
}

/* A stack taller than PR_STAT_PLOT_ROWS is scaled, and the plot says so. */
static void
test_plot_scaled(void **state)
{
	double v[401];
	struct pr_stat_input in = { "many", v, 401 };
	struct pr_stat_opts o;
	const char *p;
	char *s;
	int i, rows = 0;

	(void)state;
	for (i = 0; i < 401; i++)
		v[i] = i < 400 ? 10 : 20;
	pr_stat_opts_init(&o);
	o.width = 10;
	s = report(&in, 1, &o, 0);
	assert_non_null(strstr(s, "(one symbol stands for up to 10 values)"));
	for (p = strchr(s, '\n') + 1; *p == '+' || *p == '|'; p++) {
		if (*p == '|')
			rows++;
		p = strchr(p, '\n');
	}
	/* 40 rows of symbols and the bar line. */
	assert_int_equal(rows, PR_STAT_PLOT_ROWS + 1);
	free(s);
}

/* Equal values give no plot, as in ministat. */
static void
test_plot_flat(void **state)
{
	static const double v[] = { 3, 3, 3 };
	struct pr_stat_input in[] = { { "a", v, 3 }, { "b", v, 3 } };
	struct pr_stat_opts o;
	char *s;

	(void)state;
	pr_stat_opts_init(&o);
	s = report(in, 2, &o, 0);
	assert_non_null(strstr(s, "[no plot, span is zero width]\n"));
	assert_non_null(strstr(s,
	    "No difference proven at 95.0% "
	    "confidence\n"));
	free(s);
}

/* One value: a dash and a note, and a statement instead of a test. */
static void
test_one_value(void **state)
{
	static const double a[] = { 5.36 }, b[] = { 4.95, 5.05, 5.10 };
	struct pr_stat_input in[] = { { "old.txt", a, 1 },
		{ "new.txt", b, 3 } };
	struct pr_stat_opts o;
	char *s;

	(void)state;
	pr_stat_opts_init(&o);
	o.plot = 0;
	s = report(in, 2, &o, 0);
	assert_non_null(strstr(s,
	    "x   1          5.36          5.36"
	    "          5.36          5.36             -\n"));
	assert_non_null(strstr(s,
	    "no test: one value in old.txt; a test "
	    "needs at least two runs per side\n"));
	assert_non_null(strstr(s,
	    "-: undefined: the standard deviation of a "
	    "single value\n"));
	assert_null(strstr(s, "nan"));
	assert_null(strstr(s, "inf"));
	free(s);
}

/* The JSON report parses, holds nulls for undefined figures, never NaN. */
static void
test_json(void **state)
{
	static const double a[] = { 5.36 }, b[] = { 4.95, 5.05, 5.10 };
	struct pr_stat_input in[] = { { "old\xff.txt", a, 1 },
		{ "new.txt", b, 3 } };
	struct pr_stat_opts o;
	json_error_t jerr;
	json_t *root, *f0, *c0;
	char *s;

	(void)state;
	pr_stat_opts_init(&o);
	s = report(in, 2, &o, 1);
	root = json_loads(s, 0, &jerr);
	assert_non_null(root);
	assert_true(
	    json_real_value(json_object_get(root, "confidence_pct")) == 95.0);
	f0 = json_array_get(json_object_get(root, "files"), 0);
	/* A name that is not UTF-8 gets U+FFFD for the bad byte. */
	assert_string_equal(json_string_value(json_object_get(f0, "name")),
	    "old\xef\xbf\xbd.txt");
	assert_int_equal(json_integer_value(json_object_get(f0, "n")), 1);
	assert_true(json_is_null(json_object_get(f0, "stddev")));
	assert_true(json_is_null(json_object_get(f0, "cv")));
	assert_true(json_real_value(json_object_get(f0, "median")) == 5.36);
	c0 = json_array_get(json_object_get(root, "comparisons"), 0);
	assert_non_null(c0);
	assert_true(json_is_false(
	    json_object_get(json_object_get(c0, "ministat"), "tested")));
	assert_true(json_is_null(
	    json_object_get(json_object_get(c0, "ministat"), "t_critical")));
	assert_string_equal(json_string_value(json_object_get(c0, "no_test")),
	    "one value in old\xef\xbf\xbd.txt; a test needs at least two "
	    "runs per side");
	assert_true(json_is_null(json_object_get(c0, "p_value")));
	assert_true(json_is_null(json_object_get(c0, "ci_pct")));
	assert_string_equal(json_string_value(json_object_get(c0, "verdict")),
	    "inconclusive");
	json_decref(root);
	assert_null(strstr(s, "nan"));
	assert_null(strstr(s, "NaN"));
	free(s);
}

/* ministat's figures in the JSON, for a tested pair. */
static void
test_json_ministat(void **state)
{
	static const double a[] = { 50, 100, 150, 200, 300, 550, 750 };
	static const double b[] = { 150, 400, 500, 720, 930 };
	struct pr_stat_input in[] = { { "iguana", a, 7 },
		{ "chameleon", b, 5 } };
	struct pr_stat_opts o;
	json_t *root, *m;

	(void)state;
	pr_stat_opts_init(&o);
	o.conf_index = 0; /* 80% */
	root = report_json(in, 2, &o);
	m = ministat_of(root);
	assert_true(json_is_true(json_object_get(m, "tested")));
	assert_int_equal(json_integer_value(json_object_get(m, "df")), 10);
	assert_true(json_real_value(json_object_get(m, "t_critical")) == 1.372);
	assert_true(json_real_value(json_object_get(m, "difference")) == 240);
	/* ministat prints 240 +/- 221.151 and pooled s = 275.282. */
	assert_true(fabs(json_real_value(json_object_get(m, "half_width")) -
			221.151) < 5e-4);
	assert_true(fabs(json_real_value(json_object_get(m, "pooled_stddev")) -
			275.282) < 5e-4);
	assert_true(json_is_true(json_object_get(m, "significant")));
	json_decref(root);
}

/*
 * A spread below 1e-154 has a variance that underflows: the pooled s of
 * the ministat block must still be the one of the same data at 1, scaled.
 */
static void
test_ministat_tiny(void **state)
{
	static const double a[] = { 1e-310, 1.1e-310, 1.2e-310 };
	static const double b[] = { 1.3e-310, 1.4e-310, 1.45e-310 };
	struct pr_stat_input in[] = { { "a", a, 3 }, { "b", b, 3 } };
	struct pr_stat_opts o;
	json_t *root, *m;
	double sd;

	(void)state;
	pr_stat_opts_init(&o);
	root = report_json(in, 2, &o);
	m = ministat_of(root);
	/* Sums of squares 0.02 and 0.035 / 3 of the same data at 1. */
	sd = json_real_value(json_object_get(m, "pooled_stddev"));
	if (!(fabs(sd / 1e-310 - sqrt((0.02 + 0.035 / 3) / 4)) < 1e-6))
		fail_msg("pooled s %g, want %g", sd,
		    sqrt((0.02 + 0.035 / 3) / 4) * 1e-310);
	assert_true(json_real_value(json_object_get(m, "half_width")) > 0);
	json_decref(root);
}

static void
test_bad_args(void **state)
{
	static const double v[] = { 1, 2, 3 }, unsorted[] = { 3, 1, 2 };
	struct pr_stat_input in = { "a", v, 3 }, bad = { "u", unsorted, 3 };
	struct pr_stat_input empty = { "e", v, 0 }, anon = { NULL, v, 3 };
	struct pr_stat_opts o;
	struct pr_error err;
	struct pr_stat st;

	(void)state;
	pr_stat_opts_init(&o);
	assert_int_equal(pr_stat_analyse(&in, 0, &o, &st, &err), PR_EINVAL);
	assert_int_equal(pr_stat_analyse(&empty, 1, &o, &st, &err), PR_EINVAL);
	assert_int_equal(pr_stat_analyse(&bad, 1, &o, &st, &err), PR_EINVAL);
	/* The message names the sample. */
	assert_non_null(strstr(err.msg, "u: "));
	assert_int_equal(pr_stat_analyse(&anon, 1, &o, &st, &err), PR_EINVAL);
	o.width = 1;
	assert_int_equal(pr_stat_analyse(&in, 1, &o, &st, &err), PR_EINVAL);
	o.width = PR_STAT_WIDTH_MAX + 1;
	assert_int_equal(pr_stat_analyse(&in, 1, &o, &st, &err), PR_EINVAL);
	pr_stat_opts_init(&o);
	o.conf_index = PR_STAT_NCONF;
	assert_int_equal(pr_stat_analyse(&in, 1, &o, &st, &err), PR_EINVAL);
	pr_stat_opts_init(&o);
	o.equivalence_pct = NAN;
	assert_int_equal(pr_stat_analyse(&in, 1, &o, &st, &err), PR_EINVAL);
}

/* A full buffer fails cleanly with PR_ELIMIT. */
static void
test_buffer_limit(void **state)
{
	static const double v[] = { 1, 2, 3 };
	struct pr_stat_input in = { "a", v, 3 };
	struct pr_buf b = PR_BUF_INIT(40);
	struct pr_stat_opts o;
	struct pr_error err;
	struct pr_stat st;

	(void)state;
	pr_stat_opts_init(&o);
	assert_int_equal(pr_stat_analyse(&in, 1, &o, &st, &err), PR_OK);
	assert_int_equal(pr_stat_format_text(&st, &b, &err), PR_ELIMIT);
	pr_buf_reset(&b);
	assert_int_equal(pr_stat_format_json(&st, &b, &err), PR_ELIMIT);
	pr_stat_release(&st);
	pr_buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_table),
		cmocka_unit_test(test_conf_and_symbols),
		cmocka_unit_test(test_plot_one),
		cmocka_unit_test(test_plot_two),
		cmocka_unit_test(test_plot_stacked),
		cmocka_unit_test(test_plot_scaled),
		cmocka_unit_test(test_plot_flat),
		cmocka_unit_test(test_one_value),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_ministat),
		cmocka_unit_test(test_ministat_tiny),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_buffer_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
