/*
 * tests/report/test_explain.c - the explanation (perfreg/explain.h) on
 * planted datasets of known co-movement: the primary is built as
 * y = 100 + 0.5 a + 0.25 e + noise, where a moves from 100 to 200 (it
 * accounts for 50 of the primary's change of 60, a share of 5/6) and e
 * from 100 to 140 (10 of 60, 1/6); b changes from 50 to 60 without any
 * part in y (its sd 5); c moves with y but does not change; d is noise.  The
 * ranking must be a, e, then b (changed, its share near 0), the
 * shares near 5/6 and 1/6, r large for a, and c and d changed in few of
 * the 20 datasets (no change is planted in them).  A/A: 400 sessions of
 * 20 side metrics with no change anywhere give an empty explanation in
 * at least 93% of them (BH at 5%; the rate is measured on 2,000
 * sessions in bench/explain-sim).  The work/efficiency split with
 * planted instructions and cycles, and the sentence when they are
 * absent.  Fixed seeds throughout.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/explain.h"
#include "perfreg/rng.h"

#define N 30
#define M 5

static double ybase[N], ynew[N], xb[M][N], xn[M][N];

static void
plant(uint64_t seed)
{
	struct pr_rng r;
	size_t i, s;

	pr_rng_seed(&r, seed);
	for (s = 0; s < 2; s++)
		for (i = 0; i < N; i++) {
			double *x[M], a, e, b, noise;
			size_t j;

			for (j = 0; j < M; j++)
				x[j] = s ? &xn[j][i] : &xb[j][i];
			a = (s ? 200 : 100) + 10 * pr_rng_normal(&r);
			e = (s ? 140 : 100) + 10 * pr_rng_normal(&r);
			b = (s ? 60 : 50) + 5 * pr_rng_normal(&r);
			noise = pr_rng_normal(&r);
			*x[0] = a;
			*x[1] = b;
			(s ? ynew : ybase)[i] =
			    100 + 0.5 * a + 0.25 * e + noise;
			*x[2] =
			    (s ? ynew : ybase)[i] - 0.5 * a + pr_rng_normal(&r);
			*x[3] = 7 + pr_rng_normal(&r);
			*x[4] = e;
			/* c (x[2]) follows y's unexplained part and e, and
			 * would change with e: take e's change out. */
			*x[2] -= s ? 10 : 0;
		}
}

static void
input(struct pr_explain_input *in, const double **mb, const double **mn,
    const char *const *names)
{
	size_t j;

	memset(in, 0, sizeof(*in));
	for (j = 0; j < M; j++) {
		mb[j] = xb[j];
		mn[j] = xn[j];
	}
	in->primary = "elapsed";
	in->nmetrics = M;
	in->names = names;
	in->base.primary = ybase;
	in->base.metric = mb;
	in->base.n = N;
	in->new_.primary = ynew;
	in->new_.metric = mn;
	in->new_.n = N;
}

static void
test_ranking(void **state)
{
	static const char *const names[M] = { "a", "b", "c", "d", "e" };
	const double *mb[M], *mn[M];
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	uint64_t seed;
	size_t k, false_pos = 0;

	(void)state;
	for (seed = 1; seed <= 20; seed++) {
		plant(seed);
		input(&in, mb, mn, names);
		assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
		assert_true(e.nchanged >= 3);
		assert_string_equal(names[e.items[0].metric], "a");
		assert_string_equal(names[e.items[1].metric], "e");
		assert_true(fabs(e.items[0].share - 5.0 / 6) < 0.2);
		assert_true(fabs(e.items[1].share - 1.0 / 6) < 0.15);
		assert_true(e.items[0].r > 0.8);
		/* a: +100% with an interval around it. */
		assert_true(e.items[0].lo < e.items[0].change &&
		    e.items[0].change < e.items[0].hi && e.items[0].lo > 0.8);
		assert_true(fabs(e.items[0].change - 1) < 0.1);
		for (k = 2; k < e.n; k++) {
			const char *nm = names[e.items[k].metric];

			if (strcmp(nm, "b") == 0) {
				assert_true(e.items[k].changed);
				assert_true(fabs(e.items[k].share) < 0.1);
			} else if (e.items[k].changed)
				false_pos++; /* c or d: no change planted */
		}
		assert_non_null(strstr(e.split, "no work/efficiency split"));
		pr_explain_release(&e);
	}
	/* 2 null metrics x 20 datasets at a 5% false discovery rate. */
	print_message("false positives: %zu of 40\n", false_pos);
	assert_true(false_pos <= 4);
}

