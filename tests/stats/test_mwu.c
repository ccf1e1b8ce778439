/*
 * tests/stats/test_mwu.c - the Mann-Whitney U test and the Hodges-Lehmann
 * shift of stats/mwu.c.
 *
 * - tests/stats/data/mwu.txt (tests/stats/gen_tests_fixtures.py): U and
 *   the two-sided p of scipy's mannwhitneyu, exact and asymptotic with
 *   continuity correction, and exact p-values from exact integer counts
 *   up to 100 + 100: p to 1e-9 relative, U exactly.
 * - tests/stats/data/hl.txt (tests/stats/gen_hl_fixtures.R): R's
 *   wilcox.test(conf.int = TRUE) and the order-statistic convention that
 *   perfreg implements, computed in R from the sorted differences: the
 *   order statistics must be the same doubles, the achieved coverage
 *   within 1e-12 (exact) or 1e-9 (normal); R's own normal-mode end
 *   points, found by uniroot(tol = 1e-4), within 2e-4 of the scale.
 * - 3 + 3: the exact test can never reject at 5% (smallest p 0.1).
 * - The k-th pairwise difference against sorting all differences, with
 *   ties, zeros of both signs and huge and tiny magnitudes, and the
 *   Hodges-Lehmann interval at 10^6 values a side against closed forms and
 *   against an independent count by binary search.
 * - Degenerate data and bad arguments.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/mwu.h"
#include "perfreg/rng.h"
#include "stats/twosample_fixture.h"

#define MWU_FIXTURE "tests/stats/data/mwu.txt"
#define HL_FIXTURE "tests/stats/data/hl.txt"

static void
check_exactp_line(struct fx_reader *r, int *n)
{
	struct pr_error err;
	double p;

	fx_words(r, 5);
	if (pr_mwu_exact_p(fx_num(r, 3), fx_uint(r, 1), fx_uint(r, 2), &p,
		&err) != PR_OK)
		fail_msg("%s:%ld: %s", r->path, r->lineno, err.msg);
	fx_close_to(r, "exact p", p, fx_num(r, 4), 1e-9, 1e-300);
	(*n)++;
}

struct mwu_state {
	long case_line; /* the case whose ties line was read */
	int ties;
	int exactp; /* exactp lines checked */
};

static void
check_mwu_line(struct fx_reader *r, const struct fx_case *c, void *ctx)
{
	struct mwu_state *ms = ctx;
	struct pr_mwu m, auto_m;
	struct pr_error err;
	enum pr_status st;
	int exact, fit;

	if (strcmp(r->w[0], "exactp") == 0) {
		check_exactp_line(r, &ms->exactp);
		return;
	}
	exact = strcmp(r->w[0], "exact") == 0;
	if (strcmp(r->w[0], "ties") == 0 && c->a != NULL) {
		fx_words(r, 2);
		ms->case_line = c->line;
		ms->ties = (int)fx_uint(r, 1);
		assert_int_equal(pr_mwu_test(c->a, c->na, c->b, c->nb, &m,
				     &err),
		    PR_OK);
		assert_int_equal(m.ties, ms->ties);
		return;
	}
	if (c->a == NULL || ms->case_line != c->line)
		fail_msg("%s:%ld: result before the case's ties line", r->path,
		    r->lineno);
	if (!exact && strcmp(r->w[0], "asymptotic") != 0)
		fail_msg("%s:%ld: unknown line '%s'", r->path, r->lineno,
		    r->w[0]);
	fx_words(r, exact ? 3 : 4);
	st = pr_mwu_test_with(c->a, c->na, c->b, c->nb,
	    exact ? PR_MWU_EXACT : PR_MWU_NORMAL, &m, &err);
	if (st != PR_OK)
		fail_msg("%s:%ld: %s: %s", r->path, r->lineno, c->name,
		    err.msg);
	assert_int_equal(m.exact, exact);
	assert_true(m.u == fx_num(r, 1));
	fx_close_to(r, "p", m.p, fx_num(r, 2), 1e-9, 1e-300);
	if (!exact)
		fx_close_to(r, "z", m.z, fx_num(r, 3), 1e-9, 1e-12);
	/* The automatic choice: exact exactly when R's wilcox.test is. */
	assert_int_equal(pr_mwu_test(c->a, c->na, c->b, c->nb, &auto_m, &err),
	    PR_OK);
	fit =
	    !ms->ties && c->na <= PR_MWU_EXACT_MAX && c->nb <= PR_MWU_EXACT_MAX;
	assert_int_equal(auto_m.exact, fit);
	if (fit == exact)
		assert_true(auto_m.p == m.p && auto_m.u == m.u);
}

