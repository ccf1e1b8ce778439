/*
 * tests/probes/test_suite.c - the suite driver (src/probes/suite.c) with
 * fake probes: a probe whose figures do not vary converges after
 * min_samples; one that varies with no target stops at max_samples
 * (capped) or at its budget; a probe that cannot run here is skipped
 * with its reason and the others still run; the cancel flag stops the
 * suite with "interrupted"; pr_suite_ab runs exactly the rounds asked,
 * both sides once a round, the order varying with the seed; the
 * convergence criterion matches the Student interval computed by hand.
 * Configurations: the id changes with every configuration item and with
 * nothing else; the plan compares a changed configuration's sessions
 * with the previous configuration's (never a mix), an unchanged one's
 * new session with its own earlier sessions, and --baseline's choice
 * with this configuration's sessions.  What the report is built from:
 * the figures of the results, a figure's mean and half-width, the
 * counts of verdicts and the figures shown by default.
 */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/distrib.h"
#include "perfreg/report_html.h"
#include "perfreg/report_model.h"
#include "perfreg/report_suite.h"
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

/* A steady figure and a noisy one, which leaves at the third sample
 * (PR_ENOTFOUND, as an instruction that runs dry). */
static enum pr_status
leaving_sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct fake *f = state;
	enum pr_status st;

	f->calls++;
	if ((st = pr_dataset_add(out, "leaving.steady", "ns", PR_BETTER_LOWER,
		 f->x, err)) != PR_OK)
		return st;
	if (f->calls >= 3)
		return f->calls == 3 ? pr_error_set(err, PR_ENOTFOUND,
					   "leaving: the noisy part left")
				     : PR_OK;
	return pr_dataset_add(out, "leaving.noisy", "ns", PR_BETTER_LOWER,
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
	fake_init, flat_sample, fake_fini, PR_PROBE_FIGURE_MEAN };
static const struct pr_probe noisy = { "noisy", "a noisy fake", "none", NULL,
	fake_init, noisy_sample, fake_fini, PR_PROBE_FIGURE_MEAN };
static const struct pr_probe leaving = { "leaving", "a part leaves", "none",
	NULL, fake_init, leaving_sample, fake_fini, PR_PROBE_FIGURE_MEAN };
static const struct pr_probe absent = { "absent", "cannot run", "none", NULL,
	absent_init, flat_sample, fake_fini, PR_PROBE_FIGURE_MEAN };

static void
test_converge_cap_skip(void **state)
{
	const struct pr_probe *const probes[] = { &flat, &absent, &noisy,
		&leaving };
	struct pr_suite_result *r = NULL;
	struct pr_suite_opts o;
	struct pr_error err;
	size_t n = 0;

	(void)state;
	pr_suite_opts_init(&o);
	o.min_samples = 4;
	o.max_samples = 7;
	o.budget_s = 3600;
	assert_int_equal(pr_suite_run(probes, 4, &o, &r, &n, &err), PR_OK);
	assert_int_equal(n, 4);
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
	/* Leaving: a part left out on the way (its figures frozen, a wide
	 * interval) does not hold the probe back; the figures still
	 * measured converge at min_samples, and the part left out goes. */
	assert_int_equal(r[3].samples, 4);
	assert_true(r[3].converged);
	assert_false(r[3].capped);
	assert_non_null(strstr(r[3].notes, "leaving: the noisy part left"));
	assert_int_equal(r[3].data.n, 1);
	assert_non_null(pr_dataset_find(&r[3].data, "leaving.steady"));
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

/* A fake clock: set-up takes 0.5 s, a sample 1 s. */
static double fake_now;

static double
fake_clock(void *arg)
{
	(void)arg;
	return fake_now;
}

static enum pr_status
slow_init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	fake_now += 0.5;
	return fake_init(o, state, notes, err);
}

static enum pr_status
slow_sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	fake_now += 1.0;
	return noisy_sample(state, out, err);
}

static const struct pr_probe slow = { "slow", "a slow fake", "fake", NULL,
	slow_init, slow_sample, fake_fini, PR_PROBE_FIGURE_MEAN };

static void
test_budget(void **state)
{
	const struct pr_probe *const probes[] = { &slow, &slow };
	struct pr_suite_result *r = NULL;
	struct pr_suite_opts o;
	struct pr_error err;
	size_t n = 0;

	(void)state;
	pr_suite_opts_init(&o);
	o.now = fake_clock;
	o.target_pct = 0;
	o.min_samples = 5;
	/* 10 s for two probes: the first's share is 5 s from its set-up;
	 * a fifth sample would end at 5.5 s, so it stops at 4 (the budget
	 * before min_samples); the second gets what is left, 5.5 s, and
	 * the suite ends at the budget, not past it. */
	fake_now = 0;
	o.budget_s = 10;
	assert_int_equal(pr_suite_run(probes, 2, &o, &r, &n, &err), PR_OK);
	assert_int_equal(r[0].samples, 4);
	assert_true(r[0].budget_cut);
	assert_true(r[0].elapsed_s == 4.5);
	assert_int_equal(r[1].samples, 5);
	assert_true(r[1].budget_cut);
	assert_true(fake_now <= 10.0);
	pr_suite_results_free(r, n);
	/* A budget below the floor: 2 samples each all the same. */
	fake_now = 0;
	o.budget_s = 1;
	assert_int_equal(pr_suite_run(probes, 2, &o, &r, &n, &err), PR_OK);
	assert_int_equal(r[0].samples, PR_SUITE_SAMPLES_FLOOR);
	assert_int_equal(r[1].samples, PR_SUITE_SAMPLES_FLOOR);
	assert_true(fake_now == 5.0);
	pr_suite_results_free(r, n);
	/* suite ab: a round takes 2 s; with 7 s from the set-up (1 s of
	 * it) a third round would end at 7 s, a fourth at 9 s: 3 rounds. */
	fake_now = 0;
	o.budget_s = 7;
	o.rounds = 100;
	assert_int_equal(pr_suite_ab(&slow, "x", "y", &o, &r, &err), PR_OK);
	assert_int_equal(r[0].samples, 3);
	assert_int_equal(r[1].samples, 3);
	assert_true(fake_now <= 7.0);
	pr_suite_results_free(r, 2);
}

static double late_need, late_left, late_first_need, late_first_left;
static int late_calls;

static void
on_late(double need_s, double left_s, void *arg)
{
	(void)arg;
	if (late_calls++ == 0) {
		late_first_need = need_s;
		late_first_left = left_s;
	}
	late_need = need_s;
	late_left = left_s;
}

/* Running late is told after every probe, from the first on, while the
 * floors measured (set-up and PR_SUITE_SAMPLES_FLOOR samples: 2.5 s a
 * probe here) show that the probes left cannot be run in what is left
 * of the budget. */
static void
test_late(void **state)
{
	const struct pr_probe *const probes[] = { &slow, &slow, &slow, &slow };
	struct pr_suite_result *r = NULL;
	struct pr_suite_opts o;
	struct pr_error err;
	size_t n = 0, i;

	(void)state;
	pr_suite_opts_init(&o);
	o.now = fake_clock;
	o.on_late = on_late;
	o.target_pct = 0;
	/* 6 s for four probes: after the first (2.5 s) three need 7.5 s
	 * and 3.5 s are left; after the third, one needs 2.5 s and the
	 * budget was past 1.5 s before. */
	fake_now = 0;
	late_calls = 0;
	late_first_need = 0;
	o.budget_s = 6;
	assert_int_equal(pr_suite_run(probes, 4, &o, &r, &n, &err), PR_OK);
	assert_int_equal(late_calls, 3);
	assert_true(late_first_need == 7.5);
	assert_true(late_first_left == 3.5);
	assert_true(late_need == 2.5);
	assert_true(late_left == -1.5);
	for (i = 0; i < n; i++) {
		assert_true(r[i].floor_s == 2.5);
		assert_int_equal(r[i].samples, PR_SUITE_SAMPLES_FLOOR);
	}
	pr_suite_results_free(r, n);
	/* 40 s hold them: never said. */
	fake_now = 0;
	late_calls = 0;
	o.budget_s = 40;
	assert_int_equal(pr_suite_run(probes, 4, &o, &r, &n, &err), PR_OK);
	assert_int_equal(late_calls, 0);
	assert_true(fake_now <= 40.0);
	pr_suite_results_free(r, n);
}

/* A session's samples: three per figure around the means given. */
static void
session(struct pr_dataset *d, double a, double b, int with_c)
{
	static const double jitter[] = { 0.995, 1.0, 1.005 };
	struct pr_error err;
	size_t i;

	pr_dataset_init(d);
	for (i = 0; i < 3; i++) {
		assert_int_equal(pr_dataset_add(d, "fig.a", "ns",
				     PR_BETTER_LOWER, a * jitter[i], &err),
		    PR_OK);
		assert_int_equal(pr_dataset_add(d, "fig.b", "MB/s",
				     PR_BETTER_HIGHER, b * jitter[2 - i], &err),
		    PR_OK);
		if (with_c)
			assert_int_equal(pr_dataset_add(d, "fig.c", "ns",
					     PR_BETTER_LOWER, 7.0, &err),
			    PR_OK);
	}
}

/* Three base sessions and a new one twice as slow in fig.a, fig.b as
 * before, fig.c (constant) in the new one only when with_c. */
static void
slower_a(struct pr_dataset *bd, struct pr_dataset *nd, int with_c)
{
	session(&bd[0], 100, 500, 1);
	session(&bd[1], 101, 505, 1);
	session(&bd[2], 99, 498, 1);
	session(&nd[0], 200, 502, with_c);
}

