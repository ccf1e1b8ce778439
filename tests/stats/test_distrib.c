/*
 * tests/stats/test_distrib.c - the special functions of stats/distrib.c
 * against the reference values of tests/stats/data/distrib.txt (written by
 * tests/stats/gen_distrib_fixtures.py with scipy, checked with mpmath),
 * plus closed forms, identities and domain errors.
 *
 * Tolerances: the issue asks for 1e-9 relative; the test holds the
 * functions to 1e-11 (the inverse incomplete beta, ill-conditioned where
 * a or b is small, to 1e-10), about 100 times the worst error measured
 * against the mpmath-checked references, so that a loss of accuracy shows
 * long before it matters.  A reference of exactly 0 (an underflow) wants
 * a result below 1e-300; log B(a, b) is held to 1e-12 absolute (scaled by
 * |log B| when that is above 1), the relative accuracy of B(a, b).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/distrib.h"

#define FIXTURE "tests/stats/data/distrib.txt"
#define FIXTURE_SMALL "tests/stats/data/distrib_small.txt"
#define FIXTURE_EXTREME "tests/stats/data/distrib_extreme.txt"
#define FIXTURE_TAILS "tests/stats/data/distrib_tails.txt"
#define MAXARGS 4

struct fcase {
	const char *file;
	char func[16];
	double arg[MAXARGS];
	int nargs;
	double want;
	long line;
};

struct fixture {
	struct fcase *c;
	size_t n;
};

/* Appends the cases of one fixture file to fx; 0 or -1. */
static int
load_file(struct fixture *fx, size_t *cap, const char *path)
{
	char line[512], *p, *end;
	FILE *f;
	long lineno = 0;
	double v[MAXARGS + 1];
	int nv, off;

	f = fopen(path, "r");
	if (f == NULL) {
		print_error("cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		struct fcase *c;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (fx->n == *cap) {
			*cap = *cap ? 2 * *cap : 1024;
			c = realloc(fx->c, *cap * sizeof(*c));
			if (c == NULL)
				goto bad;
			fx->c = c;
		}
		c = &fx->c[fx->n];
		if (sscanf(line, "%15s%n", c->func, &off) != 1)
			goto bad;
		p = line + off;
		for (nv = 0; nv <= MAXARGS; nv++) {
			errno = 0;
			v[nv] = strtod(p, &end);
			if (end == p)
				break;
			p = end;
		}
		if (nv < 2 || *p != '\n')
			goto bad;
		c->nargs = nv - 1;
		memcpy(c->arg, v, (size_t)c->nargs * sizeof(double));
		c->want = v[nv - 1];
		c->line = lineno;
		c->file = path;
		fx->n++;
	}
	fclose(f);
	return 0;
bad:
	print_error("%s:%ld: bad fixture line\n", path, lineno);
	fclose(f);
	return -1;
}

static int
load(void **state)
{
	struct fixture *fx;
	size_t cap = 0;

	fx = calloc(1, sizeof(*fx));
	if (fx == NULL)
		return -1;
	if (load_file(fx, &cap, FIXTURE) != 0 ||
	    load_file(fx, &cap, FIXTURE_SMALL) != 0 ||
	    load_file(fx, &cap, FIXTURE_EXTREME) != 0 ||
	    load_file(fx, &cap, FIXTURE_TAILS) != 0) {
		free(fx->c);
		free(fx);
		return -1;
	}
	*state = fx;
	return 0;
}

static int
unload(void **state)
{
	struct fixture *fx = *state;

	free(fx->c);
	free(fx);
	return 0;
}

/* REL_X: relative, but a subnormal reference (whose own precision is a
 * few digits) is met by any result within 1e-300 of it; ABS: absolute. */
enum kind { REL, LOGABS, REL_X, ABS };

/*
 * Runs every case of func through fn, counting failures; reports the
 * worst relative error and each failure.  At least `min` cases must exist
 * so that a truncated fixture cannot pass unnoticed.
 */
static void
check(const struct fixture *fx, const char *func, size_t min, double tol,
    enum kind kind, double (*fn)(const double *))
{
	size_t i, n = 0, bad = 0;
	double worst = 0, err, got, want;
	long worst_line = 0;

