/*
 * tests/html/test_decimal.c - the decimal writer of the HTML page
 * (src/report/decimal.h) against snprintf, byte for byte: edge values
 * (zero and negative zero, negatives that round to zero, ties and
 * near-ties at every digit such as 0.25 at one decimal and 2.5 at none,
 * which glibc rounds to even, 9.95 and 99999.5 that carry into a new
 * digit, the ends of "%g"'s fixed form at exponents -5, -4, prec - 1 and
 * prec, huge and subnormal values), and two million seeded random
 * values: SVG coordinates, figures of a few significant digits, and any
 * finite bit pattern.  NaN and infinities are refused, as are "%f"
 * magnitudes of 1e15 and more and precisions out of range.  The fast
 * path (no snprintf) must agree wherever it answers, and answer for
 * nearly every ordinary value: a writer that always called snprintf
 * would fail here.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "report/decimal.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t
next(void)
{
	/* xorshift64*, Vigna (2016). */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717u;
}

static double
unit(void)
{
	return (double)(next() >> 11) * 0x1p-53;
}

/* Counts of the fast path's answers against all it was asked. */
struct tally {
	long asked, fast;
};

/* x by the writer (g: "%.*g", else "%.*f") against snprintf. */
static void
check(double x, int prec, int g, struct tally *t)
{
	char want[64], got[REPORT_DEC_MAX], fast[REPORT_DEC_MAX];
	int n = g ? snprintf(want, sizeof(want), "%.*g", prec, x)
		  : snprintf(want, sizeof(want), "%.*f", prec, x);
	int k = g ? report_dec_g(got, x, prec) : report_dec_fixed(got, x, prec);
	int f = g ? report_dec_g_fast(fast, x, prec)
		  : report_dec_fixed_fast(fast, x, prec);

	if (k != n || strcmp(got, want) != 0)
		fail_msg("%%.%d%c of %a: got \"%s\" (%d), snprintf \"%s\"",
		    prec, g ? 'g' : 'f', x, got, k, want);
	if (f >= 0 && (f != n || strcmp(fast, want) != 0))
		fail_msg("%%.%d%c of %a: fast \"%s\", snprintf \"%s\"", prec,
		    g ? 'g' : 'f', x, fast, want);
	t->asked++;
	t->fast += f >= 0;
}

#define check_fixed(x, prec, t) check(x, prec, 0, t)
#define check_g(x, prec, t) check(x, prec, 1, t)

/* x and its neighbours a few ulps away, both signs, every precision. */
static void
around(double x, struct tally *t)
{
	double v[7];
	int i, s, p;

	v[3] = x;
	v[2] = nextafter(x, -INFINITY);
	v[1] = nextafter(v[2], -INFINITY);
	v[0] = nextafter(v[1], -INFINITY);
	v[4] = nextafter(x, INFINITY);
	v[5] = nextafter(v[4], INFINITY);
	v[6] = nextafter(v[5], INFINITY);
	for (i = 0; i < 7; i++)
		for (s = 0; s < 2; s++) {
			double y = s ? -v[i] : v[i];

			if (!isfinite(y))
				continue;
			if (fabs(y) < 1e15)
				for (p = 0; p <= 4; p++)
					check_fixed(y, p, t);
			for (p = 1; p <= 17; p++)
				check_g(y, p, t);
		}
}