static void
test_compare_sessions(void **state)
{
	const struct pr_suite_figure fig[] = {
		{ "fig.a", "ns", PR_BETTER_LOWER },
		{ "fig.b", "MB/s", PR_BETTER_HIGHER },
		{ "fig.c", "ns", PR_BETTER_LOWER },
	};
	struct pr_dataset bd[3], nd[1];
	struct pr_moderated_opts mo;
	struct pr_suite_cmp sc;
	struct pr_error err;
	size_t i;

	(void)state;
	/* Three base sessions; the new one twice as slow in fig.a, fig.b
	 * as before, fig.c missing. */
	slower_a(bd, nd, 0);
	pr_moderated_opts_init(&mo);
	mo.adjust = PR_ADJUST_HOLM;
	assert_int_equal(pr_suite_compare(bd, 3, nd, 1, fig, 3, &mo, &sc, &err),
	    PR_OK);
	/* fig.c is left out: the new session has none. */
	assert_int_equal(sc.n, 2);
	assert_int_equal(sc.index[0], 0);
	assert_int_equal(sc.index[1], 1);
	assert_int_equal(sc.kb[0], 3);
	assert_int_equal(sc.kn[0], 1);
	/* The session means are the values: 100, 101, 99 against 200. */
	assert_true(fabs(sc.values[0] - 100) < 1e-9);
	assert_true(fabs(sc.values[2] - 99) < 1e-9);
	assert_true(fabs(sc.values[sc.nb] - 200) < 1e-9);
	assert_int_equal(sc.cmp[0].verdict, PR_VERDICT_REGRESSION);
	assert_int_equal(sc.cmp[0].method, PR_METHOD_MODERATED);
	assert_true(
	    fabs(sc.cmp[0].change_pct -
		100.0 * (200.0 / cbrt(100.0 * 101.0 * 99.0) - 1)) < 1e-6);
	assert_true(sc.cmp[1].verdict != PR_VERDICT_REGRESSION &&
	    sc.cmp[1].verdict != PR_VERDICT_IMPROVEMENT);
	for (i = 0; i < sc.n; i++)
		assert_true(!sc.cmp[i].have_ci || sc.cmp[i].ci_lo_pct > -100);
	pr_suite_cmp_release(&sc);
	/* One session a side: the bound decides, and says so. */
	assert_int_equal(pr_suite_compare(bd, 1, nd, 1, fig, 3, &mo, &sc, &err),
	    PR_OK);
	assert_int_equal(sc.n, 2);
	assert_int_equal(sc.cmp[0].method, PR_METHOD_SESSION_BOUND);
	assert_true(sc.cmp[0].notes & PR_NOTE_ONE_SESSION);
	pr_suite_cmp_release(&sc);
	for (i = 0; i < 3; i++)
		pr_dataset_release(&bd[i]);
	pr_dataset_release(&nd[0]);
}

/*
 * A session's value from its process values (pr_suite_session_value): the
 * median with the mean's error times c_n, against the reference values of
 * tests/probes/gen_suite_median.py (numpy's median and standard
 * deviation, c_n by scipy's integration over the order statistics; the
 * C code's c_n has 4 digits, hence 1e-4 relative), the first set
 * handoff.futex.p50's processes in bench/README.md's session 10 (one
 * stalled); fewer than 3 values, the mean; more than
 * PR_SUITE_PROCESSES_MAX, the limit sqrt(pi / 2).  The mean rule is the
 * mean and sd / sqrt(n) / mean.
 */
static void
test_session_median(void **state)
{
	static const struct {
		double v[5];
		size_t n;
		double value, se;
	} ref[] = {
		{ { 1606, 46110, 1642, 1620 }, 4, 1631, 0.95309724622650793 },
		{ { 100, 101, 103 }, 3, 101, 0.010097180367702935 },
		{ { 5, 4, 3, 2, 1 }, 5, 3, 0.28226940520138472 },
		{ { 2, 2, 2, 2 }, 4, 2, 0 },
		{ { 10, 20 }, 2, 15, 0.33333333333333331 },
	};
	double v[101], value, se;
	struct pr_error err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		assert_int_equal(pr_suite_session_value(ref[i].v, ref[i].n,
				     PR_SUITE_VALUE_MEDIAN, &value, &se, &err),
		    PR_OK);
		assert_true(fabs(value - ref[i].value) <= 1e-12 * ref[i].value);
		assert_true(fabs(se - ref[i].se) <= 1e-4 * ref[i].se);
	}
	assert_int_equal(pr_suite_session_value(ref[0].v, 4,
			     PR_SUITE_VALUE_MEAN, &value, &se, &err),
	    PR_OK);
	assert_true(fabs(value - 12744.5) < 1e-9);
	/* 1..101: the median 51 (the mean too), the error sqrt(pi / 2) sd /
	 * sqrt(101) / 51, sd = sqrt(101 * 102 / 12) (the values' variance
	 * n (n + 1) / 12). */
	for (i = 0; i < 101; i++)
		v[i] = (double)(101 - i);
	assert_int_equal(pr_suite_session_value(v, 101, PR_SUITE_VALUE_MEDIAN,
			     &value, &se, &err),
	    PR_OK);
	assert_true(fabs(value - 51) < 1e-12);
	assert_true(fabs(se -
			sqrt(2 * atan(1.0)) * sqrt(101.0 * 102 / 12) /
			    sqrt(101.0) / 51) < 1e-12);
}

/* Session h of test_stalled_process: figure j's 4 process values. */
static void
stalled_session(struct pr_dataset *d, const double (*v)[4], size_t nfig,
    const struct pr_suite_figure *fig)
{
	struct pr_error err;
	size_t j, q;

	pr_dataset_init(d);
	for (j = 0; j < nfig; j++)
		for (q = 0; q < 4; q++)
			assert_int_equal(pr_dataset_add(d, fig[j].name,
					     fig[j].unit, fig[j].better,
					     v[j][q], &err),
			    PR_OK);
}

/*
 * One stalled process of four is not a regression (issue 10, real A/A;
 * bench/README.md, "The suite's verdicts"): the process values of six
 * figures in five A/A sessions of the idle machine (real7.db, sessions 1,
 * 2, 3, 5, 7) as the base, and session 10 as the new one, whose second
 * process had handoff.futex.p50 and .p99 28 and 32 times the others'.
 * By the median of the process values (PR_SUITE_VALUE_MEDIAN) nothing is
 * called; by their mean alone (PR_SUITE_VALUE_MEAN), futex.p50 is a
 * regression of about +700%, as `perfreg suite` called it there; by the
 * suite's rule (PR_SUITE_VALUE_SESSIONS, the mean and a call only when
 * the new session's processes carry it) nothing, futex.p50 in
 * sc.apart as the mean's regression; and by PR_SUITE_VALUE_BOTH nothing.
 */
static void
test_stalled_process(void **state)
{
	static const struct pr_suite_figure fig[] = {
		{ "handoff.futex.p50", "ns", PR_BETTER_LOWER },
		{ "handoff.futex.p99", "ns", PR_BETTER_LOWER },
		{ "handoff.pipe.p50", "ns", PR_BETTER_LOWER },
		{ "crypto.sha256.16384B", "MB/s", PR_BETTER_HIGHER },
		{ "syscall.getppid", "ns", PR_BETTER_LOWER },
		{ "copy.memcpy.1024B", "MB/s", PR_BETTER_HIGHER },
	};
	static const double v[6][6][4] = {
		{ { 1600, 1568, 1600, 1650 }, { 2194, 2131, 2227, 2050 },
		    { 1960, 1927, 1963, 2014 }, { 1828, 1827, 1829, 1780 },
		    { 70.9, 70.83, 71.74, 70.74 },
		    { 198500, 198600, 198600, 182400 } },
		{ { 1644, 1597, 1595, 1598 }, { 2635, 2199, 2100, 2115 },
		    { 1924, 1950, 1951, 2004 }, { 1780, 1924, 1829, 1742 },
		    { 70.26, 72.76, 72.86, 70.86 },
		    { 207100, 209000, 193000, 192600 } },
		{ { 1600, 1599, 1559, 1640 }, { 2233, 2148, 2191, 2273 },
		    { 1952, 1949, 1906, 2009 }, { 1732, 1780, 1793, 1828 },
		    { 72.09, 69.01, 70.89, 75.62 },
		    { 204300, 198600, 204300, 198600 } },
		{ { 1618, 1585, 1593, 1644 }, { 2342, 2106, 2140, 2359 },
		    { 1972, 1947, 1943, 2005 }, { 1780, 1779, 1780, 1780 },
		    { 70.83, 70.51, 72.27, 72.9 },
		    { 193500, 198600, 193000, 192900 } },
		{ { 1646, 1634, 1479, 1592 }, { 2362, 2150, 1947, 2313 },
		    { 2021, 1996, 1818, 1906 }, { 1779, 1732, 1828, 1780 },
		    { 72.83, 70.87, 69.05, 68.97 },
		    { 187400, 197400, 198600, 206600 } },
		/* The new session: its second process stalled. */
		{ { 1606, 46110, 1642, 1620 }, { 1930, 69950, 2154, 2187 },
		    { 1957, 2004, 2004, 1956 }, { 1732, 1739, 1791, 1780 },
		    { 72.81, 72.94, 70.88, 71.01 },
		    { 188200, 192900, 198600, 185800 } },
	};
	static const enum pr_suite_value rules[] = { PR_SUITE_VALUE_SESSIONS,
		PR_SUITE_VALUE_BOTH };
	struct pr_dataset d[6];
	struct pr_suite_counts cnt;
	struct pr_suite_cmp sc;
	struct pr_error err;
	size_t h, r;

	(void)state;
	for (h = 0; h < 6; h++)
		stalled_session(&d[h], v[h], 6, fig);
	assert_int_equal(pr_suite_compare_value(d, 5, &d[5], 1, fig, 6, NULL,
			     PR_SUITE_VALUE_MEDIAN, &sc, &err),
	    PR_OK);
	assert_int_equal(pr_suite_cmp_gate(&sc, fig, &err), PR_OK);
	pr_suite_count(&sc, &cnt);
	assert_int_equal(cnt.figures, 6);
	assert_int_equal(cnt.regressions + cnt.improvements, 0);
	/* The new session's futex.p50 is its processes' median. */
	assert_true(fabs(sc.values[sc.nb] - 1631) < 1e-9);
	pr_suite_cmp_release(&sc);
	/* The mean of the process values: the stalled process moves the
	 * session, and the comparison calls it. */
	assert_int_equal(pr_suite_compare_value(d, 5, &d[5], 1, fig, 6, NULL,
			     PR_SUITE_VALUE_MEAN, &sc, &err),
	    PR_OK);
	assert_int_equal(sc.cmp[0].verdict, PR_VERDICT_REGRESSION);
	assert_true(sc.cmp[0].change_pct > 600);
	assert_null(sc.apart);
	pr_suite_cmp_release(&sc);
	/* The suite's rule (the same mean, not carried by the processes),
	 * then both rules: nothing called, futex.p50 and .p99 apart. */
	for (r = 0; r < 2; r++) {
		assert_int_equal(pr_suite_compare_value(d, 5, &d[5], 1, fig, 6,
				     NULL, rules[r], &sc, &err),
		    PR_OK);
		pr_suite_count(&sc, &cnt);
		assert_int_equal(cnt.regressions + cnt.improvements, 0);
		assert_true(sc.cmp[0].change_pct > 600);
		assert_non_null(sc.apart);
		assert_int_equal(sc.apart[0], PR_VERDICT_REGRESSION);
		assert_int_equal(sc.apart[1], PR_VERDICT_REGRESSION);
		assert_int_equal(sc.uncarried, 2);
		for (h = 2; h < 6; h++)
			assert_int_equal(sc.apart[h], PR_VERDICT_INCONCLUSIVE);
		pr_suite_cmp_release(&sc);
	}
	for (h = 0; h < 6; h++)
		pr_dataset_release(&d[h]);
}