	for (i = 0; i < fx->n; i++) {
		const struct fcase *c = &fx->c[i];
		int ok;

		if (strcmp(c->func, func) != 0)
			continue;
		n++;
		got = fn(c->arg);
		want = c->want;
		if (isinf(want)) {
			err = got == want ? 0 : INFINITY;
		} else if (kind == ABS) {
			err = fabs(got - want);
		} else if (kind == LOGABS) {
			err = fabs(got - want) / fmax(1, fabs(want));
		} else if (kind == REL_X && want != 0 && fabs(want) < DBL_MIN) {
			err = fabs(got - want) < 1e-300 ? 0 : INFINITY;
		} else if (want == 0) {
			err = fabs(got) < 1e-300 ? 0 : INFINITY;
		} else {
			err = fabs(got - want) / fabs(want);
		}
		ok = err <= tol;
		if (isnan(err) || isnan(got))
			ok = 0, err = INFINITY;
		if (err > worst) {
			worst = err;
			worst_line = c->line;
		}
		if (!ok && bad++ < 20)
			print_error("%s:%ld: %s: got %.17g, want %.17g "
				    "(error %.3g)\n",
			    c->file, c->line, func, got, want, err);
	}
	print_message("%s: %zu cases, worst error %.3g (line %ld)\n", func, n,
	    worst, worst_line);
	assert_true(n >= min);
	assert_int_equal(bad, 0);
}

static double
f_norm_cdf(const double *a)
{
	return pr_norm_cdf(a[0]);
}

static double
f_norm_sf(const double *a)
{
	return pr_norm_sf(a[0]);
}

static double
f_norm_ppf(const double *a)
{
	return pr_norm_quantile(a[0]);
}

static double
f_t_cdf(const double *a)
{
	return pr_t_cdf(a[0], a[1]);
}

static double
f_t_sf(const double *a)
{
	return pr_t_sf(a[0], a[1]);
}

static double
f_t_ppf(const double *a)
{
	return pr_t_quantile(a[0], a[1]);
}

static double
f_betainc(const double *a)
{
	return pr_betainc(a[0], a[1], a[2]);
}

static double
f_betainc_c(const double *a)
{
	return pr_betainc_c(a[0], a[1], a[2]);
}

static double
f_betaincinv(const double *a)
{
	return pr_betainc_inv(a[0], a[1], a[2]);
}

static double
f_lbeta(const double *a)
{
	return pr_lbeta(a[0], a[1]);
}

static double
f_digamma(const double *a)
{
	return pr_digamma(a[0]);
}

static double
f_trigamma(const double *a)
{
	return pr_trigamma(a[0]);
}

static double
f_tetragamma(const double *a)
{
	return pr_tetragamma(a[0]);
}

#define TOL 1e-11
#define TOL_INV 1e-10

static void
test_norm_fixture(void **state)
{
	check(*state, "norm_cdf", 40, TOL, REL, f_norm_cdf);
	check(*state, "norm_sf", 40, TOL, REL, f_norm_sf);
	check(*state, "norm_ppf", 40, TOL, REL, f_norm_ppf);
}

static void
test_t_fixture(void **state)
{
	check(*state, "t_cdf", 500, TOL, REL, f_t_cdf);
	check(*state, "t_sf", 500, TOL, REL, f_t_sf);
}

static void
test_t_quantile_fixture(void **state)
{
	check(*state, "t_ppf", 500, TOL, REL, f_t_ppf);
}

static void
test_betainc_fixture(void **state)
{
	check(*state, "betainc", 1500, TOL, REL, f_betainc);
	check(*state, "betainc_c", 500, TOL, REL, f_betainc_c);
	check(*state, "lbeta", 100, 1e-12, LOGABS, f_lbeta);
}

static void
test_betainc_inv_fixture(void **state)
{
	check(*state, "betaincinv", 1000, TOL_INV, REL, f_betaincinv);
}

/*
 * Issue 12: at df = 2 the continued fraction of the incomplete beta
 * never met its tolerance for about one t in 2000, and the t test of
 * 0.00065 0.000778 against 0.000636 0.000623 failed with NaN.  Every t
 * of a dense grid at small df must now be right.
 */
static void
test_small_df_fixture(void **state)
{
	check(*state, "t_sf_small", 3000, TOL, REL, f_t_sf);
	check(*state, "t_cdf_small", 400, TOL, REL, f_t_cdf);
	check(*state, "t_ppf_small", 150, TOL, REL, f_t_ppf);
	check(*state, "betainc_small", 10000, TOL, REL, f_betainc);
}

