/*
 * tests/run/test_shuffle.c - the distribution of the orders in which a
 * shuffled session runs its variants, not one order.  Every order of a
 * round must be possible and about as frequent as the others: with three
 * variants all 3! = 6 orders, with two variants both.  A shuffle reduced
 * to rotations (Sattolo's algorithm, drawing j below i - 1 instead of
 * below i) gives two of the six orders with three variants, and with two
 * variants always runs b before a; a shuffle that leaves an element in
 * place too often skews the counts.
 *
 * The test is deterministic: the seed is fixed, so the counts are always
 * the same, and they are checked with Pearson's chi-square statistic
 * against the 0.999 quantile of the chi-square distribution with (orders
 * - 1) degrees of freedom (scipy.stats.chi2.ppf(0.999, df): 20.515 for 5,
 * 10.828 for 1).  For the seeds below the statistic is far inside that
 * bound (the values are in the comments), and any of the bugs above puts
 * it far outside, whatever the seed.  Nothing is timed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/runner.h"

/* scipy.stats.chi2.ppf(0.999, 5) and scipy.stats.chi2.ppf(0.999, 1). */
#define CHI2_999_DF5 20.515
#define CHI2_999_DF1 10.828

/*
 * Runs a session of nv variants (each `true`, no shell) for rounds
 * shuffled rounds with the given seed, and counts how often each order of
 * a round occurred: count[code] where code numbers the permutation by its
 * variant sequence in base nv.  Returns the number of distinct codes.
 */
static void
count_orders(size_t nv, size_t rounds, uint64_t seed, unsigned *count,
    size_t ncodes)
{
	static const char *const names[] = { "a", "b", "c" };
	struct pr_session s;
	struct pr_runner_opts o;
	struct pr_error err;
	size_t i, r, k, code;

	assert_true(nv <= 3);
	pr_session_init(&s);
	for (i = 0; i < nv; i++)
		assert_int_equal(pr_session_add_variant(&s, names[i], "true", 0,
				     NULL, NULL, NULL, &err),
		    PR_OK);
	pr_runner_opts_init(&o);
	o.runs = rounds;
	o.warmup = 0;
	o.seed = seed;
	pr_error_clear(&err);
	if (pr_session_run(&s, &o, &err) != PR_OK)
		fail_msg("session failed: %s", err.msg);
	assert_int_equal(s.stop, PR_STOP_DONE);
	assert_int_equal(s.nruns, nv * rounds);
	memset(count, 0, ncodes * sizeof(*count));
	for (r = 0; r < rounds; r++) {
		code = 0;
		for (k = 0; k < nv; k++) {
			assert_int_equal(s.runs[r * nv + k].round, r);
			code = code * nv + s.runs[r * nv + k].variant;
		}
		assert_true(code < ncodes);
		count[code]++;
	}
	pr_session_release(&s);
}

/* Pearson's statistic of the counts of the codes that are permutations,
 * each expected rounds / nperm times; fails if a non-permutation code
 * (a variant twice in one round) occurred. */
static double
chi2(const unsigned *count, size_t ncodes, size_t nv, size_t rounds,
    size_t nperm)
{
	double e = (double)rounds / (double)nperm, x = 0, d;
	size_t code, c, k, seen, perms = 0;

	for (code = 0; code < ncodes; code++) {
		seen = 0;
		for (c = code, k = 0; k < nv; k++, c /= nv)
			seen |= (size_t)1 << (c % nv);
		if (seen != ((size_t)1 << nv) - 1) {
			assert_int_equal(count[code], 0);
			continue;
		}
		perms++;
		d = count[code] - e;
		x += d * d / e;
		print_message("order %zu: %u of %zu\n", code, count[code],
		    rounds);
	}
	assert_int_equal(perms, nperm);
	return x;
}

static void
test_three_variants(void **state)
{
	unsigned count[27];
	double x;

	(void)state;
	/* 60 rounds: 10 expected of each order.  Seed 1 gives 6.6. */
	count_orders(3, 60, 1, count, 27);
	x = chi2(count, 27, 3, 60, 6);
	print_message("chi-square %.3f, bound %.3f\n", x, CHI2_999_DF5);
	assert_true(x < CHI2_999_DF5);
}

static void
test_two_variants(void **state)
{
	unsigned count[4];
	double x;

	(void)state;
	/* 40 rounds: 20 expected of a-b and of b-a.  Seed 7 gives 0 (20 and 20). */
	count_orders(2, 40, 7, count, 4);
	x = chi2(count, 4, 2, 40, 2);
	print_message("chi-square %.3f, bound %.3f\n", x, CHI2_999_DF1);
	assert_true(x < CHI2_999_DF1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_variants),
		cmocka_unit_test(test_two_variants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