/* The six figures of test_carried_sessions and test_carried_level. */
static const struct pr_suite_figure carried_fig[] = {
	{ "syscall.getppid", "ns", PR_BETTER_LOWER },
	{ "crypto.sha256.16384B", "MB/s", PR_BETTER_HIGHER },
	{ "handoff.pipe.p50", "ns", PR_BETTER_LOWER },
	{ "copy.memcpy.1024B", "MB/s", PR_BETTER_HIGHER },
	{ "fault.anon", "ns", PR_BETTER_LOWER },
	{ "random.getrandom.512B", "MB/s", PR_BETTER_HIGHER },
};

/*
 * The carried check takes every new session's processes (review of
 * session 15, S4: with only the first's, a mutant survived): after a
 * change of configuration the new side is two sessions, both 30% above
 * the base's level by their means, the first with three processes at
 * +50% and one at -30%, the second with all four at +30%.  Their eight
 * values together differ from the level (t = 3.2, 7 df, p = 0.014): the
 * change is carried and called, as the mean of the sessions calls it;
 * the first session's four alone (t = 1.5) would not carry it.
 */
static void
test_carried_sessions(void **state)
{
	const struct pr_suite_figure *fig = carried_fig;
	static const double v[5][6][4] = {
		{ { 100, 101, 99, 100 }, { 1800, 1810, 1790, 1805 },
		    { 1950, 1960, 1940, 1955 },
		    { 198000, 199000, 197500, 198500 }, { 500, 502, 498, 501 },
		    { 300, 301, 299, 300.5 } },
		{ { 100.5, 100, 99.5, 101 }, { 1805, 1795, 1800, 1810 },
		    { 1955, 1950, 1945, 1960 },
		    { 198500, 198000, 199000, 197000 }, { 501, 499, 500, 502 },
		    { 300.5, 300, 299.5, 301 } },
		{ { 99.5, 100.5, 100, 99 }, { 1795, 1800, 1805, 1790 },
		    { 1945, 1955, 1950, 1940 },
		    { 197500, 198500, 198000, 199000 }, { 499, 500, 501, 498 },
		    { 299.5, 300.5, 300, 299 } },
		/* The new side: three processes 50% slower and one 30%
		 * faster, then four 30% slower. */
		{ { 150, 150, 150, 70 }, { 1800, 1805, 1795, 1800 },
		    { 1950, 1955, 1945, 1950 },
		    { 198000, 198500, 197500, 198000 }, { 500, 501, 499, 500 },
		    { 300, 300.5, 299.5, 300 } },
		{ { 130, 131, 129, 130 }, { 1805, 1800, 1795, 1802 },
		    { 1952, 1948, 1955, 1950 },
		    { 198200, 197800, 198400, 198000 },
		    { 500.5, 499.5, 500, 501 }, { 300.2, 299.8, 300.4, 300 } },
	};
	static const double first[4] = { 150, 150, 150, 70 };
	struct pr_dataset d[5];
	struct pr_suite_cmp sc;
	struct pr_error err;
	double level;
	size_t h;

	(void)state;
	for (h = 0; h < 5; h++)
		stalled_session(&d[h], v[h], 6, fig);
	assert_int_equal(pr_suite_compare_value(d, 3, &d[3], 2, fig, 6, NULL,
			     PR_SUITE_VALUE_MEAN, &sc, &err),
	    PR_OK);
	assert_int_equal(sc.cmp[0].verdict, PR_VERDICT_REGRESSION);
	pr_suite_cmp_release(&sc);
	assert_int_equal(pr_suite_compare_value(d, 3, &d[3], 2, fig, 6, NULL,
			     PR_SUITE_VALUE_SESSIONS, &sc, &err),
	    PR_OK);
	assert_int_equal(sc.cmp[0].verdict, PR_VERDICT_REGRESSION);
	assert_int_equal(sc.uncarried, 0);
	pr_suite_cmp_release(&sc);
	/* The first new session's processes alone do not carry it. */
	level = cbrt(100 * 100.25 * 99.75);
	assert_false(pr_suite_carried(first, 4, level, 0.95));
	for (h = 0; h < 5; h++)
		pr_dataset_release(&d[h]);
}

/*
 * The level the carried rule tests the new processes against is the
 * base's level, the geometric mean of its session values (review of
 * session 15, S4: a level 1% off survived every test): three tight base
 * sessions of six figures (each within 0.02%), the new session's
 * getppid processes tightly at +1.0%, the rest unchanged.  The moderated
 * t calls +1%, a regression, and the processes carry it (t about 250
 * against the level); against a level 1% higher they would not (t about
 * 0), nor against a level of the first base session if it were 101.
 */
static void
test_carried_level(void **state)
{
	const struct pr_suite_figure *fig = carried_fig;
	static const double v[4][6][4] = {
		{ { 100, 100.01, 99.99, 100 }, { 1800, 1800.2, 1799.8, 1800 },
		    { 1950, 1950.2, 1949.8, 1950 },
		    { 198000, 198020, 197980, 198000 },
		    { 500, 500.05, 499.95, 500 },
		    { 300, 300.03, 299.97, 300 } },
		{ { 100.02, 100.03, 100.01, 100.02 },
		    { 1800.3, 1800.5, 1800.1, 1800.3 },
		    { 1950.3, 1950.5, 1950.1, 1950.3 },
		    { 198030, 198050, 198010, 198030 },
		    { 500.08, 500.1, 500.06, 500.08 },
		    { 300.05, 300.06, 300.04, 300.05 } },
		{ { 99.98, 99.99, 99.97, 99.98 },
		    { 1799.7, 1799.9, 1799.5, 1799.7 },
		    { 1949.7, 1949.9, 1949.5, 1949.7 },
		    { 197970, 197990, 197950, 197970 },
		    { 499.92, 499.94, 499.9, 499.92 },
		    { 299.95, 299.96, 299.94, 299.95 } },
		{ { 101, 101.01, 100.99, 101 }, { 1800, 1800.1, 1799.9, 1800 },
		    { 1950, 1950.1, 1949.9, 1950 },
		    { 198000, 198010, 197990, 198000 },
		    { 500, 500.02, 499.98, 500 },
		    { 300, 300.01, 299.99, 300 } },
	};
	static const double news[4] = { 101, 101.01, 100.99, 101 };
	struct pr_dataset d[4];
	struct pr_suite_cmp sc;
	struct pr_error err;
	double level;
	size_t h;

	(void)state;
	for (h = 0; h < 4; h++)
		stalled_session(&d[h], v[h], 6, fig);
	assert_int_equal(pr_suite_compare_value(d, 3, &d[3], 1, fig, 6, NULL,
			     PR_SUITE_VALUE_SESSIONS, &sc, &err),
	    PR_OK);
	assert_int_equal(sc.cmp[0].verdict, PR_VERDICT_REGRESSION);
	assert_true(sc.cmp[0].change_pct > 0.99 && sc.cmp[0].change_pct < 1.01);
	assert_int_equal(sc.uncarried, 0);
	for (h = 1; h < sc.n; h++)
		assert_int_not_equal(sc.cmp[h].verdict, PR_VERDICT_REGRESSION);
	pr_suite_cmp_release(&sc);
	level = cbrt(100 * 100.02 * 99.98);
	assert_true(pr_suite_carried(news, 4, level, 0.95));
	assert_false(pr_suite_carried(news, 4, level * 1.01, 0.95));
	for (h = 0; h < 4; h++)
		pr_dataset_release(&d[h]);
}

/*
 * The suite's check that a change is carried by the new session's
 * processes (pr_suite_carried) against scipy's one-sample t
 * (tests/probes/gen_suite_carried.py: t, p, p < 0.05): one process apart
 * from three at the level gives t = 1 however far it is (46110, 1e30,
 * and 1e300, whose square would overflow), the stalled futex process of
 * real10.db's session 4 about 1; a change in all four processes is
 * carried; three of four apart, t = 3, p = 0.058, is not; two values give
 * t with 1 df; fewer than two, or values all equal, cannot say (1).
 */
static void
test_carried(void **state)
{
	static const struct {
		double v[4];
		size_t n;
		double level, t, p;
		int carried;
	} ref[] = {
		{ { 1415, 1405, 51478, 1408 }, 4, 1433.5999999999999,
		    0.9980613151292298, 0.39180463601118387, 0 },
		{ { 1600, 1600, 1600, 46110 }, 4, 1600, 1, 0.39100221895577053,
		    0 },
		{ { 1600, 1600, 1600, 1e+30 }, 4, 1600, 1, 0.39100221895577053,
		    0 },
		{ { 10, 11, 12, 13 }, 4, 9, 3.872983346207417,
		    0.030466291662170977, 1 },
		{ { 10, 11, 12, 13 }, 4, 10, 2.3237900077244502,
		    0.10272807885839903, 0 },
		{ { 1300, 1290, 1310, 1295 }, 4, 1433.5999999999999,
		    -31.58402996090631, 6.974338728579748e-05, 1 },
		{ { 5, 7 }, 2, 1, 5, 0.12566591637800234, 0 },
		{ { 2, 2, 2, 40 }, 4, 2, 1, 0.39100221895577053, 0 },
		{ { 2, 40, 40, 40 }, 4, 2, 3, 0.057668885622437313, 0 },
	};
	static const double huge[] = { 1600, 1600, 1600, 1e300 };
	static const double same[] = { 7, 7, 7 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		/* The reference p on either side of 1 - conf. */
		assert_int_equal(pr_suite_carried(ref[i].v, ref[i].n,
				     ref[i].level, 0.95),
		    ref[i].carried);
		assert_int_equal(pr_suite_carried(ref[i].v, ref[i].n,
				     ref[i].level, 1 - ref[i].p * 0.999),
		    0);
		assert_int_equal(pr_suite_carried(ref[i].v, ref[i].n,
				     ref[i].level, 1 - ref[i].p * 1.001),
		    1);
	}
	assert_int_equal(pr_suite_carried(huge, 4, 1600, 0.95), 0);
	assert_int_equal(pr_suite_carried(huge, 4, 1600,
			     1 - 0.39100221895577053 * 1.001),
	    1);
	assert_int_equal(pr_suite_carried(same, 3, 1, 0.95), 1);
	assert_int_equal(pr_suite_carried(same, 1, 1, 0.95), 1);
}

/* tests/data/suite/real10-units.txt into d[0..10) (session i + 1 in
 * d[i]) and the figures of session 1, in order, into fig (names the
 * caller's, free()). */
static size_t
real10_load(struct pr_dataset *d, struct pr_suite_figure *fig, size_t max)
{
	FILE *fp = fopen("tests/data/suite/real10-units.txt", "r");
	char name[64], better[16];
	struct pr_error err;
	double v[4];
	size_t nf = 0, q;
	int sid;

	assert_non_null(fp);
	for (q = 0; q < 10; q++)
		pr_dataset_init(&d[q]);
	while (fscanf(fp, "%d %63s %15s %lf %lf %lf %lf", &sid, name, better,
		   &v[0], &v[1], &v[2], &v[3]) == 7) {
		enum pr_better b = strcmp(better, "higher") == 0
		    ? PR_BETTER_HIGHER
		    : PR_BETTER_LOWER;

		assert_true(sid >= 1 && sid <= 10);
		if (sid == 1) {
			assert_true(nf < max);
			fig[nf].name = strdup(name);
			fig[nf].unit = "";
			fig[nf].better = b;
			nf++;
		}
		for (q = 0; q < 4; q++)
			assert_int_equal(pr_dataset_add(&d[sid - 1], name, "",
					     b, v[q], &err),
			    PR_OK);
	}
	assert_int_equal(fclose(fp), 0);
	return nf;
}