static void
test_mwu_fixture(void **state)
{
	struct mwu_state ms = { 0, 0, 0 };
	int cases, lines;

	(void)state;
	fx_run(MWU_FIXTURE, check_mwu_line, &ms, &cases, &lines);
	/* A truncated file must not pass. */
	assert_true(
	    cases >= 90 && lines - ms.exactp >= 2 * cases && ms.exactp >= 200);
}

/* benchstat's rule can never fire at 3 + 3: no U gives p < 0.1. */
static void
test_exact_3x3(void **state)
{
	struct pr_error err;
	double p, min = 2;
	int u;

	(void)state;
	for (u = 0; u <= 9; u++) {
		assert_int_equal(pr_mwu_exact_p(u, 3, 3, &p, &err), PR_OK);
		if (p < min)
			min = p;
	}
	assert_true(fabs(min - 0.1) < 1e-15);
	/* 4 + 4 can: 2/70. */
	assert_int_equal(pr_mwu_exact_p(0, 4, 4, &p, &err), PR_OK);
	assert_true(fabs(p - 2.0 / 70) < 1e-16);
	/* Symmetric in m and n and in u <-> mn - u. */
	assert_int_equal(pr_mwu_exact_p(7, 4, 9, &p, &err), PR_OK);
	{
		double q, s;

		assert_int_equal(pr_mwu_exact_p(7, 9, 4, &q, &err), PR_OK);
		assert_int_equal(pr_mwu_exact_p(29, 4, 9, &s, &err), PR_OK);
		assert_true(p == q && p == s);
	}
}

static void
test_mwu_degenerate(void **state)
{
	const double five[] = { 3, 3, 3, 3, 3 };
	const double one_a[] = { 1 }, one_b[] = { 2 };
	const double a[] = { 1, 2, 3 }, bad[] = { 1, 3, 2 };
	const double nan_[] = { 1, NAN };
	double big[101], p;
	struct pr_mwu m;
	struct pr_error err;
	int i;

	(void)state;
	/* Every value equal: no spread, U at its mean, p = 1. */
	assert_int_equal(pr_mwu_test(five, 5, five, 5, &m, &err), PR_OK);
	assert_true(m.u == 12.5 && m.p == 1 && m.z == 0);
	assert_true(m.ties && !m.exact);
	/* 1 + 1: exact, p = 1 whichever way. */
	assert_int_equal(pr_mwu_test(one_a, 1, one_b, 1, &m, &err), PR_OK);
	assert_true(m.u == 1 && m.p == 1 && m.exact);
	assert_int_equal(pr_mwu_test_with(one_a, 1, one_b, 1, PR_MWU_NORMAL, &m,
			     &err),
	    PR_OK);
	assert_true(m.p == 1 && m.z == 0);
	/* Bad input. */
	assert_int_equal(pr_mwu_test(a, 3, bad, 3, &m, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "not sorted"));
	assert_int_equal(pr_mwu_test(nan_, 2, a, 3, &m, &err), PR_EINVAL);
	assert_int_equal(pr_mwu_test(a, 0, a, 3, &m, &err), PR_EUNDEF);
	assert_int_equal(pr_mwu_test(NULL, 3, a, 3, &m, NULL), PR_EUNDEF);
	assert_int_equal(pr_mwu_test_with(five, 5, a, 3, PR_MWU_EXACT, &m,
			     &err),
	    PR_EINVAL);
	assert_int_equal(pr_mwu_test_with(a, 3, a, 3, (enum pr_mwu_method)7, &m,
			     &err),
	    PR_EINVAL);
	for (i = 0; i < 101; i++)
		big[i] = i + 0.5;
	assert_int_equal(pr_mwu_test_with(big, 101, a, 3, PR_MWU_EXACT, &m,
			     &err),
	    PR_ELIMIT);
	assert_int_equal(pr_mwu_exact_p(1.5, 3, 3, &p, &err), PR_EINVAL);
	assert_int_equal(pr_mwu_exact_p(10, 3, 3, &p, &err), PR_EINVAL);
	assert_int_equal(pr_mwu_exact_p(-1, 3, 3, &p, &err), PR_EINVAL);
	assert_int_equal(pr_mwu_exact_p(NAN, 3, 3, &p, &err), PR_EINVAL);
	assert_int_equal(pr_mwu_exact_p(0, 0, 3, &p, &err), PR_EINVAL);
	assert_int_equal(pr_mwu_exact_p(0, 101, 3, &p, &err), PR_ELIMIT);
	/* 100 + 100 completely separated: 2 / C(200, 100). */
	assert_int_equal(pr_mwu_exact_p(0, 100, 100, &p, &err), PR_OK);
	assert_true(fabs(p / 2.2087606931995028e-59 - 1) < 1e-12);
}

