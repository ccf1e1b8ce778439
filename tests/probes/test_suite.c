/*
 * tests/probes/test_suite.c - the suite driver (src/probes/suite.c) with
 * fake probes: a probe whose figures do not vary converges after
 * min_samples; one that varies with no target stops at max_samples
 * (capped) or at its budget; a probe that cannot run here is skipped
 * with its reason and the others still run; the cancel flag stops the
 * suite with "interrupted"; pr_suite_ab runs exactly the rounds asked,
 * both sides once a round, the order varying with the seed; the
 * convergence criterion matches the Student interval computed by hand.
 */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/distrib.h"
#include "perfreg/suite.h"

struct fake {
	int variant; /* 0 or 1 (suite ab) */
	double x;
	unsigned long calls;
};

/* The order in which the fake's samples were taken (suite ab). */
static int order[64];
static size_t norder;

static enum pr_status
fake_init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	struct fake *f = calloc(1, sizeof(*f));

	(void)notes;
	if (f == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	f->variant = o->variant != NULL && strcmp(o->variant, "b") == 0;
	f->x = 100;
	*state = f;
	return PR_OK;
}

static enum pr_status
flat_sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct fake *f = state;

	f->calls++;
	if (norder < 64)
		order[norder++] = f->variant;
	return pr_dataset_add(out, "fake.flat", "ns", PR_BETTER_LOWER,
	    f->x + f->variant, err);
}

static enum pr_status
noisy_sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct fake *f = state;

	f->calls++;
	return pr_dataset_add(out, "fake.noisy", "MB/s", PR_BETTER_HIGHER,
	    f->calls % 2 ? 50.0 : 150.0, err);
}

static enum pr_status
absent_init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	(void)o;
	(void)notes;
	*state = NULL;
	return pr_error_set(err, PR_ENOTFOUND, "not on this machine");
}

static void
fake_fini(void *state)
{
	free(state);
}

static const char *const variants[] = { "a", "b", NULL };

static const struct pr_probe flat = { "flat", "a flat fake", "none", variants,
	fake_init, flat_sample, fake_fini };
static const struct pr_probe noisy = { "noisy", "a noisy fake", "none", NULL,
	fake_init, noisy_sample, fake_fini };
static const struct pr_probe absent = { "absent", "cannot run", "none", NULL,
	absent_init, flat_sample, fake_fini };

static void
test_converge_cap_skip(void **state)
{
	const struct pr_probe *const probes[] = { &flat, &absent, &noisy };
	struct pr_suite_result *r = NULL;
	struct pr_suite_opts o;
	struct pr_error err;
	size_t n = 0;

	(void)state;
	pr_suite_opts_init(&o);
	o.min_samples = 4;
	o.max_samples = 7;
	o.budget_s = 3600;
	assert_int_equal(pr_suite_run(probes, 3, &o, &r, &n, &err), PR_OK);
	assert_int_equal(n, 3);
	/* Flat: converged at min_samples, not capped. */
	assert_int_equal(r[0].samples, 4);
	assert_true(r[0].converged);
	assert_false(r[0].capped);
	assert_null(r[0].skipped);
	assert_int_equal(r[0].data.metrics[0].values.n, 4);
	/* Absent: skipped with its reason, no samples. */
	assert_non_null(r[1].skipped);
	assert_string_equal(r[1].skipped, "not on this machine");
	assert_int_equal(r[1].samples, 0);
	/* Noisy: never within 1%, stops at max_samples. */
	assert_int_equal(r[2].samples, 7);
	assert_false(r[2].converged);
	assert_true(r[2].capped);
	assert_true(r[2].worst_pct > 1.0);
	pr_suite_results_free(r, n);
}

static void
test_target_zero_uses_budget(void **state)
{
	const struct pr_probe *const probes[] = { &flat };
	struct pr_suite_result *r = NULL;
	struct pr_suite_opts o;
	struct pr_error err;
	size_t n = 0;

	(void)state;
	pr_suite_opts_init(&o);
	o.target_pct = 0; /* a flat probe would converge at once */
	o.max_samples = 9;
	assert_int_equal(pr_suite_run(probes, 1, &o, &r, &n, &err), PR_OK);
	assert_int_equal(r[0].samples, 9);
	assert_false(r[0].converged);
	assert_true(r[0].capped);
	pr_suite_results_free(r, n);
}

static void
test_cancel(void **state)
{
	const struct pr_probe *const probes[] = { &flat, &noisy };
	volatile sig_atomic_t cancel = 1;
	struct pr_suite_result *r = NULL;
	struct pr_suite_opts o;
	struct pr_error err;
	size_t n = 0;

	(void)state;
	pr_suite_opts_init(&o);
	o.cancel = &cancel;
	assert_int_equal(pr_suite_run(probes, 2, &o, &r, &n, &err), PR_EINVAL);
	assert_string_equal(err.msg, "interrupted");
	pr_suite_results_free(r, n);
}

static void
test_ab(void **state)
{
	struct pr_suite_result *r = NULL;
	struct pr_suite_opts o;
	struct pr_error err;
	size_t i, a_first = 0;

	(void)state;
	pr_suite_opts_init(&o);
	o.rounds = 16;
	o.budget_s = 3600;
	norder = 0;
	assert_int_equal(pr_suite_ab(&flat, "a", "b", &o, &r, &err), PR_OK);
	assert_int_equal(r[0].samples, 16);
	assert_int_equal(r[1].samples, 16);
	assert_string_equal(r[0].label, "A");
	assert_string_equal(r[1].label, "B");
	assert_true(r[1].data.metrics[0].values.v[0] == 101.0);
	assert_int_equal(norder, 32);
	/* Each round samples both sides once, in a shuffled order. */
	for (i = 0; i < 32; i += 2) {
		assert_int_not_equal(order[i], order[i + 1]);
		a_first += order[i] == 0;
	}
	assert_true(a_first > 0 && a_first < 16);
	pr_suite_results_free(r, 2);
	/* A side that names nothing is an error. */
	assert_int_equal(pr_suite_ab(&noisy, "x", "", &o, &r, &err),
	    PR_ENOTFOUND);
	pr_suite_results_free(r, 2);
}

static void
test_halfwidth(void **state)
{
	double v[] = { 10, 12, 11, 13, 9 };
	double mean = 11, sd = sqrt(2.5);
	double want = 100 * pr_t_quantile(0.975, 4) * sd / sqrt(5) / mean;

	(void)state;
	assert_true(fabs(pr_suite_halfwidth_pct(v, 5) - want) < 1e-12);
	assert_true(isinf(pr_suite_halfwidth_pct(v, 1)));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_converge_cap_skip),
		cmocka_unit_test(test_target_zero_uses_budget),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_ab),
		cmocka_unit_test(test_halfwidth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