/* The calls of the comparison of d[nw] with d[base[0..nb)] by rule, as
 * the suite makes it (the gate too): their count, and into *sc. */
static size_t
real10_cmp(struct pr_dataset *d, const size_t *base, size_t nb, size_t nw,
    const struct pr_suite_figure *fig, size_t nf, enum pr_suite_value rule,
    struct pr_suite_cmp *sc)
{
	struct pr_dataset bd[10];
	struct pr_suite_counts cnt;
	struct pr_error err;
	size_t i;

	for (i = 0; i < nb; i++)
		bd[i] = d[base[i]];
	assert_int_equal(pr_suite_compare_value(bd, nb, &d[nw], 1, fig, nf,
			     NULL, rule, sc, &err),
	    PR_OK);
	assert_int_equal(pr_suite_cmp_gate(sc, fig, &err), PR_OK);
	pr_suite_count(sc, &cnt);
	return cnt.regressions + cnt.improvements;
}

/*
 * The suite's rule on real sessions (bench/README.md, "A change carried
 * by the processes"): the ten `suite --quick` sessions of real10.db, one
 * value a process (tests/probes/gen_suite_real10.py), session 4 slowed
 * from outside (OPENSSL_ia32cap), the others A/A, and in five of them one
 * process of four stalled in the futex hand-off (about 51,000 ns against
 * 1,420).
 * - A/A: each A/A session against every 1-, 2- and 3-subset of the A/A
 *   sessions before it (246 comparisons): the suite's rule
 *   (PR_SUITE_VALUE_SESSIONS) calls nothing; the mean alone calls the
 *   stalled process (session 10 new), the median alone the machine's
 *   drift of 1-3% (copy's quantised figures, at k = 2).
 * - Session 4 against 1, 2 and 3: the suite's rule calls exactly the 19
 *   regressions (aes-128-gcm 16 B..16 KiB, chacha20-poly1305 64 B..16
 *   KiB, sha256 64 B..16 KiB, pipe-digest.sha256's three) and
 *   chacha20-poly1305.16B's improvement; the mean alone also session 4's
 *   own stalled futex process (p50 and p99), which the rule lists apart.
 */
static void
test_real10(void **state)
{
	static const char *const slowed[] = { "crypto.aes-128-gcm.16B",
		"crypto.aes-128-gcm.64B", "crypto.aes-128-gcm.256B",
		"crypto.aes-128-gcm.1024B", "crypto.aes-128-gcm.8192B",
		"crypto.aes-128-gcm.16384B", "crypto.chacha20-poly1305.64B",
		"crypto.chacha20-poly1305.256B",
		"crypto.chacha20-poly1305.1024B",
		"crypto.chacha20-poly1305.8192B",
		"crypto.chacha20-poly1305.16384B", "crypto.sha256.64B",
		"crypto.sha256.256B", "crypto.sha256.1024B",
		"crypto.sha256.8192B", "crypto.sha256.16384B",
		"pipe-digest.sha256.wall", "pipe-digest.sha256.cpu",
		"pipe-digest.sha256.throughput" };
	static const size_t aa[] = { 0, 1, 2, 4, 5, 6, 7, 8, 9 };
	static const size_t b123[] = { 0, 1, 2 };
	struct pr_suite_figure fig[128];
	struct pr_dataset d[10];
	struct pr_suite_cmp sc;
	size_t nf, i, j, h, k, a, b, c, base[3], comps = 0, rule_calls = 0;
	size_t mean_calls = 0, median_calls = 0, found;

	(void)state;
	nf = real10_load(d, fig, 128);
	assert_int_equal(nf, 83);
	for (h = 1; h < 9; h++)
		for (k = 1; k <= 3 && k <= h; k++)
			for (a = 0; a < h; a++)
				for (b = k >= 2 ? a + 1 : h - 1; b < h; b++)
					for (c = k >= 3 ? b + 1 : h - 1; c < h;
					     c++) {
						base[0] = aa[a];
						base[1] = aa[b];
						base[2] = aa[c];
						comps++;
						rule_calls += real10_cmp(d,
						    base, k, aa[h], fig, nf,
						    PR_SUITE_VALUE_SESSIONS,
						    &sc);
						pr_suite_cmp_release(&sc);
						mean_calls += real10_cmp(d,
						    base, k, aa[h], fig, nf,
						    PR_SUITE_VALUE_MEAN, &sc);
						pr_suite_cmp_release(&sc);
						median_calls += real10_cmp(d,
						    base, k, aa[h], fig, nf,
						    PR_SUITE_VALUE_MEDIAN, &sc);
						pr_suite_cmp_release(&sc);
					}
	assert_int_equal(comps, 36 + 84 + 126);
	assert_int_equal(rule_calls, 0);
	assert_true(mean_calls > 0);
	assert_true(median_calls > 0);
	/* The slowed session against the three before it. */
	assert_int_equal(real10_cmp(d, b123, 3, 3, fig, nf,
			     PR_SUITE_VALUE_SESSIONS, &sc),
	    20);
	for (i = 0; i < sc.n; i++) {
		const char *name = fig[sc.index[i]].name;

		found = 0;
		for (j = 0; j < sizeof(slowed) / sizeof(slowed[0]); j++)
			found |= strcmp(name, slowed[j]) == 0;
		if (found)
			assert_int_equal(sc.cmp[i].verdict,
			    PR_VERDICT_REGRESSION);
		else if (strcmp(name, "crypto.chacha20-poly1305.16B") == 0)
			assert_int_equal(sc.cmp[i].verdict,
			    PR_VERDICT_IMPROVEMENT);
		else
			assert_false(pr_suite_changed(&sc, i));
		if (strncmp(name, "handoff.futex.p", 15) == 0)
			assert_int_equal(sc.apart[i], PR_VERDICT_REGRESSION);
	}
	assert_int_equal(sc.uncarried, 2);
	pr_suite_cmp_release(&sc);
	assert_int_equal(real10_cmp(d, b123, 3, 3, fig, nf, PR_SUITE_VALUE_MEAN,
			     &sc),
	    22);
	pr_suite_cmp_release(&sc);
	for (i = 0; i < 10; i++)
		pr_dataset_release(&d[i]);
	for (i = 0; i < nf; i++)
		free((char *)fig[i].name);
}

/*
 * What the report is built from, decided in the library: the figures of
 * the results (a skipped probe has none), a figure's mean and
 * half-width, the counts of verdicts and which figures are shown by
 * default, with the defaults of the comparison (Benjamini-Hochberg).
 */
static void
test_counts_figures(void **state)
{
	struct pr_suite_result r[2];
	struct pr_suite_figure *fig = NULL;
	struct pr_dataset bd[3], nd[1];
	struct pr_suite_counts cnt;
	struct pr_suite_cmp sc;
	struct pr_error err;
	const double v[] = { 10, 12, 14 };
	struct pr_metric m;
	double mean, h;
	size_t i, nf = 0;

	(void)state;
	memset(r, 0, sizeof(r));
	session(&r[0].data, 100, 500, 1);
	session(&r[1].data, 1, 1, 0);
	r[1].skipped = (char *)"not here";
	assert_int_equal(pr_suite_figures(r, 2, &fig, &nf, &err), PR_OK);
	/* The skipped probe's figures are not listed. */
	assert_int_equal(nf, 3);
	assert_string_equal(fig[0].name, "fig.a");
	assert_string_equal(fig[1].name, "fig.b");
	assert_string_equal(fig[1].unit, "MB/s");
	assert_int_equal(fig[1].better, PR_BETTER_HIGHER);
	assert_string_equal(fig[2].name, "fig.c");
	/* Mean 12, sd 2, n 3: t(0.975, 2) 2 / sqrt(3) / 12 in percent. */
	memset(&m, 0, sizeof(m));
	m.values.v = (double *)v;
	m.values.n = 3;
	pr_suite_figure_stats(&m, &mean, &h);
	assert_true(fabs(mean - 12) < 1e-12);
	assert_true(
	    fabs(h - 100 * 4.302652729911275 * 2 / sqrt(3) / 12) < 1e-6);
	m.values.n = 1;
	pr_suite_figure_stats(&m, &mean, &h);
	assert_true(fabs(mean - 10) < 1e-12 && isinf(h));

	/* fig.a twice as slow (a regression), fig.b as before, fig.c
	 * constant in every session (equal: not a change). */
	slower_a(bd, nd, 1);
	assert_int_equal(pr_suite_compare(bd, 3, nd, 1, fig, 3, NULL, &sc,
			     &err),
	    PR_OK);
	assert_int_equal(sc.n, 3);
	/* The defaults adjust by Benjamini-Hochberg over the figures. */
	assert_true(sc.cmp[0].notes & PR_NOTE_BH);
	assert_true(sc.cmp[0].holm_m >= 2);
	pr_suite_count(&sc, &cnt);
	assert_int_equal(cnt.figures, 3);
	assert_int_equal(cnt.regressions, 1);
	assert_int_equal(cnt.improvements, 0);
	assert_int_equal(cnt.regressions + cnt.improvements + cnt.unchanged +
		cnt.inconclusive,
	    3);
	assert_true(pr_suite_changed(&sc, 0));
	assert_false(pr_suite_changed(&sc, 1));
	assert_false(pr_suite_changed(&sc, 3));
	/* Made an improvement: counted as one. */
	sc.cmp[1].verdict = PR_VERDICT_IMPROVEMENT;
	sc.cmp[2].verdict = PR_VERDICT_EQUIVALENT;
	pr_suite_count(&sc, &cnt);
	assert_int_equal(cnt.improvements, 1);
	assert_int_equal(cnt.unchanged, 1);
	assert_int_equal(cnt.inconclusive, 0);
	assert_true(pr_suite_changed(&sc, 1));
	pr_suite_cmp_release(&sc);
	for (i = 0; i < 3; i++)
		pr_dataset_release(&bd[i]);
	pr_dataset_release(&nd[0]);
	/* The figures' names were borrowed from the results. */
	free(fig);
	pr_dataset_release(&r[0].data);
	pr_dataset_release(&r[1].data);
}

