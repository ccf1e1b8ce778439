/*
 * tests/stats/test_ttest.c - Student's and Welch's t tests of
 * stats/ttest.c against the scipy reference values of
 * tests/stats/data/ttest.txt (tests/stats/gen_tests_fixtures.py), and the
 * degenerate cases the header promises: zero spread on one side and on
 * both, one value on a side, bad arguments, and no NaN anywhere.
 *
 * The summaries are computed with pr_summary_compute from the fixture's
 * values, as the CLI does; the references are exact for the fixture's
 * doubles.  Tolerances: t and df 1e-10 relative, p 1e-9 relative (the
 * issue's bar for p-values), the interval end points 1e-9 of the
 * interval's own scale |diff| + half-width (an end point near 0 has no
 * relative precision to speak of).  To each is added what the data allow
 * any double computation: a mean of values of size M is only known to
 * a few DBL_EPSILON M, so t is only known to c = 16 DBL_EPSILON M / se
 * (M = 1e6 and se = 0.4 in offset1e6: c = 1e-8), p to (|t| + 2) c
 * relative, the interval to 16 DBL_EPSILON M.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/describe.h"
#include "perfreg/ttest.h"
#include "stats/twosample_fixture.h"

#define FIXTURE "tests/stats/data/ttest.txt"

static void
summary(const double *x, size_t n, struct pr_summary *s)
{
	struct pr_error err;

	assert_int_equal(pr_summary_compute(x, n, s, &err), PR_OK);
}

static void
check_line(struct fx_reader *r, const struct fx_case *c, void *ctx)
{
	struct pr_summary sa, sb;
	struct pr_ttest t;
	struct pr_error err;
	enum pr_status st;
	double conf, scale, m, cond;
	int student;

	(void)ctx;
	if (c->a == NULL)
		fail_msg("%s:%ld: result before any case", r->path, r->lineno);
	student = strcmp(r->w[0], "student") == 0;
	if (!student && strcmp(r->w[0], "welch") != 0)
		fail_msg("%s:%ld: unknown line '%s'", r->path, r->lineno,
		    r->w[0]);
	summary(c->a, c->na, &sa);
	summary(c->b, c->nb, &sb);
	if (r->nw == 2 && strcmp(r->w[1], "undefined") == 0) {
		st = student ? pr_ttest_student(&sa, &sb, 0.95, &t, &err)
			     : pr_ttest_welch(&sa, &sb, 0.95, &t, &err);
		assert_int_equal(st, PR_EUNDEF);
		return;
	}
	fx_words(r, 7);
	conf = fx_num(r, 1);
	st = student ? pr_ttest_student(&sa, &sb, conf, &t, &err)
		     : pr_ttest_welch(&sa, &sb, conf, &t, &err);
	if (st != PR_OK)
		fail_msg("%s:%ld: %s: status %d: %s", r->path, r->lineno,
		    c->name, st, err.msg);
	assert_false(t.degenerate);
	m = fmax(fmax(fabs(c->a[0]), fabs(c->a[c->na - 1])),
	    fmax(fabs(c->b[0]), fabs(c->b[c->nb - 1])));
	cond = 16 * DBL_EPSILON * m / t.se;
	fx_close_to(r, "t", t.t, fx_num(r, 2), 1e-10 + cond, 1);
	fx_close_to(r, "p", t.p, fx_num(r, 3), 1e-9 + (fabs(t.t) + 2) * cond,
	    1e-300);
	fx_close_to(r, "df", t.df, fx_num(r, 4), 1e-10 + cond, 0);
	/* 1e-9 of (interval scale + 16e9 DBL_EPSILON M) is 1e-9 of the
	 * scale plus 16 DBL_EPSILON M. */
	scale = fabs(t.diff) + (t.ci_hi - t.ci_lo) / 2 + 16e9 * DBL_EPSILON * m;
	fx_close_to(r, "ci_lo", t.ci_lo, fx_num(r, 5), 1e-9, scale);
	fx_close_to(r, "ci_hi", t.ci_hi, fx_num(r, 6), 1e-9, scale);
	assert_true(fabs(t.diff - (t.ci_lo + t.ci_hi) / 2) <= 1e-12 * scale);
}

static void
test_fixture(void **state)
{
	int cases, lines;

	(void)state;
	fx_run(FIXTURE, check_line, NULL, &cases, &lines);
	/* The generator writes about a hundred cases: a truncated file
	 * must not pass. */
	assert_true(cases >= 90);
	assert_true(lines >= 4 * cases - 10);
}

/* A summary by hand, for the degenerate cases. */
static struct pr_summary
sum_of(size_t n, double mean, double var)
{
	struct pr_summary s;

	memset(&s, 0, sizeof(s));
	s.n = n;
	s.mean = mean;
	s.median = mean;
	s.min = s.max = mean;
	s.var = n >= 2 ? var : 0;
	s.stddev = sqrt(s.var);
	s.defined = n >= 2 ? PR_SUM_STDDEV : 0;
	return s;
}