/* The large-sample U: b = a + 1/2, so U = n(n+1)/2 exactly. */
static void
test_mwu_large(void **state)
{
	size_t n = 1000000, i;
	double *a, *b;
	struct pr_mwu m;
	struct pr_error err;

	(void)state;
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	assert_true(a != NULL && b != NULL);
	for (i = 0; i < n; i++) {
		a[i] = (double)i;
		b[i] = (double)i + 0.5;
	}
	assert_int_equal(pr_mwu_test(a, n, b, n, &m, &err), PR_OK);
	assert_true(m.u == (double)n * (double)(n + 1) / 2);
	assert_true(!m.exact && !m.ties);
	/* z = (n/2 - 1/2) / sqrt(n^2 (2n + 1) / 12) */
	assert_true(fabs(m.z -
			(n / 2.0 - 0.5) /
			    sqrt((double)n * n * (2.0 * n + 1) / 12)) < 1e-12);
	free(a);
	free(b);
}

/* ---- Hodges-Lehmann ------------------------------------------------ */

static void
check_hl_line(struct fx_reader *r, const struct fx_case *c, void *ctx)
{
	int *n = ctx;
	struct pr_shift s;
	struct pr_error err;
	enum pr_status st, want;
	enum pr_mwu_method ask = PR_MWU_AUTO;
	double conf, est, lo, hi, ach, rest, rlo, rhi, tol;
	int exact;

	if (c->a == NULL || strcmp(r->w[0], "hl") != 0)
		fail_msg("%s:%ld: unexpected line", r->path, r->lineno);
	fx_words(r, 13);
	if (strcmp(r->w[1], "auto") == 0)
		ask = PR_MWU_AUTO;
	else if (strcmp(r->w[1], "normal") == 0)
		ask = PR_MWU_NORMAL;
	else
		fail_msg("%s:%ld: unknown method", r->path, r->lineno);
	conf = fx_num(r, 2);
	exact = strcmp(r->w[3], "exact") == 0;
	want = strcmp(r->w[4], "ok") == 0 ? PR_OK : PR_EUNDEF;
	est = fx_num(r, 6);
	lo = fx_num(r, 7);
	hi = fx_num(r, 8);
	ach = fx_num(r, 9);
	rest = fx_num(r, 10);
	rlo = fx_num(r, 11);
	rhi = fx_num(r, 12);

	st = pr_hodges_lehmann_with(c->a, c->na, c->b, c->nb, conf, ask, &s,
	    &err);
	if (st != want)
		fail_msg("%s:%ld: %s: status %d, want %d (%s)", r->path,
		    r->lineno, c->name, st, want, err.msg);
	assert_int_equal(s.exact, exact);
	assert_true(s.k == fx_uint(r, 5));
	/* The same order statistics: the same doubles. */
	if (s.lo != lo || s.hi != hi)
		fail_msg("%s:%ld: %s: interval %.17g %.17g, want %.17g %.17g",
		    r->path, r->lineno, c->name, s.lo, s.hi, lo, hi);
	/* The median of an even count averages two doubles: 1 ulp. */
	fx_close_to(r, "estimate", s.estimate, est, 4 * DBL_EPSILON, 1e-300);
	fx_close_to(r, "achieved", s.achieved_conf, ach, exact ? 1e-12 : 1e-9,
	    1e-300);
	if (isnan(rlo))
		return; /* R stopped: its warning is in the fixture */
	(*n)++;
	if (exact) {
		assert_true(s.lo == rlo && s.hi == rhi);
		fx_close_to(r, "R estimate", s.estimate, rest, 4 * DBL_EPSILON,
		    1e-300);
		return;
	}
	/* R's uniroot(tol = 1e-4) lands within its tolerance of the jump. */
	tol = 2e-4 * fmax(1, fmax(fabs(lo), fabs(hi)));
	assert_true(fabs(s.lo - rlo) <= tol && fabs(s.hi - rhi) <= tol);
	assert_true(fabs(s.estimate - rest) <= tol + (hi - lo) / 2);
}