/* r with one figure, a and b MB/s in two processes, as m's probes. */
static void
two_processes(struct pr_report_model *m, struct pr_suite_result *r, double a,
    double b)
{
	struct pr_error err;

	pr_dataset_init(&r->data);
	assert_int_equal(pr_dataset_add(&r->data, "fig.b", "MB/s",
			     PR_BETTER_HIGHER, a, &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&r->data, "fig.b", "MB/s",
			     PR_BETTER_HIGHER, b, &err),
	    PR_OK);
	assert_int_equal(pr_report_suite_probes(m, "probes", 0, r, 1, 1, 1,
			     &err),
	    PR_OK);
}

/* r's figure of a and b in two processes, rendered: has want. */
static void
assert_line(struct pr_suite_result *r, double a, double b, const char *want)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_buf out = PR_BUF_INIT(1 << 20);
	struct pr_error err;

	two_processes(&m, r, a, b);
	assert_int_equal(pr_report_model_render(&out, &m, PR_REPORT_TEXT, &err),
	    PR_OK);
	assert_int_equal(pr_buf_addc(&out, '\0', &err), PR_OK);
	if (strstr(out.data, want) == NULL)
		fail_msg("no '%s' in %s", want, out.data);
	pr_buf_release(&out);
	pr_report_model_release(&m);
	pr_dataset_release(&r->data);
}

/*
 * A figure's interval in the probe lines is taken on the log scale (issue
 * 10, item 4): two processes of 4 and 6 MB/s have mean 5 and relative
 * half-width t(0.975, 1) 1 / 5 = 254.1%, which as "+-254%" put the
 * throughput's lower end at -7 MB/s; on the log it is [e^-2.541 - 1,
 * e^2.541 - 1] = [-92%, +1170%] (tests/probes/gen_probe_interval.py,
 * scipy's t quantile: review of s13, finding 9),
 * in text, Markdown, HTML and JSON.
 */
static void
test_probe_interval(void **state)
{
	size_t proc[] = { 0, 1 };
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_buf out = PR_BUF_INIT(1 << 20);
	struct pr_suite_result r;
	struct pr_error err;
	const char *at;
	double lo, hi;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.probe = &flat;
	r.label = "flat";
	r.notes = (char *)"";
	r.samples = 2;
	r.processes = 2;
	r.process = proc;
	two_processes(&m, &r, 4, 6);
	assert_int_equal(pr_report_model_render(&out, &m, PR_REPORT_TEXT, &err),
	    PR_OK);
	assert_non_null(strstr(out.data, " 5 MB/s [-92%, +1170%]  (higher"));
	assert_null(strstr(out.data, "+-"));
	pr_buf_reset(&out);
	assert_int_equal(pr_report_model_render(&out, &m, PR_REPORT_MARKDOWN,
			     &err),
	    PR_OK);
	assert_non_null(strstr(out.data, " 5 MB/s [-92%, +1170%]  (higher"));
	pr_buf_reset(&out);
	assert_int_equal(pr_report_html(&out, &m, "t", &err), PR_OK);
	assert_non_null(
	    strstr(out.data, "<td class=\"n\">[-92%, +1170%]</td>"));
	pr_buf_reset(&out);
	assert_int_equal(pr_report_model_render(&out, &m, PR_REPORT_JSON, &err),
	    PR_OK);
	at = strstr(out.data, "\"interval_pct\": [");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "\"interval_pct\": [%lf, %lf]", &lo, &hi),
	    2);
	assert_true(fabs(lo - -92.123140855408323) < 1e-6);
	assert_true(fabs(hi - 1169.5415541188263) < 1e-6);
	pr_report_model_release(&m);
	pr_dataset_release(&r.data);
	pr_buf_release(&out);
	/* 1 and 9: 1016.5%, [-99.996%, +2.6e+06%]: the lower end with the
	 * digits it needs not to read "-100%" (a rate of zero); 99.5 and
	 * 100.5: 6.353%, [-6.2%, +6.6%]; equal values: [0%, 0%]. */
	assert_line(&r, 1, 9, " 5 MB/s [-99.996%, +2.6e+06%]  (higher");
	assert_line(&r, 99.5, 100.5, " 100 MB/s [-6.2%, +6.6%]  (higher");
	assert_line(&r, 5, 5, " 5 MB/s [0%, 0%]  (higher");
	/* A mean near zero (a figure that can be negative): the upper end
	 * is beyond a double; JSON writes it null, text "+inf", and neither
	 * is an error (review of s14, finding 5). */
	assert_line(&r, -1, 1.0001, " 5e-05 MB/s [-100%, +inf%]  (higher");
	two_processes(&m, &r, -1, 1.0001);
	assert_int_equal(pr_report_model_render(&out, &m, PR_REPORT_JSON, &err),
	    PR_OK);
	assert_int_equal(pr_buf_addc(&out, '\0', &err), PR_OK);
	at = strstr(out.data, "\"interval_pct\": [");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "\"interval_pct\": [ %lf , null ]", &lo),
	    1);
	assert_true(lo == -100.0);
	pr_report_model_release(&m);
	pr_dataset_release(&r.data);
	pr_buf_release(&out);
}

/*
 * The summary line groups a name's figures only when they are better the
 * same way (review of session 15, note 15: "pipe-digest.sha256
 * wall..throughput -59%..+140%" read as a range from an improvement to a
 * regression, where all three were regressions).
 */
static void
test_summary_kinds(void **state)
{
	static const struct pr_suite_figure fig[] = {
		{ "pipe-digest.sha256.wall", "s", PR_BETTER_LOWER },
		{ "pipe-digest.sha256.cpu", "s", PR_BETTER_LOWER },
		{ "pipe-digest.sha256.throughput", "MB/s", PR_BETTER_HIGHER },
		{ "crypto.sha256.64B", "MB/s", PR_BETTER_HIGHER },
		{ "crypto.sha256.256B", "MB/s", PR_BETTER_HIGHER },
	};
	static const double change[] = { 140, 151, -59, -60, -68 };
	struct pr_comparison cmp[5];
	size_t index[5], i;
	struct pr_suite_cmp sc;
	struct pr_buf line = PR_BUF_INIT(1 << 16);
	struct pr_error err;

	(void)state;
	memset(&sc, 0, sizeof(sc));
	memset(cmp, 0, sizeof(cmp));
	for (i = 0; i < 5; i++) {
		index[i] = i;
		cmp[i].verdict = PR_VERDICT_REGRESSION;
		cmp[i].change_pct = change[i];
		cmp[i].equivalence_pct = 1;
	}
	sc.n = 5;
	sc.index = index;
	sc.cmp = cmp;
	assert_int_equal(pr_report_suite_summary(&line, &sc, fig, &err), PR_OK);
	assert_int_equal(pr_buf_addc(&line, '\0', &err), PR_OK);
	assert_string_equal(line.data,
	    "5 figures: 5 regressions (pipe-digest.sha256 wall,cpu "
	    "+140%..+151%; pipe-digest.sha256.throughput -59%; crypto.sha256 "
	    "64B,256B -68%..-60%), 0 improvements, 0 unchanged (within 1%), "
	    "0 inconclusive");
	pr_buf_release(&line);
}

/*
 * The pace rule (pr_suite_cmp_pace), with fake paces: a new session whose
 * pace is above PR_SUITE_PACE_FACTOR times its base sessions' largest
 * stored pace (or PR_SUITE_PACE_LEVEL when none is stored) has none of
 * its figures called, and the summary line says why.
 */
static void
test_starved(void **state)
{
	const struct pr_suite_figure fig[] = {
		{ "fig.a", "ns", PR_BETTER_LOWER },
		{ "fig.b", "MB/s", PR_BETTER_HIGHER },
		{ "fig.c", "ns", PR_BETTER_LOWER },
	};
	const double some[] = { 1.5, 0, 2.0 }, none[] = { 0, NAN, -1 };
	struct pr_buf line = PR_BUF_INIT(1 << 16);
	struct pr_dataset bd[3], nd[1];
	struct pr_suite_counts cnt;
	struct pr_suite_cmp sc;
	struct pr_error err;
	double limit, big;
	size_t i;

	(void)state;
	/* The limit: 4 times the largest stored pace (2.0); a pace not
	 * stored (0) or not finite does not count. */
	assert_false(pr_suite_starved(8.0, some, 3, &limit, &big));
	assert_true(limit == PR_SUITE_PACE_FACTOR * 2.0 && big == 2.0);
	assert_true(pr_suite_starved(8.01, some, 3, NULL, NULL));
	/* None stored: the absolute level. */
	assert_false(
	    pr_suite_starved(PR_SUITE_PACE_LEVEL, none, 3, &limit, &big));
	assert_true(limit == PR_SUITE_PACE_LEVEL && big == 0);
	assert_true(
	    pr_suite_starved(PR_SUITE_PACE_LEVEL + 0.1, none, 3, NULL, NULL));
	assert_true(pr_suite_starved(20, NULL, 0, NULL, NULL));
	/* The level holds whatever the base's pace (review of s12,
	 * finding 1): a base starved alike (20, 21) does not make a new
	 * session at 20 comparable; at 3 the level (8), not 12, decides. */
	assert_true(
	    pr_suite_starved(20, (const double[]){ 20, 21 }, 2, &limit, &big));
	assert_true(limit == PR_SUITE_PACE_LEVEL && big == 21);
	assert_true(
	    pr_suite_starved(8.1, (const double[]){ 3 }, 1, NULL, NULL));
	assert_false(
	    pr_suite_starved(7.9, (const double[]){ 3 }, 1, NULL, NULL));
	/* The new pace not known: never starved. */
	assert_false(pr_suite_starved(0, some, 3, NULL, NULL));
	assert_false(pr_suite_starved(NAN, none, 3, NULL, NULL));

	slower_a(bd, nd, 1);
	assert_int_equal(pr_suite_compare(bd, 3, nd, 1, fig, 3, NULL, &sc,
			     &err),
	    PR_OK);
	/* At a pace within the limit the regression stands. */
	pr_suite_cmp_pace(&sc, 7.9, some, 3);
	assert_false(sc.starved);
	assert_int_equal(sc.cmp[0].verdict, PR_VERDICT_REGRESSION);
	assert_int_equal(pr_report_suite_summary(&line, &sc, fig, &err), PR_OK);
	assert_null(strstr(line.data, "starved"));
	/* Starved (pace 24 against 2.0): nothing is called. */
	pr_buf_reset(&line);
	pr_suite_cmp_pace(&sc, 24, some, 3);
	assert_true(sc.starved);
	assert_true(
	    sc.pace == 24 && sc.base_pace == 2.0 && sc.pace_limit == 8.0);
	for (i = 0; i < sc.n; i++)
		assert_int_equal(sc.cmp[i].verdict, PR_VERDICT_INCONCLUSIVE);
	pr_suite_count(&sc, &cnt);
	assert_int_equal(cnt.regressions, 0);
	assert_int_equal(cnt.inconclusive, 3);
	assert_false(pr_suite_changed(&sc, 0));
	assert_int_equal(pr_report_suite_summary(&line, &sc, fig, &err), PR_OK);
	assert_int_equal(pr_buf_addc(&line, '\0', &err), PR_OK);
	assert_string_equal(line.data,
	    "3 figures: 0 regressions, 0 improvements, 0 unchanged (within "
	    "1%), 3 inconclusive: not called, the new session was starved of "
	    "CPU (pace 24 wall s a CPU s, above 8)");
	/* Against a base starved alike: the note says the level holds
	 * whatever the base's pace. */
	pr_suite_cmp_pace(&sc, 24, (const double[]){ 20, 22 }, 2);
	assert_true(sc.starved && sc.pace_limit == PR_SUITE_PACE_LEVEL);
	pr_suite_cmp_release(&sc);
	pr_buf_release(&line);
	for (i = 0; i < 3; i++)
		pr_dataset_release(&bd[i]);
	pr_dataset_release(&nd[0]);
}