static void
assert_sane(const struct pr_ttest *t)
{
	/* t may overflow to +-inf (a difference of more than DBL_MAX
	 * standard errors); it is never NaN. */
	assert_true(isfinite(t->diff) && isfinite(t->se) && !isnan(t->t));
	assert_true(isfinite(t->df) && t->df > 0);
	assert_true(t->p >= 0 && t->p <= 1);
	assert_true(isfinite(t->ci_lo) && isfinite(t->ci_hi));
	assert_true(t->ci_lo <= t->diff && t->diff <= t->ci_hi);
}

static void
test_zero_spread_both(void **state)
{
	struct pr_summary a = sum_of(3, 7.02, 0), b = sum_of(4, 7.02, 0);
	struct pr_ttest t;
	struct pr_error err;

	(void)state;
	/* Equal means, no spread: nothing to see, p = 1. */
	assert_int_equal(pr_ttest_student(&a, &b, 0.95, &t, &err), PR_OK);
	assert_true(t.degenerate);
	assert_true(t.p == 1 && t.t == 0 && t.se == 0);
	assert_true(t.ci_lo == 0 && t.ci_hi == 0 && t.df == 5);
	assert_sane(&t);
	assert_int_equal(pr_ttest_welch(&a, &b, 0.95, &t, &err), PR_OK);
	assert_true(t.degenerate && t.p == 1 && t.ci_lo == 0);
	assert_sane(&t);
	/* Different means, no spread: p = 0, a point interval. */
	b = sum_of(4, 7.69, 0);
	assert_int_equal(pr_ttest_student(&a, &b, 0.99, &t, &err), PR_OK);
	assert_true(t.degenerate && t.p == 0);
	assert_true(t.ci_lo == t.diff && t.ci_hi == t.diff);
	assert_true(t.diff == 7.69 - 7.02);
	assert_sane(&t);
	assert_int_equal(pr_ttest_welch(&a, &b, 0.99, &t, &err), PR_OK);
	assert_true(t.degenerate && t.p == 0 && t.ci_lo == t.diff);
	assert_sane(&t);
}

static void
test_zero_spread_one_side(void **state)
{
	/* Seed 003's elapsed times: all 7.02 after, spread before. */
	struct pr_summary a = sum_of(3, 7.6833333333333336, 0.00013333333),
			  b = sum_of(3, 7.02, 0);
	struct pr_ttest t;
	struct pr_error err;

	(void)state;
	assert_int_equal(pr_ttest_welch(&a, &b, 0.95, &t, &err), PR_OK);
	assert_false(t.degenerate);
	/* All the spread is on one side: Welch's df is that side's n - 1. */
	assert_true(fabs(t.df - 2) < 1e-12);
	assert_true(t.t < -90 && t.p < 1e-3);
	assert_sane(&t);
	assert_int_equal(pr_ttest_student(&a, &b, 0.95, &t, &err), PR_OK);
	assert_false(t.degenerate);
	assert_true(t.df == 4);
	assert_sane(&t);
}

static void
test_one_value(void **state)
{
	struct pr_summary a = sum_of(1, 10, 0), b = sum_of(3, 10.6, 0.04);
	struct pr_summary one = sum_of(1, 10.6, 0);
	struct pr_ttest t, t2;
	struct pr_error err;

	(void)state;
	/* 1 + 3 values: pooled df 2, the spread of b alone. */
	assert_int_equal(pr_ttest_student(&a, &b, 0.95, &t, &err), PR_OK);
	assert_true(t.df == 2);
	assert_true(fabs(t.pooled_sd - 0.2) < 1e-15);
	assert_true(fabs(t.se - 0.2 * sqrt(1 + 1.0 / 3)) < 1e-15);
	assert_sane(&t);
	/* Swapping the sides flips the sign and nothing else. */
	assert_int_equal(pr_ttest_student(&b, &a, 0.95, &t2, &err), PR_OK);
	assert_true(t2.t == -t.t && t2.p == t.p && t2.ci_lo == -t.ci_hi);
	/* Welch needs two values a side. */
	assert_int_equal(pr_ttest_welch(&a, &b, 0.95, &t, &err), PR_EUNDEF);
	assert_non_null(strstr(err.msg, "base"));
	assert_int_equal(pr_ttest_welch(&b, &a, 0.95, &t, &err), PR_EUNDEF);
	assert_non_null(strstr(err.msg, "new"));
	/* 1 + 1 is not a test. */
	assert_int_equal(pr_ttest_student(&a, &one, 0.95, &t, &err), PR_EUNDEF);
	/* 1 + 2 with no spread on the pair: degenerate, but answered. */
	b = sum_of(2, 10.5, 0);
	assert_int_equal(pr_ttest_student(&a, &b, 0.95, &t, &err), PR_OK);
	assert_true(t.degenerate && t.p == 0 && t.df == 1);
	assert_sane(&t);
}