static void
test_edges(void **state)
{
	static const double edge[] = { 0.0, 1e-300, 5e-324, DBL_MIN,
		DBL_TRUE_MIN * 3, 0.001, 0.01, 0.04, 0.05, 0.049999999999999996,
		0.05000000000000001, 0.15, 0.25, 0.35, 0.45, 0.5, 0.95, 1.0,
		1.25, 1.5, 2.5, 3.5, 9.5, 9.95, 9.995, 9.9995, 9.99995, 99999.5,
		99999.4, 123456.5, 0.00012345, 0.000012345, 1.2345e-5,
		9.99995e-5, 0.0001, 0.00001, 99999.0, 100000.0, 999999.5,
		1234567.0, 1e14, 999999999999999.9, 9.999999999999998e14, 1e15,
		4503599627370495.5, 1e21, 1e22, 1e23, 1.7976931348623157e308,
		420.0, 412.05, 255.85, 48.0, 1.0e-5, 1.05e-5,
		0.30000000000000004, 1.0 / 3, 2.0 / 3 };
	struct tally t = { 0, 0 };
	size_t i;
	int k, d;

	(void)state;
	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		around(edge[i], &t);
	/* k + d / 10^p + 5 / 10^(p+1): the decimal ties of each precision
	 * (rarely exact in binary: their neighbours decide). */
	for (k = 0; k < 500; k += 37)
		for (d = 0; d < 100; d++) {
			around(k + d / 100.0 + 0.005, &t);
			around(k + d / 10.0 + 0.05, &t);
			around((k + d / 100.0 + 0.005) * 1e-7, &t);
		}
	/* Powers of ten: where log10 is exact and "%g" changes form. */
	for (k = -30; k <= 30; k++)
		around(pow(10, k), &t);
}

static void
test_random(void **state)
{
	struct tally coord = { 0, 0 }, fig = { 0, 0 }, any = { 0, 0 };
	long i;
	int p;

	(void)state;
	for (i = 0; i < 200000; i++) {
		/* An SVG coordinate, at one decimal as the page writes it. */
		double x = unit() * 440 - 10;

		check_fixed(x, 1, &coord);
		check_fixed(x, i % 5, &coord);
	}
	for (i = 0; i < 200000; i++) {
		/* A figure: any magnitude from 1e-12 to 1e12, some negative;
		 * the page writes 5 and 6 significant digits. */
		double x = pow(10, unit() * 24 - 12) * (i % 4 == 0 ? -1 : 1);

		check_g(x, 5, &fig);
		check_g(x, 6, &fig);
		check_g(x, 1 + (int)(i % 17), &fig);
	}
	for (i = 0; i < 100000; i++) {
		uint64_t bits = next();
		double x;

		memcpy(&x, &bits, sizeof(x));
		if (!isfinite(x))
			continue;
		p = (int)(next() % 17) + 1;
		check_g(x, p, &any);
		if (fabs(x) < 1e15)
			check_fixed(x, p % 5, &any);
	}
	/* The fast path answers for nearly all ordinary values (ties and
	 * near-ties are about 1 in 10^9 at these precisions; 16 and 17
	 * digits, a sixth of the last "%g" calls, go to snprintf). */
	assert_true(coord.fast > coord.asked - coord.asked / 10000);
	assert_true(fig.fast > fig.asked * 8 / 10);
	assert_true(any.fast > any.asked / 20);
}

static void
test_refused(void **state)
{
	static const double bad[] = { NAN, -NAN, INFINITY, -INFINITY };
	char buf[REPORT_DEC_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(buf, "x", 2);
		assert_int_equal(report_dec_fixed(buf, bad[i], 1), -1);
		assert_string_equal(buf, "");
		assert_int_equal(report_dec_g(buf, bad[i], 5), -1);
		assert_string_equal(buf, "");
		assert_int_equal(report_dec_g_fast(buf, bad[i], 5), -1);
		assert_int_equal(report_dec_fixed_fast(buf, bad[i], 1), -1);
	}
	assert_int_equal(report_dec_fixed(buf, 1e15, 0), -1);
	assert_int_equal(report_dec_fixed(buf, -1e300, 1), -1);
	assert_int_equal(report_dec_fixed(buf, 1.0, 5), -1);
	assert_int_equal(report_dec_fixed(buf, 1.0, -1), -1);
	assert_int_equal(report_dec_g(buf, 1.0, 0), -1);
	assert_int_equal(report_dec_g(buf, 1.0, 18), -1);
	/* Inside the range, the largest texts still fit. */
	assert_int_equal(report_dec_fixed(buf, -999999999999999.9, 4), 21);
	assert_int_equal(report_dec_g(buf, -DBL_MIN, 17), 24);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