/*
 * Figures not gated (pr_suite_ungated, pr_suite_cmp_gate): a busy-polling
 * hand-off's figures are shown with their change but never called
 * (session 11's A/A false call, handoff.spin.p99 +13077%), and the counts
 * and the gate follow; every other figure keeps its verdict.
 */
static void
test_ungated(void **state)
{
	const struct pr_suite_figure fig[] = {
		{ "fig.a", "ns", PR_BETTER_LOWER },
		{ "fig.b", "MB/s", PR_BETTER_HIGHER },
		{ "fig.c", "ns", PR_BETTER_LOWER },
	};
	/* The same figures by the names that decide the gate. */
	const struct pr_suite_figure named[] = {
		{ "handoff.spin.p99", "ns", PR_BETTER_LOWER },
		{ "handoff.futex.p50", "MB/s", PR_BETTER_HIGHER },
		{ "handoff.spin.p50", "ns", PR_BETTER_LOWER },
	};
	struct pr_dataset bd[3], nd[1];
	struct pr_suite_counts cnt;
	struct pr_suite_cmp sc;
	struct pr_error err;
	size_t i;

	(void)state;
	assert_int_equal(pr_suite_gated("handoff.spin.p99"), 0);
	assert_int_equal(pr_suite_gated("handoff.spin.p50"), 0);
	assert_int_equal(pr_suite_gated("handoff.condvar.p99"), 1);
	assert_int_equal(pr_suite_gated("handoff.futex.p50"), 1);
	assert_int_equal(pr_suite_gated("handoff.spin"), 1);
	assert_int_equal(pr_suite_gated("handoff.spinner.p50"), 1);
	assert_int_equal(pr_suite_gated("xhandoff.spin.p99"), 1);
	assert_int_equal(pr_suite_gated("copy.pipe-read.1024B"), 1);
	slower_a(bd, nd, 1);
	assert_int_equal(pr_suite_compare(bd, 3, nd, 1, fig, 3, NULL, &sc,
			     &err),
	    PR_OK);
	assert_int_equal(sc.cmp[0].verdict, PR_VERDICT_REGRESSION);
	/* By the figures' own names: all gated, nothing changes. */
	assert_int_equal(pr_suite_cmp_gate(&sc, fig, &err), PR_OK);
	assert_int_equal(sc.cmp[0].verdict, PR_VERDICT_REGRESSION);
	for (i = 0; i < sc.n; i++)
		assert_int_equal(sc.ungated[i], 0);
	/* As hand-off figures: the p99 regression is not called. */
	assert_int_equal(pr_suite_cmp_gate(&sc, named, &err), PR_OK);
	assert_int_equal(sc.cmp[0].verdict, PR_VERDICT_INCONCLUSIVE);
	assert_int_equal(sc.ungated[0], 2);
	assert_int_equal(sc.would[0], PR_VERDICT_REGRESSION);
	assert_int_equal(sc.ungated[1], 0);
	assert_int_equal(sc.ungated[2], 1);
	pr_suite_count(&sc, &cnt);
	assert_int_equal(cnt.regressions, 0);
	assert_false(pr_suite_changed(&sc, 0));
	pr_suite_cmp_release(&sc);
	for (i = 0; i < 3; i++)
		pr_dataset_release(&bd[i]);
	pr_dataset_release(&nd[0]);
}

/* A snapshot with a few items, one of them set to value. */
static void
env_with(struct pr_env *e, const char *key, const char *value)
{
	static const char *const keys[][3] = {
		{ "kernel.release", "kernel", "6.1.0" },
		{ "kernel.cmdline", "kernel", "quiet" },
		{ "cpu.microcode", "cpu", "0x10" },
		{ "cpu.vulnerabilities.mds", "mitigations", "Not affected" },
		{ "libc.version", "build", "2.36" },
		{ "sysctl.vm.swappiness", "sysctl", "60" },
		{ "kernel.log", "log", "booted" },
	};
	struct pr_error err;
	size_t i;

	pr_env_init(e);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_int_equal(pr_env_add(e, keys[i][0], keys[i][1],
				     strcmp(keys[i][0], key) == 0 ? value
								  : keys[i][2],
				     NULL, &err),
		    PR_OK);
}

static void
test_config_id(void **state)
{
	static const char *const moves[][2] = {
		{ "kernel.release", "6.1.1" },
		{ "kernel.cmdline", "quiet mitigations=off" },
		{ "cpu.microcode", "0x11" },
		{ "cpu.vulnerabilities.mds", "Vulnerable" },
		{ "libc.version", "2.37" },
	};
	struct pr_env a, b;
	size_t i;
	struct pr_error err;
	char ia[PR_SUITE_CONFIG_LEN], ib[PR_SUITE_CONFIG_LEN];

	(void)state;
	env_with(&a, "", "");
	pr_suite_config_id(&a, ia);
	assert_int_equal(strlen(ia), 8);
	assert_true(strspn(ia, "0123456789abcdef") == 8);
	/* Items that do not move the figures do not make a new one. */
	env_with(&b, "sysctl.vm.swappiness", "10");
	pr_suite_config_id(&b, ib);
	assert_string_equal(ia, ib);
	pr_env_release(&b);
	env_with(&b, "kernel.log", "booted again");
	pr_suite_config_id(&b, ib);
	assert_string_equal(ia, ib);
	pr_env_release(&b);
	/* Nor does a process environment variable (relevant, but a session
	 * run with AES-NI masked is the configuration's own, called by its
	 * stability check; the next one without is no change back). */
	env_with(&b, "", "");
	assert_int_equal(pr_env_add(&b, "env.OPENSSL_ia32cap", "process",
			     "~0x200000200000000", NULL, &err),
	    PR_OK);
	pr_suite_config_id(&b, ib);
	assert_string_equal(ia, ib);
	pr_env_release(&b);
	/* Each of these does: kernel, command line, microcode, a
	 * mitigation (a prefix key), the C library. */
	for (i = 0; i < sizeof(moves) / sizeof(moves[0]); i++) {
		env_with(&b, moves[i][0], moves[i][1]);
		pr_suite_config_id(&b, ib);
		assert_string_not_equal(ia, ib);
		pr_env_release(&b);
	}
	/* The probes' version is part of it: sessions of older probes,
	 * whose snapshots lack it, are a configuration of their own. */
	env_with(&b, "", "");
	assert_int_equal(pr_suite_env_add(&b, &err), PR_OK);
	assert_non_null(pr_env_get(&b, "perfreg.probes"));
	assert_string_equal(pr_env_get(&b, "perfreg.probes")->value,
	    PR_SUITE_PROBES_VERSION);
	assert_non_null(pr_env_get(&b, "openssl.library"));
	pr_suite_config_id(&b, ib);
	assert_string_not_equal(ia, ib);
	/* Added once only. */
	assert_int_equal(pr_suite_env_add(&b, &err), PR_OK);
	assert_int_equal(b.n, a.n + 2);
	pr_env_release(&b);
	pr_env_release(&a);
	assert_true(pr_suite_config_key("cpu.vulnerabilities.l1tf"));
	assert_false(pr_suite_config_key("cpu.vulnerabilities"));
	assert_false(pr_suite_config_key("sysctl.vm.swappiness"));
	/* One table: the configuration's items are the ones env diff
	 * ranks as moving performance, but clocksource.available and the
	 * process environment's env.NAME; the
	 * twenty of every earlier release (so that no stored session's
	 * configuration id changes). */
	{
		static const char *const was[] = { "kernel.release",
			"kernel.version", "kernel.cmdline", "cpu.model",
			"cpu.microcode", "cpu.flags", "cpu.cores",
			"cpu.threads", "cpu.smt", "cpu.governor", "cpu.boost",
			"cpu.no_turbo", "cpu.pstate", "cpu.vulnerabilities.",
			"clocksource.current", "thp.", "libc.version",
			"compiler", "openssl.library", "perfreg.probes" };
		size_t j, n = 0;

		for (j = 0; j < sizeof(was) / sizeof(was[0]); j++) {
			assert_true(pr_suite_config_key(was[j]));
			assert_true(pr_env_key_rank(was[j]) >= 0);
		}
		for (j = 0; pr_env_relevant_keys[j] != NULL; j++)
			n += pr_suite_config_key(pr_env_relevant_keys[j]) != 0;
		assert_int_equal(n, sizeof(was) / sizeof(was[0]));
		assert_false(pr_suite_config_key("clocksource.available"));
		assert_true(pr_env_key_rank("clocksource.available") >= 0);
		assert_false(pr_suite_config_key("env.GLIBC_TUNABLES"));
		assert_true(pr_env_key_rank("env.GLIBC_TUNABLES") >= 0);
	}
}

static void
assert_ids(const int64_t *v, size_t n, const int64_t *want, size_t nwant)
{
	size_t i;

	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++)
		assert_int_equal(v[i], want[i]);
}