/*
 * Issue 12: at a subnormal df pr_t_cdf(3, 2.8e-310) was -inf (1 / a
 * overflowed in the incomplete beta's prefactor), its quantiles were
 * finite where they lie beyond DBL_MAX, and df = 5e-324 gave NaN (half of
 * it is 0).  mpmath's values at the extremes of every argument: df from
 * 5e-324 to 1e31, t to DBL_MAX, a and b of the incomplete beta from
 * 5e-324 to 30, subnormal normal tails, polygamma at 5e-324 and 1e308.
 */
static void
test_extreme_fixture(void **state)
{
	check(*state, "t_sf_x", 120, TOL, REL_X, f_t_sf);
	check(*state, "t_cdf_x", 240, TOL, REL_X, f_t_cdf);
	check(*state, "t_ppf_x", 40, TOL, REL_X, f_t_ppf);
	/* Relative since the series for a tiny first argument (issue 14's
	 * item: I_0.9(1, 1e-100) = 2.3e-100 was 0, held only to 1e-12
	 * absolute before). */
	check(*state, "betainc_x", 300, TOL, REL_X, f_betainc);
	check(*state, "betainc_c_x", 300, TOL, REL_X, f_betainc_c);
	check(*state, "lbeta_x", 70, 1e-12, LOGABS, f_lbeta);
	check(*state, "norm_cdf_x", 5, TOL, REL_X, f_norm_cdf);
	check(*state, "norm_ppf_x", 5, TOL, REL_X, f_norm_ppf);
	check(*state, "digamma_x", 9, 1e-13, LOGABS, f_digamma);
	check(*state, "trigamma_x", 9, 1e-13, REL_X, f_trigamma);
	check(*state, "tetragamma_x", 9, 1e-12, REL_X, f_tetragamma);
}

/*
 * I_x(a, b) and its complement with a from 0.01 down to 1e-20, on both
 * sides of the continued fraction's limit: the value within a log(1 / x)
 * of 1 and the small complement, which 1 - I lost (at a = 2e-5 it kept
 * 6 digits, at 1e-12 none).  Student's t above df 1e31 (the normal in
 * perfreg), against quadrature of the density.
 */
static void
test_tails_fixture(void **state)
{
	check(*state, "betainc_t", 1600, TOL, REL_X, f_betainc);
	check(*state, "betainc_c_t", 1600, TOL, REL_X, f_betainc_c);
	check(*state, "t_sf_h", 40, TOL, REL_X, f_t_sf);
	check(*state, "t_cdf_h", 80, TOL, REL_X, f_t_cdf);
}

/*
 * psi, psi' and psi'' for limma's fitFDist: near the root of psi
 * (x = 1.4616...) only an absolute error can be small, so psi is held
 * relative to max(1, |psi|).
 */
static void
test_polygamma_fixture(void **state)
{
	check(*state, "digamma", 300, 1e-13, LOGABS, f_digamma);
	check(*state, "trigamma", 300, 1e-13, REL, f_trigamma);
	check(*state, "tetragamma", 300, 1e-12, REL, f_tetragamma);
}

static void
assert_rel(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol * fabs(want)))
		fail_msg("got %.17g, want %.17g (error %.3g)", got, want,
		    fabs(got - want) / fabs(want));
}