static void
test_hl_fixture(void **state)
{
	int cases, lines, with_r = 0;

	(void)state;
	fx_run(HL_FIXTURE, check_hl_line, &with_r, &cases, &lines);
	assert_true(cases >= 120 && lines >= 3 * cases);
	assert_true(with_r >= lines - 20);
}

static void
test_hl_seeds(void **state)
{
	/* Seed 002 (3 + 3, no ties): 95% is out of reach, the widest
	 * interval covers 90% exactly; at 80% it is achieved. */
	const double a[] = { 4.83, 4.87, 5.16 }, b[] = { 5.18, 5.30, 5.61 };
	struct pr_shift s;
	struct pr_error err;

	(void)state;
	assert_int_equal(pr_hodges_lehmann(a, 3, b, 3, 0.95, &s, &err),
	    PR_EUNDEF);
	assert_non_null(strstr(err.msg, "needs more values"));
	assert_true(s.exact && s.k == 0);
	assert_true(fabs(s.achieved_conf - 0.9) < 1e-15);
	assert_true(s.lo == 5.18 - 5.16 && s.hi == 5.61 - 4.83);
	assert_true(s.estimate == 5.30 - 4.87);
	assert_int_equal(pr_hodges_lehmann(a, 3, b, 3, 0.8, &s, &err), PR_OK);
	assert_true(s.k == 1 && s.achieved_conf >= 0.8);
}

/* Two values of the difference, each half of the pairs: the estimate is
 * their mean, found when a count lands exactly on the middle rank. */
static void
test_hl_two_values(void **state)
{
	double a[200], b[200];
	struct pr_shift s;
	struct pr_error err;
	size_t i;

	(void)state;
	for (i = 0; i < 200; i++) {
		a[i] = 0;
		b[i] = i < 100 ? 1 : 2;
	}
	assert_int_equal(pr_hodges_lehmann(a, 200, b, 200, 0.95, &s, &err),
	    PR_OK);
	assert_true(s.estimate == 1.5);
	assert_true(s.lo == 1 && s.hi == 2);
}

static void
test_hl_errors(void **state)
{
	const double a[] = { 1, 2, 3 }, huge[] = { -1.5e308, 1 };
	const double huge2[] = { 1, 1.5e308 };
	struct pr_shift s;
	struct pr_error err;
	double d;

	(void)state;
	assert_int_equal(pr_hodges_lehmann(a, 3, a, 3, 1, &s, &err), PR_EINVAL);
	assert_int_equal(pr_hodges_lehmann(a, 3, a, 3, 0, &s, &err), PR_EINVAL);
	assert_int_equal(pr_hodges_lehmann(a, 3, a, 3, NAN, &s, &err),
	    PR_EINVAL);
	assert_int_equal(pr_hodges_lehmann(huge, 2, huge2, 2, 0.9, &s, &err),
	    PR_ERANGE);
	assert_int_equal(pr_mwu_diff_select(a, 3, a, 3, 0, &d, &err),
	    PR_EINVAL);
	assert_int_equal(pr_mwu_diff_select(a, 3, a, 3, 10, &d, &err),
	    PR_EINVAL);
	assert_int_equal(pr_mwu_diff_select(a, 3, a, 3, 9, &d, &err), PR_OK);
	assert_true(d == 2);
	assert_int_equal(pr_mwu_diff_select(a, 3, a, 3, 5, &d, &err), PR_OK);
	assert_true(d == 0);
}

/* ---- the k-th pairwise difference ------------------------------------ */

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double *
all_diffs(const double *a, size_t na, const double *b, size_t nb)
{
	double *d;
	size_t i, j;

	d = malloc(na * nb * sizeof(*d));
	assert_non_null(d);
	for (j = 0; j < nb; j++)
		for (i = 0; i < na; i++)
			d[j * na + i] = b[j] - a[i];
	qsort(d, na * nb, sizeof(*d), cmp_double);
	return d;
}