static void
test_plan(void **state)
{
	struct pr_suite_sess s[8] = {
		{ 1, "aaaaaaaa", 0, 0, 0, 0 },
		{ 2, "aaaaaaaa", 0, 0, 0, 0 },
		{ 3, "aaaaaaaa", 0, 0, 0, 0 },
		{ 5, "bbbbbbbb", 0, 0, 0, 0 },
		{ 6, "bbbbbbbb", 0, 0, 0, 0 },
	};
	struct pr_suite_plan p;
	struct pr_error err;
	const int64_t none[] = { 0 };

	(void)state;
	/* The first session: nothing to compare with. */
	assert_int_equal(pr_suite_plan(s, 0, 1, "aaaaaaaa", 0, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_NONE);
	assert_ids(p.base, p.nbase, none, 0);
	pr_suite_plan_release(&p);
	/* Unchanged: the new session against its configuration's earlier
	 * sessions, a stability check. */
	assert_int_equal(pr_suite_plan(s, 3, 4, "aaaaaaaa", 0, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_STABILITY);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1, 2, 3 }, 3);
	assert_ids(p.new_, p.nnew, (const int64_t[]){ 4 }, 1);
	assert_string_equal(p.base_config, "aaaaaaaa");
	pr_suite_plan_release(&p);
	/* The first session after a change: against the previous
	 * configuration. */
	assert_int_equal(pr_suite_plan(s, 3, 5, "bbbbbbbb", 0, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_CHANGE);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1, 2, 3 }, 3);
	assert_ids(p.new_, p.nnew, (const int64_t[]){ 5 }, 1);
	assert_string_equal(p.base_config, "aaaaaaaa");
	assert_string_equal(p.config, "bbbbbbbb");
	pr_suite_plan_release(&p);
	/* The third after it: still all of this configuration against all
	 * of the previous one, never a mix. */
	assert_int_equal(pr_suite_plan(s, 5, 7, "bbbbbbbb", 0, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_CHANGE);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1, 2, 3 }, 3);
	assert_ids(p.new_, p.nnew, (const int64_t[]){ 5, 6, 7 }, 3);
	pr_suite_plan_release(&p);
	/* Back to the first configuration: its sessions, wherever they
	 * lie, against the one before (b). */
	assert_int_equal(pr_suite_plan(s, 5, 7, "aaaaaaaa", 0, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_CHANGE);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 5, 6 }, 2);
	assert_ids(p.new_, p.nnew, (const int64_t[]){ 1, 2, 3, 7 }, 4);
	assert_string_equal(p.base_config, "bbbbbbbb");
	pr_suite_plan_release(&p);
	/* The latest max of each side. */
	assert_int_equal(pr_suite_plan(s, 5, 7, "bbbbbbbb", 0, 2, &p, &err),
	    PR_OK);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 2, 3 }, 2);
	assert_ids(p.new_, p.nnew, (const int64_t[]){ 6, 7 }, 2);
	pr_suite_plan_release(&p);
	/* --baseline chose session 2: it alone is the base; the new side
	 * is this configuration's other sessions and the new one. */
	s[1].chosen = 1;
	assert_int_equal(pr_suite_plan(s, 5, 7, "aaaaaaaa", 0, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_CHOSEN);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 2 }, 1);
	assert_ids(p.new_, p.nnew, (const int64_t[]){ 1, 3, 7 }, 3);
	pr_suite_plan_release(&p);
	/* ... or configuration b (the sessions it chose). */
	s[1].chosen = 0;
	s[3].chosen = s[4].chosen = 1;
	assert_int_equal(pr_suite_plan(s, 5, 7, "bbbbbbbb", 0, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_CHOSEN);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 5, 6 }, 2);
	assert_ids(p.new_, p.nnew, (const int64_t[]){ 7 }, 1);
	assert_string_equal(p.base_config, "bbbbbbbb");
	pr_suite_plan_release(&p);
}

/*
 * The low median of a session's peers, where it differs from the high
 * one (the mutant suite-left-out-low-median survived every test: their
 * peers' two middle paces were equal).  Paces 1.4, 6.2, 6.5 and 19, the
 * new session 1.5: the peers of 6.2 are 1.4, 1.5, 6.5, 19 (low median
 * 1.5, limit 6: left out; the high one, 6.5, would keep it), of 6.5 1.4,
 * 1.5, 6.2, 19 (left out), 19 above the level 8 whatever its peers.
 */
static void
test_plan_low_median(void **state)
{
	struct pr_suite_sess s[4] = {
		{ 1, "aaaaaaaa", 0, 1.4, 0, 0 },
		{ 2, "aaaaaaaa", 0, 6.2, 0, 0 },
		{ 3, "aaaaaaaa", 0, 6.5, 0, 0 },
		{ 4, "aaaaaaaa", 0, 19.0, 0, 0 },
	};
	struct pr_suite_plan p;
	struct pr_error err;

	(void)state;
	assert_int_equal(pr_suite_plan(s, 4, 9, "aaaaaaaa", 1.5, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_STABILITY);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1 }, 1);
	assert_ids(p.left, p.nleft, (const int64_t[]){ 2, 3, 4 }, 3);
	assert_true(fabs(p.left_peers[0] - 1.5) < 1e-12);
	pr_suite_plan_release(&p);
}

/*
 * Starved earlier sessions (perfreg/suite.h, pr_suite_plan): a session
 * whose stored pace is above 4 times the median of its peers' (the other
 * sessions of the plan's configurations and the new one) is left out of
 * either side, and the plan says which, with its pace, the median and the
 * limit; without any peer's pace the fixed level 8 decides.
 */
static void
test_plan_starved(void **state)
{
	struct pr_suite_sess s[6] = {
		{ 1, "aaaaaaaa", 0, 1.5, 0, 0 },
		{ 2, "aaaaaaaa", 0, 21.0, 0, 0 },
		{ 3, "aaaaaaaa", 0, 1.4, 0, 0 },
		{ 4, "aaaaaaaa", 0, 0, 0, 0 },
		{ 5, "bbbbbbbb", 0, 30.0, 0, 0 },
		{ 6, "bbbbbbbb", 0, 1.6, 0, 0 },
	};
	struct pr_suite_plan p;
	struct pr_error err;
	double lim = 0;

	(void)state;
	/* Stability: session 2 (21 against the median 1.5 of 1.5, 1.4 and
	 * the new 1.6) is left out; session 4 has no pace and stays. */
	assert_int_equal(pr_suite_plan(s, 4, 9, "aaaaaaaa", 1.6, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_STABILITY);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1, 3, 4 }, 3);
	assert_ids(p.left, p.nleft, (const int64_t[]){ 2 }, 1);
	assert_true(fabs(p.left_pace[0] - 21.0) < 1e-12);
	assert_true(fabs(p.left_peers[0] - 1.5) < 1e-12);
	assert_true(fabs(p.left_limit[0] - 6.0) < 1e-12);
	pr_suite_plan_release(&p);
	/* A change plan: the new side's earlier session 5 (30) and the
	 * base's session 2 are both left out; the median of the others
	 * for session 5 is that of 1.5, 21, 1.4, 1.6 and the new 1.5. */
	assert_int_equal(pr_suite_plan(s, 6, 9, "bbbbbbbb", 1.5, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_CHANGE);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1, 3, 4 }, 3);
	assert_ids(p.new_, p.nnew, (const int64_t[]){ 6, 9 }, 2);
	assert_ids(p.left, p.nleft, (const int64_t[]){ 2, 5 }, 2);
	assert_true(fabs(p.left_peers[1] - 1.5) < 1e-12);
	pr_suite_plan_release(&p);
	/* Two starved of four: the low median, not the largest, so that
	 * one cannot hide the other (peers of session 2: 1.5, 19, 1.4 and
	 * the new 1.5, low median 1.5; of session 1: 21, 1.4, 19, 1.5, low
	 * median 1.5, kept). */
	s[3].pace = 19.0;
	assert_int_equal(pr_suite_plan(s, 4, 9, "aaaaaaaa", 1.5, 20, &p, &err),
	    PR_OK);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1, 3 }, 2);
	assert_ids(p.left, p.nleft, (const int64_t[]){ 2, 4 }, 2);
	pr_suite_plan_release(&p);
	/* At the limit exactly: kept (above, not at). */
	s[1].pace = 6.0;
	s[3].pace = 0;
	assert_int_equal(pr_suite_plan(s, 4, 9, "aaaaaaaa", 1.6, 20, &p, &err),
	    PR_OK);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1, 2, 3, 4 }, 4);
	assert_int_equal(p.nleft, 0);
	pr_suite_plan_release(&p);
	/* Every base session starved: nothing to compare with, said (the
	 * peers of session 1 are 25 and the new 1.5: low median 1.5). */
	s[0].pace = 20.0;
	s[1].pace = 25.0;
	assert_int_equal(pr_suite_plan(s, 2, 9, "aaaaaaaa", 1.5, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_NONE);
	assert_int_equal(p.nbase, 0);
	assert_ids(p.left, p.nleft, (const int64_t[]){ 1, 2 }, 2);
	pr_suite_plan_release(&p);
	/* No peer's pace stored: the fixed level. */
	assert_int_equal(pr_suite_left_out(8.5, 0, &lim), 1);
	assert_true(fabs(lim - PR_SUITE_PACE_LEVEL) < 1e-12);
	assert_int_equal(pr_suite_left_out(7.9, 0, NULL), 0);
	assert_int_equal(pr_suite_left_out(0, 1.5, NULL), 0);
	assert_int_equal(pr_suite_left_out(NAN, 1.5, NULL), 0);
	assert_int_equal(pr_suite_left_out(6.1, 1.5, &lim), 1);
	assert_true(fabs(lim - 6.0) < 1e-12);
	/* Above the level whatever the peers' (review of s12, finding 1):
	 * a series starved alike at nice 19 (peers at 20) leaves out its
	 * sessions at 21; under the level, 4 times the median still
	 * decides (7.9 against 3: 12 would allow it, 8 does too). */
	assert_int_equal(pr_suite_left_out(21, 20, &lim), 1);
	assert_true(fabs(lim - PR_SUITE_PACE_LEVEL) < 1e-12);
	assert_int_equal(pr_suite_left_out(8.1, 3, NULL), 1);
	assert_int_equal(pr_suite_left_out(7.9, 3, NULL), 0);
	s[0].pace = 20.0;
	s[1].pace = 21.0;
	assert_int_equal(pr_suite_plan(s, 2, 9, "aaaaaaaa", 22.0, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_NONE);
	assert_ids(p.left, p.nleft, (const int64_t[]){ 1, 2 }, 2);
	assert_true(fabs(p.left_limit[0] - PR_SUITE_PACE_LEVEL) < 1e-12);
	pr_suite_plan_release(&p);
	/* --baseline's choice is the user's: the starved session 1 it
	 * chose stays; the other side leaves its starved 2 out (its peers
	 * 20 and the new 1.5). */
	s[0].chosen = 1;
	assert_int_equal(pr_suite_plan(s, 2, 9, "aaaaaaaa", 1.5, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_CHOSEN);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1 }, 1);
	assert_ids(p.new_, p.nnew, (const int64_t[]){ 9 }, 1);
	assert_ids(p.left, p.nleft, (const int64_t[]){ 2 }, 1);
	pr_suite_plan_release(&p);
}

/*
 * Incidents (review of session 15, finding 2): an earlier session whose
 * own stability check called figures (tags regressions= and
 * improvements=) is left out of later bases, oldest first among the
 * starved, so that A, A, A, B (slow, called), A and then C (slow again)
 * compares C with the four A sessions, not with B.
 */