static void
test_domain(void **state)
{
	(void)state;
	assert_true(isnan(pr_norm_cdf(NAN)));
	assert_true(isnan(pr_norm_sf(NAN)));
	assert_true(pr_norm_cdf(-INFINITY) == 0 && pr_norm_cdf(INFINITY) == 1);
	assert_true(pr_norm_sf(INFINITY) == 0 && pr_norm_sf(-INFINITY) == 1);
	assert_true(isnan(pr_norm_quantile(-0.1)));
	assert_true(isnan(pr_norm_quantile(1.5)));
	assert_true(isnan(pr_norm_quantile(NAN)));
	assert_true(pr_norm_quantile(0) == -INFINITY);
	assert_true(pr_norm_quantile(1) == INFINITY);
	assert_true(pr_norm_quantile(0.5) == 0);

	assert_true(isnan(pr_t_cdf(1, 0)));
	assert_true(isnan(pr_t_cdf(1, -3)));
	assert_true(isnan(pr_t_sf(1, 0)));
	assert_true(isnan(pr_t_sf(1, NAN)));
	assert_true(isnan(pr_t_cdf(NAN, 5)));
	assert_true(pr_t_cdf(-INFINITY, 3) == 0 && pr_t_cdf(INFINITY, 3) == 1);
	assert_true(pr_t_sf(INFINITY, 0.7) == 0);
	assert_true(pr_t_sf(0, 4) == 0.5 && pr_t_cdf(0, 0.3) == 0.5);
	assert_true(isnan(pr_t_quantile(-0.1, 5)));
	assert_true(isnan(pr_t_quantile(1.1, 5)));
	assert_true(isnan(pr_t_quantile(0.5, 0)));
	assert_true(isnan(pr_t_quantile(0.5, -1)));
	assert_true(isnan(pr_t_quantile(NAN, 5)));
	assert_true(pr_t_quantile(0, 5) == -INFINITY);
	assert_true(pr_t_quantile(1, 5) == INFINITY);
	assert_true(pr_t_quantile(0.5, 5) == 0);

	assert_true(isnan(pr_betainc(0, 1, 0.5)));
	assert_true(isnan(pr_betainc(1, -1, 0.5)));
	assert_true(isnan(pr_betainc(INFINITY, 1, 0.5)));
	assert_true(isnan(pr_betainc(1, 1, -0.1)));
	assert_true(isnan(pr_betainc(1, 1, 1.1)));
	assert_true(isnan(pr_betainc(1, 1, NAN)));
	assert_true(isnan(pr_betainc_c(1, 1, 2)));
	assert_true(pr_betainc(2, 3, 0) == 0 && pr_betainc(2, 3, 1) == 1);
	assert_true(pr_betainc_c(2, 3, 0) == 1 && pr_betainc_c(2, 3, 1) == 0);
	assert_true(isnan(pr_betainc_inv(1, 1, -0.1)));
	assert_true(isnan(pr_betainc_inv(1, 0, 0.5)));
	assert_true(pr_betainc_inv(2, 3, 0) == 0);
	assert_true(pr_betainc_inv(2, 3, 1) == 1);
	assert_true(isnan(pr_lbeta(0, 1)));
	assert_true(isnan(pr_lbeta(2, -1)));
	assert_true(isnan(pr_lbeta(NAN, 1)));
}

/* Closed forms: Cauchy (df 1), df 2, the normal limit, beta with a or b 1. */
static void
test_closed_forms(void **state)
{
	static const double ts[] = { 1e-6, 0.3, 1, 2.5, 10, 1e3, 1e6, 1e12 };
	static const double xs[] = { 1e-12, 1e-4, 0.2, 0.5, 0.9, 1 - 1e-9 };
	double t, x, s;
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		t = ts[i];
		/* Cauchy: P(T > t) = atan(1/t) / pi for t > 0. */
		assert_rel(pr_t_sf(t, 1), atan(1 / t) / M_PI, 1e-13);
		assert_rel(pr_t_cdf(-t, 1), atan(1 / t) / M_PI, 1e-13);
		assert_rel(pr_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-13);
		/* df 2: P(T > t) = 1 / (s (s + t)) with s^2 = 2 + t^2. */
		s = sqrt(2 + t * t);
		assert_rel(pr_t_sf(t, 2), 1 / (s * (s + t)), 1e-13);
		assert_rel(pr_t_cdf(t, 2), 0.5 + t / (2 * s), 1e-13);
		/* Symmetry, exactly. */
		assert_true(pr_t_sf(t, 3.7) == pr_t_cdf(-t, 3.7));
		assert_true(pr_t_sf(-t, 3.7) == pr_t_cdf(t, 3.7));
		assert_true(pr_norm_sf(t) == pr_norm_cdf(-t));
		/* Normal limit. */
		assert_true(pr_t_sf(t, INFINITY) == pr_norm_sf(t));
	}
	assert_true(pr_t_quantile(0.975, INFINITY) == pr_norm_quantile(0.975));
	/* Cauchy quantile: tan(pi (p - 1/2)). */
	assert_rel(pr_t_quantile(0.975, 1), tan(M_PI * 0.475), 1e-13);
	assert_rel(pr_t_quantile(1e-10, 1), -1 / tan(M_PI * 1e-10), 1e-12);

	for (i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		x = xs[i];
		for (j = 0; j < 4; j++) {
			double a = (double[]){ 0.01, 0.5, 3, 250 }[j];

			/* I_x(a, 1) = x^a and I_x(1, b) = 1 - (1-x)^b. */
			assert_rel(pr_betainc(a, 1, x), pow(x, a), 1e-13);
			assert_rel(pr_betainc_c(1, a, x), exp(a * log1p(-x)),
			    1e-12);
			if (pr_betainc(1, a, x) > 1e-300)
				assert_rel(pr_betainc(1, a, x),
				    -expm1(a * log1p(-x)), 1e-13);
			/* I_x(a, b) and its complement add up to 1. */
			assert_rel(pr_betainc(a, 2.5, x) +
				pr_betainc_c(a, 2.5, x),
			    1, 1e-15);
		}
	}
	assert_true(fabs(pr_lbeta(1, 1)) < 1e-15);
	assert_rel(pr_lbeta(0.5, 0.5), log(M_PI), 1e-15);
	assert_rel(pr_lbeta(1, 1e6), -log(1e6), 1e-15);
}