/* A value of the given kind, from the generator. */
static double
draw(struct pr_rng *rng, int kind)
{
	double u = pr_rng_uniform(rng);

	switch (kind) {
	case 0: /* continuous */
		return 100 * u - 30;
	case 1: /* heavy ties, zeros of both signs */
		return u < 0.2 ? (u < 0.1 ? -0.0 : 0.0) : floor(u * 6) - 2;
	case 2: /* magnitudes from 1e-300 to 1e300, both signs */
		return (u < 0.5 ? -1 : 1) *
		    pow(10, 600 * pr_rng_uniform(rng) - 300) / 2;
	default: /* close to a large value: differences near one ulp */
		return 1e6 + floor(u * 8) * 1.1641532182693481e-10;
	}
}

static void
test_select_bruteforce(void **state)
{
	struct pr_rng rng;
	struct pr_error err;
	struct pr_shift s;
	enum pr_status st;
	double *a, *b, *d, got, want;
	size_t na, nb, i, trial;
	uint64_t k, mn;
	int kind;

	(void)state;
	pr_rng_seed(&rng, 20240521);
	/* Small (every difference collected at once), medium (the
	 * interpolation first) and one side above 2048 values (the grid
	 * bracket first), in both orders. */
	for (trial = 0; trial < 64; trial++) {
		kind = (int)(trial % 4);
		if (trial < 24) {
			na = 1 + pr_rng_below(&rng, 12);
			nb = 1 + pr_rng_below(&rng, 12);
		} else if (trial < 48) {
			na = 1 + pr_rng_below(&rng, 400);
			nb = 1 + pr_rng_below(&rng, 300);
		} else {
			na = 2049 + pr_rng_below(&rng, 2000);
			nb = 1 + pr_rng_below(&rng, 60);
			if (trial % 8 >= 4) {
				i = na;
				na = nb;
				nb = i;
			}
		}
		a = malloc(na * sizeof(*a));
		b = malloc(nb * sizeof(*b));
		assert_true(a != NULL && b != NULL);
		for (i = 0; i < na; i++)
			a[i] = draw(&rng, kind);
		for (i = 0; i < nb; i++)
			b[i] = draw(&rng, kind) + (kind == 0 ? 5 : 0);
		qsort(a, na, sizeof(*a), cmp_double);
		qsort(b, nb, sizeof(*b), cmp_double);
		d = all_diffs(a, na, b, nb);
		mn = (uint64_t)na * nb;
		/* Every k of the small cases, a spread of k otherwise. */
		for (k = 1; k <= mn;
		     k += mn <= 200 ? 1 : 1 + pr_rng_below(&rng, mn / 60)) {
			assert_int_equal(pr_mwu_diff_select(a, na, b, nb, k,
					     &got, &err),
			    PR_OK);
			if (!(got == d[k - 1]))
				fail_msg("trial %zu (%zu x %zu, kind %d): "
					 "D(%llu) = %.17g, want %.17g",
				    trial, na, nb, kind, (unsigned long long)k,
				    got, d[k - 1]);
		}
		assert_int_equal(pr_mwu_diff_select(a, na, b, nb, mn, &got,
				     &err),
		    PR_OK);
		assert_true(got == d[mn - 1]);
		/* The estimate: the median, the mean of the middle two. */
		st = pr_hodges_lehmann_with(a, na, b, nb, 0.9, PR_MWU_NORMAL,
		    &s, &err);
		assert_true(st == PR_OK || st == PR_EUNDEF);
		want = mn % 2 ? d[mn / 2] : (d[mn / 2 - 1] + d[mn / 2]) / 2;
		if (!isfinite(want))
			want = d[mn / 2 - 1] / 2 + d[mn / 2] / 2;
		if (!(s.estimate == want))
			fail_msg("trial %zu: estimate %.17g, want %.17g", trial,
			    s.estimate, want);
		if (st == PR_OK)
			assert_true(s.lo == d[s.k - 1] && s.hi == d[mn - s.k]);
		free(d);
		free(a);
		free(b);
	}
}

/* Counts of b_j - a_i below and at or below v, by binary search for each
 * j: independent of the two-pointer count in mwu.c. */
static void
count_bsearch(const double *a, size_t na, const double *b, size_t nb, double v,
    uint64_t *lt, uint64_t *le)
{
	size_t j, lo, hi, mid;

	*lt = *le = 0;
	for (j = 0; j < nb; j++) {
		/* first i with b_j - a_i <= v (the differences fall in i) */
		for (lo = 0, hi = na; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (b[j] - a[mid] <= v)
				hi = mid;
			else
				lo = mid + 1;
		}
		*le += na - lo;
		for (lo = 0, hi = na; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (b[j] - a[mid] < v)
				hi = mid;
			else
				lo = mid + 1;
		}
		*lt += na - lo;
	}
}