static void
test_plan_called(void **state)
{
	struct pr_suite_sess s[6] = {
		{ 1, "aaaaaaaa", 0, 1.5, 0, 0 },
		{ 2, "aaaaaaaa", 0, 1.5, 0, 0 },
		{ 3, "aaaaaaaa", 0, 21.0, 0, 0 },
		{ 4, "aaaaaaaa", 0, 1.5, 21, 1 },
		{ 5, "aaaaaaaa", 0, 1.5, 0, 0 },
		{ 6, "bbbbbbbb", 0, 1.5, 0, 0 },
	};
	struct pr_suite_plan p;
	struct pr_error err;

	(void)state;
	/* Stability: session 3 starved, session 4 called: both out, in
	 * their order, each with its reason. */
	assert_int_equal(pr_suite_plan(s, 5, 9, "aaaaaaaa", 1.5, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_STABILITY);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1, 2, 5 }, 3);
	assert_ids(p.left, p.nleft, (const int64_t[]){ 3, 4 }, 2);
	assert_int_equal(p.left_called[0], 0);
	assert_true(fabs(p.left_pace[0] - 21.0) < 1e-12);
	assert_int_equal(p.left_called[1], 1);
	assert_int_equal(p.left_reg[1], 21);
	assert_int_equal(p.left_imp[1], 1);
	assert_true(fabs(p.left_pace[1] - 1.5) < 1e-12);
	pr_suite_plan_release(&p);
	/* An improvement alone is an incident too; a session both starved
	 * and called is left out once, as starved. */
	s[3].regressions = 0;
	s[2].regressions = 5;
	assert_int_equal(pr_suite_plan(s, 5, 9, "aaaaaaaa", 1.5, 20, &p, &err),
	    PR_OK);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1, 2, 5 }, 3);
	assert_ids(p.left, p.nleft, (const int64_t[]){ 3, 4 }, 2);
	assert_int_equal(p.left_called[0], 0);
	assert_int_equal(p.left_called[1], 1);
	assert_int_equal(p.left_reg[1], 0);
	assert_int_equal(p.left_imp[1], 1);
	pr_suite_plan_release(&p);
	/* A change plan: the previous configuration's incident is out of
	 * its base as well. */
	assert_int_equal(pr_suite_plan(s, 6, 9, "bbbbbbbb", 1.5, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_CHANGE);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 1, 2, 5 }, 3);
	assert_ids(p.new_, p.nnew, (const int64_t[]){ 6, 9 }, 2);
	pr_suite_plan_release(&p);
	/* Every base session an incident: nothing to compare with. */
	s[0].improvements = s[1].regressions = 1;
	s[2].pace = 1.5;
	s[4].regressions = 2;
	assert_int_equal(pr_suite_plan(s, 5, 9, "aaaaaaaa", 1.5, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_NONE);
	assert_ids(p.left, p.nleft, (const int64_t[]){ 1, 2, 3, 4, 5 }, 5);
	pr_suite_plan_release(&p);
	/* --baseline is the user's choice: an incident it names stays;
	 * the other side's incidents 1, 2, 3 and 5 are left out of it. */
	s[3].chosen = 1;
	assert_int_equal(pr_suite_plan(s, 5, 9, "aaaaaaaa", 1.5, 20, &p, &err),
	    PR_OK);
	assert_int_equal(p.kind, PR_SUITE_PLAN_CHOSEN);
	assert_ids(p.base, p.nbase, (const int64_t[]){ 4 }, 1);
	assert_ids(p.new_, p.nnew, (const int64_t[]){ 9 }, 1);
	assert_ids(p.left, p.nleft, (const int64_t[]){ 1, 2, 3, 5 }, 4);
	assert_int_equal(p.left_called[3], 1);
	assert_int_equal(p.left_reg[3], 2);
	pr_suite_plan_release(&p);
}

/*
 * The plan after a configuration change (perfreg/suite.h,
 * PR_SUITE_CHANGE_SESSIONS = 3): the first three sessions of B that are
 * not left out (the new one among them) are compared with A, never a
 * mix; from the fourth on, B is checked against its own sessions, and a
 * session called there is an incident of B.  A: 1, 2 (starved), 3
 * (called by its stability check), 4; B: 5, 6 (starved), 7, 8, 9, 10 (a
 * regression within B: called against 5, 7, 8, 9), 11.  Each step is
 * the plan of the session after s[0..n).
 */
/* The ids v[0..n) as assert_ids takes them. */
#define IDS(...) \
	(const int64_t[]){ __VA_ARGS__ }, \
	    sizeof((const int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t)

/* The plan of session id (config, pace) after s[0..n) into *p (release
 * it), of kind `kind` with that base, new side and left-out list. */
static void
plan_is(const struct pr_suite_sess *s, size_t n, int64_t id, const char *config,
    double pace, enum pr_suite_plan_kind kind, struct pr_suite_plan *p,
    const int64_t *base, size_t nbase, const int64_t *new_, size_t nnew,
    const int64_t *left, size_t nleft)
{
	struct pr_error err;

	assert_int_equal(pr_suite_plan(s, n, id, config, pace, 20, p, &err),
	    PR_OK);
	assert_int_equal(p->kind, kind);
	assert_ids(p->base, p->nbase, base, nbase);
	assert_ids(p->new_, p->nnew, new_, nnew);
	assert_ids(p->left, p->nleft, left, nleft);
}

static void
test_plan_change(void **state)
{
	struct pr_suite_sess s[12] = {
		{ 1, "aaaaaaaa", 0, 1.5, 0, 0 },
		{ 2, "aaaaaaaa", 0, 21.0, 0, 0 },
		{ 3, "aaaaaaaa", 0, 1.5, 2, 0 },
		{ 4, "aaaaaaaa", 0, 1.5, 0, 0 },
		{ 5, "bbbbbbbb", 0, 1.5, 0, 0 },
		{ 6, "bbbbbbbb", 0, 22.0, 0, 0 },
		{ 7, "bbbbbbbb", 0, 1.5, 0, 0 },
		{ 8, "bbbbbbbb", 0, 1.6, 0, 0 },
		{ 9, "bbbbbbbb", 0, 1.4, 0, 0 },
		{ 10, "bbbbbbbb", 0, 1.5, 2, 0 },
		{ 11, "bbbbbbbb", 0, 1.5, 0, 0 },
	};
	const char *a = "aaaaaaaa", *b = "bbbbbbbb";
	struct pr_suite_plan p;

	(void)state;
	assert_int_equal(PR_SUITE_CHANGE_SESSIONS, 3);
	/* Session 5, the first of B: against A's 1 and 4 (2 starved, 3
	 * an incident). */
	plan_is(s, 4, 5, b, 1.5, PR_SUITE_PLAN_CHANGE, &p, IDS(1, 4), IDS(5),
	    IDS(2, 3));
	assert_int_equal(p.left_called[1], 1);
	assert_string_equal(p.base_config, a);
	assert_null(p.since_config);
	pr_suite_plan_release(&p);
	/* Session 6: B's second, with 5. */
	plan_is(s, 5, 6, b, 1.5, PR_SUITE_PLAN_CHANGE, &p, IDS(1, 4), IDS(5, 6),
	    IDS(2, 3));
	pr_suite_plan_release(&p);
	/* Session 7: 6 was starved, so 7 is the second that counts. */
	plan_is(s, 6, 7, b, 1.5, PR_SUITE_PLAN_CHANGE, &p, IDS(1, 4), IDS(5, 7),
	    IDS(2, 3, 6));
	pr_suite_plan_release(&p);
	/* Session 8, the third: the last change plan, replicated three
	 * times on the new side. */
	plan_is(s, 7, 8, b, 1.6, PR_SUITE_PLAN_CHANGE, &p, IDS(1, 4),
	    IDS(5, 7, 8), IDS(2, 3, 6));
	assert_null(p.since_config);
	pr_suite_plan_release(&p);
	/* Session 9, the fourth: B against itself, the starved 6 left
	 * out (its peers are B's alone now), A's sessions nowhere; where
	 * B began is said. */
	plan_is(s, 8, 9, b, 1.4, PR_SUITE_PLAN_STABILITY, &p, IDS(5, 7, 8),
	    IDS(9), IDS(6));
	assert_string_equal(p.base_config, b);
	assert_int_equal(p.since, 5);
	assert_int_equal(p.since_prev, 4);
	assert_string_equal(p.since_config, a);
	pr_suite_plan_release(&p);
	/* Session 10 (a regression within B): called against B's 5, 7,
	 * 8 and 9, not against A. */
	plan_is(s, 9, 10, b, 1.5, PR_SUITE_PLAN_STABILITY, &p, IDS(5, 7, 8, 9),
	    IDS(10), IDS(6));
	pr_suite_plan_release(&p);
	/* Session 12: 10 is B's incident, left out with its reason. */
	plan_is(s, 11, 12, b, 1.5, PR_SUITE_PLAN_STABILITY, &p,
	    IDS(5, 7, 8, 9, 11), IDS(12), IDS(6, 10));
	assert_int_equal(p.left_called[0], 0);
	assert_int_equal(p.left_called[1], 1);
	assert_int_equal(p.left_reg[1], 2);
	assert_int_equal(p.since, 5);
	pr_suite_plan_release(&p);
	/* Back to A: a change again, B's sessions not left out against
	 * A's, old ones and the new 12; no "since" in a change plan. */
	plan_is(s, 11, 12, a, 1.5, PR_SUITE_PLAN_CHANGE, &p,
	    IDS(5, 7, 8, 9, 11), IDS(1, 4, 12), IDS(2, 3, 6, 10));
	assert_null(p.since_config);
	assert_int_equal(p.since, 0);
	pr_suite_plan_release(&p);
	/* A's second session of the change back. */
	s[11] = (struct pr_suite_sess){ 12, "aaaaaaaa", 0, 1.5, 0, 0 };
	plan_is(s, 12, 13, a, 1.5, PR_SUITE_PLAN_CHANGE, &p,
	    IDS(5, 7, 8, 9, 11), IDS(1, 4, 12, 13), IDS(2, 3, 6, 10));
	pr_suite_plan_release(&p);
	/* --baseline A (how the report says to compare the change
	 * again): A's sessions as chosen, B's without its starved 6 and
	 * its incident 10, as its own checks had them. */
	s[0].chosen = s[1].chosen = s[2].chosen = s[3].chosen = 1;
	plan_is(s, 11, 12, b, 1.5, PR_SUITE_PLAN_CHOSEN, &p, IDS(1, 2, 3, 4),
	    IDS(5, 7, 8, 9, 11, 12), IDS(6, 10));
	pr_suite_plan_release(&p);
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
		cmocka_unit_test(test_config_id),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_plan_starved),
		cmocka_unit_test(test_plan_low_median),
		cmocka_unit_test(test_plan_called),
		cmocka_unit_test(test_plan_change),
		cmocka_unit_test(test_ungated),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_late),
		cmocka_unit_test(test_compare_sessions),
		cmocka_unit_test(test_session_median),
		cmocka_unit_test(test_stalled_process),
		cmocka_unit_test(test_carried),
		cmocka_unit_test(test_carried_sessions),
		cmocka_unit_test(test_carried_level),
		cmocka_unit_test(test_summary_kinds),
		cmocka_unit_test(test_real10),
		cmocka_unit_test(test_counts_figures),
		cmocka_unit_test(test_probe_interval),
		cmocka_unit_test(test_starved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