/* Swapping the roles fails the ranking: b made the driver of y. */
static void
test_ranking_follows_the_data(void **state)
{
	static const char *const names[M] = { "a", "b", "c", "d", "e" };
	const double *mb[M], *mn[M];
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	size_t i;

	(void)state;
	plant(3);
	/* y now moves with b run by run (b: 50 -> 60, slope 6 = 60). */
	for (i = 0; i < N; i++) {
		ybase[i] = 100 + 6 * xb[1][i] + 0.1 * xb[3][i];
		ynew[i] = 100 + 6 * xn[1][i] + 0.1 * xn[3][i];
	}
	input(&in, mb, mn, names);
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_string_equal(names[e.items[0].metric], "b");
	assert_true(e.items[0].r > 0.9);
	pr_explain_release(&e);
}

static void
test_aa(void **state)
{
	enum { K = 20, S = 400 };
	static double ab[K][N], an[K][N], pb[N], pn[N];
	const double *mb[K], *mn[K];
	const char *names[K];
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	struct pr_rng r;
	size_t s, i, j, empty = 0;

	(void)state;
	pr_rng_seed(&r, 42);
	for (j = 0; j < K; j++) {
		mb[j] = ab[j];
		mn[j] = an[j];
		names[j] = "x";
	}
	memset(&in, 0, sizeof(in));
	in.primary = "elapsed";
	in.nmetrics = K;
	in.names = names;
	in.base = (struct pr_explain_side){ pb, mb, N };
	in.new_ = (struct pr_explain_side){ pn, mn, N };
	for (s = 0; s < S; s++) {
		for (i = 0; i < N; i++) {
			pb[i] = 10 + pr_rng_normal(&r);
			pn[i] = 10 + pr_rng_normal(&r);
			for (j = 0; j < K; j++) {
				ab[j][i] = 100 + 5 * pr_rng_normal(&r) +
				    (double)j * pb[i];
				an[j][i] = 100 + 5 * pr_rng_normal(&r) +
				    (double)j * pn[i];
			}
		}
		assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
		assert_int_equal(e.n, K);
		empty += e.nchanged == 0;
		pr_explain_release(&e);
	}
	print_message("A/A: empty in %zu of %d\n", empty, S);
	assert_true(empty >= S * 93 / 100);
}

static void
test_split(void **state)
{
	static const char *const names[2] = { "mon.perf.instructions",
		"mon.perf.cycles" };
	static double ib[N], in_[N], cb[N], cn[N];
	const double *mb[2] = { ib, cb }, *mn[2] = { in_, cn };
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	struct pr_rng r;
	size_t i;

	(void)state;
	pr_rng_seed(&r, 7);
	/* Same work, 12% more cycles per instruction. */
	for (i = 0; i < N; i++) {
		ib[i] = 1e9 * (1 + 0.01 * pr_rng_normal(&r));
		in_[i] = 1e9 * (1 + 0.01 * pr_rng_normal(&r));
		cb[i] = ib[i] * 1.00 * (1 + 0.01 * pr_rng_normal(&r));
		cn[i] = in_[i] * 1.12 * (1 + 0.01 * pr_rng_normal(&r));
		ybase[i] = cb[i] / 1e9;
		ynew[i] = cn[i] / 1e9;
	}
	memset(&in, 0, sizeof(in));
	in.primary = "elapsed";
	in.nmetrics = 2;
	in.names = names;
	in.base = (struct pr_explain_side){ ybase, mb, N };
	in.new_ = (struct pr_explain_side){ ynew, mn, N };
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_true(e.has_split);
	assert_false(e.work_changed);
	assert_true(e.cpi_changed);
	assert_true(fabs(e.cpi_change - 0.12) < 0.02);
	assert_non_null(strstr(e.split, "same work, slower per instruction"));
	pr_explain_release(&e);

	/* Less work, same CPI. */
	for (i = 0; i < N; i++) {
		in_[i] = 0.9 * ib[i] * (1 + 0.01 * pr_rng_normal(&r));
		cn[i] = in_[i] * (1 + 0.01 * pr_rng_normal(&r));
		ynew[i] = cn[i] / 1e9;
	}
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_true(e.work_changed);
	assert_false(e.cpi_changed);
	assert_non_null(strstr(e.split, "less work done"));
	pr_explain_release(&e);

	/* Too few runs of the primary. */
	in.base.n = 1;
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "elapsed"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranking),
		cmocka_unit_test(test_ranking_follows_the_data),
		cmocka_unit_test(test_aa),
		cmocka_unit_test(test_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