static void
test_bad_arguments(void **state)
{
	struct pr_summary a = sum_of(3, 1, 1), b = sum_of(3, 2, 1);
	struct pr_ttest t;
	struct pr_error err;
	const double confs[] = { 0, 1, -0.5, 95, NAN };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(confs) / sizeof(confs[0]); i++) {
		assert_int_equal(pr_ttest_student(&a, &b, confs[i], &t, &err),
		    PR_EINVAL);
		assert_int_equal(pr_ttest_welch(&a, &b, confs[i], &t, &err),
		    PR_EINVAL);
	}
	a.mean = NAN;
	assert_int_equal(pr_ttest_student(&a, &b, 0.9, &t, &err), PR_EINVAL);
	a.mean = 1;
	b.var = -1;
	assert_int_equal(pr_ttest_welch(&a, &b, 0.9, &t, &err), PR_EINVAL);
	b.var = INFINITY;
	assert_int_equal(pr_ttest_student(&a, &b, 0.9, &t, &err), PR_EINVAL);
	/* A NULL error is accepted. */
	assert_int_equal(pr_ttest_student(&a, &b, 0.9, &t, NULL), PR_EINVAL);
	/* Means so far apart that their difference overflows. */
	a = sum_of(3, -1.5e308, 1);
	b = sum_of(3, 1.5e308, 1);
	assert_int_equal(pr_ttest_student(&a, &b, 0.9, &t, &err), PR_ERANGE);
	assert_int_equal(pr_ttest_welch(&a, &b, 0.9, &t, &err), PR_ERANGE);
}

/*
 * The t tests are scale-invariant: data at 1e-160 (whose variance, near
 * 1e-322, underflows to a subnormal of one or two digits) and at 1e140
 * give the p, df and relative interval of the same data at 1.
 */
static void
test_scale_invariant(void **state)
{
	static const double a1[] = { 1, 1.1, 1.2 }, b1[] = { 1.3, 1.4, 1.45 };
	const double scales[] = { 1e-160, 1e-300, 1e140 };
	double a[3], b[3];
	struct pr_summary sa, sb;
	struct pr_ttest ref[2], t;
	size_t i, k;
	int w;

	(void)state;
	assert_int_equal(pr_summary_compute(a1, 3, &sa, NULL), PR_OK);
	assert_int_equal(pr_summary_compute(b1, 3, &sb, NULL), PR_OK);
	assert_int_equal(pr_ttest_student(&sa, &sb, 0.95, &ref[0], NULL),
	    PR_OK);
	assert_int_equal(pr_ttest_welch(&sa, &sb, 0.95, &ref[1], NULL), PR_OK);
	for (k = 0; k < sizeof(scales) / sizeof(scales[0]); k++) {
		for (i = 0; i < 3; i++) {
			a[i] = a1[i] * scales[k];
			b[i] = b1[i] * scales[k];
		}
		assert_int_equal(pr_summary_compute(a, 3, &sa, NULL), PR_OK);
		assert_int_equal(pr_summary_compute(b, 3, &sb, NULL), PR_OK);
		for (w = 0; w < 2; w++) {
			assert_int_equal(w
				? pr_ttest_welch(&sa, &sb, 0.95, &t, NULL)
				: pr_ttest_student(&sa, &sb, 0.95, &t, NULL),
			    PR_OK);
			if (t.degenerate ||
			    fabs(t.p - ref[w].p) > 1e-9 * ref[w].p ||
			    fabs(t.df - ref[w].df) > 1e-9 * ref[w].df ||
			    fabs(t.ci_lo / scales[k] - ref[w].ci_lo) >
				1e-9 * fabs(ref[w].ci_lo))
				fail_msg("scale %g, %s: p %.17g df %.17g, "
					 "want p %.17g df %.17g",
				    scales[k], w ? "welch" : "student", t.p,
				    t.df, ref[w].p, ref[w].df);
		}
	}
}

/* Extreme but valid inputs give finite figures, never NaN. */
static void
test_never_nan(void **state)
{
	const double means[] = { 0, 1e-300, 1, 1e300, -7 };
	const double vars[] = { 0, 1e-320, 1e-300, 1, 1e300 };
	const size_t ns[] = { 1, 2, 3, 1000000000 };
	struct pr_summary a, b;
	struct pr_ttest t;
	struct pr_error err;
	enum pr_status st;
	size_t i, j, k, l, m;

	(void)state;
	for (i = 0; i < 5; i++)
		for (j = 0; j < 5; j++)
			for (k = 0; k < 5; k++)
				for (l = 0; l < 4; l++)
					for (m = 0; m < 4; m++) {
						a = sum_of(ns[l], means[i],
						    vars[k]);
						b = sum_of(ns[m], means[j],
						    vars[(k + l) % 5]);
						st = pr_ttest_student(&a, &b,
						    0.95, &t, &err);
						if (st == PR_OK)
							assert_sane(&t);
						else
							assert_true(
							    st == PR_EUNDEF ||
							    st == PR_ERANGE);
						st = pr_ttest_welch(&a, &b,
						    0.95, &t, &err);
						if (st == PR_OK)
							assert_sane(&t);
						else
							assert_true(
							    st == PR_EUNDEF ||
							    st == PR_ERANGE);
					}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_zero_spread_both),
		cmocka_unit_test(test_zero_spread_one_side),
		cmocka_unit_test(test_one_value),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_never_nan),
		cmocka_unit_test(test_scale_invariant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