/* v is D(k): fewer than k below it, at least k at or below it. */
static void
assert_rank(const double *a, size_t na, const double *b, size_t nb, double v,
    uint64_t k)
{
	uint64_t lt, le;

	count_bsearch(a, na, b, nb, v, &lt, &le);
	if (!(lt < k && le >= k))
		fail_msg("%.17g is not D(%llu): %llu below, %llu at or below",
		    v, (unsigned long long)k, (unsigned long long)lt,
		    (unsigned long long)le);
}

/*
 * 10^6 values a side, a_i = i/4 and b_j = j/4 + 1/2: the differences are
 * 1/2 + t/4 for t = j - i, with n - |t| pairs each, so D(k) is known in
 * closed form; the interval is the normal one (ties between the sides,
 * none within) with k = ceil(n^2/2 - 1/2 - z sigma), sigma^2 = n^2 (2n +
 * 1) / 12.  Then random normal data of the same size, checked by counts.
 */
static void
test_hl_large(void **state)
{
	const size_t n = 1000000;
	double *a, *b, z, sigma, nn;
	struct pr_shift s;
	struct pr_error err;
	struct pr_rng rng;
	uint64_t k, cum;
	size_t i;
	long t;

	(void)state;
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	assert_true(a != NULL && b != NULL);
	for (i = 0; i < n; i++) {
		a[i] = (double)i / 4;
		b[i] = (double)i / 4 + 0.5;
	}
	assert_int_equal(pr_hodges_lehmann(a, n, b, n, 0.95, &s, &err), PR_OK);
	assert_true(s.estimate == 0.5 && !s.exact);
	nn = (double)n * (double)n;
	sigma = sqrt(nn * (2.0 * n + 1) / 12);
	z = 1.959963984540054;
	k = (uint64_t)ceil(nn / 2 - 0.5 - z * sigma);
	assert_true(s.k == k);
	/* The smallest t with #(j - i <= t) >= k, t <= 0 here:
	 * #(j - i <= t) = (n - |t|)(n - |t| + 1) / 2. */
	for (t = -(long)n + 1;; t++) {
		cum = (uint64_t)(n - (size_t)(-t)) * (n - (size_t)(-t) + 1) / 2;
		if (cum >= k)
			break;
	}
	assert_true(t < 0);
	assert_true(s.lo == 0.5 + (double)t / 4);
	assert_true(s.hi == 0.5 - (double)t / 4);

	pr_rng_seed(&rng, 7);
	for (i = 0; i < n; i++) {
		a[i] = 100 + pr_rng_normal(&rng);
		b[i] = 101 + 2 * pr_rng_normal(&rng);
	}
	qsort(a, n, sizeof(*a), cmp_double);
	qsort(b, n, sizeof(*b), cmp_double);
	assert_int_equal(pr_hodges_lehmann(a, n, b, n, 0.99, &s, &err), PR_OK);
	assert_rank(a, n, b, n, s.lo, s.k);
	assert_rank(a, n, b, n, s.hi, nn - s.k + 1);
	assert_true(s.lo < s.estimate && s.estimate < s.hi);
	assert_true(fabs(s.estimate - 1) < 0.01);
	{
		/* The estimate is the mean of D(n^2/2) and D(n^2/2 + 1). */
		double m1, m2;

		assert_int_equal(pr_mwu_diff_select(a, n, b, n,
				     (uint64_t)(nn / 2), &m1, &err),
		    PR_OK);
		assert_int_equal(pr_mwu_diff_select(a, n, b, n,
				     (uint64_t)(nn / 2) + 1, &m2, &err),
		    PR_OK);
		assert_rank(a, n, b, n, m1, (uint64_t)(nn / 2));
		assert_rank(a, n, b, n, m2, (uint64_t)(nn / 2) + 1);
		assert_true(s.estimate == (m1 + m2) / 2);
	}
	free(a);
	free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mwu_fixture),
		cmocka_unit_test(test_exact_3x3),
		cmocka_unit_test(test_mwu_degenerate),
		cmocka_unit_test(test_mwu_large),
		cmocka_unit_test(test_hl_fixture),
		cmocka_unit_test(test_hl_seeds),
		cmocka_unit_test(test_hl_two_values),
		cmocka_unit_test(test_hl_errors),
		cmocka_unit_test(test_select_bruteforce),
		cmocka_unit_test(test_hl_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