/* Round trips and monotonicity over a dense grid, fractional df too. */
static void
test_round_trip(void **state)
{
	static const double dfs[] = { 0.01, 0.05, 0.7, 1, 2.345, 4, 7.3, 29.9,
		200, 5e4, 2e7, 1e15, 1e300 };
	static const double ps[] = { 1e-300, 1e-14, 1e-7, 0.001, 0.025, 0.1,
		0.3, 0.49, 0.51, 0.8, 0.975, 0.999, 1 - 1e-7 };
	double t, prev, c;
	size_t i, j;
	int k, ninf = 0;

	(void)state;
	for (i = 0; i < sizeof(dfs) / sizeof(dfs[0]); i++) {
		for (j = 0; j < sizeof(ps) / sizeof(ps[0]); j++) {
			t = pr_t_quantile(ps[j], dfs[i]);
			assert_false(isnan(t));
			/*
			 * At df far below 1 most quantiles lie beyond the
			 * largest double; the t at DBL_MAX must then still be
			 * short of the probability.
			 */
			if (isinf(t)) {
				assert_true(dfs[i] < 1 || ps[j] < 1e-100);
				assert_true(
				    t == (ps[j] < 0.5 ? -INFINITY : INFINITY));
				assert_true(pr_t_sf(DBL_MAX, dfs[i]) >
				    fmin(ps[j], 1 - ps[j]));
				ninf++;
				continue;
			}
			if (ps[j] < 0.5)
				assert_rel(pr_t_cdf(t, dfs[i]), ps[j], 1e-12);
			else
				assert_rel(pr_t_sf(t, dfs[i]), 1 - ps[j],
				    1e-12);
		}
		prev = 0;
		for (k = -400; k <= 400; k++) {
			if (dfs[i] > 1e20)
				break;
			c = pr_t_cdf(k / 20.0, dfs[i]);
			assert_true(c >= prev);
			prev = c;
		}
	}
	assert_true(ninf > 0 && ninf < 20);
	for (j = 0; j < sizeof(ps) / sizeof(ps[0]); j++) {
		t = pr_norm_quantile(ps[j]);
		/* d log Phi / d log |x| ~ x^2 amplifies the rounding of x. */
		if (ps[j] < 0.5)
			assert_rel(pr_norm_cdf(t), ps[j],
			    1e-14 * fmax(1, t * t));
		else
			assert_rel(pr_norm_sf(t), 1 - ps[j],
			    1e-14 * fmax(1, t * t));
		t = pr_betainc_inv(3.5, 0.8, ps[j]);
		assert_rel(pr_betainc(3.5, 0.8, t), ps[j], 1e-13);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_norm_fixture),
		cmocka_unit_test(test_t_fixture),
		cmocka_unit_test(test_t_quantile_fixture),
		cmocka_unit_test(test_betainc_fixture),
		cmocka_unit_test(test_betainc_inv_fixture),
		cmocka_unit_test(test_small_df_fixture),
		cmocka_unit_test(test_extreme_fixture),
		cmocka_unit_test(test_tails_fixture),
		cmocka_unit_test(test_polygamma_fixture),
		cmocka_unit_test(test_domain),
		cmocka_unit_test(test_closed_forms),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, load, unload);
}
