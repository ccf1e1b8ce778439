/*
 * tests/stats/test_paired.c - the paired t test on log-ratios against
 * scipy (tests/stats/data/paired.txt, from gen_paired_fixtures.py), and
 * its degenerate cases: one pair, zero spread with and without a
 * resolution, values that have no logarithm.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/paired.h"

#define FIXTURE "tests/stats/data/paired.txt"
#define MAXN 64

static void
near(double got, double want, double rel, const char *what, const char *name)
{
	double tol = rel * fabs(want);

	if (tol < 1e-300)
		tol = 1e-300;
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: %s = %.17g, scipy %.17g", name, what, got, want);
}

static size_t
read_values(FILE *f, const char *tag, double *v)
{
	char word[32];
	size_t n, i;

	assert_int_equal(fscanf(f, "%31s %zu", word, &n), 2);
	assert_string_equal(word, tag);
	assert_true(n <= MAXN);
	for (i = 0; i < n; i++)
		assert_int_equal(fscanf(f, "%lf", &v[i]), 1);
	return n;
}

static void
test_scipy(void **state)
{
	double base[MAXN], new_[MAXN], e[9];
	char line[256], name[64], word[32];
	struct pr_paired p;
	struct pr_error err;
	size_t n, cases = 0;
	FILE *f;
	int i;

	(void)state;
	f = fopen(FIXTURE, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f)); /* the comment */
	while (fscanf(f, "%31s %63s", word, name) == 2) {
		assert_string_equal(word, "case");
		n = read_values(f, "base", base);
		assert_int_equal(read_values(f, "new", new_), n);
		assert_int_equal(fscanf(f, "%31s", word), 1);
		assert_string_equal(word, "expect");
		for (i = 0; i < 9; i++)
			assert_int_equal(fscanf(f, "%lf", &e[i]), 1);
		assert_int_equal(pr_paired_compare(base, new_, n, e[0], 0, &p,
				     &err),
		    PR_OK);
		assert_int_equal(p.n, n);
		assert_true(p.have_t && p.have_ci);
		assert_false(p.degenerate || p.quantised);
		near(p.t, e[1], 1e-7, "t", name);
		near(p.p_value, e[2], 1e-7, "p", name);
		near(p.mean_log, e[3], 1e-12, "mean_log", name);
		near(p.lo_log, e[4], 1e-9, "lo_log", name);
		near(p.hi_log, e[5], 1e-9, "hi_log", name);
		near(p.change_pct, e[6], 1e-9, "change_pct", name);
		near(p.ci_lo_pct, e[7], 1e-8, "ci_lo_pct", name);
		near(p.ci_hi_pct, e[8], 1e-8, "ci_hi_pct", name);
		cases++;
	}
	fclose(f);
	assert_int_equal(cases, 7);
}

static void
test_one_pair(void **state)
{
	double b = 2.0, n = 2.2;
	struct pr_paired p;

	(void)state;
	assert_int_equal(pr_paired_compare(&b, &n, 1, 0.95, 0, &p, NULL),
	    PR_OK);
	assert_false(p.have_t);
	assert_false(p.have_ci);
	assert_true(p.p_value == 1);
	near(p.change_pct, 10, 1e-12, "change", "one pair");
}

static void
test_zero_spread(void **state)
{
	/* Seed 003's quantised times: every pair the same ratio. */
	double b[] = { 7.00, 7.00, 7.00 }, n[] = { 7.02, 7.02, 7.02 };
	struct pr_paired p;
	double want_sd;

	(void)state;
	assert_int_equal(pr_paired_compare(b, n, 3, 0.95, 0, &p, NULL), PR_OK);
	assert_true(p.degenerate);
	assert_false(p.have_t);
	assert_true(p.have_ci);
	assert_true(p.p_value == 1);
	assert_true(p.ci_lo_pct == p.change_pct);
	assert_true(p.ci_hi_pct == p.change_pct);
	assert_true(isfinite(p.change_pct));

	/* With the grid of 0.01 s known, the spread is at least the
	 * rounding's: a finite t and a real interval. */
	assert_int_equal(pr_paired_compare(b, n, 3, 0.95, 0.01, &p, NULL),
	    PR_OK);
	assert_false(p.degenerate);
	assert_true(p.quantised);
	assert_true(p.have_t);
	want_sd = 0.01 / sqrt(12.0) * sqrt(1 / (7.0 * 7.0) + 1 / (7.02 * 7.02));
	near(p.sd_log, want_sd, 1e-12, "sd_log", "quantised");
	assert_true(isfinite(p.t) && p.t > 0);
	assert_true(p.p_value > 0 && p.p_value < 1);
	assert_true(p.ci_lo_pct < p.change_pct && p.change_pct < p.ci_hi_pct);

	/* Identical runs: no change at all, still no division by zero. */
	assert_int_equal(pr_paired_compare(b, b, 3, 0.95, 0, &p, NULL), PR_OK);
	assert_true(p.degenerate);
	assert_true(p.change_pct == 0);
}

static void
test_extreme_ratio(void **state)
{
	/*
	 * The ratio of two finite positive values can overflow or flush to
	 * zero (1e300 / 1e-10, 4.9e-324 / 1e10) although its logarithm is
	 * an ordinary number: the log-ratio must still come out finite.
	 */
	double b[] = { 1e-10, 1e-10 }, n[] = { 1e300, 2e300 };
	double b2[] = { 1e10, 1e10 }, n2[] = { 4.9e-324, 1e-320 };
	struct pr_paired p;
	struct pr_error err;

	(void)state;
	assert_int_equal(pr_paired_compare(b, n, 2, 0.95, 0, &p, &err), PR_OK);
	near(p.mean_log, log(1e300) - log(1e-10) + log(2) / 2, 1e-12,
	    "mean_log", "overflowing ratio");
	assert_true(p.have_t && isfinite(p.t));
	assert_int_equal(pr_paired_compare(b2, n2, 2, 0.95, 0, &p, &err),
	    PR_OK);
	near(p.mean_log, (log(4.9e-324) + log(1e-320)) / 2 - log(1e10), 1e-12,
	    "mean_log", "underflowing ratio");
	assert_true(p.have_t && isfinite(p.t));
}

static void
test_bad(void **state)
{
	double b[] = { 1, 2 }, n[] = { 1, 0 }, d[] = { 0.1, NAN };
	struct pr_paired p;
	struct pr_error err;

	(void)state;
	assert_int_equal(pr_paired_compare(b, n, 2, 0.95, 0, &p, &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "round 2"));
	assert_int_equal(pr_paired_compare(b, b, 0, 0.95, 0, &p, &err),
	    PR_EINVAL);
	assert_int_equal(pr_paired_compare(b, b, 2, 1.0, 0, &p, &err),
	    PR_EINVAL);
	assert_int_equal(pr_paired_compare(b, b, 2, 0.95, -1, &p, &err),
	    PR_EINVAL);
	assert_int_equal(pr_paired_logs(d, 2, 0.95, 0, &p, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "round 2"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scipy),
		cmocka_unit_test(test_one_pair),
		cmocka_unit_test(test_zero_spread),
		cmocka_unit_test(test_extreme_ratio),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
